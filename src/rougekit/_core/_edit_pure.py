"""Readable twin of ``_edit.pyx``: the edit counts of Hori et al.'s ACCY over interned units.

Both sides are sequences of ints (units interned by the caller, :mod:`rougekit.metrics.hori`);
units are equal when their ids are. The alignment is a minimum edit distance alignment with
unit costs (Levenshtein); among the alignments with the fewest errors, the one with the fewest
substitutions.

A cell of the dynamic programme holds ``(errors, substitutions)`` of the best alignment of the
two prefixes, compared as a pair (errors first). Insertions and deletions need not travel in the
cell: an alignment of ``m`` candidate units to ``n`` reference units with ``e`` errors of which
``s`` are substitutions has ``i + d = e - s`` and ``i - d = m - n``, so they follow from the
pair. Two rows are kept, so memory is ``O(n)`` and time ``O(m * n)``.

>>> edit_counts([1, 2, 3], [2, 3, 4])  # a b c vs b c d: one deletion, one insertion
(0, 1, 1)
>>> edit_counts([1, 2], [1, 3])  # one substitution
(1, 0, 0)
>>> edit_counts([], [5, 5])
(0, 0, 2)
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

__all__ = ["edit_counts"]


def edit_counts(candidate: Sequence[Hashable], reference: Sequence[Hashable]) -> tuple[int, int, int]:
    """``(substitutions, insertions, deletions)`` of the alignment described in the module docstring.

    Units are compared with ``==``: ints here, as the caller interns them, or the units themselves
    when they cannot be interned (unhashable, or NaN)."""
    m, n = len(candidate), len(reference)
    prev = [(b, 0) for b in range(n + 1)]  # empty candidate prefix: b deletions
    for a in range(1, m + 1):
        unit = candidate[a - 1]
        cur = [(a, 0)]  # empty reference prefix: a insertions
        for b in range(1, n + 1):
            errors, subs = prev[b - 1]
            best = (errors, subs) if unit == reference[b - 1] else (errors + 1, subs + 1)
            errors, subs = prev[b]  # the candidate unit inserted
            if (errors + 1, subs) < best:
                best = (errors + 1, subs)
            errors, subs = cur[b - 1]  # the reference unit deleted
            if (errors + 1, subs) < best:
                best = (errors + 1, subs)
            cur.append(best)
        prev = cur
    errors, subs = prev[n]
    return split_errors(errors, subs, m, n)


def split_errors(errors: int, subs: int, m: int, n: int) -> tuple[int, int, int]:
    """``(subs, insertions, deletions)`` from ``errors`` and ``subs`` for ``m`` candidate and ``n`` reference units."""
    gaps = errors - subs
    return subs, (gaps + m - n) // 2, (gaps - m + n) // 2
