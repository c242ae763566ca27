"""Paired significance tests between two systems scored on the same inputs.

Pure functions over per-pair score vectors ``a`` and ``b`` (same length, same order).

>>> r = approximate_randomization([0.5, 0.6, 0.7, 0.8], [0.5, 0.6, 0.7, 0.8], trials=200, seed=1)
>>> r.delta, r.p_value
(0.0, 1.0)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class PairedTest:
    """Mean difference b - a, two-sided p-value, and how it was obtained."""

    delta: float
    p_value: float
    method: str
    trials: int
    seed: int
    low: float | None = None
    high: float | None = None


def _vectors(a, b) -> tuple[np.ndarray, np.ndarray]:
    x, y = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    if x.shape != y.shape or x.ndim != 1:
        raise ValueError("paired tests need two vectors of the same length")
    return x, y


def approximate_randomization(a, b, trials: int = 10000, seed: int = 0) -> PairedTest:
    """Two-sided approximate randomization (Noreen 1989; Riezler & Maxwell 2005).

    Each trial swaps the two systems' scores of every pair with probability 1/2;
    p = (1 + #{|mean diff| >= observed}) / (1 + trials).
    """
    x, y = _vectors(a, b)
    observed = float(np.mean(y - x)) if len(x) else 0.0
    rng = np.random.default_rng(seed)
    diff = y - x
    hits = 0
    block = 1000
    for start in range(0, trials, block):
        size = min(block, trials - start)
        signs = rng.integers(0, 2, size=(size, len(x))) * 2 - 1
        means = (signs * diff).mean(axis=1) if len(x) else np.zeros(size)
        hits += int(np.sum(np.abs(means) >= abs(observed) - 1e-12))
    return PairedTest(observed, (hits + 1) / (trials + 1), "approximate-randomization", trials, seed)


def paired_bootstrap(a, b, trials: int = 1000, seed: int = 0, confidence: float = 95.0) -> PairedTest:
    """Paired bootstrap (Koehn 2004) with the null-shifted p-value of Berg-Kirkpatrick et al. (2012):
    resample pairs; p = (1 + #{|Δ* - Δ| >= |Δ|}) / (1 + trials); plus a percentile interval of Δ."""
    x, y = _vectors(a, b)
    n = len(x)
    observed = float(np.mean(y - x)) if n else 0.0
    if n == 0:
        return PairedTest(0.0, 1.0, "paired-bootstrap", trials, seed, 0.0, 0.0)
    rng = np.random.default_rng(seed)
    idx = rng.integers(0, n, size=(trials, n))
    deltas = (y - x)[idx].mean(axis=1)
    p = (1 + int(np.sum(np.abs(deltas - observed) >= abs(observed) - 1e-12))) / (1 + trials)
    lo, hi = np.percentile(deltas, [(100 - confidence) / 2, 100 - (100 - confidence) / 2])
    return PairedTest(observed, float(p), "paired-bootstrap", trials, seed, float(lo), float(hi))
