# A processed summary (DocC, owned by a _Doc): its joined tokens (the script's readText, what
# ROUGE-N/S/SU count) and its sentence tokens (readText_LCS, what ROUGE-L/W use); the two differ
# only under -b, which the script applies to each reading separately (docs/rouge155).

cdef struct DocC:
    int32_t* tok       # joined tokens (readText)
    int32_t ntok
    int32_t* stok      # sentence tokens (readText_LCS), concatenated; == tok unless -b is set
    int32_t nstok
    int32_t* soff      # nsent + 1 offsets into stok
    int32_t nsent
    int32_t maxsent


cdef inline void _doc_set(DocC* d, int32_t* tok, Py_ssize_t ntok, int32_t* stok, Py_ssize_t nstok,
                          int32_t* soff, Py_ssize_t nsent) noexcept nogil:
    """The one DocC builder: ``d`` points at the joined tokens, the sentence tokens and the nsent + 1
    sentence offsets into them; ``maxsent`` (the longest sentence) from the offsets."""
    cdef Py_ssize_t i, mx = 0
    d.tok = tok
    d.ntok = <int32_t>ntok
    d.stok = stok
    d.nstok = <int32_t>nstok
    d.soff = soff
    d.nsent = <int32_t>nsent
    for i in range(nsent):
        if soff[i + 1] - soff[i] > mx:
            mx = soff[i + 1] - soff[i]
    d.maxsent = <int32_t>mx


cdef enum:
    TEXT_NON_ASCII = 1  # _Doc.flags: the text holds a character outside ASCII
    TEXT_MARKED = 2     # ... or a '<'


cdef class _Doc:
    cdef DocC d
    cdef int32_t* mem
    cdef unsigned char flags  # TEXT_NON_ASCII | TEXT_MARKED of the text it was read from (the front ends' checks)

    def __dealloc__(self):
        free(self.mem)

    def tokens(self):
        return [self.d.tok[i] for i in range(self.d.ntok)]

    def sentences(self):
        return [[self.d.stok[k] for k in range(self.d.soff[i], self.d.soff[i + 1])]
                for i in range(self.d.nsent)]


cdef struct IntBuf:
    int32_t* data
    Py_ssize_t n
    Py_ssize_t cap


cdef inline int _reserve(IntBuf* b, Py_ssize_t extra) except -1 nogil:
    """Room for ``extra`` more values in ``b`` (doubling)."""
    cdef Py_ssize_t cap
    cdef int32_t* q
    if b.n + extra <= b.cap:
        return 0
    cap = b.cap * 2 if b.cap > 0 else 256
    while cap < b.n + extra:
        cap *= 2
    q = <int32_t*>realloc(b.data, cap * sizeof(int32_t))
    if q == NULL:
        with gil:
            raise MemoryError()
    b.data = q
    b.cap = cap
    return 0


cdef inline int _push(IntBuf* b, int32_t v) except -1 nogil:
    cdef Py_ssize_t cap
    cdef int32_t* q
    if b.n == b.cap:
        cap = b.cap * 2 if b.cap > 0 else 256
        q = <int32_t*>realloc(b.data, cap * sizeof(int32_t))
        if q == NULL:
            with gil:
                raise MemoryError()
        b.data = q
        b.cap = cap
    b.data[b.n] = v
    b.n += 1
    return 0


# the candidates and references of one chunk of pairs (_Engine.prepare / prepare_ids)
cdef class _Chunk:
    cdef const DocC** peers
    cdef const DocC** refs
    cdef Py_ssize_t* roff
    cdef Py_ssize_t n
    cdef Py_ssize_t start

    def __dealloc__(self):
        free(self.peers)
        free(self.refs)
        free(self.roff)

    cdef Py_ssize_t put_ref(self, Py_ssize_t nr, Py_ssize_t cap, const DocC* ref) except -1:
        """Store reference ``nr`` (doubling the array of ``cap`` slots when full); the new capacity."""
        cdef void* q
        if nr == cap:
            cap *= 2
            q = realloc(self.refs, cap * sizeof(DocC*))
            if q == NULL:
                raise MemoryError()
            self.refs = <const DocC**>q
        self.refs[nr] = ref
        return cap
