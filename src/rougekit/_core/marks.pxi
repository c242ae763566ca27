# Highlights for many (candidate, reference) entries at once (``include "marks.pxi"``, last in
# _batch.pyx): ``batch_marks``, the compiled twin of ``_explain.batch_marks`` (tests hold the two to
# the same output).  Nothing is counted here: each entry goes through the engine's _score_pair
# (score.pxi) with one measure and a Marks record, so the hits are the engine's and the marked
# positions come from its own tables and trace-backs -- ROUGE-N/S/SU: every unit found in both texts
# (grams.pxi's table of the candidate's units, probed by the reference); ROUGE-L/W: the reference
# positions the union-LCS clipping counts (for ROUGE-W: those of the runs it weighs) and the
# candidate positions the traces paired with them.
#
# Texts arrive as interned ids in CSR form: ``toks``/``tok_off`` the joined tokens of each text,
# ``utoks``/``sent_off`` the tokens of every sentence unit and ``text_sents`` the range of sentence
# units of each text (so a text's units are contiguous in ``utoks``).  The measure comes as its
# kernel spec (:meth:`rougekit.measures.base.Family.kernel_spec`, the kind table of kinds.pxi):
# kind N (n), ND (n), S / SU (n: the skip, < 0 unlimited; flag F_ALL_UNIGRAMS: every token's
# unigram beside the skip-bigrams), L, W (weight), LD.  N, ND, S and SU mark joined-token
# positions, L, W and LD positions in the flattened sentence units (kinds.py's JOINED).


cdef inline GEntry* _g_find(GEntry* t, Py_ssize_t msk, uint32_t gen, uint64_t key, const int32_t* pbase,
                            const int32_t* win, int n, bint verify) noexcept nogil:
    """The entry of ``key`` in grams.pxi's table (as ``_g_hit`` finds it, nothing taken), or NULL."""
    cdef Py_ssize_t s = <Py_ssize_t>(mix64(key) & msk)
    cdef GEntry* e
    while True:
        e = &t[s]
        if e.gen != gen:
            return NULL
        if e.key == key and (not verify or _same(pbase + e.pos, win, n)):
            return e
        s = (s + 1) & msk


cdef inline Py_ssize_t _unit_step(Work* w, GEntry* gt, Py_ssize_t msk, uint64_t key, const int32_t* ploc,
                                  const int32_t* win, int n, bint verify, int step, uint8_t* mark,
                                  Py_ssize_t i, Py_ssize_t span, Py_ssize_t j) noexcept nogil:
    """One unit (window ``i:i+span``, plus position ``j`` >= 0) in pass ``step`` of _unit_marks;
    1 for an entry the reference finds first."""
    cdef GEntry* e
    cdef Py_ssize_t t
    if step == 0:
        _g_add(gt, msk, w.ggen, key, <int32_t>i, ploc, n, verify)
        return 0
    e = _g_find(gt, msk, w.ggen, key, ploc, win, n, verify)
    if e == NULL or (step == 2 and e.rgen != w.rgen):
        return 0
    for t in range(span):
        mark[i + t] = 1
    if j >= 0:
        mark[j] = 1
    if e.rgen != w.rgen:
        e.rgen = w.rgen
        return 1
    return 0


cdef Py_ssize_t _units_pass(Work* w, Py_ssize_t msk, int kind, int n, const int32_t* loc, Py_ssize_t L,
                            const int32_t* ploc, int step, uint8_t* mark) noexcept nogil:
    """The units of ``loc`` (local ids; ``_score_pair``'s keys): step 0 inserts the candidate's;
    step 1 marks the reference's units the table has and stamps their entries (returns the entries
    stamped); step 2 marks the candidate's units whose entries are stamped."""
    cdef GEntry* gt = <GEntry*>w.gt.p
    cdef Py_ssize_t i, j, jmax, found = 0
    cdef uint64_t key
    cdef int t
    cdef bint ok
    if kind == K_N:
        for i in range(L - n + 1):
            if step == 1:   # a window with a type the candidate lacks cannot match
                ok = True
                for t in range(n):
                    if loc[i + t] < 0:
                        ok = False
                        break
                if not ok:
                    continue
            found += _unit_step(w, gt, msk, gram_key(loc + i, n), ploc, loc + i, n, n > 2, step, mark, i, n, -1)
        return found
    for i in range(L - 1):   # skip-bigrams (i, j), and for SU the unigram of each start i
        if step == 1 and loc[i] < 0:
            continue
        if kind == K_SU:
            found += _unit_step(w, gt, msk, (<uint64_t>1 << 63) | <uint32_t>loc[i], ploc, NULL, 0, False,
                                step, mark, i, 1, -1)
        jmax = L - 1
        if n >= 0 and i + n + 1 < jmax:
            jmax = i + n + 1
        key = (<uint64_t><uint32_t>loc[i]) << 32
        for j in range(i + 1, jmax + 1):
            if step != 1 or loc[j] >= 0:
                found += _unit_step(w, gt, msk, key | <uint32_t>loc[j], ploc, NULL, 0, False, step, mark, i, 1, j)
    return found


cdef int _unit_marks(Work* w, int kind, int n, const int32_t* ploc, Py_ssize_t lp, const int32_t* mloc,
                     Py_ssize_t lm, Marks* mks) noexcept nogil:
    """Highlights of ROUGE-N (``kind`` K_N, order n) or ROUGE-S/SU (skip distance n) for
    _score_pair: every unit found in both texts marked on both sides (all its copies, clipped
    or not); ``mks.distinct``: the distinct units found. Returns 0 or -1 (out of memory)."""
    cdef Py_ssize_t units = (lp - n + 1) if kind == K_N else _skip_units(lp, n, kind == K_SU), msk, t
    mks.distinct = 0
    if units <= 0 or lm == 0:
        return 0
    if _gt_reset(w, units) < 0:
        return -1
    msk = _gt_mask(w, units)
    w.rgen += 1
    if w.rgen == 0:
        for t in range(w.gt.cap):
            (<GEntry*>w.gt.p)[t].rgen = 0
        w.rgen = 1
    _units_pass(w, msk, kind, n, ploc, lp, ploc, 0, NULL)
    mks.distinct = <double>_units_pass(w, msk, kind, n, mloc, lm, ploc, 1, mks.model)
    _units_pass(w, msk, kind, n, ploc, lp, ploc, 2, mks.peer)
    return 0


def batch_marks(int kind, int param, int flags, double weight,
                const int32_t[::1] toks, const int64_t[::1] tok_off,
                const int32_t[::1] utoks, const int64_t[::1] sent_off, const int64_t[::1] text_sents,
                const int32_t[::1] peer, const int32_t[::1] model,
                const int64_t[::1] peer_at, const int64_t[::1] model_at,
                double[::1] hits, uint8_t[::1] peer_marks, uint8_t[::1] model_marks, Py_ssize_t vocab):
    """Fill ``hits[e]`` and the marks of entry ``e`` (candidate text ``peer[e]``, reference text
    ``model[e]``) at ``peer_marks[peer_at[e]:]`` and ``model_marks[model_at[e]:]`` (one byte per
    position of the measure's token space, zeroed by the caller); see the top of marks.pxi."""
    cdef Py_ssize_t ntext = tok_off.shape[0] - 1, ne = peer.shape[0], e, t, k, ns, b0
    cdef int nms = 1, rc = 0
    cdef MeasureC ms[2]
    cdef double out[12]
    cdef Marks mks
    cdef DocC Pd, Rd
    cdef const DocC* Rp = &Rd
    cdef DocC* d
    cdef int32_t* so
    cdef const int32_t* T = &toks[0] if toks.shape[0] else NULL
    cdef const int32_t* S = &utoks[0] if utoks.shape[0] else NULL
    cdef DocC* docs = <DocC*>malloc((ntext + 1) * sizeof(DocC))
    cdef int32_t* soff = <int32_t*>malloc((sent_off.shape[0] + ntext + 1) * sizeof(int32_t))
    cdef _Work wk = _Work(measures=2)
    memset(&mks, 0, sizeof(Marks))
    wk.w.marks = &mks
    memset(ms, 0, sizeof(ms))
    try:
        if docs == NULL or soff == NULL:
            raise MemoryError()
        # the engine's summaries over the CSR arrays (sentence offsets made relative to each text)
        for t in range(ntext):
            d = &docs[t]
            b0 = sent_off[text_sents[t]]
            ns = text_sents[t + 1] - text_sents[t]
            so = soff + text_sents[t] + t
            so[0] = 0
            for k in range(ns):
                so[k + 1] = <int32_t>(sent_off[text_sents[t] + k + 1] - b0)
            _doc_set(d, <int32_t*>(T + tok_off[t]) if T != NULL else NULL, tok_off[t + 1] - tok_off[t],
                     <int32_t*>(S + b0) if S != NULL else NULL, sent_off[text_sents[t + 1]] - b0, so, ns)
        if kind == K_N or kind == K_ND:
            ms[0].kind = K_N
            ms[0].n = param
        elif (kind == K_S or kind == K_SU) and flags & F_ALL_UNIGRAMS:
            ms[0].kind = K_S   # every token's unigram: ROUGE-1's units beside the skip-bigrams
            ms[0].n = param
            ms[1].kind = K_N
            ms[1].n = 1
            nms = 2
        elif kind == K_S or kind == K_SU:
            ms[0].kind = kind
            ms[0].n = param
        elif kind == K_W:
            ms[0].kind = K_W
            ms[0].w = weight
            ms[0].inv_w = 1.0 / weight if weight != 0 else 0.0
        elif kind == K_L or kind == K_LD:
            ms[0].kind = K_L
        else:
            raise ValueError(f"no highlights for kind {kind}")
        with nogil:
            for e in range(ne):
                mks.np = 0
                if kind == K_LD:   # the roles swapped, distinct clipping tables (lcs.pxi: _ld_docs)
                    if _ld_docs(&wk.w, &docs[peer[e]], &docs[model[e]], &Pd, &Rd, vocab) < 0:
                        rc = -1
                        break
                    mks.peer = &model_marks[model_at[e]]
                    mks.model = &peer_marks[peer_at[e]]
                else:
                    Pd = docs[peer[e]]
                    Rd = docs[model[e]]
                    mks.peer = &peer_marks[peer_at[e]]
                    mks.model = &model_marks[model_at[e]]
                rc = _score_pair(&wk.w, ms, nms, False, False, 0.5, &Pd, &Rp, 1, out, vocab)
                if rc == -2:   # ROUGE-W of a reference without tokens: nothing to match
                    hits[e] = 0.0
                    rc = 0
                    continue
                if rc != 0:
                    break
                if kind == K_ND:
                    hits[e] = mks.distinct
                elif nms == 2:
                    hits[e] = out[1] + out[7]
                else:
                    hits[e] = out[1]
        _count_error(rc, -1)
    finally:
        free(docs)
        free(soff)
        free(mks.pairs.p)
