# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Compiled edit counts of Hori et al.'s ACCY over interned units; the readable twin is ``_edit_pure.py``.

The same dynamic programme as the twin (read its docstring): two rows, each cell the pair
``(errors, substitutions)`` of the best alignment of two prefixes, compared errors first. A row is
filled in two passes, the cells from the row above first (independent of each other, so the compiler
can vectorize them), then the deletions from the left (a minimum is a minimum in any order). Rows
are filled without the GIL in blocks of about four million cells, with a look at pending signals
between blocks, so Ctrl-C stops a long pair within milliseconds. Here
the pair is packed in one unsigned 64-bit integer, ``errors << 32 | substitutions``, so that
comparing and adding pairs are one integer ``min`` and ``+``: a match adds 0, a substitution
``1 << 32 | 1``, an insertion or a deletion ``1 << 32``. Lengths up to ``2**31 - 1`` units
keep both halves apart.
"""

from cpython.exc cimport PyErr_CheckSignals
from libc.stdint cimport int64_t, uint64_t
from libc.stdlib cimport free, malloc

from rougekit._core._edit_pure import split_errors

__all__ = ["edit_counts"]

cdef uint64_t GAP = (<uint64_t>1) << 32
cdef uint64_t SUB = GAP | 1
cdef uint64_t LOW = GAP - 1
MAX_UNITS = 2**31 - 1
#: cells filled between two looks at pending signals (Ctrl-C): a few milliseconds
cdef Py_ssize_t CELLS_PER_BLOCK = 1 << 22


cdef int64_t* _ids(object units, Py_ssize_t count) except NULL:
    cdef int64_t* out = <int64_t*>malloc((count + 1) * sizeof(int64_t))
    if out == NULL:
        raise MemoryError()
    cdef Py_ssize_t k
    try:
        for k in range(count):
            out[k] = units[k]
    except BaseException:
        free(out)
        raise
    return out


cdef uint64_t* _rows(const int64_t* cand, Py_ssize_t first, Py_ssize_t last, const int64_t* ref, Py_ssize_t n,
                     uint64_t* prev, uint64_t* cur) noexcept nogil:
    """Rows ``first`` to ``last - 1`` (1-based candidate positions) after the row ``prev``; returns the last."""
    cdef Py_ssize_t a, b
    cdef int64_t unit
    cdef uint64_t best, other
    cdef uint64_t* swap
    for a in range(first, last):
        unit = cand[a - 1]
        cur[0] = <uint64_t>a * GAP
        # from the row above (match or substitution, insertion): no dependency along the row
        for b in range(1, n + 1):
            best = prev[b - 1] if unit == ref[b - 1] else prev[b - 1] + SUB
            other = prev[b] + GAP
            cur[b] = best if best <= other else other
        # then deletions, along the row
        for b in range(1, n + 1):
            other = cur[b - 1] + GAP
            if other < cur[b]:
                cur[b] = other
        swap = prev
        prev = cur
        cur = swap
    return prev


cdef uint64_t _counts(const int64_t* cand, Py_ssize_t m, const int64_t* ref, Py_ssize_t n,
                      uint64_t* prev, uint64_t* cur) except? 0:
    """The last cell, filled a block of rows at a time without the GIL; Ctrl-C is seen between blocks."""
    cdef Py_ssize_t b, first, last
    cdef Py_ssize_t step = max(1, CELLS_PER_BLOCK // (n + 1))
    cdef uint64_t* row
    for b in range(n + 1):
        prev[b] = <uint64_t>b * GAP
    first = 1
    while first <= m:
        last = min(m + 1, first + step)
        with nogil:
            row = _rows(cand, first, last, ref, n, prev, cur)
        if row != prev:
            cur = prev
            prev = row
        PyErr_CheckSignals()
        first = last
    return prev[n]


def edit_counts(candidate, reference):
    """``(substitutions, insertions, deletions)``: see the module docstring and ``_edit_pure.edit_counts``."""
    cdef Py_ssize_t m = len(candidate), n = len(reference)
    if m > MAX_UNITS or n > MAX_UNITS:
        raise ValueError(f"edit counts take at most {MAX_UNITS} units a side")
    cdef int64_t* cand = _ids(candidate, m)
    cdef int64_t* ref = NULL
    cdef uint64_t* rows = NULL
    cdef uint64_t cell
    try:
        ref = _ids(reference, n)
        rows = <uint64_t*>malloc(2 * (n + 1) * sizeof(uint64_t))
        if rows == NULL:
            raise MemoryError()
        cell = _counts(cand, m, ref, n, rows, rows + n + 1)
    finally:
        free(cand)
        free(ref)
        free(rows)
    return split_errors(<int64_t>(cell >> 32), <int64_t>(cell & LOW), m, n)
