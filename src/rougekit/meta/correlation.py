"""Correlation of a measure with human judgments: the names ``rougekit.meta.correlation`` has always
offered, now implemented once in :mod:`rougekit.stats` (coefficients in ``stats.correlation``,
system/summary/global levels in ``stats.levels``, distributions in ``stats.distributions``).

>>> correlate([[1.0], [2.0], [3.0]], [[1.0], [3.0], [2.0]], "system", "spearman")
0.5
"""

from __future__ import annotations

from rougekit.stats.correlation import (
    COEFFICIENTS,
    canonical_coefficient,
    get_coefficient,
    kendall,
    pearson,
    rankdata,
    spearman,
)
from rougekit.stats.distributions import normal_cdf, normal_ppf, normal_sf, t_cdf, t_ppf, t_sf
from rougekit.stats.levels import (
    LEVELS,
    SummaryLevelResult,
    as_matrix,
    correlate,
    global_level,
    level_size,
    summary_level,
    system_level,
    system_means,
    why_undefined,
)

__all__ = [
    "COEFFICIENTS",
    "LEVELS",
    "SummaryLevelResult",
    "as_matrix",
    "canonical_coefficient",
    "correlate",
    "get_coefficient",
    "global_level",
    "kendall",
    "level_size",
    "normal_cdf",
    "normal_ppf",
    "normal_sf",
    "pearson",
    "rankdata",
    "spearman",
    "summary_level",
    "system_level",
    "system_means",
    "t_cdf",
    "t_ppf",
    "t_sf",
    "why_undefined",
]
