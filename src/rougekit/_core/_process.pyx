# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Compiled kernels of :mod:`rougekit.process`: all-pairs LCS and the greedy near-duplicate rule.

Texts arrive pre-tokenized as interned ids in CSR form (``ids`` int32, ``off`` int64 with
``len(texts) + 1`` entries).  The LCS of two texts is the bit-parallel one of Allison-Dix / Hyyro
(``common.pxi``'s ``bitlcs_row``, 64-bit words, as many words as the longer side needs).  Scores
are rouge-score's: P = lcs / len(candidate), R = lcs / len(reference), F = 2PR / (P + R) in
float64 with its order of operations, 0 when a side is empty.

Pruning never changes a result: a pair is skipped only when the score of an upper bound on its
LCS (computed with the very same float formula) cannot pass.  That score is monotone in the bound
(consecutive LCS values change the exact score by at least 1/len, far above a few ulps of
rounding), so a skipped pair's true float score cannot pass either.

The readable twin is ``_process_pure.py``; tests hold the two to the same results.
"""

from libc.stdlib cimport malloc, calloc, realloc, free
from libc.string cimport memset
from libc.stdint cimport int32_t, int64_t, uint8_t, uint64_t

include "common.pxi"

ctypedef fused real_t:
    float
    double


cdef enum:
    STAT_F = 0
    STAT_PRECISION = 1
    STAT_RECALL = 2


cdef inline double score_of(int stat, Py_ssize_t h, Py_ssize_t lc, Py_ssize_t lr) noexcept nogil:
    """rouge-score's rougeL number for LCS ``h`` of a candidate of ``lc`` and a reference of ``lr`` tokens."""
    cdef double p, r
    if lc == 0 or lr == 0:
        return 0.0
    p = <double>h / <double>lc
    r = <double>h / <double>lr
    if stat == STAT_PRECISION:
        return p
    if stat == STAT_RECALL:
        return r
    if p + r > 0:
        return 2.0 * p * r / (p + r)
    return 0.0


def score_py(int stat, Py_ssize_t h, Py_ssize_t lc, Py_ssize_t lr):
    """The C score formula (for tests)."""
    return score_of(stat, h, lc, lr)


# ------------------------------------------------------------------ the query side of an LCS

cdef struct Query:
    int32_t* slot      # token id -> local id of the query's types (-1: absent); vocab entries
    Py_ssize_t vocab
    uint64_t* pm       # local id x words: match bits of the query's positions
    Py_ssize_t pm_cap
    uint64_t* v        # the bit-parallel row
    Py_ssize_t v_cap
    const int32_t* tok
    Py_ssize_t n
    Py_ssize_t words
    Py_ssize_t types


cdef int query_init(Query* q, Py_ssize_t vocab) noexcept nogil:
    cdef Py_ssize_t i
    memset(q, 0, sizeof(Query))
    q.vocab = vocab
    q.slot = <int32_t*>malloc((vocab + 1) * sizeof(int32_t))
    if q.slot == NULL:
        return -1
    for i in range(vocab + 1):
        q.slot[i] = -1
    return 0


cdef void query_free(Query* q) noexcept nogil:
    free(q.slot)
    free(q.pm)
    free(q.v)
    q.slot = NULL
    q.pm = NULL
    q.v = NULL


cdef int query_set(Query* q, const int32_t* tok, Py_ssize_t n) noexcept nogil:
    """Make ``tok[:n]`` the query (the bit side of the LCS); -1: no memory."""
    cdef Py_ssize_t b, W = (n + 63) >> 6, need
    cdef int32_t s
    cdef void* p
    q.tok = tok
    q.n = n
    q.words = W
    q.types = 0
    for b in range(n):
        if q.slot[tok[b]] < 0:
            q.slot[tok[b]] = <int32_t>q.types
            q.types += 1
    need = q.types * W
    if need > q.pm_cap:
        p = realloc(q.pm, (need + 1) * sizeof(uint64_t))
        if p == NULL:
            return -1
        q.pm = <uint64_t*>p
        q.pm_cap = need
    if W > q.v_cap:
        p = realloc(q.v, (W + 1) * sizeof(uint64_t))
        if p == NULL:
            return -1
        q.v = <uint64_t*>p
        q.v_cap = W
    if need:  # memset of a NULL table is undefined even for 0 bytes (UBSan)
        memset(q.pm, 0, need * sizeof(uint64_t))
    for b in range(n):
        s = q.slot[tok[b]]
        q.pm[s * W + (b >> 6)] |= (<uint64_t>1) << (b & 63)
    return 0


cdef void query_clear(Query* q) noexcept nogil:
    cdef Py_ssize_t b
    for b in range(q.n):
        q.slot[q.tok[b]] = -1
    q.n = 0


cdef Py_ssize_t query_lcs(Query* q, const int32_t* y, Py_ssize_t m) noexcept nogil:
    """LCS length of the query and ``y[:m]`` (bit-parallel over the query's positions)."""
    cdef Py_ssize_t j, t, W = q.words
    cdef int32_t s
    cdef uint64_t v, u, pm
    cdef uint64_t* V
    if q.n == 0 or m == 0:
        return 0
    if W == 1:
        v = ~(<uint64_t>0)
        for j in range(m):
            s = q.slot[y[j]]
            if s >= 0:
                pm = q.pm[s]
                u = v & pm
                v = (v + u) | (v & ~pm)
        return lcs_prefix(&v, q.n)
    V = q.v
    for t in range(W):
        V[t] = ~(<uint64_t>0)
    for j in range(m):
        s = q.slot[y[j]]
        if s >= 0:
            bitlcs_row(V, V, q.pm + s * W, W)
    return lcs_prefix(V, q.n)


def lcs_pairs(const int32_t[::1] a_ids, const int64_t[::1] a_off, const int32_t[::1] b_ids,
              const int64_t[::1] b_off, const int64_t[::1] ia, const int64_t[::1] ib, int32_t[::1] out,
              Py_ssize_t vocab):
    """``out[k]`` = LCS length of text ``ia[k]`` of a and text ``ib[k]`` of b."""
    cdef Query q
    cdef Py_ssize_t k, i, j
    if query_init(&q, vocab) < 0:
        raise MemoryError()
    try:
        with nogil:
            for k in range(ia.shape[0]):
                i = ia[k]
                j = ib[k]
                if query_set(&q, &a_ids[0] + a_off[i], a_off[i + 1] - a_off[i]) < 0:
                    with gil:
                        raise MemoryError()
                out[k] = <int32_t>query_lcs(&q, &b_ids[0] + b_off[j], b_off[j + 1] - b_off[j])
                query_clear(&q)
    finally:
        query_free(&q)


def cdist_rows(const int32_t[::1] q_ids, const int64_t[::1] q_off, const int32_t[::1] c_ids,
               const int64_t[::1] c_off, Py_ssize_t r0, Py_ssize_t r1, int stat, double cutoff,
               real_t[:, ::1] out, int32_t[:, ::1] hits, Py_ssize_t vocab):
    """Rows ``r0:r1`` of the query x choice matrix, without the GIL.

    ``stat`` >= 0: rouge-score's F / precision / recall (query = candidate) into ``out``, 0 below
    ``cutoff`` (a pair whose length bound scores below it is not computed).  ``stat`` < 0: the LCS
    lengths into ``hits`` (``out`` unused).
    """
    cdef Query q
    cdef Py_ssize_t i, j, lq, lc, nc = c_off.shape[0] - 1, h
    cdef double s
    cdef const int32_t* cbase = &c_ids[0] if c_ids.shape[0] else NULL
    if query_init(&q, vocab) < 0:
        raise MemoryError()
    try:
        with nogil:
            for i in range(r0, r1):
                lq = q_off[i + 1] - q_off[i]
                if query_set(&q, &q_ids[0] + q_off[i], lq) < 0:
                    with gil:
                        raise MemoryError()
                for j in range(nc):
                    lc = c_off[j + 1] - c_off[j]
                    if stat < 0:
                        hits[i - r0, j] = <int32_t>query_lcs(&q, cbase + c_off[j], lc)
                        continue
                    if score_of(stat, lq if lq < lc else lc, lq, lc) < cutoff:
                        out[i, j] = 0
                        continue
                    h = query_lcs(&q, cbase + c_off[j], lc)
                    s = score_of(stat, h, lq, lc)
                    out[i, j] = <real_t>(s if s >= cutoff else 0.0)
                query_clear(&q)
    finally:
        query_free(&q)


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
    int32_t pad
    uint64_t sig0      # the kept text's token signature (bit = hash of a token id, 128 bits)
    uint64_t sig1


cdef struct PVec:
    Post* p
    Py_ssize_t n
    Py_ssize_t cap


cdef int pvec_push(PVec* v, int32_t s, int32_t j, int32_t ly, uint64_t sig0, uint64_t sig1) noexcept nogil:
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
    v.p[v.n].pad = 0
    v.p[v.n].sig0 = sig0
    v.p[v.n].sig1 = sig1
    v.n += 1
    return 0


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


cdef inline Py_ssize_t sig_bound(uint64_t x0, uint64_t x1, Py_ssize_t n, const Post* P) noexcept nogil:
    """An upper bound on the multiset overlap of a text (signature x0/x1, n tokens) and a kept one.

    A signature bit set on one side only stands for at least one token of that side absent from
    the other."""
    cdef Py_ssize_t a = P.ly - RK_POPCOUNT64(P.sig0 & ~x0) - RK_POPCOUNT64(P.sig1 & ~x1)
    cdef Py_ssize_t b = n - RK_POPCOUNT64(x0 & ~P.sig0) - RK_POPCOUNT64(x1 & ~P.sig1)
    return a if a < b else b


def sig_bound_py(uint64_t x0, uint64_t x1, Py_ssize_t n, uint64_t y0, uint64_t y1, Py_ssize_t ly):
    """The signature bound of a text (x0/x1, n tokens) and a kept one (y0/y1, ly tokens) (for tests)."""
    cdef Post P
    P.ly = <int32_t>ly
    P.sig0 = y0
    P.sig1 = y1
    return sig_bound(x0, x1, n, &P)


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


cdef class _Greedy:
    """The Self-Instruct rule, incrementally: feed blocks of texts in input order.

    A text is kept iff its rouge-score F against every text kept before it is at most the
    threshold; a dropped text gets the kept text with the best F (the first on ties) and that F.

    Kept texts are indexed by the tokens of their prefix (tokens sorted rarest first by ``rank``,
    repeats kept): a pair above the threshold has a multiset overlap of at least its LCS, so at
    least the least LCS ``o`` that passes for its two lengths, and then the first ``len - o + 1``
    tokens of each side share a token.  ``o`` grows with both lengths, so the index has two
    parts: a kept text's *short* prefix (enough for partners at least as long as it) and the
    rest of its *long* prefix (enough for any partner).  A new text probes the short index with
    the prefix enough for kept texts at most as long as it, and both indexes with the (short)
    prefix enough for longer kept texts: frequent tokens sit late in the sorted order, so they
    are met only through the short lists of texts made of them.

    A kept text met first through the token at position i of the new text's sorted tokens and
    j of its own shares no token before those (it would have been met earlier), so at most
    min(n - i, m - j) tokens (PPJoin's positional filter); candidates left are then pruned by
    length, then by their bag-of-words overlap, before the bit-parallel LCS.
    """
    cdef double t
    cdef Py_ssize_t vocab
    cdef const int32_t* rank
    cdef object rank_ref
    cdef PVec* post           # token -> (kept slot, position in its sorted tokens, length, signature) of the short prefixes
    cdef PVec* post_l         # token -> the same of the long prefixes' rest
    cdef int32_t* hneed       # partner length -> least LCS the probe needs (the probe's length n: 0..2n+2)
    cdef Py_ssize_t hcap
    cdef IVec tok             # kept tokens in text order
    cdef IVec srt             # kept tokens sorted by id (bag-of-words overlap)
    cdef int64_t* koff        # kept slot -> start in tok / srt
    cdef int64_t* kgid        # kept slot -> index in the input
    cdef int64_t* stamp       # kept slot -> last probe (input index) that met it
    cdef Py_ssize_t kept
    cdef Py_ssize_t kcap
    cdef Py_ssize_t seen      # texts fed so far
    cdef int32_t* plen        # length -> its 4 prefix_lengths (-1: not computed)
    cdef Py_ssize_t plen_cap
    cdef Query q
    cdef IVec cand
    cdef IVec xs              # the probe sorted by id
    cdef IVec xr              # the probe sorted by (rank, id)
    cdef public Py_ssize_t pairs_lcs     # pairs whose LCS was computed (statistics)
    cdef public Py_ssize_t pairs_met     # pairs met through the index
    cdef public Py_ssize_t pairs_cand    # of those, the pairs the positional bound left

    def __cinit__(self, double threshold, const int32_t[::1] rank):
        cdef Py_ssize_t i
        self.t = threshold
        self.vocab = rank.shape[0]
        self.rank_ref = rank
        self.rank = &rank[0] if self.vocab else NULL
        self.post = <PVec*>calloc(self.vocab + 1, sizeof(PVec))
        self.post_l = <PVec*>calloc(self.vocab + 1, sizeof(PVec))
        self.hneed = NULL
        self.hcap = 0
        self.koff = <int64_t*>malloc(17 * sizeof(int64_t))
        self.kgid = <int64_t*>malloc(16 * sizeof(int64_t))
        self.stamp = <int64_t*>malloc(16 * sizeof(int64_t))
        self.kcap = 16
        memset(&self.tok, 0, sizeof(IVec))
        memset(&self.srt, 0, sizeof(IVec))
        memset(&self.cand, 0, sizeof(IVec))
        memset(&self.xs, 0, sizeof(IVec))
        memset(&self.xr, 0, sizeof(IVec))
        self.plen = NULL
        self.plen_cap = 0
        if (self.post == NULL or self.post_l == NULL or self.koff == NULL or self.kgid == NULL or self.stamp == NULL
                or query_init(&self.q, self.vocab) < 0):
            raise MemoryError()
        self.koff[0] = 0

    def __dealloc__(self):
        cdef Py_ssize_t i
        if self.post != NULL:
            for i in range(self.vocab + 1):
                free(self.post[i].p)
            free(self.post)
        if self.post_l != NULL:
            for i in range(self.vocab + 1):
                free(self.post_l[i].p)
            free(self.post_l)
        free(self.tok.p)
        free(self.srt.p)
        free(self.cand.p)
        free(self.xs.p)
        free(self.xr.p)
        free(self.koff)
        free(self.kgid)
        free(self.stamp)
        free(self.plen)
        free(self.hneed)
        query_free(&self.q)

    @property
    def kept_count(self):
        return self.kept

    @property
    def seen_count(self):
        return self.seen

    cdef const int32_t* _prefixes(self, Py_ssize_t l) except NULL nogil:
        cdef Py_ssize_t cap, i
        cdef void* p
        if l >= self.plen_cap:
            cap = 2 * l + 16
            p = realloc(self.plen, 4 * cap * sizeof(int32_t))
            if p == NULL:
                with gil:
                    raise MemoryError()
            self.plen = <int32_t*>p
            for i in range(4 * self.plen_cap, 4 * cap):
                self.plen[i] = -1
            self.plen_cap = cap
        if self.plen[4 * l] < 0:
            prefix_lengths(l, self.t, self.plen + 4 * l)
        return self.plen + 4 * l

    cdef int _sort_probe(self, const int32_t* x, Py_ssize_t n) except -1 nogil:
        """xs: x sorted by id; xr: x sorted by (rank, id)."""
        cdef Py_ssize_t i, j
        cdef int32_t a, ra
        if ivec_reserve(&self.xs, n + 1) < 0 or ivec_reserve(&self.xr, n + 1) < 0:
            with gil:
                raise MemoryError()
        for i in range(n):   # insertion sorts: texts are sentences, and these are cheap next to the index
            a = x[i]
            j = i
            while j > 0 and self.xs.p[j - 1] > a:
                self.xs.p[j] = self.xs.p[j - 1]
                j -= 1
            self.xs.p[j] = a
        self.xs.n = n
        for i in range(n):
            a = self.xs.p[i]
            ra = self.rank[a]
            j = i
            while j > 0 and self.rank[self.xr.p[j - 1]] > ra:
                self.xr.p[j] = self.xr.p[j - 1]
                j -= 1
            self.xr.p[j] = a
        self.xr.n = n
        return 0

    cdef Py_ssize_t _overlap(self, Py_ssize_t s) noexcept nogil:
        """Multiset overlap of the probe (xs) and kept slot s."""
        cdef const int32_t* y = self.srt.p + self.koff[s]
        cdef Py_ssize_t m = self.koff[s + 1] - self.koff[s], i = 0, j = 0, c = 0, n = self.xs.n
        cdef const int32_t* x = self.xs.p
        while i < n and j < m:
            if x[i] == y[j]:
                c += 1
                i += 1
                j += 1
            elif x[i] < y[j]:
                i += 1
            else:
                j += 1
        return c

    cdef int _keep(self, const int32_t* x, Py_ssize_t n, int64_t gid, const int32_t* pre) except -1 nogil:
        cdef Py_ssize_t k, cap, s = self.kept
        cdef void* p
        cdef int32_t a
        cdef PVec* pl
        cdef uint64_t sg[2]
        if s + 1 >= self.kcap:
            cap = 2 * self.kcap
            p = realloc(self.koff, (cap + 1) * sizeof(int64_t))
            if p == NULL:
                with gil:
                    raise MemoryError()
            self.koff = <int64_t*>p
            p = realloc(self.kgid, cap * sizeof(int64_t))
            if p == NULL:
                with gil:
                    raise MemoryError()
            self.kgid = <int64_t*>p
            p = realloc(self.stamp, cap * sizeof(int64_t))
            if p == NULL:
                with gil:
                    raise MemoryError()
            self.stamp = <int64_t*>p
            self.kcap = cap
        if ivec_reserve(&self.tok, self.tok.n + n + 1) < 0 or ivec_reserve(&self.srt, self.srt.n + n + 1) < 0:
            with gil:
                raise MemoryError()
        for k in range(n):
            self.tok.p[self.tok.n + k] = x[k]
            self.srt.p[self.srt.n + k] = self.xs.p[k]
        self.tok.n += n
        self.srt.n += n
        self.koff[s + 1] = self.tok.n
        self.kgid[s] = gid
        self.stamp[s] = -1
        signature(x, n, sg)
        for k in range(pre[1]):
            a = self.xr.p[k]
            if k > 0 and self.xr.p[k - 1] == a:
                continue  # a repeat: listed at its first position
            pl = &self.post[a] if k < pre[0] else &self.post_l[a]
            if pvec_push(pl, <int32_t>s, <int32_t>k, <int32_t>n, sg[0], sg[1]) < 0:
                with gil:
                    raise MemoryError()
        self.kept += 1
        return 0

    cdef int _need_table(self, Py_ssize_t n) except -1 nogil:
        """hneed[ly] = the least LCS a pair of the probe (n tokens) and a text of ly tokens needs to
        pass (n + 1: none), for ly in 0..2n+2 (the same float search as the prefix lengths)."""
        cdef Py_ssize_t ly, cap = 2 * n + 3
        cdef void* p
        if cap > self.hcap:
            p = realloc(self.hneed, cap * sizeof(int32_t))
            if p == NULL:
                with gil:
                    raise MemoryError()
            self.hneed = <int32_t*>p
            self.hcap = cap
        self.hneed[0] = <int32_t>(n + 1)
        for ly in range(1, cap):
            self.hneed[ly] = <int32_t>need_min(n, self.t, ly, ly)
        return 0

    cdef int _one(self, const int32_t* x, Py_ssize_t n, int64_t gid, int64_t* match, double* best_out) except -1 nogil:
        """Decide one text; 1 kept, 0 dropped (``match``/``best_out``: its best kept text and F)."""
        cdef Py_ssize_t k, e, s, ly, ub, h, best_slot = -1, probe, part, top = 2 * n + 2
        cdef const int32_t* pre
        cdef double best = -1.0, v
        cdef int32_t a
        cdef PVec* pl
        cdef const Post* P
        cdef bint qset = False
        cdef double t = self.t
        cdef uint64_t sg[2]
        for k in range(n):
            if x[k] < 0 or x[k] >= self.vocab:
                with gil:
                    raise ValueError(f"token id {x[k]} outside the rank table (0..{self.vocab - 1})")
        self._sort_probe(x, n)
        pre = self._prefixes(n)
        probe = pre[2] if pre[2] > pre[3] else pre[3]
        self.cand.n = 0
        if probe:
            self._need_table(n)
            signature(x, n, sg)
        for k in range(probe):
            a = self.xr.p[k]
            if k > 0 and self.xr.p[k - 1] == a:
                continue
            for part in range(2):
                if part == 0 and k >= pre[2] and k >= pre[3]:
                    continue
                if part == 1 and k >= pre[3]:
                    continue
                pl = &self.post[a] if part == 0 else &self.post_l[a]
                self.pairs_met += pl.n
                for e in range(pl.n):
                    P = pl.p + e
                    # positional bound: were this the first shared token (at k here, P.j there),
                    # every other shared one comes after it on both sides; a pair failing it here
                    # fails it at any later shared token too, so nothing needs marking first
                    ly = P.ly
                    ub = n - k
                    if ly - P.j < ub:
                        ub = ly - P.j
                    if ly <= top:
                        if ub < self.hneed[ly]:
                            continue
                    elif not passes(score_of(STAT_F, ub, ly, n), t):
                        continue
                    h = sig_bound(sg[0], sg[1], n, P)
                    if h < ub:
                        ub = h
                    if ly <= top:
                        if ub < self.hneed[ly]:
                            continue
                    elif not passes(score_of(STAT_F, ub, ly, n), t):
                        continue
                    s = P.s
                    if self.stamp[s] == gid:
                        continue
                    self.stamp[s] = gid
                    if ivec_push(&self.cand, <int32_t>s) < 0:
                        with gil:
                            raise MemoryError()
        self.pairs_cand += self.cand.n
        for e in range(self.cand.n):
            s = self.cand.p[e]
            ly = self.koff[s + 1] - self.koff[s]
            ub = n if n < ly else ly
            v = score_of(STAT_F, ub, ly, n)
            if not (v > t and (v > best or (v == best and s < best_slot))):
                continue
            ub = self._overlap(s)
            v = score_of(STAT_F, ub, ly, n)
            if not (v > t and (v > best or (v == best and s < best_slot))):
                continue
            if not qset:
                if query_set(&self.q, x, n) < 0:
                    with gil:
                        raise MemoryError()
                qset = True
            h = query_lcs(&self.q, self.tok.p + self.koff[s], ly)
            self.pairs_lcs += 1
            v = score_of(STAT_F, h, ly, n)
            if v > t and (v > best or (v == best and s < best_slot)):
                best = v
                best_slot = s
        if qset:
            query_clear(&self.q)
        if best_slot >= 0:
            match[0] = self.kgid[best_slot]
            best_out[0] = best
            return 0
        self._keep(x, n, gid, pre)
        return 1

    def feed(self, const int32_t[::1] ids, const int64_t[::1] off, uint8_t[::1] keep, int64_t[::1] match,
             double[::1] score):
        """Decide texts ``off``-delimited in ``ids`` (the next ones in input order) into the arrays.

        ``keep[i]`` is 1 for a kept text; for a dropped one ``match[i]`` is the input index of its
        best kept text and ``score[i]`` that F (-1 and 0.0 for kept texts).
        """
        cdef Py_ssize_t i, n = off.shape[0] - 1
        cdef int64_t gid
        cdef const int32_t* base = &ids[0] if ids.shape[0] else NULL
        with nogil:
            for i in range(n):
                gid = self.seen + i
                match[i] = -1
                score[i] = 0.0
                keep[i] = <uint8_t>self._one(base + off[i], off[i + 1] - off[i], gid, &match[i], &score[i])
        self.seen += n


include "allpairs.pxi"  # phase 1 on a cluster: every pair above the threshold (cluster29)
