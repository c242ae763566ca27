# LCS lengths without a trace-back (docs/rouge155: ROUGE-L): bit-parallel rows (Allison-Dix /
# Hyyro, common.pxi's bitlcs_row) over the candidate's local ids.  _seq_lcs is rouge-score's
# rougeL and ROUGE-L when both sides are one sentence (the union of one LCS is that LCS).  Below
# them the count functions of ROUGE-L (the summary-level union LCS with the script's trace-back),
# LSEQ and ROUGE-W that _score_pair (score.pxi) calls.  rkb_rows2 runs two pairs' (or two
# references') rows in one loop: score.pxi's LseqLater, _lseq_refs.

cdef extern from *:
    """
    /* Rows of the bit-parallel LCS with AVX-512 (runtime dispatch; every number is the scalar
       rows' own: the same row recurrence, only the carry of the 1,024-bit-and-more sum found
       otherwise).  A row is Vn = (V + (V & pm)) | (V & ~pm) over `words` 64-bit lanes, eight per
       zmm register: the lanes are added, then a lane's carry out (sum < V) and whether it passes a
       carry on (sum == all ones) become two bit masks, one bit per lane; in one integer addition,
       ((carries out << 1) | carry in) + (passes on), xor (passes on), those give the lanes that
       take a carry, each then + 1.  Up to 4 registers that addition runs on the mask registers
       (kadd: AVX512BW/DQ), not through a general register: the carry round trip is each row's
       critical path, and this one is about 15% shorter.  x[a] is row a's local id (>= U: a type the
       candidate lacks, whose row is V itself).  keep: row a + 1 is stored at V + (a + 1) * words
       (the union LCS traces them back); else V is updated in place.  Up to 4 registers (2,048
       bits) the row stays in registers from one step to the next.  PM has `stride` words a type. */
    /* Two pairs' scalar rows in one loop (rkb_rows2 without AVX-512): the two carry chains are
       independent, so the core runs them side by side. */
    static void rkb_rows2_scalar(const int32_t* xa, Py_ssize_t ma, const uint64_t* PMa, Py_ssize_t wa,
                                 uint64_t* Va, uint32_t Ua, const int32_t* xb, Py_ssize_t mb,
                                 const uint64_t* PMb, Py_ssize_t wb, uint64_t* Vb, uint32_t Ub) {
        Py_ssize_t a, k = ma < mb ? ma : mb;
        for (a = 0; a < k; a++) {
            uint32_t la = (uint32_t)xa[a], lb = (uint32_t)xb[a];
            if (la < Ua)
                rk_bitlcs_row(Va, Va, PMa + (Py_ssize_t)la * wa, wa);
            if (lb < Ub)
                rk_bitlcs_row(Vb, Vb, PMb + (Py_ssize_t)lb * wb, wb);
        }
        for (a = k; a < ma; a++)
            if ((uint32_t)xa[a] < Ua)
                rk_bitlcs_row(Va, Va, PMa + (Py_ssize_t)xa[a] * wa, wa);
        for (a = k; a < mb; a++)
            if ((uint32_t)xb[a] < Ub)
                rk_bitlcs_row(Vb, Vb, PMb + (Py_ssize_t)xb[a] * wb, wb);
    }
    /* Two pairs' rows of at most two words each (candidates of up to 128 tokens) in general registers,
       a word or an unsigned __int128 a row: the same sum modulo 2^(64 words), so the same numbers, in
       three dependent steps a row (and, add, or) against ~12 of the AVX-512 step; little-endian only (two
       words read as one __int128). rkb_narrow_rows: on (1) or off (0: the test hook _narrow_rows). */
    static int rkb_narrow_rows = 0;
    typedef void (*rkb_rows2n_fn)(const int32_t*, Py_ssize_t, const uint64_t*, Py_ssize_t, uint64_t*, uint32_t,
                                  const int32_t*, Py_ssize_t, const uint64_t*, Py_ssize_t, uint64_t*, uint32_t);
    #define RKB_NARROW(wa, wb) (rkb_narrow_rows && (wa) <= 2 && (wb) <= 2)
    #if defined(__SIZEOF_INT128__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    #define RKB_N_STEP(T, NW, R, PM, x)                                                           \
        { T p_; memcpy(&p_, (PM) + (Py_ssize_t)(x) * (NW), sizeof(T)); R = (R + (R & p_)) | (R & ~p_); }
    #define RKB_N_ROWS2(NA, NB, TA, TB)                                                           \
    static void rkb_rows2_n##NA##NB(const int32_t* xa, Py_ssize_t ma, const uint64_t* PMa, Py_ssize_t wa, \
                                    uint64_t* Va, uint32_t Ua, const int32_t* xb, Py_ssize_t mb,  \
                                    const uint64_t* PMb, Py_ssize_t wb, uint64_t* Vb, uint32_t Ub) { \
        TA Ra; TB Rb;                                                                             \
        Py_ssize_t a, k = ma < mb ? ma : mb;                                                      \
        (void)wa; (void)wb;                                                                       \
        memcpy(&Ra, Va, sizeof(TA)); memcpy(&Rb, Vb, sizeof(TB));                                 \
        for (a = 0; a < k; a++) {                                                                 \
            uint32_t la = (uint32_t)xa[a], lb = (uint32_t)xb[a];                                  \
            if (la < Ua)                                                                          \
                RKB_N_STEP(TA, NA, Ra, PMa, la)                                                   \
            if (lb < Ub)                                                                          \
                RKB_N_STEP(TB, NB, Rb, PMb, lb)                                                   \
        }                                                                                         \
        for (a = k; a < ma; a++)                                                                  \
            if ((uint32_t)xa[a] < Ua)                                                             \
                RKB_N_STEP(TA, NA, Ra, PMa, xa[a])                                                \
        for (a = k; a < mb; a++)                                                                  \
            if ((uint32_t)xb[a] < Ub)                                                             \
                RKB_N_STEP(TB, NB, Rb, PMb, xb[a])                                                \
        memcpy(Va, &Ra, sizeof(TA)); memcpy(Vb, &Rb, sizeof(TB));                                 \
    }
    RKB_N_ROWS2(1, 1, uint64_t, uint64_t) RKB_N_ROWS2(1, 2, uint64_t, unsigned __int128)
    RKB_N_ROWS2(2, 1, unsigned __int128, uint64_t) RKB_N_ROWS2(2, 2, unsigned __int128, unsigned __int128)
    static const rkb_rows2n_fn rkb_rows2_n[2][2] = {{rkb_rows2_n11, rkb_rows2_n12}, {rkb_rows2_n21, rkb_rows2_n22}};
    static int rkb_narrow_enable(int on) { rkb_narrow_rows = on != 0; return rkb_narrow_rows; }
    #else
    static const rkb_rows2n_fn rkb_rows2_n[2][2];
    static int rkb_narrow_enable(int on) { (void)on; return 0; }
    #endif
    #if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__) && !defined(RKB_NO_AVX512)
    #include <immintrin.h>
    #define RKB_AVX512_ROWS 1
    #define RKB_Z_STEP(NCH) RKB_Z_STEP_AT(NCH, R, pm, last)
    /* one row step of the registers R (NCH of them, the last one's lanes `last`) by the match row pm */
    #define RKB_Z_STEP_AT(NCH, R, pm, last)                                                       \
        {                                                                                         \
            __m512i S[NCH], W[NCH];                                                               \
            __mmask8 g[NCH], e[NCH];                                                              \
            __mmask32 G, Pp, C;                                                                   \
            for (int j = 0; j < NCH; j++) {                                                       \
                __m512i p = _mm512_maskz_loadu_epi64(j == NCH - 1 ? last : 0xFF, pm + 8 * j);     \
                __m512i u = _mm512_and_si512(R[j], p);                                            \
                S[j] = _mm512_add_epi64(R[j], u);                                                 \
                W[j] = _mm512_andnot_si512(p, R[j]);                                              \
                g[j] = _mm512_cmplt_epu64_mask(S[j], R[j]);                                       \
                e[j] = _mm512_cmpeq_epi64_mask(S[j], ones);                                       \
            }                                                                                     \
            G = g[0];                                                                             \
            Pp = e[0];                                                                            \
            if (NCH > 1) {                                                                        \
                G = _mm512_kunpackb(g[NCH > 1 ? 1 : 0], g[0]);                                    \
                Pp = _mm512_kunpackb(e[NCH > 1 ? 1 : 0], e[0]);                                   \
            }                                                                                     \
            if (NCH > 2) {                                                                        \
                G = _mm512_kunpackw(_mm512_kunpackb(g[NCH > 3 ? 3 : NCH - 1], g[NCH > 2 ? 2 : 0]), (__mmask16)G); \
                Pp = _mm512_kunpackw(_mm512_kunpackb(e[NCH > 3 ? 3 : NCH - 1], e[NCH > 2 ? 2 : 0]), (__mmask16)Pp); \
            }                                                                                     \
            C = _kxor_mask32(_kadd_mask32(_kshiftli_mask32(G, 1), Pp), Pp);                       \
            for (int j = 0; j < NCH; j++)                                                         \
                R[j] = _mm512_or_si512(_mm512_mask_sub_epi64(S[j], (__mmask8)_kshiftri_mask32(C, 8 * j), S[j], ones), W[j]); \
        }
    #define RKB_Z_ROWS(NCH)                                                                       \
    __attribute__((target("avx512f,avx512bw,avx512dq")))                                                           \
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

    /* Two pairs' rows at once (score_docs: two pairs that need only the LCS length): each row is a
       carry chain of ~12 dependent steps, so pair a's row and pair b's row of the same loop turn
       overlap in the core; the same steps as rkb_rows_z<NCH> for each, V updated in place (no
       keep).  NA, NB: the registers of a's and b's rows (1-4 each: up to 2,048 tokens). */
    #define RKB_Z_ROWS2(NA, NB)                                                                   \
    __attribute__((target("avx512f,avx512bw,avx512dq")))                                          \
    static void rkb_rows2_z##NA##NB(const int32_t* xa, Py_ssize_t ma, const uint64_t* PMa, Py_ssize_t wa, \
                                    uint64_t* Va, uint32_t Ua, const int32_t* xb, Py_ssize_t mb,  \
                                    const uint64_t* PMb, Py_ssize_t wb, uint64_t* Vb, uint32_t Ub) { \
        const __m512i ones = _mm512_set1_epi64(-1);                                               \
        __mmask8 lasta = (__mmask8)(0xFFu >> (8 * NA - wa));                                      \
        __mmask8 lastb = (__mmask8)(0xFFu >> (8 * NB - wb));                                      \
        __m512i Ra[NA], Rb[NB];                                                                   \
        Py_ssize_t a, k = ma < mb ? ma : mb;                                                      \
        for (int j = 0; j < NA; j++)                                                              \
            Ra[j] = _mm512_maskz_loadu_epi64(j == NA - 1 ? lasta : 0xFF, Va + 8 * j);             \
        for (int j = 0; j < NB; j++)                                                              \
            Rb[j] = _mm512_maskz_loadu_epi64(j == NB - 1 ? lastb : 0xFF, Vb + 8 * j);             \
        for (a = 0; a < k; a++) {                                                                 \
            uint32_t la = (uint32_t)xa[a], lb = (uint32_t)xb[a];                                  \
            if (la < Ua) {                                                                        \
                const uint64_t* pa = PMa + (Py_ssize_t)la * wa;                                   \
                RKB_Z_STEP_AT(NA, Ra, pa, lasta)                                                  \
            }                                                                                     \
            if (lb < Ub) {                                                                        \
                const uint64_t* pb = PMb + (Py_ssize_t)lb * wb;                                   \
                RKB_Z_STEP_AT(NB, Rb, pb, lastb)                                                  \
            }                                                                                     \
        }                                                                                         \
        for (a = k; a < ma; a++) {                                                                \
            uint32_t la = (uint32_t)xa[a];                                                        \
            if (la < Ua) {                                                                        \
                const uint64_t* pa = PMa + (Py_ssize_t)la * wa;                                   \
                RKB_Z_STEP_AT(NA, Ra, pa, lasta)                                                  \
            }                                                                                     \
        }                                                                                         \
        for (a = k; a < mb; a++) {                                                                \
            uint32_t lb = (uint32_t)xb[a];                                                        \
            if (lb < Ub) {                                                                        \
                const uint64_t* pb = PMb + (Py_ssize_t)lb * wb;                                   \
                RKB_Z_STEP_AT(NB, Rb, pb, lastb)                                                  \
            }                                                                                     \
        }                                                                                         \
        for (int j = 0; j < NA; j++)                                                              \
            _mm512_mask_storeu_epi64(Va + 8 * j, j == NA - 1 ? lasta : 0xFF, Ra[j]);              \
        for (int j = 0; j < NB; j++)                                                              \
            _mm512_mask_storeu_epi64(Vb + 8 * j, j == NB - 1 ? lastb : 0xFF, Rb[j]);              \
    }
    RKB_Z_ROWS2(1, 1) RKB_Z_ROWS2(1, 2) RKB_Z_ROWS2(1, 3) RKB_Z_ROWS2(1, 4)
    RKB_Z_ROWS2(2, 1) RKB_Z_ROWS2(2, 2) RKB_Z_ROWS2(2, 3) RKB_Z_ROWS2(2, 4)
    RKB_Z_ROWS2(3, 1) RKB_Z_ROWS2(3, 2) RKB_Z_ROWS2(3, 3) RKB_Z_ROWS2(3, 4)
    RKB_Z_ROWS2(4, 1) RKB_Z_ROWS2(4, 2) RKB_Z_ROWS2(4, 3) RKB_Z_ROWS2(4, 4)
    typedef void (*rkb_rows2_fn)(const int32_t*, Py_ssize_t, const uint64_t*, Py_ssize_t, uint64_t*, uint32_t,
                                 const int32_t*, Py_ssize_t, const uint64_t*, Py_ssize_t, uint64_t*, uint32_t);
    static const rkb_rows2_fn rkb_rows2_z[4][4] = {
        {rkb_rows2_z11, rkb_rows2_z12, rkb_rows2_z13, rkb_rows2_z14},
        {rkb_rows2_z21, rkb_rows2_z22, rkb_rows2_z23, rkb_rows2_z24},
        {rkb_rows2_z31, rkb_rows2_z32, rkb_rows2_z33, rkb_rows2_z34},
        {rkb_rows2_z41, rkb_rows2_z42, rkb_rows2_z43, rkb_rows2_z44}};

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
    /* the rows' carries use AVX512BW/DQ mask arithmetic (every AVX-512 CPU since Skylake-X has them) */
    static int rkb_cpu_avx512(void) {
        return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw")
               && __builtin_cpu_supports("avx512dq");
    }
    static int rkb_rows_init(void) {
        __builtin_cpu_init();
        rkb_avx512_rows = rkb_cpu_avx512();
        return rkb_avx512_rows;
    }
    static void rkb_rows_enable(int on) { rkb_avx512_rows = on && rkb_cpu_avx512(); }
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
    /* the words a row may have for rkb_rows2: up to 32 with AVX-512, 16 without (longer: no gain,
       two pairs' tables crowd the cache; scalar rows, ROUGE-L of 256 pairs, CPU: 1,024 tokens
       3.22 -> 2.99 ms, 2,048: 8.83 -> 9.01, 3,000: 18.5 -> 21.7) */
    static Py_ssize_t rkb_rows2_max(void) { return rkb_avx512_rows ? 32 : 16; }
    /* two pairs' rows (no keep), each 1 to rkb_rows2_max() words */
    static void rkb_rows2(const int32_t* xa, Py_ssize_t ma, const uint64_t* PMa, Py_ssize_t wa, uint64_t* Va,
                          uint32_t Ua, const int32_t* xb, Py_ssize_t mb, const uint64_t* PMb, Py_ssize_t wb,
                          uint64_t* Vb, uint32_t Ub) {
        if (RKB_NARROW(wa, wb))
            rkb_rows2_n[wa - 1][wb - 1](xa, ma, PMa, wa, Va, Ua, xb, mb, PMb, wb, Vb, Ub);
        else if (rkb_avx512_rows && wa <= 32 && wb <= 32)
            rkb_rows2_z[(wa + 7) / 8 - 1][(wb + 7) / 8 - 1](xa, ma, PMa, wa, Va, Ua, xb, mb, PMb, wb, Vb, Ub);
        else
            rkb_rows2_scalar(xa, ma, PMa, wa, Va, Ua, xb, mb, PMb, wb, Vb, Ub);
    }
    #else
    static int rkb_rows_init(void) { return 0; }
    static void rkb_rows_enable(int on) { (void)on; }
    static int rkb_rows_wide(const int32_t* x, Py_ssize_t m, const uint64_t* PM, Py_ssize_t stride,
                             Py_ssize_t words, uint64_t* V, int keep, uint32_t U) { return 0; }
    static Py_ssize_t rkb_rows2_max(void) { return 16; }
    static void rkb_rows2(const int32_t* xa, Py_ssize_t ma, const uint64_t* PMa, Py_ssize_t wa, uint64_t* Va,
                          uint32_t Ua, const int32_t* xb, Py_ssize_t mb, const uint64_t* PMb, Py_ssize_t wb,
                          uint64_t* Vb, uint32_t Ub) {
        if (RKB_NARROW(wa, wb))
            rkb_rows2_n[wa - 1][wb - 1](xa, ma, PMa, wa, Va, Ua, xb, mb, PMb, wb, Vb, Ub);
        else
            rkb_rows2_scalar(xa, ma, PMa, wa, Va, Ua, xb, mb, PMb, wb, Vb, Ub);
    }
    #endif
    """
    int rkb_rows_init()
    void rkb_rows_enable(int on)
    int rkb_rows_wide(const int32_t* x, Py_ssize_t m, const uint64_t* PM, Py_ssize_t stride,
                      Py_ssize_t words, uint64_t* V, int keep, uint32_t U) nogil
    Py_ssize_t rkb_rows2_max() nogil
    int rkb_narrow_enable(int on)
    void rkb_rows2(const int32_t* xa, Py_ssize_t ma, const uint64_t* PMa, Py_ssize_t wa, uint64_t* Va, uint32_t Ua,
                   const int32_t* xb, Py_ssize_t mb, const uint64_t* PMb, Py_ssize_t wb, uint64_t* Vb,
                   uint32_t Ub) nogil

#: rows of 4 or more 64-bit words (sentences of 193+ tokens) run with AVX-512 when the CPU has it
_AVX512_ROWS = bool(rkb_rows_init())


def _wide_rows(bint on):
    """Test hook: use the AVX-512 rows (when the CPU has them) or not; not thread-safe."""
    rkb_rows_enable(on)


# two pairs' (or references') rows of at most two words each run in general registers (rkb_rows2_n)
rkb_narrow_enable(1)


def _narrow_rows(bint on):
    """Test hook: two rows of up to two words each in general registers (on: the default with a 128-bit
    integer) or as wider rows (off); the setting now used.  Not thread-safe."""
    return bool(rkb_narrow_enable(on))

cdef enum:
    _WIDE_WORDS = 4     # the AVX-512 rows from this many words a row (fewer: the scalar add-with-carry)

cdef bint _TWO_ROWS = True   # score_docs runs two pairs' LCS rows at once where it can (_two_pair_rows)
cdef Py_ssize_t _TWO_WORDS = 1   # ... from this many 64-bit words a candidate's row (below 4 words
                                 # one pair's rows run the scalar add-with-carry, two pairs' AVX-512)


def _two_pair_rows(bint on, Py_ssize_t words=1):
    """Test hook: let score_docs put off the LCS of sequences of a pair to run two pairs' rows at once
    (``on``, the default) when the candidate's row has at least ``words`` 64-bit words, or run each
    pair's alone; not thread-safe."""
    global _TWO_ROWS, _TWO_WORDS
    _TWO_ROWS = on
    _TWO_WORDS = words if words > 1 else 1


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


# ---- the counts of ROUGE-L, LCS of sequences and ROUGE-W for _score_pair (score.pxi): the
# script's union LCS (bit-parallel rows, trace-back: a match is diagonal, else "up" when
# c(a-1, b) >= c(a, b-1), else "left"), clipped by both sides' counts; the WLCS DP and its runs

cdef int _count_lseq(Work* w, PairC* c) noexcept nogil:
    """LSEQ: the LCS of the whole token sequences.  ROUGE-L with one sentence on each side (sentence
    tokens == joined tokens): the union of one LCS is that LCS, whose tokens are within both
    sides' counts, so its hits are the LCS length too (no trace-back).  Several references: the
    candidate's match table built once, two references' rows at a time (_lseq_refs)."""
    cdef int r
    cdef Py_ssize_t lm
    cdef Py_ssize_t* two = NULL
    if c.nr > 1 and _TWO_ROWS and c.U > 0 and _TWO_WORDS <= (c.lp + 63) >> 6 <= rkb_rows2_max():
        two = <Py_ssize_t*>malloc(c.nr * sizeof(Py_ssize_t))
        if two == NULL or _lseq_refs(w, c, two) < 0:
            free(two)
            return -1
    for r in range(c.nr):
        lm = two[r] if two != NULL else _seq_lcs(w, c.ploc, c.lp, c.mjp[r], c.R[r].ntok, c.U)
        if lm < 0:
            free(two)
            return -1
        c.rh[r] = <double>lm
        c.rm[r] = <double>c.R[r].ntok
        c.rp[r] = <double>c.lp
        c.rs[r] = (c.rh[r] / c.rm[r]) if c.R[r].ntok > 0 else 0.0
    free(two)
    return 0


cdef int _lseq_refs(Work* w, PairC* c, Py_ssize_t* lcs) noexcept nogil:
    """``lcs[r]``: the LCS length of the candidate and each reference r (_seq_lcs's), the
    candidate's match table built once and two references' rows run at once (rkb_rows2: up to
    rkb_rows2_max() words a row); -1: out of memory."""
    cdef Py_ssize_t n = c.lp, Wb = (c.lp + 63) >> 6, t, mb
    cdef int r
    cdef uint64_t* PM
    cdef uint64_t* V
    if n == 0:
        for r in range(c.nr):
            lcs[r] = 0
        return 0
    if _need_zeroed(&w.pm, c.U * Wb, 8) < 0 or _need(&w.rows, 2 * Wb, 8) < 0:
        return -1
    PM = <uint64_t*>w.pm.p
    V = <uint64_t*>w.rows.p
    _match_bits(PM, c.ploc, n, Wb, True)
    for r in range(0, c.nr, 2):
        for t in range(2 * Wb):
            V[t] = ~(<uint64_t>0)
        mb = c.R[r + 1].ntok if r + 1 < c.nr else 0   # an odd last one: its rows alone
        rkb_rows2(c.mjp[r], c.R[r].ntok, PM, Wb, V, <uint32_t>c.U,
                  c.mjp[r + 1] if r + 1 < c.nr else c.mjp[r], mb, PM, Wb, V + Wb, <uint32_t>c.U)
        lcs[r] = lcs_prefix(V, n)
        if r + 1 < c.nr:
            lcs[r + 1] = lcs_prefix(V + Wb, n)
    _match_bits(PM, c.ploc, n, Wb, False)
    return 0


cdef bint _lseq_only(const MeasureC* m, const PairC* c) noexcept nogil:
    """Whether measure ``m``'s row of pair ``c`` is _count_lseq and nothing else (K_LSEQ, or K_L with
    every summary one sentence within the trace-back limit; no marks): score.pxi's LseqLater."""
    if c.mks != NULL:
        return False
    if m.kind == K_LSEQ:
        return True
    return m.kind == K_L and c.single and <double>c.maxm * <double>c.P.maxsent <= MAX_TRACE_CELLS


cdef int _count_lseq_row(Work* w, PairC* c, const MeasureC* m, int qn, bint mode_b) noexcept nogil:
    """K_LSEQ's row (_count_lseq)."""
    return _count_lseq(w, c)


cdef int _count_l_row(Work* w, PairC* c, const MeasureC* m, int qn, bint mode_b) noexcept nogil:
    """K_L's row: -3 above the trace-back limit (whether or not the trace-back is skipped:
    docs/limits.md), the LCS of sequences when every summary is one sentence and no marks are
    asked, else _count_l (the union-LCS masks once per pair)."""
    cdef int rc
    if <double>c.maxm * <double>c.P.maxsent > MAX_TRACE_CELLS:
        return -3
    if c.single and c.mks == NULL:
        return _count_lseq(w, c)
    rc = _count_l(w, c, c.l_done)
    c.l_done = True
    return rc


cdef int _count_l(Work* w, PairC* c, bint masks_done) noexcept nogil:
    """ROUGE-L (summary level) of every reference: the union of the LCS traces of each reference
    sentence with every candidate sentence (``masks_done``: already in ``w.mask`` for this pair),
    its positions clipped by both sides' counts."""
    cdef uint8_t* mask
    cdef int r
    cdef const DocC* M
    cdef int64_t hits
    if _need(&w.mask, c.moff[c.nr] + 1, 1) < 0:
        return -1
    mask = <uint8_t*>w.mask.p
    if not masks_done and _union_lcs_masks(w, c, mask) < 0:
        return -1
    for r in range(c.nr):
        M = c.R[r]
        hits = 0
        if c.U > 0:
            memset(c.mu, 0, (c.U + 1) * sizeof(int32_t))
            _type_counts(c.mjp[r], M.ntok, c.mu, c.U)
            c.mu[c.U] = 0
            memcpy(c.pu, c.pcnt, (c.U + 1) * sizeof(int32_t))   # pcnt[U] is 0
            if c.mks == NULL:
                hits = _union_clip(c.msp[r], mask + c.moff[r], M.nstok, c.mu, c.pu, c.U, False)
            else:   # the mask becomes the hits; the candidate positions traced with them
                hits = _union_clip(c.msp[r], mask + c.moff[r], M.nstok, c.mu, c.pu, c.U, True)
                _pairs_marks(c.mks, mask + c.moff[r], M.nstok)
        c.rh[r] = <double>hits
        c.rm[r] = <double>M.nstok
        c.rp[r] = <double>c.lp
        c.rs[r] = (c.rh[r] / c.rm[r]) if M.nstok > 0 else 0.0
    return 0


cdef inline void _type_counts(const int32_t* win, Py_ssize_t n, int32_t* mu, int32_t U) noexcept nogil:
    """``mu[t] +=`` the copies of each type in win[:n] (a type the candidate lacks: slot U)."""
    cdef Py_ssize_t i
    for i in range(n):
        mu[_or_slot(win[i], U)] += 1


cdef int _union_lcs_masks(Work* w, PairC* c, uint8_t* mask) noexcept nogil:
    """``mask`` (over every reference's sentence tokens) = the union of the LCS traces; the rows of
    a candidate sentence are built once for all reference sentences (a match table ``pm`` of its
    types, row U all zero for the types it lacks); with highlights, the traces' pairs listed."""
    cdef const DocC* P = c.P
    cdef const DocC* M
    cdef Marks* mks = c.mks
    cdef Py_ssize_t Wb, wj, m, n, i, j, t, np0
    cdef int r
    cdef uint64_t* PM
    cdef uint64_t* rows
    cdef const int32_t* x
    cdef const int32_t* y
    cdef uint8_t* mk
    cdef int32_t* pk
    memset(mask, 0, c.moff[c.nr] + 1)
    Wb = (P.maxsent + 63) >> 6
    if c.U <= 0 or Wb <= 0 or c.maxm <= 0:
        return 0
    if (_need_zeroed(&w.pm, (<Py_ssize_t>c.U + 1) * Wb, 8) < 0   # row U: types the candidate lacks
            or _need(&w.rows, (c.maxm + 1) * Wb, 8) < 0):
        return -1
    PM = <uint64_t*>w.pm.p
    rows = <uint64_t*>w.rows.p
    for j in range(P.nsent):
        y = c.psloc + P.soff[j]
        n = P.soff[j + 1] - P.soff[j]
        if n == 0:
            continue
        wj = (n + 63) >> 6
        _match_bits(PM, y, n, Wb, True)
        for t in range(wj):
            rows[t] = ~(<uint64_t>0)
        for r in range(c.nr):
            M = c.R[r]
            for i in range(M.nsent):
                m = M.soff[i + 1] - M.soff[i]
                if m == 0:
                    continue
                x = c.msp[r] + M.soff[i]
                _lcs_rows(x, m, PM, Wb, wj, rows, c.U)
                mk = mask + c.moff[r] + M.soff[i]
                pk = NULL
                if mks != NULL:   # highlights: list the trace's (reference, candidate) pairs
                    pk = _pairs_room(mks, m if m < n else n)
                    if pk == NULL:
                        return -1
                    np0 = mks.np
                if wj > 1:
                    _trace_wide(x, m, y, n, rows, wj, mk, pk, mks, M.soff[i], P.soff[j])
                elif pk == NULL:
                    rkb_trace1(x, m, n, rows, mk, PM, Wb, <uint32_t>c.U)
                else:
                    rkb_trace1_pairs(x, m, n, rows, mk, PM, Wb, <uint32_t>c.U, pk, &mks.np)
                    _pairs_shift(mks, np0, M.soff[i], P.soff[j])
        _match_bits(PM, y, n, Wb, False)
    return 0


cdef inline void _lcs_rows(const int32_t* x, Py_ssize_t m, const uint64_t* PM, Py_ssize_t Wb, Py_ssize_t wj,
                           uint64_t* rows, int32_t U) noexcept nogil:
    """rows[1..m] (``wj`` words each; rows[0] all ones) of the bit-parallel LCS of x[:m] against
    the candidate sentence whose match bits are in ``PM``."""
    cdef Py_ssize_t a, t
    cdef uint64_t v, u
    cdef uint64_t* V
    cdef uint64_t* Vn
    cdef int32_t loc
    if wj == 1:  # peer sentence of at most 64 tokens: one word per row
        v = rows[0]
        for a in range(1, m + 1):
            # a type the candidate lacks (-1) reads row U, all zero: v stays
            u = PM[<Py_ssize_t>_or_slot(x[a - 1], U) * Wb]
            v = (v + (v & u)) | (v & ~u)
            rows[a] = v
    elif wj < _WIDE_WORDS or not rkb_rows_wide(x, m, PM, Wb, wj, rows, 1, <uint32_t>U):
        for a in range(1, m + 1):
            V = rows + (a - 1) * wj
            Vn = V + wj
            loc = x[a - 1]
            if loc < 0:
                for t in range(wj):
                    Vn[t] = V[t]
                continue
            bitlcs_row(V, Vn, PM + <Py_ssize_t>loc * Wb, wj)


cdef void _trace_wide(const int32_t* x, Py_ssize_t m, const int32_t* y, Py_ssize_t n, const uint64_t* rows,
                      Py_ssize_t wj, uint8_t* mk, int32_t* pk, Marks* mks, Py_ssize_t da, Py_ssize_t db) noexcept nogil:
    """The script's trace-back over rows of ``wj`` > 1 words, marking the reference positions in
    ``mk``; with ``pk`` the matched pairs listed, shifted by (da, db).  cu = c(a, b) and cup =
    c(a-1, b) are kept up to date (a zero bit b-1 in row a means c(a, b) = c(a, b-1) + 1)."""
    cdef Py_ssize_t a = m, b = n
    cdef int cu, cup, zb
    cu = lcs_prefix(rows + a * wj, b)
    cup = lcs_prefix(rows + (a - 1) * wj, b)
    while cu > 0:  # c(a, b) = 0: no match left in x[:a] x y[:b]
        if x[a - 1] == y[b - 1]:
            a -= 1
            b -= 1
            mk[a] = 1
            if pk != NULL:
                pk[2 * mks.np] = <int32_t>(da + a)
                pk[2 * mks.np + 1] = <int32_t>(db + b)
                mks.np += 1
            if a == 0 or b == 0:
                break
            cu -= 1
            cup = lcs_prefix(rows + (a - 1) * wj, b)
        else:
            zb = <int>((~rows[a * wj + ((b - 1) >> 6)] >> ((b - 1) & 63)) & 1)
            if cup >= cu - zb:
                a -= 1
                if a == 0:
                    break
                cu = cup
                cup = lcs_prefix(rows + (a - 1) * wj, b)
            else:
                cu -= zb
                cup -= <int>((~rows[(a - 1) * wj + ((b - 1) >> 6)] >> ((b - 1) & 63)) & 1)
                b -= 1
                if b == 0:
                    break


cdef inline int64_t _union_clip(const int32_t* x, uint8_t* mk, Py_ssize_t count, int32_t* mu, int32_t* pu,
                                int32_t U, bint keep) noexcept nogil:
    """ROUGE-L hits of one reference: a position on the union of the traces (``mk``) is a hit while
    its type has copies left in both clipping tables ``mu``/``pu``, which it takes (branch-free; a
    type the candidate lacks reads slot U). ``keep``: ``mk`` becomes the hits."""
    cdef Py_ssize_t pos
    cdef int32_t loc, take
    cdef int64_t hits = 0
    for pos in range(count):
        loc = _or_slot(x[pos], U)
        take = mk[pos] & (mu[loc] > 0) & (pu[loc] > 0)
        mu[loc] -= take
        pu[loc] -= take
        hits += take
        if keep:
            mk[pos] = <uint8_t>take
    return hits


cdef int _count_w(Work* w, PairC* c, const MeasureC* m, int qn, bint mode_b) noexcept nogil:
    """ROUGE-W with weight ``wt`` (measure ``qn``'s f(k) = k ** wt table) of every reference: the
    script's WLCS of each reference sentence with every candidate sentence, the union of their
    traces, runs clipped by both sides' counts; -2 for a reference with no tokens."""
    cdef double wt = m.w, inv_w = m.inv_w
    cdef const double* fw = _fw_table(w, qn, wt, c.maxm)
    cdef Py_ssize_t n = c.P.maxsent, i
    cdef int r, rc
    cdef double hw, basew
    cdef const DocC* M
    if fw == NULL:
        return -1
    if <double>c.maxm * <double>n > MAX_TRACE_CELLS:
        return -3
    if (_need(&w.mask, c.moff[c.nr] + 1, 1) < 0 or _need(&w.dirs, c.maxm * ((n + 63) >> 6) + 1, 8) < 0
            or _need(&w.drows, 2 * (n + 1), 8) < 0 or _need(&w.lrows, 2 * (n + 1), 4) < 0):
        return -1
    for r in range(c.nr):
        M = c.R[r]
        hw = 0.0
        basew = 0.0
        for i in range(M.nsent):
            basew += fw[M.soff[i + 1] - M.soff[i]]
        if basew == 0:
            return -2
        if c.U > 0 and _w_reference(w, c, r, fw, &hw) < 0:
            return -1
        c.rh[r] = hw
        c.rm[r] = pow(basew, wt)
        c.rp[r] = pow(<double>c.lp, wt)
        c.rs[r] = pow(hw / basew, inv_w)
    return 0


cdef const double* _fw_table(Work* w, int qn, double wt, Py_ssize_t maxm) noexcept nogil:
    """Measure ``qn``'s table fw[k] = k ** wt for k <= maxm + 1 (grown when short); NULL: no memory."""
    cdef double* fw
    cdef Py_ssize_t k
    if w.fwlen[qn] < maxm + 2:
        fw = <double*>realloc(w.fw[qn], (maxm + 2) * sizeof(double))
        if fw == NULL:
            return NULL
        for k in range(maxm + 2):
            fw[k] = pow(<double>k, wt)
        w.fw[qn] = fw
        w.fwlen[qn] = maxm + 2
    return w.fw[qn]


cdef int _w_reference(Work* w, PairC* c, int r, const double* fw, double* hw) noexcept nogil:
    """``hw[0] +=`` the WLCS runs of reference ``r`` (its sentences in the script's order); with
    highlights, its positions and the candidate positions traced with them marked."""
    cdef const DocC* P = c.P
    cdef const DocC* M = c.R[r]
    cdef Marks* mks = c.mks
    cdef Py_ssize_t i, j, m, n, np0, np1
    cdef uint8_t* mask = <uint8_t*>w.mask.p
    cdef double* dprev = <double*>w.drows.p
    cdef int32_t* lprev = <int32_t*>w.lrows.p
    cdef const int32_t* x
    cdef uint8_t* mk
    cdef int32_t* pk
    cdef const int32_t* win = c.mjp[r]
    cdef int32_t* mu = c.mu
    memset(mu, 0, c.U * sizeof(int32_t))
    for i in range(M.ntok):
        if win[i] >= 0:
            mu[win[i]] += 1
    memcpy(c.pu, c.pcnt, c.U * sizeof(int32_t))
    for i in range(M.nsent):
        m = M.soff[i + 1] - M.soff[i]
        if m == 0:
            continue
        x = c.msp[r] + M.soff[i]
        mk = mask + c.moff[r] + M.soff[i]
        memset(mk, 0, m)
        for j in range(P.nsent):
            n = P.soff[j + 1] - P.soff[j]
            if n == 0:
                continue
            pk = NULL
            np0 = 0
            if mks != NULL:
                pk = _pairs_room(mks, m if m < n else n)
                if pk == NULL:
                    return -1
                np0 = mks.np
            wlcs_mark(x, m, c.psloc + P.soff[j], n, mk, <uint64_t*>w.dirs.p,
                      dprev, dprev + (n + 1), lprev, lprev + (n + 1), fw, pk, &np0)
            if pk != NULL:
                np1 = mks.np
                mks.np = np0
                _pairs_shift(mks, np1, M.soff[i], P.soff[j])
        if mks == NULL:
            _wlcs_runs(x, mk, m, c.mu, c.pu, fw, hw, False)
        else:   # the mask becomes the runs' positions
            _wlcs_runs(x, mk, m, c.mu, c.pu, fw, hw, True)
    if mks != NULL:
        _pairs_marks(mks, mask + c.moff[r], M.nstok)
    return 0


cdef inline void _wlcs_runs(const int32_t* x, uint8_t* mk, Py_ssize_t m, int32_t* mu, int32_t* pu,
                            const double* fw, double* hw, bint keep) noexcept nogil:
    """ROUGE-W hits of one reference sentence (``hw[0] +=`` in the script's order): positions on
    the union of the traces (``mk``) that take copies from both clipping tables form runs; a run
    ends before an untraced position or at the sentence's end and adds f(length). ``keep``: ``mk``
    becomes the positions of the runs that ended (2 marks a hit whose run is still open)."""
    cdef Py_ssize_t pos, q, run = 0, start = 0
    cdef int32_t loc
    for pos in range(m):
        if mk[pos]:
            loc = x[pos]
            if mu[loc] > 0 and pu[loc] > 0:
                mu[loc] -= 1
                pu[loc] -= 1
                run += 1
                if keep:
                    mk[pos] = 2
                if (pos + 1 < m and not mk[pos + 1]) or pos + 1 == m:
                    hw[0] += fw[run]
                    run = 0
                    if keep:
                        for q in range(start, pos + 1):
                            mk[q] >>= 1
                        start = pos + 1
            elif keep:
                mk[pos] = 0
    if keep:
        for q in range(start, m):
            mk[q] = 0


# ---- LD: the distinct tokens on the union LCS, the roles swapped (pltrdy rouge's sets,
# docs/measures/distinct.md): each reference is the candidate of a ROUGE-L count against the
# candidate's sentences, both sides' clipping tables holding each type once (as the highlights,
# marks.pxi, and DistinctTypes.reference_stats).

cdef Py_ssize_t _types(const int32_t* T, Py_ssize_t n, uint8_t* seen, int32_t* out) noexcept nogil:
    """The distinct tokens of ``T`` in order of first occurrence (``seen``: a zeroed table, left zeroed)."""
    cdef Py_ssize_t k, c = 0
    for k in range(n):
        if not seen[T[k]]:
            seen[T[k]] = 1
            out[c] = T[k]
            c += 1
    for k in range(c):
        seen[out[k]] = 0
    return c


cdef int _ld_docs(Work* w, const DocC* cand, const DocC* ref, DocC* Pd, DocC* Rd, Py_ssize_t nvocab) noexcept nogil:
    """LD's pair with the roles swapped: ``Pd`` is the reference and ``Rd`` the candidate (the
    engine's candidate and reference), each with its distinct tokens as the clipping table (in
    ``w.mtypes`` and ``w.ptypes``; its sentences unchanged); -1 when out of memory."""
    if (_need_zeroed(&w.seen, nvocab + 1, 1) < 0 or _need(&w.ptypes, cand.ntok + 1, 4) < 0
            or _need(&w.mtypes, ref.ntok + 1, 4) < 0):
        return -1
    Pd[0] = ref[0]
    Pd.ntok = <int32_t>_types(ref.tok, ref.ntok, <uint8_t*>w.seen.p, <int32_t*>w.mtypes.p)
    Pd.tok = <int32_t*>w.mtypes.p
    Rd[0] = cand[0]
    Rd.ntok = <int32_t>_types(cand.tok, cand.ntok, <uint8_t*>w.seen.p, <int32_t*>w.ptypes.p)
    Rd.tok = <int32_t*>w.ptypes.p
    return 0


cdef int _count_ld(Work* w, PairC* c, const MeasureC* m, int qn, bint mode_b) noexcept nogil:
    """LD of every reference (ROW_LAST: the swapped counts reuse the workspace's own per-pair
    tables, so _score_pair runs this after its other measures): the counts go to ``w.dcnt`` and
    ``c``'s rh/rm/rp/rs point there; counted once per pair (``c.ld_done``)."""
    cdef PairC s
    cdef DocC Pd, Rd
    cdef const DocC* Rp = &Rd
    cdef int r, nr = c.nr
    cdef double* d
    if c.ld_done:
        return 0
    if _need(&w.dcnt, 4 * (nr + 1), 8) < 0:
        return -1
    d = <double*>w.dcnt.p
    for r in range(nr):
        if _ld_docs(w, c.P, c.R[r], &Pd, &Rd, c.nvocab) < 0 or _pair_ids(w, &s, &Pd, &Rp, 1, c.nvocab) < 0:
            return -1
        s.mks = NULL
        if <double>s.maxm * <double>Pd.maxsent > MAX_TRACE_CELLS:
            return -3
        if _count_l(w, &s, False) < 0:
            return -1
        d[r] = s.rh[0]
        d[nr + r] = <double>Pd.ntok
        d[2 * nr + r] = <double>Rd.ntok
        d[3 * nr + r] = _round5(d[r] / d[nr + r]) if Pd.ntok != 0 else 0.0
    c.rh = d
    c.rm = d + nr
    c.rp = d + 2 * nr
    c.rs = d + 3 * nr
    c.ld_done = True
    return 0


cdef int _marks_ld(Work* w, PairC* c, const MeasureC* m, int qn, bint mode_b) noexcept nogil:
    """LD's highlights (marks.pxi; the pair's one reference): ROUGE-L's union-LCS marks with the
    roles swapped on the distinct-token clipping tables (_ld_docs), each side's marks on its own
    text; the counts into ``c`` as _count_ld's."""
    cdef PairC s
    cdef DocC Pd, Rd
    cdef const DocC* Rp = &Rd
    cdef Marks sw
    cdef int rc
    if _ld_docs(w, c.P, c.R[0], &Pd, &Rd, c.nvocab) < 0 or _pair_ids(w, &s, &Pd, &Rp, 1, c.nvocab) < 0:
        return -1
    sw = c.mks[0]
    sw.peer = c.mks.model
    sw.model = c.mks.peer
    s.mks = &sw
    rc = _count_l_row(w, &s, m, qn, mode_b)
    c.mks.pairs = sw.pairs   # its buffer may have grown
    c.mks.np = sw.np
    c.rh = s.rh
    c.rm = s.rm
    c.rp = s.rp
    c.rs = s.rs
    return rc


# the rows (kinds.pxi): the count function, and the marks function of the highlights (the count
# functions of L and W mark their traces themselves when the pair has a Marks record); LSEQ has no
# highlights (kinds.py: NO_MARKS)
KIND_ROWS[K_L].count = _count_l_row
KIND_ROWS[K_L].marks = _count_l_row
KIND_ROWS[K_LSEQ].count = _count_lseq_row
KIND_ROWS[K_W].count = _count_w
KIND_ROWS[K_W].marks = _count_w
KIND_ROWS[K_W].flags = ROW_WEIGHTED
KIND_ROWS[K_LD].count = _count_ld
KIND_ROWS[K_LD].marks = _marks_ld
KIND_ROWS[K_LD].flags = ROW_LAST
