# Small kernels of _batch.pyx and _process.pyx (``include "common.pxi"``): n-gram keys,
# bit-parallel LCS rows and prefixes, the ROUGE-W DP; the readable twins are in _pure.py.
# Token ids are int32.

from libc.stdint cimport int32_t, uint8_t, uint32_t, uint64_t


cdef inline uint64_t mix64(uint64_t x) noexcept nogil:
    """64-bit finaliser (avalanche), so that packed keys and hashes spread over a table."""
    x ^= x >> 33
    x *= <uint64_t>0xff51afd7ed558ccd
    x ^= x >> 33
    x *= <uint64_t>0xc4ceb9fe1a85ec53
    x ^= x >> 33
    return x


cdef inline Py_ssize_t pow2_at_least(Py_ssize_t n) noexcept nogil:
    """The smallest power of two >= n (and >= 16): a hash table's capacity."""
    cdef Py_ssize_t cap = 16
    while cap < n:
        cap *= 2
    return cap


cdef inline uint64_t gram_key(const int32_t* w, int n) noexcept nogil:
    """An n-gram's key: packed exactly for n <= 2, a hash of the ids for longer grams."""
    cdef uint64_t h
    cdef int k
    if n == 1:
        return <uint32_t>w[0]
    if n == 2:
        return ((<uint64_t><uint32_t>w[0]) << 32) | <uint32_t>w[1]
    h = <uint64_t>n
    for k in range(n):
        h = (h ^ <uint32_t>w[k]) * <uint64_t>0x9E3779B97F4A7C15
        h ^= h >> 29
    return h


cdef extern from *:
    """
    #if (defined(__GNUC__) || defined(__clang__)) && defined(__POPCNT__)
    #define RK_POPCOUNT64(x) ((int)__builtin_popcountll((unsigned long long)(x)))
    #else
    /* byte table: GCC turns the usual SWAR code into a libgcc call when popcnt is not enabled */
    static const unsigned char rk_pc8[256] = {
    #define RK_B2(n) n, n + 1, n + 1, n + 2
    #define RK_B4(n) RK_B2(n), RK_B2(n + 1), RK_B2(n + 1), RK_B2(n + 2)
    #define RK_B6(n) RK_B4(n), RK_B4(n + 1), RK_B4(n + 1), RK_B4(n + 2)
        RK_B6(0), RK_B6(1), RK_B6(1), RK_B6(2)
    };
    static inline int RK_POPCOUNT64(unsigned long long x) {
        int r = 0;
        while (x) { r += rk_pc8[x & 0xff]; x >>= 8; }
        return r;
    }
    #endif
    """
    int RK_POPCOUNT64(uint64_t x) nogil


# One row of the bit-parallel LCS of Allison-Dix / Hyyro.  Bit b of a row is 0 where the LCS of
# the row's prefix of x with y[:b+1] grew at b; the LCS length is the number of zero bits below len(y).

cdef extern from *:
    """
    /* Vn = (V + (V & pm)) | (V & ~pm) over `words` 64-bit words, the carry running upwards: with
       the add-with-carry instruction on x86-64 (one adc per word; GCC's 128-bit sum took three
       times the instructions), a 128-bit sum where the compiler has one, else by comparisons. */
    #if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__)
    #define RK_HAVE_ADC 1
    #endif
    static inline void rk_bitlcs_row(const uint64_t* V, uint64_t* Vn, const uint64_t* pm, Py_ssize_t words) {
        Py_ssize_t t;
    #if defined(RK_HAVE_ADC)
        unsigned long long c = 0;   /* 0, or all ones after a carry out */
        for (t = 0; t + 4 <= words; t += 4) {   /* four words per carry round trip */
            unsigned long long v0 = V[t], v1 = V[t + 1], v2 = V[t + 2], v3 = V[t + 3];
            unsigned long long p0 = pm[t], p1 = pm[t + 1], p2 = pm[t + 2], p3 = pm[t + 3];
            unsigned long long u0 = v0 & p0, u1 = v1 & p1, u2 = v2 & p2, u3 = v3 & p3;
            __asm__("negq %[c]; adcq %[v0], %[u0]; adcq %[v1], %[u1]; adcq %[v2], %[u2]; adcq %[v3], %[u3]; sbbq %[c], %[c]"
                    : [u0] "+r"(u0), [u1] "+r"(u1), [u2] "+r"(u2), [u3] "+r"(u3), [c] "+r"(c)
                    : [v0] "r"(v0), [v1] "r"(v1), [v2] "r"(v2), [v3] "r"(v3) : "cc");
            Vn[t] = u0 | (v0 & ~p0);
            Vn[t + 1] = u1 | (v1 & ~p1);
            Vn[t + 2] = u2 | (v2 & ~p2);
            Vn[t + 3] = u3 | (v3 & ~p3);
        }
        for (; t < words; t++) {
            unsigned long long v = V[t], p = pm[t], u = v & p;
            /* neg: CF = (c != 0); u += v + CF; sbb: c = -CF */
            __asm__("negq %[c]; adcq %[v], %[u]; sbbq %[c], %[c]"
                    : [u] "+r"(u), [c] "+r"(c) : [v] "r"(v) : "cc");
            Vn[t] = u | (v & ~p);
        }
    #elif defined(__SIZEOF_INT128__)
        unsigned __int128 acc = 0;
        for (t = 0; t < words; t++) {
            uint64_t v = V[t], p = pm[t];
            acc += (unsigned __int128)v + (v & p);
            Vn[t] = (uint64_t)acc | (v & ~p);
            acc >>= 64;
        }
    #else
        uint64_t carry = 0;
        for (t = 0; t < words; t++) {
            uint64_t v = V[t], u = v & pm[t], sm = v + u, s2 = sm + carry;
            carry = (sm < v) | (s2 < sm);
            Vn[t] = s2 | (v & ~pm[t]);
        }
    #endif
    }
    """
    void bitlcs_row "rk_bitlcs_row"(const uint64_t* V, uint64_t* Vn, const uint64_t* pm, Py_ssize_t words) nogil


cdef inline int lcs_prefix(const uint64_t* V, Py_ssize_t b) noexcept nogil:
    """c(a, b) from the bit-parallel row V_a: the zero bits of V_a among its low b bits."""
    cdef Py_ssize_t w, full = b >> 6
    cdef int r = 0, rem = <int>(b & 63)
    for w in range(full):
        r += RK_POPCOUNT64(~V[w])
    if rem:
        r += RK_POPCOUNT64(~V[full] & ((<uint64_t>1 << rem) - 1))
    return r


# ROUGE-1.5.5's weighted LCS of one model sentence (rows) and one peer sentence (columns), with its
# trace-back. The direction table keeps one bit per cell: a cell whose tokens match is always a
# diagonal step, so only "up" (1) or "left" (0) of the other cells needs storing (m * n / 8 bytes;
# docs/limits.md).

cdef inline void trace_marks(const int32_t* x, Py_ssize_t m, const int32_t* y, Py_ssize_t n,
                             const uint64_t* ups, uint8_t* mask, int32_t* pk, Py_ssize_t* np) noexcept nogil:
    """Back-trace from (m, n): a match steps diagonally and marks the model position, else the
    bit of the cell says up (1) or left (0). Rows of ``ups`` are (n + 63) // 64 words.
    ``pk`` (NULL when not wanted): the (model, peer) positions of the diagonal steps go to
    ``pk[2 * np[0]:]``, ``np[0]`` counting them (room for min(m, n) more pairs)."""
    cdef Py_ssize_t a = m, b = n, nw = (n + 63) >> 6
    while a != 0 and b != 0:
        if x[a - 1] == y[b - 1]:
            a -= 1
            b -= 1
            mask[a] = 1
            if pk != NULL:
                pk[2 * np[0]] = <int32_t>a
                pk[2 * np[0] + 1] = <int32_t>b
                np[0] += 1
        elif (ups[(a - 1) * nw + ((b - 1) >> 6)] >> ((b - 1) & 63)) & 1:
            a -= 1
        else:
            b -= 1


cdef inline void wlcs_mark(const int32_t* x, Py_ssize_t m, const int32_t* y, Py_ssize_t n, uint8_t* mask,
                           uint64_t* ups, double* prev, double* cur, int32_t* lprev, int32_t* lcur,
                           const double* fw, int32_t* pk, Py_ssize_t* np) noexcept nogil:
    """The script's WLCS DP (model sentence rows, peer sentence columns), then the trace-back.

    ``ups`` holds m rows of (n + 63) // 64 words; ``pk``, ``np``: see :func:`trace_marks`."""
    cdef Py_ssize_t a, b, nw = (n + 63) >> 6
    cdef int32_t t, k
    cdef double* tmp
    cdef int32_t* ltmp
    cdef uint64_t* urow
    cdef uint64_t acc
    for b in range(n + 1):
        prev[b] = 0.0
        lprev[b] = 0
    cur[0] = 0.0
    lcur[0] = 0
    for a in range(1, m + 1):
        t = x[a - 1]
        urow = ups + (a - 1) * nw
        acc = 0
        for b in range(1, n + 1):
            if t == y[b - 1]:
                k = lprev[b - 1]
                cur[b] = prev[b - 1] + fw[k + 1] - fw[k]   # the script's order: (c + f(k+1)) - f(k)
                lcur[b] = k + 1
            elif prev[b] >= cur[b - 1]:
                cur[b] = prev[b]
                acc |= (<uint64_t>1) << ((b - 1) & 63)
                lcur[b] = 0
            else:
                cur[b] = cur[b - 1]
                lcur[b] = 0
            if (b & 63) == 0:
                urow[(b - 1) >> 6] = acc
                acc = 0
        if n & 63:
            urow[n >> 6] = acc
        tmp = prev
        prev = cur
        cur = tmp
        ltmp = lprev
        lprev = lcur
        lcur = ltmp
    trace_marks(x, m, y, n, ups, mask, pk, np)
