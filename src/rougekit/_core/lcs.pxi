# LCS lengths without a trace-back (docs/rouge155: ROUGE-L): bit-parallel rows (Allison-Dix /
# Hyyro, common.pxi's bitlcs_row) over the candidate's local ids.  _seq_lcs is rouge-score's
# rougeL and ROUGE-L when both sides are one sentence (the union of one LCS is that LCS).  The
# summary-level union LCS with the script's trace-back is in score.pxi.

cdef extern from *:
    """
    /* Rows of the bit-parallel LCS with AVX-512 (runtime dispatch; every number is the scalar
       rows' own: the same row recurrence, only the carry of the 1,024-bit-and-more sum found
       otherwise).  A row is Vn = (V + (V & pm)) | (V & ~pm) over `words` 64-bit lanes, eight per
       zmm register: the lanes are added, then a lane's carry out (sum < V) and whether it passes a
       carry on (sum == all ones) become two bit masks, one bit per lane; in one 64-bit integer
       addition, ((carries out << 1) | carry in) + (passes on), xor (passes on), those give the
       lanes that take a carry, each then + 1.  x[a] is row a's local id (>= U: a type the
       candidate lacks, whose row is V itself).  keep: row a + 1 is stored at V + (a + 1) * words
       (the union LCS traces them back); else V is updated in place.  Up to 4 registers (2,048
       bits) the row stays in registers from one step to the next.  PM has `stride` words a type. */
    #if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__) && !defined(RKB_NO_AVX512)
    #include <immintrin.h>
    #define RKB_AVX512_ROWS 1
    #define RKB_Z_STEP(NCH)                                                                       \
        {                                                                                         \
            unsigned long long G = 0, Pp = 0, C;                                                  \
            __m512i S[NCH], W[NCH];                                                               \
            for (int j = 0; j < NCH; j++) {                                                       \
                __m512i p = _mm512_maskz_loadu_epi64(j == NCH - 1 ? last : 0xFF, pm + 8 * j);     \
                __m512i u = _mm512_and_si512(R[j], p);                                            \
                S[j] = _mm512_add_epi64(R[j], u);                                                 \
                W[j] = _mm512_andnot_si512(p, R[j]);                                              \
                G |= (unsigned long long)_mm512_cmplt_epu64_mask(S[j], R[j]) << (8 * j);          \
                Pp |= (unsigned long long)_mm512_cmpeq_epi64_mask(S[j], ones) << (8 * j);         \
            }                                                                                     \
            C = ((G << 1) + Pp) ^ Pp;                                                             \
            for (int j = 0; j < NCH; j++)                                                         \
                R[j] = _mm512_or_si512(_mm512_mask_sub_epi64(S[j], (__mmask8)(C >> (8 * j)), S[j], ones), W[j]); \
        }
    #define RKB_Z_ROWS(NCH)                                                                       \
    __attribute__((target("avx512f")))                                                           \
    static void rkb_rows_z##NCH(const int32_t* x, Py_ssize_t m, const uint64_t* PM, Py_ssize_t stride, \
                                Py_ssize_t words, uint64_t* V, int keep, uint32_t U) {            \
        const __m512i ones = _mm512_set1_epi64(-1);                                               \
        __mmask8 last = (__mmask8)(0xFFu >> (8 * NCH - words));                                   \
        __m512i R[NCH];                                                                           \
        for (int j = 0; j < NCH; j++)                                                             \
            R[j] = _mm512_maskz_loadu_epi64(j == NCH - 1 ? last : 0xFF, V + 8 * j);               \
        for (Py_ssize_t a = 0; a < m; a++) {                                                      \
            uint32_t loc = (uint32_t)x[a];                                                        \
            if (loc < U) {                                                                        \
                const uint64_t* pm = PM + (Py_ssize_t)loc * stride;                              \
                RKB_Z_STEP(NCH)                                                                   \
            }                                                                                     \
            if (keep)                                                                             \
                for (int j = 0; j < NCH; j++)                                                     \
                    _mm512_mask_storeu_epi64(V + (a + 1) * words + 8 * j, j == NCH - 1 ? last : 0xFF, R[j]); \
        }                                                                                         \
        if (!keep)                                                                                \
            for (int j = 0; j < NCH; j++)                                                         \
                _mm512_mask_storeu_epi64(V + 8 * j, j == NCH - 1 ? last : 0xFF, R[j]);            \
    }
    RKB_Z_ROWS(1)
    RKB_Z_ROWS(2)
    RKB_Z_ROWS(3)
    RKB_Z_ROWS(4)

    /* more than 32 words: seven registers at a time through memory, the carry passed on */
    __attribute__((target("avx512f")))
    static void rkb_rows_zn(const int32_t* x, Py_ssize_t m, const uint64_t* PM, Py_ssize_t stride,
                            Py_ssize_t words, uint64_t* V, int keep, uint32_t U) {
        const __m512i ones = _mm512_set1_epi64(-1);
        Py_ssize_t nch = (words + 7) >> 3, a, g0, c;
        __mmask8 lastm = (__mmask8)(0xFFu >> (8 * nch - words));
        for (a = 0; a < m; a++) {
            const uint64_t* src = keep ? V + a * words : V;
            uint64_t* dst = keep ? V + (a + 1) * words : V;
            uint32_t loc = (uint32_t)x[a];
            unsigned long long cin = 0;
            const uint64_t* pm;
            if (loc >= U) {
                if (keep)
                    memcpy(dst, src, (size_t)words * 8);
                continue;
            }
            pm = PM + (Py_ssize_t)loc * stride;
            for (g0 = 0; g0 < nch; g0 += 7) {
                int gn = (int)(nch - g0 < 7 ? nch - g0 : 7), j;
                unsigned long long G = 0, Pp = 0, sum, C;
                __m512i S[7], W[7];
                for (j = 0; j < gn; j++) {
                    c = g0 + j;
                    __mmask8 lm = c == nch - 1 ? lastm : 0xFF;
                    __m512i v = _mm512_maskz_loadu_epi64(lm, src + 8 * c);
                    __m512i p = _mm512_maskz_loadu_epi64(lm, pm + 8 * c);
                    S[j] = _mm512_add_epi64(v, _mm512_and_si512(v, p));
                    W[j] = _mm512_andnot_si512(p, v);
                    G |= (unsigned long long)_mm512_cmplt_epu64_mask(S[j], v) << (8 * j);
                    Pp |= (unsigned long long)_mm512_cmpeq_epi64_mask(S[j], ones) << (8 * j);
                }
                sum = ((G << 1) | cin) + Pp;
                C = sum ^ Pp;
                cin = (sum >> (8 * gn)) & 1;
                for (j = 0; j < gn; j++) {
                    c = g0 + j;
                    __mmask8 lm = c == nch - 1 ? lastm : 0xFF;
                    __m512i s = _mm512_mask_sub_epi64(S[j], (__mmask8)(C >> (8 * j)), S[j], ones);
                    _mm512_mask_storeu_epi64(dst + 8 * c, lm, _mm512_or_si512(s, W[j]));
                }
            }
        }
    }

    static int rkb_avx512_rows = 0;
    static int rkb_rows_init(void) {
        __builtin_cpu_init();
        rkb_avx512_rows = __builtin_cpu_supports("avx512f") ? 1 : 0;
        return rkb_avx512_rows;
    }
    static void rkb_rows_enable(int on) { rkb_avx512_rows = on && __builtin_cpu_supports("avx512f"); }
    /* 1: done with AVX-512; 0: not available here (the caller runs the scalar rows) */
    static int rkb_rows_wide(const int32_t* x, Py_ssize_t m, const uint64_t* PM, Py_ssize_t stride,
                             Py_ssize_t words, uint64_t* V, int keep, uint32_t U) {
        if (!rkb_avx512_rows)
            return 0;
        switch ((words + 7) >> 3) {
        case 1: rkb_rows_z1(x, m, PM, stride, words, V, keep, U); return 1;
        case 2: rkb_rows_z2(x, m, PM, stride, words, V, keep, U); return 1;
        case 3: rkb_rows_z3(x, m, PM, stride, words, V, keep, U); return 1;
        case 4: rkb_rows_z4(x, m, PM, stride, words, V, keep, U); return 1;
        default: rkb_rows_zn(x, m, PM, stride, words, V, keep, U); return 1;
        }
    }
    #else
    static int rkb_rows_init(void) { return 0; }
    static void rkb_rows_enable(int on) { (void)on; }
    static int rkb_rows_wide(const int32_t* x, Py_ssize_t m, const uint64_t* PM, Py_ssize_t stride,
                             Py_ssize_t words, uint64_t* V, int keep, uint32_t U) { return 0; }
    #endif
    """
    int rkb_rows_init()
    void rkb_rows_enable(int on)
    int rkb_rows_wide(const int32_t* x, Py_ssize_t m, const uint64_t* PM, Py_ssize_t stride,
                      Py_ssize_t words, uint64_t* V, int keep, uint32_t U) nogil

#: rows of 4 or more 64-bit words (sentences of 193+ tokens) run with AVX-512 when the CPU has it
_AVX512_ROWS = bool(rkb_rows_init())


def _wide_rows(bint on):
    """Test hook: use the AVX-512 rows (when the CPU has them) or not; not thread-safe."""
    rkb_rows_enable(on)

cdef enum:
    _WIDE_WORDS = 4     # the AVX-512 rows from this many words a row (fewer: the scalar add-with-carry)


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
    if Wb < _WIDE_WORDS or not rkb_rows_wide(x, m, PM, Wb, Wb, V, 0, <uint32_t>U):
        for a in range(m):
            loc = x[a]
            if loc >= 0:
                bitlcs_row(V, V, PM + <Py_ssize_t>loc * Wb, Wb)
    lcs = lcs_prefix(V, n)   # the zero bits of the last row below n
    _match_bits(PM, y, n, Wb, False)
    return lcs
