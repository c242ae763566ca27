# Growable C buffers of _batch.pyx: ``Buf`` (any element type; ``_need`` keeps the contents,
# ``_need_zeroed`` hands out a zeroed block for stamp-cleared tables), ``IntBuf`` (int32, ``_push``).
# No ROUGE behaviour here.

cdef extern from *:
    """
    /* Zeroed blocks of 1 MiB or more (the vocabulary tables, the chunk slab) straight from the
       kernel, aligned to 2 MiB and marked for transparent huge pages on Linux (as numpy does for
       its large arrays): a new engine's first call touches them once, and 4 KiB page faults
       from two threads at once cost far more than the few huge ones.  Smaller blocks, and other
       systems, use calloc.  rkb_big_free takes the size given to rkb_big_alloc. */
    #include <stdlib.h>
    #define RKB_BIG ((size_t)1 << 20)
    #if defined(__linux__)
    #include <sys/mman.h>
    #include <stdint.h>
    #define RKB_HUGE ((size_t)1 << 21)
    static size_t rkb_big_round(size_t n) { return (n + RKB_HUGE - 1) & ~(RKB_HUGE - 1); }
    static void* rkb_big_alloc(size_t n) {
        size_t len, lead;
        char* p;
        if (n < RKB_BIG) return calloc(n ? n : 1, 1);
        len = rkb_big_round(n);
        p = (char*)mmap(NULL, len + RKB_HUGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == (char*)MAP_FAILED) return NULL;
        lead = (RKB_HUGE - ((uintptr_t)p & (RKB_HUGE - 1))) & (RKB_HUGE - 1);
        if (lead) munmap(p, lead);
        munmap(p + lead + len, RKB_HUGE - lead);
        p += lead;
    #ifdef MADV_HUGEPAGE
        madvise(p, len, MADV_HUGEPAGE);
    #endif
        return p;
    }
    static void rkb_big_free(void* p, size_t n) {
        if (p == NULL) return;
        if (n < RKB_BIG) free(p); else munmap(p, rkb_big_round(n));
    }
    #else
    static void* rkb_big_alloc(size_t n) { return calloc(n ? n : 1, 1); }
    static void rkb_big_free(void* p, size_t n) { (void)n; free(p); }
    #endif
    """
    void* rkb_big_alloc(size_t n) nogil
    void rkb_big_free(void* p, size_t n) nogil

cdef struct Buf:
    void* p
    Py_ssize_t cap      # in elements


cdef inline Py_ssize_t _grown(Py_ssize_t cap, Py_ssize_t n) noexcept nogil:
    """A buffer's new capacity for n elements: doubled, at least n and 16."""
    cap = cap * 2
    if cap < n:
        cap = n
    if cap < 16:
        cap = 16
    return cap


cdef inline int _need(Buf* b, Py_ssize_t n, size_t sz) noexcept nogil:
    cdef Py_ssize_t cap
    cdef void* q
    if n <= b.cap:
        return 0
    cap = _grown(b.cap, n)
    q = realloc(b.p, cap * sz)
    if q == NULL:
        return -1
    b.p = q
    b.cap = cap
    return 0


cdef inline int _need_zeroed(Buf* b, Py_ssize_t n, size_t sz) noexcept nogil:
    """Like ``_need`` but a new block is all zeros (for stamp-based tables / zero-invariant bitsets)."""
    cdef Py_ssize_t cap
    cdef void* q
    if n <= b.cap:
        return 0
    cap = _grown(b.cap, n)
    q = calloc(cap, sz)
    if q == NULL:
        return -1
    free(b.p)
    b.p = q
    b.cap = cap
    return 0


# The token memory of one chunk's summaries: a few large blocks that an engine keeps from chunk
# to chunk (and call to call), handed out front to back and all taken back at once.  A malloc per
# summary made a new engine grow the C heap a few pages at a time on its first large call (two
# threads at once contend for the process's memory map: about 30 ms of 115 on 34,470 pairs).
cdef enum:
    SLAB_WORDS = 1 << 19    # int32 values in a block (2 MiB: one huge page)
    SLAB_KEEP = 2           # blocks kept when taken back (larger ones for long summaries are freed)


cdef struct Slab:
    int32_t** block
    Py_ssize_t* size       # int32 values in each block
    Py_ssize_t n           # blocks allocated
    Py_ssize_t cap         # room in block / size
    Py_ssize_t cur         # the block being handed out
    Py_ssize_t used        # values handed out of block cur


cdef int32_t* _slab_take(Slab* s, Py_ssize_t n) noexcept nogil:
    """``n`` int32 values valid until the next :func:`_slab_reset`; NULL when out of memory."""
    cdef int32_t* p
    cdef void* q
    cdef Py_ssize_t want
    while s.cur < s.n:
        if s.used + n <= s.size[s.cur]:
            p = s.block[s.cur] + s.used
            s.used += n
            return p
        if s.used == 0 and n > s.size[s.cur]:   # an unused block too small for this summary
            rkb_big_free(s.block[s.cur], s.size[s.cur] * sizeof(int32_t))
            s.block[s.cur] = <int32_t*>rkb_big_alloc(n * sizeof(int32_t))
            if s.block[s.cur] == NULL:
                s.size[s.cur] = 0
                return NULL
            s.size[s.cur] = n
            continue
        s.cur += 1
        s.used = 0
    if s.n == s.cap:
        want = s.cap * 2 if s.cap else 8
        q = realloc(s.block, want * sizeof(int32_t*))
        if q == NULL:
            return NULL
        s.block = <int32_t**>q
        q = realloc(s.size, want * sizeof(Py_ssize_t))
        if q == NULL:
            return NULL
        s.size = <Py_ssize_t*>q
        s.cap = want
    want = n if n > SLAB_WORDS else SLAB_WORDS
    p = <int32_t*>rkb_big_alloc(want * sizeof(int32_t))
    if p == NULL:
        return NULL
    s.block[s.n] = p
    s.size[s.n] = want
    s.cur = s.n
    s.n += 1
    s.used = n
    return p


cdef void _slab_reset(Slab* s) noexcept nogil:
    """Take back every value handed out; keep at most SLAB_KEEP blocks of the usual size."""
    cdef Py_ssize_t i, kept = 0
    for i in range(s.n):
        if kept < SLAB_KEEP and s.size[i] == SLAB_WORDS:
            s.block[kept] = s.block[i]
            s.size[kept] = SLAB_WORDS
            kept += 1
        else:
            rkb_big_free(s.block[i], s.size[i] * sizeof(int32_t))
    s.n = kept
    s.cur = 0
    s.used = 0


cdef void _slab_free(Slab* s) noexcept nogil:
    cdef Py_ssize_t i
    for i in range(s.n):
        rkb_big_free(s.block[i], s.size[i] * sizeof(int32_t))
    free(s.block)
    free(s.size)
    memset(s, 0, sizeof(Slab))
