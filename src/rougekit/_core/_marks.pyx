# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Matched positions of many (candidate, reference) entries at once, for highlighting.

The compiled twin of :func:`rougekit._core._explain.batch_marks` (tests hold the two to the same
output). For each entry it writes the hits the counting kernels count (``_pure.ngram_stats``,
``skip_bigram_stats``, ``lcs_union_hits``, ``wlcs_union_hits``: the same loops, tables and
tie-breaks) and a 0/1 byte per token of each side: 1 where a position belongs to a counted unit,
exactly the positions :func:`rougekit.explanation.views.marked` takes from ``rougekit.explain``.

Texts arrive as interned ids in CSR form: ``toks``/``tok_off`` the joined tokens of each text,
``utoks``/``sent_off`` the tokens of every sentence unit and ``text_sents`` the range of sentence
units of each text (so a text's units are contiguous in ``utoks``). Measure codes
(:meth:`rougekit.measures.base.Family.marks_spec`): 0 ROUGE-N (param n), 1 distinct n-grams,
2 skip-bigrams (param skip, < 0 unlimited; flag 0 no unigrams, 1 the script's unigrams, 2 every
token's), 3 ROUGE-L, 4 ROUGE-W (weight), 5 ROUGE-L-DISTINCT. Codes 0-2 mark joined-token
positions, 3-5 positions in the flattened sentence units.
"""

from libc.math cimport pow
from libc.stdint cimport int32_t, int64_t, uint8_t, uint32_t, uint64_t
from libc.stdlib cimport calloc, free, malloc
from libc.string cimport memset

cdef enum:
    DIAG = 1
    UP = 2
    LEFT = 3


# ------------------------------------------------------------------------ hash tables

cdef inline uint64_t _mix(uint64_t h) noexcept nogil:
    h ^= h >> 33
    h *= 0xff51afd7ed558ccdULL
    h ^= h >> 33
    return h


cdef inline uint64_t _window_hash(const int32_t* w, int n) noexcept nogil:
    cdef uint64_t h = 1469598103934665603ULL
    cdef int k
    for k in range(n):
        h = (h ^ <uint64_t><uint32_t>w[k]) * 1099511628211ULL
    return _mix(h)


cdef inline bint _same(const int32_t* a, const int32_t* b, int n) noexcept nogil:
    cdef int k
    for k in range(n):
        if a[k] != b[k]:
            return False
    return True


cdef Py_ssize_t _capacity(Py_ssize_t n) noexcept nogil:
    cdef Py_ssize_t cap = 16
    while cap < 2 * n:
        cap <<= 1
    return cap


cdef double _ngrams(const int32_t* P, Py_ssize_t lp, const int32_t* M, Py_ssize_t lm, int n, bint distinct,
                    uint8_t* pmark, uint8_t* mmark) except -1 nogil:
    """ROUGE-N: hits sum min(count in model, count in peer) over the model's n-grams (1 each when
    ``distinct``); every window of an n-gram found in both texts is marked on its side."""
    cdef Py_ssize_t nm = lm - n + 1, npw = lp - n + 1, cap, mask, i, idx, k
    cdef uint64_t h
    cdef double hits = 0
    if nm <= 0 or npw <= 0:
        return 0.0
    cap = _capacity(nm)
    mask = cap - 1
    cdef int64_t* start = <int64_t*>malloc(cap * sizeof(int64_t))
    cdef int32_t* cm = <int32_t*>calloc(cap, sizeof(int32_t))
    cdef int32_t* cp = <int32_t*>calloc(cap, sizeof(int32_t))
    cdef int32_t* mslot = <int32_t*>malloc(nm * sizeof(int32_t))
    cdef int32_t* pslot = <int32_t*>malloc(npw * sizeof(int32_t))
    try:
        if start == NULL or cm == NULL or cp == NULL or mslot == NULL or pslot == NULL:
            with gil:
                raise MemoryError()
        for i in range(cap):
            start[i] = -1
        for i in range(nm):
            idx = <Py_ssize_t>(_window_hash(M + i, n) & <uint64_t>mask)
            while start[idx] >= 0 and not _same(M + start[idx], M + i, n):
                idx = (idx + 1) & mask
            if start[idx] < 0:
                start[idx] = i
            cm[idx] += 1
            mslot[i] = <int32_t>idx
        for i in range(npw):
            idx = <Py_ssize_t>(_window_hash(P + i, n) & <uint64_t>mask)
            while start[idx] >= 0 and not _same(M + start[idx], P + i, n):
                idx = (idx + 1) & mask
            if start[idx] >= 0:
                cp[idx] += 1
                pslot[i] = <int32_t>idx
            else:
                pslot[i] = -1
        for i in range(cap):
            if start[i] >= 0 and cp[i] > 0:
                hits += 1 if distinct else (cm[i] if cm[i] < cp[i] else cp[i])
        for i in range(npw):
            if pslot[i] >= 0:
                for k in range(n):
                    pmark[i + k] = 1
        for i in range(nm):
            if cp[mslot[i]] > 0:
                for k in range(n):
                    mmark[i + k] = 1
    finally:
        free(start)
        free(cm)
        free(cp)
        free(mslot)
        free(pslot)
    return hits


cdef Py_ssize_t _units(Py_ssize_t L, int skip, int uni, int32_t* ui, int32_t* uj) noexcept nogil:
    """The skip-bigram units of a text of ``L`` tokens as ``_pure._skip_bigram_counts`` makes them:
    (i, j) for i = 0 .. L-2 and i < j <= i + skip + 1 (any j when skip < 0), with the unigram
    (i, -1) before each i's pairs (``uni`` 1), or every token's unigram after them (``uni`` 2).
    Only counts them when ``ui`` is NULL."""
    cdef Py_ssize_t last = L - 1, i, j, jmax, c = 0
    for i in range(last if last > 0 else 0):
        if uni == 1:
            if ui != NULL:
                ui[c] = <int32_t>i
                uj[c] = -1
            c += 1
        jmax = last if skip < 0 else (last if i + skip + 1 > last else i + skip + 1)
        for j in range(i + 1, jmax + 1):
            if ui != NULL:
                ui[c] = <int32_t>i
                uj[c] = <int32_t>j
            c += 1
    if uni == 2:
        for i in range(L):
            if ui != NULL:
                ui[c] = <int32_t>i
                uj[c] = -1
            c += 1
    return c


cdef inline uint64_t _key(const int32_t* T, int32_t i, int32_t j) noexcept nogil:
    return (<uint64_t><uint32_t>T[i] << 32) | <uint64_t>(<uint32_t>(T[j] + 1) if j >= 0 else 0)


cdef double _skips(const int32_t* P, Py_ssize_t lp, const int32_t* M, Py_ssize_t lm, int skip, int uni,
                   uint8_t* pmark, uint8_t* mmark) except -1 nogil:
    """ROUGE-S/SU: clipped counts of the units found in both texts; their positions marked."""
    cdef Py_ssize_t nm = _units(lm, skip, uni, NULL, NULL), npu = _units(lp, skip, uni, NULL, NULL)
    cdef Py_ssize_t cap, mask, i, idx
    cdef uint64_t key
    cdef double hits = 0
    if nm == 0 or npu == 0:
        return 0.0
    cap = _capacity(nm)
    mask = cap - 1
    cdef uint64_t* keys = <uint64_t*>malloc(cap * sizeof(uint64_t))
    cdef uint8_t* used = <uint8_t*>calloc(cap, 1)
    cdef int32_t* cm = <int32_t*>calloc(cap, sizeof(int32_t))
    cdef int32_t* cp = <int32_t*>calloc(cap, sizeof(int32_t))
    cdef int32_t* ui = <int32_t*>malloc((nm if nm > npu else npu) * sizeof(int32_t))
    cdef int32_t* uj = <int32_t*>malloc((nm if nm > npu else npu) * sizeof(int32_t))
    try:
        if keys == NULL or used == NULL or cm == NULL or cp == NULL or ui == NULL or uj == NULL:
            with gil:
                raise MemoryError()
        _units(lm, skip, uni, ui, uj)
        for i in range(nm):
            key = _key(M, ui[i], uj[i])
            idx = <Py_ssize_t>(_mix(key) & <uint64_t>mask)
            while used[idx] and keys[idx] != key:
                idx = (idx + 1) & mask
            used[idx] = 1
            keys[idx] = key
            cm[idx] += 1
        _units(lp, skip, uni, ui, uj)
        for i in range(npu):
            key = _key(P, ui[i], uj[i])
            idx = <Py_ssize_t>(_mix(key) & <uint64_t>mask)
            while used[idx] and keys[idx] != key:
                idx = (idx + 1) & mask
            if used[idx]:
                cp[idx] += 1
                pmark[ui[i]] = 1
                if uj[i] >= 0:
                    pmark[uj[i]] = 1
        for i in range(cap):
            if used[i] and cp[i] > 0:
                hits += cm[i] if cm[i] < cp[i] else cp[i]
        _units(lm, skip, uni, ui, uj)
        for i in range(nm):
            key = _key(M, ui[i], uj[i])
            idx = <Py_ssize_t>(_mix(key) & <uint64_t>mask)
            while keys[idx] != key:
                idx = (idx + 1) & mask
            if cp[idx] > 0:
                mmark[ui[i]] = 1
                if uj[i] >= 0:
                    mmark[uj[i]] = 1
    finally:
        free(keys)
        free(used)
        free(cm)
        free(cp)
        free(ui)
        free(uj)
    return hits


# ------------------------------------------------------------------------ union LCS

cdef struct LcsWork:
    uint8_t* back      # 2 bits per cell of one sentence pair's back-pointer table
    Py_ssize_t back_cap
    double* rows       # two rows of the DP values (the lengths, as doubles, for ROUGE-L)
    Py_ssize_t rows_cap
    int32_t* runs      # two rows of the run lengths (ROUGE-W)
    Py_ssize_t runs_cap
    int32_t* pairs     # (model position, peer position) of the traces of one model sentence
    Py_ssize_t pairs_cap
    uint8_t* aligned   # per model position of the sentence: on some trace
    Py_ssize_t aligned_cap
    uint8_t* hit       # per model position of the sentence: counted
    Py_ssize_t hit_cap
    int32_t* run       # the model positions of the open ROUGE-W run
    Py_ssize_t run_cap


cdef int _grow(void** p, Py_ssize_t* cap, Py_ssize_t need, Py_ssize_t size) except -1 nogil:
    cdef void* q
    if need <= cap[0]:
        return 0
    q = malloc((need + 16) * size)
    if q == NULL:
        with gil:
            raise MemoryError()
    free(p[0])
    p[0] = q
    cap[0] = need + 16
    return 0


cdef inline int _dir(const uint8_t* back, Py_ssize_t k) noexcept nogil:
    return (back[k >> 2] >> ((k & 3) << 1)) & 3


cdef int _trace_dp(const int32_t* M, Py_ssize_t m, const int32_t* P, Py_ssize_t n, bint weighted, double w,
                   LcsWork* wk) except -1 nogil:
    """Fill the back-pointer table of ``_pure._lcs_back`` (or ``_wlcs_back``: the same float operations)."""
    cdef Py_ssize_t a, b, cells = (m + 1) * (n + 1), k, width = n + 1
    cdef double* prev
    cdef double* cur
    cdef double* tmp
    cdef int32_t* lprev
    cdef int32_t* lcur
    cdef int32_t* ltmp
    cdef int32_t t, kk
    cdef int d
    _grow(<void**>&wk.back, &wk.back_cap, (cells >> 2) + 1, 1)
    memset(wk.back, 0, (cells >> 2) + 1)
    _grow(<void**>&wk.rows, &wk.rows_cap, 2 * width, sizeof(double))
    _grow(<void**>&wk.runs, &wk.runs_cap, 2 * width, sizeof(int32_t))
    prev = wk.rows
    cur = wk.rows + width
    lprev = wk.runs
    lcur = wk.runs + width
    for b in range(width):
        prev[b] = 0.0
        lprev[b] = 0
    for a in range(1, m + 1):
        t = M[a - 1]
        cur[0] = 0.0
        lcur[0] = 0
        for b in range(1, n + 1):
            if t == P[b - 1]:
                if weighted:
                    kk = lprev[b - 1]
                    cur[b] = prev[b - 1] + pow(kk + 1, w) - pow(kk, w)
                    lcur[b] = kk + 1
                else:
                    cur[b] = prev[b - 1] + 1.0
                d = DIAG
            elif prev[b] >= cur[b - 1]:
                cur[b] = prev[b]
                lcur[b] = 0
                d = UP
            else:
                cur[b] = cur[b - 1]
                lcur[b] = 0
                d = LEFT
            k = a * width + b
            wk.back[k >> 2] |= <uint8_t>(d << ((k & 3) << 1))
        tmp = prev
        prev = cur
        cur = tmp
        ltmp = lprev
        lprev = lcur
        lcur = ltmp
    return 0


cdef double _union(const int32_t* U, const int64_t* msent, Py_ssize_t nms, const int64_t* psent, Py_ssize_t nps,
                   const int32_t* MT, Py_ssize_t lmt, const int32_t* PT, Py_ssize_t lpt,
                   bint weighted, double w, bint types, int32_t* mu, int32_t* pu,
                   uint8_t* pmark, uint8_t* mmark, LcsWork* wk) except -1 nogil:
    """The union LCS (``_explain.lcs_union_matches``) or WLCS runs (``wlcs_union_runs``) of one
    entry. ``msent``/``psent``: the offsets in ``U`` of the model's and the peer's sentence units
    (``nms + 1`` and ``nps + 1`` entries; marks are relative to the first); ``MT``/``PT`` the tokens of the clipping
    tables (each type once when ``types``); ``mu``/``pu`` zeroed dense tables, left zeroed."""
    cdef Py_ssize_t r, s, j, m, n, a, b, np_, k, open_run, base
    cdef double hits = 0
    cdef const int32_t* M
    cdef int d
    cdef int32_t t
    for k in range(lmt):
        if types:
            mu[MT[k]] = 1
        else:
            mu[MT[k]] += 1
    for k in range(lpt):
        if types:
            pu[PT[k]] = 1
        else:
            pu[PT[k]] += 1
    try:
        for r in range(nms):
            M = U + msent[r]
            m = msent[r + 1] - msent[r]
            if m == 0:
                continue
            np_ = 0
            for s in range(nps):
                n = psent[s + 1] - psent[s]
                np_ += m if m < n else n
            _grow(<void**>&wk.pairs, &wk.pairs_cap, 2 * np_ + 2, sizeof(int32_t))
            _grow(<void**>&wk.aligned, &wk.aligned_cap, m, 1)
            _grow(<void**>&wk.hit, &wk.hit_cap, m, 1)
            _grow(<void**>&wk.run, &wk.run_cap, m, sizeof(int32_t))
            memset(wk.aligned, 0, m)
            memset(wk.hit, 0, m)
            np_ = 0
            for s in range(nps):
                n = psent[s + 1] - psent[s]
                if n == 0:
                    continue
                _trace_dp(M, m, U + psent[s], n, weighted, w, wk)
                a = m
                b = n
                while a != 0 and b != 0:
                    d = _dir(wk.back, a * (n + 1) + b)
                    if d == DIAG:
                        a -= 1
                        b -= 1
                        wk.aligned[a] = 1
                        wk.pairs[2 * np_] = <int32_t>a
                        wk.pairs[2 * np_ + 1] = <int32_t>(psent[s] - psent[0] + b)
                        np_ += 1
                    elif d == UP:
                        a -= 1
                    else:
                        b -= 1
            open_run = 0
            for j in range(m):
                t = M[j]
                if not (wk.aligned[j] and mu[t] > 0 and pu[t] > 0):
                    continue
                if not weighted:
                    wk.hit[j] = 1
                    hits += 1
                else:
                    wk.run[open_run] = <int32_t>j
                    open_run += 1
                    if j + 1 == m or not wk.aligned[j + 1]:
                        hits += pow(<double>open_run, w)
                        for k in range(open_run):
                            wk.hit[wk.run[k]] = 1
                        open_run = 0
                mu[t] -= 1
                pu[t] -= 1
            base = msent[r] - msent[0]
            for j in range(m):
                if wk.hit[j]:
                    mmark[base + j] = 1
            for k in range(np_):
                if wk.hit[wk.pairs[2 * k]]:
                    pmark[wk.pairs[2 * k + 1]] = 1
    finally:
        for k in range(lmt):
            mu[MT[k]] = 0
        for k in range(lpt):
            pu[PT[k]] = 0
    return hits


cdef Py_ssize_t _types(const int32_t* T, Py_ssize_t n, int32_t* seen, int32_t* out) noexcept nogil:
    """The distinct tokens of ``T`` in order of first occurrence (``seen``: a zeroed table, left zeroed)."""
    cdef Py_ssize_t k, c = 0
    for k in range(n):
        if not seen[T[k]]:
            seen[T[k]] = 1
            out[c] = T[k]
            c += 1
    for k in range(c):
        seen[out[k]] = 0
    return c


def batch_marks(int code, int param, int flag, double weight,
                const int32_t[::1] toks, const int64_t[::1] tok_off,
                const int32_t[::1] utoks, const int64_t[::1] sent_off, const int64_t[::1] text_sents,
                const int32_t[::1] peer, const int32_t[::1] model,
                const int64_t[::1] peer_at, const int64_t[::1] model_at,
                double[::1] hits, uint8_t[::1] peer_marks, uint8_t[::1] model_marks, Py_ssize_t vocab):
    """Fill ``hits[e]`` and the marks of entry ``e`` (candidate text ``peer[e]``, reference text
    ``model[e]``) at ``peer_marks[peer_at[e]:]`` and ``model_marks[model_at[e]:]`` (one byte per
    position of the measure's token space, zeroed by the caller). See the module docstring."""
    cdef Py_ssize_t e, ne = peer.shape[0], p, mdl, k, lp, lm
    cdef LcsWork wk
    cdef int32_t* mu = NULL
    cdef int32_t* pu = NULL
    cdef int32_t* ptypes = NULL
    cdef int32_t* mtypes = NULL
    cdef Py_ssize_t npt, nmt, longest = 0
    cdef const int64_t* soff = &sent_off[0]
    cdef const int32_t* T = &toks[0] if toks.shape[0] else NULL
    cdef const int32_t* U = &utoks[0] if utoks.shape[0] else NULL
    memset(&wk, 0, sizeof(LcsWork))
    if code >= 3:
        mu = <int32_t*>calloc(vocab + 1, sizeof(int32_t))
        pu = <int32_t*>calloc(vocab + 1, sizeof(int32_t))
        for k in range(tok_off.shape[0] - 1):
            if tok_off[k + 1] - tok_off[k] > longest:
                longest = tok_off[k + 1] - tok_off[k]
        ptypes = <int32_t*>malloc((longest + 1) * sizeof(int32_t))
        mtypes = <int32_t*>malloc((longest + 1) * sizeof(int32_t))
        if mu == NULL or pu == NULL or ptypes == NULL or mtypes == NULL:
            free(mu)
            free(pu)
            free(ptypes)
            free(mtypes)
            raise MemoryError()
    try:
        with nogil:
            for e in range(ne):
                p = peer[e]
                mdl = model[e]
                if code <= 2:
                    lp = tok_off[p + 1] - tok_off[p]
                    lm = tok_off[mdl + 1] - tok_off[mdl]
                    if code == 2:
                        hits[e] = _skips(T + tok_off[p], lp, T + tok_off[mdl], lm, param, flag,
                                         &peer_marks[peer_at[e]], &model_marks[model_at[e]])
                    else:
                        hits[e] = _ngrams(T + tok_off[p], lp, T + tok_off[mdl], lm, param, code == 1,
                                          &peer_marks[peer_at[e]], &model_marks[model_at[e]])
                elif code == 5:  # the roles swapped, the tables of types (DistinctTypes.reference_stats)
                    npt = _types(T + tok_off[p], tok_off[p + 1] - tok_off[p], mu, ptypes)
                    nmt = _types(T + tok_off[mdl], tok_off[mdl + 1] - tok_off[mdl], mu, mtypes)
                    hits[e] = _union(U, soff + text_sents[p], text_sents[p + 1] - text_sents[p],
                                     soff + text_sents[mdl], text_sents[mdl + 1] - text_sents[mdl],
                                     ptypes, npt, mtypes, nmt, False, 0.0, True, mu, pu,
                                     &model_marks[model_at[e]], &peer_marks[peer_at[e]], &wk)
                else:
                    hits[e] = _union(U, soff + text_sents[mdl], text_sents[mdl + 1] - text_sents[mdl],
                                     soff + text_sents[p], text_sents[p + 1] - text_sents[p],
                                     T + tok_off[mdl], tok_off[mdl + 1] - tok_off[mdl],
                                     T + tok_off[p], tok_off[p + 1] - tok_off[p],
                                     code == 4, weight, False, mu, pu,
                                     &peer_marks[peer_at[e]], &model_marks[model_at[e]], &wk)
    finally:
        free(mu)
        free(pu)
        free(ptypes)
        free(mtypes)
        free(wk.back)
        free(wk.rows)
        free(wk.runs)
        free(wk.pairs)
        free(wk.aligned)
        free(wk.hit)
        free(wk.run)
