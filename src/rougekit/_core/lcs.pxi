# LCS lengths without a trace-back (docs/rouge155: ROUGE-L): bit-parallel rows (Allison-Dix /
# Hyyro, common.pxi's bitlcs_row) over the candidate's local ids.  _seq_lcs is rouge-score's
# rougeL and ROUGE-L when both sides are one sentence (the union of one LCS is that LCS).  The
# summary-level union LCS with the script's trace-back is in score.pxi.

cdef inline void _match_bits(uint64_t* PM, const int32_t* y, Py_ssize_t n, Py_ssize_t Wb, bint on) noexcept nogil:
    """Set (``on``) or clear the match bit of every position b < n of y in the row of its token."""
    cdef Py_ssize_t b
    for b in range(n):
        if on:
            PM[<Py_ssize_t>y[b] * Wb + (b >> 6)] |= (<uint64_t>1) << (b & 63)
        else:
            PM[<Py_ssize_t>y[b] * Wb + (b >> 6)] = 0


cdef Py_ssize_t _seq_lcs(Work* w, const int32_t* y, Py_ssize_t n, const int32_t* x, Py_ssize_t m,
                         Py_ssize_t U) noexcept nogil:
    """Length of an LCS of the local-id sequences x[:m] and y[:n] (bit-parallel over y); -1: no memory.

    Ids < 0 in x never match. Uses the work's ``pm`` table (left all zero) and ``rows``.
    """
    cdef Py_ssize_t Wb = (n + 63) >> 6, a, t, lcs
    cdef uint64_t* PM
    cdef uint64_t* V
    cdef int32_t loc
    if n == 0 or m == 0 or U == 0:
        return 0
    if _need_zeroed(&w.pm, U * Wb, 8) < 0 or _need(&w.rows, Wb, 8) < 0:
        return -1
    PM = <uint64_t*>w.pm.p
    V = <uint64_t*>w.rows.p
    _match_bits(PM, y, n, Wb, True)
    for t in range(Wb):
        V[t] = ~(<uint64_t>0)
    for a in range(m):
        loc = x[a]
        if loc >= 0:
            bitlcs_row(V, V, PM + <Py_ssize_t>loc * Wb, Wb)
    lcs = lcs_prefix(V, n)   # the zero bits of the last row below n
    _match_bits(PM, y, n, Wb, False)
    return lcs
