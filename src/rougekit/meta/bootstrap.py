"""Confidence intervals for correlations and tests of whether one metric correlates better: the
names ``rougekit.meta.bootstrap`` has always offered, now implemented once in
:mod:`rougekit.stats.inference` (resampling in :mod:`rougekit.stats.resampling`)."""

from __future__ import annotations

from rougekit.stats.inference import (
    ComparisonResult,
    CorrelationCI,
    bootstrap_ci,
    bootstrap_distribution,
    bootstrap_test,
    correlation_ci,
    fisher_ci,
    fisher_interval,
    permutation_test,
    williams_compare,
    williams_test,
)
from rougekit.stats.resampling import RESAMPLE_UNITS, confidence_fraction, resample

__all__ = [
    "RESAMPLE_UNITS",
    "ComparisonResult",
    "CorrelationCI",
    "bootstrap_ci",
    "bootstrap_distribution",
    "bootstrap_test",
    "confidence_fraction",
    "correlation_ci",
    "fisher_ci",
    "fisher_interval",
    "permutation_test",
    "resample",
    "williams_compare",
    "williams_test",
]
