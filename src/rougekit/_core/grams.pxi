# Counting units for ROUGE-N and ROUGE-S/SU (docs/rouge155): the candidate's units go into a
# table with their counts, every reference probes it, and a hit takes one of the candidate's
# copies (clipped counts: sum over units of min(model count, peer count)).  Unigrams use a
# count array over local ids; skip units a directly indexed U x U table while the candidate has
# at most 256 types, bigrams while it has at most 128; bigrams a (U+1) x (U+1) bit table whose set
# bits are numbered by a rank per word from 129 to 2,895 types (_bigram_bits); else bigrams a
# 16-byte-entry table (_bigram_hits) and longer grams and skip units the hashed GEntry table.  ROUGE-S/SU units: every pair (i, j) with
# j - i - 1 <= skip among the first L-1 start positions, plus (SU) the unigram of each start.

cdef inline Py_ssize_t _skip_units(Py_ssize_t L, int max_skip, bint su) noexcept nogil:
    cdef Py_ssize_t i, total = 0, span
    for i in range(L - 1):
        span = L - 1 - i
        if max_skip >= 0 and span > <Py_ssize_t>max_skip + 1:
            span = <Py_ssize_t>max_skip + 1
        total += span
        if su:
            total += 1
    return total


# Token types come in no predictable order (Zipf): the two helpers below select with masks
# instead of branching (a mispredicted branch per token cost more than the rest of the lookup).

ctypedef fused loc_t:
    # the id table's entries (score.pxi: _pair_ids): uint16 while a candidate has fewer than 65,535
    # tokens (half the lines of an int32 table over the vocabulary: 64 KB for 32,000 ids), else int32
    uint16_t
    int32_t


cdef inline int32_t _loc_insert(loc_t* t, int32_t key, int32_t* U) noexcept nogil:
    """The local id of final id ``key``, the next one (U) for a type new to the pair.  ``t`` holds
    local id + 1 (0: not in the pair) and is all zeros between pairs (``_loc_clear``)."""
    cdef int32_t v = <int32_t>t[key]
    cdef int32_t fresh = <int32_t>(v == 0)
    v += (U[0] + 1) & -fresh
    t[key] = <loc_t>v
    U[0] += fresh
    return v - 1


cdef inline int32_t _or_slot(int32_t loc, int32_t U) noexcept nogil:
    """``loc``, or ``U`` for -1 (a type the candidate lacks): slot U of a per-type array is a
    spare that stays 0, so counting loops need no branch for such tokens."""
    cdef uint32_t a = <uint32_t>loc, b = <uint32_t>U
    return <int32_t>(a if a < b else b)   # -1 is the largest uint32: min() picks U


cdef inline int32_t _loc_find(const loc_t* t, int32_t key) noexcept nogil:
    """The local id of final id ``key``, or -1 when the candidate does not have it."""
    return <int32_t>t[key] - 1


cdef inline void _loc_clear(loc_t* t, const DocC* P) noexcept nogil:
    """Back to all zeros: only the candidate's types were set (a 2- or 4-byte table, no stamps: a
    lookup is one load)."""
    cdef Py_ssize_t i
    for i in range(P.ntok):
        t[P.tok[i]] = 0
    if P.stok != P.tok:
        for i in range(P.nstok):
            t[P.stok[i]] = 0


cdef inline int _gt_reset(Work* w, Py_ssize_t units) noexcept nogil:
    """Make the gram table ready for ``units`` insertions (stamp-based clearing)."""
    cdef Py_ssize_t cap = pow2_at_least(2 * units + 2)
    if cap > w.gt.cap:
        if _need_zeroed(&w.gt, cap, sizeof(GEntry)) < 0:
            return -1
        w.gt.cap = cap
        w.ggen = 0
        w.rgen = 0
    w.ggen += 1
    if w.ggen == 0:
        memset(w.gt.p, 0, w.gt.cap * sizeof(GEntry))
        w.ggen = 1
    return 0


cdef inline int _dt_reset(Work* w, Py_ssize_t size) noexcept nogil:
    """Start a new direct table of ``size`` entries (stamp-based clearing)."""
    if size > w.dt.cap:
        if _need_zeroed(&w.dt, size, sizeof(DEntry)) < 0:
            return -1
        w.dgen = 0
        w.drgen = 0
    if w.dgen > 0xFFFFFF00u or w.drgen > 0xFFFF0000u:
        memset(w.dt.p, 0, w.dt.cap * sizeof(DEntry))
        w.dgen = 0
        w.drgen = 0
    w.dgen += 1
    return 0


cdef inline void _d_add(DEntry* t, Py_ssize_t k, uint32_t gen) noexcept nogil:
    cdef DEntry* e = &t[k]
    if e.gen != gen:
        e.gen = gen
        e.cp = 1
        e.rgen = 0
        e.used = 0
    else:
        e.cp += 1


cdef inline bint _d_hit(DEntry* t, Py_ssize_t k, uint32_t gen, uint32_t rgen) noexcept nogil:
    cdef DEntry* e = &t[k]
    if e.gen != gen:
        return False
    if e.rgen != rgen:
        e.rgen = rgen
        e.used = 0
    if e.used < e.cp:
        e.used += 1
        return True
    return False


cdef enum:
    _BIG2_MAX_BITS = 1 << 23   # bits of ROUGE-2's bit table (1 MB, and 256 KB of ranks); (U + 1)^2 at most
    _BIG2_MIN_U = 128          # fewer types: the direct DEntry table (_bigram_small) was as fast or faster


cdef extern from *:
    """
    /* ROUGE-2's bit table (grams.pxi: _bigram_bits): bigram (a, b) of local ids is bit k = a * V + b
       of ``bits`` (uint64 words, all zero between uses); ``rank[w]`` is the number of set bits in
       the words listed before word w, so a set bit's dense number is rank[w] + popcount(the word's
       bits below it).  (U + 1)^2 bits and a uint16 per word: ~56 KB for 600 types, against 720 KB
       for a uint16 per bigram, so the table stays in L1/L2 also when a call starts with cold
       caches.  ``kb`` receives the bigrams' k first (one pass the compiler can vectorise), the
       table loops then read one number per bigram.  PC: the popcount (popcnt when the CPU has
       it, chosen once at import). */
    #if defined(__GNUC__) || defined(__clang__)
    #define RKB_BIG2_PF(p) __builtin_prefetch((const void*)(p), 0, 3)
    #else
    #define RKB_BIG2_PF(p) ((void)(p))
    #endif
    #define RKB_BIG2_AHEAD 16   /* bigrams ahead whose words are prefetched (L2 -> L1) */
    #define RKB_BIG2_BUILD(PC)                                                                            \
    {                                                                                                     \
        Py_ssize_t i, nw = 0, nrep = 0;                                                                   \
        int32_t nb = 0, t;                                                                                \
        for (i = 0; i < pcount; i++)                                                                      \
            kb[i] = (uint32_t)ploc[i] * (uint32_t)V + (uint32_t)ploc[i + 1];                              \
        memset(kb + pcount, 0, RKB_BIG2_AHEAD * sizeof(uint32_t));                                        \
        for (i = 0; i < pcount; i++) {                                                                    \
            uint32_t k = kb[i];                                                                           \
            RKB_BIG2_PF(bits + (kb[i + RKB_BIG2_AHEAD] >> 6));   /* kb has RKB_BIG2_AHEAD spare zeros */  \
            uint64_t old = bits[k >> 6];                                                                  \
            wl[nw] = (int32_t)(k >> 6);                                                                   \
            nw += old == 0;   /* a word's first bit lists it */                                           \
            kb[nrep] = k;     /* a bigram seen before is kept (kb[nrep] <= kb[i]: read already) */        \
            nrep += (old >> (k & 63)) & 1;                                                                \
            bits[k >> 6] = old | (1ULL << (k & 63));                                                      \
        }                                                                                                 \
        for (t = 0; t < (int32_t)nw; t++) {                                                               \
            rank[wl[t]] = (uint16_t)nb;                                                                   \
            nb += PC(bits[wl[t]]);                                                                        \
        }                                                                                                 \
        /* every bigram once, then once more for each repeat (most bigrams of a text are distinct) */     \
        for (t = 0; t < nb; t++)                                                                          \
            cp[t] = 1;                                                                                    \
        cp[nb] = 0;                                                                                       \
        for (i = 0; i < nrep; i++) {                                                                      \
            uint32_t k = kb[i];                                                                           \
            cp[rank[k >> 6] + PC(bits[k >> 6] << (~k & 63)) - 1] += 1;                                    \
        }                                                                                                 \
        *nwords = nw;                                                                                     \
        return nb;                                                                                        \
    }
    #define RKB_BIG2_PROBE(PC)                                                                            \
    {                                                                                                     \
        Py_ssize_t i;                                                                                     \
        for (i = 0; i < mcount; i++) {                                                                    \
            uint32_t a = (uint32_t)win[i], b = (uint32_t)win[i + 1];                                      \
            kb[i] = (a < U ? a : U) * (uint32_t)V + (b < U ? b : U);                                      \
        }                                                                                                 \
        RKB_BIG2_TAKE(PC, mcount)                                                                         \
    }
    /* the hits of the nk bigram numbers in kb (nk: a name, not an expression) */
    #define RKB_BIG2_TAKE(PC, nk)                                                                         \
    {                                                                                                     \
        Py_ssize_t i;                                                                                     \
        int64_t hits = 0;                                                                                 \
        memset(kb + nk, 0, RKB_BIG2_AHEAD * sizeof(uint32_t));                                            \
        memset(used, 0, ((size_t)nb + 1) * sizeof(int32_t));                                              \
        for (i = 0; i < nk; i++) {                                                                        \
            uint32_t k = kb[i];                                                                           \
            RKB_BIG2_PF(bits + (kb[i + RKB_BIG2_AHEAD] >> 6));                                            \
            RKB_BIG2_PF(rank + (kb[i + RKB_BIG2_AHEAD] >> 6));                                            \
            /* bit k and the bits below it at the top: the sign is the bit, the popcount their number */  \
            uint64_t top = bits[k >> 6] << (~k & 63);                                                     \
            int32_t present = (int32_t)((int64_t)top >> 63);                                              \
            int32_t bid = (int32_t)rank[k >> 6] + PC(top) - 1;                                            \
            bid = nb + ((bid - nb) & present);   /* absent: the spare number nb, whose count is 0 */      \
            int32_t take = used[bid] < cp[bid];                                                           \
            used[bid] += take;                                                                            \
            hits += take;                                                                                 \
        }                                                                                                 \
        return hits;                                                                                      \
    }
    #define RKB_BIG2_BUILD_ARGS const int32_t* ploc, Py_ssize_t pcount, Py_ssize_t V, uint64_t* bits, \
                                uint16_t* rank, int32_t* wl, uint32_t* kb, int32_t* cp, Py_ssize_t* nwords
    #define RKB_BIG2_PROBE_ARGS const int32_t* win, Py_ssize_t mcount, Py_ssize_t V, uint32_t U,         \
                                const uint64_t* bits, const uint16_t* rank, uint32_t* kb, const int32_t* cp, \
                                int32_t* used, int32_t nb
    typedef int32_t (*rkb_big2_build_fn)(RKB_BIG2_BUILD_ARGS);
    typedef int64_t (*rkb_big2_probe_fn)(RKB_BIG2_PROBE_ARGS);
    static int32_t rkb_big2_build_generic(RKB_BIG2_BUILD_ARGS) RKB_BIG2_BUILD(RK_POPCOUNT64)
    static int64_t rkb_big2_probe_generic(RKB_BIG2_PROBE_ARGS) RKB_BIG2_PROBE(RK_POPCOUNT64)
    /* also when the build already has popcnt (-mpopcnt, -march=x86-64-v2): the compressing probes below
       are picked at run time either way */
    #if (defined(__GNUC__) || defined(__clang__)) && (defined(__x86_64__) || defined(__i386__))
    __attribute__((target("popcnt")))
    static int32_t rkb_big2_build_hw(RKB_BIG2_BUILD_ARGS) RKB_BIG2_BUILD(__builtin_popcountll)
    __attribute__((target("popcnt")))
    static int64_t rkb_big2_probe_hw(RKB_BIG2_PROBE_ARGS) RKB_BIG2_PROBE(__builtin_popcountll)
    #if !defined(RKB_NO_AVX512)
    #include <immintrin.h>
    #define RKB_BIG2_512 1
    /* With AVX-512: a reference's bigrams whose types the candidate both has are kept, compressed
       16 at a time (a third of them, in the bench's texts, have a type it lacks: they cannot hit),
       and only those go through the table loop. */
    __attribute__((target("avx512f,popcnt")))
    static int64_t rkb_big2_probe_512(RKB_BIG2_PROBE_ARGS) {
        Py_ssize_t i = 0, nk = 0;
        const __m512i vu = _mm512_set1_epi32((int)U), vv = _mm512_set1_epi32((int)V);
        for (; i + 16 <= mcount; i += 16) {   /* reads win[i .. i + 16]: within the reference's mcount + 1 */
            __m512i a = _mm512_loadu_si512((const void*)(win + i));
            __m512i b = _mm512_loadu_si512((const void*)(win + i + 1));
            __mmask16 keep = _mm512_cmplt_epu32_mask(a, vu) & _mm512_cmplt_epu32_mask(b, vu);
            _mm512_mask_compressstoreu_epi32((void*)(kb + nk), keep, _mm512_add_epi32(_mm512_mullo_epi32(a, vv), b));
            nk += __builtin_popcount((unsigned)keep);
        }
        for (; i < mcount; i++) {
            uint32_t a = (uint32_t)win[i], b = (uint32_t)win[i + 1];
            kb[nk] = a * (uint32_t)V + b;
            nk += (a < U) & (b < U);
        }
        RKB_BIG2_TAKE(__builtin_popcountll, nk)
    }
    static int rkb_big2_cpu512(void) { return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("popcnt"); }
    /* the same with AVX2, 8 bigrams at a time: the kept lanes moved down by a permutation looked up
       by their mask, all 8 stored at kb + nk (nk <= i: within the mcount keys) */
    static int32_t rkb_big2_keep8[256][8];
    __attribute__((target("avx2,popcnt")))
    static int64_t rkb_big2_probe_avx2(RKB_BIG2_PROBE_ARGS) {
        Py_ssize_t i = 0, nk = 0;
        const __m256i vu = _mm256_set1_epi32((int)U), vv = _mm256_set1_epi32((int)V), neg = _mm256_set1_epi32(-1);
        for (; i + 8 <= mcount; i += 8) {   /* ids are -1 or 0 .. U - 1: signed compares */
            __m256i a = _mm256_loadu_si256((const __m256i*)(win + i));
            __m256i b = _mm256_loadu_si256((const __m256i*)(win + i + 1));
            __m256i ok = _mm256_and_si256(_mm256_and_si256(_mm256_cmpgt_epi32(a, neg), _mm256_cmpgt_epi32(vu, a)),
                                          _mm256_and_si256(_mm256_cmpgt_epi32(b, neg), _mm256_cmpgt_epi32(vu, b)));
            int keep = _mm256_movemask_ps(_mm256_castsi256_ps(ok));
            __m256i k = _mm256_add_epi32(_mm256_mullo_epi32(a, vv), b);
            __m256i perm = _mm256_loadu_si256((const __m256i*)rkb_big2_keep8[keep]);
            _mm256_storeu_si256((__m256i*)(kb + nk), _mm256_permutevar8x32_epi32(k, perm));
            nk += __builtin_popcount((unsigned)keep);
        }
        for (; i < mcount; i++) {
            uint32_t a = (uint32_t)win[i], b = (uint32_t)win[i + 1];
            kb[nk] = a * (uint32_t)V + b;
            nk += (a < U) & (b < U);
        }
        RKB_BIG2_TAKE(__builtin_popcountll, nk)
    }
    static int rkb_big2_cpu256(void) { return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("popcnt"); }
    #else
    static int rkb_big2_cpu512(void) { return 0; }
    static int rkb_big2_cpu256(void) { return 0; }
    #endif
    static rkb_big2_build_fn rkb_big2_build = rkb_big2_build_generic;
    static rkb_big2_probe_fn rkb_big2_probe = rkb_big2_probe_generic;
    static int rkb_big2_compress(int mode);
    static int rkb_big2_init(void) {
        __builtin_cpu_init();
        if (__builtin_cpu_supports("popcnt")) {
            rkb_big2_build = rkb_big2_build_hw;
            rkb_big2_compress(1);
            return 1;
        }
        return 0;
    }
    /* the probe: mode 0 the plain one; 1 the widest compressing one the CPU has; 2 the AVX2 one even
       with AVX-512 (tests). Returns 0 (plain), 1 (AVX2) or 2 (AVX-512). */
    static int rkb_big2_compress(int mode) {
        int j, k, msk;
        if (!__builtin_cpu_supports("popcnt"))
            return 0;
        rkb_big2_probe = rkb_big2_probe_hw;
        #if defined(RKB_BIG2_512)
        for (msk = 0; msk < 256; msk++) {
            for (j = 0, k = 0; j < 8; j++)
                if ((msk >> j) & 1)
                    rkb_big2_keep8[msk][k++] = j;
            for (; k < 8; k++)
                rkb_big2_keep8[msk][k] = 0;
        }
        if (mode == 1 && rkb_big2_cpu512()) {
            rkb_big2_probe = rkb_big2_probe_512;
            return 2;
        }
        if (mode > 0 && rkb_big2_cpu256()) {
            rkb_big2_probe = rkb_big2_probe_avx2;
            return 1;
        }
        #else
        (void)j; (void)k; (void)msk; (void)mode;
        #endif
        return 0;
    }
    #else
    static rkb_big2_build_fn rkb_big2_build = rkb_big2_build_generic;
    static rkb_big2_probe_fn rkb_big2_probe = rkb_big2_probe_generic;
    static int rkb_big2_init(void) { return 0; }
    static int rkb_big2_compress(int mode) { (void)mode; return 0; }
    #endif
    """
    int32_t rkb_big2_build(const int32_t* ploc, Py_ssize_t pcount, Py_ssize_t V, uint64_t* bits, uint16_t* rank,
                           int32_t* wl, uint32_t* kb, int32_t* cp, Py_ssize_t* nwords) nogil
    int64_t rkb_big2_probe(const int32_t* win, Py_ssize_t mcount, Py_ssize_t V, uint32_t U, const uint64_t* bits,
                           const uint16_t* rank, uint32_t* kb, const int32_t* cp, int32_t* used, int32_t nb) nogil
    int rkb_big2_init()
    int rkb_big2_compress(int mode)

_BIG2_HW = bool(rkb_big2_init())
#: ROUGE-2's bit-table probe keeps only the bigrams of types the candidate has: 2 with AVX-512
#: (compress), 1 with AVX2 (a permutation per 8), 0 not (the plain probe)
_BIG2_COMPRESS = rkb_big2_compress(1)


def _big2_compressed(int mode):
    """Test hook: ROUGE-2's bit-table probe keeping only the bigrams of the candidate's types (mode 1:
    the widest the CPU has; 2: AVX2 even with AVX-512) or the plain one (0); the mode now used (as
    _BIG2_COMPRESS).  Not thread-safe."""
    return rkb_big2_compress(mode)


cdef int _bigram_bits(Work* w, const int32_t* ploc, Py_ssize_t pcount, const DocC** R, int32_t** mjp,
                      int nr, double* rh, double* rm, double* rp, int32_t U) noexcept nogil:
    """ROUGE-2 counts when (U + 1)^2 <= _BIG2_MAX_BITS and pcount < 65535: the candidate's bigrams
    of local ids as bits of a (U + 1) x (U + 1) bit table with a rank per word (rkb_big2_build),
    each a dense number; counts and a reference's used copies are arrays over those numbers, the
    last one a spare that stays 0.  No hashing and no branch per bigram; the bits are left all zero."""
    cdef Py_ssize_t i, lm, mcount, V = <Py_ssize_t>U + 1, nwords = (V * V + 63) >> 6, nw = 0, most = pcount
    cdef int r
    cdef int32_t nb
    cdef uint64_t* bits
    cdef int32_t* wl
    cdef int32_t* cp
    for r in range(nr):
        if R[r].ntok > most:
            most = R[r].ntok
    if (_need_zeroed(&w.b2bits, nwords, 8) < 0 or _need(&w.b2rank, nwords, 2) < 0
            or _need(&w.touched, 3 * (pcount + 2), 4) < 0 or _need(&w.b2keys, most + 32, 4) < 0):
        return -1
    bits = <uint64_t*>w.b2bits.p
    wl = <int32_t*>w.touched.p
    cp = wl + (pcount + 2)
    nb = rkb_big2_build(ploc, pcount, V, bits, <uint16_t*>w.b2rank.p, wl, <uint32_t*>w.b2keys.p, cp, &nw)
    for r in range(nr):
        lm = R[r].ntok
        mcount = lm - 1 if lm >= 2 else 0
        rh[r] = <double>rkb_big2_probe(mjp[r], mcount, V, <uint32_t>U, bits, <const uint16_t*>w.b2rank.p,
                                       <uint32_t*>w.b2keys.p, cp, cp + (pcount + 2), nb)
        rm[r] = <double>mcount
        rp[r] = <double>pcount
    for i in range(nw):
        bits[wl[i]] = 0
    return 0


cdef struct BEntry:
    uint64_t key       # packed bigram of local ids, plus 1 (0: an empty slot)
    int32_t cp         # its count in the candidate
    int32_t used       # hits taken by the current reference


cdef inline Py_ssize_t _b_slot(const BEntry* t, int shift, Py_ssize_t msk, uint64_t key) noexcept nogil:
    """The slot of ``key`` in a bigram table, or the empty slot where it would go (Fibonacci hashing)."""
    cdef Py_ssize_t s = <Py_ssize_t>((key * <uint64_t>0x9E3779B97F4A7C15ULL) >> shift)
    while t[s].key != 0 and t[s].key != key:
        s = (s + 1) & msk
    return s


cdef int _bigram_hits(Work* w, const int32_t* ploc, Py_ssize_t pcount, const DocC** R, int32_t** mjp,
                      int nr, double* rh, double* rm, double* rp) noexcept nogil:
    """ROUGE-2 counts of every reference: the candidate's bigrams in a 16-byte-entry table (cleared
    per pair), each reference's clipped hits, its used counts reset from a list of touched slots."""
    cdef Py_ssize_t cap = pow2_at_least(2 * pcount + 2), msk = cap - 1, i, s, lm, mcount, nt
    cdef int shift = 64, r
    cdef BEntry* t
    cdef int32_t* touched
    cdef const int32_t* win
    cdef uint64_t key
    cdef int64_t hits
    while (<Py_ssize_t>1 << (64 - shift)) < cap:
        shift -= 1
    if _need(&w.bt, cap, sizeof(BEntry)) < 0 or _need(&w.touched, pcount + 1, 4) < 0:
        return -1
    t = <BEntry*>w.bt.p
    touched = <int32_t*>w.touched.p
    memset(t, 0, cap * sizeof(BEntry))
    for i in range(pcount):
        key = (((<uint64_t><uint32_t>ploc[i]) << 32) | <uint32_t>ploc[i + 1]) + 1
        s = _b_slot(t, shift, msk, key)
        t[s].key = key
        t[s].cp += 1
    for r in range(nr):
        lm = R[r].ntok
        mcount = lm - 1 if lm >= 2 else 0
        hits = 0
        nt = 0
        win = mjp[r]
        if pcount > 0:
            for i in range(mcount):
                if win[i] >= 0 and win[i + 1] >= 0:
                    key = (((<uint64_t><uint32_t>win[i]) << 32) | <uint32_t>win[i + 1]) + 1
                    s = _b_slot(t, shift, msk, key)
                    if t[s].used < t[s].cp:   # an empty slot has cp 0
                        if t[s].used == 0:
                            touched[nt] = <int32_t>s
                            nt += 1
                        t[s].used += 1
                        hits += 1
            for i in range(nt):
                t[touched[i]].used = 0
        rh[r] = <double>hits
        rm[r] = <double>mcount
        rp[r] = <double>pcount
    return 0


cdef inline Py_ssize_t _gt_mask(Work* w, Py_ssize_t units) noexcept nogil:
    # use the smallest power of two that fits (the table may be larger from earlier pairs)
    return pow2_at_least(2 * units + 2) - 1


cdef inline void _g_add(GEntry* t, Py_ssize_t msk, uint32_t gen, uint64_t key, int32_t pos,
                        const int32_t* base, int n, bint verify) noexcept nogil:
    cdef Py_ssize_t s = <Py_ssize_t>(mix64(key) & msk)
    cdef GEntry* e
    while True:
        e = &t[s]
        if e.gen != gen:
            e.gen = gen
            e.key = key
            e.pos = pos
            e.cp = 1
            e.used = 0
            e.rgen = 0
            return
        if e.key == key and (not verify or _same(base + e.pos, base + pos, n)):
            e.cp += 1
            return
        s = (s + 1) & msk


cdef inline bint _same(const int32_t* a, const int32_t* b, int n) noexcept nogil:
    cdef int k
    for k in range(n):
        if a[k] != b[k]:
            return False
    return True


cdef inline bint _g_hit(GEntry* t, Py_ssize_t msk, uint32_t gen, uint32_t rgen, uint64_t key,
                        const int32_t* pbase, const int32_t* win, int n, bint verify) noexcept nogil:
    cdef Py_ssize_t s = <Py_ssize_t>(mix64(key) & msk)
    cdef GEntry* e
    while True:
        e = &t[s]
        if e.gen != gen:
            return False
        if e.key == key and (not verify or _same(pbase + e.pos, win, n)):
            if e.rgen != rgen:
                e.rgen = rgen
                e.used = 0
            if e.used < e.cp:
                e.used += 1
                return True
            return False
        s = (s + 1) & msk


# ---- the counts of ROUGE-N and ROUGE-S/SU for _score_pair (score.pxi): every reference's hits,
# unit count and the candidate's unit count into the PairC's rh/rm/rp (rs under -f B); their rows
# of the kind table (kinds.pxi: KIND_ROWS) are filled at the end of this file

cdef int _count_n_row(Work* w, PairC* c, const MeasureC* m, int qn, bint mode_b) noexcept nogil:
    """K_N's row: ROUGE-``m.n`` (_count_n)."""
    return _count_n(w, c, m.n, mode_b)


cdef int _count_n(Work* w, PairC* c, int nn, bint mode_b) noexcept nogil:
    """ROUGE-``nn`` of every reference, by the cheapest table for the candidate's size: a count
    array (unigrams), a U x U direct table (bigrams, U <= 128; also to 256 for a candidate of
    65,535 bigrams or more), the bit table (bigrams, 129 to 2,895 types), the bigram table, else
    the hashed gram table; the highlights' marks."""
    cdef Py_ssize_t pcount = c.lp - nn + 1 if c.lp >= nn else 0
    cdef int32_t U = c.U
    cdef int rc = 0
    if nn == 1:
        _unigram_hits(c, pcount)
    elif nn == 2 and U > _BIG2_MIN_U and (<Py_ssize_t>U + 1) * (U + 1) <= _BIG2_MAX_BITS and pcount < 65535:
        # candidates of 129 to 2,895 types: the bit table (the 16-byte direct table of U^2 entries,
        # over 256 KB, and the uint16 one of 257-723 types fell out of L2 when caches were cold; the
        # hashed bigram table of 724 types and more took twice as long)
        rc = _bigram_bits(w, c.ploc, pcount, c.R, c.mjp, c.nr, c.rh, c.rm, c.rp, U)
    elif nn == 2 and U <= _BIG2_MIN_U and pcount < 65535:
        rc = _bigram_counts(w, c, pcount)
    elif nn == 2 and U <= _DIRECT_MAX_U:
        rc = _bigram_small(w, c, pcount)
    elif nn == 2:
        rc = _bigram_hits(w, c.ploc, pcount, c.R, c.mjp, c.nr, c.rh, c.rm, c.rp)
    else:
        rc = _ngram_hits(w, c, nn, pcount)
    if rc < 0:
        return -1
    if mode_b:
        _recall_b(c)
    if c.mks != NULL and _unit_marks(w, nn, 0, False, c.ploc, c.lp, c.mjp[0], c.R[0].ntok, c.mks) < 0:
        return -1
    return 0


cdef inline void _unigram_hits(PairC* c, Py_ssize_t pcount) noexcept nogil:
    """ROUGE-1: each reference token takes a copy of its type while the candidate has one left, that
    is the sum over types of min(the candidate's count, the reference's): the reference's counts
    first (one increment a token), then the minima over the U types (a loop the compiler vectorises)."""
    cdef Py_ssize_t i
    cdef int r
    cdef int32_t hits, a, b   # hits <= the reference's tokens (int32)
    cdef const int32_t* win
    cdef int32_t* used = c.used
    cdef const int32_t* pcnt = c.pcnt
    cdef int32_t U = c.U
    for r in range(c.nr):
        memset(used, 0, (U + 1) * sizeof(int32_t))
        win = c.mjp[r]
        for i in range(c.R[r].ntok):
            used[_or_slot(win[i], U)] += 1   # a type the candidate lacks (-1): slot U, never summed
        hits = 0
        for i in range(U):
            a = used[i]
            b = pcnt[i]
            hits += a if a < b else b
        c.rh[r] = <double>hits
        c.rm[r] = <double>c.R[r].ntok
        c.rp[r] = <double>pcount


cdef int _bigram_counts(Work* w, PairC* c, Py_ssize_t pcount) noexcept nogil:
    """ROUGE-2 while the candidate has at most 128 types and fewer than 65,535 bigrams: a uint16 count
    per bigram (a, b) of local ids at a * V + b (V = U + 1; a type the candidate lacks is U: its row
    and column stay 0), in a table all zero between uses (w.b2bits: _bigram_bits has it only above
    128 types, and leaves it all zero too).  A reference takes a copy by decrementing the count, with
    no branch; the counts are set again for the next reference and cleared after the last one."""
    cdef Py_ssize_t i, lm, mcount, V = <Py_ssize_t>c.U + 1
    cdef int r
    cdef int64_t hits
    cdef uint16_t v
    cdef int32_t U = c.U, take
    cdef uint32_t k
    cdef const int32_t* win
    cdef const int32_t* ploc = c.ploc
    cdef uint16_t* t
    cdef uint32_t* kp
    if _need_zeroed(&w.b2bits, (V * V + 3) >> 2, 8) < 0 or _need(&w.touched, pcount + 1, 4) < 0:
        return -1
    t = <uint16_t*>w.b2bits.p
    kp = <uint32_t*>w.touched.p
    for i in range(pcount):
        kp[i] = <uint32_t>ploc[i] * <uint32_t>V + <uint32_t>ploc[i + 1]
    for r in range(c.nr):
        for i in range(pcount):
            t[kp[i]] += 1
        lm = c.R[r].ntok
        mcount = lm - 1 if lm >= 2 else 0
        win = c.mjp[r]
        hits = 0
        for i in range(mcount):
            k = <uint32_t>_or_slot(win[i], U) * <uint32_t>V + <uint32_t>_or_slot(win[i + 1], U)
            v = t[k]
            take = v != 0
            t[k] = <uint16_t>(v - take)
            hits += take
        for i in range(pcount):
            t[kp[i]] = 0
        c.rh[r] = <double>hits
        c.rm[r] = <double>mcount
        c.rp[r] = <double>pcount
    return 0


cdef int _bigram_small(Work* w, PairC* c, Py_ssize_t pcount) noexcept nogil:
    """ROUGE-2 while the candidate has at most 256 types: bigrams of local ids index a U x U table
    directly (no hashing)."""
    cdef Py_ssize_t i, lm, mcount, U = c.U
    cdef int r
    cdef int64_t hits
    cdef const int32_t* win
    cdef const int32_t* ploc = c.ploc
    cdef DEntry* dt
    if _dt_reset(w, U * U + 1) < 0:
        return -1
    dt = <DEntry*>w.dt.p
    for i in range(pcount):
        _d_add(dt, <Py_ssize_t>ploc[i] * U + ploc[i + 1], w.dgen)
    for r in range(c.nr):
        lm = c.R[r].ntok
        mcount = lm - 1 if lm >= 2 else 0
        hits = 0
        if pcount > 0 and mcount > 0:
            w.drgen += 1
            win = c.mjp[r]
            for i in range(mcount):
                if win[i] >= 0 and win[i + 1] >= 0 and _d_hit(dt, <Py_ssize_t>win[i] * U + win[i + 1], w.dgen, w.drgen):
                    hits += 1
        c.rh[r] = <double>hits
        c.rm[r] = <double>mcount
        c.rp[r] = <double>pcount
    return 0


cdef inline void _rgen_next(Work* w) noexcept nogil:
    """A new reference for the gram table's per-reference state (wrapped: every entry's forgotten)."""
    cdef Py_ssize_t t
    w.rgen += 1
    if w.rgen == 0:
        for t in range(w.gt.cap):
            (<GEntry*>w.gt.p)[t].rgen = 0
        w.rgen = 1


cdef int _ngram_hits(Work* w, PairC* c, int nn, Py_ssize_t pcount) noexcept nogil:
    """ROUGE-N for n >= 3 (and bigrams past the direct tables): the candidate's n-grams in the
    hashed gram table, each reference's n-grams of types the candidate has probed."""
    cdef Py_ssize_t i, t, lm, mcount, msk = 0
    cdef int r
    cdef int64_t hits
    cdef bint ok
    cdef const int32_t* win
    cdef const int32_t* ploc = c.ploc
    cdef GEntry* gt = NULL
    if pcount > 0:
        if _gt_reset(w, pcount) < 0:
            return -1
        gt = <GEntry*>w.gt.p
        msk = _gt_mask(w, pcount)
        for i in range(pcount):
            _g_add(gt, msk, w.ggen, gram_key(ploc + i, nn), <int32_t>i, ploc, nn, nn > 2)
    for r in range(c.nr):
        lm = c.R[r].ntok
        mcount = lm - nn + 1 if lm >= nn else 0
        hits = 0
        if pcount > 0 and mcount > 0:
            _rgen_next(w)
            for i in range(mcount):
                win = c.mjp[r] + i
                ok = True
                for t in range(nn):
                    if win[t] < 0:
                        ok = False
                        break
                if ok and _g_hit(gt, msk, w.ggen, w.rgen, gram_key(win, nn), ploc, win, nn, nn > 2):
                    hits += 1
        c.rh[r] = <double>hits
        c.rm[r] = <double>mcount
        c.rp[r] = <double>pcount
    return 0


cdef int _count_skip(Work* w, PairC* c, const MeasureC* m, int qn, bint mode_b) noexcept nogil:
    """ROUGE-S (kind K_S) or ROUGE-SU (K_SU) with skip distance ``m.n`` (< 0: any) of every
    reference: a direct table while the candidate has at most 256 types, else the hashed gram
    table; the highlights' marks."""
    cdef int kind = m.kind, d = m.n
    cdef bint su = kind == K_SU
    cdef Py_ssize_t pcount = _skip_units(c.lp, d, su)
    cdef int rc
    if c.U <= _DIRECT_MAX_U:
        rc = _skip_direct(w, c, d, su, pcount)
    else:
        rc = _skip_hash(w, c, d, su, pcount)
    if rc < 0:
        return -1
    if mode_b:
        _recall_b(c)
    if c.mks != NULL and _unit_marks(w, 0, d, su, c.ploc, c.lp, c.mjp[0], c.R[0].ntok, c.mks) < 0:
        return -1
    return 0


cdef inline Py_ssize_t _skip_end(Py_ssize_t i, Py_ssize_t L, int d) noexcept nogil:
    """The last position paired with start ``i`` of a text of ``L`` tokens (skip distance ``d``)."""
    cdef Py_ssize_t jmax = L - 1
    if d >= 0 and i + d + 1 < jmax:
        jmax = i + d + 1
    return jmax


cdef int _skip_direct(Work* w, PairC* c, int d, bint su, Py_ssize_t pcount) noexcept nogil:
    """Skip units in a direct table: skip-bigram (a, b) -> a * U + b, unigram a -> U * U + a."""
    cdef Py_ssize_t i, j, t, lm, mcount, U = c.U, lp = c.lp
    cdef int r
    cdef int64_t hits
    cdef const int32_t* win
    cdef const int32_t* ploc = c.ploc
    cdef DEntry* dt
    if _dt_reset(w, U * U + U + 1) < 0:
        return -1
    dt = <DEntry*>w.dt.p
    for i in range(lp - 1):
        if su:
            _d_add(dt, U * U + ploc[i], w.dgen)
        t = <Py_ssize_t>ploc[i] * U
        for j in range(i + 1, _skip_end(i, lp, d) + 1):
            _d_add(dt, t + ploc[j], w.dgen)
    for r in range(c.nr):
        lm = c.R[r].ntok
        mcount = _skip_units(lm, d, su)
        hits = 0
        if pcount > 0 and mcount > 0:
            w.drgen += 1
            win = c.mjp[r]
            for i in range(lm - 1):
                if win[i] < 0:
                    continue
                if su and _d_hit(dt, U * U + win[i], w.dgen, w.drgen):
                    hits += 1
                t = <Py_ssize_t>win[i] * U
                for j in range(i + 1, _skip_end(i, lm, d) + 1):
                    if win[j] >= 0 and _d_hit(dt, t + win[j], w.dgen, w.drgen):
                        hits += 1
        c.rh[r] = <double>hits
        c.rm[r] = <double>mcount
        c.rp[r] = <double>pcount
    return 0


cdef int _skip_hash(Work* w, PairC* c, int d, bint su, Py_ssize_t pcount) noexcept nogil:
    """Skip units in the hashed gram table: skip-bigram (a, b) -> a << 32 | b, unigram a -> 1 << 63 | a."""
    cdef Py_ssize_t i, j, lm, mcount, msk = 0, lp = c.lp
    cdef int r
    cdef int64_t hits
    cdef uint64_t key
    cdef const int32_t* win
    cdef const int32_t* ploc = c.ploc
    cdef GEntry* gt = NULL
    if pcount > 0:
        if _gt_reset(w, pcount) < 0:
            return -1
        gt = <GEntry*>w.gt.p
        msk = _gt_mask(w, pcount)
        for i in range(lp - 1):
            if su:
                _g_add(gt, msk, w.ggen, (<uint64_t>1 << 63) | <uint32_t>ploc[i], 0, ploc, 0, False)
            key = (<uint64_t><uint32_t>ploc[i]) << 32
            for j in range(i + 1, _skip_end(i, lp, d) + 1):
                _g_add(gt, msk, w.ggen, key | <uint32_t>ploc[j], 0, ploc, 0, False)
    for r in range(c.nr):
        lm = c.R[r].ntok
        mcount = _skip_units(lm, d, su)
        hits = 0
        if pcount > 0 and mcount > 0:
            _rgen_next(w)
            win = c.mjp[r]
            for i in range(lm - 1):
                if win[i] < 0:
                    continue
                if su and _g_hit(gt, msk, w.ggen, w.rgen, (<uint64_t>1 << 63) | <uint32_t>win[i], ploc, win, 0, False):
                    hits += 1
                key = (<uint64_t><uint32_t>win[i]) << 32
                for j in range(i + 1, _skip_end(i, lm, d) + 1):
                    if win[j] >= 0 and _g_hit(gt, msk, w.ggen, w.rgen, key | <uint32_t>win[j], ploc, win, 0, False):
                        hits += 1
        c.rh[r] = <double>hits
        c.rm[r] = <double>mcount
        c.rp[r] = <double>pcount
    return 0


# ---- ND: distinct n-grams (pltrdy rouge's sets, docs/measures/distinct.md).  One hashed table
# per reference over the final ids: the candidate's windows (cp 1), then the reference's (cp 0
# when new); a window's first sight in the reference counts it once, a hit when the candidate
# has it.  A position >= 0 is the candidate's window, -1 - i the reference's window i.

cdef inline const int32_t* _nd_at(const int32_t* ptok, const int32_t* mtok, int32_t pos) noexcept nogil:
    return ptok + pos if pos >= 0 else mtok + (-1 - pos)


cdef inline GEntry* _nd_slot(GEntry* t, Py_ssize_t msk, uint32_t gen, const int32_t* ptok,
                             const int32_t* mtok, int32_t pos, int n) noexcept nogil:
    """The entry of the window at ``pos``; a new one has cp 0, used 0 (and rgen 1: new)."""
    cdef const int32_t* win = _nd_at(ptok, mtok, pos)
    cdef uint64_t key = gram_key(win, n)
    cdef Py_ssize_t s = <Py_ssize_t>(mix64(key) & msk)
    cdef GEntry* e
    while True:
        e = &t[s]
        if e.gen != gen:
            e.gen = gen
            e.key = key
            e.pos = pos
            e.cp = 0
            e.used = 0
            e.rgen = 1
            return e
        if e.key == key and (n <= 2 or _same(_nd_at(ptok, mtok, e.pos), win, n)):
            e.rgen = 0
            return e
        s = (s + 1) & msk


cdef int _count_nd(Work* w, PairC* c, const MeasureC* m, int qn, bint mode_b) noexcept nogil:
    """ND (distinct ``m.n``-grams of the joined tokens) of every reference: hits are the n-grams
    found in both texts, the counts each text's distinct n-grams (rh, rm, rp; rs under -f B)."""
    cdef int nn = m.n
    cdef Py_ssize_t pcount = c.lp - nn + 1 if c.lp >= nn else 0, mcount, i, msk
    cdef int r
    cdef int64_t hits, md, pd
    cdef const int32_t* ptok = c.P.tok
    cdef const int32_t* mtok
    cdef GEntry* gt
    cdef GEntry* e
    for r in range(c.nr):
        mtok = c.R[r].tok
        mcount = c.R[r].ntok - nn + 1 if c.R[r].ntok >= nn else 0
        hits = 0
        md = 0
        pd = 0
        if pcount + mcount > 0:
            if _gt_reset(w, pcount + mcount) < 0:
                return -1
            gt = <GEntry*>w.gt.p
            msk = _gt_mask(w, pcount + mcount)
            for i in range(pcount):
                e = _nd_slot(gt, msk, w.ggen, ptok, mtok, <int32_t>i, nn)
                pd += e.rgen
                e.cp = 1
            for i in range(mcount):
                e = _nd_slot(gt, msk, w.ggen, ptok, mtok, <int32_t>(-1 - i), nn)
                if e.used == 0:
                    e.used = 1
                    md += 1
                    hits += e.cp
        c.rh[r] = <double>hits
        c.rm[r] = <double>md
        c.rp[r] = <double>pd
    if mode_b:
        _recall_b(c)
    return 0


cdef int _marks_nd(Work* w, PairC* c, const MeasureC* m, int qn, bint mode_b) noexcept nogil:
    """ND's highlights (marks.pxi): its counts, and every n-gram found in both texts marked on both sides."""
    if _count_nd(w, c, m, qn, mode_b) < 0:
        return -1
    return _unit_marks(w, m.n, 0, False, c.ploc, c.lp, c.mjp[0], c.R[0].ntok, c.mks)


# the rows (kinds.pxi): the count function, and the marks function of the highlights (the count
# functions of N, S and SU mark their units themselves when the pair has a Marks record)
KIND_ROWS[K_N].count = _count_n_row
KIND_ROWS[K_N].marks = _count_n_row
KIND_ROWS[K_S].count = _count_skip
KIND_ROWS[K_S].marks = _count_skip
KIND_ROWS[K_SU].count = _count_skip
KIND_ROWS[K_SU].marks = _count_skip
KIND_ROWS[K_ND].count = _count_nd
KIND_ROWS[K_ND].marks = _marks_nd
