"""The other measures of the source papers: Lin & Hovy (2003) and Hori et al. (2004)."""

from rougekit.metrics.hori import accy, kappa, nrst_accy, prec_n, sum_accy, wsum_accy
from rougekit.metrics.lin_hovy import bleu, ngram_coverage, ngram_score, sentence_bleu

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
