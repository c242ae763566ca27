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
# counted units on both sides, from the same tables and trace-backs.  The record's ``chosen``
# (batch_chosen, the explanations) receives the reference each measure's multi-reference rule kept.
# Without a record, a one-reference pair's LCS of sequences may wait for the next such pair's, to
# run both pairs' rows at once (LseqLater below).
#
# A measure flagged ``fold`` (MeasureC) is not scored alone: its counts of every reference are
# added to the next row's before the rule (ROUGE-SU with every token's unigram: ROUGE-S's row and
# ROUGE-1's), and the folded numbers are written to both rows.

cdef struct MarksAt:
    # score_docs' optional record: with ``peer_at`` the highlights, pair i's 0/1 marks at peer +
    # peer_at[i] (candidate positions) and model + model_at[i] (reference positions), ``rec`` the
    # record the rows write through; with ``chosen`` (NULL: not asked) pair i's ``nm`` slots at
    # chosen + nm * i: the index among its references each measure kept (-1: all of them, -f A)
    uint8_t* peer
    uint8_t* model
    const int64_t* peer_at
    const int64_t* model_at
    Marks rec
    int32_t* chosen


# Two pairs' LCS of sequences at once (score_docs): a pair with one reference whose
# LCS row needs only the length (lcs.pxi: _lseq_only: the row is _count_lseq alone) is
# put off (its candidate's and reference's local ids copied), and two such pairs' rows then run in
# one loop (rkb_rows2: two independent carry chains), each pair with its own match table; the
# lengths are _seq_lcs's.  With AVX-512 only the reference's tokens of types the candidate has
# are copied (16 at a time, compressed; with AVX2 8 at a time): the others' rows change nothing, and
# skipping them in the row loop cost a branch each (~19% of the rows in the bench's texts, at random places).

cdef extern from *:
    """
    #if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__) && !defined(RKB_NO_AVX512)
    #include <immintrin.h>
    /* x[:m]'s ids >= 0 into out, in order; their number */
    __attribute__((target("avx512f,popcnt")))
    static Py_ssize_t rkb_kept_ids_512(int32_t* out, const int32_t* x, Py_ssize_t m) {
        Py_ssize_t i = 0, n = 0;
        const __m512i zero = _mm512_setzero_si512();
        for (; i + 16 <= m; i += 16) {
            __m512i v = _mm512_loadu_si512((const void*)(x + i));
            __mmask16 keep = _mm512_cmpge_epi32_mask(v, zero);
            _mm512_mask_compressstoreu_epi32((void*)(out + n), keep, v);
            n += __builtin_popcount((unsigned)keep);
        }
        for (; i < m; i++) {
            out[n] = x[i];
            n += x[i] >= 0;
        }
        return n;
    }
    /* the same with AVX2, 8 at a time: the kept lanes moved down by a permutation looked up by their
       mask (rkb_keep8), all 8 lanes stored at out + n (n <= i: within x's m entries) */
    static int32_t rkb_keep8[256][8];
    __attribute__((target("avx2,popcnt")))
    static Py_ssize_t rkb_kept_ids_avx2(int32_t* out, const int32_t* x, Py_ssize_t m) {
        Py_ssize_t i = 0, n = 0;
        const __m256i neg = _mm256_set1_epi32(-1);
        for (; i + 8 <= m; i += 8) {
            __m256i v = _mm256_loadu_si256((const __m256i*)(x + i));
            int keep = _mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpgt_epi32(v, neg)));
            __m256i perm = _mm256_loadu_si256((const __m256i*)rkb_keep8[keep]);
            _mm256_storeu_si256((__m256i*)(out + n), _mm256_permutevar8x32_epi32(v, perm));
            n += __builtin_popcount((unsigned)keep);
        }
        for (; i < m; i++) {
            out[n] = x[i];
            n += x[i] >= 0;
        }
        return n;
    }
    static int rkb_kept_on = 0;   /* 0: every id copied; 1: AVX2; 2: AVX-512 (rkb_kept_enable) */
    /* mode 0: off; 1: the widest the CPU has; 2: AVX2 even with AVX-512 (tests); the mode now used */
    static int rkb_kept_enable(int mode) {
        int j, k, msk;
        __builtin_cpu_init();
        for (msk = 0; msk < 256; msk++) {
            for (j = 0, k = 0; j < 8; j++)
                if ((msk >> j) & 1)
                    rkb_keep8[msk][k++] = j;
            for (; k < 8; k++)
                rkb_keep8[msk][k] = 0;
        }
        rkb_kept_on = 0;
        if (mode > 0 && __builtin_cpu_supports("popcnt")) {
            if (mode == 1 && __builtin_cpu_supports("avx512f"))
                rkb_kept_on = 2;
            else if (__builtin_cpu_supports("avx2"))
                rkb_kept_on = 1;
        }
        return rkb_kept_on;
    }
    /* x[:m] into out: only its ids >= 0 when rkb_kept_on, else all of them; their number */
    static Py_ssize_t rkb_kept_ids(int32_t* out, const int32_t* x, Py_ssize_t m) {
        if (rkb_kept_on == 2)
            return rkb_kept_ids_512(out, x, m);
        if (rkb_kept_on == 1)
            return rkb_kept_ids_avx2(out, x, m);
        memcpy(out, x, (size_t)m * sizeof(int32_t));
        return m;
    }
    #else
    static int rkb_kept_enable(int mode) { (void)mode; return 0; }
    static Py_ssize_t rkb_kept_ids(int32_t* out, const int32_t* x, Py_ssize_t m) {
        memcpy(out, x, (size_t)m * sizeof(int32_t));
        return m;
    }
    #endif
    """
    int rkb_kept_enable(int mode)
    Py_ssize_t rkb_kept_ids(int32_t* out, const int32_t* x, Py_ssize_t m) nogil

#: a put-off LCS row's reference keeps only the tokens of types the candidate has: 2 with AVX-512
#: (compress), 1 with AVX2 (a permutation per 8), 0 not (every token copied)
_LSEQ_KEPT = rkb_kept_enable(1)


def _lseq_kept(int mode):
    """Test hook: put-off LCS rows with the reference's tokens of the candidate's types only (mode 1:
    the widest the CPU has; 2: AVX2 even with AVX-512) or all of them (0); the mode now used (as
    _LSEQ_KEPT).  Not thread-safe."""
    return rkb_kept_enable(mode)

cdef struct LseqLater:
    Buf y              # int32: the candidate's local ids
    Buf x              # int32: the reference's local ids (-1: a type the candidate lacks; none with AVX-512)
    Py_ssize_t n       # the candidate's tokens
    Py_ssize_t m       # the reference's tokens
    Py_ssize_t mx      # ... in x: its tokens of types the candidate has (rkb_kept_ids), or m
    int32_t U          # the candidate's types
    Py_ssize_t lcs     # the LCS length, once run
    Py_ssize_t pair    # the pair's index in the score_docs call
    double* out        # the pair's output (its measures' six numbers each)
    int nq             # the pair's measure rows waiting for the length (0: the slot is free)
    int* qn            # [measures] their indexes


cdef int score_docs(Work* w, const MeasureC* ms, int nm, bint mode_b, bint mode_max, double alpha,
                    const DocC** peers, const DocC** refs, const Py_ssize_t* roff, Py_ssize_t npairs,
                    double* out, Py_ssize_t nvocab, MarksAt* marks, Py_ssize_t* at) noexcept nogil:
    """Pairs 0 .. npairs - 1 (candidate ``peers[i]``, references ``refs[roff[i]:roff[i + 1]]``),
    the ``nm`` measures of each into ``out + 6 * nm * i`` (reference count, hits, candidate
    count, R, P, F); ``nvocab``: a bound on the ids.  ``marks``: NULL, or the highlights (every
    pair with one reference, each measure's row with a marks function) and/or the chosen
    references (MarksAt).  Returns 0, or _score_pair's error code with the pair in ``at[0]`` (the
    one raiser: _count_error)."""
    cdef Py_ssize_t i
    cdef int rc = 0, k = 0, j
    cdef bint marked = marks != NULL and marks.peer_at != NULL
    cdef int32_t* chosen = marks.chosen if marks != NULL else NULL
    # two slots of pairs whose LCS of sequences is put off (_lseq_later, below); ``k``: the slot
    # of the next pair (1: slot 0 holds an earlier pair's, waiting for a second one)
    cdef LseqLater later[2]
    cdef bint two = _TWO_ROWS and marks == NULL and npairs > 1 and nm > 0
    if two:
        memset(later, 0, sizeof(later))
        later[0].qn = <int*>malloc(2 * nm * sizeof(int))
        later[1].qn = later[0].qn + nm
        two = later[0].qn != NULL
    w.marks = &marks.rec if marked else NULL
    for i in range(npairs):
        if marked:
            marks.rec.peer = marks.peer + marks.peer_at[i]
            marks.rec.model = marks.model + marks.model_at[i]
            marks.rec.np = 0
        if two:
            later[k].nq = 0
            later[k].pair = i
            later[k].out = out + i * nm * 6
        rc = _score_pair(w, ms, nm, mode_b, mode_max, alpha, peers[i], refs + roff[i], <int>(roff[i + 1] - roff[i]),
                         out + i * nm * 6, nvocab, chosen + i * nm if chosen != NULL else NULL,
                         &later[k] if two else NULL)
        if rc != 0:
            at[0] = i
            break
        if two and later[k].nq > 0:
            if k == 0:
                k = 1
                continue
            k = 0
            if _lseq_rows(w, &later[0], &later[1]) < 0:
                rc = -1
                at[0] = later[0].pair
                break
            _lseq_out(&later[0], ms, mode_b, mode_max, alpha)
            _lseq_out(&later[1], ms, mode_b, mode_max, alpha)
    if two:
        if k == 1 and rc == 0:   # an earlier pair still waits (after the last pair; after an error
            if _lseq_rows(w, &later[0], NULL) < 0:   # the caller raises it: the pair's numbers go unused)
                rc = -1
                at[0] = later[0].pair
            else:
                _lseq_out(&later[0], ms, mode_b, mode_max, alpha)
        for j in range(2):
            free(later[j].y.p)
            free(later[j].x.p)
        free(later[0].qn)
    w.marks = NULL
    return rc


cdef void _lseq_out(const LseqLater* L, const MeasureC* ms, bint mode_b, bint mode_max, double alpha) noexcept nogil:
    """The put-off rows of pair ``L`` (_lseq_later, below) from its LCS length, as _count_lseq
    and _combine give them."""
    cdef PairC c
    cdef double rh = <double>L.lcs, rm = <double>L.m, rp = <double>L.n, rs
    cdef int k, qn
    rs = rh / rm   # m > 0: an empty reference is not put off
    c.nr = 1
    c.rh = &rh
    c.rm = &rm
    c.rp = &rp
    c.rs = &rs
    for k in range(L.nq):
        qn = L.qn[k]
        _combine(&c, mode_b, mode_max, KIND_ROWS[ms[qn].kind].flags & ROW_WEIGHTED, ms[qn].inv_w, alpha,
                 L.out + qn * 6)


cdef int _lseq_later(Work* w, PairC* c, const MeasureC* m, LseqLater* later, int qn) noexcept nogil:
    """Put off measure ``qn``'s row when it is an LCS of sequences of the pair's one reference whose
    rows rkb_rows2 runs (1), else leave it to its count function (0); -1: out of memory.  A ROUGE-L row
    above the trace-back limit is left (its count function says -3).  Two pairs' AVX-512 rows beat
    one pair's scalar rows from one word a row (ROUGE-L of 1,024 pairs, CPU: 16 tokens 0.310 ->
    0.299 ms, 64: 0.707 -> 0.653, 128: 1.193 -> 1.059, 190: 2.086 -> 1.743); without AVX-512 two
    pairs' scalar rows beat one's a little (256 pairs, 64 tokens 0.123 -> 0.115, 1,024: 3.22 -> 2.99)."""
    cdef Py_ssize_t n = c.lp, words = (c.lp + 63) >> 6, mm
    if c.nr != 1 or c.U == 0 or not _lseq_only(m, c):
        return 0
    mm = c.R[0].ntok
    if n == 0 or mm == 0 or words < _TWO_WORDS or words > rkb_rows2_max():
        return 0
    if later.nq == 0:   # the pair's first such row (another one, e.g. ROUGE-L beside LSEQ, shares it)
        if _need(&later.y, n, 4) < 0 or _need(&later.x, mm, 4) < 0:
            return -1
        memcpy(later.y.p, c.ploc, n * sizeof(int32_t))
        later.mx = rkb_kept_ids(<int32_t*>later.x.p, c.mjp[0], mm)   # (the LCS is the same without the others)
        later.n = n
        later.m = mm
        later.U = c.U
    later.qn[later.nq] = qn
    later.nq += 1
    return 1


cdef int _lseq_rows(Work* w, LseqLater* A, LseqLater* B) noexcept nogil:
    """The LCS lengths of the put-off pairs ``A`` and ``B`` (NULL: A alone, _seq_lcs) into their
    ``lcs``: both match tables in the work's ``pm`` (left all zero), both rows in ``rows``; -1:
    out of memory."""
    cdef Py_ssize_t wa, wb, t
    cdef uint64_t* PM
    cdef uint64_t* PMb
    cdef uint64_t* V
    if B == NULL:
        A.lcs = _seq_lcs(w, <const int32_t*>A.y.p, A.n, <const int32_t*>A.x.p, A.mx, A.U)
        return -1 if A.lcs < 0 else 0
    wa = (A.n + 63) >> 6
    wb = (B.n + 63) >> 6
    if _need_zeroed(&w.pm, A.U * wa + B.U * wb, 8) < 0 or _need(&w.rows, wa + wb, 8) < 0:
        return -1
    PM = <uint64_t*>w.pm.p
    PMb = PM + A.U * wa
    V = <uint64_t*>w.rows.p
    _match_bits(PM, <const int32_t*>A.y.p, A.n, wa, True)
    _match_bits(PMb, <const int32_t*>B.y.p, B.n, wb, True)
    for t in range(wa + wb):
        V[t] = ~(<uint64_t>0)
    rkb_rows2(<const int32_t*>A.x.p, A.mx, PM, wa, V, <uint32_t>A.U,
              <const int32_t*>B.x.p, B.mx, PMb, wb, V + wa, <uint32_t>B.U)
    A.lcs = lcs_prefix(V, A.n)
    B.lcs = lcs_prefix(V + wa, B.n)
    if wa <= 2 and wb <= 2:   # both tables small (U <= n types, 1-2 words each): a memset of a few
        memset(PM, 0, (A.U * wa + B.U * wb) * sizeof(uint64_t))   # lines, not a store a token
    else:
        _match_bits(PM, <const int32_t*>A.y.p, A.n, wa, False)
        _match_bits(PMb, <const int32_t*>B.y.p, B.n, wb, False)
    return 0


cdef int _score_pair(Work* w, const MeasureC* ms, int nm, bint mode_b, bint mode_max, double alpha,
                     const DocC* P, const DocC** R, int nr, double* out, Py_ssize_t nvocab,
                     int32_t* chosen, LseqLater* later) noexcept nogil:
    """All measures of one pair (score_docs); returns 0, -1 (out of memory), -2 (ROUGE-W, empty
    reference) or -3 (a trace-back table above MAX_TRACE_CELLS: docs/limits.md). ``w.marks``:
    NULL, or the highlights of the pair's one reference (a Marks record); ``chosen``: NULL, or
    where each measure's kept reference goes (_combine's).  Each measure's row of the kind table
    (kinds.pxi: KIND_ROWS) counts every reference into the PairC's rh/rm/rp/rs (its marks
    function when there are marks); a ``fold`` row's counts are held and added to the next row's
    (_fold); _combine applies the multi-reference rule.  Rows flagged ROW_LAST run in a second
    pass (a fold group is counted in one pass: kinds.py's ``counted`` splits only ROUGE-SU).
    ``later``: NULL, or where a row that is an LCS of sequences is put off (_lseq_later, above;
    score_docs writes its numbers then)."""
    cdef PairC c
    cdef int qn, k, rc, last, flags, pick, first = -1
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
            if later != NULL and first < 0 and not ms[qn].fold and chosen == NULL:
                rc = _lseq_later(w, &c, ms + qn, later, qn)
                if rc < 0:
                    return rc
                if rc > 0:
                    continue
            if c.mks == NULL:
                rc = row.count(w, &c, ms + qn, qn, mode_b)
            else:
                rc = row.marks(w, &c, ms + qn, qn, mode_b)
            if rc < 0:
                return rc
            if first >= 0 or ms[qn].fold:
                _fold(w, &c, first >= 0, not ms[qn].fold, mode_b)
                if first < 0:
                    first = qn
                if ms[qn].fold:
                    continue
            pick = _combine(&c, mode_b, mode_max, flags & ROW_WEIGHTED, ms[qn].inv_w, alpha, out + qn * 6)
            if first < 0:
                first = qn
            for k in range(first, qn + 1):
                if k < qn:
                    memcpy(out + k * 6, out + qn * 6, 6 * sizeof(double))
                if chosen != NULL:
                    chosen[k] = pick
            first = -1
        if not any_last:
            break
    return 0


cdef void _fold(Work* w, PairC* c, bint held, bint last, bint mode_b) noexcept nogil:
    """A fold group's counts of every reference, held in the second half of the workspace's
    rh/rm/rp (sized 2 * (nr + 1) by _reference_ids): the group's first row stores them (not
    ``held``), the next ones add theirs, its ``last`` row gets the sums back (its -f B score: the
    summed recall, rounded as the rows of N and S/SU score it)."""
    cdef int r, nr = c.nr
    cdef double* hh = <double*>w.rh.p + nr + 1
    cdef double* hm = <double*>w.rm.p + nr + 1
    cdef double* hp = <double*>w.rp.p + nr + 1
    for r in range(nr):
        if held:
            hh[r] += c.rh[r]
            hm[r] += c.rm[r]
            hp[r] += c.rp[r]
        else:
            hh[r] = c.rh[r]
            hm[r] = c.rm[r]
            hp[r] = c.rp[r]
        if last:
            c.rh[r] = hh[r]
            c.rm[r] = hm[r]
            c.rp[r] = hp[r]
    if last and mode_b:
        _recall_b(c)


cdef int _pair_ids(Work* w, PairC* c, const DocC* P, const DocC** R, int nr, Py_ssize_t nvocab) noexcept nogil:
    """The pair's view ``c``: local ids of the candidate's types (0 .. U-1), its counts, and the
    references' tokens mapped onto them (-1: a type the candidate lacks); -1 when out of memory.
    The id table (w.lt, all zeros between pairs) is read as uint16 while the candidate's types
    (at most its tokens) fit, else as int32 (loc_t)."""
    cdef int res
    if _need_zeroed(&w.lt, nvocab + 1, sizeof(int32_t)) < 0:
        return -1
    if P.ntok + P.nstok < 65535:
        res = _pair_ids_in(w, c, P, R, nr, nvocab, <uint16_t*>w.lt.p)
        _loc_clear(<uint16_t*>w.lt.p, P)   # also after a failure: the table stays all zeros
    else:
        res = _pair_ids_in(w, c, P, R, nr, nvocab, <int32_t*>w.lt.p)
        _loc_clear(<int32_t*>w.lt.p, P)
    return res


cdef int _pair_ids_in(Work* w, PairC* c, const DocC* P, const DocC** R, int nr, Py_ssize_t nvocab,
                      loc_t* lt) noexcept nogil:
    cdef Py_ssize_t lp = P.ntok, i
    cdef int32_t loc, U = 0   # a local: the loops below keep it in a register
    cdef int32_t* ploc
    cdef int32_t* pcnt
    c.P = P
    c.R = R
    c.nr = nr
    c.lp = lp
    c.mks = <Marks*>w.marks
    c.nvocab = nvocab
    c.l_done = False
    c.ld_done = False
    if (_need(&w.ploc, lp + 1, 4) < 0 or _need(&w.pcnt, lp + P.nstok + 1, 4) < 0
            or _need(&w.psloc, P.nstok + 1, 4) < 0):
        return -1
    ploc = <int32_t*>w.ploc.p
    pcnt = <int32_t*>w.pcnt.p
    memset(pcnt, 0, (lp + P.nstok + 1) * sizeof(int32_t))   # U <= lp + nstok
    for i in range(lp):
        loc = _loc_insert(lt, P.tok[i], &U)
        ploc[i] = loc
        pcnt[loc] += 1
    c.ploc = ploc
    c.pcnt = pcnt
    if P.stok == P.tok:
        c.psloc = ploc
    else:
        c.psloc = <int32_t*>w.psloc.p
        for i in range(P.nstok):
            c.psloc[i] = _loc_insert(lt, P.stok[i], &U)
    c.U = U
    if (_need(&w.used, U + 1, 4) < 0 or _need(&w.mu, U + 1, 4) < 0 or _need(&w.pu, U + 1, 4) < 0):
        return -1
    c.used = <int32_t*>w.used.p
    c.mu = <int32_t*>w.mu.p
    c.pu = <int32_t*>w.pu.p
    return _reference_ids(w, c, lt)


cdef int _reference_ids(Work* w, PairC* c, const loc_t* lt) noexcept nogil:
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
            or _need(&w.rh, 2 * (nr + 1), 8) < 0 or _need(&w.rm, 2 * (nr + 1), 8) < 0
            or _need(&w.rp, 2 * (nr + 1), 8) < 0 or _need(&w.rs, nr + 1, 8) < 0):
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
            mloc[total_j + i] = _loc_find(lt, M.tok[i])
        total_j += M.ntok
        if M.stok == M.tok:
            c.msp[r] = c.mjp[r]
        else:
            c.msp[r] = msloc + total_s
            for i in range(M.nstok):
                msloc[total_s + i] = _loc_find(lt, M.stok[i])
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


cdef inline int _combine(const PairC* c, bint mode_b, bint mode_max, bint weighted, double inv_w, double alpha,
                         double* o) noexcept nogil:
    """The measure's six numbers from the references' counts: -f A sums them, -f B keeps the first
    reference with the best ``rs``, max (``mode_max``) the first with the best rounded F.  Returns
    the kept reference's index (-1: -f A, or no reference)."""
    cdef int r, pick = -1
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
                pick = r
                memcpy(o, fin, 6 * sizeof(double))
        return pick
    if mode_b:
        for r in range(c.nr):
            if c.rs[r] > best:
                best = c.rs[r]
                pick = r
                H = c.rh[r]
                C = c.rm[r]
                Pc = c.rp[r]
    else:
        for r in range(c.nr):
            H += c.rh[r]
            C += c.rm[r]
            Pc += c.rp[r]
    _final(weighted, inv_w, C, H, Pc, alpha, o)
    return pick


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


cdef DocC* _csr_docs(const int32_t[::1] toks, const int64_t[::1] tok_off, const int32_t[::1] utoks,
                     const int64_t[::1] sent_off, const int64_t[::1] text_sents, int32_t** soff,
                     Py_ssize_t* vocab) except NULL:
    """The engine's summaries over texts in CSR form (batch_marks, batch_chosen: ``toks``/``tok_off``
    the joined tokens of each text, ``utoks``/``sent_off`` the tokens of every sentence unit,
    ``text_sents`` each text's range of units), their sentence offsets made relative to each text in
    ``soff[0]``, and in ``vocab[0]`` one more than the largest token id (the bound of the engine's
    dense tables); the caller frees both.  Offsets outside their arrays, decreasing offsets and
    negative ids are a ValueError (_check_csr), never a read outside the arrays."""
    cdef Py_ssize_t ntext = tok_off.shape[0] - 1, t, k, ns, b0
    cdef const int32_t* T = &toks[0] if toks.shape[0] else NULL
    cdef const int32_t* S = &utoks[0] if utoks.shape[0] else NULL
    cdef int32_t* so
    cdef DocC* docs
    vocab[0] = _check_csr(toks, tok_off, utoks, sent_off, text_sents)
    docs = <DocC*>malloc((ntext + 1) * sizeof(DocC))
    soff[0] = <int32_t*>malloc((sent_off.shape[0] + ntext + 1) * sizeof(int32_t))
    if docs == NULL or soff[0] == NULL:
        free(docs)
        raise MemoryError()
    for t in range(ntext):
        b0 = sent_off[text_sents[t]]
        ns = text_sents[t + 1] - text_sents[t]
        so = soff[0] + text_sents[t] + t
        so[0] = 0
        for k in range(ns):
            so[k + 1] = <int32_t>(sent_off[text_sents[t] + k + 1] - b0)
        _doc_set(&docs[t], <int32_t*>(T + tok_off[t]) if T != NULL else NULL, tok_off[t + 1] - tok_off[t],
                 <int32_t*>(S + b0) if S != NULL else NULL, sent_off[text_sents[t + 1]] - b0, so, ns)
    return docs


cdef bint _rising(const int64_t[::1] off, Py_ssize_t top) noexcept:
    """``off`` starts at 0 or above, never decreases and ends at ``top`` or below (an empty ``off`` does not)."""
    cdef Py_ssize_t i
    if off.shape[0] == 0 or off[0] < 0 or off[off.shape[0] - 1] > top:
        return False
    for i in range(1, off.shape[0]):
        if off[i] < off[i - 1]:
            return False
    return True


cdef Py_ssize_t _id_bound(const int32_t[::1] ids) except -1:
    """One more than the largest of ``ids`` (0 when there are none); a negative id is a ValueError."""
    cdef Py_ssize_t i, top = -1
    for i in range(ids.shape[0]):
        if ids[i] < 0:
            raise ValueError(f"token id {ids[i]} at {i}: ids are 0 or more")
        if ids[i] > top:
            top = ids[i]
    return top + 1


cdef Py_ssize_t _check_csr(const int32_t[::1] toks, const int64_t[::1] tok_off, const int32_t[::1] utoks,
                           const int64_t[::1] sent_off, const int64_t[::1] text_sents) except -1:
    """The id bound of texts in CSR form (_csr_docs), after checking every offset stays in its array."""
    if text_sents.shape[0] != tok_off.shape[0] or not _rising(tok_off, toks.shape[0]) \
            or not _rising(text_sents, sent_off.shape[0] - 1) or not _rising(sent_off, utoks.shape[0]):
        raise ValueError("texts: tok_off and text_sents need one entry a text and one more, sent_off one a unit "
                         "and one more, each rising from 0 or more and within the array it points into")
    return max(_id_bound(toks), _id_bound(utoks))


cdef int _check_texts(const int32_t[::1] index, Py_ssize_t count, Py_ssize_t ntext, str name) except -1:
    """Each of the first ``count`` entries of ``index`` names a text (0 <= i < ntext)."""
    cdef Py_ssize_t i
    if index.shape[0] < count:
        raise ValueError(f"{name}: {index.shape[0]} entries for {count}")
    for i in range(count):
        if index[i] < 0 or index[i] >= ntext:
            raise ValueError(f"{name}[{i}] = {index[i]}: there are {ntext} texts")
    return 0


def batch_chosen(int kind, int param, int flags, double weight,
                 const int32_t[::1] toks, const int64_t[::1] tok_off,
                 const int32_t[::1] utoks, const int64_t[::1] sent_off, const int64_t[::1] text_sents,
                 const int32_t[::1] peer, const int64_t[::1] ref_off, const int32_t[::1] model,
                 bint mode_b, bint mode_max, double alpha, int32_t[::1] chosen):
    """``chosen[p]``: which of pair ``p``'s references (candidate text ``peer[p]``, reference texts
    ``model[ref_off[p]:ref_off[p + 1]]``) the multi-reference rule (``mode_b``: -f B, ``mode_max``:
    max, else -f A) keeps for the measure of the kernel spec -- the engine's own choice, score_docs'
    (-1: all of them, or no reference).  The texts come in batch_marks' CSR form (_csr_docs); the
    spec's rows are those of _spec_measures, a split one folded as the batch scorer folds it."""
    cdef Py_ssize_t n = peer.shape[0], p, at = 0, vocab = 0
    cdef int nms, rc = 0
    cdef MeasureC ms[2]
    cdef MarksAt mka
    cdef int32_t* soff = NULL
    cdef DocC* docs = NULL
    cdef const DocC** pd = NULL
    cdef const DocC** rd = NULL
    cdef Py_ssize_t* roff = NULL
    cdef double* out = NULL
    cdef int32_t* pick = NULL
    cdef _Work wk = _Work(measures=2)
    if ref_off.shape[0] != n + 1 or chosen.shape[0] < n or (n and ref_off[n] > model.shape[0]):
        raise ValueError("batch_chosen: ref_off must have one more entry than peer, and model and chosen fit them")
    if kind not in KINDS:
        raise ValueError(f"kind code {kind!r} is not one the batch scorer counts (kinds.BATCH_KINDS)")
    memset(&mka, 0, sizeof(MarksAt))
    try:
        nms = _spec_measures(kind, param, flags, weight, ms)
        ms[0].fold = nms == 2   # ROUGE-S's row and ROUGE-1's, chosen by their summed counts
        docs = _csr_docs(toks, tok_off, utoks, sent_off, text_sents, &soff, &vocab)
        _check_texts(peer, n, tok_off.shape[0] - 1, "peer")
        _check_texts(model, model.shape[0], tok_off.shape[0] - 1, "model")
        for p in range(n):
            if ref_off[p] < 0 or ref_off[p + 1] < ref_off[p]:
                raise ValueError(f"batch_chosen: ref_off must rise from 0 or more (entry {p + 1})")
        pd = <const DocC**>malloc((n + 1) * sizeof(DocC*))
        rd = <const DocC**>malloc((model.shape[0] + 1) * sizeof(DocC*))
        roff = <Py_ssize_t*>malloc((n + 1) * sizeof(Py_ssize_t))
        out = <double*>malloc((n + 1) * nms * 6 * sizeof(double))
        pick = <int32_t*>malloc((n + 1) * nms * sizeof(int32_t))
        if pd == NULL or rd == NULL or roff == NULL or out == NULL or pick == NULL:
            raise MemoryError()
        for p in range(n):
            pd[p] = &docs[peer[p]]
        for p in range(model.shape[0]):
            rd[p] = &docs[model[p]]
        for p in range(n + 1):
            roff[p] = <Py_ssize_t>ref_off[p]
        mka.chosen = pick
        with nogil:
            rc = score_docs(&wk.w, ms, nms, mode_b and not mode_max, mode_max, alpha, pd, rd, roff, n, out, vocab,
                            &mka, &at)
        _count_error(rc, -1)
        for p in range(n):
            chosen[p] = pick[p * nms + nms - 1]
    finally:
        free(docs)
        free(soff)
        free(pd)
        free(rd)
        free(roff)
        free(out)
        free(pick)
