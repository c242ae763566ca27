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

from libc.stdlib cimport malloc, calloc, realloc, free, qsort
from libc.string cimport memset, memcpy
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

cdef int grow(void** p, size_t nbytes) noexcept nogil:
    """``p[0]`` reallocated to ``nbytes`` bytes; -1 (``p[0]`` as it was) when there is no memory."""
    cdef void* r = realloc(p[0], nbytes)
    if r == NULL:
        return -1
    p[0] = r
    return 0


cdef int grown(void** p, size_t nbytes) except -1 nogil:
    """``grow``, raising MemoryError when there is no memory."""
    if grow(p, nbytes) < 0:
        with gil:
            raise MemoryError()
    return 0


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
        if grow(<void**>&q.pm, (need + 1) * sizeof(uint64_t)) < 0:
            return -1
        q.pm_cap = need
    if W > q.v_cap:
        if grow(<void**>&q.v, (W + 1) * sizeof(uint64_t)) < 0:
            return -1
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

include "postings.pxi"  # the index: vectors, sorted postings, signatures, bounds


cdef struct Scratch:
    Query q
    IVec cand
    IVec xs                   # the probe sorted by id
    IVec xr                   # the probe sorted by (rank, id)
    int32_t* hneed            # partner length -> least LCS the probe needs (the probe's length n: 0..2n+2)
    Py_ssize_t hcap
    int32_t* rlo              # u -> the least / greatest partner length whose least LCS is at most u
    int32_t* rhi              # (u = 0..n: the tokens left on the probe's side; rlo > rhi: none)
    Py_ssize_t rcap
    int64_t* stamp            # kept slot -> last probe (input index) that met it
    Py_ssize_t met            # statistics of this scratch's probes since the last collect
    Py_ssize_t ncand
    Py_ssize_t lcs
    char pad[128]             # no cache line shared with the next scratch (threads write their own)


cdef void scratch_free(Scratch* w) noexcept nogil:
    free(w.cand.p)
    free(w.xs.p)
    free(w.xr.p)
    free(w.hneed)
    free(w.rlo)
    free(w.rhi)
    free(w.stamp)
    query_free(&w.q)


cdef int need_table(Scratch* w, Py_ssize_t n, double t) except -1 nogil:
    """hneed[ly] = the least LCS a pair of the probe (n tokens) and a text of ly tokens needs to
    pass (n + 1: none), for ly in 0..2n+2 (the same float search as the prefix lengths); rlo/rhi."""
    cdef Py_ssize_t ly, cap = 2 * n + 3, u, h
    if cap > w.hcap:
        grown(<void**>&w.hneed, cap * sizeof(int32_t))
        w.hcap = cap
    if n + 1 > w.rcap:
        grown(<void**>&w.rlo, (n + 1) * sizeof(int32_t))
        grown(<void**>&w.rhi, (n + 1) * sizeof(int32_t))
        w.rcap = n + 1
    for u in range(n + 1):
        w.rlo[u] = <int32_t>cap
        w.rhi[u] = 0
    w.hneed[0] = <int32_t>(n + 1)
    for ly in range(1, cap):
        h = need_min(n, t, ly, ly)
        w.hneed[ly] = <int32_t>h
        if h <= n:
            if ly < w.rlo[h]:
                w.rlo[h] = <int32_t>ly
            if ly > w.rhi[h]:
                w.rhi[h] = <int32_t>ly
    for u in range(1, n + 1):   # a partner length allowed with u tokens left is allowed with more
        if w.rlo[u - 1] < w.rlo[u]:
            w.rlo[u] = w.rlo[u - 1]
        if w.rhi[u - 1] > w.rhi[u]:
            w.rhi[u] = w.rhi[u - 1]
    if t < WIDE_T:   # partners longer than the table (2n + 2) may pass: no upper length
        for u in range(n + 1):
            w.rhi[u] = INT32_MAX_LEN
    return 0


cdef inline bint bounds_pass(const Scratch* w, const Post* P, Py_ssize_t u, Py_ssize_t n, double t,
                             const uint64_t* sg, int pcx) noexcept nogil:
    """Whether the positional bound (u = n - k: the probe's tokens from the shared one on) and the
    signature bound of entry ``P`` leave the pair a chance above ``t`` (needs :func:`need_table`)."""
    # were this the first shared token (at k here, P.j there), every other shared one comes after
    # it on both sides; a pair failing it here fails it at any later shared token too
    cdef Py_ssize_t ly = P.ly, ub = P.ly - P.j, h
    if u < ub:
        ub = u
    if ly <= 2 * n + 2:
        if ub < w.hneed[ly]:
            return False
    elif not passes(score_of(STAT_F, ub, ly, n), t):
        return False
    h = sig_bound(sg[0], sg[1], n, pcx, P)
    if h < ub:
        ub = h
    if ly <= 2 * n + 2:
        return ub >= w.hneed[ly]
    return passes(score_of(STAT_F, ub, ly, n), t)


cdef inline bint beats(double v, double t, double best, Py_ssize_t s, Py_ssize_t slot) noexcept nogil:
    """F ``v`` of kept text ``s`` is above the threshold and better than ``best`` (of ``slot``; the lower slot on ties)."""
    return v > t and (v > best or (v == best and s < slot))


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

    Each token's entries are kept sorted by the kept text's length (the newest few excepted, see
    ``pvec_settle``): a probe binary-searches the lengths that can pass with the tokens it has
    left, and reads only those.  A kept text met first through the token at position i of the
    new text's sorted tokens and j of its own shares no token before those (it would have been
    met earlier), so at most min(n - i, m - j) tokens (PPJoin's positional filter); candidates
    left are then pruned by their token signatures, length and bag-of-words overlap, before the
    bit-parallel LCS.

    ``feed`` decides texts one by one.  ``prepare``/``probe``/``resolve`` decide a block on several
    threads with the same result: ``probe`` (threads, each with its own scratch) finds each text's
    best kept text among those kept before the block, the index being read only; ``resolve`` (one
    thread, in input order) then adds the texts kept earlier in the block and keeps or drops.
    """
    cdef double t
    cdef Py_ssize_t vocab
    cdef const int32_t* rank
    cdef object rank_ref
    cdef PVec* post           # token -> (kept slot, position in its sorted tokens, length, signature) of the short prefixes
    cdef PVec* post_l         # token -> the same of the long prefixes' rest
    cdef Post* mbuf           # scratch of pvec_settle
    cdef Py_ssize_t mbuf_cap
    cdef IVec tok             # kept tokens in text order
    cdef IVec srt             # kept tokens sorted by id (bag-of-words overlap)
    cdef int64_t* koff        # kept slot -> start in tok / srt
    cdef int64_t* kgid        # kept slot -> index in the input
    cdef uint64_t* ksig       # kept slot -> its signature's two words
    cdef Py_ssize_t kept
    cdef Py_ssize_t kcap
    cdef Py_ssize_t seen      # texts fed so far
    cdef int32_t* plen        # length -> its 4 prefix_lengths (-1: not computed)
    cdef Py_ssize_t plen_cap
    cdef Scratch* ws          # per thread scratch (0: the one of feed and resolve)
    cdef Py_ssize_t nws
    cdef public Py_ssize_t pairs_lcs     # pairs whose LCS was computed (statistics)
    cdef public Py_ssize_t pairs_met     # index entries read
    cdef public Py_ssize_t pairs_cand    # kept texts met that passed the positional and signature bounds

    def __cinit__(self, double threshold, const int32_t[::1] rank):
        self.t = threshold
        self.vocab = rank.shape[0]
        self.rank_ref = rank
        self.rank = &rank[0] if self.vocab else NULL
        self.post = <PVec*>calloc(self.vocab + 1, sizeof(PVec))
        self.post_l = <PVec*>calloc(self.vocab + 1, sizeof(PVec))
        self.mbuf = NULL
        self.mbuf_cap = 0
        self.koff = <int64_t*>malloc(17 * sizeof(int64_t))
        self.kgid = <int64_t*>malloc(16 * sizeof(int64_t))
        self.ksig = <uint64_t*>malloc(2 * 16 * sizeof(uint64_t))
        self.kcap = 16
        memset(&self.tok, 0, sizeof(IVec))
        memset(&self.srt, 0, sizeof(IVec))
        self.plen = NULL
        self.plen_cap = 0
        self.ws = NULL
        self.nws = 0
        if self.post == NULL or self.post_l == NULL or self.koff == NULL or self.kgid == NULL or self.ksig == NULL:
            raise MemoryError()
        self.koff[0] = 0
        self.set_workers(1)

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
        free(self.koff)
        free(self.kgid)
        free(self.ksig)
        free(self.plen)
        free(self.mbuf)
        for i in range(self.nws):
            scratch_free(&self.ws[i])
        free(self.ws)

    def set_workers(self, Py_ssize_t k):
        """Make ``k`` scratches (for ``probe``'s worker numbers 0..k-1); never fewer than there are."""
        cdef Py_ssize_t i, s
        if k <= self.nws:
            return
        grown(<void**>&self.ws, k * sizeof(Scratch))
        for i in range(self.nws, k):
            memset(&self.ws[i], 0, sizeof(Scratch))
            self.ws[i].stamp = <int64_t*>malloc(self.kcap * sizeof(int64_t))
            if self.ws[i].stamp == NULL or query_init(&self.ws[i].q, self.vocab) < 0:
                scratch_free(&self.ws[i])
                self.nws = i
                raise MemoryError()
            for s in range(self.kcap):
                self.ws[i].stamp[s] = -1
            self.nws = i + 1

    @property
    def kept_count(self):
        return self.kept

    @property
    def seen_count(self):
        return self.seen

    @property
    def index_memory(self):
        """(entries held, entry slots allocated, bytes allocated) of the index and the kept texts:
        the posting vectors (``sizeof(Post)`` an entry slot), the per-token vector headers, the kept
        tokens (in text order and sorted by id) and the per-slot arrays (offsets, input indices,
        signatures, each scratch's stamps)."""
        cdef Py_ssize_t i, held = 0, cap = 0, b
        for i in range(self.vocab + 1):
            held += self.post[i].n + self.post_l[i].n
            cap += self.post[i].cap + self.post_l[i].cap
        b = cap * sizeof(Post) + 2 * (self.vocab + 1) * sizeof(PVec) + (self.tok.cap + self.srt.cap) * sizeof(int32_t)
        b += self.kcap * (2 * sizeof(int64_t) + 2 * sizeof(uint64_t)) + self.nws * self.kcap * sizeof(int64_t)
        return held, cap, b

    cdef void _collect(self) noexcept nogil:
        cdef Py_ssize_t i
        for i in range(self.nws):
            self.pairs_met += self.ws[i].met
            self.pairs_cand += self.ws[i].ncand
            self.pairs_lcs += self.ws[i].lcs
            self.ws[i].met = 0
            self.ws[i].ncand = 0
            self.ws[i].lcs = 0

    cdef const int32_t* _prefixes(self, Py_ssize_t l) except NULL nogil:
        cdef Py_ssize_t cap, i
        if l >= self.plen_cap:
            cap = 2 * l + 16
            grown(<void**>&self.plen, 4 * cap * sizeof(int32_t))
            for i in range(4 * self.plen_cap, 4 * cap):
                self.plen[i] = -1
            self.plen_cap = cap
        if self.plen[4 * l] < 0:
            prefix_lengths(l, self.t, self.plen + 4 * l)
        return self.plen + 4 * l

    cdef int _sort_probe(self, Scratch* w, const int32_t* x, Py_ssize_t n) except -1 nogil:
        """xs: x sorted by id; xr: x sorted by (rank, id)."""
        cdef Py_ssize_t i, j
        cdef int32_t a, ra
        for i in range(n):
            if x[i] < 0 or x[i] >= self.vocab:
                with gil:
                    raise ValueError(f"token id {x[i]} outside the rank table (0..{self.vocab - 1})")
        if ivec_reserve(&w.xs, n + 1) < 0 or ivec_reserve(&w.xr, n + 1) < 0:
            with gil:
                raise MemoryError()
        for i in range(n):   # insertion sorts: texts are sentences, and these are cheap next to the index
            a = x[i]
            j = i
            while j > 0 and w.xs.p[j - 1] > a:
                w.xs.p[j] = w.xs.p[j - 1]
                j -= 1
            w.xs.p[j] = a
        w.xs.n = n
        for i in range(n):
            a = w.xs.p[i]
            ra = self.rank[a]
            j = i
            while j > 0 and self.rank[w.xr.p[j - 1]] > ra:
                w.xr.p[j] = w.xr.p[j - 1]
                j -= 1
            w.xr.p[j] = a
        w.xr.n = n
        return 0

    cdef Py_ssize_t _overlap(self, const Scratch* w, Py_ssize_t s) noexcept nogil:
        """Multiset overlap of the probe (xs) and kept slot s."""
        cdef const int32_t* y = self.srt.p + self.koff[s]
        cdef Py_ssize_t m = self.koff[s + 1] - self.koff[s], i = 0, j = 0, c = 0, n = w.xs.n
        cdef const int32_t* x = w.xs.p
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

    cdef int _keep(self, const Scratch* w, const int32_t* x, Py_ssize_t n, int64_t gid, const int32_t* pre) except -1 nogil:
        """Index ``x`` (sorted in ``w``) as the next kept text (one thread only)."""
        cdef Py_ssize_t k, cap, s = self.kept, i
        cdef int32_t a
        cdef PVec* pl
        cdef uint64_t sg[2]
        cdef int32_t pcy
        if s + 1 >= self.kcap:
            cap = 2 * self.kcap
            grown(<void**>&self.koff, (cap + 1) * sizeof(int64_t))
            grown(<void**>&self.kgid, cap * sizeof(int64_t))
            grown(<void**>&self.ksig, 2 * cap * sizeof(uint64_t))
            for i in range(self.nws):
                grown(<void**>&self.ws[i].stamp, cap * sizeof(int64_t))
                for k in range(self.kcap, cap):
                    self.ws[i].stamp[k] = -1
            self.kcap = cap
        if ivec_reserve(&self.tok, self.tok.n + n + 1) < 0 or ivec_reserve(&self.srt, self.srt.n + n + 1) < 0:
            with gil:
                raise MemoryError()
        for k in range(n):
            self.tok.p[self.tok.n + k] = x[k]
            self.srt.p[self.srt.n + k] = w.xs.p[k]
        self.tok.n += n
        self.srt.n += n
        self.koff[s + 1] = self.tok.n
        self.kgid[s] = gid
        signature(x, n, sg)
        pcy = pc128(sg[0], sg[1])
        self.ksig[2 * s] = sg[0]
        self.ksig[2 * s + 1] = sg[1]
        for k in range(pre[1]):
            a = w.xr.p[k]
            if k > 0 and w.xr.p[k - 1] == a:
                continue  # a repeat: listed at its first position
            pl = &self.post[a] if k < pre[0] else &self.post_l[a]
            if (pvec_push(pl, <int32_t>s, <int32_t>k, <int32_t>n, pcy, sg[0], sg[1]) < 0
                    or pvec_settle(pl, &self.mbuf, &self.mbuf_cap) < 0):
                with gil:
                    raise MemoryError()
        self.kept += 1
        return 0

    cdef int _scan(self, Scratch* w, const Post* P, Py_ssize_t count, Py_ssize_t u, Py_ssize_t n,
                   const uint64_t* sg, int pcx, int64_t gid) except -1 nogil:
        """Add to ``w.cand`` the kept texts of entries ``P[:count]`` that pass the bounds (u = n - k:
        the probe's tokens from the shared one on)."""
        cdef Py_ssize_t e, s
        cdef int64_t* stamp = w.stamp
        for e in range(count):
            if not bounds_pass(w, P + e, u, n, self.t, sg, pcx):
                continue
            s = P[e].s
            if stamp[s] == gid:
                continue
            stamp[s] = gid
            if ivec_push(&w.cand, <int32_t>s) < 0:
                with gil:
                    raise MemoryError()
        return 0

    cdef int _probe(self, Scratch* w, const int32_t* x, Py_ssize_t n, int64_t gid, Py_ssize_t* best_slot,
                    double* best_f) except -1 nogil:
        """The best kept text of ``x`` (``best_slot``, -1: none above the threshold) and its F, over
        the index as it is; leaves ``x`` sorted in ``w``.  Reads the index only (threads may share it)."""
        cdef Py_ssize_t k, e, s, ly, ub, probe, part, u, e0, e1
        cdef const int32_t* pre
        cdef double best = -1.0
        cdef int32_t a
        cdef PVec* pl
        cdef bint qset = False
        cdef double t = self.t
        cdef uint64_t sg[2]
        cdef int pcx = 0
        self._sort_probe(w, x, n)
        pre = self._prefixes(n)
        probe = pre[2] if pre[2] > pre[3] else pre[3]
        w.cand.n = 0
        best_slot[0] = -1
        if probe:
            need_table(w, n, self.t)
            signature(x, n, sg)
            pcx = pc128(sg[0], sg[1])
        for k in range(probe):
            a = w.xr.p[k]
            if k > 0 and w.xr.p[k - 1] == a:
                continue
            u = n - k
            if w.rlo[u] > w.rhi[u]:
                continue  # no partner length passes with u tokens left
            for part in range(2):
                if part == 1 and k >= pre[3]:
                    continue
                pl = &self.post[a] if part == 0 else &self.post_l[a]
                # the sorted entries whose length can pass (binary search), then the unsorted newest
                e0 = first_len_at_least(pl.p, pl.ns, w.rlo[u])
                e1 = first_len_at_least(pl.p, pl.ns, <Py_ssize_t>w.rhi[u] + 1)
                w.met += (e1 - e0) + (pl.n - pl.ns)
                if e1 > e0:
                    self._scan(w, pl.p + e0, e1 - e0, u, n, sg, pcx, gid)
                if pl.n > pl.ns:
                    self._scan(w, pl.p + pl.ns, pl.n - pl.ns, u, n, sg, pcx, gid)
        w.ncand += w.cand.n
        for e in range(w.cand.n):
            s = w.cand.p[e]
            ly = self.koff[s + 1] - self.koff[s]
            ub = n if n < ly else ly
            if beats(score_of(STAT_F, ub, ly, n), t, best, s, best_slot[0]):
                self._exact(w, x, n, s, ly, &qset, &best, best_slot)
        if qset:
            query_clear(&w.q)
        best_f[0] = best
        return 0

    cdef int _exact(self, Scratch* w, const int32_t* x, Py_ssize_t n, Py_ssize_t s, Py_ssize_t ly, bint* qset,
                    double* best, Py_ssize_t* slot) except -1 nogil:
        """Kept text ``s`` (``ly`` tokens) against ``x``, past the bounds before: the bag overlap bound
        (longer texts), then the LCS; ``best``/``slot`` become its F and ``s`` when it beats them. The
        LCS query of ``x`` is set at the first need (``qset``); the caller clears it."""
        cdef double v
        if n > 64:   # one 64-bit word: the LCS itself costs less than the bag overlap
            if not beats(score_of(STAT_F, self._overlap(w, s), ly, n), self.t, best[0], s, slot[0]):
                return 0
        if not qset[0]:
            if query_set(&w.q, x, n) < 0:
                with gil:
                    raise MemoryError()
            qset[0] = True
        v = score_of(STAT_F, query_lcs(&w.q, self.tok.p + self.koff[s], ly), ly, n)
        w.lcs += 1
        if beats(v, self.t, best[0], s, slot[0]):
            best[0] = v
            slot[0] = s
        return 0

    cdef int _one(self, const int32_t* x, Py_ssize_t n, int64_t gid, int64_t* match, double* best_out) except -1 nogil:
        """Decide one text; 1 kept, 0 dropped (``match``/``best_out``: its best kept text and F)."""
        cdef Py_ssize_t best_slot
        cdef double best
        self._probe(&self.ws[0], x, n, gid, &best_slot, &best)
        if best_slot >= 0:
            match[0] = self.kgid[best_slot]
            best_out[0] = best
            return 0
        self._keep(&self.ws[0], x, n, gid, self._prefixes(n))
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
        try:
            with nogil:
                for i in range(n):
                    gid = self.seen + i
                    match[i] = -1
                    score[i] = 0.0
                    keep[i] = <uint8_t>self._one(base + off[i], off[i + 1] - off[i], gid, &match[i], &score[i])
        finally:
            self._collect()
        self.seen += n

    def prepare(self, const int64_t[::1] off):
        """Before ``probe`` on threads: the prefix lengths of the block's text lengths, computed once."""
        cdef Py_ssize_t i
        for i in range(off.shape[0] - 1):
            self._prefixes(off[i + 1] - off[i])

    def probe(self, const int32_t[::1] ids, const int64_t[::1] off, Py_ssize_t start, Py_ssize_t step,
              Py_ssize_t worker, int64_t[::1] best_slot, double[::1] best_f):
        """Texts start, start + step, ... of the block (the next ones in input order, after
        ``prepare``): their best kept text (a slot, -1: none) and F against the texts kept before the
        block, with scratch ``worker``; several threads may probe one block at once (distinct
        workers and texts), never while ``feed`` or ``resolve`` runs."""
        cdef Py_ssize_t i, n = off.shape[0] - 1, slot
        cdef double f
        cdef const int32_t* base = &ids[0] if ids.shape[0] else NULL
        cdef Scratch* w
        if worker < 0 or worker >= self.nws:
            raise ValueError(f"worker {worker} outside 0..{self.nws - 1} (set_workers)")
        w = &self.ws[worker]
        with nogil:
            i = start
            while i < n:
                self._probe(w, base + off[i], off[i + 1] - off[i], self.seen + i, &slot, &f)
                best_slot[i] = slot
                best_f[i] = f
                i += step

    def resolve(self, const int32_t[::1] ids, const int64_t[::1] off, const int64_t[::1] best_slot,
                const double[::1] best_f, uint8_t[::1] keep, int64_t[::1] match, double[::1] score):
        """After ``probe`` of every text of the block: decide them in input order (as ``feed``),
        adding to each text's best the texts kept earlier in the block."""
        cdef Py_ssize_t i, n = off.shape[0] - 1, k0 = self.kept, s, ly, ub, slot, m
        cdef double best, t = self.t
        cdef const int32_t* base = &ids[0] if ids.shape[0] else NULL
        cdef const int32_t* x
        cdef Scratch* w = &self.ws[0]
        cdef bint qset
        cdef uint64_t sg[2]
        cdef int pcx
        cdef Post P
        try:
            with nogil:
                for i in range(n):
                    x = base + off[i]
                    m = off[i + 1] - off[i]
                    slot = best_slot[i]
                    best = best_f[i]
                    self._sort_probe(w, x, m)
                    qset = False
                    if self.kept > k0:
                        signature(x, m, sg)
                        pcx = pc128(sg[0], sg[1])
                    for s in range(k0, self.kept):   # the texts kept earlier in this block
                        ly = self.koff[s + 1] - self.koff[s]
                        ub = m if m < ly else ly
                        if not beats(score_of(STAT_F, ub, ly, m), t, best, s, slot):
                            continue
                        P.ly = <int32_t>ly
                        P.sig0 = self.ksig[2 * s]
                        P.sig1 = self.ksig[2 * s + 1]
                        P.pcy = pc128(P.sig0, P.sig1)
                        ub = sig_bound(sg[0], sg[1], m, pcx, &P)
                        if beats(score_of(STAT_F, ub, ly, m), t, best, s, slot):
                            self._exact(w, x, m, s, ly, &qset, &best, &slot)
                    if qset:
                        query_clear(&w.q)
                    if slot >= 0:
                        keep[i] = 0
                        match[i] = self.kgid[slot]
                        score[i] = best
                    else:
                        keep[i] = 1
                        match[i] = -1
                        score[i] = 0.0
                        self._keep(w, x, m, self.seen + i, self._prefixes(m))
        finally:
            self._collect()
        self.seen += n


include "allpairs.pxi"  # phase 1 on a cluster: every pair above the threshold (cluster29)
