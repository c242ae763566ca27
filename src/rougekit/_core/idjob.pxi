# A call's token-id pairs read and scored by the jobs' engines with no GIL between chunks: every
# summary is a contiguous int32 array, whose buffer is got once (GIL) for the whole call; each
# engine then claims chunks of pairs from a shared counter and reads and scores them in one
# section without the GIL.  A chunk whose ids all lie in 0 .. _RAW_IDS - 1 (a model tokenizer's
# vocabulary) is scored on the arrays themselves, the ids as they are (no copy, no mapping);
# another one is read through the engine's IdMap into dense ids, which also names a bad id.  A
# call with any other input goes chunk by chunk through _Engine.prepare_ids.  No ROUGE behaviour.

cdef extern from *:
    """
    #if defined(__GNUC__) || defined(__clang__)
    static inline Py_ssize_t rkb_claim(Py_ssize_t* p) { return __atomic_fetch_add(p, 1, __ATOMIC_RELAXED); }
    static inline int32_t rkb_ld_i32(const int32_t* p) { return __atomic_load_n(p, __ATOMIC_RELAXED); }
    static inline void rkb_st_i32(int32_t* p, int32_t v) { __atomic_store_n(p, v, __ATOMIC_RELAXED); }
    static inline void rkb_inc_i32(int32_t* p) { __atomic_fetch_add(p, 1, __ATOMIC_RELAXED); }
    /* an _IdJob's filled pairs: published (release) after their summaries are queued */
    static inline Py_ssize_t rkb_ld_acq(const Py_ssize_t* p) { return __atomic_load_n(p, __ATOMIC_ACQUIRE); }
    static inline void rkb_st_rel(Py_ssize_t* p, Py_ssize_t v) { __atomic_store_n(p, v, __ATOMIC_RELEASE); }
    #if defined(__x86_64__) || defined(__i386__)
    static inline void rkb_relax(void) { __builtin_ia32_pause(); }
    #else
    static inline void rkb_relax(void) { __asm__ __volatile__("" ::: "memory"); }
    #endif
    #else
    #include <intrin.h>
    #if defined(_WIN64)
    static inline Py_ssize_t rkb_claim(Py_ssize_t* p) { return (Py_ssize_t)_InterlockedExchangeAdd64((volatile long long*)p, 1); }
    #else
    static inline Py_ssize_t rkb_claim(Py_ssize_t* p) { return (Py_ssize_t)_InterlockedExchangeAdd((volatile long*)p, 1); }
    #endif
    static inline int32_t rkb_ld_i32(const int32_t* p) { return *(volatile const int32_t*)p; }
    static inline void rkb_st_i32(int32_t* p, int32_t v) { *(volatile int32_t*)p = v; }
    static inline void rkb_inc_i32(int32_t* p) { _InterlockedIncrement((volatile long*)p); }
    static inline Py_ssize_t rkb_ld_acq(const Py_ssize_t* p) { Py_ssize_t v = *(volatile const Py_ssize_t*)p; _ReadWriteBarrier(); return v; }
    static inline void rkb_st_rel(Py_ssize_t* p, Py_ssize_t v) { _ReadWriteBarrier(); *(volatile Py_ssize_t*)p = v; }
    static inline void rkb_relax(void) { YieldProcessor(); }
    #endif

    /* The largest of n ids read as unsigned (a negative id is a huge one), at least hi: with AVX2
       (runtime dispatch) 32 ids a turn in four accumulators, else one at a time. */
    static uint32_t rkb_umax_plain(const int32_t* p, Py_ssize_t n, uint32_t hi) {
        Py_ssize_t i;
        for (i = 0; i < n; i++) {
            uint32_t x = (uint32_t)p[i];
            hi = x > hi ? x : hi;
        }
        return hi;
    }
    #if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__) && !defined(RKB_NO_AVX2)
    #include <immintrin.h>
    __attribute__((target("avx2")))
    static uint32_t rkb_umax_avx2(const int32_t* p, Py_ssize_t n, uint32_t hi) {
        __m256i a0 = _mm256_set1_epi32((int)hi), a1 = a0, a2 = a0, a3 = a0;
        uint32_t lane[8];
        Py_ssize_t i = 0;
        int j;
        for (; i + 32 <= n; i += 32) {
            a0 = _mm256_max_epu32(a0, _mm256_loadu_si256((const __m256i*)(p + i)));
            a1 = _mm256_max_epu32(a1, _mm256_loadu_si256((const __m256i*)(p + i + 8)));
            a2 = _mm256_max_epu32(a2, _mm256_loadu_si256((const __m256i*)(p + i + 16)));
            a3 = _mm256_max_epu32(a3, _mm256_loadu_si256((const __m256i*)(p + i + 24)));
        }
        a0 = _mm256_max_epu32(_mm256_max_epu32(a0, a1), _mm256_max_epu32(a2, a3));
        _mm256_storeu_si256((__m256i*)lane, a0);
        for (j = 0; j < 8; j++)
            hi = lane[j] > hi ? lane[j] : hi;
        return rkb_umax_plain(p + i, n - i, hi);
    }
    static int rkb_umax_wide = 0;   /* set once at import (rkb_umax_init) */
    static int rkb_umax_init(void) {
        __builtin_cpu_init();
        rkb_umax_wide = __builtin_cpu_supports("avx2") ? 1 : 0;
        return rkb_umax_wide;
    }
    static uint32_t rkb_umax(const int32_t* p, Py_ssize_t n, uint32_t hi) {
        return rkb_umax_wide ? rkb_umax_avx2(p, n, hi) : rkb_umax_plain(p, n, hi);
    }
    #else
    static int rkb_umax_init(void) { return 0; }
    static uint32_t rkb_umax(const int32_t* p, Py_ssize_t n, uint32_t hi) { return rkb_umax_plain(p, n, hi); }
    #endif
    """
    int rkb_umax_init()
    uint32_t rkb_umax(const int32_t* p, Py_ssize_t n, uint32_t hi) nogil
    Py_ssize_t rkb_claim(Py_ssize_t* p) nogil
    int32_t rkb_ld_i32(const int32_t* p) nogil
    void rkb_st_i32(int32_t* p, int32_t v) nogil
    void rkb_inc_i32(int32_t* p) nogil
    Py_ssize_t rkb_ld_acq(const Py_ssize_t* p) nogil
    void rkb_st_rel(Py_ssize_t* p, Py_ssize_t v) nogil
    void rkb_relax() nogil


rkb_umax_init()   # the id scan's AVX2 (the CPU's, once)


cdef enum:
    _BAD_ID = -10          # a chunk's reading errors (_score_pair's own codes are -1 to -3)
    _NO_MEMORY = -11
    _RAW_IDS = 1 << 18     # ids below this are scored as they are (the per-pair table: 2 MiB at most)


cdef object _id_refs(object refs):
    """The references of one token-id pair as a sequence of summaries (one summary: a tuple of it;
    none: empty), or None when they are neither (prepare_ids raises, an _IdJob gives up)."""
    cdef int level = _id_level(refs)
    if level == 1:
        return (refs,)
    if level == 0:
        return ()
    if level == 2:
        return refs
    return None


cdef int _read_queued(_Engine eng, IdPend* pend, Py_ssize_t k0, Py_ssize_t k1, DocC* docs, int64_t* badv,
                      Py_ssize_t* bad) except -1 nogil:
    """Read the queued int32 arrays k0:k1 through ``eng``'s IdMap into their docs (``docs[k - k0]``,
    or with NULL each one's own queued doc and memory); 0, or for the first array that fails (its
    index in ``bad``) 1: an id out of range (``badv``), 2: out of memory."""
    cdef Py_ssize_t k
    cdef int rc
    for k in range(k0, k1):
        rc = _read_int32_nogil(&eng.idm, <const int32_t*>pend.views[k].buf, pend.views[k].shape[0],
                               eng.word_limit, &eng.st, &eng.so, badv)
        if rc != 0:
            bad[0] = k
            return 1 if rc == -1 else 2
        if docs != NULL:
            eng._store(False, &docs[k - k0], NULL)
        else:
            eng._store(False, pend.dst[k], pend.slot[k])
    return 0


cdef class _IdWalk:
    """The one reading of a token-id call's pairs, for _IdJob and _Engine.prepare_ids (_IdPrep):
    ``walk`` gives ``visit`` each pair's candidate (ref -1), then its references (ref 0, 1, ...),
    pair after pair; what a pair's references are is _id_refs'."""

    cdef int visit(self, object summary, Py_ssize_t pair, int ref) except -1:
        """Take one summary: 1 to go on, 0 to stop the walk."""
        return 1

    cdef int walk(self, object candidates, object references, Py_ssize_t start, Py_ssize_t end,
                  bint strict) except -1:
        """Visit pairs start:end: 1 when every summary was taken, 0 when ``visit`` stopped, or
        references that are not token ids (``strict``: a TypeError naming the pair instead)."""
        cdef Py_ssize_t i
        cdef int j
        for i in range(start, end):
            if not self.visit(candidates[i], i, -1):
                return 0
            refs = _id_refs(references[i])
            if refs is None:
                if not strict:
                    return 0
                refs = references[i]
                raise TypeError(f"{_where(i, 0)}: expected token ids (a sequence of ints, "
                                f"or a list of them), got {refs!r:.60}")
            j = 0
            for r in refs:
                if not self.visit(r, i, j):
                    return 0
                j += 1
        return 1


cdef class _IdPrep(_IdWalk):
    """_Engine.prepare_ids' pairs: each summary a _Doc (queued, or read now: _id_doc_queued) in
    ``keep``, its DocC the chunk's candidate or next reference."""
    cdef _Engine eng
    cdef IdPend* pend
    cdef _Chunk ch
    cdef list keep
    cdef Py_ssize_t nr, cap

    cdef int visit(self, object summary, Py_ssize_t pair, int ref) except -1:
        cdef _Doc d = self.eng._id_doc_queued(summary, self.pend, pair, ref)
        self.keep.append(d)
        if ref < 0:
            self.ch.peers[pair - self.ch.start] = &d.d
        else:
            self.cap = self.ch.put_ref(self.nr, self.cap, &d.d)
            self.nr += 1
        self.ch.roff[pair - self.ch.start + 1] = self.nr
        return 1


cdef class _IdJob(_IdWalk):
    """Pairs start:end of a token-id call, every summary queued as an int32 buffer (``ok``), or
    not (``ok`` False: some summary is another kind of input; nothing is kept)."""
    cdef IdPend pend          # pair i's candidate, then its references, pair after pair
    cdef Py_ssize_t* first    # pend index of each pair's candidate (n + 1 entries)
    cdef Py_ssize_t start, n, chunk, nchunks
    cdef Py_ssize_t next      # the next chunk to claim (rkb_claim)
    cdef int* err             # per chunk: 0, _BAD_ID, _NO_MEMORY (reading), else _score_pair's code
    cdef int64_t* bad         # ... the id out of range
    cdef Py_ssize_t* at       # ... the pair (index in the call)
    cdef int* at_ref          # ... and the reference (-1: the candidate)
    cdef double[:, :, ::1] out
    cdef int32_t stop         # set by halt(): engines claim no further chunk
    cdef public bint ok
    # filled while the engines score (``later``): pairs start .. start + ready - 1 are queued (their
    # summaries, and ``first`` up to the next pair), published with release order; an engine
    # waits for its chunk's pairs; ``failed``: another kind of input was met (ok False), leave
    cdef object cands, refs
    cdef Py_ssize_t ready
    cdef int32_t failed
    cdef int32_t entered      # engines in _id_job_loop
    cdef Py_ssize_t nids      # ``later``: the ids of every summary, counted by len() before filling

    def __cinit__(self, candidates, references, Py_ssize_t start, Py_ssize_t end, Py_ssize_t chunk,
                  double[:, :, ::1] out, bint later=False):
        cdef Py_ssize_t n = end - start, i, count = 0
        memset(&self.pend, 0, sizeof(IdPend))
        self.start, self.n, self.chunk = start, n, chunk
        self.nchunks = (n + chunk - 1) // chunk if n > 0 else 0
        self.out = out
        self.first = <Py_ssize_t*>malloc((n + 1) * sizeof(Py_ssize_t))
        self.err = <int*>calloc(self.nchunks + 1, sizeof(int))
        self.bad = <int64_t*>calloc(self.nchunks + 1, sizeof(int64_t))
        self.at = <Py_ssize_t*>calloc(self.nchunks + 1, sizeof(Py_ssize_t))
        self.at_ref = <int*>calloc(self.nchunks + 1, sizeof(int))
        if self.first == NULL or self.err == NULL or self.bad == NULL or self.at == NULL or self.at_ref == NULL:
            raise MemoryError()
        self.ok = False
        if later:   # only sized now (fill queues them): every summary's room reserved, ids counted
            for i in range(start, end):
                refs = _id_refs(references[i])
                if refs is None:
                    return
                try:
                    count += 1 + len(refs)
                    self.nids += len(candidates[i])
                    for r in refs:
                        self.nids += len(r)
                except TypeError:
                    return   # not token ids: prepare_ids says what is wrong
            _idpend_reserve(&self.pend, count + 1)
            self.cands, self.refs = candidates, references
            self.first[0] = 0
            self.ok = True
            return
        if not self.walk(candidates, references, start, end, False):
            return   # prepare_ids reads them, and says what is wrong, in order
        self.first[n] = self.pend.n
        self.ready = n
        self.ok = True

    def fill(self, Py_ssize_t upto):
        """(a job made ``later``) Queue pairs start + ready .. start + upto - 1 and let the engines
        read them; False (and ``ok`` False, the engines leave) when some summary is another kind
        of input or there are more summaries than counted (the pairs changed meanwhile)."""
        cdef Py_ssize_t was = self.ready
        cdef bint done = False
        if self.cands is None or self.failed or upto <= was:
            return bool(self.ok)
        try:
            done = bool(self.walk(self.cands, self.refs, self.start + was, self.start + upto, False))
        finally:
            if not done:   # nothing more is published: the engines leave
                self.ok = False
                self.cands = self.refs = None
                rkb_st_i32(&self.failed, 1)
        if not done:
            return False
        self.first[upto] = self.pend.n   # the next pair's candidate comes next
        rkb_st_rel(&self.ready, upto)
        if upto == self.n:
            self.cands = self.refs = None
        return True

    def let_in(self, int engines, Py_ssize_t spins):
        """Release the GIL for a while (at most ``spins`` pauses) so that ``engines`` engines on
        other threads can start reading this job; whether they all have."""
        cdef Py_ssize_t i
        with nogil:
            for i in range(spins):
                if rkb_ld_i32(&self.entered) >= engines:
                    break
                rkb_relax()
        return rkb_ld_i32(&self.entered) >= engines

    cdef int visit(self, object summary, Py_ssize_t pair, int ref) except -1:
        if self.pend.n == self.pend.cap and self.cands is not None:
            return 0   # more summaries than counted: the engines read these arrays, never moved
        # a pair's candidate starts at pend.n: written once (first[ready], the pair after the
        # published ones, was written by fill with the same value, and an engine may read it)
        if ref < 0 and (self.cands is None or pair - self.start != self.ready):
            self.first[pair - self.start] = self.pend.n
        return _idpend_add(&self.pend, summary, NULL, NULL, pair, ref)

    def __dealloc__(self):
        _idpend_free(&self.pend)
        free(self.first)
        free(self.err)
        free(self.bad)
        free(self.at)
        free(self.at_ref)

    def halt(self):
        """Let the engines take no further chunk (the caller was interrupted)."""
        rkb_st_i32(&self.stop, 1)

    @property
    def pairs(self):
        """The job's pairs."""
        return self.n

    @property
    def ids(self):
        """The token ids of every summary (the call's work, for how many threads to use)."""
        cdef Py_ssize_t k, total = 0
        if self.nids:
            return self.nids
        for k in range(self.pend.n):
            total += self.pend.views[k].shape[0]
        return total

    @property
    def error_chunk(self):
        """(after every engine is done) The first chunk in error, or -1."""
        cdef Py_ssize_t c
        for c in range(self.nchunks):
            if self.err[c] != 0:
                return c
        return -1

    def raise_first_error(self):
        """(after every engine is done) The error of the first pair in error, as prepare_ids raises it."""
        cdef Py_ssize_t c
        for c in range(self.nchunks):
            if self.err[c] == _BAD_ID:
                _out_of_range(self.bad[c], self.at[c], self.at_ref[c])
            if self.err[c] == _NO_MEMORY:
                raise MemoryError()
            if self.err[c] != 0:
                _count_error(self.err[c], self.at[c])



cdef Py_ssize_t _raw_bound(_IdJob job, Py_ssize_t q0, Py_ssize_t q1) noexcept nogil:
    """1 + the largest id of summaries q0:q1 when every id lies in 0 .. _RAW_IDS - 1, else -1."""
    cdef Py_ssize_t k
    cdef uint32_t hi = 0
    for k in range(q0, q1):   # a negative id is a huge unsigned one
        hi = rkb_umax(<const int32_t*>job.pend.views[k].buf, job.pend.views[k].shape[0], hi)
        if hi >= _RAW_IDS:
            return -1
    return <Py_ssize_t>hi + 1


cdef int _run_id_chunk(_Engine eng, _IdJob job, Py_ssize_t c, Work* w, Buf* docs, Buf* ptrs) except -1 nogil:
    """Read and score chunk ``c`` of ``job`` with engine ``eng`` (its IdMap, slab, word limit)."""
    cdef Py_ssize_t s = job.start + c * job.chunk, e, i, k, q0, q1, nd, npairs, nr, at = 0, a, b, r, nvocab, ntok
    cdef DocC* d
    cdef int32_t* so
    cdef int32_t* soff
    cdef const DocC** peers
    cdef const DocC** refs
    cdef Py_ssize_t* roff
    cdef int rc
    cdef int64_t badv = 0
    e = s + job.chunk
    if e > job.start + job.n:
        e = job.start + job.n
    npairs = e - s
    q0 = job.first[s - job.start]
    q1 = job.first[e - job.start]
    nd = q1 - q0
    nr = nd - npairs
    if (_need(docs, nd + 1, sizeof(DocC)) < 0
            or _need(ptrs, (npairs + nr + 2) * sizeof(DocC*) + (npairs + 1) * sizeof(Py_ssize_t), 1) < 0):
        job.err[c] = _NO_MEMORY
        return 0
    _slab_reset(&eng.slab)
    d = <DocC*>docs.p
    nvocab = _raw_bound(job, q0, q1)
    if nvocab >= 0:   # the arrays as they are: one sentence each, cut to the word limit
        soff = _slab_take(&eng.slab, 2 * nd)
        if soff == NULL:
            job.err[c] = _NO_MEMORY
            return 0
        for k in range(q0, q1):
            ntok = job.pend.views[k].shape[0]
            if 0 < eng.word_limit < ntok:
                ntok = eng.word_limit
            so = soff + 2 * (k - q0)
            so[0] = 0
            so[1] = <int32_t>ntok
            _doc_set(&d[k - q0], <int32_t*>job.pend.views[k].buf, ntok, <int32_t*>job.pend.views[k].buf, ntok,
                     so, 1 if ntok > 0 else 0)
    else:
        rc = _read_queued(eng, &job.pend, q0, q1, d, &badv, &k)
        if rc != 0:
            job.err[c] = _BAD_ID if rc == 1 else _NO_MEMORY
            job.bad[c] = badv
            job.at[c] = job.pend.pair[k]
            job.at_ref[c] = job.pend.ref[k]
            return 0
    peers = <const DocC**>ptrs.p
    refs = peers + npairs + 1
    roff = <Py_ssize_t*>(refs + nr + 1)
    roff[0] = 0
    r = 0
    for i in range(npairs):
        a = job.first[s - job.start + i]
        b = job.first[s - job.start + i + 1]
        peers[i] = &d[a - q0]
        for k in range(a + 1, b):
            refs[r] = &d[k - q0]
            r += 1
        roff[i + 1] = r
    if npairs > 0:
        rc = eng._score_chunk(peers, refs, roff, npairs, s, w, &job.out[0, 0, 0], &at, nvocab)
        if rc != 0:
            job.err[c] = rc
            job.at[c] = s + at
    return 0


cdef int _id_job_loop(_Engine eng, _IdJob job, Work* w, Buf* docs, Buf* ptrs) except -1 nogil:
    """Claim chunks of ``job`` and read and score them until none is left (_Engine.run_id_job);
    a chunk of a job still being filled waits for its pairs (the filling thread queues them
    faster than they are scored), and none is taken once the job failed or was halted."""
    cdef Py_ssize_t c, e
    rkb_inc_i32(&job.entered)
    while True:
        c = rkb_claim(&job.next)
        if c >= job.nchunks or rkb_ld_i32(&job.stop):
            break
        e = (c + 1) * job.chunk
        if e > job.n:
            e = job.n
        while rkb_ld_acq(&job.ready) < e:
            if rkb_ld_i32(&job.failed) or rkb_ld_i32(&job.stop):
                return 0
            rkb_relax()
        _run_id_chunk(eng, job, c, w, docs, ptrs)
    return 0
