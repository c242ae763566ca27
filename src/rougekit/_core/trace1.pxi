# The one-word trace-back of the script's union LCS in C (ROUGE-L, docs/rouge155): a peer sentence
# of at most 64 tokens walked row by row with one bit search per row (rkb_trace1), and its twin
# that also lists the (reference, candidate) pairs it matched for the highlights
# (rkb_trace1_pairs); both use popcnt when the CPU has it (chosen once, at import).

cdef extern from *:
    """
    #define RKB_POPCOUNT64(x) RK_POPCOUNT64(x)   /* common.pxi */

    /* Trace-back of one (model sentence, peer sentence) LCS whose peer sentence has at most 64
       tokens (one word per bit-parallel row; rows[a] is row a, rows[0] all ones), walked row by
       row.  The script's decisions at (a, b): a match is diagonal; else "up" if c(a-1, b) >=
       c(a, b-1), else "left".  With D = c(a, b) - c(a-1, b) (0 or 1): D = 0 means up (or the
       diagonal at a match); D = 1 means left until the first column b' <= b (from the right)
       where x[a-1] matches y[b'-1] (diagonal) or row a grows at b'-1 (then up), and D stays 1
       along the way.  So each row is one bit search over (match bits | growth bits) instead of
       one step per cell.  pm(a) is the match word of x[a-1] in the PM table (stride Wb; types
       the candidate lacks map to the zero row U).  cu = c(a, b) = 0 ends the walk.  PAIR: a
       statement run at each step, empty here (score.pxi's rkb_trace1_pairs lists the matches). */
    #if defined(__GNUC__) || defined(__clang__)
    #define RKB_CTZ64(x) __builtin_ctzll((unsigned long long)(x))
    #define RKB_HIBIT(x) (63 - __builtin_clzll((unsigned long long)(x)))
    #define RKB_PREFETCH(p) __builtin_prefetch((p))
    #else
    static inline int RKB_CTZ64(unsigned long long x) { int r = 0; while (!(x & 1)) { x >>= 1; r++; } return r; }
    static inline int RKB_HIBIT(unsigned long long x) { int r = 63; while (!(x >> 63)) { x <<= 1; r--; } return r; }
    #define RKB_PREFETCH(p) ((void)(p))
    #endif
    #define RKB_TRACE1_BODY(PC, PAIR)                                                        \
    {                                                                                        \
        Py_ssize_t a = m, b = n;                                                             \
        int cu = PC(~rows[a] & (~0ULL >> (64 - b)));                                         \
        while (cu > 0 && a > 0 && b > 0) {  /* a, b > 0 whenever cu > 0: a guard only */ \
            uint64_t low = ~0ULL >> (64 - b);                                                \
            uint32_t xi = (uint32_t)x[a - 1];                                                \
            uint64_t pmw = PM[(Py_ssize_t)(xi < U ? xi : U) * Wb];                          \
            int D = cu - PC(~rows[a - 1] & low);                                             \
            uint64_t S = D ? ((pmw | ~rows[a]) & low) : (1ULL << (b - 1));                   \
            int p = RKB_HIBIT(S);                                                            \
            int mt = (int)((pmw >> p) & 1);                                                  \
            mk[a - 1] |= (uint8_t)mt;                                                        \
            PAIR                                                                             \
            cu -= mt | D;                                                                    \
            b = p + 1 - mt;                                                                  \
            a -= 1;                                                                          \
        }                                                                                    \
    }

    typedef void (*rkb_trace1_fn)(const int32_t*, Py_ssize_t, Py_ssize_t, const uint64_t*, uint8_t*,
                                  const uint64_t*, Py_ssize_t, uint32_t);
    static void rkb_trace1_generic(const int32_t* x, Py_ssize_t m, Py_ssize_t n, const uint64_t* rows,
                                   uint8_t* mk, const uint64_t* PM, Py_ssize_t Wb, uint32_t U)
    RKB_TRACE1_BODY(RKB_POPCOUNT64, )

    #if (defined(__GNUC__) || defined(__clang__)) && (defined(__x86_64__) || defined(__i386__)) && !defined(__POPCNT__)
    __attribute__((target("popcnt")))
    static void rkb_trace1_hw(const int32_t* x, Py_ssize_t m, Py_ssize_t n, const uint64_t* rows,
                              uint8_t* mk, const uint64_t* PM, Py_ssize_t Wb, uint32_t U)
    RKB_TRACE1_BODY(__builtin_popcountll, )
    static rkb_trace1_fn rkb_trace1 = rkb_trace1_generic;
    static int rkb_init_dispatch(void) {
        __builtin_cpu_init();
        if (__builtin_cpu_supports("popcnt")) { rkb_trace1 = rkb_trace1_hw; return 1; }
        return 0;
    }
    #else
    static rkb_trace1_fn rkb_trace1 = rkb_trace1_generic;
    static int rkb_init_dispatch(void) { return 0; }
    #endif
    """
    int RKB_POPCOUNT64(uint64_t x) nogil
    int RKB_CTZ64(uint64_t x) nogil
    void RKB_PREFETCH(const void* p) nogil
    void rkb_trace1(const int32_t* x, Py_ssize_t m, Py_ssize_t n, const uint64_t* rows, uint8_t* mk,
                    const uint64_t* PM, Py_ssize_t Wb, uint32_t U) nogil
    int rkb_init_dispatch()


cdef extern from *:
    """
    /* _batch.pyx's rkb_trace1 that also lists its matches: (a - 1, p) at pk[2 * np[0]], np[0]
       counting them (written at every step, kept at a match: room for min(m, n) + 1 pairs) */
    #define RKB_PAIR_OUT { pk[2 * np[0]] = (int32_t)(a - 1); pk[2 * np[0] + 1] = (int32_t)p; np[0] += mt; }
    typedef void (*rkb_trace1p_fn)(const int32_t*, Py_ssize_t, Py_ssize_t, const uint64_t*, uint8_t*,
                                   const uint64_t*, Py_ssize_t, uint32_t, int32_t*, Py_ssize_t*);
    static void rkb_trace1p_generic(const int32_t* x, Py_ssize_t m, Py_ssize_t n, const uint64_t* rows,
                                    uint8_t* mk, const uint64_t* PM, Py_ssize_t Wb, uint32_t U,
                                    int32_t* pk, Py_ssize_t* np)
    RKB_TRACE1_BODY(RKB_POPCOUNT64, RKB_PAIR_OUT)
    #if (defined(__GNUC__) || defined(__clang__)) && (defined(__x86_64__) || defined(__i386__)) && !defined(__POPCNT__)
    __attribute__((target("popcnt")))
    static void rkb_trace1p_hw(const int32_t* x, Py_ssize_t m, Py_ssize_t n, const uint64_t* rows,
                               uint8_t* mk, const uint64_t* PM, Py_ssize_t Wb, uint32_t U,
                               int32_t* pk, Py_ssize_t* np)
    RKB_TRACE1_BODY(__builtin_popcountll, RKB_PAIR_OUT)
    static rkb_trace1p_fn rkb_trace1_pairs = rkb_trace1p_generic;
    static int rkb_init_pairs(void) {
        __builtin_cpu_init();
        if (__builtin_cpu_supports("popcnt")) { rkb_trace1_pairs = rkb_trace1p_hw; return 1; }
        return 0;
    }
    #else
    static rkb_trace1p_fn rkb_trace1_pairs = rkb_trace1p_generic;
    static int rkb_init_pairs(void) { return 0; }
    #endif
    """
    void rkb_trace1_pairs(const int32_t* x, Py_ssize_t m, Py_ssize_t n, const uint64_t* rows, uint8_t* mk,
                          const uint64_t* PM, Py_ssize_t Wb, uint32_t U, int32_t* pk, Py_ssize_t* np) nogil
    int rkb_init_pairs()

rkb_init_pairs()
