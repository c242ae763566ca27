# All measures of one pair (_score_pair, no GIL): local ids for the candidate's types, the
# references mapped onto them, then per measure the counts of every reference, the script's
# union LCS (bit-parallel rows, trace-back: a match is diagonal, else "up" when c(a-1, b) >=
# c(a, b-1), else "left") and WLCS DP for ROUGE-L/W, and the multi-reference rule (-f A sums,
# -f B keeps the first best recall, max the first best F) with R/P rounded like %7.5f and F from
# the rounded values (docs/rouge155/rounding-and-f.md).  With a Marks record in the workspace
# (``Work.marks``; the highlights of marks.pxi, one reference) it also marks the positions of the
# counted units on both sides, from the same tables and trace-backs; scoring leaves it NULL.

cdef struct Marks:
    uint8_t* peer      # 0/1 per candidate position (joined tokens: N/S/SU; sentence tokens: L/W)
    uint8_t* model     # 0/1 per reference position
    Buf pairs          # int32 (reference, candidate) sentence-token positions of the LCS traces
    Py_ssize_t np      # pairs listed
    double distinct    # ROUGE-N: the n-grams found in both texts, each once


cdef extern from *:
    """
    /* _batch.pyx's rkb_trace1 that also lists its matches: (a - 1, p) at pk[2 * np[0]], np[0]
       counting them (written at every step, kept at a match: room for min(m, n) + 1 pairs) */
    #define RKB_PAIR_OUT { pk[2 * np[0]] = (int32_t)(a - 1); pk[2 * np[0] + 1] = (int32_t)p; np[0] += mt; }
    typedef void (*rkb_trace1p_fn)(const int32_t*, Py_ssize_t, Py_ssize_t, const uint64_t*, uint8_t*,
                                   const uint64_t*, Py_ssize_t, uint32_t, int32_t*, Py_ssize_t*);
    static void rkb_trace1p_generic(const int32_t* x, Py_ssize_t m, Py_ssize_t n, const uint64_t* rows,
                                    uint8_t* mk, const uint64_t* PM, Py_ssize_t Wb, uint32_t U,
                                    int32_t* pk, Py_ssize_t* np)
    RKB_TRACE1_BODY(RKB_POPCOUNT64, RKB_PAIR_OUT)
    #if (defined(__GNUC__) || defined(__clang__)) && (defined(__x86_64__) || defined(__i386__)) && !defined(__POPCNT__)
    __attribute__((target("popcnt")))
    static void rkb_trace1p_hw(const int32_t* x, Py_ssize_t m, Py_ssize_t n, const uint64_t* rows,
                               uint8_t* mk, const uint64_t* PM, Py_ssize_t Wb, uint32_t U,
                               int32_t* pk, Py_ssize_t* np)
    RKB_TRACE1_BODY(__builtin_popcountll, RKB_PAIR_OUT)
    static rkb_trace1p_fn rkb_trace1_pairs = rkb_trace1p_generic;
    static int rkb_init_pairs(void) {
        __builtin_cpu_init();
        if (__builtin_cpu_supports("popcnt")) { rkb_trace1_pairs = rkb_trace1p_hw; return 1; }
        return 0;
    }
    #else
    static rkb_trace1p_fn rkb_trace1_pairs = rkb_trace1p_generic;
    static int rkb_init_pairs(void) { return 0; }
    #endif
    """
    void rkb_trace1_pairs(const int32_t* x, Py_ssize_t m, Py_ssize_t n, const uint64_t* rows, uint8_t* mk,
                          const uint64_t* PM, Py_ssize_t Wb, uint32_t U, int32_t* pk, Py_ssize_t* np) nogil
    int rkb_init_pairs()

rkb_init_pairs()


cdef int _score_pair(Work* w, const MeasureC* ms, int nm, bint mode_b, bint mode_max, double alpha,
                     const DocC* P, const DocC** R, int nr, double* out, Py_ssize_t nvocab) noexcept nogil:
    """All measures of one pair; returns 0, -1 (out of memory), -2 (ROUGE-W, empty reference) or -3
    (a trace-back table above MAX_TRACE_CELLS: docs/limits.md). ``w.marks``: NULL, or the
    highlights of the pair's one reference (a Marks record, marks.pxi)."""
    cdef Marks* mks = <Marks*>w.marks
    cdef Py_ssize_t lp = P.ntok, i, j, k, r, t, a, b, lm, cap, msk, total_j, total_s, units, pcount
    cdef Py_ssize_t Wb, wj, maxm, m, n, pos, jmax, mcount
    cdef int32_t U = 0, loc, qn
    cdef LocEntry* lt
    cdef GEntry* gt = NULL
    cdef DEntry* dt = NULL
    cdef int32_t* ploc
    cdef int32_t* psloc
    cdef int32_t* pcnt
    cdef int32_t* used
    cdef int32_t* mu
    cdef int32_t* pu
    cdef int32_t* mloc
    cdef int32_t* msloc
    cdef int32_t** mjp
    cdef int32_t** msp
    cdef Py_ssize_t* moff
    cdef uint64_t* PM
    cdef uint64_t* rows
    cdef uint64_t* V
    cdef uint64_t* Vn
    cdef uint64_t v, u, key
    cdef uint8_t* mask
    cdef uint8_t* mk
    cdef const int32_t* x
    cdef const int32_t* y
    cdef const int32_t* win
    cdef double* rh
    cdef double* rm
    cdef double* rp
    cdef double* rs
    cdef double* fw
    cdef double* dprev
    cdef int32_t* lprev
    cdef double H, C, Pc, best, rec, prec, hw, basew, wt
    cdef int64_t hits
    cdef int kind, nn, d
    cdef bint su, ok, l_done = False, single
    cdef Py_ssize_t np0, np1
    cdef int32_t* pk
    cdef int cu, cup, zb
    cdef int32_t take
    cdef const DocC* M
    cdef double* o
    cdef double fin[6]

    # ---- local ids of the candidate's types
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
    if P.stok == P.tok:
        psloc = ploc
    else:
        psloc = <int32_t*>w.psloc.p
        for i in range(P.nstok):
            psloc[i] = _loc_insert(lt, w.lgen, P.stok[i], &U)
    if (_need(&w.used, U + 1, 4) < 0 or _need(&w.mu, U + 1, 4) < 0 or _need(&w.pu, U + 1, 4) < 0):
        return -1
    used = <int32_t*>w.used.p
    mu = <int32_t*>w.mu.p
    pu = <int32_t*>w.pu.p

    # ---- references onto the local ids
    total_j = 0
    total_s = 0
    maxm = 0
    for r in range(nr):
        total_j += R[r].ntok
        if R[r].stok != R[r].tok:
            total_s += R[r].nstok
        if R[r].maxsent > maxm:
            maxm = R[r].maxsent
    if (_need(&w.mloc, total_j + 1, 4) < 0 or _need(&w.msloc, total_s + 1, 4) < 0
            or _need(&w.mjp, nr + 1, sizeof(int32_t*)) < 0 or _need(&w.msp, nr + 1, sizeof(int32_t*)) < 0
            or _need(&w.moff, nr + 1, sizeof(Py_ssize_t)) < 0
            or _need(&w.rh, nr + 1, 8) < 0 or _need(&w.rm, nr + 1, 8) < 0
            or _need(&w.rp, nr + 1, 8) < 0 or _need(&w.rs, nr + 1, 8) < 0):
        return -1
    mloc = <int32_t*>w.mloc.p
    msloc = <int32_t*>w.msloc.p
    mjp = <int32_t**>w.mjp.p
    msp = <int32_t**>w.msp.p
    moff = <Py_ssize_t*>w.moff.p
    rh = <double*>w.rh.p
    rm = <double*>w.rm.p
    rp = <double*>w.rp.p
    rs = <double*>w.rs.p
    total_j = 0
    total_s = 0
    k = 0
    for r in range(nr):
        M = R[r]
        mjp[r] = mloc + total_j
        for i in range(M.ntok):
            mloc[total_j + i] = _loc_find(lt, w.lgen, M.tok[i])
        total_j += M.ntok
        if M.stok == M.tok:
            msp[r] = mjp[r]
        else:
            msp[r] = msloc + total_s
            for i in range(M.nstok):
                msloc[total_s + i] = _loc_find(lt, w.lgen, M.stok[i])
            total_s += M.nstok
        moff[r] = k
        k += M.nstok
    moff[nr] = k
    # every summary of the pair is one sentence (and -b does not cut the joined text apart)
    single = P.nsent <= 1 and P.stok == P.tok
    for r in range(nr):
        if R[r].nsent > 1 or R[r].stok != R[r].tok:
            single = False

    for qn in range(nm):
        kind = ms[qn].kind
        o = out + qn * 6
        if kind == K_N:
            nn = ms[qn].n
            pcount = lp - nn + 1 if lp >= nn else 0
            if nn == 1:
                for r in range(nr):
                    memset(used, 0, (U + 1) * sizeof(int32_t))
                    hits = 0
                    win = mjp[r]
                    for i in range(R[r].ntok):
                        # branch-free: a type the candidate lacks (-1) reads slot U, whose count is 0
                        loc = _or_slot(win[i], U)
                        take = used[loc] < pcnt[loc]
                        used[loc] += take
                        hits += take
                    rh[r] = <double>hits
                    rm[r] = <double>R[r].ntok
                    rp[r] = <double>pcount
            elif nn == 2 and U > _DIRECT_MAX_U and (<Py_ssize_t>U + 1) * (U + 1) <= _B16_MAX and pcount < 65535:
                # long candidates (up to 723 types): the uint16 direct table (hashing was half the time)
                if _bigram_direct(w, ploc, pcount, R, mjp, nr, rh, rm, rp, U) < 0:
                    return -1
            elif nn == 2 and U <= _DIRECT_MAX_U:
                # bigrams of local ids index a U x U table directly (no hashing)
                if _dt_reset(w, <Py_ssize_t>U * U + 1) < 0:
                    return -1
                dt = <DEntry*>w.dt.p
                for i in range(pcount):
                    _d_add(dt, <Py_ssize_t>ploc[i] * U + ploc[i + 1], w.dgen)
                for r in range(nr):
                    lm = R[r].ntok
                    mcount = lm - 1 if lm >= 2 else 0
                    hits = 0
                    if pcount > 0 and mcount > 0:
                        w.drgen += 1
                        win = mjp[r]
                        for i in range(mcount):
                            if win[i] >= 0 and win[i + 1] >= 0 and _d_hit(
                                    dt, <Py_ssize_t>win[i] * U + win[i + 1], w.dgen, w.drgen):
                                hits += 1
                    rh[r] = <double>hits
                    rm[r] = <double>mcount
                    rp[r] = <double>pcount
            elif nn == 2:
                if _bigram_hits(w, ploc, pcount, R, mjp, nr, rh, rm, rp) < 0:
                    return -1
            else:
                if pcount > 0:
                    if _gt_reset(w, pcount) < 0:
                        return -1
                    gt = <GEntry*>w.gt.p
                    msk = _gt_mask(w, pcount)
                    for i in range(pcount):
                        _g_add(gt, msk, w.ggen, gram_key(ploc + i, nn), <int32_t>i, ploc, nn, nn > 2)
                for r in range(nr):
                    lm = R[r].ntok
                    mcount = lm - nn + 1 if lm >= nn else 0
                    hits = 0
                    if pcount > 0 and mcount > 0:
                        w.rgen += 1
                        if w.rgen == 0:   # wrapped: forget every entry's per-reference state
                            for t in range(w.gt.cap):
                                (<GEntry*>w.gt.p)[t].rgen = 0
                            w.rgen = 1
                        for i in range(mcount):
                            win = mjp[r] + i
                            ok = True
                            for t in range(nn):
                                if win[t] < 0:
                                    ok = False
                                    break
                            if ok and _g_hit(gt, msk, w.ggen, w.rgen, gram_key(win, nn), ploc, win, nn, nn > 2):
                                hits += 1
                    rh[r] = <double>hits
                    rm[r] = <double>mcount
                    rp[r] = <double>pcount
            if mode_b:
                for r in range(nr):
                    rs[r] = _round5(rh[r] / rm[r]) if rm[r] != 0 else 0.0
            if mks != NULL and _unit_marks(w, K_N, nn, ploc, lp, mjp[0], R[0].ntok, mks) < 0:
                return -1
        elif kind == K_S or kind == K_SU:
            d = ms[qn].n
            su = kind == K_SU
            pcount = _skip_units(lp, d, su)
            if U <= _DIRECT_MAX_U:
                # skip-bigram (a, b) -> a * U + b, unigram a -> U * U + a: a direct table
                if _dt_reset(w, <Py_ssize_t>U * U + U + 1) < 0:
                    return -1
                dt = <DEntry*>w.dt.p
                for i in range(lp - 1):
                    if su:
                        _d_add(dt, <Py_ssize_t>U * U + ploc[i], w.dgen)
                    jmax = lp - 1
                    if d >= 0 and i + d + 1 < jmax:
                        jmax = i + d + 1
                    t = <Py_ssize_t>ploc[i] * U
                    for j in range(i + 1, jmax + 1):
                        _d_add(dt, t + ploc[j], w.dgen)
                for r in range(nr):
                    lm = R[r].ntok
                    mcount = _skip_units(lm, d, su)
                    hits = 0
                    if pcount > 0 and mcount > 0:
                        w.drgen += 1
                        win = mjp[r]
                        for i in range(lm - 1):
                            if win[i] < 0:
                                continue
                            if su and _d_hit(dt, <Py_ssize_t>U * U + win[i], w.dgen, w.drgen):
                                hits += 1
                            jmax = lm - 1
                            if d >= 0 and i + d + 1 < jmax:
                                jmax = i + d + 1
                            t = <Py_ssize_t>win[i] * U
                            for j in range(i + 1, jmax + 1):
                                if win[j] >= 0 and _d_hit(dt, t + win[j], w.dgen, w.drgen):
                                    hits += 1
                    rh[r] = <double>hits
                    rm[r] = <double>mcount
                    rp[r] = <double>pcount
                if mode_b:
                    for r in range(nr):
                        rs[r] = _round5(rh[r] / rm[r]) if rm[r] != 0 else 0.0
            if U > _DIRECT_MAX_U and pcount > 0:
                if _gt_reset(w, pcount) < 0:
                    return -1
                gt = <GEntry*>w.gt.p
                msk = _gt_mask(w, pcount)
                for i in range(lp - 1):
                    if su:
                        _g_add(gt, msk, w.ggen, (<uint64_t>1 << 63) | <uint32_t>ploc[i], 0, ploc, 0, False)
                    jmax = lp - 1
                    if d >= 0 and i + d + 1 < jmax:
                        jmax = i + d + 1
                    key = (<uint64_t><uint32_t>ploc[i]) << 32
                    for j in range(i + 1, jmax + 1):
                        _g_add(gt, msk, w.ggen, key | <uint32_t>ploc[j], 0, ploc, 0, False)
            for r in range(nr if U > _DIRECT_MAX_U else 0):
                lm = R[r].ntok
                mcount = _skip_units(lm, d, su)
                hits = 0
                if pcount > 0 and mcount > 0:
                    w.rgen += 1
                    if w.rgen == 0:
                        for t in range(w.gt.cap):
                            (<GEntry*>w.gt.p)[t].rgen = 0
                        w.rgen = 1
                    win = mjp[r]
                    for i in range(lm - 1):
                        if win[i] < 0:
                            continue
                        if su and _g_hit(gt, msk, w.ggen, w.rgen, (<uint64_t>1 << 63) | <uint32_t>win[i],
                                         ploc, win, 0, False):
                            hits += 1
                        jmax = lm - 1
                        if d >= 0 and i + d + 1 < jmax:
                            jmax = i + d + 1
                        key = (<uint64_t><uint32_t>win[i]) << 32
                        for j in range(i + 1, jmax + 1):
                            if win[j] >= 0 and _g_hit(gt, msk, w.ggen, w.rgen, key | <uint32_t>win[j],
                                                      ploc, win, 0, False):
                                hits += 1
                rh[r] = <double>hits
                rm[r] = <double>mcount
                rp[r] = <double>pcount
            if mode_b and U > _DIRECT_MAX_U:
                for r in range(nr):
                    rs[r] = _round5(rh[r] / rm[r]) if rm[r] != 0 else 0.0
            if mks != NULL and _unit_marks(w, kind, d, ploc, lp, mjp[0], R[0].ntok, mks) < 0:
                return -1
        elif kind == K_L and <double>maxm * <double>P.maxsent > MAX_TRACE_CELLS:
            return -3   # the same limit whether or not the trace-back is skipped (docs/limits.md)
        elif kind == K_LSEQ or (kind == K_L and single and mks == NULL):
            # LSEQ: the LCS of the whole token sequences.  ROUGE-L with one sentence on each side
            # (sentence tokens == joined tokens): the union of one LCS is that LCS, whose tokens
            # are within both sides' counts, so its hits are the LCS length too (no trace-back)
            for r in range(nr):
                lm = _seq_lcs(w, ploc, lp, mjp[r], R[r].ntok, U)
                if lm < 0:
                    return -1
                rh[r] = <double>lm
                rm[r] = <double>R[r].ntok
                rp[r] = <double>lp
                rs[r] = (rh[r] / rm[r]) if R[r].ntok > 0 else 0.0
        elif kind == K_L:
            if _need(&w.mask, moff[nr] + 1, 1) < 0:
                return -1
            mask = <uint8_t*>w.mask.p
            if not l_done:   # the union-LCS masks do not depend on the measure: once per pair
                memset(mask, 0, moff[nr] + 1)
                Wb = (P.maxsent + 63) >> 6
                if U > 0 and Wb > 0 and maxm > 0:
                    if (_need_zeroed(&w.pm, (<Py_ssize_t>U + 1) * Wb, 8) < 0   # row U: types the candidate lacks
                            or _need(&w.rows, (maxm + 1) * Wb, 8) < 0):
                        return -1
                    PM = <uint64_t*>w.pm.p
                    rows = <uint64_t*>w.rows.p
                    for j in range(P.nsent):
                        y = psloc + P.soff[j]
                        n = P.soff[j + 1] - P.soff[j]
                        if n == 0:
                            continue
                        wj = (n + 63) >> 6
                        _match_bits(PM, y, n, Wb, True)
                        for t in range(wj):
                            rows[t] = ~(<uint64_t>0)
                        for r in range(nr):
                            M = R[r]
                            for i in range(M.nsent):
                                m = M.soff[i + 1] - M.soff[i]
                                if m == 0:
                                    continue
                                x = msp[r] + M.soff[i]
                                if wj == 1:  # peer sentence of at most 64 tokens: one word per row
                                    v = rows[0]
                                    for a in range(1, m + 1):
                                        # a type the candidate lacks (-1) reads row U, all zero: v stays
                                        u = PM[<Py_ssize_t>_or_slot(x[a - 1], U) * Wb]
                                        v = (v + (v & u)) | (v & ~u)
                                        rows[a] = v
                                elif wj < _WIDE_WORDS or not rkb_rows_wide(x, m, PM, Wb, wj, rows, 1, <uint32_t>U):
                                  for a in range(1, m + 1):
                                    V = rows + (a - 1) * wj
                                    Vn = V + wj
                                    loc = x[a - 1]
                                    if loc < 0:
                                        for t in range(wj):
                                            Vn[t] = V[t]
                                        continue
                                    bitlcs_row(V, Vn, PM + <Py_ssize_t>loc * Wb, wj)
                                mk = mask + moff[r] + M.soff[i]
                                pk = NULL
                                if mks != NULL:   # highlights: list the trace's (reference, candidate) pairs
                                    pk = _pairs_room(mks, m if m < n else n)
                                    if pk == NULL:
                                        return -1
                                    np0 = mks.np
                                if wj == 1:
                                    if pk == NULL:
                                        rkb_trace1(x, m, n, rows, mk, PM, Wb, <uint32_t>U)
                                    else:
                                        rkb_trace1_pairs(x, m, n, rows, mk, PM, Wb, <uint32_t>U, pk, &mks.np)
                                        _pairs_shift(mks, np0, M.soff[i], P.soff[j])
                                    continue
                                # trace-back; cu = c(a, b) and cup = c(a-1, b) are kept up to date
                                # (a zero bit b-1 in row a means c(a, b) = c(a, b-1) + 1)
                                a = m
                                b = n
                                cu = lcs_prefix(rows + a * wj, b)
                                cup = lcs_prefix(rows + (a - 1) * wj, b)
                                while cu > 0:  # c(a, b) = 0: no match left in x[:a] x y[:b]
                                    if x[a - 1] == y[b - 1]:
                                        a -= 1
                                        b -= 1
                                        mk[a] = 1
                                        if pk != NULL:
                                            pk[2 * mks.np] = <int32_t>(M.soff[i] + a)
                                            pk[2 * mks.np + 1] = <int32_t>(P.soff[j] + b)
                                            mks.np += 1
                                        if a == 0 or b == 0:
                                            break
                                        cu -= 1
                                        cup = lcs_prefix(rows + (a - 1) * wj, b)
                                    else:
                                        zb = <int>((~rows[a * wj + ((b - 1) >> 6)] >> ((b - 1) & 63)) & 1)
                                        if cup >= cu - zb:
                                            a -= 1
                                            if a == 0:
                                                break
                                            cu = cup
                                            cup = lcs_prefix(rows + (a - 1) * wj, b)
                                        else:
                                            cu -= zb
                                            cup -= <int>((~rows[(a - 1) * wj + ((b - 1) >> 6)] >> ((b - 1) & 63)) & 1)
                                            b -= 1
                                            if b == 0:
                                                break
                        _match_bits(PM, y, n, Wb, False)
                l_done = True
            for r in range(nr):
                M = R[r]
                hits = 0
                if U > 0:
                    memset(mu, 0, (U + 1) * sizeof(int32_t))
                    win = mjp[r]
                    for i in range(M.ntok):
                        mu[_or_slot(win[i], U)] += 1
                    mu[U] = 0
                    memcpy(pu, pcnt, (U + 1) * sizeof(int32_t))   # pcnt[U] is 0
                    x = msp[r]
                    mk = mask + moff[r]
                    if mks == NULL:
                        hits = _union_clip(x, mk, M.nstok, mu, pu, U, False)
                    else:   # the mask becomes the hits; the candidate positions traced with them
                        hits = _union_clip(x, mk, M.nstok, mu, pu, U, True)
                        _pairs_marks(mks, mk, M.nstok)
                rh[r] = <double>hits
                rm[r] = <double>M.nstok
                rp[r] = <double>lp
                rs[r] = (rh[r] / rm[r]) if M.nstok > 0 else 0.0
        else:  # K_W: the one batch kind left (_Engine and _pair_score take no other code)
            wt = ms[qn].w
            if w.fwlen[qn] < maxm + 2:
                fw = <double*>realloc(w.fw[qn], (maxm + 2) * sizeof(double))
                if fw == NULL:
                    return -1
                for k in range(maxm + 2):
                    fw[k] = pow(<double>k, wt)
                w.fw[qn] = fw
                w.fwlen[qn] = maxm + 2
            fw = w.fw[qn]
            n = P.maxsent
            if <double>maxm * <double>n > MAX_TRACE_CELLS:
                return -3
            if (_need(&w.mask, moff[nr] + 1, 1) < 0 or _need(&w.dirs, maxm * ((n + 63) >> 6) + 1, 8) < 0
                    or _need(&w.drows, 2 * (n + 1), 8) < 0 or _need(&w.lrows, 2 * (n + 1), 4) < 0):
                return -1
            mask = <uint8_t*>w.mask.p
            dprev = <double*>w.drows.p
            lprev = <int32_t*>w.lrows.p
            for r in range(nr):
                M = R[r]
                hw = 0.0
                basew = 0.0
                for i in range(M.nsent):
                    m = M.soff[i + 1] - M.soff[i]
                    basew += fw[m]
                if basew == 0:
                    return -2
                if U > 0:
                    memset(mu, 0, U * sizeof(int32_t))
                    win = mjp[r]
                    for i in range(M.ntok):
                        if win[i] >= 0:
                            mu[win[i]] += 1
                    memcpy(pu, pcnt, U * sizeof(int32_t))
                    for i in range(M.nsent):
                        m = M.soff[i + 1] - M.soff[i]
                        if m == 0:
                            continue
                        x = msp[r] + M.soff[i]
                        mk = mask + moff[r] + M.soff[i]
                        memset(mk, 0, m)
                        for j in range(P.nsent):
                            n = P.soff[j + 1] - P.soff[j]
                            if n == 0:
                                continue
                            pk = NULL
                            np0 = 0
                            if mks != NULL:
                                pk = _pairs_room(mks, m if m < n else n)
                                if pk == NULL:
                                    return -1
                                np0 = mks.np
                            wlcs_mark(x, m, psloc + P.soff[j], n, mk, <uint64_t*>w.dirs.p,
                                      dprev, dprev + (n + 1), lprev, lprev + (n + 1), fw, pk, &np0)
                            if pk != NULL:
                                np1 = mks.np
                                mks.np = np0
                                _pairs_shift(mks, np1, M.soff[i], P.soff[j])
                        if mks == NULL:
                            _wlcs_runs(x, mk, m, mu, pu, fw, &hw, False)
                        else:   # the mask becomes the runs' positions
                            _wlcs_runs(x, mk, m, mu, pu, fw, &hw, True)
                    if mks != NULL:
                        _pairs_marks(mks, mask + moff[r], M.nstok)
                rh[r] = hw
                rm[r] = pow(basew, wt)
                rp[r] = pow(<double>lp, wt)
                rs[r] = pow(hw / basew, ms[qn].inv_w)
        # ---- combine the references (-f A sums, -f B keeps the first best recall, max the first
        # best F) and finish
        if mode_max:
            o[0] = 0.0
            o[1] = 0.0
            o[2] = 0.0
            o[3] = 0.0
            o[4] = 0.0
            o[5] = 0.0
            best = -1.0
            for r in range(nr):
                _final(kind == K_W, ms[qn].inv_w, rm[r], rh[r], rp[r], alpha, fin)
                if fin[5] > best:
                    best = fin[5]
                    memcpy(o, fin, 6 * sizeof(double))
            continue
        H = 0.0
        C = 0.0
        Pc = 0.0
        if mode_b:
            best = -1.0
            for r in range(nr):
                if rs[r] > best:
                    best = rs[r]
                    H = rh[r]
                    C = rm[r]
                    Pc = rp[r]
        else:
            for r in range(nr):
                H += rh[r]
                C += rm[r]
                Pc += rp[r]
        _final(kind == K_W, ms[qn].inv_w, C, H, Pc, alpha, o)
    return 0


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


cdef inline int64_t _union_clip(const int32_t* x, uint8_t* mk, Py_ssize_t count, int32_t* mu, int32_t* pu,
                                int32_t U, bint keep) noexcept nogil:
    """ROUGE-L hits of one reference: a position on the union of the traces (``mk``) is a hit while
    its type has copies left in both clipping tables ``mu``/``pu``, which it takes (branch-free; a
    type the candidate lacks reads slot U). ``keep``: ``mk`` becomes the hits."""
    cdef Py_ssize_t pos
    cdef int32_t loc, take
    cdef int64_t hits = 0
    for pos in range(count):
        loc = _or_slot(x[pos], U)
        take = mk[pos] & (mu[loc] > 0) & (pu[loc] > 0)
        mu[loc] -= take
        pu[loc] -= take
        hits += take
        if keep:
            mk[pos] = <uint8_t>take
    return hits


cdef inline void _wlcs_runs(const int32_t* x, uint8_t* mk, Py_ssize_t m, int32_t* mu, int32_t* pu,
                            const double* fw, double* hw, bint keep) noexcept nogil:
    """ROUGE-W hits of one reference sentence (``hw[0] +=`` in the script's order): positions on
    the union of the traces (``mk``) that take copies from both clipping tables form runs; a run
    ends before an untraced position or at the sentence's end and adds f(length). ``keep``: ``mk``
    becomes the positions of the runs that ended (2 marks a hit whose run is still open)."""
    cdef Py_ssize_t pos, q, run = 0, start = 0
    cdef int32_t loc
    for pos in range(m):
        if mk[pos]:
            loc = x[pos]
            if mu[loc] > 0 and pu[loc] > 0:
                mu[loc] -= 1
                pu[loc] -= 1
                run += 1
                if keep:
                    mk[pos] = 2
                if (pos + 1 < m and not mk[pos + 1]) or pos + 1 == m:
                    hw[0] += fw[run]
                    run = 0
                    if keep:
                        for q in range(start, pos + 1):
                            mk[q] >>= 1
                        start = pos + 1
            elif keep:
                mk[pos] = 0
    if keep:
        for q in range(start, m):
            mk[q] = 0


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
