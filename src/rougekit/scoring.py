"""Per-pair counts and R/P/F, the ROUGE-1.5.5 way: the public names of :mod:`rougekit.engine.readable`.

The code lives in the engine (the readable twin of the compiled batch path, and the one
statistics-to-score formula); this module keeps the documented names. Front ends reach them
through :mod:`rougekit.engine.door`.

>>> from rougekit.measures import Measure
>>> peer = Doc(tokens=[0, 1, 2, 3], sentences=[[0, 1, 2, 3]])          # police kill the gunman
>>> ref = Doc(tokens=[0, 4, 2, 3], sentences=[[0, 4, 2, 3]])           # police killed the gunman
>>> score_pair(Measure.rouge_n(1), peer, [ref]).recall
0.75
"""

from __future__ import annotations

from rougekit.engine.readable import Doc as Doc
from rougekit.engine.readable import PairScore as PairScore
from rougekit.engine.readable import RefStats as RefStats
from rougekit.engine.readable import combine as combine
from rougekit.engine.readable import f_measure as f_measure
from rougekit.engine.readable import f_measure_array as f_measure_array
from rougekit.engine.readable import final_scores as final_scores
from rougekit.engine.readable import jackknife as jackknife
from rougekit.engine.readable import pair_score as pair_score
from rougekit.engine.readable import ratio_stats as ratio_stats
from rougekit.engine.readable import ratios as ratios
from rougekit.engine.readable import ratios_array as ratios_array
from rougekit.engine.readable import reference_stats as reference_stats
from rougekit.engine.readable import score_pair as score_pair
from rougekit.engine.readable import wlcs_paper_value as wlcs_paper_value
