# The per-thread workspace of _score_pair: the candidate's local ids (int32 table), the n-gram /
# skip-unit tables (GEntry hashed, DEntry direct, BEntry bigrams), the bit-parallel LCS rows and
# match table, the ROUGE-W DP rows and the per-reference counts.  Tables are cleared by stamps
# (a generation number) instead of memset where they are large.

cdef struct GEntry:
    uint64_t key
    int32_t pos
    int32_t cp
    int32_t used
    uint32_t gen
    uint32_t rgen
    uint32_t pad


cdef struct DEntry:
    uint32_t gen
    int32_t cp
    uint32_t rgen
    int32_t used


cdef enum:
    _DIRECT_MAX_U = 256      # U*U table entries of 16 bytes: at most 1 MB


cdef struct Marks:
    uint8_t* peer      # 0/1 per candidate position (joined tokens: N/S/SU; sentence tokens: L/W)
    uint8_t* model     # 0/1 per reference position
    Buf pairs          # int32 (reference, candidate) sentence-token positions of the LCS traces
    Py_ssize_t np      # pairs listed


cdef struct PairC:
    # One pair as _score_pair's count functions read it (score.pxi: _pair_ids): the candidate's
    # tokens as local ids 0 .. U-1 (a type the candidate lacks: -1, or slot U of a per-type array),
    # the references mapped onto them, and the per-reference counts each kind writes.
    const DocC* P
    const DocC** R
    int nr
    Py_ssize_t lp      # the candidate's joined tokens
    int32_t U          # the candidate's types
    int32_t* ploc      # local ids of the candidate's joined tokens
    int32_t* psloc     # ... of its sentence tokens (ploc when they are the same)
    int32_t* pcnt      # [U + 1] the candidate's count of each type (slot U: 0)
    int32_t* used      # [U + 1] scratch: a reference's used copies
    int32_t* mu        # [U + 1] scratch: a reference's copies left (ROUGE-L/W clipping)
    int32_t* pu        # [U + 1] scratch: the candidate's copies left
    int32_t** mjp      # per reference: local ids of its joined tokens
    int32_t** msp      # per reference: ... of its sentence tokens
    Py_ssize_t* moff   # [nr + 1] each reference's first sentence token in the union-LCS mask
    Py_ssize_t maxm    # the longest reference sentence
    bint single        # every summary one sentence (and its sentence tokens its joined tokens)
    double* rh         # per reference: hits
    double* rm         # ... its unit count (ROUGE-W: its weighted length)
    double* rp         # ... the candidate's unit count
    double* rs         # ... the score -f B compares
    Marks* mks         # NULL, or the highlights of the pair's one reference
    Py_ssize_t nvocab  # the ids' bound (the id-indexed tables' size)
    bint l_done        # the union-LCS masks are in w.mask (they do not depend on the measure)
    bint ld_done       # LD's counts are in rh/rm/rp/rs (lcs.pxi: _count_ld)


cdef struct Work:
    Buf lt             # int32 [vocabulary]: final token id -> local id + 1 of the current pair, 0 between pairs
    Buf gt             # GEntry: candidate n-grams / skip units
    Buf bt             # BEntry: candidate bigrams (ROUGE-2 when the direct table is too large)
    Buf touched        # int32: bigram slots a reference used
    Buf dt             # DEntry [U*U + U]: bigrams / skip units of local ids, directly indexed
    Buf b2bits         # uint64 [(U+1)^2 / 64]: ROUGE-2's bit table (grams.pxi), all zero between uses
    Buf b2rank         # uint16 per word of b2bits: the dense number of its first set bit
    Buf b2keys         # uint32: a text's bigrams as bit numbers of b2bits
    uint32_t dgen
    uint32_t drgen
    uint32_t ggen
    uint32_t rgen
    Buf ploc           # int32: local ids of the candidate's joined tokens
    Buf psloc          # int32: local ids of the candidate's sentence tokens (when separate)
    Buf pcnt           # int32 [U]: candidate unigram counts (readText)
    Buf used           # int32 [U]
    Buf mu             # int32 [U]
    Buf pu             # int32 [U]
    Buf mloc           # int32: local ids of all references' joined tokens
    Buf msloc          # int32: local ids of all references' sentence tokens (when separate)
    Buf mjp            # int32* per reference
    Buf msp            # int32* per reference
    Buf moff           # Py_ssize_t per reference: start of its sentence tokens in the mask
    Buf pm             # uint64 [U * Wb], all zero between uses
    Buf rows           # uint64
    Buf mask           # uint8 over all references' sentence tokens
    Buf dirs           # uint64: ROUGE-W trace-back bits (common.pxi: trace_marks)
    Buf drows          # double
    Buf lrows          # int32
    Buf rh             # double per reference: hits
    Buf rm             # model count
    Buf rp             # peer count
    Buf rs             # -f B score
    Buf seen           # uint8 [vocabulary], all zero between uses: distinct tokens (LD, lcs.pxi)
    Buf ptypes         # int32: the candidate's distinct tokens (LD)
    Buf mtypes         # int32: a reference's distinct tokens (LD)
    Buf dcnt           # double [4 * references]: LD's hits, counts and -f B scores
    double** fw        # per measure: fw[k] = k ** w
    Py_ssize_t* fwlen
    void* marks        # NULL, or the Marks record of the highlights (score.pxi, marks.pxi)


cdef class _Work:
    cdef Work w
    cdef int nm

    def __cinit__(self, _Engine engine=None, int measures=0):
        """The workspace of ``engine``'s measures, or of ``measures`` measures at most."""
        self.nm = engine.nm if engine is not None else measures
        memset(&self.w, 0, sizeof(Work))
        self.w.fw = <double**>calloc(self.nm + 1, sizeof(double*))
        self.w.fwlen = <Py_ssize_t*>calloc(self.nm + 1, sizeof(Py_ssize_t))
        if self.w.fw == NULL or self.w.fwlen == NULL:
            raise MemoryError()

    def __dealloc__(self):
        cdef int i
        cdef Work* w = &self.w
        free(w.lt.p); free(w.gt.p); free(w.bt.p); free(w.touched.p); free(w.dt.p); free(w.b2bits.p); free(w.b2rank.p); free(w.b2keys.p); free(w.ploc.p); free(w.psloc.p); free(w.pcnt.p)
        free(w.used.p); free(w.mu.p); free(w.pu.p); free(w.mloc.p); free(w.msloc.p)
        free(w.mjp.p); free(w.msp.p); free(w.moff.p); free(w.pm.p); free(w.rows.p)
        free(w.mask.p); free(w.dirs.p); free(w.drows.p); free(w.lrows.p)
        free(w.rh.p); free(w.rm.p); free(w.rp.p); free(w.rs.p)
        free(w.seen.p); free(w.ptypes.p); free(w.mtypes.p); free(w.dcnt.p)
        if w.fw != NULL:
            for i in range(self.nm):
                free(w.fw[i])
        free(self.w.fw)
        free(self.w.fwlen)
