# The byte-level tokenizer of _batch.pyx and its interning table.  ROUGE-1.5.5 lower-cases,
# replaces every character outside [a-z0-9] by a space and splits on white space, so a token is
# a maximal run of ASCII [A-Za-z0-9] (bytes >= 0x80 separate tokens).  Runs are found through a
# bitmap built 8 bytes at a time (SWAR); a token's first 16 bytes, lower-cased, are its key in the
# vocabulary table (VEntry), which maps it once to its final id (stopwords and stemming:
# _Engine._final_id).  See docs/rouge155/tokens.md.

cdef struct TokSpan:
    Py_ssize_t start
    Py_ssize_t n
    uint64_t w0
    uint64_t w1
    uint64_t h


cdef struct VEntry:
    uint64_t w0        # the token's first 8 bytes, zero padded; 0: empty slot (tokens have no 0 byte)
    uint64_t w1        # its next 8 bytes (_word1: 0 for a token of at most 8 bytes, bit 63 set past 16)
    uint32_t off       # tokens longer than 16 bytes: arena offset of (uint32 length, bytes); else _SHORT
    int32_t id         # final id; -1: a stopword (dropped)
    uint64_t pad       # (32-byte slots: one never spans two cache lines)


cdef extern from *:
    """
    #include <string.h>
    #define RKB_SHORT 0xFFFFFFFFu
    /* A token's two words (_word0, _word1) from 16 readable bytes at p, with no branch on its
       length n (>= 1): both 8-byte loads lower-cased, then masked to min(n, 16) bytes. */
    static const uint64_t rkb_kmask[17][2] = {
        {0, 0}, {0xFFull, 0}, {0xFFFFull, 0}, {0xFFFFFFull, 0}, {0xFFFFFFFFull, 0},
        {0xFFFFFFFFFFull, 0}, {0xFFFFFFFFFFFFull, 0}, {0xFFFFFFFFFFFFFFull, 0}, {~0ull, 0},
        {~0ull, 0xFFull}, {~0ull, 0xFFFFull}, {~0ull, 0xFFFFFFull}, {~0ull, 0xFFFFFFFFull},
        {~0ull, 0xFFFFFFFFFFull}, {~0ull, 0xFFFFFFFFFFFFull}, {~0ull, 0xFFFFFFFFFFFFFFull}, {~0ull, ~0ull}};
    static inline uint64_t rkb_key16(const uint8_t* p, Py_ssize_t n, uint64_t* w1) {
        uint64_t a, b;
        Py_ssize_t m = n < 16 ? n : 16;
        memcpy(&a, p, 8);
        memcpy(&b, p + 8, 8);
        *w1 = ((b | 0x2020202020202020ull) & rkb_kmask[m][1]) | ((uint64_t)(n > 16) << 63);
        return (a | 0x2020202020202020ull) & rkb_kmask[m][0];
    }
    """
    const uint32_t _SHORT "RKB_SHORT"
    uint64_t rkb_key16(const uint8_t* p, Py_ssize_t n, uint64_t* w1) nogil

# a slot's bytes: 65,536 slots take 2 MiB, one huge page
cdef size_t _VSLOT = sizeof(VEntry)


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
        return w & (~(<uint64_t>0) >> (64 - 8 * m))   # 1 <= m <= 8: no branch on the length
    for k in range(m):
        w |= (<uint64_t>(p[k] | 0x20)) << (8 * k)
    return w


cdef inline uint64_t _word1(const uint8_t* p, Py_ssize_t n, Py_ssize_t avail) noexcept nogil:
    """The second word of token p[:n]: p[8:16] as :func:`_word0` packs it, bit 63 set when the
    token has more than 16 bytes; 0 for a token of at most 8 bytes (``avail`` as for _word0)."""
    if n <= 8:
        return 0
    return _word0(p + 8, n - 8, avail - 8) | (<uint64_t>(n > 16) << 63)


cdef inline uint64_t _vhash(uint64_t w0, uint64_t w1, const uint8_t* p, Py_ssize_t n, Py_ssize_t avail) noexcept nogil:
    """Hash of a token: its first two words (:func:`_word0`, :func:`_word1`) and, past 16 bytes, its
    lower-cased bytes p[16:n], 8 bytes at a time, times an odd constant: its top bits are its slot
    (a token of at most 16 bytes costs two multiplications and no branch on its length).
    ``avail``: bytes readable from p (at least n), as for :func:`_word0`; p is only read for a
    token of more than 16 bytes."""
    cdef uint64_t h = w0 ^ (w1 * <uint64_t>0x9E3779B97F4A7C15ULL)
    cdef Py_ssize_t k
    if w1 >> 63:
        k = 16
        while k < n:
            h = (h ^ _word0(p + k, n - k, avail - k)) * <uint64_t>0x9E3779B97F4A7C15ULL
            h ^= h >> 29
            k += 8
        h ^= <uint64_t>n << 56
    return h * <uint64_t>0x9E3779B97F4A7C15ULL   # the table takes the top bits (Fibonacci hashing)


cdef inline int _vshift(Py_ssize_t cap) noexcept nogil:
    """64 - log2(cap) for a power of two ``cap``: the shift that gives a hash's slot (its top bits)."""
    cdef int b = 0
    while (<Py_ssize_t>1 << b) < cap:
        b += 1
    return 64 - b


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


cdef extern from *:
    """
    /* 16 bytes at once with SSE2 (every x86-64 CPU has it): a byte is a digit when it lies in
       0x30..0x39, a letter when (byte | 0x20) lies in 0x61..0x7a (bytes >= 0x80 never do); the
       range tests are unsigned max/min compares. rkb_alnum16 returns the 16 bits, or -1 when the
       build has no SSE2 (then the 8-byte SWAR path below does all the work). */
    #if defined(__SSE2__)
    #include <emmintrin.h>
    #define RKB_HAVE_SSE2 1
    static inline int rkb_in_range(__m128i v, __m128i a, __m128i b, __m128i* out) {
        *out = _mm_and_si128(_mm_cmpeq_epi8(_mm_max_epu8(v, a), v), _mm_cmpeq_epi8(_mm_min_epu8(v, b), v));
        return 0;
    }
    static inline long rkb_alnum16(const uint8_t* p) {
        __m128i x = _mm_loadu_si128((const __m128i*)p), d, l;
        rkb_in_range(x, _mm_set1_epi8(0x30), _mm_set1_epi8(0x39), &d);
        rkb_in_range(_mm_or_si128(x, _mm_set1_epi8(0x20)), _mm_set1_epi8(0x61), _mm_set1_epi8(0x7a), &l);
        return (long)(unsigned)_mm_movemask_epi8(_mm_or_si128(d, l));
    }
    #else
    #define RKB_HAVE_SSE2 0
    static inline long rkb_alnum16(const uint8_t* p) { (void)p; return -1; }
    #endif
    """
    bint RKB_HAVE_SSE2
    long rkb_alnum16(const uint8_t* p) nogil


cdef void _alnum_bitmap(const uint8_t* p, Py_ssize_t n, uint64_t* bits, Py_ssize_t avail) noexcept nogil:
    """bits[k >> 6] bit (k & 63) set where p[k] (k < n) is [A-Za-z0-9]; no bit at or past n.

    ``avail`` (>= n): bytes readable from p; the last piece is one 8-byte load when it can be."""
    cdef Py_ssize_t k, w, r, full = n >> 6
    cdef uint64_t x, word
    if RKB_HAVE_SSE2:  # the whole 64-byte words 16 bytes at a time, the tail below
        for w in range(full):
            k = w << 6
            bits[w] = (<uint64_t>rkb_alnum16(p + k) | (<uint64_t>rkb_alnum16(p + k + 16) << 16)
                       | (<uint64_t>rkb_alnum16(p + k + 32) << 32) | (<uint64_t>rkb_alnum16(p + k + 48) << 48))
    else:
        full = 0
    for w in range(full, (n + 63) >> 6):
        word = 0
        r = 0   # 8-byte steps done
        if RKB_HAVE_SSE2:
            while (w << 6) + (r << 3) + 16 <= n:
                word |= <uint64_t>rkb_alnum16(p + (w << 6) + (r << 3)) << (r << 3)
                r += 2
        while r < 8:
            k = (w << 6) + (r << 3)
            r += 1
            if k + 8 <= n:
                memcpy(&x, p + k, 8)
            elif k < n and k + 8 <= avail:   # bytes past n are read and masked off
                memcpy(&x, p + k, 8)
                x &= ~(<uint64_t>0) >> (8 * (k + 8 - n))
            elif k < n:
                x = 0
                memcpy(&x, p + k, n - k)
            else:
                break
            word |= _alnum_bits8(x) << ((r - 1) << 3)
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


cdef inline bint _eq_folded(const uint8_t* lower, const uint8_t* p, Py_ssize_t n, Py_ssize_t avail_lower,
                            Py_ssize_t avail_p) noexcept nogil:
    """lower[16:n] (lower-cased bytes) equals the token's p[16:n] with its case folded, 8 bytes at a
    time (the first 16 are compared as the tokens' two words); ``avail_*`` as for :func:`_word0`."""
    cdef Py_ssize_t k = 16
    while k < n:
        if _word0(lower + k, n - k, avail_lower - k) != _word0(p + k, n - k, avail_p - k):
            return False
        k += 8
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


def _token_spans_py(bytes text, Py_ssize_t end=-1):
    """Test hook: (start, end) of the runs of [A-Za-z0-9] in ``text[:end]`` (default: all of it),
    found with the bitmap, which may read the bytes of ``text`` past ``end`` (as in a longer text)."""
    cdef Py_ssize_t n = len(text) if end < 0 or end > len(text) else end, k, j
    cdef uint64_t* bits = <uint64_t*>malloc((((n + 63) >> 6) + 1) * 8)
    cdef list spans = []
    if bits == NULL:
        raise MemoryError()
    try:
        _alnum_bitmap(<const uint8_t*><char*>text, n, bits, len(text))
        k = _next_bit(bits, 0, n, 0)
        while k < n:
            j = _next_bit(bits, k, n, ~(<uint64_t>0))
            spans.append((k, j))
            k = _next_bit(bits, j, n, 0)
    finally:
        free(bits)
    return spans
