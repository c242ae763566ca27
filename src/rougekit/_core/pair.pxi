# One pair at a time through the batch engine (``include "pair.pxi"``, last in _batch.pyx): the
# counting kernels of ``rougekit._core`` -- ngram_stats, skip_bigram_stats, lcs_union_hits,
# wlcs_union_hits, wlcs_weight -- with the signatures and results of their pure-Python twins
# (_pure.py).  A call reads one candidate and one reference (token ints; the sentence tokens
# apart from the joined tokens that fill the clipping tables, as under -b) into two DocC summaries
# over dense ids and runs the engine's one entry, score_docs, on them: the counting is the batch path's
# own code (score.pxi, grams.pxi, lcs.pxi).  kind_counts runs several rows of the kind table
# (kinds.pxi) on one pair in one call.
#
# Buffers and the workspace live in a _PairState taken from a small pool for the call, so
# threads never share one; the GIL is released around score_docs for large inputs.

cdef struct PairId:
    int32_t key
    int32_t id          # -1: an empty slot


# work (tokens, skip units, DP cells / 16) above which _score_pair runs without the GIL
cdef double _PAIR_NOGIL_WORK = 4096.0

# raw ids below this index _score_pair's per-type table directly (8 bytes per id); larger or
# negative ints are first mapped to dense ids
cdef uint32_t _PAIR_DIRECT_IDS = 1 << 16

# measures of one pair_counts call at most (orders, the sequence LCS, the union LCS)
cdef enum:
    _PAIR_MAXM = 16

cdef list _PAIR_POOL = []           # idle _PairStates


@cython.final
cdef class _PairState:
    """The buffers of one per-pair call: raw then dense ids of both sides, the workspace."""
    cdef _Work wk
    cdef IntBuf tok[2]          # joined tokens (the clipping tables), candidate and reference
    cdef IntBuf stok[2]         # sentence tokens, concatenated
    cdef IntBuf soff[2]         # sentence offsets into stok
    cdef bint shared[2]         # the sentence tokens are the joined tokens (stok unused)
    cdef Buf table              # PairId open addressing
    cdef int32_t count          # dense ids given in this call
    cdef uint32_t top           # the largest raw id read (as unsigned)
    cdef double weight          # the ROUGE-W weight the workspace's f(k) table was made for
    cdef DocC d[2]
    cdef double out[6]          # _score_pair's numbers: reference count, hits, candidate count, R, P, F
    cdef double outm[6 * _PAIR_MAXM]    # pair_counts: six numbers per measure
    cdef int32_t one[2][2]      # pair_counts: the joined tokens as one sentence (offsets 0, n)

    def __cinit__(self):
        self.wk = _Work(measures=_PAIR_MAXM)   # pair_counts runs up to _PAIR_MAXM measures at once
        self.weight = -1.0

    def __dealloc__(self):
        cdef int k
        for k in range(2):
            free(self.tok[k].data)
            free(self.stok[k].data)
            free(self.soff[k].data)
        free(self.table.p)


cdef inline _PairState _pair_take():
    if _PAIR_POOL:
        return <_PairState>_PAIR_POOL.pop()
    return _PairState()


cdef inline void _pair_give(_PairState s):
    if len(_PAIR_POOL) < 8:
        _PAIR_POOL.append(s)


cdef int _pair_ints(IntBuf* out, object seq, uint32_t* top) except -1:
    """Append the ints of ``seq`` (a list, tuple, array, numpy array or any iterable; C int range);
    ``top`` becomes the largest of them taken as unsigned (a negative int is above every id)."""
    cdef Py_ssize_t i = 0, n
    cdef int32_t* dst
    cdef int32_t v
    cdef uint32_t mx = top[0]
    if not (type(seq) is list or type(seq) is tuple):
        seq = seq.tolist() if hasattr(seq, "tolist") else list(seq)
    n = len(seq)
    _reserve(out, n)
    dst = out.data + out.n
    for x in seq:
        v = x
        dst[i] = v
        if <uint32_t>v > mx:
            mx = <uint32_t>v
        i += 1
    out.n += n
    top[0] = mx
    return 0


cdef int _pair_side(_PairState s, int k, object sents, object tokens) except -1:
    """Side k (0 candidate, 1 reference): its joined tokens and, unless ``sents`` is None, its sentences."""
    if k == 0:
        s.top = 0
    s.tok[k].n = 0
    s.stok[k].n = 0
    s.soff[k].n = 0
    _pair_ints(&s.tok[k], tokens, &s.top)
    _push(&s.soff[k], 0)
    if sents is None:
        _push(&s.soff[k], <int32_t>s.tok[k].n)
        s.shared[k] = True
        return 0
    for sentence in sents:
        _pair_ints(&s.stok[k], sentence, &s.top)
        _push(&s.soff[k], <int32_t>s.stok[k].n)
    s.shared[k] = s.stok[k].n == s.tok[k].n and (
        s.tok[k].n == 0 or memcmp(s.stok[k].data, s.tok[k].data, s.tok[k].n * sizeof(int32_t)) == 0)
    return 0


cdef inline int32_t _pair_id(PairId* t, Py_ssize_t msk, int32_t key, int32_t* count) noexcept nogil:
    cdef Py_ssize_t h = <Py_ssize_t>(mix64(<uint32_t>key) & msk)
    while t[h].id >= 0:
        if t[h].key == key:
            return t[h].id
        h = (h + 1) & msk
    t[h].key = key
    t[h].id = count[0]
    count[0] += 1
    return t[h].id


cdef int _pair_dense(_PairState s) except -1:
    """Replace the raw ints of both sides by dense ids (0, 1, ... in order of appearance), unless
    they are small enough to be the ids themselves (_score_pair indexes a table by them)."""
    cdef Py_ssize_t total = 0, cap, msk, i
    cdef int k
    cdef PairId* t
    cdef int32_t* p
    if s.top < _PAIR_DIRECT_IDS:
        s.count = <int32_t>s.top + 1
        return 0
    for k in range(2):
        total += s.tok[k].n + s.stok[k].n
    cap = pow2_at_least(2 * total + 2)
    if _need(&s.table, cap * sizeof(PairId), 1) < 0:
        raise MemoryError()
    t = <PairId*>s.table.p
    memset(t, 0xFF, cap * sizeof(PairId))
    msk = cap - 1
    s.count = 0
    for k in range(2):
        p = s.tok[k].data
        for i in range(s.tok[k].n):
            p[i] = _pair_id(t, msk, p[i], &s.count)
        if not s.shared[k]:
            p = s.stok[k].data
            for i in range(s.stok[k].n):
                p[i] = _pair_id(t, msk, p[i], &s.count)
    return 0


cdef void _pair_docs(_PairState s) noexcept:
    """Point both DocC summaries at the dense buffers."""
    cdef int k
    for k in range(2):
        _doc_set(&s.d[k], s.tok[k].data, s.tok[k].n, s.tok[k].data if s.shared[k] else s.stok[k].data,
                 s.tok[k].n if s.shared[k] else s.stok[k].n, s.soff[k].data, s.soff[k].n - 1)


cdef int _pair_score(_PairState s, int kind, int n, double weight) except -2:
    """_score_pair of the candidate (side 0) against the reference (side 1) for one measure into
    ``s.out`` (with one reference, -f A: its counts).  Returns 0, or -1 for ROUGE-W with a
    reference without tokens (no counts)."""
    cdef MeasureC m
    _pair_docs(s)
    memset(&m, 0, sizeof(MeasureC))   # no field left to chance (``fold``: 0)
    m.kind = kind
    m.n = n
    m.w = weight
    m.inv_w = 1.0 / weight if weight != 0 else 0.0
    if kind == K_W and weight != s.weight:
        s.wk.w.fwlen[0] = 0     # the f(k) table is for another weight
        s.weight = weight
    return _pair_run(s, &m, 1, s.out)


cdef inline tuple _pair_counts(_PairState s):
    """(hits, reference count, candidate count) of the last _pair_score, as ints."""
    return (int(s.out[1]), int(s.out[0]), int(s.out[2]))


def ngram_stats(peer, model, int n, bint distinct=False):
    """ROUGE-N statistics ``(hits, model_count, peer_count)``; see ``_pure.ngram_stats``.

    ``distinct``: counts of n-gram types (a sequence against itself gives its distinct count).
    """
    if n < 1:
        raise ValueError(f"n must be >= 1, got {n}")
    cdef _PairState s = _pair_take()
    try:
        _pair_side(s, 0, None, peer)
        _pair_side(s, 1, None, model)
        _pair_dense(s)
        _pair_score(s, K_ND if distinct else K_N, n, 0.0)
        return _pair_counts(s)
    finally:
        _pair_give(s)


def skip_bigram_stats(peer, model, int max_skip, bint with_unigrams):
    """ROUGE-S/SU statistics ``(hits, model_count, peer_count)``; see ``_pure.skip_bigram_stats``."""
    cdef _PairState s = _pair_take()
    try:
        _pair_side(s, 0, None, peer)
        _pair_side(s, 1, None, model)
        _pair_dense(s)
        _pair_score(s, K_SU if with_unigrams else K_S, max_skip, 0.0)
        return _pair_counts(s)
    finally:
        _pair_give(s)


def lcs_union_hits(peer_sents, model_sents, peer_tokens, model_tokens):
    """ROUGE-L union-LCS hits with clipping; see ``_pure.lcs_union_hits``."""
    cdef _PairState s = _pair_take()
    try:
        _pair_side(s, 0, peer_sents, peer_tokens)
        _pair_side(s, 1, model_sents, model_tokens)
        _pair_dense(s)
        _pair_score(s, K_L, 0, 0.0)
        return int(s.out[1])
    finally:
        _pair_give(s)


def wlcs_union_hits(peer_sents, model_sents, peer_tokens, model_tokens, double weight):
    """ROUGE-W weighted union-LCS hits (a float); see ``_pure.wlcs_union_hits``."""
    cdef _PairState s = _pair_take()
    try:
        _pair_side(s, 0, peer_sents, peer_tokens)
        _pair_side(s, 1, model_sents, model_tokens)
        _pair_dense(s)
        if _pair_score(s, K_W, 0, weight) < 0:
            return 0.0      # no reference token in any sentence: nothing to match
        return s.out[1]
    finally:
        _pair_give(s)


def wlcs_weight(k, double w):
    """``f(k) = k ** w`` with C ``pow`` (the same double as Perl's ``**``)."""
    return pow(<double>k, w)


cdef int _pair_run(_PairState s, MeasureC* ms, int nm, double* out) except -2:
    """score_docs of s.d[0] against s.d[1] for ``nm`` measures into ``out`` (6 numbers each, one
    reference, -f A: its counts).  Returns 0, or -1 for ROUGE-W with a reference without tokens
    (no counts).  The GIL is released when the work (tokens, skip units, DP cells / 16) is large."""
    cdef const DocC* P = &s.d[0]
    cdef const DocC* R = &s.d[1]
    cdef Py_ssize_t roff[2]
    cdef Py_ssize_t at = 0
    cdef double work = 0.0
    cdef int rc, q, kind
    for q in range(nm):
        kind = ms[q].kind
        if kind == K_L or kind == K_LSEQ or kind == K_LD:
            work += <double>s.d[0].nstok * s.d[1].nstok / 256.0
        elif kind == K_W:
            work += <double>s.d[0].nstok * s.d[1].nstok / 4.0
        elif kind == K_S or kind == K_SU:
            work += <double>_skip_units(s.d[0].ntok, ms[q].n, kind == K_SU) + _skip_units(s.d[1].ntok, ms[q].n, kind == K_SU)
        else:
            work += <double>s.d[0].ntok + s.d[1].ntok
    roff[0] = 0
    roff[1] = 1
    if work >= _PAIR_NOGIL_WORK:
        with nogil:
            rc = score_docs(&s.wk.w, ms, nm, False, False, 0.5, &P, &R, roff, 1, out, s.count, NULL, &at)
    else:
        rc = score_docs(&s.wk.w, ms, nm, False, False, 0.5, &P, &R, roff, 1, out, s.count, NULL, &at)
    if rc == -2:
        return -1
    _count_error(rc, -1)
    return 0


def pair_counts(peer, model, orders, bint lcs, peer_sents=None, model_sents=None):
    """Several measures of one pair in one call; see ``_pure.pair_counts``.

    ``(hits, model count, peer count)`` for each n of ``orders`` (ROUGE-N of the tokens), then, if
    ``lcs``, for the LCS of the two token sequences, then, if sentences are given, for the
    union LCS of the sentences (clipped by the counts of the sentences' tokens joined): one flat tuple.
    """
    cdef MeasureC ms[_PAIR_MAXM]
    cdef int nm = 0, na, q, k, n
    cdef bint lsum = peer_sents is not None
    cdef bint merged
    cdef double* out
    memset(ms, 0, sizeof(ms))
    for n in orders:
        if n < 1:
            raise ValueError(f"n must be >= 1, got {n}")
        if nm >= _PAIR_MAXM - 2:
            raise ValueError(f"at most {_PAIR_MAXM - 2} orders in one call")
        ms[nm].kind = K_N
        ms[nm].n = n
        nm += 1
    if lcs:
        ms[nm].kind = K_LSEQ
        ms[nm].n = 0
        nm += 1
    if lsum:
        if model_sents is None:
            raise ValueError("peer_sents and model_sents go together")
        ms[nm].kind = K_L
        ms[nm].n = 0
        nm += 1
    for q in range(nm):
        ms[q].w = 0.0
        ms[q].inv_w = 0.0
    if nm == 0:
        return ()
    cdef _PairState s = _pair_take()
    try:
        _pair_side(s, 0, peer_sents, peer)
        _pair_side(s, 1, model_sents, model)
        _pair_dense(s)
        out = s.outm
        merged = lsum and s.shared[0] and s.shared[1]   # the sentences are the tokens, cut
        na = nm if merged or not lsum else nm - 1       # measures of the tokens' call
        for k in range(2):
            s.one[k][0] = 0
            s.one[k][1] = <int32_t>s.tok[k].n
            if merged:
                _doc_set(&s.d[k], s.tok[k].data, s.tok[k].n, s.tok[k].data, s.tok[k].n,
                         s.soff[k].data, s.soff[k].n - 1)
            else:
                _doc_set(&s.d[k], s.tok[k].data, s.tok[k].n, s.tok[k].data, s.tok[k].n, s.one[k], 1)
        if na > 0:
            _pair_run(s, ms, na, out)
        if na < nm:     # the union LCS on the sentences' own tokens
            for k in range(2):
                if s.shared[k]:
                    _doc_set(&s.d[k], s.tok[k].data, s.tok[k].n, s.tok[k].data, s.tok[k].n,
                             s.soff[k].data, s.soff[k].n - 1)
                else:
                    _doc_set(&s.d[k], s.stok[k].data, s.stok[k].n, s.stok[k].data, s.stok[k].n,
                             s.soff[k].data, s.soff[k].n - 1)
            _pair_run(s, ms + na, 1, out + 6 * na)
        res = []
        for q in range(nm):
            res.append(int(out[6 * q + 1]))
            res.append(int(out[6 * q]))
            res.append(int(out[6 * q + 2]))
        return tuple(res)
    finally:
        _pair_give(s)


def kind_counts(peer, model, specs, peer_sents=None, model_sents=None):
    """Several rows of the kind table on one pair in one _score_pair call; see ``_pure.kind_counts``.

    ``specs``: ``(kind code, n or skip, weight)`` per measure (``KernelSpec.batch``; any kind but
    ROUGE-W). One flat tuple of ``(hits, model count, peer count)`` per spec, as ints.
    """
    cdef MeasureC ms[_PAIR_MAXM]
    cdef int nm = 0, q
    memset(ms, 0, sizeof(ms))
    for kind, n, weight in specs:
        if nm >= _PAIR_MAXM:
            raise ValueError(f"at most {_PAIR_MAXM} measures in one call")
        if kind not in KINDS or kind == K_W:
            raise ValueError(f"kind code {kind!r} is not one kind_counts counts (ROUGE-W: wlcs_union_hits)")
        if kind in KINDS_WITH_N and n < 1:
            raise ValueError(f"n must be >= 1, got {n}")
        ms[nm].kind = kind
        ms[nm].n = n
        ms[nm].w = 0.0
        ms[nm].inv_w = 0.0
        nm += 1
    if nm == 0:
        return ()
    cdef _PairState s = _pair_take()
    try:
        _pair_side(s, 0, peer_sents, peer)
        _pair_side(s, 1, model_sents, model)
        _pair_dense(s)
        _pair_docs(s)
        _pair_run(s, ms, nm, s.outm)
        res = []
        for q in range(nm):
            res += (int(s.outm[6 * q + 1]), int(s.outm[6 * q]), int(s.outm[6 * q + 2]))
        return tuple(res)
    finally:
        _pair_give(s)
