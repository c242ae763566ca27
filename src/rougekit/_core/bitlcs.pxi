# Shared by _kernels.pyx and _batch.pyx (``include "bitlcs.pxi"``): one row of the bit-parallel
# LCS of Allison-Dix / Hyyro.  Bit b of a row is 0 where the LCS of the row's prefix of x with
# y[:b+1] grew at b; the LCS length is the number of zero bits below len(y).

from libc.stdint cimport uint64_t


cdef inline void bitlcs_row(const uint64_t* V, uint64_t* Vn, const uint64_t* pm, Py_ssize_t words) noexcept nogil:
    """Vn = (V + (V & pm)) | (V & ~pm) over ``words`` 64-bit words, the carry running upwards.

    ``pm``: the match mask of the next x token over y. ``Vn`` may be ``V`` (in place).
    """
    cdef Py_ssize_t t
    cdef uint64_t v, u, sm, s2, carry = 0
    for t in range(words):
        v = V[t]
        u = v & pm[t]
        sm = v + u
        s2 = sm + carry
        carry = (sm < v) | (s2 < sm)
        Vn[t] = s2 | (v & ~pm[t])
