"""Interning of tokens to small integers, so the kernels compare ints, not strings.

>>> v = Vocabulary()
>>> v.ids(["the", "cat", "the"])
[0, 1, 0]
"""

from __future__ import annotations

import functools
from typing import Callable, Iterable

from rougekit import _core


class Vocabulary:
    """A growing token -> id table: :func:`interner` (empty tokens kept), its ids as a list."""

    def __init__(self) -> None:
        self._ids: dict[str, int] = {}
        self._intern = interner(self._ids, skip_empty=False)

    def __len__(self) -> int:
        return len(self._ids)

    def ids(self, tokens: list[str]) -> list[int]:
        return list(self._intern(tokens))


def interner(vocab: dict, skip_empty: bool = True) -> Callable[[Iterable], tuple]:
    """``ids(tokens)``: the ids of the ``tokens`` in ``vocab`` (token -> id, a new token numbered
    ``len(vocab)`` on first sight), as a tuple, empty tokens left out unless not ``skip_empty``;
    the loop is the compiled engine's (``rougekit._core.intern_ids``) when it is in use.

    >>> ids = interner({})
    >>> ids(["the", "cat", "", "the"]), ids(["cat", "sat"]), interner({}, skip_empty=False)(["a", "", "a"])
    ((0, 1, 0), (1, 2), (0, 1, 0))
    """
    return functools.partial(_core.intern_ids, vocab, skip_empty=skip_empty)
