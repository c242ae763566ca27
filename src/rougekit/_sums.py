"""Sums of floats in one order on every Python.

Python 3.12's ``sum()`` of floats compensates its rounding errors (Neumaier), 3.10 and 3.11's adds
left to right, as ROUGE-1.5.5.pl and the papers' tools do: the same means printed with five
decimals could differ in the last one between Pythons (``rougekit compare``'s 0.83051 was 0.83052
on 3.12). rougekit's own means add left to right, everywhere.
"""

from __future__ import annotations

from collections.abc import Iterable


def sum_in_order(values: Iterable[float]) -> float:
    """``values`` added left to right, one rounding per addition (``sum()`` before Python 3.12)."""
    total = 0.0
    for value in values:
        total += value
    return total


def mean_in_order(values: list[float], empty: float) -> float:
    """The mean of ``values`` added left to right; ``empty`` when there are none."""
    return sum_in_order(values) / len(values) if values else empty
