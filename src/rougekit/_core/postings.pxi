"""The kept texts' index for the greedy rule (included by _process.pyx): growable vectors, posting
entries sorted by length, the 128-bit signature and its bound, and the length and prefix bounds
the F threshold sets. Kept here, apart from the probe (``_Greedy``), so no file of ``_core`` passes
900 lines."""

# ------------------------------------------------------------------ the greedy rule

cdef struct IVec:
    int32_t* p
    Py_ssize_t n
    Py_ssize_t cap


cdef int ivec_push(IVec* v, int32_t x) noexcept nogil:
    cdef Py_ssize_t cap
    cdef void* p
    if v.n == v.cap:
        cap = v.cap * 2 if v.cap else 4
        p = realloc(v.p, cap * sizeof(int32_t))
        if p == NULL:
            return -1
        v.p = <int32_t*>p
        v.cap = cap
    v.p[v.n] = x
    v.n += 1
    return 0


cdef int ivec_reserve(IVec* v, Py_ssize_t cap) noexcept nogil:
    cdef void* p
    if cap > v.cap:
        p = realloc(v.p, cap * sizeof(int32_t))
        if p == NULL:
            return -1
        v.p = <int32_t*>p
        v.cap = cap
    return 0


cdef struct Post:
    int32_t s          # kept slot
    int32_t j          # position of the token in the kept text's rarity-sorted tokens
    int32_t ly         # the kept text's length
    int32_t pcy        # the bits set in its signature
    uint64_t sig0      # the kept text's token signature (bit = hash of a token id, 128 bits)
    uint64_t sig1


def posting_bytes_py():
    """The bytes of one index entry (``sizeof(Post)``; for the benchmark's memory figure)."""
    return sizeof(Post)


cdef struct PVec:
    Post* p
    Py_ssize_t n
    Py_ssize_t cap
    Py_ssize_t ns      # p[:ns] is sorted by ly (binary-searched); p[ns:n], the newest, is not


cdef enum:
    TAIL_MIN = 16      # a token's unsorted newest entries are merged into its sorted ones when at least
    TAIL_SHIFT = 3     # TAIL_MIN and at least 1/8 (>> TAIL_SHIFT) of the sorted ones


cdef int pvec_push(PVec* v, int32_t s, int32_t j, int32_t ly, int32_t pcy, uint64_t sig0, uint64_t sig1) noexcept nogil:
    cdef Py_ssize_t cap
    cdef void* p
    if v.n == v.cap:
        cap = v.cap * 2 if v.cap else 2
        p = realloc(v.p, cap * sizeof(Post))
        if p == NULL:
            return -1
        v.p = <Post*>p
        v.cap = cap
    v.p[v.n].s = s
    v.p[v.n].j = j
    v.p[v.n].ly = ly
    v.p[v.n].pcy = pcy
    v.p[v.n].sig0 = sig0
    v.p[v.n].sig1 = sig1
    v.n += 1
    return 0


cdef int post_cmp(const void* a, const void* b) noexcept nogil:
    """By length, then kept slot (a total order: the sorted part is the same whatever the sort)."""
    cdef const Post* x = <const Post*>a
    cdef const Post* y = <const Post*>b
    if x.ly != y.ly:
        return -1 if x.ly < y.ly else 1
    if x.s != y.s:
        return -1 if x.s < y.s else 1
    return -1 if x.j < y.j else (1 if x.j > y.j else 0)


cdef int pvec_settle(PVec* v, Post** buf, Py_ssize_t* buf_cap) noexcept nogil:
    """Merge the unsorted tail into the sorted part once it is long enough (see TAIL_MIN); -1: no memory."""
    cdef Py_ssize_t t = v.n - v.ns
    if t < TAIL_MIN or t < (v.ns >> TAIL_SHIFT):
        return 0
    return pvec_merge(v, t, buf, buf_cap)


cdef int pvec_merge(PVec* v, Py_ssize_t t, Post** buf, Py_ssize_t* buf_cap) noexcept nogil:
    """Sort the first ``t`` entries of the unsorted tail into the sorted part; -1: no memory."""
    cdef Py_ssize_t a, b, o
    cdef void* p
    if t <= 0:
        return 0
    qsort(v.p + v.ns, t, sizeof(Post), post_cmp)
    if t > buf_cap[0]:
        p = realloc(buf[0], t * sizeof(Post))
        if p == NULL:
            return -1
        buf[0] = <Post*>p
        buf_cap[0] = t
    memcpy(buf[0], v.p + v.ns, t * sizeof(Post))
    a = v.ns - 1   # merged from the back: the tail's copy in buf, the sorted part in place
    b = t - 1
    o = v.ns + t - 1
    while b >= 0:
        if a >= 0 and post_cmp(v.p + a, buf[0] + b) > 0:
            v.p[o] = v.p[a]
            a -= 1
        else:
            v.p[o] = buf[0][b]
            b -= 1
        o -= 1
    v.ns += t
    return 0


cdef inline Py_ssize_t first_len_at_least(const Post* p, Py_ssize_t n, Py_ssize_t ly) noexcept nogil:
    """The first entry of the sorted ``p[:n]`` whose length is >= ly (n: none)."""
    cdef Py_ssize_t lo = 0, hi = n, mid
    while lo < hi:
        mid = (lo + hi) >> 1
        if p[mid].ly < ly:
            lo = mid + 1
        else:
            hi = mid
    return lo


cdef inline int pc128(uint64_t a, uint64_t b) noexcept nogil:
    """The bits set in a and b together, branch-free (no popcnt instruction is assumed)."""
    a = a - ((a >> 1) & <uint64_t>0x5555555555555555)
    b = b - ((b >> 1) & <uint64_t>0x5555555555555555)
    a = (a & <uint64_t>0x3333333333333333) + ((a >> 2) & <uint64_t>0x3333333333333333)
    b = (b & <uint64_t>0x3333333333333333) + ((b >> 2) & <uint64_t>0x3333333333333333)
    a = a + b      # 4-bit fields of at most 8
    a = (a & <uint64_t>0x0F0F0F0F0F0F0F0F) + ((a >> 4) & <uint64_t>0x0F0F0F0F0F0F0F0F)
    return <int>((a * <uint64_t>0x0101010101010101) >> 56)


cdef inline int sig_bit(int32_t a) noexcept nogil:
    """The signature bit (0..127) of token id ``a``."""
    return <int>(((<uint64_t>a) * <uint64_t>0x9E3779B97F4A7C15) >> 57)


cdef inline void signature(const int32_t* x, Py_ssize_t n, uint64_t* out) noexcept nogil:
    cdef Py_ssize_t k
    cdef int b
    out[0] = 0
    out[1] = 0
    for k in range(n):
        b = sig_bit(x[k])
        out[b >> 6] |= (<uint64_t>1) << (b & 63)


def signature_py(const int32_t[::1] x):
    """The two 64-bit words of the token signature of ``x`` (for tests)."""
    cdef uint64_t out[2]
    signature(&x[0] if x.shape[0] else NULL, x.shape[0], out)
    return out[0], out[1]


cdef inline Py_ssize_t sig_bound(uint64_t x0, uint64_t x1, Py_ssize_t n, int pcx, const Post* P) noexcept nogil:
    """An upper bound on the multiset overlap of a text (signature x0/x1 with pcx bits set, n tokens)
    and a kept one.

    A signature bit set on one side only stands for at least one token of that side absent from
    the other: min(ly - |Y & ~X|, n - |X & ~Y|) = |X & Y| + min(ly - |Y|, n - |X|)."""
    cdef Py_ssize_t a = P.ly - P.pcy, b = n - pcx
    return pc128(x0 & P.sig0, x1 & P.sig1) + (a if a < b else b)


def sig_bound_py(uint64_t x0, uint64_t x1, Py_ssize_t n, uint64_t y0, uint64_t y1, Py_ssize_t ly):
    """The signature bound of a text (x0/x1, n tokens) and a kept one (y0/y1, ly tokens) (for tests)."""
    cdef Post P
    P.ly = <int32_t>ly
    P.pcy = pc128(y0, y1)
    P.sig0 = y0
    P.sig1 = y1
    return sig_bound(x0, x1, n, pc128(x0, x1), &P)


cdef enum:
    INT32_MAX_LEN = 2147483647

# Below this threshold a partner longer than 2n + 2 tokens may pass against n (F <= 2n / (3n + 2) < 2/3
# above it): the probe's length range is then not bounded above
cdef double WIDE_T = 0.67


cdef inline bint passes(double v, double t) noexcept nogil:
    return v > t


cdef Py_ssize_t need_min(Py_ssize_t l, double t, Py_ssize_t lo, Py_ssize_t hi) noexcept nogil:
    """The least LCS a text of ``l`` tokens needs to score above ``t`` against a text of ``lo..hi``
    tokens (l + 1: none).

    Searched with the float formula itself, from a start below the exact bound t (l + l') / 2
    (the float F is within a few ulps of 2h / (l + l'), far less than the 1e-9 margin)."""
    cdef Py_ssize_t lp, h, best = l + 1, top, start
    if lo < 1:
        lo = 1
    for lp in range(lo, hi + 1):
        top = l if l < lp else lp
        if top >= best:
            top = best - 1
        start = <Py_ssize_t>(t * <double>(l + lp) * 0.5 * (1.0 - 1e-9)) - 1
        if start < 1:
            start = 1
        for h in range(start, top + 1):
            if passes(score_of(STAT_F, h, l, lp), t):
                best = h
                break
    return best


cdef Py_ssize_t min_overlap(Py_ssize_t l, double t) noexcept nogil:
    """The least LCS a text of ``l`` tokens needs to score above ``t`` against any text (l + 1: none).

    Partners longer than 2l + 2 need more (F falls as the partner grows)."""
    return need_min(l, t, 1, 2 * l + 2)


def prefix_lengths_py(Py_ssize_t l, double t):
    """(short, long, probe_short, probe_long) prefix lengths of a text of ``l`` tokens (for tests)."""
    cdef int32_t out[4]
    prefix_lengths(l, t, out)
    return out[0], out[1], out[2], out[3]


cdef void prefix_lengths(Py_ssize_t l, double t, int32_t* out) noexcept nogil:
    """The four prefix lengths of a text of ``l`` tokens (each l - least overlap + 1, within 0..l).

    As a kept text: out[0] covers every partner at least as long (the short index), out[1] every
    partner (the long index).  As a new text: out[2] covers the kept texts at most as long (probed
    in the short index), out[3] the longer ones (probed in both)."""
    cdef Py_ssize_t k, v
    cdef Py_ssize_t need[4]
    need[0] = need_min(l, t, l, 2 * l + 2)
    need[1] = min_overlap(l, t)
    need[2] = need_min(l, t, 1, l)
    need[3] = need_min(l, t, l + 1, 2 * l + 2)
    for k in range(4):
        v = l - need[k] + 1 if l else 0
        if v < 0:
            v = 0
        out[k] = <int32_t>v
