# Growable C buffers of _batch.pyx: ``Buf`` (any element type; ``_need`` keeps the contents,
# ``_need_zeroed`` hands out a zeroed block for stamp-cleared tables), ``IntBuf`` (int32, ``_push``).
# No ROUGE behaviour here.

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
