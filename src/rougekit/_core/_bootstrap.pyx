# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Compiled twin of ``rougekit.stats.perl_bootstrap.resample_sums``: the script's resampling loop.

For resample s: seed Perl's drand48 with ``srand(s)``, draw n indices ``int(rand(n))``, and add
the drawn rows in draw order. Same arithmetic as the numpy version, so the sums are identical.
No numpy here: ``rougekit rouge155`` runs without importing it.
"""
from array import array

from libc.stdint cimport uint64_t


def resample_sums(const double[:, ::1] values, Py_ssize_t resamples):
    """The sums of the drawn rows, resample after resample: a flat ``array('d')`` of resamples x 3.

    ``values``: any C-contiguous n x 3 float64 buffer (a numpy array, a cast memoryview).
    """
    cdef Py_ssize_t n = values.shape[0]
    out_arr = array("d", bytes(8 * 3 * resamples))
    cdef double[:, ::1] out = memoryview(out_arr).cast("B").cast("d", (resamples, 3))
    cdef uint64_t state, mult = 0x5DEECE66D, add = 0xB, mask = (<uint64_t>1 << 48) - 1
    cdef uint64_t low32 = 0xFFFFFFFF, seed_low = 0x330E
    cdef double scale = 1.0 / 281474976710656.0  # 2^-48
    cdef Py_ssize_t s, k, idx
    cdef double a, b, c
    if n == 0:
        return out_arr
    with nogil:
        for s in range(resamples):
            state = ((<uint64_t>s & low32) << 16) + seed_low
            a = b = c = 0.0
            for k in range(n):
                state = (state * mult + add) & mask
                idx = <Py_ssize_t>((<double>state * scale) * <double>n)
                if k == 0:
                    a = values[idx, 0]
                    b = values[idx, 1]
                    c = values[idx, 2]
                else:
                    a = a + values[idx, 0]
                    b = b + values[idx, 1]
                    c = c + values[idx, 2]
            out[s, 0] = a
            out[s, 1] = b
            out[s, 2] = c
    return out_arr
