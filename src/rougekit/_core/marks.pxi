# Highlights for many (candidate, reference) entries at once (``include "marks.pxi"``, last in
# _batch.pyx): ``batch_marks``, the compiled twin of ``_explain.batch_marks`` (tests hold the two to
# the same output).  Nothing is counted here and no kind is named: the entries go through the
# engine's one entry, score_docs (score.pxi), with a MarksAt record, so each spec's rows of the kind
# table (kinds.pxi: ``_spec_measures``) run their marks functions (``KIND_ROWS[k].marks``, set
# beside their count functions in grams.pxi and lcs.pxi; NULL: the kind has no highlights,
# kinds.py's NO_MARKS).  The hits are the engine's and the marked positions come from its own tables
# and trace-backs -- units of the joined tokens (kinds.py's JOINED): every unit found in both texts
# (grams.pxi's table of the candidate's units, probed by the reference, _unit_marks below); units
# of the sentence tokens (the LCS kinds): the reference positions the union-LCS clipping counts (for
# ROUGE-W: those of the runs it weighs) and the candidate positions the traces paired with them.
#
# Texts arrive as interned ids in CSR form: ``toks``/``tok_off`` the joined tokens of each text,
# ``utoks``/``sent_off`` the tokens of every sentence unit and ``text_sents`` the range of sentence
# units of each text (so a text's units are contiguous in ``utoks``).  The measure comes as its
# kernel spec (:meth:`rougekit.measures.base.Family.kernel_spec`: kind, n or skip, flags, weight).


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


cdef Py_ssize_t _units_pass(Work* w, Py_ssize_t msk, int n, int d, bint su, const int32_t* loc, Py_ssize_t L,
                            const int32_t* ploc, int step, uint8_t* mark) noexcept nogil:
    """The units of ``loc`` (local ids; ``_score_pair``'s keys; n > 0: its n-grams, else its
    skip-bigrams of distance ``d`` and with ``su`` the unigram of each start): step 0 inserts the
    candidate's; step 1 marks the reference's units the table has and stamps their entries
    (returns the entries stamped); step 2 marks the candidate's units whose entries are stamped."""
    cdef GEntry* gt = <GEntry*>w.gt.p
    cdef Py_ssize_t i, j, jmax, found = 0
    cdef uint64_t key
    cdef int t
    cdef bint ok
    if n > 0:
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
    for i in range(L - 1):   # skip-bigrams (i, j), and with su the unigram of each start i
        if step == 1 and loc[i] < 0:
            continue
        if su:
            found += _unit_step(w, gt, msk, (<uint64_t>1 << 63) | <uint32_t>loc[i], ploc, NULL, 0, False,
                                step, mark, i, 1, -1)
        jmax = L - 1
        if d >= 0 and i + d + 1 < jmax:
            jmax = i + d + 1
        key = (<uint64_t><uint32_t>loc[i]) << 32
        for j in range(i + 1, jmax + 1):
            if step != 1 or loc[j] >= 0:
                found += _unit_step(w, gt, msk, key | <uint32_t>loc[j], ploc, NULL, 0, False, step, mark, i, 1, j)
    return found


cdef int _unit_marks(Work* w, int n, int d, bint su, const int32_t* ploc, Py_ssize_t lp, const int32_t* mloc,
                     Py_ssize_t lm, Marks* mks) noexcept nogil:
    """Highlights of units of the joined tokens for a row's marks function: n-grams (``n`` > 0)
    or skip-bigrams of distance ``d`` (< 0: any; ``su``: and the unigram of each start) -- every
    unit found in both texts marked on both sides (all its copies, clipped or not). Returns 0 or
    -1 (out of memory)."""
    cdef Py_ssize_t units = (lp - n + 1) if n > 0 else _skip_units(lp, d, su), msk, t
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
    _units_pass(w, msk, n, d, su, ploc, lp, ploc, 0, NULL)
    _units_pass(w, msk, n, d, su, mloc, lm, ploc, 1, mks.model)
    _units_pass(w, msk, n, d, su, ploc, lp, ploc, 2, mks.peer)
    return 0


cdef int _check_marks_at(const DocC* docs, const int32_t[::1] index, const int64_t[::1] at, Py_ssize_t size,
                         Py_ssize_t ne, Py_ssize_t ntext, int kind, str name) except -1:
    """Entry ``e``'s text ``index[e]`` exists and its marks (a byte per position of the kind's token
    space, kinds.JOINED: the joined tokens, else the sentence units') fit at ``at[e]`` in ``size`` bytes."""
    cdef Py_ssize_t e, length
    cdef bint units = kind not in _JOINED   # kinds.py: the kinds counted over the sentence units
    _check_texts(index, ne, ntext, name)
    if at.shape[0] < ne:
        raise ValueError(f"{name}_at: {at.shape[0]} entries for {ne}")
    for e in range(ne):
        length = docs[index[e]].nstok if units else docs[index[e]].ntok
        if at[e] < 0 or at[e] > size - length:
            raise ValueError(f"{name}_at[{e}] = {at[e]}: {length} marks do not fit in {size}")
    return 0


def batch_marks(int kind, int param, int flags, double weight,
                const int32_t[::1] toks, const int64_t[::1] tok_off,
                const int32_t[::1] utoks, const int64_t[::1] sent_off, const int64_t[::1] text_sents,
                const int32_t[::1] peer, const int32_t[::1] model,
                const int64_t[::1] peer_at, const int64_t[::1] model_at,
                double[::1] hits, uint8_t[::1] peer_marks, uint8_t[::1] model_marks):
    """Fill ``hits[e]`` and the marks of entry ``e`` (candidate text ``peer[e]``, reference text
    ``model[e]``) at ``peer_marks[peer_at[e]:]`` and ``model_marks[model_at[e]:]`` (one byte per
    position of the measure's token space, zeroed by the caller); see the top of marks.pxi."""
    cdef Py_ssize_t ne = peer.shape[0], e, e0 = 0, at = 0, vocab = 0
    cdef int nms, q, rc = 0
    cdef MeasureC ms[2]
    cdef MarksAt mka
    cdef DocC* docs = NULL
    cdef int32_t* soff = NULL
    cdef const DocC** pd = NULL
    cdef const DocC** rd
    cdef Py_ssize_t* roff = NULL
    cdef double* out = NULL
    cdef _Work wk = _Work(measures=2)
    memset(&mka, 0, sizeof(MarksAt))
    mka.peer = &peer_marks[0] if peer_marks.shape[0] else NULL
    mka.model = &model_marks[0] if model_marks.shape[0] else NULL
    try:
        if kind < 0 or kind >= K_END or KIND_ROWS[kind].marks == NULL:   # the row says: no highlights
            raise ValueError(f"no highlights for kind {kind}")
        nms = _spec_measures(kind, param, flags, weight, ms)
        docs = _csr_docs(toks, tok_off, utoks, sent_off, text_sents, &soff, &vocab)   # the engine's summaries
        _check_marks_at(docs, peer, peer_at, peer_marks.shape[0], ne, tok_off.shape[0] - 1, kind, "peer")
        _check_marks_at(docs, model, model_at, model_marks.shape[0], ne, tok_off.shape[0] - 1, kind, "model")
        if hits.shape[0] < ne:
            raise ValueError(f"hits: {hits.shape[0]} entries for {ne}")
        pd = <const DocC**>malloc((2 * ne + 2) * sizeof(DocC*))
        roff = <Py_ssize_t*>malloc((ne + 1) * sizeof(Py_ssize_t))
        out = <double*>malloc((ne + 1) * nms * 6 * sizeof(double))
        if pd == NULL or roff == NULL or out == NULL:
            raise MemoryError()
        rd = pd + ne + 1
        for e in range(ne):
            pd[e] = &docs[peer[e]]
            rd[e] = &docs[model[e]]
            roff[e] = e
        roff[ne] = ne
        with nogil:
            while e0 < ne:
                mka.peer_at = &peer_at[e0]
                mka.model_at = &model_at[e0]
                rc = score_docs(&wk.w, ms, nms, False, False, 0.5, pd + e0, rd + e0, roff, ne - e0,
                                out + e0 * nms * 6, vocab, &mka, &at)
                if rc != -2:
                    break
                # ROUGE-W of a reference without tokens: nothing to match (no hits), go on after it
                memset(out + (e0 + at) * nms * 6, 0, nms * 6 * sizeof(double))
                rc = 0
                e0 += at + 1
        _count_error(rc, -1)
        for e in range(ne):
            hits[e] = 0.0
            for q in range(nms):
                hits[e] += out[(e * nms + q) * 6 + 1]
    finally:
        free(docs)
        free(soff)
        free(pd)
        free(roff)
        free(out)
        free(mka.rec.pairs.p)
