# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Compiled twin of ``rougekit.stats.perl_bootstrap.resample_sums``: the script's resampling loop.

For resample s: seed Perl's drand48 with ``srand(s)``, draw n indices ``int(rand(n))``, and add
the drawn rows in draw order. Same arithmetic as the numpy version, so the sums are identical.
No numpy here: ``rougekit rouge155`` runs without importing it.

A million pairs make a billion draws, each a random read: :func:`resample_sums_columns` reads
them from codes of the distinct values (:func:`encode_columns`), 8 bytes a row that stay in cache
far better than the values themselves (docs/rouge155/bootstrap.md), eight resamples at a time
when the CPU has AVX-512 (``rk_lanes``; :data:`LANES`).
"""
from array import array

from libc.stdint cimport uint64_t

cdef extern from *:
    """
    #if defined(__GNUC__) || defined(__clang__)
    #define RK_PREFETCH(p) __builtin_prefetch(p)
    #define RK_INLINE static inline __attribute__((always_inline))
    #elif defined(_MSC_VER)
    #define RK_PREFETCH(p) ((void)0)
    #define RK_INLINE static __forceinline
    #else
    #define RK_PREFETCH(p) ((void)0)
    #define RK_INLINE static inline
    #endif
    #include <stdint.h>

    #define RK_BLOCK 512  /* draws whose codes are fetched at once, all in flight */
    #define RK_MAX_COLUMNS 64

    /* The sums of G columns of one resample, read from codes (see resample_sums_columns). The draws
       are the script's: state' = a.state + c mod 2^48, index = int(state / 2^48 * n). Four
       generators, each 4 draws apart (a^4, c(a^3 + a^2 + a + 1)), make them without waiting on each
       other; the drawn values are added in draw order. */
    RK_INLINE void rk_columns(const int G, double *acc, const uint64_t *cp, Py_ssize_t n, const double *tab,
                              const int *sh, const uint64_t *mk, const Py_ssize_t *off, uint64_t seed, double *out)
    {
        const uint64_t a = 0x5DEECE66DULL, c = 0xB, mask48 = (((uint64_t)1) << 48) - 1;
        const uint64_t a4 = (a * a * a * a) & mask48, c4 = (c * (a * a * a + a * a + a + 1)) & mask48;
        /* (state / 2^48) * n in one multiply: state * (n / 2^48) rounds the same real product
           (scaling by a power of two is exact), so the indices are the script's, bit for bit */
        const double dn_scaled = (double)n * (1.0 / 281474976710656.0);
        uint64_t st[4], code;
        Py_ssize_t idx[RK_BLOCK];
        Py_ssize_t k0, i, m, start;
        int j, q;
        st[0] = ((((seed & 0xFFFFFFFFULL) << 16) + 0x330E) * a + c) & mask48;
        for (q = 1; q < 4; q++) st[q] = (st[q - 1] * a + c) & mask48;
        for (k0 = 0; k0 < n; k0 += RK_BLOCK) {
            m = n - k0 < RK_BLOCK ? n - k0 : RK_BLOCK;
            for (i = 0; i < m; i += 4) {  /* state < 2^48: the signed conversion is exact */
                for (q = 0; q < 4; q++) {
                    idx[i + q] = (Py_ssize_t)((double)(int64_t)st[q] * dn_scaled);
                    st[q] = (st[q] * a4 + c4) & mask48;
                }
                for (q = 0; q < 4; q++) RK_PREFETCH(cp + idx[i + q]);
            }
            start = 0;
            if (k0 == 0) {  /* the first drawn value as is, then added in draw order */
                code = cp[idx[0]];
                for (j = 0; j < G; j++) acc[j] = tab[off[j] + (Py_ssize_t)((code >> sh[j]) & mk[j])];
                start = 1;
            }
            for (i = start; i < m; i++) {
                code = cp[idx[i]];
                for (j = 0; j < G; j++) acc[j] = acc[j] + tab[off[j] + (Py_ssize_t)((code >> sh[j]) & mk[j])];
            }
        }
        for (j = 0; j < G; j++) out[j] = acc[j];
    }

    #if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__) && !defined(RK_NO_AVX512)
    #include <immintrin.h>
    #define RK_LANES 1
    /* GCC's SLP vectorizer packs eight lanes' table values into a zmm (7 inserts and GPR <-> xmm moves a
       column, one vaddpd: the same bits) and spills the indices: the 1M real pairs' 3 F columns, 1 thread,
       ns/draw: 1.37-1.39 with it, 1.05-1.07 without (the lanes' scalar loads and adds as written). */
    #if defined(__GNUC__) && !defined(__clang__)
    #define RK_LANES_TARGET __attribute__((target("avx512f,avx512dq,bmi,bmi2"), optimize("no-tree-slp-vectorize")))
    #else
    #define RK_LANES_TARGET __attribute__((target("avx512f,avx512dq,bmi,bmi2")))
    #endif
    #define RK_RING 32  /* steps of indices kept: a power of two above rk_ahead */
    /* steps between a step's prefetches and its reads. The F of 1M real pairs, 1 thread, ns/draw, load 4.6:
       scalar loop 2.1-2.4; ahead 4: 2.0-2.8, 8: 1.8-2.3, 12: 1.6-1.7, 16: 1.5-1.6, 24: 1.6 (load ~1.5: 4 ~1.2, 8 ~1.35).
       Without the SLP vectorizer (a step of 8 draws ~8 ns, was ~11), the 3 F columns of 1M real pairs, load ~4,
       1 thread: ahead 6 0.94-0.98 (8 medians), 8 0.98-1.02, 16 1.04-1.08; 2 threads: 6 1.01, 8 1.03-1.07, 16
       1.08-1.14; synthetic 1M x 1, 2, 5, 9 columns: 6 the fastest of 6, 8, 16 each time (2 and 3: up to 1.8 at a
       load spike) */
    static int rk_ahead = 6;

    /* Eight resamples at once: lane r runs seed + r with its own drand48 state, the eight states
       advanced in one vector (state < 2^48: the int64 -> double conversion is exact and the product
       rounds like rk_columns', so the indices are the script's). Step t makes the indices of step
       t + rk_ahead and prefetches their codes, then reads the codes of step t and adds each lane's values
       to that lane's sums with scalar adds: each resample adds its values in its own draw order (the
       scalar loop's bits), and eight sums are in flight, none waiting on its previous add. Columns are
       cut out with bextr (masks 2^width - 1). Sums of lanes >= lanes are not written. Measured and
       dropped: the values gathered (vpgatherqq/vpgatherqpd, one vaddpd per column): 2.5 ns/draw against
       the scalar loop's 1.8; the 512 indices of a block prefetched in one burst: 1.5. */
    RK_LANES_TARGET RK_INLINE void
    rk_lanes(const int G, double *acc, const uint64_t *cp, Py_ssize_t n, const double *tab, const int *sh,
             const uint64_t *mk, const Py_ssize_t *off, uint64_t seed, int lanes, double *out)
    {
        const __m512i a = _mm512_set1_epi64(0x5DEECE66DLL), c = _mm512_set1_epi64(0xB);
        const __m512i m48 = _mm512_set1_epi64((long long)((((uint64_t)1) << 48) - 1));
        const __m512d dn = _mm512_set1_pd((double)n * (1.0 / 281474976710656.0));
        __m512i st;
        int64_t idx[RK_RING * 8] __attribute__((aligned(64)));
        int64_t s0[8] __attribute__((aligned(64)));
        Py_ssize_t t, made, ahead = rk_ahead;
        uint64_t code, ctl[RK_MAX_COLUMNS];
        const double *tb[RK_MAX_COLUMNS];
        const int64_t *step;
        int j, r;
        for (j = 0; j < G; j++) {  /* column j: the bits sh .. sh + width - 1 of a code */
            ctl[j] = (uint64_t)sh[j] | ((uint64_t)__builtin_popcountll(mk[j]) << 8);
            tb[j] = tab + off[j];
        }
        for (r = 0; r < 8; r++) s0[r] = (int64_t)((((seed + (uint64_t)r) & 0xFFFFFFFFULL) << 16) + 0x330E);
        st = _mm512_load_si512((const void *)s0);
    #define RK_MAKE(T)                                                                                     \
        do {                                                                                               \
            int64_t *to = idx + 8 * ((T) & (RK_RING - 1));                                                 \
            st = _mm512_and_si512(_mm512_add_epi64(_mm512_mullo_epi64(st, a), c), m48);                    \
            _mm512_store_si512((void *)to, _mm512_cvttpd_epi64(_mm512_mul_pd(_mm512_cvtepi64_pd(st), dn))); \
            for (r = 0; r < 8; r++) RK_PREFETCH(cp + to[r]);                                               \
        } while (0)
        for (made = 0; made < n && made < ahead; made++) RK_MAKE(made);
        for (r = 0; r < 8; r++) {  /* the first drawn value as is, then added in draw order */
            code = cp[idx[r]];
            for (j = 0; j < G; j++) acc[G * r + j] = tb[j][__bextr_u64(code, ctl[j])];
        }
        for (t = 1; t < n; t++) {
            if (made < n) {
                RK_MAKE(made);
                made++;
            }
            step = idx + 8 * (t & (RK_RING - 1));
            #pragma GCC unroll 8
            for (r = 0; r < 8; r++) {
                code = cp[step[r]];
                #pragma GCC unroll 8
                for (j = 0; j < G; j++) acc[G * r + j] = acc[G * r + j] + tb[j][__bextr_u64(code, ctl[j])];
            }
        }
    #undef RK_MAKE
        for (r = 0; r < lanes; r++)
            for (j = 0; j < G; j++) out[(Py_ssize_t)G * r + j] = acc[G * r + j];
    }

    /* resamples seed .. seed + lanes - 1 (lanes <= 8) of 1 to 6 columns, the 8 x G sums in registers (or
       nearly: 1M rows, 5 + 1 columns, ns/draw: scalar 3.6-3.8, lanes 2.4; through memory: 4.5) */
    RK_LANES_TARGET static void
    rk_lane_sums(int G, const uint64_t *cp, Py_ssize_t n, const double *tab, const int *sh, const uint64_t *mk,
                 const Py_ssize_t *off, uint64_t seed, int lanes, double *row)
    {
        switch (G) {
        case 1: { double v[8]; rk_lanes(1, v, cp, n, tab, sh, mk, off, seed, lanes, row); break; }
        case 2: { double v[16]; rk_lanes(2, v, cp, n, tab, sh, mk, off, seed, lanes, row); break; }
        case 3: { double v[24]; rk_lanes(3, v, cp, n, tab, sh, mk, off, seed, lanes, row); break; }
        case 4: { double v[32]; rk_lanes(4, v, cp, n, tab, sh, mk, off, seed, lanes, row); break; }
        case 5: { double v[40]; rk_lanes(5, v, cp, n, tab, sh, mk, off, seed, lanes, row); break; }
        default: { double v[48]; rk_lanes(6, v, cp, n, tab, sh, mk, off, seed, lanes, row); }  /* 6 */
        }
    }

    static int rk_lanes_on = 0;  /* rk_lanes in use (AVX-512 F/DQ and BMI1/2, checked at run time) */
    static int rk_lanes_cpu(void) {
        __builtin_cpu_init();
        return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq")
               && __builtin_cpu_supports("bmi") && __builtin_cpu_supports("bmi2");
    }
    static int rk_lanes_enable(int on, int ahead) {
        if (ahead >= 1 && ahead < RK_RING) rk_ahead = ahead;
        rk_lanes_on = on && rk_lanes_cpu();
        return rk_lanes_on;
    }
    #else
    static int rk_lanes_enable(int on, int ahead) { (void)on; (void)ahead; return 0; }
    #endif

    #define RK_LANES_TAIL 6  /* fewer resamples left: the scalar loop (rk_lanes costs 8 resamples' draws) */

    /* a few column counts with the sums in registers, any other through memory */
    static void rk_column_sums(int G, const uint64_t *cp, Py_ssize_t n, const double *tab, const int *sh,
                               const uint64_t *mk, const Py_ssize_t *off, Py_ssize_t resamples, Py_ssize_t first,
                               double *out)
    {
        Py_ssize_t s = 0;
        double a1[1] = {0}, a2[2] = {0}, a3[3] = {0}, a4[4] = {0}, a5[5] = {0}, a6[6] = {0};
        double an[RK_MAX_COLUMNS] = {0};
    #ifdef RK_LANES
        int j, masks = 1;
        for (j = 0; j < G; j++) masks = masks && (mk[j] & (mk[j] + 1)) == 0;  /* bextr: masks 2^width - 1 */
        if (rk_lanes_on && masks && G <= 6)
            for (; resamples - s >= RK_LANES_TAIL; s += 8)
                rk_lane_sums(G, cp, n, tab, sh, mk, off, (uint64_t)(s + first),
                             resamples - s < 8 ? (int)(resamples - s) : 8, out + G * s);
    #endif
        for (; s < resamples; s++) {
            double *row = out + G * s;
            uint64_t seed = (uint64_t)(s + first);
            switch (G) {
            case 1: rk_columns(1, a1, cp, n, tab, sh, mk, off, seed, row); break;
            case 2: rk_columns(2, a2, cp, n, tab, sh, mk, off, seed, row); break;
            case 3: rk_columns(3, a3, cp, n, tab, sh, mk, off, seed, row); break;
            case 4: rk_columns(4, a4, cp, n, tab, sh, mk, off, seed, row); break;
            case 5: rk_columns(5, a5, cp, n, tab, sh, mk, off, seed, row); break;
            case 6: rk_columns(6, a6, cp, n, tab, sh, mk, off, seed, row); break;
            default: rk_columns(G, an, cp, n, tab, sh, mk, off, seed, row);
            }
        }
    }
    """
    void RK_PREFETCH(const void *p) nogil
    void rk_column_sums(int G, const uint64_t *cp, Py_ssize_t n, const double *tab, const int *sh,
                        const uint64_t *mk, const Py_ssize_t *off, Py_ssize_t resamples, Py_ssize_t first,
                        double *out) nogil
    int rk_lanes_enable(int on, int ahead)

#: the coded columns' resamples run eight at a time (rk_lanes: AVX-512 F/DQ and BMI1/2, checked at
#: run time; else the scalar loop). The same bits either way.
_AHEAD = 6  # the lanes' prefetch distance in steps of 8 draws (rk_ahead)
LANES = bool(rk_lanes_enable(1, _AHEAD))


def _lanes(bint on, int ahead=0):
    """Test and benchmark hook: the eight-resample kernel (when the CPU has it) or the scalar loop, and
    (1 to 31) the steps of 8 draws between a prefetch and its read; returns whether the lanes run. Not
    thread-safe."""
    return bool(rk_lanes_enable(on, ahead))


cdef enum:
    MAX_COLUMNS = 64  # columns coded in one 64-bit word

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




def pair_order_sums(const double[:, :] values, double[::1] out):
    """Add the rows of ``values`` (n x w, any strides) to ``out`` (w) one row after another, in
    row order: the sums of per-pair values as ROUGE-1.5.5 adds them, ``out`` carrying the sum of
    the rows before (chunk after chunk, the same bits as in one call)."""
    cdef Py_ssize_t n = values.shape[0], w = values.shape[1], i, c
    if out.shape[0] != w:
        raise ValueError(f"out holds {out.shape[0]} sums for {w} columns")
    with nogil:
        for i in range(n):
            for c in range(w):
                out[c] = out[c] + values[i, c]


def resample_sums_columns(const uint64_t[::1] codes, const double[::1] table, shifts, masks, offsets,
                          Py_ssize_t resamples, Py_ssize_t first=0):
    """:func:`resample_sums` of columns stored as codes (:func:`encode_columns`): the same sums, read
    from 8 bytes a row and a small table instead of 8 bytes a value.

    Column j of row i is ``table[offsets[j] + ((codes[i] >> shifts[j]) & masks[j])]``. Per-pair scores
    are ratios of small counts: a column has a few thousand distinct values, so its table stays in
    cache, and a million rows are 8 MB of codes. The drawn values are added in draw order.
    """
    cdef Py_ssize_t n = codes.shape[0], g = len(shifts), size = table.shape[0]
    if g > MAX_COLUMNS or len(masks) != g or len(offsets) != g:
        raise ValueError("codes: at most 64 columns, with a shift, mask and offset each")
    out_arr = array("d", bytes(8 * g * resamples))
    if n == 0 or g == 0 or resamples == 0:
        return out_arr
    cdef double[:, ::1] out = memoryview(out_arr).cast("B").cast("d", (resamples, g))
    cdef int sh[MAX_COLUMNS]
    cdef uint64_t mk[MAX_COLUMNS]
    cdef Py_ssize_t off[MAX_COLUMNS]
    cdef Py_ssize_t j
    for j in range(g):
        sh[j], mk[j], off[j] = shifts[j], masks[j], offsets[j]
        if sh[j] < 0 or sh[j] > 63 or off[j] < 0 or mk[j] >= <uint64_t>size or off[j] + <Py_ssize_t>mk[j] >= size:
            raise ValueError("codes: a shift, mask or offset points outside the table")
    with nogil:
        rk_column_sums(<int>g, &codes[0], n, &table[0], sh, mk, off, resamples, first, &out[0, 0])
    return out_arr


cdef inline uint64_t _mix(uint64_t h) nogil:
    """splitmix64's finalizer: a well spread hash of a 64-bit word."""
    h ^= h >> 30
    h *= <uint64_t>0xBF58476D1CE4E5B9
    h ^= h >> 27
    h *= <uint64_t>0x94D049BB133111EB
    h ^= h >> 31
    return h


cdef Py_ssize_t _number_values(const uint64_t *bits, Py_ssize_t n, Py_ssize_t stride, unsigned int *ids,
                               uint64_t *uniq, Py_ssize_t limit, unsigned int *slots, Py_ssize_t cap) nogil:
    """Number the distinct values (bit patterns) of a column in order of first appearance: ``ids[i]``
    is row i's number, ``uniq`` the values; the count, or -1 past ``limit`` distinct values."""
    cdef Py_ssize_t i, slot, distinct = 0
    cdef uint64_t x
    for i in range(n):
        x = bits[i * stride]
        slot = <Py_ssize_t>(_mix(x) & <uint64_t>(cap - 1))
        while slots[slot] != 0 and uniq[slots[slot] - 1] != x:
            slot = (slot + 1) & (cap - 1)
        if slots[slot] == 0:
            if distinct == limit:
                return -1
            uniq[distinct] = x
            distinct += 1
            slots[slot] = <unsigned int>distinct
        ids[i] = slots[slot] - 1
    return distinct


def _zeros(str typecode, Py_ssize_t n):
    """A zeroed ``array(typecode)`` of n items, its memory written once (``array(t, bytes(k))`` writes
    a zeroed bytes object first and then copies it: twice the fresh pages, which cost ~2 ms a MB of CPU
    on a VM that faults them in from its host)."""
    return array(typecode, [0]) * n if n else array(typecode)


def _group_starts(Py_ssize_t w, Py_ssize_t most):
    """The columns that start a group of at most ``most`` columns (a last single column joins the group
    before it: 4 = 4, 7 = 3 + 4, 5 = 3 + 2)."""
    starts = set(range(0, w, most))
    if w > most and w % most == 1:
        starts.discard(w - 1)
    return starts


def encode_columns(const double[:, :] values, Py_ssize_t limit=1 << 16, Py_ssize_t most=3):
    """The n x w values as codes for :func:`resample_sums_columns`: a list of ``(columns, codes, table,
    shifts, masks, offsets)``, the columns packed into one 64-bit code a row each, ``most`` columns a
    group (a last single column joins the group before it) or fewer when their bits fill the 64; None
    when a column has more than ``limit`` distinct values (the plain loop is then as good).

    Groups of 3: the lanes keep 8 x 3 sums in registers; 8 x 5 spill. The 9 R/P/F columns of 1M real
    pairs, 1 thread, load ~3.7, ns/draw: 5 + 4 columns 3.48-3.98, 3 + 3 + 3 2.86-3.58, 4 + 4 + 1
    3.53-4.20; synthetic 1M x 4: one group 1.41, 3 + 1 1.63; x 5: 5 1.81, 3 + 2 1.78; x 6: 5 + 1 2.45,
    3 + 3 1.96; x 7: 5 + 2 3.31, 3 + 4 3.06 (benchmarks/README.md, issue 28, session 21, boot21).

    A column's distinct values (the same bits, compared exactly) are numbered in order of first
    appearance and kept once in ``table``; a row's code holds its numbers. Each column is numbered
    into one reused buffer and packed into its group's codes at once (12 + 8 MB of 1,000,000 x 3
    values, not 12 x 2 + 8 x 2). ``values`` may be any strided view whose strides are whole doubles
    (the F columns of the engine's pairs x measures x 6 array, read where they are).
    """
    cdef Py_ssize_t n = values.shape[0], w = values.shape[1], col, i, distinct, cap = 1
    if n == 0 or w == 0 or n >= 1 << 32:
        return None
    if values.strides[0] % 8 or values.strides[1] % 8:
        raise ValueError("encode_columns: the values' strides must be whole doubles")
    cdef Py_ssize_t row_step = values.strides[0] // 8, col_step = values.strides[1] // 8
    while cap < 2 * limit:
        cap *= 2
    cdef const uint64_t *bits = <const uint64_t *>&values[0, 0]
    ids_arr = _zeros("I", n)
    cdef unsigned int[::1] ids = ids_arr
    uniq_arr = _zeros("Q", limit)
    cdef uint64_t[::1] uniq = uniq_arr
    slots_arr = _zeros("I", cap)
    cdef unsigned int[::1] slots = slots_arr
    cdef uint64_t[::1] codes
    cdef int shift = 64, width
    if most < 1:
        raise ValueError("encode_columns: most must be at least 1")
    starts = _group_starts(w, most)
    groups = []
    for col in range(w):
        if col:
            slots[:] = 0
        with nogil:
            distinct = _number_values(bits + col * col_step, n, row_step, &ids[0], &uniq[0], limit, &slots[0], cap)
        if distinct < 0:
            return None
        width = max(1, (distinct - 1).bit_length())
        if shift + width > 64 or col in starts:  # a new group (the first column always starts one)
            group = ([], _zeros("Q", n), [], [], [], [])  # (no groups[-1]: this module has wraparound=False)
            groups.append(group)
            codes = group[1]
            shift = 0
        columns, _, table, shifts, masks, offsets = group
        with nogil:
            for i in range(n):
                codes[i] |= <uint64_t>ids[i] << shift
        columns.append(col)
        shifts.append(shift)
        masks.append((1 << width) - 1)
        offsets.append(len(table))
        table += memoryview(uniq_arr).cast("B")[: 8 * distinct].cast("d").tolist()
        shift += width
    out = []
    for columns, codes_arr, table, shifts, masks, offsets in groups:
        table += [0.0] * (max(o + m + 1 for o, m in zip(offsets, masks)) - len(table))  # masks may reach past
        out.append((columns, codes_arr, array("d", table), shifts, masks, offsets))
    return out
