"""Interning of tokens to small integers, so the kernels compare ints, not strings.

>>> v = Vocabulary()
>>> v.ids(["the", "cat", "the"])
[0, 1, 0]
"""

from __future__ import annotations


class Vocabulary:
    """A growing token -> id table."""

    def __init__(self) -> None:
        self._ids: dict[str, int] = {}

    def __len__(self) -> int:
        return len(self._ids)

    def ids(self, tokens: list[str]) -> list[int]:
        table = self._ids
        out = []
        for token in tokens:
            i = table.get(token)
            if i is None:
                i = table[token] = len(table)
            out.append(i)
        return out
