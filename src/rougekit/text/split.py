"""A text cut at a set of separator characters, by the compiled engine's loop when it is in use.

>>> split = splitter(map(ord, " ,"))
>>> split("a, b,,c ")
['a', 'b', 'c']
"""

from __future__ import annotations

import functools
from typing import Callable, Iterable

from rougekit import _core

__all__ = ["splitter"]


def splitter(separators: Iterable[int]) -> Callable[[str], list]:
    """``split(text)``: the runs of characters of ``text`` between the ``separators`` (code points),
    which are dropped (``rougekit._core.split_marked`` over a bitmap of them)."""
    codes = list(separators)
    marks = bytearray((max(codes, default=0) >> 3) + 1)
    for c in codes:
        marks[c >> 3] |= 1 << (c & 7)
    return functools.partial(_core.split_marked, bytes(marks))
