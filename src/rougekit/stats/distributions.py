"""The normal distribution (from the standard library) and Student's t (from scipy, the ``stats``
extra, imported only when a t test runs).

>>> round(normal_ppf(0.975), 6)
1.959964
"""

from __future__ import annotations

import math
from statistics import NormalDist

from rougekit.errors import OptionError

__all__ = ["normal_cdf", "normal_ppf", "normal_sf", "t_cdf", "t_ppf", "t_sf"]

_STD_NORMAL = NormalDist()


def normal_cdf(z: float) -> float:
    """P(Z <= z) for a standard normal Z."""
    return 0.5 * math.erfc(-z / math.sqrt(2.0))


def normal_sf(z: float) -> float:
    """P(Z > z) for a standard normal Z (accurate in the upper tail)."""
    return 0.5 * math.erfc(z / math.sqrt(2.0))


def normal_ppf(p: float) -> float:
    """The standard normal quantile."""
    if not 0.0 < p < 1.0:
        if p == 0.0:
            return -math.inf
        if p == 1.0:
            return math.inf
        return math.nan
    return _STD_NORMAL.inv_cdf(p)


def _scipy_t():
    """scipy's Student t distribution (the ``stats`` extra), imported when first needed."""
    try:
        from scipy import stats
    except ImportError:  # pragma: no cover - depends on the installation
        raise OptionError("this statistic needs scipy: pip install 'rougekit[stats]'") from None
    return stats.t


def t_sf(t: float, df: float) -> float:
    """P(T > t) for Student's t with ``df`` degrees of freedom (scipy)."""
    return float(_scipy_t().sf(t, df))


def t_cdf(t: float, df: float) -> float:
    """P(T <= t) for Student's t with ``df`` degrees of freedom (scipy)."""
    return float(_scipy_t().cdf(t, df))


def t_ppf(p: float, df: float) -> float:
    """The Student t quantile (scipy)."""
    return float(_scipy_t().ppf(p, df))
