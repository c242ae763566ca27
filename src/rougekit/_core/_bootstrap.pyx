# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Compiled twin of ``rougekit.stats.perl_bootstrap.resample_sums``: the script's resampling loop.

For resample s: seed Perl's drand48 with ``srand(s)``, draw n indices ``int(rand(n))``, and add
the drawn rows in draw order. Same arithmetic as the numpy version, so the sums are identical.
No numpy here: ``rougekit rouge155`` runs without importing it.
"""
from array import array

from libc.stdint cimport uint64_t

cdef extern from *:
    """
    #if defined(__GNUC__) || defined(__clang__)
    #define RK_PREFETCH(p) __builtin_prefetch(p)
    #else
    #define RK_PREFETCH(p) ((void)0)
    #endif
    """
    void RK_PREFETCH(const void *p) nogil

cdef enum:
    AHEAD = 24  # draws between a row's prefetch and its use: many rows in flight hide memory latency


def resample_sums(const double[:, ::1] values, Py_ssize_t resamples, Py_ssize_t first=0):
    """The sums of the drawn rows, resample after resample: a flat ``array('d')`` of resamples x w.

    ``values``: any C-contiguous n x w float64 buffer (a numpy array, a cast memoryview); every
    column shares the same draws (the script reseeds with the same ``srand(s)`` for every measure).
    ``first``: the seed of the first resample (a slice of the resamples, for threads). A second
    generator runs ``AHEAD`` draws in front and prefetches the rows to come; the sums are the same.
    """
    cdef Py_ssize_t n = values.shape[0], w = values.shape[1]
    out_arr = array("d", bytes(8 * w * resamples))
    if n == 0 or w == 0 or resamples == 0:
        return out_arr
    cdef double[:, ::1] out = memoryview(out_arr).cast("B").cast("d", (resamples, w))
    cdef uint64_t state, ahead, mult = 0x5DEECE66D, add = 0xB, mask = (<uint64_t>1 << 48) - 1
    cdef uint64_t low32 = 0xFFFFFFFF, seed_low = 0x330E
    cdef double scale = 1.0 / 281474976710656.0  # 2^-48
    cdef Py_ssize_t s, k, idx, c
    cdef double *row
    cdef const double *base = &values[0, 0]
    with nogil:
        for s in range(resamples):
            state = ((<uint64_t>(s + first) & low32) << 16) + seed_low
            ahead = state
            for k in range(AHEAD):
                ahead = (ahead * mult + add) & mask
                RK_PREFETCH(base + w * <Py_ssize_t>((<double>ahead * scale) * <double>n))
            row = &out[s, 0]
            for k in range(n):
                state = (state * mult + add) & mask
                ahead = (ahead * mult + add) & mask  # runs past the last draw harmlessly: only a prefetch
                RK_PREFETCH(base + w * <Py_ssize_t>((<double>ahead * scale) * <double>n))
                idx = <Py_ssize_t>((<double>state * scale) * <double>n)
                if k == 0:  # the first drawn value as is, then added in draw order
                    for c in range(w):
                        row[c] = values[idx, c]
                else:
                    for c in range(w):
                        row[c] = row[c] + values[idx, c]
    return out_arr
