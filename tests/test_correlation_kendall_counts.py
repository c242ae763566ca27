"""Kendall's counts by Knight's O(n log n) method equal the pairs' signs summed one pair at a time (the
definition), ties in x, y and both included: the same whole numbers, so the same tau to the last bit."""

from __future__ import annotations

import itertools
import math

import numpy as np

from rougekit.stats import correlation as C


def _by_pairs(x, y):
    s = untied_x = untied_y = 0
    for i, j in itertools.combinations(range(len(x)), 2):
        dx = (x[i] > x[j]) - (x[i] < x[j])
        dy = (y[i] > y[j]) - (y[i] < y[j])
        s += dx * dy
        untied_x += dx != 0
        untied_y += dy != 0
    return float(s), float(untied_x), float(untied_y)


def test_counts_equal_the_pairs_one_by_one():
    rng = np.random.default_rng(20)
    for _ in range(400):
        n = int(rng.integers(0, 40))
        x = rng.integers(0, int(rng.integers(1, 6)), n).astype(float)
        y = rng.random(n).round(int(rng.integers(0, 3)))
        if rng.random() < 0.3:
            x = rng.random(n)
        x[rng.random(n) < 0.1] = -0.0  # equal to 0.0
        if rng.random() < 0.2:  # infinities compare as numbers (the pairwise signs of inf - inf were NaN)
            x[rng.random(n) < 0.2] = rng.choice([np.inf, -np.inf])
        assert C._kendall_counts(x, y) == _by_pairs(x.tolist(), y.tolist())


def test_tau_by_hand():
    # x 1 2 3 4, y 1 3 2 4: 5 concordant, 1 discordant pair, no ties: tau (5 - 1) / 6
    assert C.kendall([1, 2, 3, 4], [1, 3, 2, 4]) == (5 - 1) / math.sqrt(6) / math.sqrt(6)


def test_many_cells_equal_the_pairwise_signs():
    """3,000 tied cells: the counts equal the pairwise signs summed by numpy (the old O(n^2) method)."""
    rng = np.random.default_rng(3)
    x, y = rng.random(3_000).round(2), rng.random(3_000).round(1)
    dx, dy = np.sign(x[:, None] - x[None, :]), np.sign(y[:, None] - y[None, :])
    want = (float(np.sum(dx * dy)) / 2, float(np.count_nonzero(dx)) / 2, float(np.count_nonzero(dy)) / 2)
    assert C._kendall_counts(x, y) == want
