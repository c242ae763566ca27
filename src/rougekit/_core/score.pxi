# All measures of one pair (_score_pair, no GIL): local ids for the candidate's types, the
# references mapped onto them, then per measure the counts of every reference, the script's
# union LCS (bit-parallel rows, trace-back: a match is diagonal, else "up" when c(a-1, b) >=
# c(a, b-1), else "left") and WLCS DP for ROUGE-L/W, and the multi-reference rule (-f A sums,
# -f B keeps the first best recall, max the first best F) with R/P rounded like %7.5f and F from
# the rounded values (docs/rouge155/rounding-and-f.md).
#
# score_docs is the engine's one entry: the batch scorer (_Engine._score_chunk: text, token ids,
# the id job), the per-pair kernels (pair.pxi: _pair_run) and the highlights (marks.pxi:
# batch_marks) all call it.  With a MarksAt record (the highlights; NULL for scoring) each pair's
# one reference is counted by its rows' marks functions, which also mark the positions of the
# counted units on both sides, from the same tables and trace-backs.

cdef struct MarksAt:
    # score_docs' highlights: pair i's 0/1 marks at peer + peer_at[i] (candidate positions) and
    # model + model_at[i] (reference positions); ``rec`` is the record the rows write through
    uint8_t* peer
    uint8_t* model
    const int64_t* peer_at
    const int64_t* model_at
    Marks rec


cdef int score_docs(Work* w, const MeasureC* ms, int nm, bint mode_b, bint mode_max, double alpha,
                    const DocC** peers, const DocC** refs, const Py_ssize_t* roff, Py_ssize_t npairs,
                    double* out, Py_ssize_t nvocab, MarksAt* marks, Py_ssize_t* at) noexcept nogil:
    """Pairs 0 .. npairs - 1 (candidate ``peers[i]``, references ``refs[roff[i]:roff[i + 1]]``),
    the ``nm`` measures of each into ``out + 6 * nm * i`` (reference count, hits, candidate
    count, R, P, F); ``nvocab``: a bound on the ids.  ``marks``: NULL, or the highlights (every
    pair with one reference, each measure's row with a marks function).  Returns 0, or
    _score_pair's error code with the pair in ``at[0]`` (the one raiser: _count_error)."""
    cdef Py_ssize_t i
    cdef int rc = 0
    w.marks = &marks.rec if marks != NULL else NULL
    for i in range(npairs):
        if marks != NULL:
            marks.rec.peer = marks.peer + marks.peer_at[i]
            marks.rec.model = marks.model + marks.model_at[i]
            marks.rec.np = 0
        rc = _score_pair(w, ms, nm, mode_b, mode_max, alpha, peers[i], refs + roff[i], <int>(roff[i + 1] - roff[i]),
                         out + i * nm * 6, nvocab)
        if rc != 0:
            at[0] = i
            break
    w.marks = NULL
    return rc


cdef int _score_pair(Work* w, const MeasureC* ms, int nm, bint mode_b, bint mode_max, double alpha,
                     const DocC* P, const DocC** R, int nr, double* out, Py_ssize_t nvocab) noexcept nogil:
    """All measures of one pair (score_docs); returns 0, -1 (out of memory), -2 (ROUGE-W, empty
    reference) or -3 (a trace-back table above MAX_TRACE_CELLS: docs/limits.md). ``w.marks``:
    NULL, or the highlights of the pair's one reference (a Marks record).  Each measure's row of
    the kind table (kinds.pxi: KIND_ROWS) counts every reference into the PairC's rh/rm/rp/rs
    (its marks function when there are marks); _combine applies the multi-reference rule.  Rows
    flagged ROW_LAST run in a second pass."""
    cdef PairC c
    cdef int qn, rc, last, flags
    cdef bint any_last = False
    cdef const KindRow* row
    if _pair_ids(w, &c, P, R, nr, nvocab) < 0:
        return -1
    for last in range(2):
        for qn in range(nm):
            row = &KIND_ROWS[ms[qn].kind]
            flags = row.flags
            if (flags & ROW_LAST) != last * ROW_LAST:
                any_last = True
                continue
            if c.mks == NULL:
                rc = row.count(w, &c, ms + qn, qn, mode_b)
            else:
                rc = row.marks(w, &c, ms + qn, qn, mode_b)
            if rc < 0:
                return rc
            _combine(&c, mode_b, mode_max, flags & ROW_WEIGHTED, ms[qn].inv_w, alpha, out + qn * 6)
        if not any_last:
            break
    return 0


cdef int _pair_ids(Work* w, PairC* c, const DocC* P, const DocC** R, int nr, Py_ssize_t nvocab) noexcept nogil:
    """The pair's view ``c``: local ids of the candidate's types (0 .. U-1), its counts, and the
    references' tokens mapped onto them (-1: a type the candidate lacks); -1 when out of memory."""
    cdef Py_ssize_t lp = P.ntok, i
    cdef int32_t loc, U = 0   # a local: the loops below keep it in a register
    cdef int32_t* ploc
    cdef int32_t* pcnt
    cdef LocEntry* lt
    c.P = P
    c.R = R
    c.nr = nr
    c.lp = lp
    c.mks = <Marks*>w.marks
    c.nvocab = nvocab
    c.l_done = False
    c.ld_done = False
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
    memset(pcnt, 0, (lp + P.nstok + 1) * sizeof(int32_t))   # U <= lp + nstok
    for i in range(lp):
        loc = _loc_insert(lt, w.lgen, P.tok[i], &U)
        ploc[i] = loc
        pcnt[loc] += 1
    c.ploc = ploc
    c.pcnt = pcnt
    if P.stok == P.tok:
        c.psloc = ploc
    else:
        c.psloc = <int32_t*>w.psloc.p
        for i in range(P.nstok):
            c.psloc[i] = _loc_insert(lt, w.lgen, P.stok[i], &U)
    c.U = U
    if (_need(&w.used, U + 1, 4) < 0 or _need(&w.mu, U + 1, 4) < 0 or _need(&w.pu, U + 1, 4) < 0):
        return -1
    c.used = <int32_t*>w.used.p
    c.mu = <int32_t*>w.mu.p
    c.pu = <int32_t*>w.pu.p
    return _reference_ids(w, c, lt)


cdef int _reference_ids(Work* w, PairC* c, const LocEntry* lt) noexcept nogil:
    """The references' tokens onto the candidate's local ids, the per-reference tables sized."""
    cdef Py_ssize_t i, k, r, total_j = 0, total_s = 0, maxm = 0
    cdef int nr = c.nr
    cdef const DocC** R = c.R
    cdef const DocC* M
    cdef int32_t* mloc
    cdef int32_t* msloc
    for r in range(nr):
        total_j += R[r].ntok
        if R[r].stok != R[r].tok:
            total_s += R[r].nstok
        if R[r].maxsent > maxm:
            maxm = R[r].maxsent
    c.maxm = maxm
    if (_need(&w.mloc, total_j + 1, 4) < 0 or _need(&w.msloc, total_s + 1, 4) < 0
            or _need(&w.mjp, nr + 1, sizeof(int32_t*)) < 0 or _need(&w.msp, nr + 1, sizeof(int32_t*)) < 0
            or _need(&w.moff, nr + 1, sizeof(Py_ssize_t)) < 0
            or _need(&w.rh, nr + 1, 8) < 0 or _need(&w.rm, nr + 1, 8) < 0
            or _need(&w.rp, nr + 1, 8) < 0 or _need(&w.rs, nr + 1, 8) < 0):
        return -1
    mloc = <int32_t*>w.mloc.p
    msloc = <int32_t*>w.msloc.p
    c.mjp = <int32_t**>w.mjp.p
    c.msp = <int32_t**>w.msp.p
    c.moff = <Py_ssize_t*>w.moff.p
    c.rh = <double*>w.rh.p
    c.rm = <double*>w.rm.p
    c.rp = <double*>w.rp.p
    c.rs = <double*>w.rs.p
    total_j = 0
    total_s = 0
    k = 0
    for r in range(nr):
        M = R[r]
        c.mjp[r] = mloc + total_j
        for i in range(M.ntok):
            mloc[total_j + i] = _loc_find(lt, w.lgen, M.tok[i])
        total_j += M.ntok
        if M.stok == M.tok:
            c.msp[r] = c.mjp[r]
        else:
            c.msp[r] = msloc + total_s
            for i in range(M.nstok):
                msloc[total_s + i] = _loc_find(lt, w.lgen, M.stok[i])
            total_s += M.nstok
        c.moff[r] = k
        k += M.nstok
    c.moff[nr] = k
    # every summary of the pair is one sentence (and -b does not cut the joined text apart)
    c.single = c.P.nsent <= 1 and c.P.stok == c.P.tok
    for r in range(nr):
        if R[r].nsent > 1 or R[r].stok != R[r].tok:
            c.single = False
    return 0


cdef inline void _recall_b(PairC* c) noexcept nogil:
    """-f B's score of each reference: its recall rounded like %7.5f (ROUGE-N/S/SU)."""
    cdef int r
    for r in range(c.nr):
        c.rs[r] = _round5(c.rh[r] / c.rm[r]) if c.rm[r] != 0 else 0.0


cdef inline void _combine(const PairC* c, bint mode_b, bint mode_max, bint weighted, double inv_w, double alpha,
                          double* o) noexcept nogil:
    """The measure's six numbers from the references' counts: -f A sums them, -f B keeps the first
    reference with the best ``rs``, max (``mode_max``) the first with the best rounded F."""
    cdef int r
    cdef double H = 0.0, C = 0.0, Pc = 0.0, best = -1.0
    cdef double fin[6]
    if mode_max:
        o[0] = 0.0
        o[1] = 0.0
        o[2] = 0.0
        o[3] = 0.0
        o[4] = 0.0
        o[5] = 0.0
        for r in range(c.nr):
            _final(weighted, inv_w, c.rm[r], c.rh[r], c.rp[r], alpha, fin)
            if fin[5] > best:
                best = fin[5]
                memcpy(o, fin, 6 * sizeof(double))
        return
    if mode_b:
        for r in range(c.nr):
            if c.rs[r] > best:
                best = c.rs[r]
                H = c.rh[r]
                C = c.rm[r]
                Pc = c.rp[r]
    else:
        for r in range(c.nr):
            H += c.rh[r]
            C += c.rm[r]
            Pc += c.rp[r]
    _final(weighted, inv_w, C, H, Pc, alpha, o)


cdef inline void _final(bint weighted, double inv_w, double C, double H, double Pc, double alpha,
                        double* o) noexcept nogil:
    """The six numbers from counts: R and P rounded like ``%7.5f`` (ROUGE-W through x^(1/w)), F
    from the rounded values, rounded (docs/rouge155/rounding-and-f.md)."""
    cdef double rec = 0.0, prec = 0.0
    # one _round5 per value (not one per branch): small enough for the compiler to inline _final
    if C != 0:
        rec = H / C
        if weighted:
            rec = pow(rec, inv_w)
        rec = _round5(rec)
    if Pc != 0:
        prec = H / Pc
        if weighted:
            prec = pow(prec, inv_w)
        prec = _round5(prec)
    o[0] = C
    o[1] = H
    o[2] = Pc
    o[3] = rec
    o[4] = prec
    o[5] = _round5(_f_measure(rec, prec, alpha))


cdef int32_t* _pairs_room(Marks* mks, Py_ssize_t k) noexcept nogil:
    """The pair list with room for ``k`` + 1 more pairs, or NULL (out of memory)."""
    if _need(&mks.pairs, 2 * (mks.np + k + 1), sizeof(int32_t)) < 0:
        return NULL
    return <int32_t*>mks.pairs.p


cdef void _pairs_shift(Marks* mks, Py_ssize_t since, Py_ssize_t da, Py_ssize_t db) noexcept nogil:
    """Pairs ``since:`` from sentence positions to the summaries' sentence-token positions."""
    cdef int32_t* pk = <int32_t*>mks.pairs.p
    cdef Py_ssize_t k
    for k in range(since, mks.np):
        pk[2 * k] += <int32_t>da
        pk[2 * k + 1] += <int32_t>db


cdef void _pairs_marks(Marks* mks, const uint8_t* hit, Py_ssize_t count) noexcept nogil:
    """The reference's hits (``hit``, over its ``count`` sentence tokens) and the candidate
    positions the traces paired with them into the marks; the pair list emptied."""
    cdef const int32_t* pk = <int32_t*>mks.pairs.p
    cdef Py_ssize_t k
    for k in range(mks.np):
        if hit[pk[2 * k]]:
            mks.peer[pk[2 * k + 1]] = 1
    for k in range(count):
        if hit[k]:
            mks.model[k] = 1
    mks.np = 0


cdef int _count_error(int rc, Py_ssize_t pair) except -1:
    """(GIL) The one raiser of _score_pair's codes (0: none; -2 ROUGE-W of a reference with no
    tokens, -3 a trace-back table above MAX_TRACE_CELLS, else out of memory; their texts:
    ``_pure.count_error``, the readable path's too); ``pair`` (an index, < 0: one pair of a
    per-pair kernel) is named in the message."""
    if rc != 0:
        raise _pure_count_error(rc, f"pair {pair + 1}: " if pair >= 0 else "", MAX_TRACE_CELLS)
    return 0
