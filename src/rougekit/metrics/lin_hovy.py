"""Lin & Hovy (2003)'s measures under their documented path; they live in :mod:`rougekit.measures.lin_hovy`."""

from rougekit.measures.lin_hovy import (
    BleuScore,
    bleu,
    brevity_penalty,
    ngram_cooccurrence_precisions,
    ngram_counts,
    ngram_coverage,
    ngram_score,
    sentence_bleu,
)

__all__ = [
    "BleuScore",
    "bleu",
    "brevity_penalty",
    "ngram_counts",
    "ngram_coverage",
    "ngram_cooccurrence_precisions",
    "ngram_score",
    "sentence_bleu",
]
