"""Every statistic once: the script's bootstrap (``perl_bootstrap``), seeded resampling and
percentile intervals (``resampling``), paired tests (``paired``), correlation coefficients in scalar
and batched form (``correlation``), their system/summary/global levels (``levels``), intervals and
comparisons of correlations (``inference``), linear regression (``regression``), and the normal and t distributions
(``distributions``). Front ends (``api``, ``meta``, ``cli``) call these; F from R and P is
:func:`rougekit.scoring.f_measure` (numpy twin :func:`rougekit.scoring.f_measure_array`)."""
