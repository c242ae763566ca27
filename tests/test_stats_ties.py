"""System-level correlation keeps tied system means tied (qa21b F8).

Score files hold 5-decimal numbers; two systems with the same mean in decimal arithmetic used to get
means differing in the last bit (0.1 and 0.5 vs 0.2 and 0.4: 0.3 vs 0.30000000000000004), so Spearman
and Kendall ranked a tie as a strict order. The expected values are computed by hand below.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from rougekit.meta.correlation import correlate, system_means, why_undefined
from rougekit.stats.levels import resampled_levels

# systems A, B, C x 2 instances: means 0.3, 0.3, 0.9 against human 1, 2, 3
METRIC = [[0.1, 0.5], [0.2, 0.4], [0.9, 0.9]]
HUMAN = [[1.0, 1.0], [2.0, 2.0], [3.0, 3.0]]


def test_tied_means_are_equal_doubles():
    xs, _ = system_means(METRIC, HUMAN)
    assert xs[0] == xs[1] == 0.3
    assert xs[2] == 0.9


def test_tied_means_rank_as_ties():
    # ranks of (0.3, 0.3, 0.9) are (1.5, 1.5, 3) against (1, 2, 3); Pearson's r of the ranks
    rx, ry = np.array([1.5, 1.5, 3.0]), np.array([1.0, 2.0, 3.0])
    dx, dy = rx - rx.mean(), ry - ry.mean()
    rho = float((dx * dy).sum() / math.sqrt((dx * dx).sum() * (dy * dy).sum()))
    assert rho == pytest.approx(math.sqrt(3) / 2)
    # Kendall tau-b: 2 concordant pairs (A,C), (B,C), 0 discordant, 1 pair tied in x only
    tau_b = 2 / math.sqrt((3 - 1) * (3 - 0))
    assert correlate(METRIC, HUMAN, "system", "spearman") == pytest.approx(rho, abs=1e-15)
    assert correlate(METRIC, HUMAN, "system", "kendall") == pytest.approx(tau_b, abs=1e-15)
    assert correlate(METRIC, HUMAN, "system", "pearson") == pytest.approx(math.sqrt(3) / 2, abs=1e-15)


def test_means_over_paired_cells_all_equal_give_nan():
    # B's second human cell is missing: means over paired cells are 0.3, 0.3, 0.3 (constant)
    metric = [[0.5, 0.1], [0.3, 0.7], [0.2, 0.4]]
    human = [[1.0, 1.0], [2.0, math.nan], [3.0, 3.0]]
    xs, _ = system_means(metric, human)
    assert xs.tolist() == [0.3, 0.3, 0.3]
    for coef in ("pearson", "spearman", "kendall"):
        assert math.isnan(correlate(metric, human, "system", coef)), coef
    assert why_undefined(metric, human) == (
        "system-level correlation undefined: the metric's system means (over paired instances) are all 0.3"
    )


def test_why_undefined_names_each_constant_side_and_none_when_defined():
    assert why_undefined(METRIC, HUMAN) is None
    both = why_undefined([[0.1, 0.5], [0.2, 0.4]], [[2.0, 2.0], [2.0, 2.0]])
    assert both.endswith(
        "the metric's system means (over paired instances) are all 0.3 and the human's system "
        "means (over paired instances) are all 2"
    )
    one = why_undefined([[0.1, 0.5], [0.2, 0.4]], [[1.0, 1.0], [math.nan, math.nan]])
    assert one == "system-level correlation undefined: 1 system(s) with paired scores, it needs 2"


def test_resampled_system_means_keep_ties():
    M = np.array(METRIC)
    rows = np.array([[0, 1, 2], [1, 0, 2]])
    got = resampled_levels(M, rows, None, "system")
    assert got[:, 0].tolist() == got[:, 1].tolist() == [0.3, 0.3]
    cols = np.array([[0, 1], [1, 0]])
    got = resampled_levels(M, None, cols, "system")
    assert got[:, 0].tolist() == got[:, 1].tolist() == [0.3, 0.3]


def test_exact_grid_only_for_decimal_scores():
    from rougekit.stats.levels import exact_grid

    M = np.array([[0.12345, math.nan], [1.0, 0.5]])
    R, scale = exact_grid(M)
    assert R[0, 1] == 0.0 and (R / scale)[~np.isnan(M)].tolist() == [0.12345, 1.0, 0.5]
    assert all(float(r).is_integer() for r in R.ravel())
    # a row of 10**6 scores of 1.0 needs fewer places for its sum to stay exact
    R, scale = exact_grid(np.array([[0.5, 1.0]]), cells=10**6)
    assert scale <= 1e9 and R.tolist() == [[0.5 * scale, scale]]
    # a mean of three ratings: thirds are on the 27720 grid
    R, scale = exact_grid(np.array([[8 / 3, 0.5]]))
    assert (R / scale).tolist() == [[8 / 3, 0.5]] and R[0, 0] * 3 == 8 * scale
    assert exact_grid(np.array([[1 / 97, 0.5]])) is None


def test_untied_means_keep_their_float_value():
    # no tie: the plain float mean, bit for bit (sacrerouge's published values depend on it)
    metric = [[0.1, 0.2, 0.7], [0.3, 0.3, 0.3]]
    xs, _ = system_means(metric, [[1.0] * 3, [2.0] * 3])
    assert xs.tolist() == [(0.1 + 0.2 + 0.7) / 3, (0.3 + 0.3 + 0.3) / 3]


def test_other_numbers_tie_when_a_system_has_the_same_values_in_another_order():
    seventh = 1 / 7
    metric = [[0.1, 0.7, seventh], [0.7, seventh, 0.1], [0.9, 0.9, 0.9]]
    # left to right the two sums differ in the last bit (0.9428571428571428 and ...27)
    assert (0.1 + 0.7 + seventh) != (0.7 + seventh + 0.1)
    xs, _ = system_means(metric, HUMAN_3)
    assert xs[0] == xs[1]
    assert correlate(metric, HUMAN_3, "system", "kendall") == pytest.approx(2 / math.sqrt(6), abs=1e-15)


HUMAN_3 = [[1.0] * 3, [2.0] * 3, [3.0] * 3]


def test_means_of_three_ratings_tie_exactly():
    # SummEval's human scores are means of 3 annotators (thirds): (3/3 + 7/3) / 2 = (4/3 + 6/3) / 2 = 5/3,
    # where float means give 1.6666666666666667 and 1.6666666666666665
    human = [[3 / 3, 7 / 3], [4 / 3, 6 / 3], [4.0, 5.0]]
    metric = [[0.1, 0.2], [0.3, 0.4], [0.5, 0.6]]
    assert (3 / 3 + 7 / 3) / 2 != (4 / 3 + 6 / 3) / 2
    _, ys = system_means(metric, human)
    assert ys[0] == ys[1] == 5 / 3
    # metric ranks 1, 2, 3 against human 1.5, 1.5, 3: tau-b 2 / sqrt(6) by hand, as above
    assert correlate(metric, human, "system", "kendall") == pytest.approx(2 / math.sqrt(6), abs=1e-15)


def test_decimal_ties_of_large_scores():
    # review21c F1: scores of 7 digits and 5 decimals tie in decimal arithmetic; the finest grids cannot tell
    # there (every double past 2**53 / 10**12 is whole), the 5-decimal grid can
    a, b = [6404783.09589, 6404783.17781], [6404783.08945, 6404783.18425]  # sums 12809566.2737 both
    xs, _ = system_means([a, b, [0.0, 0.0]], [[1.0] * 2, [2.0] * 2, [3.0] * 2])
    assert xs[0] == xs[1]


def test_a_system_drawn_twice_keeps_its_float_mean():
    # equal float means are a tie already: kept bit for bit (no exact mean put in their place)
    row = [0.1, 0.7, 1 / 7]
    xs, _ = system_means([row, row, [0.9, 0.9, 0.9]], HUMAN_3)
    assert xs[0] == xs[1] == sum(row) / 3


def test_a_tie_takes_the_float_mean_of_its_first_system():
    xs, _ = system_means([[0.2, 0.4], [0.1, 0.5], [0.9, 0.9]], [[1.0] * 2, [2.0] * 2, [3.0] * 2])
    assert xs[0] == xs[1] == (0.2 + 0.4) / 2  # 0.30000000000000004, the first's, for both


def test_non_finite_and_huge_scores_give_a_value_without_an_error():
    # review21c F2: an inf beside a -inf made math.fsum raise; 1e300 * 10**12 overflowed in the grid check
    with np.errstate(invalid="ignore"):
        correlate([[math.inf, -math.inf], [1.0, 2.0], [5.0, 6.0]], [[1.0, 2], [2, 3], [3, 4]], "system", "pearson")
    value = correlate([[1e300, 2e300], [3e300, 1e300], [5.0, 6.0]], [[1.0, 2], [2, 3], [3, 4]], "system", "kendall")
    assert value == pytest.approx(-1 / 3)
