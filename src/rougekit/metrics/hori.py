"""Hori et al. (2004)'s measures under their documented path; they live in :mod:`rougekit.measures.hori`."""

from rougekit.measures.hori import (
    EditCounts,
    NetworkMatch,
    SummaryNetwork,
    accy,
    edit_counts,
    kappa,
    nrst_accy,
    prec_n,
    sum_accy,
    wsum_accy,
)

__all__ = [
    "EditCounts",
    "NetworkMatch",
    "SummaryNetwork",
    "accy",
    "edit_counts",
    "kappa",
    "nrst_accy",
    "prec_n",
    "sum_accy",
    "wsum_accy",
]
