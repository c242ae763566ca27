# Included at the end of _process.pyx: phase 1 of the Self-Instruct rule on a cluster (issue 29).
#
# _AllPairs indexes the prefixes of EVERY text of an input (not only the kept ones, as _Greedy does)
# and returns, for a block of new texts, every earlier text whose rouge-score F against it is above
# the threshold: the pairs phase 2 (greedy_pairs) needs, whatever it keeps.  It reuses _Greedy's
# pieces read-only: the two-part prefix (prefix_lengths), the posting entries (Post), the positional,
# length and signature bounds and the bit-parallel LCS (Query).  The index is read-only once built,
# so blocks may be probed on several threads at once (each call has its own scratch).
#
# The readable twin is at the end of _process_pure.py.



cdef struct PairOut:
    int64_t* new
    int64_t* old
    double* f
    Py_ssize_t n
    Py_ssize_t cap


cdef int pairout_push(PairOut* o, int64_t a, int64_t b, double v) noexcept nogil:
    cdef Py_ssize_t cap
    cdef void* p
    if o.n == o.cap:
        cap = o.cap * 2 if o.cap else 256
        p = realloc(o.new, cap * sizeof(int64_t))
        if p == NULL:
            return -1
        o.new = <int64_t*>p
        p = realloc(o.old, cap * sizeof(int64_t))
        if p == NULL:
            return -1
        o.old = <int64_t*>p
        p = realloc(o.f, cap * sizeof(double))
        if p == NULL:
            return -1
        o.f = <double*>p
        o.cap = cap
    o.new[o.n] = a
    o.old[o.n] = b
    o.f[o.n] = v
    o.n += 1
    return 0


cdef struct PairScratch:
    Scratch w            # the probe's tables (need_table), candidates, LCS query; stamp: text -> probe + 1
    PairOut out
    const uint8_t* skip  # skip[s] != 0 (s < nskip): text s is left out of the earlier side
    Py_ssize_t nskip


cdef int no_memory() except -1 nogil:
    with gil:
        raise MemoryError()


cdef inline void sort_by_id(const int32_t* x, Py_ssize_t n, int32_t* xs) noexcept nogil:
    """xs = x sorted by id (insertion sort: texts are sentences)."""
    cdef Py_ssize_t i, j
    cdef int32_t a
    for i in range(n):
        a = x[i]
        j = i
        while j > 0 and xs[j - 1] > a:
            xs[j] = xs[j - 1]
            j -= 1
        xs[j] = a


cdef inline void sort_by_rank(const int32_t* xs, Py_ssize_t n, const int32_t* rank, int32_t* xr) noexcept nogil:
    """xr = the id-sorted xs sorted (stably) by rank: the (rank, id) order of the prefixes."""
    cdef Py_ssize_t i, j
    cdef int32_t a, ra
    for i in range(n):
        a = xs[i]
        ra = rank[a]
        j = i
        while j > 0 and rank[xr[j - 1]] > ra:
            xr[j] = xr[j - 1]
            j -= 1
        xr[j] = a


cdef inline Py_ssize_t sorted_overlap(const int32_t* x, Py_ssize_t n, const int32_t* y, Py_ssize_t m) noexcept nogil:
    """Multiset overlap of two id-sorted token lists (an upper bound on their LCS)."""
    cdef Py_ssize_t i = 0, j = 0, c = 0
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


cdef void _copy_pairs(PairOut* o, int64_t[::1] new, int64_t[::1] old, double[::1] f) noexcept:
    cdef Py_ssize_t k
    for k in range(o.n):
        new[k] = o.new[k]
        old[k] = o.old[k]
        f[k] = o.f[k]


cdef class _AllPairs:
    """Every pair (old < new) of an input with rouge-score's rougeL F above ``threshold``, by blocks.

    ``ids``/``off``: the texts (CSR, every id below ``len(rank)``); ``indexed[i]`` 0 keeps text i
    out of the earlier side (a text certain to be dropped, such as an exact repeat, is never a
    kept match).  :meth:`pairs` returns (new, old, F) of the new texts ``j0:j1`` against every
    indexed text before each, the old text as the prediction (as ``process.dedup`` scores them).
    """
    cdef double t
    cdef Py_ssize_t vocab
    cdef Py_ssize_t ntext
    cdef const int32_t* rank
    cdef const int32_t* ids
    cdef const int64_t* off
    cdef object refs
    cdef int32_t* srt         # every text's tokens sorted by id (CSR with off)
    cdef PVec* post           # token -> entries of the short prefixes (text, position, length, signature)
    cdef PVec* post_l         # token -> entries of the long prefixes' rest
    cdef int32_t* plen        # length -> its 4 prefix_lengths (-1: no text that long)
    cdef Py_ssize_t maxlen
    cdef public Py_ssize_t pairs_met    # index entries read by the probes so far (statistics)
    cdef public Py_ssize_t pairs_cand   # texts the positional and signature bounds left
    cdef public Py_ssize_t pairs_lcs    # pairs whose LCS was computed

    def __cinit__(self, double threshold, const int32_t[::1] rank, const int32_t[::1] ids,
                  const int64_t[::1] off, const uint8_t[::1] indexed):
        cdef Py_ssize_t i, k, n, total, a
        cdef int32_t* xr = NULL
        cdef const int32_t* x
        cdef const int32_t* xs
        cdef const int32_t* pre
        cdef uint64_t sg[2]
        cdef PVec* pl
        self.post = NULL
        self.post_l = NULL
        self.srt = NULL
        self.plen = NULL
        self.t = threshold
        self.vocab = rank.shape[0]
        self.ntext = off.shape[0] - 1
        if self.ntext < 0 or indexed.shape[0] != self.ntext:
            raise ValueError("off needs len(texts) + 1 entries and indexed one per text")
        total = off[self.ntext]
        if off[0] != 0 or total > ids.shape[0]:
            raise ValueError("off must start at 0 and end within ids")
        for i in range(self.ntext):
            if off[i + 1] < off[i]:
                raise ValueError("off must not decrease")
        for k in range(total):
            if ids[k] < 0 or ids[k] >= self.vocab:
                raise ValueError(f"token id {ids[k]} outside the rank table (0..{self.vocab - 1})")
        self.refs = (rank, ids, off)
        self.rank = &rank[0] if self.vocab else NULL
        self.ids = &ids[0] if ids.shape[0] else NULL
        self.off = &off[0]
        self.maxlen = 0
        for i in range(self.ntext):
            if off[i + 1] - off[i] > self.maxlen:
                self.maxlen = off[i + 1] - off[i]
        self.post = <PVec*>calloc(self.vocab + 1, sizeof(PVec))
        self.post_l = <PVec*>calloc(self.vocab + 1, sizeof(PVec))
        self.srt = <int32_t*>malloc((total + 1) * sizeof(int32_t))
        self.plen = <int32_t*>malloc(4 * (self.maxlen + 1) * sizeof(int32_t))
        xr = <int32_t*>malloc((self.maxlen + 1) * sizeof(int32_t))
        if self.post == NULL or self.post_l == NULL or self.srt == NULL or self.plen == NULL or xr == NULL:
            free(xr)
            raise MemoryError()
        try:
            with nogil:
                for i in range(4 * (self.maxlen + 1)):
                    self.plen[i] = -1
                for i in range(self.ntext):
                    n = self.off[i + 1] - self.off[i]
                    if self.plen[4 * n] < 0:
                        prefix_lengths(n, self.t, self.plen + 4 * n)
                    x = self.ids + self.off[i] if n else NULL
                    sort_by_id(x, n, self.srt + self.off[i])
                    pre = self.plen + 4 * n
                    if not indexed[i] or pre[1] == 0:
                        continue
                    xs = self.srt + self.off[i]
                    sort_by_rank(xs, n, self.rank, xr)
                    signature(x, n, sg)
                    for k in range(pre[1]):
                        a = xr[k]
                        if k > 0 and xr[k - 1] == a:
                            continue  # a repeat: listed at its first position
                        pl = &self.post[a] if k < pre[0] else &self.post_l[a]
                        if pvec_push(pl, <int32_t>i, <int32_t>k, <int32_t>n, pc128(sg[0], sg[1]), sg[0], sg[1]) < 0:
                            with gil:
                                raise MemoryError()
        finally:
            free(xr)

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
        free(self.srt)
        free(self.plen)

    @property
    def size(self):
        """Texts in the input."""
        return self.ntext

    cdef inline int _meet(self, PairScratch* ps, const Post* P, Py_ssize_t j, Py_ssize_t u, Py_ssize_t n,
                          const uint64_t* sg, int pcx) except -1 nogil:
        """Entry ``P`` of a text before the probe ``j``: a candidate unless skipped, out of the bounds
        or already met."""
        cdef Py_ssize_t s = P.s
        if s < ps.nskip and ps.skip[s]:
            return 0
        if not bounds_pass(&ps.w, P, u, n, self.t, sg, pcx):
            return 0  # (the entry's own fields: checked before the stamp, a read elsewhere)
        if ps.w.stamp[s] == j + 1:
            return 0
        ps.w.stamp[s] = j + 1
        if ivec_push(&ps.w.cand, <int32_t>s) < 0:
            no_memory()
        return 0

    cdef int _probe(self, Py_ssize_t j, PairScratch* ps) except -1 nogil:
        """Every indexed text before ``j`` (and not skipped) whose F against it is above the threshold
        into ``ps.out`` (MemoryError: no memory).  The bounds are _Greedy's (need_table, bounds_pass); each list
        is read in two parts: the forgotten texts' sorted by length (only the lengths that can pass,
        by binary search), then the others in input order up to the probe."""
        cdef Scratch* w = &ps.w
        cdef const int32_t* x = self.ids + self.off[j]
        cdef const int32_t* xs = self.srt + self.off[j]
        cdef Py_ssize_t n = self.off[j + 1] - self.off[j]
        cdef const int32_t* pre = self.plen + 4 * n
        cdef Py_ssize_t probe = pre[2] if pre[2] > pre[3] else pre[3]
        cdef Py_ssize_t k, e, e0, e1, s, ly, ub, h, part, u
        cdef int32_t a
        cdef PVec* pl
        cdef double t = self.t, v
        cdef bint qset = False
        cdef uint64_t sg[2]
        cdef int pcx
        if probe == 0:
            return 0
        if ivec_reserve(&w.xr, n + 1) < 0:
            no_memory()
        sort_by_rank(xs, n, self.rank, w.xr.p)
        need_table(w, n, t)
        signature(x, n, sg)
        pcx = pc128(sg[0], sg[1])
        w.cand.n = 0
        for k in range(probe):
            a = w.xr.p[k]
            if k > 0 and w.xr.p[k - 1] == a:
                continue
            u = n - k
            if w.rlo[u] > w.rhi[u]:
                continue  # no partner length passes with u tokens left
            for part in range(2):
                if part == 0 and k >= pre[2] and k >= pre[3]:
                    continue
                if part == 1 and k >= pre[3]:
                    continue
                pl = &self.post[a] if part == 0 else &self.post_l[a]
                # the forgotten texts' part, sorted by length: only the lengths that can pass
                e0 = first_len_at_least(pl.p, pl.ns, w.rlo[u])
                e1 = first_len_at_least(pl.p, pl.ns, <Py_ssize_t>w.rhi[u] + 1)
                w.met += e1 - e0
                for e in range(e0, e1):
                    if pl.p[e].s < j:
                        self._meet(ps, pl.p + e, j, u, n, sg, pcx)
                for e in range(pl.ns, pl.n):  # then the newer texts, in input order
                    if pl.p[e].s >= j:
                        break  # the rest come after the probe
                    w.met += 1
                    self._meet(ps, pl.p + e, j, u, n, sg, pcx)
        w.ncand += w.cand.n
        sort_by_id(w.cand.p, w.cand.n, w.cand.p)  # the pairs of a new text by old text
        for e in range(w.cand.n):
            s = w.cand.p[e]
            ly = self.off[s + 1] - self.off[s]
            if not passes(score_of(STAT_F, n if n < ly else ly, ly, n), t):
                continue
            if n > 64:  # up to one 64-bit word, the LCS itself costs less than the bag overlap
                ub = sorted_overlap(xs, n, self.srt + self.off[s], ly)
                if not passes(score_of(STAT_F, ub, ly, n), t):
                    continue
            if not qset:
                if query_set(&w.q, x, n) < 0:
                    no_memory()
                qset = True
            h = query_lcs(&w.q, self.ids + self.off[s], ly)
            w.lcs += 1
            v = score_of(STAT_F, h, ly, n)
            if passes(v, t):
                if pairout_push(&ps.out, j, s, v) < 0:
                    no_memory()
        if qset:
            query_clear(&w.q)
        return 0

    def forget(self, const uint8_t[::1] skip):
        """Remove from the index the entries of the texts ``s < len(skip)`` with ``skip[s]`` set (texts
        already dropped: no pair of theirs is asked for again), and sort the other entries of those
        texts by length into each list's sorted part (probes then binary-search it).  Not while
        another thread probes (``rougekit.process.blocks.PrefixIndex`` takes care of it)."""
        cdef Py_ssize_t a, e, m, t, kept, ns = skip.shape[0], cap = 0
        cdef Post* buf = NULL
        cdef PVec* pl
        cdef int part, rc = 0
        if ns > self.ntext:
            raise ValueError(f"skip has {ns} entries for {self.ntext} texts")
        with nogil:
            for part in range(2):
                for a in range(self.vocab + 1):
                    pl = &self.post[a] if part == 0 else &self.post_l[a]
                    m = t = kept = 0
                    for e in range(pl.n):
                        if pl.p[e].s < ns and skip[pl.p[e].s]:
                            continue
                        if e < pl.ns:
                            kept += 1  # still sorted once the others are gone
                        elif pl.p[e].s < ns:
                            t += 1  # the tail is in input order: these come first
                        pl.p[m] = pl.p[e]
                        m += 1
                    pl.ns = kept
                    pl.n = m
                    if pvec_merge(pl, t, &buf, &cap) < 0:
                        rc = -1
                        break
                if rc < 0:
                    break
        free(buf)
        if rc < 0:
            raise MemoryError()

    def pairs(self, Py_ssize_t j0, Py_ssize_t j1, const uint8_t[::1] skip=None):
        """(new, old, F) of every pair with new in ``j0:j1``, old < new indexed and F above the
        threshold: int64, int64 and float64 arrays, by new text (the old ones in index order).
        ``skip``: texts ``s < len(skip)`` with ``skip[s]`` set are left out of the old side too (the
        texts already dropped: phase 1 in waves).
        Runs without the GIL: blocks may be probed on several threads at once."""
        cdef PairScratch ps
        cdef Py_ssize_t j
        if not 0 <= j0 <= j1 <= self.ntext:
            raise ValueError(f"block {j0}:{j1} outside the {self.ntext} texts")
        memset(&ps, 0, sizeof(PairScratch))
        if skip is not None and skip.shape[0]:
            ps.skip = &skip[0]
            ps.nskip = skip.shape[0]
        if query_init(&ps.w.q, self.vocab) < 0:
            raise MemoryError()
        ps.w.stamp = <int64_t*>calloc(self.ntext + 1, sizeof(int64_t))
        try:
            if ps.w.stamp == NULL:
                raise MemoryError()
            with nogil:
                for j in range(j0, j1):
                    self._probe(j, &ps)
            import numpy as np  # here, not at import: rougekit rouge155 loads this module, never numpy

            new = np.empty(ps.out.n, dtype=np.int64)
            old = np.empty(ps.out.n, dtype=np.int64)
            f = np.empty(ps.out.n, dtype=np.float64)
            _copy_pairs(&ps.out, new, old, f)
            self.pairs_met += ps.w.met
            self.pairs_cand += ps.w.ncand
            self.pairs_lcs += ps.w.lcs
            return new, old, f
        finally:
            scratch_free(&ps.w)
            free(ps.out.new)
            free(ps.out.old)
            free(ps.out.f)


def greedy_pairs(const int64_t[::1] new, const int64_t[::1] old, const double[::1] score, uint8_t[::1] keep,
                 int64_t[::1] match, double[::1] best):
    """Phase 2: the rule over pairs above the threshold sorted by (new, old), in input order.

    ``keep`` starts all 1; text i is dropped (``keep[i]`` = 0) iff a kept old text has a pair with
    it, and ``match[i]``/``best[i]`` are then the best such old text (the first on ties) and its F."""
    cdef Py_ssize_t k = 0, m = new.shape[0], i, arg
    cdef double top
    with nogil:
        while k < m:
            i = new[k]
            top = -1.0
            arg = -1
            while k < m and new[k] == i:
                if keep[old[k]] and score[k] > top:
                    top = score[k]
                    arg = old[k]
                k += 1
            if arg >= 0:
                keep[i] = 0
                match[i] = arg
                best[i] = top
