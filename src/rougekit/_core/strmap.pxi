# A byte-string -> int32 hash map with its own arena (open addressing, 64-bit hashes): the
# stopword list, the final (stemmed) token ids, and token ids >= 2**20 given as ids.
# No ROUGE behaviour here.

cdef struct SEntry:
    uint64_t h         # 0: an empty slot (stored hashes are never 0)
    uint32_t off       # arena offset of the key's bytes
    uint32_t n
    int32_t val


cdef struct StrMap:
    SEntry* t
    Py_ssize_t cap     # a power of two (0 before the first put)
    Py_ssize_t count
    uint8_t* arena
    Py_ssize_t an
    Py_ssize_t acap


cdef inline uint64_t _str_hash(const uint8_t* p, Py_ssize_t n) noexcept nogil:
    cdef uint64_t h = <uint64_t>14695981039346656037ULL
    cdef Py_ssize_t k
    for k in range(n):
        h = (h ^ p[k]) * <uint64_t>1099511628211
    h = mix64(h ^ <uint64_t>n)
    return h if h != 0 else 1


cdef inline int32_t _smap_get(const StrMap* m, const uint8_t* p, Py_ssize_t n, uint64_t h,
                              int32_t missing) noexcept nogil:
    """The value stored for p[:n] (hash h), or ``missing``."""
    cdef Py_ssize_t s, msk
    cdef const SEntry* e
    if m.cap == 0:
        return missing
    msk = m.cap - 1
    s = <Py_ssize_t>(h & msk)
    while m.t[s].h:
        e = &m.t[s]
        if e.h == h and e.n == n and memcmp(m.arena + e.off, p, n) == 0:
            return e.val
        s = (s + 1) & msk
    return missing


cdef int _smap_put(StrMap* m, const uint8_t* p, Py_ssize_t n, uint64_t h, int32_t val) noexcept nogil:
    """Add p[:n] -> val (p[:n] must not be in the map); 0, or -1 when out of memory."""
    cdef Py_ssize_t s, i, ncap, msk
    cdef SEntry* nt
    cdef uint8_t* q
    if 2 * (m.count + 1) > m.cap:
        ncap = m.cap * 2 if m.cap else 64
        nt = <SEntry*>rkb_big_alloc(ncap * sizeof(SEntry))
        if nt == NULL:
            return -1
        msk = ncap - 1
        for i in range(m.cap):
            if m.t[i].h:
                s = <Py_ssize_t>(m.t[i].h & msk)
                while nt[s].h:
                    s = (s + 1) & msk
                nt[s] = m.t[i]
        rkb_big_free(m.t, m.cap * sizeof(SEntry))
        m.t = nt
        m.cap = ncap
    if m.an + n > m.acap:
        ncap = m.acap * 2 if m.acap else 4096
        while ncap < m.an + n:
            ncap *= 2
        if ncap >= <Py_ssize_t>0xFFFFFFF0:
            return -1
        q = <uint8_t*>realloc(m.arena, ncap)
        if q == NULL:
            return -1
        m.arena = q
        m.acap = ncap
    memcpy(m.arena + m.an, p, n)
    msk = m.cap - 1
    s = <Py_ssize_t>(h & msk)
    while m.t[s].h:
        s = (s + 1) & msk
    m.t[s].h = h
    m.t[s].off = <uint32_t>m.an
    m.t[s].n = <uint32_t>n
    m.t[s].val = val
    m.an += n
    m.count += 1
    return 0


cdef int _smap_reserve(StrMap* m, Py_ssize_t cap) noexcept nogil:
    """An empty map's table made ``cap`` slots (a power of two) at once; 0, or -1 (out of memory)."""
    m.t = <SEntry*>rkb_big_alloc(cap * sizeof(SEntry))
    if m.t == NULL:
        return -1
    m.cap = cap
    return 0


cdef void _smap_free(StrMap* m) noexcept nogil:
    rkb_big_free(m.t, m.cap * sizeof(SEntry))
    free(m.arena)
    memset(m, 0, sizeof(StrMap))
