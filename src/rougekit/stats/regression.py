"""Simple linear regression with its t test (LR_t) and coefficient of determination (CD = R^2),
as Lin & Hovy (2003) §4.1 report them beside the correlations.

>>> round(t_from_r(0.6, 11), 12)  # 0.6 * sqrt(9) / sqrt(1 - 0.36)
2.25
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from rougekit.errors import OptionError
from rougekit.stats.correlation import pairwise_complete, pearson
from rougekit.stats.distributions import t_sf

__all__ = ["Regression", "linear_regression", "t_from_r"]


@dataclass
class Regression:
    """Least-squares line y = slope * x + intercept with its t-test (LR_t) and R^2 (CD)."""

    slope: float
    intercept: float
    r: float
    r_squared: float
    t: float
    df: int
    p_value: float  # two-sided, H0: slope = 0
    stderr: float  # standard error of the slope
    n: int


def t_from_r(r: float, n: int) -> float:
    """The regression / correlation t statistic r sqrt(n-2) / sqrt(1-r^2)."""
    if n < 3 or r is None or math.isnan(r):
        return math.nan
    if abs(r) >= 1.0:
        return math.copysign(math.inf, r)
    return r * math.sqrt(n - 2) / math.sqrt(1.0 - r * r)


def linear_regression(x, y) -> Regression:
    """Regress y on x (pairwise-complete values). Lin & Hovy regress human scores on the metric."""
    x, y = pairwise_complete(x, y)
    n = int(x.size)
    if n < 2:
        raise OptionError(f"linear regression needs at least 2 points, got {n}")
    xm, ym = x - x.mean(), y - y.mean()
    sxx = float(np.dot(xm, xm))
    if sxx == 0.0:
        raise OptionError("linear regression needs x values that are not all equal")
    slope = float(np.dot(xm, ym)) / sxx
    intercept = float(y.mean() - slope * x.mean())
    r = pearson(x, y)
    if math.isnan(r):  # y constant: a flat line fits exactly
        r = 0.0
    df = n - 2
    r2 = r * r
    if df > 0:
        resid = ym - slope * xm
        sse = float(np.dot(resid, resid))
        stderr = math.sqrt(sse / df / sxx)
        t = t_from_r(r, n)
        p = 2.0 * t_sf(abs(t), df) if not math.isinf(t) else 0.0
    else:
        stderr, t, p = math.nan, math.nan, math.nan
    return Regression(slope, intercept, r, r2, t, df, p, stderr, n)
