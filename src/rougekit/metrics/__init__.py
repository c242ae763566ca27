"""The other measures of the source papers: Lin & Hovy (2003) and Hori et al. (2004).

One home each: :mod:`rougekit.measures.hori` and :mod:`rougekit.measures.lin_hovy`; these are aliases.
"""

from rougekit.measures.hori import accy, kappa, nrst_accy, prec_n, sum_accy, wsum_accy
from rougekit.measures.lin_hovy import bleu, ngram_coverage, ngram_score, sentence_bleu

__all__ = [
    "accy",
    "nrst_accy",
    "prec_n",
    "sum_accy",
    "wsum_accy",
    "kappa",
    "bleu",
    "sentence_bleu",
    "ngram_score",
    "ngram_coverage",
]
