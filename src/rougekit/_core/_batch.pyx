# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Compiled batch scoring: many (candidate, references) pairs per call, ROUGE-1.5.5 exact.

Two phases per chunk of pairs (an engine belongs to one thread at a time; batch.py gives
every job its own engine and workspace):

* ``_Engine.prepare``: (GIL) the UTF-8 bytes of the candidates and of the references not
  in the cache are collected; (no GIL) they are tokenized in C -- the tokens are the maximal
  runs of ``[A-Za-z0-9]``, found through a bitmap built 8 bytes at a time, lower-cased while
  they are packed and hashed (what ``rouge155.clean`` + ``tokenize`` keep; the ``-`` tokens are
  dropped anyway), with the script's ``-l``/``-b`` limits applied to the raw sentences.  Token
  bytes are interned in a C hash table (slots prefetched); a type new to the engine goes,
  once, through the stopword list and the compiled stemmer (``stem155.pxi``: the script's
  ``-m``; ``stemnltk.pxi``: rouge-score's NLTK Porter) to its final id (-1: dropped), still
  without the GIL.  (GIL) new references enter the bounded LRU cache keyed by their string.
  So the engines of several jobs tokenize in parallel: only the gathering and the cache hold
  the GIL.
* ``_Engine.score`` (no GIL): every measure of a pair in one C call.  Per pair, the
  candidate's token types get dense local ids; references are mapped onto them (-1 for types
  the candidate lacks, which can never match).  ROUGE-N/S/SU insert the candidate's units
  once and probe every reference (clipped counts are symmetric): unigrams in a count array,
  bigrams and skip units in a directly indexed U x U table while the candidate has at most
  256 types, else (and for n >= 3) in an open-addressing hash table; ROUGE-L uses bit-parallel
  LCS rows with the script's trace-back (branch-free, popcnt when the CPU has it), built
  once per candidate sentence for all reference sentences; ROUGE-W runs the script's WLCS
  DP.  R/P are rounded like ``%7.5f`` (exactly: round-half-even on the binary value, as
  printf and Python do) and F is computed from the rounded values.
"""

cimport cython
from libc.stdlib cimport malloc, calloc, realloc, free, strtod
from libc.string cimport memcpy, memset, memchr, memcmp
from libc.math cimport pow, floor, fma, fmod
from libc.stdio cimport snprintf
from libc.stdint cimport uint64_t, uint32_t, int32_t, int64_t, uint8_t
from cpython.object cimport PyObject
from cpython.dict cimport PyDict_GetItem

include "stem155.pxi"
include "stemnltk.pxi"
include "common.pxi"

cdef extern from "Python.h":
    const char* PyUnicode_AsUTF8AndSize(object u, Py_ssize_t* size) except NULL

cdef extern from *:
    """
    #if (defined(__GNUC__) || defined(__clang__)) && defined(__POPCNT__)
    #define RKB_POPCOUNT64(x) ((int)__builtin_popcountll((unsigned long long)(x)))
    #else
    /* byte table: GCC turns the usual SWAR code into a libgcc call when popcnt is not enabled */
    static const unsigned char rkb_pc8[256] = {
    #define RKB_B2(n) n, n + 1, n + 1, n + 2
    #define RKB_B4(n) RKB_B2(n), RKB_B2(n + 1), RKB_B2(n + 1), RKB_B2(n + 2)
    #define RKB_B6(n) RKB_B4(n), RKB_B4(n + 1), RKB_B4(n + 1), RKB_B4(n + 2)
        RKB_B6(0), RKB_B6(1), RKB_B6(1), RKB_B6(2)
    };
    static inline int RKB_POPCOUNT64(unsigned long long x) {
        int r = 0;
        while (x) { r += rkb_pc8[x & 0xff]; x >>= 8; }
        return r;
    }
    #endif

    /* Trace-back of one (model sentence, peer sentence) LCS whose peer sentence has at most 64
       tokens (one word per bit-parallel row; rows[a] is row a, rows[0] all ones), branch-free.
       The script's decisions: a match is diagonal; else "up" if c(a-1, b) >= c(a, b-1), else
       "left".  cu = c(a, b) and cup = c(a-1, b) are kept up to date; c(a, b) = 0 ends the walk
       (no match is left in x[:a] x y[:b]).  Two copies: with the popcnt instruction (chosen at
       import when the CPU has it) and without. */
    #if defined(__GNUC__) || defined(__clang__)
    #define RKB_CTZ64(x) __builtin_ctzll((unsigned long long)(x))
    #else
    static inline int RKB_CTZ64(unsigned long long x) { int r = 0; while (!(x & 1)) { x >>= 1; r++; } return r; }
    #endif
    #if defined(__GNUC__) || defined(__clang__)
    #define RKB_PREFETCH(p) __builtin_prefetch((p))
    #else
    #define RKB_PREFETCH(p) ((void)(p))
    #endif
    #define RKB_TRACE1_BODY(PC)                                                              \
    {                                                                                        \
        Py_ssize_t a = m, b = n;                                                             \
        uint64_t msk = (b >= 64) ? ~0ULL : ((1ULL << b) - 1);                                \
        int cu = PC(~rows[a] & msk);                                                         \
        int cup = PC(~rows[a - 1] & msk);                                                    \
        while (cu > 0) {                                                                     \
            int match = x[a - 1] == y[b - 1];                                                \
            uint64_t bit = 1ULL << (b - 1);                                                  \
            int zb = (~rows[a] & bit) != 0;                                                  \
            int zb1 = (~rows[a - 1] & bit) != 0;                                             \
            int up = (!match) & (cup >= cu - zb);                                            \
            int left = (!match) & (!up);                                                     \
            int da = match | up, db = match | left;                                          \
            int ncu = match ? cu - 1 : (up ? cup : cu - zb);                                 \
            Py_ssize_t ra;                                                                   \
            uint64_t nm;                                                                     \
            int pfx;                                                                         \
            mk[a - 1] |= (uint8_t)match;                                                     \
            a -= da;                                                                         \
            b -= db;                                                                         \
            ra = a > 0 ? a - 1 : 0;                                                          \
            nm = (b >= 64) ? ~0ULL : ((1ULL << b) - 1);                                      \
            pfx = PC(~rows[ra] & nm);                                                        \
            cup = da ? pfx : cup - zb1;                                                      \
            cu = ncu;                                                                        \
        }                                                                                    \
    }

    typedef void (*rkb_trace1_fn)(const int32_t*, Py_ssize_t, const int32_t*, Py_ssize_t,
                                  const uint64_t*, uint8_t*);
    static void rkb_trace1_generic(const int32_t* x, Py_ssize_t m, const int32_t* y, Py_ssize_t n,
                                   const uint64_t* rows, uint8_t* mk)
    RKB_TRACE1_BODY(RKB_POPCOUNT64)

    #if (defined(__GNUC__) || defined(__clang__)) && (defined(__x86_64__) || defined(__i386__)) && !defined(__POPCNT__)
    __attribute__((target("popcnt")))
    static void rkb_trace1_hw(const int32_t* x, Py_ssize_t m, const int32_t* y, Py_ssize_t n,
                              const uint64_t* rows, uint8_t* mk)
    RKB_TRACE1_BODY(__builtin_popcountll)
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
    void rkb_trace1(const int32_t* x, Py_ssize_t m, const int32_t* y, Py_ssize_t n,
                    const uint64_t* rows, uint8_t* mk) nogil
    int rkb_init_dispatch()

from rougekit.errors import InputError

cdef enum:
    K_N = 0
    K_L = 1
    K_W = 2
    K_S = 3
    K_SU = 4
    K_LSEQ = 5      # LCS of the two whole token sequences (rouge-score's rougeL)

cdef enum:
    STEM_NONE = 0
    STEM_ROUGE155 = 1   # the script's -m: WordNet exceptions, then its Porter (stem155.pxi)
    STEM_NLTK = 2       # NLTK's default Porter, as rouge-score uses it (stemnltk.pxi)

cdef uint8_t _WS[256]


cdef void _init_tables():
    cdef int c
    for c in range(256):
        # Python's bytes regex \s: [ \t\n\r\f\v]
        _WS[c] = 1 if (c == 32 or c == 9 or c == 10 or c == 13 or c == 12 or c == 11) else 0


_init_tables()
_HW_POPCOUNT = bool(rkb_init_dispatch())


# =========================================================================== small helpers

cdef double _round5_slow(double x) noexcept nogil:
    cdef char buf[512]
    snprintf(buf, sizeof(buf), "%7.5f", x)
    return strtod(buf, NULL)


cdef inline double _round5(double x) noexcept nogil:
    """``float("%7.5f" % x)``: round x*1e5 to an integer on the exact binary value (ties to even)."""
    cdef double y, err, t, d, r
    if not (x >= 0.0 and x < 1e9):
        return _round5_slow(x)
    y = x * 1e5
    err = fma(x, 1e5, -y)          # x * 1e5 == y + err exactly
    t = floor(y)
    d = y - (t + 0.5)              # exact where it matters (Sterbenz)
    if d > -err:
        r = t + 1.0
    elif d < -err:
        r = t
    else:                          # an exact tie: half to even, as printf and Python do
        r = t if fmod(t, 2.0) == 0.0 else t + 1.0
    return r / 1e5


cdef inline double _f_measure(double r, double p, double alpha) noexcept nogil:
    cdef double denom = (1.0 - alpha) * p + alpha * r
    if denom > 0:
        return (p * r) / denom
    return 0.0


def _token_spans_py(bytes text):
    """Test hook: (start, end) of the runs of [A-Za-z0-9] in ``text``, found with the bitmap."""
    cdef Py_ssize_t n = len(text), k, j
    cdef uint64_t* bits = <uint64_t*>malloc((((n + 63) >> 6) + 1) * 8)
    cdef list spans = []
    if bits == NULL:
        raise MemoryError()
    try:
        _alnum_bitmap(<const uint8_t*><char*>text, n, bits)
        k = _next_bit(bits, 0, n, 0)
        while k < n:
            j = _next_bit(bits, k, n, ~(<uint64_t>0))
            spans.append((k, j))
            k = _next_bit(bits, j, n, 0)
    finally:
        free(bits)
    return spans


def _round5_py(double x):
    """Test hook: the C rounding of ``_round5``."""
    return _round5(x)


# =========================================================================== growable buffers

cdef struct Buf:
    void* p
    Py_ssize_t cap      # in elements


cdef inline int _need(Buf* b, Py_ssize_t n, size_t sz) noexcept nogil:
    cdef Py_ssize_t cap
    cdef void* q
    if n <= b.cap:
        return 0
    cap = b.cap * 2
    if cap < n:
        cap = n
    if cap < 16:
        cap = 16
    q = realloc(b.p, cap * sz)
    if q == NULL:
        return -1
    b.p = q
    b.cap = cap
    return 0


cdef inline int _need_zeroed(Buf* b, Py_ssize_t n, size_t sz) noexcept nogil:
    """Like ``_need`` but a new block is all zeros (for stamp-based tables / zero-invariant bitsets)."""
    cdef Py_ssize_t cap
    cdef void* q
    if n <= b.cap:
        return 0
    cap = b.cap * 2
    if cap < n:
        cap = n
    if cap < 16:
        cap = 16
    q = calloc(cap, sz)
    if q == NULL:
        return -1
    free(b.p)
    b.p = q
    b.cap = cap
    return 0


# =========================================================================== byte strings -> ints

cdef struct SEntry:
    uint64_t h         # 0: an empty slot (stored hashes are never 0)
    uint32_t off       # arena offset of the key's bytes
    uint32_t n
    int32_t val


cdef struct StrMap:
    SEntry* t
    Py_ssize_t cap     # a power of two (0 before the first put)
    Py_ssize_t count
    uint8_t* arena
    Py_ssize_t an
    Py_ssize_t acap


cdef inline uint64_t _str_hash(const uint8_t* p, Py_ssize_t n) noexcept nogil:
    cdef uint64_t h = <uint64_t>14695981039346656037ULL
    cdef Py_ssize_t k
    for k in range(n):
        h = (h ^ p[k]) * <uint64_t>1099511628211
    h = mix64(h ^ <uint64_t>n)
    return h if h != 0 else 1


cdef inline int32_t _smap_get(const StrMap* m, const uint8_t* p, Py_ssize_t n, uint64_t h,
                              int32_t missing) noexcept nogil:
    """The value stored for p[:n] (hash h), or ``missing``."""
    cdef Py_ssize_t s, msk
    cdef const SEntry* e
    if m.cap == 0:
        return missing
    msk = m.cap - 1
    s = <Py_ssize_t>(h & msk)
    while m.t[s].h:
        e = &m.t[s]
        if e.h == h and e.n == n and memcmp(m.arena + e.off, p, n) == 0:
            return e.val
        s = (s + 1) & msk
    return missing


cdef int _smap_put(StrMap* m, const uint8_t* p, Py_ssize_t n, uint64_t h, int32_t val) noexcept nogil:
    """Add p[:n] -> val (p[:n] must not be in the map); 0, or -1 when out of memory."""
    cdef Py_ssize_t s, i, ncap, msk
    cdef SEntry* nt
    cdef uint8_t* q
    if 2 * (m.count + 1) > m.cap:
        ncap = m.cap * 2 if m.cap else 64
        nt = <SEntry*>calloc(ncap, sizeof(SEntry))
        if nt == NULL:
            return -1
        msk = ncap - 1
        for i in range(m.cap):
            if m.t[i].h:
                s = <Py_ssize_t>(m.t[i].h & msk)
                while nt[s].h:
                    s = (s + 1) & msk
                nt[s] = m.t[i]
        free(m.t)
        m.t = nt
        m.cap = ncap
    if m.an + n > m.acap:
        ncap = m.acap * 2 if m.acap else 4096
        while ncap < m.an + n:
            ncap *= 2
        if ncap >= <Py_ssize_t>0xFFFFFFF0:
            return -1
        q = <uint8_t*>realloc(m.arena, ncap)
        if q == NULL:
            return -1
        m.arena = q
        m.acap = ncap
    memcpy(m.arena + m.an, p, n)
    msk = m.cap - 1
    s = <Py_ssize_t>(h & msk)
    while m.t[s].h:
        s = (s + 1) & msk
    m.t[s].h = h
    m.t[s].off = <uint32_t>m.an
    m.t[s].n = <uint32_t>n
    m.t[s].val = val
    m.an += n
    m.count += 1
    return 0


cdef void _smap_free(StrMap* m) noexcept nogil:
    free(m.t)
    free(m.arena)
    memset(m, 0, sizeof(StrMap))


# =========================================================================== processed summaries

cdef struct DocC:
    int32_t* tok       # joined tokens (readText)
    int32_t ntok
    int32_t* stok      # sentence tokens (readText_LCS), concatenated; == tok unless -b is set
    int32_t nstok
    int32_t* soff      # nsent + 1 offsets into stok
    int32_t nsent
    int32_t maxsent


cdef class _Doc:
    cdef DocC d
    cdef int32_t* mem

    def __dealloc__(self):
        free(self.mem)

    def tokens(self):
        return [self.d.tok[i] for i in range(self.d.ntok)]

    def sentences(self):
        return [[self.d.stok[k] for k in range(self.d.soff[i], self.d.soff[i + 1])]
                for i in range(self.d.nsent)]


cdef struct IntBuf:
    int32_t* data
    Py_ssize_t n
    Py_ssize_t cap


cdef inline int _push(IntBuf* b, int32_t v) except -1 nogil:
    cdef Py_ssize_t cap
    cdef int32_t* q
    if b.n == b.cap:
        cap = b.cap * 2 if b.cap > 0 else 256
        q = <int32_t*>realloc(b.data, cap * sizeof(int32_t))
        if q == NULL:
            with gil:
                raise MemoryError()
        b.data = q
        b.cap = cap
    b.data[b.n] = v
    b.n += 1
    return 0


include "ids.pxi"


cdef struct TokSpan:
    Py_ssize_t start
    Py_ssize_t n
    uint64_t w0
    uint64_t h


cdef struct VEntry:
    uint64_t w0        # the token's first 8 bytes, zero padded; 0: empty slot (tokens have no 0 byte)
    uint32_t off       # tokens longer than 8 bytes: arena offset of (uint32 length, bytes); else _SHORT
    int32_t id         # final id; -1: a stopword (dropped)


cdef extern from *:
    """
    #define RKB_SHORT 0xFFFFFFFFu
    """
    const uint32_t _SHORT "RKB_SHORT"


# Token bytes are [A-Za-z0-9], so ``byte | 0x20`` is the lower-cased byte: the tokenizer reads the
# text as it is and folds the case while it packs and hashes a token (no lower-cased copy).

cdef inline uint64_t _word0(const uint8_t* p, Py_ssize_t n, Py_ssize_t avail) noexcept nogil:
    """The first min(n, 8) bytes of token p[:n], lower-cased, little-endian, zero padded.

    ``avail``: bytes readable from p (at least n); with 8 or more, one unaligned load does it.
    """
    cdef uint64_t w = 0
    cdef Py_ssize_t k, m = n if n < 8 else 8
    if avail >= 8:
        memcpy(&w, p, 8)
        w |= <uint64_t>0x2020202020202020ULL
        if m < 8:
            w &= ((<uint64_t>1) << (8 * m)) - 1
        return w
    for k in range(m):
        w |= (<uint64_t>(p[k] | 0x20)) << (8 * k)
    return w


cdef inline uint64_t _vhash(uint64_t w0, const uint8_t* p, Py_ssize_t n) noexcept nogil:
    """Hash of a token: its first word and its lower-cased bytes p[8:n]."""
    cdef uint64_t h = w0
    cdef Py_ssize_t k
    if n > 8:
        for k in range(8, n):
            h = (h ^ (p[k] | 0x20)) * <uint64_t>1099511628211
        h ^= <uint64_t>n << 56
    return mix64(h)


cdef inline uint64_t _alnum_bits8(uint64_t x) noexcept nogil:
    """Bit k (k < 8) set where byte k of x (little-endian) is ASCII [A-Za-z0-9]; branch-free SWAR.

    Every byte is brought below 0x80 before the range tests, so no addition carries into the
    next byte; bytes >= 0x80 (UTF-8) are masked out at the end.
    """
    cdef uint64_t H = <uint64_t>0x8080808080808080ULL
    cdef uint64_t t = x & ~H
    cdef uint64_t low = t | <uint64_t>0x2020202020202020ULL
    cdef uint64_t digit = ((t + <uint64_t>0x5050505050505050ULL) & ~(t + <uint64_t>0x4646464646464646ULL)) & H
    cdef uint64_t letter = ((low + <uint64_t>0x1f1f1f1f1f1f1f1fULL) & ~(low + <uint64_t>0x0505050505050505ULL)) & H
    cdef uint64_t m = (digit | letter) & ~x & H
    return ((m >> 7) * <uint64_t>0x0102040810204080ULL) >> 56   # gather the 8 high bits


cdef void _alnum_bitmap(const uint8_t* p, Py_ssize_t n, uint64_t* bits) noexcept nogil:
    """bits[k >> 6] bit (k & 63) set where p[k] (k < n) is [A-Za-z0-9]; no bit at or past n."""
    cdef Py_ssize_t k, w, r
    cdef uint64_t x, word
    for w in range((n + 63) >> 6):
        word = 0
        for r in range(8):
            k = (w << 6) + (r << 3)
            if k + 8 <= n:
                memcpy(&x, p + k, 8)
            elif k < n:
                x = 0
                memcpy(&x, p + k, n - k)
            else:
                break
            word |= _alnum_bits8(x) << (r << 3)
        bits[w] = word


cdef inline Py_ssize_t _next_bit(const uint64_t* bits, Py_ssize_t k, Py_ssize_t n, uint64_t flip) noexcept nogil:
    """First position >= k below n whose bit (xor flip: 0 finds set bits, ~0 clear ones) is 1, else n."""
    cdef Py_ssize_t w = k >> 6, nw = (n + 63) >> 6
    cdef uint64_t x
    if k >= n:
        return n
    x = (bits[w] ^ flip) & (~(<uint64_t>0) << (k & 63))
    while x == 0:
        w += 1
        if w >= nw:
            return n
        x = bits[w] ^ flip
    k = (w << 6) + RKB_CTZ64(x)
    return k if k < n else n


cdef inline bint _eq_folded(const uint8_t* lower, const uint8_t* p, Py_ssize_t n) noexcept nogil:
    """lower[:n] (lower-cased bytes) equals the token p[:n] with its case folded."""
    cdef Py_ssize_t k
    for k in range(n):
        if lower[k] != (p[k] | 0x20):
            return False
    return True


cdef struct Pend:
    const uint8_t** src    # UTF-8 bytes of the summaries to tokenize in the current chunk
    Py_ssize_t* len
    DocC** dst
    int32_t*** slot        # &_Doc.mem
    Py_ssize_t n
    Py_ssize_t cap


cdef int _pend_grow(Pend* pp) except -1:
    cdef Py_ssize_t cap = pp.cap * 2 if pp.cap > 0 else 64
    cdef void* q
    q = realloc(pp.src, cap * sizeof(uint8_t*))
    if q == NULL:
        raise MemoryError()
    pp.src = <const uint8_t**>q
    q = realloc(pp.len, cap * sizeof(Py_ssize_t))
    if q == NULL:
        raise MemoryError()
    pp.len = <Py_ssize_t*>q
    q = realloc(pp.dst, cap * sizeof(DocC*))
    if q == NULL:
        raise MemoryError()
    pp.dst = <DocC**>q
    q = realloc(pp.slot, cap * sizeof(int32_t**))
    if q == NULL:
        raise MemoryError()
    pp.slot = <int32_t***>q
    pp.cap = cap
    return 0


cdef void _pend_free(Pend* pp) noexcept:
    free(pp.src)
    free(pp.len)
    free(pp.dst)
    free(pp.slot)


cdef struct MeasureC:
    int kind
    int n              # n of ROUGE-N, skip distance of ROUGE-S/SU (< 0: unlimited)
    double w
    double inv_w


cdef class _Chunk:
    cdef list keep
    cdef const DocC** peers
    cdef const DocC** refs
    cdef Py_ssize_t* roff
    cdef Py_ssize_t n
    cdef Py_ssize_t start

    def __dealloc__(self):
        free(self.peers)
        free(self.refs)
        free(self.roff)


@cython.final
cdef class _Engine:
    cdef VEntry* vt
    cdef Py_ssize_t vcap
    cdef Py_ssize_t vcount
    cdef uint8_t* arena
    cdef Py_ssize_t arena_n
    cdef Py_ssize_t arena_cap
    cdef StrMap finals         # final token (stemmed) -> final id
    cdef StrMap stops          # the stopword list (values unused)
    cdef bint use_stops
    cdef int stem_kind         # STEM_NONE / STEM_ROUGE155 / STEM_NLTK
    cdef s155_Exc exc          # the WordNet exception table (STEM_ROUGE155)
    cdef bint drop_empty       # rouge-score drops a token whose stem is empty
    cdef bint unicode_lower    # str.lower() a non-ASCII text before the byte-level tokenizer
    cdef uint8_t* sbuf         # stemming buffer
    cdef Py_ssize_t sbuf_cap
    cdef int word_limit
    cdef int byte_limit
    cdef object cache
    cdef Py_ssize_t cache_size
    cdef MeasureC* ms
    cdef int nm
    cdef bint mode_b
    cdef bint mode_max         # multi_ref="max": the reference with the best rounded F
    cdef bint has_w
    cdef double alpha
    cdef IntBuf jt
    cdef IntBuf st
    cdef IntBuf so
    cdef const uint8_t* text_end   # end of the text being tokenized (for the 8-byte loads)
    cdef Buf fold              # a new type's lower-cased bytes
    cdef Buf spans
    cdef Buf bits              # uint64: the [A-Za-z0-9] bitmap of the segment being tokenized
    cdef object move_to_end
    cdef object to_text        # a summary that is not a str -> str (default: its sentences joined by newlines)
    cdef IdMap idm             # token ids -> dense ids (summaries given as ids, ids.pxi)

    def __cinit__(self, list measures, stopwords, int stem_kind, exceptions, int word_limit, int byte_limit,
                  bint mode_b, double alpha, Py_ssize_t cache_size, bint unicode_lower=False,
                  bint drop_empty=False, to_text=None, bint mode_max=False):
        """``measures``: (kind code, n/skip, weight) tuples; kinds N=0, L=1, W=2, S=3, SU=4, LSEQ=5.

        ``stopwords``: an iterable of ASCII words, or None. ``stem_kind``: 0 none, 1 ROUGE-1.5.5's
        ``-m`` (``exceptions``: the WordNet exception dict), 2 NLTK's Porter (rouge-score).
        """
        from collections import OrderedDict
        cdef int i
        cdef bytes b
        self.nm = len(measures)
        self.ms = <MeasureC*>calloc(self.nm + 1, sizeof(MeasureC))
        self.vcap = 1 << 14
        self.vt = <VEntry*>calloc(self.vcap, sizeof(VEntry))
        self.arena_cap = 1 << 16
        self.arena = <uint8_t*>malloc(self.arena_cap)
        self.sbuf_cap = 256
        self.sbuf = <uint8_t*>malloc(self.sbuf_cap)
        if self.ms == NULL or self.vt == NULL or self.arena == NULL or self.sbuf == NULL:
            raise MemoryError()
        self.has_w = False
        for i in range(self.nm):
            kind, n, w = measures[i]
            self.ms[i].kind = kind
            self.ms[i].n = n
            self.ms[i].w = w
            self.ms[i].inv_w = (1.0 / w) if w != 0 else 0.0
            if kind == K_W:
                self.has_w = True
        if stopwords is not None:
            self.use_stops = True
            for word in stopwords:
                b = word.encode("ascii")
                if _smap_get(&self.stops, b, len(b), _str_hash(b, len(b)), -2) == -2:
                    if _smap_put(&self.stops, b, len(b), _str_hash(b, len(b)), 0) < 0:
                        raise MemoryError()
        if stem_kind not in (STEM_NONE, STEM_ROUGE155, STEM_NLTK):
            raise ValueError(f"unknown stemmer code {stem_kind}")
        self.stem_kind = stem_kind
        if stem_kind == STEM_ROUGE155:
            s155_exc_init(&self.exc, exceptions)
        self.drop_empty = drop_empty
        self.unicode_lower = unicode_lower
        self.to_text = to_text if to_text is not None else "\n".join
        self.word_limit = word_limit
        self.byte_limit = byte_limit
        self.mode_b = mode_b and not mode_max
        self.mode_max = mode_max
        self.alpha = alpha
        self.cache = OrderedDict()
        self.move_to_end = self.cache.move_to_end
        self.cache_size = cache_size

    def __dealloc__(self):
        free(self.vt)
        free(self.arena)
        free(self.ms)
        free(self.sbuf)
        free(self.jt.data)
        free(self.st.data)
        free(self.so.data)
        free(self.fold.p)
        free(self.spans.p)
        free(self.bits.p)
        _smap_free(&self.finals)
        _smap_free(&self.stops)
        s155_exc_free(&self.exc)
        _idmap_free(&self.idm)

    @property
    def vocabulary_size(self):
        return self.vcount

    @property
    def cached_references(self):
        return len(self.cache)

    def clear_cache(self):
        self.cache.clear()

    # ------------------------------------------------------------------ interning

    cdef int _rehash(self, Py_ssize_t ncap) except -1 nogil:
        cdef Py_ssize_t i, s, msk = ncap - 1, n
        cdef VEntry* nt = <VEntry*>calloc(ncap, sizeof(VEntry))
        cdef VEntry* e
        cdef uint64_t h
        if nt == NULL:
            with gil:
                raise MemoryError()
        for i in range(self.vcap):
            e = &self.vt[i]
            if e.w0:
                if e.off == _SHORT:
                    h = _vhash(e.w0, NULL, 0)
                else:
                    n = (<uint32_t*>(self.arena + e.off))[0]
                    h = _vhash(e.w0, self.arena + e.off + 4, n)
                s = <Py_ssize_t>(h & msk)
                while nt[s].w0:
                    s = (s + 1) & msk
                nt[s] = e[0]
        free(self.vt)
        self.vt = nt
        self.vcap = ncap
        return 0

    cdef int32_t _final_id(self, const uint8_t* p, Py_ssize_t n) except -2 nogil:
        """Final id of a new type p[:n]: -1 for a stopword, else the id of its stem (types longer
        than 3 characters are stemmed, as both ROUGE-1.5.5 and rouge-score do)."""
        cdef Py_ssize_t m = n, k
        cdef const uint8_t* key
        cdef uint64_t h
        cdef int32_t fid
        cdef uint8_t* q
        if _need(&self.fold, n + 1, 1) < 0:
            with gil:
                raise MemoryError()
        q = <uint8_t*>self.fold.p
        for k in range(n):
            q[k] = p[k] | 0x20
        p = q
        key = p
        if self.use_stops and _smap_get(&self.stops, p, n, _str_hash(p, n), -2) != -2:
            return -1
        if self.stem_kind != STEM_NONE and n > 3:
            while True:
                if n + 16 > self.sbuf_cap or m > self.sbuf_cap:
                    self.sbuf_cap = 2 * (n + 16 if n + 16 > m else m)
                    q = <uint8_t*>realloc(self.sbuf, self.sbuf_cap)
                    if q == NULL:
                        with gil:
                            raise MemoryError()
                    self.sbuf = q
                if self.stem_kind == STEM_ROUGE155:
                    m = s155_morph(&self.exc, p, n, self.sbuf, self.sbuf_cap)
                else:
                    memcpy(self.sbuf, p, n)
                    m = snl_stem(self.sbuf, n, self.sbuf_cap)
                if m >= 0:
                    break
                m = -m
            key = self.sbuf
            if m == 0 and self.drop_empty:
                return -1
        h = _str_hash(key, m)
        fid = _smap_get(&self.finals, key, m, h, -2)
        if fid == -2:
            fid = <int32_t>self.finals.count
            if _smap_put(&self.finals, key, m, h, fid) < 0:
                with gil:
                    raise MemoryError()
        return fid

    cdef uint32_t _insert(self, const uint8_t* p, Py_ssize_t n, uint64_t w0, int32_t fid) except 4294967294 nogil:
        """Add the type p[:n] (not in the table) with id ``fid``; returns its arena offset or _SHORT."""
        cdef Py_ssize_t s, msk, cap, need
        cdef uint8_t* q
        cdef VEntry* e
        cdef uint32_t off = _SHORT
        cdef uint32_t ln
        if n > 8:
            need = self.arena_n + 8 + n
            if need >= <Py_ssize_t>0xFFFFFFF0:
                with gil:
                    raise MemoryError("rougekit batch vocabulary arena is full (4 GB of long tokens)")
            if need > self.arena_cap:
                cap = self.arena_cap * 2
                while cap < need:
                    cap *= 2
                q = <uint8_t*>realloc(self.arena, cap)
                if q == NULL:
                    with gil:
                        raise MemoryError()
                self.arena = q
                self.arena_cap = cap
            self.arena_n = (self.arena_n + 3) & ~(<Py_ssize_t>3)
            off = <uint32_t>self.arena_n
            ln = <uint32_t>n
            memcpy(self.arena + off, &ln, 4)
            q = self.arena + off + 4
            for s in range(n):
                q[s] = p[s] | 0x20
            self.arena_n += 4 + n
        if 2 * (self.vcount + 1) > self.vcap:
            self._rehash(self.vcap * 2)
        msk = self.vcap - 1
        s = <Py_ssize_t>(_vhash(w0, p, n) & msk)
        while self.vt[s].w0:
            s = (s + 1) & msk
        e = &self.vt[s]
        e.w0 = w0
        e.off = off
        e.id = fid
        self.vcount += 1
        return off

    cdef inline int32_t _intern(self, const uint8_t* p, Py_ssize_t n, uint64_t w0, uint64_t h) except -2 nogil:
        """Final id of the (lowercased) token p[:n] (first word w0, hash h); -1 for a dropped token."""
        cdef Py_ssize_t s, msk = self.vcap - 1
        cdef VEntry* e
        cdef int32_t fid
        s = <Py_ssize_t>(h & msk)
        while True:
            e = &self.vt[s]
            if e.w0 == w0:
                if n <= 8:
                    if e.off == _SHORT:
                        return e.id
                elif (e.off != _SHORT and (<uint32_t*>(self.arena + e.off))[0] == n
                      and _eq_folded(self.arena + e.off + 4, p, n)):
                    return e.id
            elif e.w0 == 0:
                break
            s = (s + 1) & msk
        fid = self._final_id(p, n)   # a new type: stopwords and the stemmer, once per type
        self._insert(p, n, w0, fid)
        return fid


    cdef int _tokenize(self, const uint8_t* p, Py_ssize_t i, Py_ssize_t e, IntBuf* out) except -1 nogil:
        """Append the ids of the tokens of p[i:e] (runs of [A-Za-z0-9], lower-cased).

        Three passes: a bitmap of the token bytes (8 bytes per step, no branch per byte); the
        tokens from its runs, hashed, their table slots prefetched; then the lookups (their cache
        misses overlap instead of queueing one after another).
        """
        cdef Py_ssize_t j, cap, k, ntok = 0, need = (e - i) // 2 + 1, n = e - i
        cdef const uint8_t* seg = p + i
        cdef const uint64_t* bits
        cdef int32_t tid
        cdef int32_t* q
        cdef int32_t* dst
        cdef Py_ssize_t cnt
        cdef TokSpan* sp
        cdef uint64_t w0
        cdef Py_ssize_t msk = self.vcap - 1
        if out.n + need > out.cap:
            cap = out.cap * 2 if out.cap > 0 else 256
            while cap < out.n + need:
                cap *= 2
            q = <int32_t*>realloc(out.data, cap * sizeof(int32_t))
            if q == NULL:
                with gil:
                    raise MemoryError()
            out.data = q
            out.cap = cap
        if _need(&self.spans, need, sizeof(TokSpan)) < 0:
            with gil:
                raise MemoryError()
        if _need(&self.bits, ((n + 63) >> 6) + 1, 8) < 0:
            with gil:
                raise MemoryError()
        sp = <TokSpan*>self.spans.p
        bits = <const uint64_t*>self.bits.p
        _alnum_bitmap(seg, n, <uint64_t*>self.bits.p)
        k = _next_bit(bits, 0, n, 0)
        while k < n:   # a token: the run of set bits from k
            j = _next_bit(bits, k, n, ~(<uint64_t>0))
            i = k
            k = _next_bit(bits, j, n, 0)
            w0 = _word0(seg + i, j - i, self.text_end - (seg + i))
            sp[ntok].start = i
            sp[ntok].n = j - i
            sp[ntok].w0 = w0
            sp[ntok].h = _vhash(w0, seg + i, j - i)
            RKB_PREFETCH(&self.vt[sp[ntok].h & msk])
            ntok += 1
        dst = out.data
        cnt = out.n
        for k in range(ntok):
            tid = self._intern(seg + sp[k].start, sp[k].n, sp[k].w0, sp[k].h)
            if tid != -1:   # -1: a stopword (or an empty stem)
                dst[cnt] = tid
                cnt += 1
        out.n = cnt
        return 0

    # ------------------------------------------------------------------ summaries

    cdef _Doc _make_doc(self, object summary):
        """(GIL) One summary (a str, or a sequence of sentences) tokenized into a new _Doc."""
        cdef Py_ssize_t n = 0
        cdef const uint8_t* p
        cdef bytes b
        cdef _Doc doc = _Doc.__new__(_Doc)
        if not isinstance(summary, str):
            summary = self.to_text(summary)
        if self.unicode_lower and not summary.isascii():
            summary = summary.lower()
        try:
            p = <const uint8_t*>PyUnicode_AsUTF8AndSize(summary, &n)
        except UnicodeEncodeError:
            b = summary.encode("utf-8", "surrogateescape")
            p = <const uint8_t*><char*>b
            n = len(b)
        with nogil:
            self._build_into(p, n, &doc.d, &doc.mem)
        return doc

    cdef int _build(self, const uint8_t* src, Py_ssize_t n) except -1 nogil:
        """Split into sentences, apply the limits and tokenize into jt / st / so.

        Returns 1 when the joined tokens (jt) differ from the sentence tokens (with -b), else 0.
        """
        cdef Py_ssize_t pos, e, s, used, k, ln
        cdef const uint8_t* p
        cdef bint separate = False, stop
        p = src
        self.text_end = src + n
        self.jt.n = 0
        self.st.n = 0
        self.so.n = 0
        _push(&self.so, 0)
        pos = 0
        used = 0
        stop = False
        # readText_LCS: the sentence units
        while not stop and _next_line(p, n, &pos, &s, &e):
            if self.word_limit > 0:
                k = _field_count(p, s, e)
                if used + k < self.word_limit:
                    used += k
                else:
                    e = _field_prefix_end(p, s, e, self.word_limit - used)
                    stop = True
            elif self.byte_limit > 0:
                if e - s >= self.byte_limit:
                    e = s + self.byte_limit
                    stop = True
            self._tokenize(p, s, e, &self.st)
            _push(&self.so, <int32_t>self.st.n)
        if self.byte_limit > 0:
            # readText: the joined text, cut to the byte limit (its own walk)
            separate = True
            pos = 0
            used = 0
            stop = False
            while not stop and _next_line(p, n, &pos, &s, &e):
                ln = e - s
                if used + ln < self.byte_limit:
                    used += ln
                else:
                    e = s + (self.byte_limit - used)
                    stop = True
                self._tokenize(p, s, e, &self.jt)
        return 1 if separate else 0

    def process(self, summary):
        """(joined token ids, sentence token ids) of one summary (for tests)."""
        cdef _Doc d = self._make_doc(summary)
        return d.tokens(), d.sentences()

    cdef int _build_into(self, const uint8_t* p, Py_ssize_t n, DocC* d, int32_t** slot) except -1 nogil:
        """Tokenize one summary and store it in ``d``; its memory goes to ``slot`` (owned by a _Doc)."""
        return self._store(self._build(p, n), d, slot)

    cdef int _store(self, bint separate, DocC* d, int32_t** slot) except -1 nogil:
        """Copy the summary built in st / so (and jt when ``separate``) into ``d`` and its memory ``slot``."""
        cdef Py_ssize_t ln = self.st.n + self.so.n + (self.jt.n if separate else 0), i, mx
        cdef int32_t* mem = <int32_t*>malloc((ln + 1) * sizeof(int32_t))
        if mem == NULL:
            with gil:
                raise MemoryError()
        slot[0] = mem
        memcpy(mem, self.st.data, self.st.n * sizeof(int32_t))
        d.stok = mem
        d.nstok = <int32_t>self.st.n
        memcpy(mem + self.st.n, self.so.data, self.so.n * sizeof(int32_t))
        d.soff = mem + self.st.n
        d.nsent = <int32_t>(self.so.n - 1)
        if separate:
            d.tok = mem + self.st.n + self.so.n
            if self.jt.n:
                memcpy(d.tok, self.jt.data, self.jt.n * sizeof(int32_t))
            d.ntok = <int32_t>self.jt.n
        else:
            d.tok = d.stok
            d.ntok = d.nstok
        mx = 0
        for i in range(d.nsent):
            if d.soff[i + 1] - d.soff[i] > mx:
                mx = d.soff[i + 1] - d.soff[i]
        d.maxsent = <int32_t>mx
        return 0

    cdef str _as_text(self, object summary, Py_ssize_t pair, int ref):
        """A summary that is not a str through ``to_text``; a clear TypeError when it cannot be text."""
        try:
            return self.to_text(summary)
        except TypeError:
            raise TypeError(f"{_where(pair, ref)}: expected text (a str or a list of str sentences), got "
                            f"{summary!r:.60} (give every summary as text or every one as token ids)") from None

    cdef _Doc _pend_add(self, object text, Pend* pp, list keep_src):
        """(GIL) A new _Doc for ``text`` (a str), its UTF-8 bytes queued for tokenizing."""
        cdef _Doc d = _Doc.__new__(_Doc)
        cdef Py_ssize_t ln = 0
        cdef const uint8_t* p
        cdef bytes b
        if self.unicode_lower and not text.isascii():
            text = text.lower()   # rouge-score lower-cases the str first (the Kelvin sign becomes "k")
        try:
            p = <const uint8_t*>PyUnicode_AsUTF8AndSize(text, &ln)
            keep_src.append(text)
        except UnicodeEncodeError:  # lone surrogates: the bytes they escape (surrogateescape)
            b = text.encode("utf-8", "surrogateescape")
            keep_src.append(b)
            p = <const uint8_t*><char*>b
            ln = len(b)
        if pp.n == pp.cap:
            _pend_grow(pp)
        pp.src[pp.n] = p
        pp.len[pp.n] = ln
        pp.dst[pp.n] = &d.d
        pp.slot[pp.n] = &d.mem
        pp.n += 1
        return d

    def prepare(self, candidates, references, Py_ssize_t start, Py_ssize_t end):
        """Process pairs ``start:end`` into a chunk ready for :meth:`score`.

        Steps: (GIL) collect the UTF-8 bytes of the candidates and of the references not in the
        cache; (no GIL) tokenize them all, new token types getting pending ids; (GIL, once) map
        the new types through the stopwords and the stemmer; (no GIL) put the final ids in the
        table and the summaries; (GIL) file the new references in the cache.  Only the short
        Python parts hold the GIL, so the engines of several jobs tokenize in parallel.
        An engine must not be used by two threads at once.
        """
        cdef _Chunk ch = _Chunk.__new__(_Chunk)
        cdef Py_ssize_t i, n = end - start, nr = 0, cap, k
        cdef _Doc d
        cdef void* q
        cdef PyObject* hit
        cdef list keep = []
        cdef list keep_src = []
        cdef dict pending = {}
        cdef Pend pp
        cdef bint use_cache = self.cache_size > 0
        cdef object cache = self.cache
        cdef object mte = self.move_to_end
        memset(&pp, 0, sizeof(Pend))
        ch.n = n
        ch.start = start
        ch.peers = <const DocC**>malloc((n + 1) * sizeof(DocC*))
        ch.roff = <Py_ssize_t*>malloc((n + 1) * sizeof(Py_ssize_t))
        cap = 2 * n + 16
        ch.refs = <const DocC**>malloc(cap * sizeof(DocC*))
        try:
            if ch.peers == NULL or ch.roff == NULL or ch.refs == NULL:
                raise MemoryError()
            pp.cap = 0
            while pp.cap < 3 * n + 16:
                _pend_grow(&pp)
            ch.roff[0] = 0
            for i in range(n):
                text = candidates[start + i]
                if not isinstance(text, str):
                    text = self._as_text(text, start + i, -1)
                d = self._pend_add(text, &pp, keep_src)
                keep.append(d)
                ch.peers[i] = &d.d
                refs = references[start + i]
                if isinstance(refs, (str, bytes)):
                    refs = (refs,)
                for text in refs:
                    if not isinstance(text, str):
                        text = self._as_text(text, start + i, 0)
                    hit = PyDict_GetItem(cache, text) if use_cache else NULL
                    if hit != NULL:
                        d = <_Doc>hit
                        mte(text)
                    else:
                        hit = PyDict_GetItem(pending, text)
                        if hit != NULL:
                            d = <_Doc>hit
                        else:
                            d = self._pend_add(text, &pp, keep_src)
                            pending[text] = d
                    keep.append(d)
                    if nr == cap:
                        cap *= 2
                        q = realloc(ch.refs, cap * sizeof(DocC*))
                        if q == NULL:
                            raise MemoryError()
                        ch.refs = <const DocC**>q
                    ch.refs[nr] = &d.d
                    nr += 1
                ch.roff[i + 1] = nr
            with nogil:
                for k in range(pp.n):
                    self._build_into(pp.src[k], pp.len[k], pp.dst[k], pp.slot[k])
        finally:
            _pend_free(&pp)
        for text, d in pending.items():
            if self.has_w and d.d.nstok == 0:
                raise InputError("ROUGE-W is undefined for a reference with no tokens "
                                 "(ROUGE-1.5.5 dies with a division by zero here)")
            if use_cache:
                cache[text] = d
                if len(cache) > self.cache_size:
                    cache.popitem(last=False)
        if self.has_w:
            for i in range(nr):
                if ch.refs[i].nstok == 0:
                    raise InputError("ROUGE-W is undefined for a reference with no tokens "
                                     "(ROUGE-1.5.5 dies with a division by zero here)")
        ch.keep = keep
        return ch

    def prepare_ids(self, candidates, references, Py_ssize_t start, Py_ssize_t end):
        """Pairs ``start:end`` given as token ids (see inputs.py) into a chunk ready for :meth:`score`.

        No tokenizer, stemmer, stopwords or reference cache: the ids are read, cut to the word
        limit and mapped to dense ids (ids.pxi).  Holds the GIL (reading is a copy).
        """
        cdef _Chunk ch = _Chunk.__new__(_Chunk)
        cdef Py_ssize_t i, n = end - start, nr = 0, cap
        cdef int j, level
        cdef _Doc d
        cdef void* q
        cdef list keep = []
        ch.n = n
        ch.start = start
        ch.peers = <const DocC**>malloc((n + 1) * sizeof(DocC*))
        ch.roff = <Py_ssize_t*>malloc((n + 1) * sizeof(Py_ssize_t))
        cap = 2 * n + 16
        ch.refs = <const DocC**>malloc(cap * sizeof(DocC*))
        if ch.peers == NULL or ch.roff == NULL or ch.refs == NULL:
            raise MemoryError()
        ch.keep = keep
        ch.roff[0] = 0
        for i in range(n):
            d = self._id_doc(candidates[start + i], start + i, -1)
            keep.append(d)
            ch.peers[i] = &d.d
            refs = references[start + i]
            level = _id_level(refs)
            if level == 1:
                refs = (refs,)
            elif level == 0:
                refs = ()
            elif level < 0:
                raise TypeError(f"{_where(start + i, 0)}: expected token ids (a sequence of ints, "
                                f"or a list of them), got {refs!r:.60}")
            j = 0
            for r in refs:
                d = self._id_doc(r, start + i, j)
                j += 1
                keep.append(d)
                if nr == cap:
                    cap *= 2
                    q = realloc(ch.refs, cap * sizeof(DocC*))
                    if q == NULL:
                        raise MemoryError()
                    ch.refs = <const DocC**>q
                ch.refs[nr] = &d.d
                nr += 1
                if self.has_w and d.d.nstok == 0:
                    raise InputError("ROUGE-W is undefined for a reference with no tokens "
                                     "(ROUGE-1.5.5 dies with a division by zero here)")
            ch.roff[i + 1] = nr
        return ch

    cdef _Doc _id_doc(self, object summary, Py_ssize_t pair, int ref):
        """(GIL) One token-id summary read into a new _Doc."""
        cdef _Doc doc = _Doc.__new__(_Doc)
        _read_id_summary(&self.idm, summary, self.word_limit, &self.st, &self.so, pair, ref)
        self._store(False, &doc.d, &doc.mem)
        return doc

    def process_ids(self, summary):
        """(joined dense ids, sentence dense ids) of one token-id summary (for tests)."""
        cdef _Doc d = self._id_doc(summary, 0, -1)
        return d.tokens(), d.sentences()

    def score(self, _Chunk ch, _Work wk, double[:, :, ::1] out):
        """Score a prepared chunk into ``out[ch.start : ch.start + ch.n]`` with the GIL released."""
        cdef Py_ssize_t i
        cdef int rc = 0
        cdef double* base
        cdef Py_ssize_t nvocab = self.finals.count if self.finals.count > self.idm.count else self.idm.count
        if out.shape[1] != self.nm or out.shape[2] != 6 or out.shape[0] < ch.start + ch.n:
            raise ValueError("output array has the wrong shape")
        if wk.nm != self.nm:
            raise ValueError("workspace made for another engine")
        if ch.n == 0:
            return
        base = &out[0, 0, 0]
        with nogil:
            for i in range(ch.n):
                rc = _score_pair(&wk.w, self.ms, self.nm, self.mode_b, self.mode_max, self.alpha, ch.peers[i],
                                 ch.refs + ch.roff[i], <int>(ch.roff[i + 1] - ch.roff[i]),
                                 base + (ch.start + i) * self.nm * 6, nvocab)
                if rc != 0:
                    break
        if rc == -2:
            raise InputError("ROUGE-W is undefined for a reference with no tokens "
                             "(ROUGE-1.5.5 dies with a division by zero here)")
        if rc != 0:
            raise MemoryError()


cdef inline bint _next_line(const uint8_t* p, Py_ssize_t n, Py_ssize_t* pos, Py_ssize_t* s,
                            Py_ssize_t* e) noexcept nogil:
    """The next non-empty line p[s:e] from ``pos`` on (``pos`` moves past it); False at the end."""
    cdef const uint8_t* nl
    while pos[0] < n:
        nl = <const uint8_t*>memchr(p + pos[0], 10, n - pos[0])
        s[0] = pos[0]
        e[0] = (nl - p) if nl != NULL else n
        pos[0] = e[0] + 1
        if e[0] > s[0]:
            return True
    return False


# word-limit helpers: Perl's split(/\s+/) on one raw sentence [s, e)

cdef Py_ssize_t _field_count(const uint8_t* p, Py_ssize_t s, Py_ssize_t e) noexcept nogil:
    """Fields of split(/\\s+/): a leading empty field when the text starts with white space."""
    cdef Py_ssize_t i = s, runs = 0
    cdef bint lead = _WS[p[s]] != 0
    while i < e:
        if _WS[p[i]]:
            i += 1
            continue
        runs += 1
        while i < e and not _WS[p[i]]:
            i += 1
    if runs == 0:
        return 0
    return runs + (1 if lead else 0)


cdef Py_ssize_t _field_prefix_end(const uint8_t* p, Py_ssize_t s, Py_ssize_t e, Py_ssize_t k) noexcept nogil:
    """End of the first k fields (``b" ".join(fields[:k])`` has the same tokens as p[s:end])."""
    cdef Py_ssize_t i = s, runs = 0
    if k <= 0:
        return s
    if _WS[p[s]]:
        k -= 1                      # the leading empty field
        if k == 0:
            return s
    while i < e:
        if _WS[p[i]]:
            i += 1
            continue
        while i < e and not _WS[p[i]]:
            i += 1
        runs += 1
        if runs == k:
            return i
    return e


# =========================================================================== per-thread workspace

cdef struct LocEntry:
    uint32_t gen       # == Work.lgen: the entry belongs to the current pair
    int32_t val        # local id


cdef struct GEntry:
    uint64_t key
    int32_t pos
    int32_t cp
    int32_t used
    uint32_t gen
    uint32_t rgen
    uint32_t pad


cdef struct DEntry:
    uint32_t gen
    int32_t cp
    uint32_t rgen
    int32_t used


cdef enum:
    _DIRECT_MAX_U = 256      # U*U table entries of 16 bytes: at most 1 MB


cdef struct Work:
    Buf lt             # LocEntry [vocabulary]: final token id -> local id of the current pair
    uint32_t lgen
    Buf gt             # GEntry: candidate n-grams / skip units
    Buf bt             # BEntry: candidate bigrams (ROUGE-2 when the direct table is too large)
    Buf touched        # int32: bigram slots a reference used
    Buf dt             # DEntry [U*U + U]: bigrams / skip units of local ids, directly indexed
    uint32_t dgen
    uint32_t drgen
    uint32_t ggen
    uint32_t rgen
    Buf ploc           # int32: local ids of the candidate's joined tokens
    Buf psloc          # int32: local ids of the candidate's sentence tokens (when separate)
    Buf pcnt           # int32 [U]: candidate unigram counts (readText)
    Buf used           # int32 [U]
    Buf mu             # int32 [U]
    Buf pu             # int32 [U]
    Buf mloc           # int32: local ids of all references' joined tokens
    Buf msloc          # int32: local ids of all references' sentence tokens (when separate)
    Buf mjp            # int32* per reference
    Buf msp            # int32* per reference
    Buf moff           # Py_ssize_t per reference: start of its sentence tokens in the mask
    Buf pm             # uint64 [U * Wb], all zero between uses
    Buf rows           # uint64
    Buf mask           # uint8 over all references' sentence tokens
    Buf dirs           # uint8
    Buf drows          # double
    Buf lrows          # int32
    Buf rh             # double per reference: hits
    Buf rm             # model count
    Buf rp             # peer count
    Buf rs             # -f B score
    double** fw        # per measure: fw[k] = k ** w
    Py_ssize_t* fwlen


cdef class _Work:
    cdef Work w
    cdef int nm

    def __cinit__(self, _Engine engine):
        self.nm = engine.nm
        memset(&self.w, 0, sizeof(Work))
        self.w.fw = <double**>calloc(self.nm + 1, sizeof(double*))
        self.w.fwlen = <Py_ssize_t*>calloc(self.nm + 1, sizeof(Py_ssize_t))
        if self.w.fw == NULL or self.w.fwlen == NULL:
            raise MemoryError()

    def __dealloc__(self):
        cdef int i
        cdef Work* w = &self.w
        free(w.lt.p); free(w.gt.p); free(w.bt.p); free(w.touched.p); free(w.dt.p); free(w.ploc.p); free(w.psloc.p); free(w.pcnt.p)
        free(w.used.p); free(w.mu.p); free(w.pu.p); free(w.mloc.p); free(w.msloc.p)
        free(w.mjp.p); free(w.msp.p); free(w.moff.p); free(w.pm.p); free(w.rows.p)
        free(w.mask.p); free(w.dirs.p); free(w.drows.p); free(w.lrows.p)
        free(w.rh.p); free(w.rm.p); free(w.rp.p); free(w.rs.p)
        if w.fw != NULL:
            for i in range(self.nm):
                free(w.fw[i])
        free(self.w.fw)
        free(self.w.fwlen)


# =========================================================================== scoring kernels (nogil)

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


cdef inline int32_t _loc_insert(LocEntry* t, uint32_t gen, int32_t key, int32_t* U,
                                int32_t* pcnt) noexcept nogil:
    cdef LocEntry* e = &t[key]
    if e.gen != gen:
        e.gen = gen
        e.val = U[0]
        pcnt[U[0]] = 0
        U[0] += 1
    return e.val


cdef inline int32_t _loc_find(const LocEntry* t, uint32_t gen, int32_t key) noexcept nogil:
    cdef const LocEntry* e = &t[key]
    return e.val if e.gen == gen else -1


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


cdef inline int _lcs_prefix(const uint64_t* V, Py_ssize_t b) noexcept nogil:
    cdef Py_ssize_t w, full = b >> 6
    cdef int r = 0, rem = <int>(b & 63)
    for w in range(full):
        r += RKB_POPCOUNT64(~V[w])
    if rem:
        r += RKB_POPCOUNT64(~V[full] & ((<uint64_t>1 << rem) - 1))
    return r


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
    lcs = _lcs_prefix(V, n)   # the zero bits of the last row below n
    _match_bits(PM, y, n, Wb, False)
    return lcs


cdef int _score_pair(Work* w, const MeasureC* ms, int nm, bint mode_b, bint mode_max, double alpha,
                     const DocC* P, const DocC** R, int nr, double* out, Py_ssize_t nvocab) noexcept nogil:
    """All measures of one pair; returns 0, -1 (out of memory) or -2 (ROUGE-W, empty reference)."""
    cdef Py_ssize_t lp = P.ntok, i, j, k, r, t, a, b, lm, cap, msk, total_j, total_s, units, pcount
    cdef Py_ssize_t Wb, wj, maxm, m, n, pos, jmax, mcount
    cdef int32_t U = 0, loc, qn
    cdef LocEntry* lt
    cdef GEntry* gt = NULL
    cdef DEntry* dt = NULL
    cdef int32_t* ploc
    cdef int32_t* psloc
    cdef int32_t* pcnt
    cdef int32_t* used
    cdef int32_t* mu
    cdef int32_t* pu
    cdef int32_t* mloc
    cdef int32_t* msloc
    cdef int32_t** mjp
    cdef int32_t** msp
    cdef Py_ssize_t* moff
    cdef uint64_t* PM
    cdef uint64_t* rows
    cdef uint64_t* V
    cdef uint64_t* Vn
    cdef uint64_t v, u, key
    cdef uint8_t* mask
    cdef uint8_t* mk
    cdef const int32_t* x
    cdef const int32_t* y
    cdef const int32_t* win
    cdef double* rh
    cdef double* rm
    cdef double* rp
    cdef double* rs
    cdef double* fw
    cdef double* dprev
    cdef int32_t* lprev
    cdef double H, C, Pc, best, rec, prec, hw, basew, wt
    cdef int64_t hits
    cdef int kind, nn, d
    cdef bint su, ok, l_done = False, single
    cdef Py_ssize_t run
    cdef int cu, cup, zb
    cdef const DocC* M
    cdef double* o
    cdef double fin[6]

    # ---- local ids of the candidate's types
    if _need_zeroed(&w.lt, nvocab + 1, sizeof(LocEntry)) < 0:
        return -1
    w.lgen += 1
    if w.lgen == 0:
        memset(w.lt.p, 0, w.lt.cap * sizeof(LocEntry))
        w.lgen = 1
    lt = <LocEntry*>w.lt.p
    if (_need(&w.ploc, lp + 1, 4) < 0 or _need(&w.pcnt, lp + P.nstok + 1, 4) < 0
            or _need(&w.psloc, P.nstok + 1, 4) < 0):
        return -1
    ploc = <int32_t*>w.ploc.p
    pcnt = <int32_t*>w.pcnt.p
    for i in range(lp):
        loc = _loc_insert(lt, w.lgen, P.tok[i], &U, pcnt)
        ploc[i] = loc
        pcnt[loc] += 1
    if P.stok == P.tok:
        psloc = ploc
    else:
        psloc = <int32_t*>w.psloc.p
        for i in range(P.nstok):
            psloc[i] = _loc_insert(lt, w.lgen, P.stok[i], &U, pcnt)
    if (_need(&w.used, U + 1, 4) < 0 or _need(&w.mu, U + 1, 4) < 0 or _need(&w.pu, U + 1, 4) < 0):
        return -1
    used = <int32_t*>w.used.p
    mu = <int32_t*>w.mu.p
    pu = <int32_t*>w.pu.p

    # ---- references onto the local ids
    total_j = 0
    total_s = 0
    maxm = 0
    for r in range(nr):
        total_j += R[r].ntok
        if R[r].stok != R[r].tok:
            total_s += R[r].nstok
        if R[r].maxsent > maxm:
            maxm = R[r].maxsent
    if (_need(&w.mloc, total_j + 1, 4) < 0 or _need(&w.msloc, total_s + 1, 4) < 0
            or _need(&w.mjp, nr + 1, sizeof(int32_t*)) < 0 or _need(&w.msp, nr + 1, sizeof(int32_t*)) < 0
            or _need(&w.moff, nr + 1, sizeof(Py_ssize_t)) < 0
            or _need(&w.rh, nr + 1, 8) < 0 or _need(&w.rm, nr + 1, 8) < 0
            or _need(&w.rp, nr + 1, 8) < 0 or _need(&w.rs, nr + 1, 8) < 0):
        return -1
    mloc = <int32_t*>w.mloc.p
    msloc = <int32_t*>w.msloc.p
    mjp = <int32_t**>w.mjp.p
    msp = <int32_t**>w.msp.p
    moff = <Py_ssize_t*>w.moff.p
    rh = <double*>w.rh.p
    rm = <double*>w.rm.p
    rp = <double*>w.rp.p
    rs = <double*>w.rs.p
    total_j = 0
    total_s = 0
    k = 0
    for r in range(nr):
        M = R[r]
        mjp[r] = mloc + total_j
        for i in range(M.ntok):
            mloc[total_j + i] = _loc_find(lt, w.lgen, M.tok[i])
        total_j += M.ntok
        if M.stok == M.tok:
            msp[r] = mjp[r]
        else:
            msp[r] = msloc + total_s
            for i in range(M.nstok):
                msloc[total_s + i] = _loc_find(lt, w.lgen, M.stok[i])
            total_s += M.nstok
        moff[r] = k
        k += M.nstok
    moff[nr] = k
    # every summary of the pair is one sentence (and -b does not cut the joined text apart)
    single = P.nsent <= 1 and P.stok == P.tok
    for r in range(nr):
        if R[r].nsent > 1 or R[r].stok != R[r].tok:
            single = False

    for qn in range(nm):
        kind = ms[qn].kind
        o = out + qn * 6
        if kind == K_N:
            nn = ms[qn].n
            pcount = lp - nn + 1 if lp >= nn else 0
            if nn == 1:
                for r in range(nr):
                    memset(used, 0, U * sizeof(int32_t))
                    hits = 0
                    win = mjp[r]
                    for i in range(R[r].ntok):
                        loc = win[i]
                        if loc >= 0 and used[loc] < pcnt[loc]:
                            used[loc] += 1
                            hits += 1
                    rh[r] = <double>hits
                    rm[r] = <double>R[r].ntok
                    rp[r] = <double>pcount
            elif nn == 2 and U <= _DIRECT_MAX_U:
                # bigrams of local ids index a U x U table directly (no hashing)
                if _dt_reset(w, <Py_ssize_t>U * U + 1) < 0:
                    return -1
                dt = <DEntry*>w.dt.p
                for i in range(pcount):
                    _d_add(dt, <Py_ssize_t>ploc[i] * U + ploc[i + 1], w.dgen)
                for r in range(nr):
                    lm = R[r].ntok
                    mcount = lm - 1 if lm >= 2 else 0
                    hits = 0
                    if pcount > 0 and mcount > 0:
                        w.drgen += 1
                        win = mjp[r]
                        for i in range(mcount):
                            if win[i] >= 0 and win[i + 1] >= 0 and _d_hit(
                                    dt, <Py_ssize_t>win[i] * U + win[i + 1], w.dgen, w.drgen):
                                hits += 1
                    rh[r] = <double>hits
                    rm[r] = <double>mcount
                    rp[r] = <double>pcount
            elif nn == 2:
                if _bigram_hits(w, ploc, pcount, R, mjp, nr, rh, rm, rp) < 0:
                    return -1
            else:
                if pcount > 0:
                    if _gt_reset(w, pcount) < 0:
                        return -1
                    gt = <GEntry*>w.gt.p
                    msk = _gt_mask(w, pcount)
                    for i in range(pcount):
                        _g_add(gt, msk, w.ggen, gram_key(ploc + i, nn), <int32_t>i, ploc, nn, nn > 2)
                for r in range(nr):
                    lm = R[r].ntok
                    mcount = lm - nn + 1 if lm >= nn else 0
                    hits = 0
                    if pcount > 0 and mcount > 0:
                        w.rgen += 1
                        if w.rgen == 0:   # wrapped: forget every entry's per-reference state
                            for t in range(w.gt.cap):
                                (<GEntry*>w.gt.p)[t].rgen = 0
                            w.rgen = 1
                        for i in range(mcount):
                            win = mjp[r] + i
                            ok = True
                            for t in range(nn):
                                if win[t] < 0:
                                    ok = False
                                    break
                            if ok and _g_hit(gt, msk, w.ggen, w.rgen, gram_key(win, nn), ploc, win, nn, nn > 2):
                                hits += 1
                    rh[r] = <double>hits
                    rm[r] = <double>mcount
                    rp[r] = <double>pcount
            if mode_b:
                for r in range(nr):
                    rs[r] = _round5(rh[r] / rm[r]) if rm[r] != 0 else 0.0
        elif kind == K_S or kind == K_SU:
            d = ms[qn].n
            su = kind == K_SU
            pcount = _skip_units(lp, d, su)
            if U <= _DIRECT_MAX_U:
                # skip-bigram (a, b) -> a * U + b, unigram a -> U * U + a: a direct table
                if _dt_reset(w, <Py_ssize_t>U * U + U + 1) < 0:
                    return -1
                dt = <DEntry*>w.dt.p
                for i in range(lp - 1):
                    if su:
                        _d_add(dt, <Py_ssize_t>U * U + ploc[i], w.dgen)
                    jmax = lp - 1
                    if d >= 0 and i + d + 1 < jmax:
                        jmax = i + d + 1
                    t = <Py_ssize_t>ploc[i] * U
                    for j in range(i + 1, jmax + 1):
                        _d_add(dt, t + ploc[j], w.dgen)
                for r in range(nr):
                    lm = R[r].ntok
                    mcount = _skip_units(lm, d, su)
                    hits = 0
                    if pcount > 0 and mcount > 0:
                        w.drgen += 1
                        win = mjp[r]
                        for i in range(lm - 1):
                            if win[i] < 0:
                                continue
                            if su and _d_hit(dt, <Py_ssize_t>U * U + win[i], w.dgen, w.drgen):
                                hits += 1
                            jmax = lm - 1
                            if d >= 0 and i + d + 1 < jmax:
                                jmax = i + d + 1
                            t = <Py_ssize_t>win[i] * U
                            for j in range(i + 1, jmax + 1):
                                if win[j] >= 0 and _d_hit(dt, t + win[j], w.dgen, w.drgen):
                                    hits += 1
                    rh[r] = <double>hits
                    rm[r] = <double>mcount
                    rp[r] = <double>pcount
                if mode_b:
                    for r in range(nr):
                        rs[r] = _round5(rh[r] / rm[r]) if rm[r] != 0 else 0.0
            if U > _DIRECT_MAX_U and pcount > 0:
                if _gt_reset(w, pcount) < 0:
                    return -1
                gt = <GEntry*>w.gt.p
                msk = _gt_mask(w, pcount)
                for i in range(lp - 1):
                    if su:
                        _g_add(gt, msk, w.ggen, (<uint64_t>1 << 63) | <uint32_t>ploc[i], 0, ploc, 0, False)
                    jmax = lp - 1
                    if d >= 0 and i + d + 1 < jmax:
                        jmax = i + d + 1
                    key = (<uint64_t><uint32_t>ploc[i]) << 32
                    for j in range(i + 1, jmax + 1):
                        _g_add(gt, msk, w.ggen, key | <uint32_t>ploc[j], 0, ploc, 0, False)
            for r in range(nr if U > _DIRECT_MAX_U else 0):
                lm = R[r].ntok
                mcount = _skip_units(lm, d, su)
                hits = 0
                if pcount > 0 and mcount > 0:
                    w.rgen += 1
                    if w.rgen == 0:
                        for t in range(w.gt.cap):
                            (<GEntry*>w.gt.p)[t].rgen = 0
                        w.rgen = 1
                    win = mjp[r]
                    for i in range(lm - 1):
                        if win[i] < 0:
                            continue
                        if su and _g_hit(gt, msk, w.ggen, w.rgen, (<uint64_t>1 << 63) | <uint32_t>win[i],
                                         ploc, win, 0, False):
                            hits += 1
                        jmax = lm - 1
                        if d >= 0 and i + d + 1 < jmax:
                            jmax = i + d + 1
                        key = (<uint64_t><uint32_t>win[i]) << 32
                        for j in range(i + 1, jmax + 1):
                            if win[j] >= 0 and _g_hit(gt, msk, w.ggen, w.rgen, key | <uint32_t>win[j],
                                                      ploc, win, 0, False):
                                hits += 1
                rh[r] = <double>hits
                rm[r] = <double>mcount
                rp[r] = <double>pcount
            if mode_b and U > _DIRECT_MAX_U:
                for r in range(nr):
                    rs[r] = _round5(rh[r] / rm[r]) if rm[r] != 0 else 0.0
        elif kind == K_LSEQ or (kind == K_L and single):
            # LSEQ: the LCS of the whole token sequences.  ROUGE-L with one sentence on each side
            # (sentence tokens == joined tokens): the union of one LCS is that LCS, whose tokens
            # are within both sides' counts, so its hits are the LCS length too (no trace-back)
            for r in range(nr):
                lm = _seq_lcs(w, ploc, lp, mjp[r], R[r].ntok, U)
                if lm < 0:
                    return -1
                rh[r] = <double>lm
                rm[r] = <double>R[r].ntok
                rp[r] = <double>lp
                rs[r] = (rh[r] / rm[r]) if R[r].ntok > 0 else 0.0
        elif kind == K_L:
            if _need(&w.mask, moff[nr] + 1, 1) < 0:
                return -1
            mask = <uint8_t*>w.mask.p
            if not l_done:   # the union-LCS masks do not depend on the measure: once per pair
                memset(mask, 0, moff[nr] + 1)
                Wb = (P.maxsent + 63) >> 6
                if U > 0 and Wb > 0 and maxm > 0:
                    if (_need_zeroed(&w.pm, <Py_ssize_t>U * Wb, 8) < 0
                            or _need(&w.rows, (maxm + 1) * Wb, 8) < 0):
                        return -1
                    PM = <uint64_t*>w.pm.p
                    rows = <uint64_t*>w.rows.p
                    for j in range(P.nsent):
                        y = psloc + P.soff[j]
                        n = P.soff[j + 1] - P.soff[j]
                        if n == 0:
                            continue
                        wj = (n + 63) >> 6
                        _match_bits(PM, y, n, Wb, True)
                        for t in range(wj):
                            rows[t] = ~(<uint64_t>0)
                        for r in range(nr):
                            M = R[r]
                            for i in range(M.nsent):
                                m = M.soff[i + 1] - M.soff[i]
                                if m == 0:
                                    continue
                                x = msp[r] + M.soff[i]
                                if wj == 1:  # peer sentence of at most 64 tokens: one word per row
                                    v = rows[0]
                                    for a in range(1, m + 1):
                                        loc = x[a - 1]
                                        if loc >= 0:
                                            u = PM[<Py_ssize_t>loc * Wb]
                                            v = (v + (v & u)) | (v & ~u)
                                        rows[a] = v
                                else:
                                  for a in range(1, m + 1):
                                    V = rows + (a - 1) * wj
                                    Vn = V + wj
                                    loc = x[a - 1]
                                    if loc < 0:
                                        for t in range(wj):
                                            Vn[t] = V[t]
                                        continue
                                    bitlcs_row(V, Vn, PM + <Py_ssize_t>loc * Wb, wj)
                                mk = mask + moff[r] + M.soff[i]
                                if wj == 1:
                                    rkb_trace1(x, m, y, n, rows, mk)
                                    continue
                                # trace-back; cu = c(a, b) and cup = c(a-1, b) are kept up to date
                                # (a zero bit b-1 in row a means c(a, b) = c(a, b-1) + 1)
                                a = m
                                b = n
                                cu = _lcs_prefix(rows + a * wj, b)
                                cup = _lcs_prefix(rows + (a - 1) * wj, b)
                                while cu > 0:  # c(a, b) = 0: no match left in x[:a] x y[:b]
                                    if x[a - 1] == y[b - 1]:
                                        a -= 1
                                        b -= 1
                                        mk[a] = 1
                                        if a == 0 or b == 0:
                                            break
                                        cu -= 1
                                        cup = _lcs_prefix(rows + (a - 1) * wj, b)
                                    else:
                                        zb = <int>((~rows[a * wj + ((b - 1) >> 6)] >> ((b - 1) & 63)) & 1)
                                        if cup >= cu - zb:
                                            a -= 1
                                            if a == 0:
                                                break
                                            cu = cup
                                            cup = _lcs_prefix(rows + (a - 1) * wj, b)
                                        else:
                                            cu -= zb
                                            cup -= <int>((~rows[(a - 1) * wj + ((b - 1) >> 6)] >> ((b - 1) & 63)) & 1)
                                            b -= 1
                                            if b == 0:
                                                break
                        _match_bits(PM, y, n, Wb, False)
                l_done = True
            for r in range(nr):
                M = R[r]
                hits = 0
                if U > 0:
                    memset(mu, 0, U * sizeof(int32_t))
                    win = mjp[r]
                    for i in range(M.ntok):
                        if win[i] >= 0:
                            mu[win[i]] += 1
                    memcpy(pu, pcnt, U * sizeof(int32_t))
                    x = msp[r]
                    mk = mask + moff[r]
                    for pos in range(M.nstok):
                        if mk[pos]:
                            loc = x[pos]
                            if mu[loc] > 0 and pu[loc] > 0:
                                mu[loc] -= 1
                                pu[loc] -= 1
                                hits += 1
                rh[r] = <double>hits
                rm[r] = <double>M.nstok
                rp[r] = <double>lp
                rs[r] = (rh[r] / rm[r]) if M.nstok > 0 else 0.0
        else:  # K_W
            wt = ms[qn].w
            if w.fwlen[qn] < maxm + 2:
                fw = <double*>realloc(w.fw[qn], (maxm + 2) * sizeof(double))
                if fw == NULL:
                    return -1
                for k in range(maxm + 2):
                    fw[k] = pow(<double>k, wt)
                w.fw[qn] = fw
                w.fwlen[qn] = maxm + 2
            fw = w.fw[qn]
            n = P.maxsent
            if (_need(&w.mask, moff[nr] + 1, 1) < 0 or _need(&w.dirs, maxm * n + 1, 1) < 0
                    or _need(&w.drows, 2 * (n + 1), 8) < 0 or _need(&w.lrows, 2 * (n + 1), 4) < 0):
                return -1
            mask = <uint8_t*>w.mask.p
            dprev = <double*>w.drows.p
            lprev = <int32_t*>w.lrows.p
            for r in range(nr):
                M = R[r]
                hw = 0.0
                basew = 0.0
                for i in range(M.nsent):
                    m = M.soff[i + 1] - M.soff[i]
                    basew += fw[m]
                if basew == 0:
                    return -2
                if U > 0:
                    memset(mu, 0, U * sizeof(int32_t))
                    win = mjp[r]
                    for i in range(M.ntok):
                        if win[i] >= 0:
                            mu[win[i]] += 1
                    memcpy(pu, pcnt, U * sizeof(int32_t))
                    for i in range(M.nsent):
                        m = M.soff[i + 1] - M.soff[i]
                        if m == 0:
                            continue
                        x = msp[r] + M.soff[i]
                        mk = mask + moff[r] + M.soff[i]
                        memset(mk, 0, m)
                        for j in range(P.nsent):
                            n = P.soff[j + 1] - P.soff[j]
                            if n == 0:
                                continue
                            wlcs_mark(x, m, psloc + P.soff[j], n, mk, <uint8_t*>w.dirs.p,
                                       dprev, dprev + (n + 1), lprev, lprev + (n + 1), fw)
                        run = 0
                        for pos in range(m):
                            if mk[pos]:
                                loc = x[pos]
                                if mu[loc] > 0 and pu[loc] > 0:
                                    mu[loc] -= 1
                                    pu[loc] -= 1
                                    run += 1
                                    if pos + 1 < m and not mk[pos + 1]:
                                        hw += fw[run]
                                        run = 0
                                    elif pos + 1 == m:
                                        hw += fw[run]
                                        run = 0
                rh[r] = hw
                rm[r] = pow(basew, wt)
                rp[r] = pow(<double>lp, wt)
                rs[r] = pow(hw / basew, ms[qn].inv_w)
        # ---- combine the references (-f A sums, -f B keeps the first best recall, max the first
        # best F) and finish
        if mode_max:
            o[0] = 0.0
            o[1] = 0.0
            o[2] = 0.0
            o[3] = 0.0
            o[4] = 0.0
            o[5] = 0.0
            best = -1.0
            for r in range(nr):
                _final(kind == K_W, ms[qn].inv_w, rm[r], rh[r], rp[r], alpha, fin)
                if fin[5] > best:
                    best = fin[5]
                    memcpy(o, fin, 6 * sizeof(double))
            continue
        H = 0.0
        C = 0.0
        Pc = 0.0
        if mode_b:
            best = -1.0
            for r in range(nr):
                if rs[r] > best:
                    best = rs[r]
                    H = rh[r]
                    C = rm[r]
                    Pc = rp[r]
        else:
            for r in range(nr):
                H += rh[r]
                C += rm[r]
                Pc += rp[r]
        _final(kind == K_W, ms[qn].inv_w, C, H, Pc, alpha, o)
    return 0


cdef inline void _final(bint weighted, double inv_w, double C, double H, double Pc, double alpha,
                        double* o) noexcept nogil:
    """The six numbers from counts: R and P rounded like ``%7.5f`` (ROUGE-W through x^(1/w)), F
    from the rounded values, rounded (docs/rouge155/rounding-and-f.md)."""
    cdef double rec, prec
    if weighted:
        rec = _round5(pow(H / C, inv_w)) if C != 0 else 0.0
        prec = _round5(pow(H / Pc, inv_w)) if Pc != 0 else 0.0
    else:
        rec = _round5(H / C) if C != 0 else 0.0
        prec = _round5(H / Pc) if Pc != 0 else 0.0
    o[0] = C
    o[1] = H
    o[2] = Pc
    o[3] = rec
    o[4] = prec
    o[5] = _round5(_f_measure(rec, prec, alpha))
