# The engine's vocabulary table (tokenize.pxi's VEntry slots): its
# growth and the insertion of a new type (the tokenizer's slow paths; _Engine._intern finds the types
# met before), and a benchmark hook that runs the tokenizer alone.  No ROUGE behaviour here.


cdef int _vocab_rehash(_Engine self, Py_ssize_t ncap) except -1 nogil:
    """The engine's vocabulary table moved to ``ncap`` slots."""
    cdef Py_ssize_t i, s, msk = ncap - 1, n
    cdef int shift = _vshift(ncap)
    cdef VEntry* nt = <VEntry*>rkb_big_alloc(ncap * _VSLOT)
    cdef VEntry* e
    cdef uint64_t h
    if nt == NULL:
        with gil:
            raise MemoryError()
    for i in range(self.vcap):
        e = &self.vt[i]
        if e.w0:
            if e.off == _SHORT:
                h = _vhash(e.w0, e.w1, NULL, 0, 0)
            else:
                n = (<uint32_t*>(self.arena + e.off))[0]
                h = _vhash(e.w0, e.w1, self.arena + e.off + 4, n, self.arena_cap - e.off - 4)
            s = <Py_ssize_t>(h >> shift)
            while nt[s].w0:
                s = (s + 1) & msk
            nt[s] = e[0]
    rkb_big_free(self.vt, self.vcap * _VSLOT)
    self.vt = nt
    self.vcap = ncap
    self.vshift = shift
    return 0


cdef uint32_t _vocab_insert(_Engine self, const uint8_t* p, Py_ssize_t n, uint64_t w0, uint64_t w1, int32_t fid,
                           uint64_t h) except 4294967294 nogil:
    """Add the type p[:n] (not in the table; words w0, w1 and hash h: _vhash) with id ``fid``;
    returns its arena offset (a type longer than 16 bytes keeps its bytes there) or _SHORT."""
    cdef Py_ssize_t s, msk, cap, need
    cdef uint8_t* q
    cdef VEntry* e
    cdef uint32_t off = _SHORT
    cdef uint32_t ln
    if n > 16:
        need = self.arena_n + 8 + n
        if need >= <Py_ssize_t>0xFFFFFFF0:
            with gil:
                raise MemoryError("rougekit batch vocabulary arena is full (4 GB of long tokens)")
        if need > self.arena_cap:
            cap = self.arena_cap * 2
            while cap < need:
                cap *= 2
            q = <uint8_t*>realloc(self.arena, cap)
            if q == NULL:
                with gil:
                    raise MemoryError()
            self.arena = q
            self.arena_cap = cap
        self.arena_n = (self.arena_n + 3) & ~(<Py_ssize_t>3)
        off = <uint32_t>self.arena_n
        ln = <uint32_t>n
        memcpy(self.arena + off, &ln, 4)
        q = self.arena + off + 4
        for s in range(n):
            q[s] = p[s] | 0x20
        self.arena_n += 4 + n
    if 2 * (self.vcount + 1) > self.vcap:
        _vocab_rehash(self, self.vcap * 2)
    msk = self.vcap - 1
    s = <Py_ssize_t>(h >> self.vshift)
    while self.vt[s].w0:
        s = (s + 1) & msk
    e = &self.vt[s]
    e.w0 = w0
    e.w1 = w1
    e.off = off
    e.id = fid
    self.vcount += 1
    return off


def _tokenize_rows(_Engine self, const uint8_t[::1] data, const int64_t[::1] offsets):
    """Benchmark hook: every text ``data[offsets[k]:offsets[k + 1]]`` split into sentences and
    tokenized as a summary is (no scoring, nothing kept); the number of tokens kept, all texts."""
    cdef Py_ssize_t k, total = 0, nt = offsets.shape[0] - 1
    if nt < 0 or (nt > 0 and (offsets[0] < 0 or offsets[nt] > data.shape[0])):
        raise ValueError("offsets outside the data")
    with nogil:
        for k in range(nt):
            self._build(&data[0] + offsets[k], offsets[k + 1] - offsets[k])
            total += self.st.n
    return total
