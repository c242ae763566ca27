# Token-id summaries for _batch.pyx (``include "ids.pxi"``): the compiled twin of inputs.py.
#
# A summary given as token ids skips the tokenizer, the stemmer and the stopwords: its ids are
# read (from a list of ints or any one-dimensional integer buffer, e.g. an int32 numpy array),
# checked (0 to 2**31-1), cut to the first ``word_limit`` ids (the script's -l on tokens) and
# mapped to the engine's dense ids, which index the per-pair tables of _score_pair.  Empty
# sentences are dropped.  inputs.py decides the nesting (id_level) in the same way.

from libc.stdint cimport int8_t, int16_t, uint16_t
from cpython.buffer cimport PyObject_CheckBuffer, PyObject_GetBuffer, PyBuffer_Release, PyBUF_RECORDS_RO
from cpython.long cimport PyLong_AsLongLong, PyLong_AsLongLongAndOverflow
from cpython.sequence cimport PySequence_Fast_ITEMS

from rougekit._core import inputs as _inputs

cdef str _where(Py_ssize_t pair, int ref):
    """Names a summary in an error message, counting from 1: ``pair 3: candidate``, ``pair 3: reference 2``."""
    return f"pair {pair + 1}: candidate" if ref < 0 else f"pair {pair + 1}: reference {ref + 1}"


cdef int _out_of_range(object v, Py_ssize_t pair, int ref) except -1:
    raise InputError(f"{_where(pair, ref)}: token id {v} is out of range (0 to 2**31-1)")


cdef const char* _FMT_B = "B"   # a buffer without a format holds unsigned bytes
cdef const char* _FMT_OWN = "i"  # the format of a list's int32 copy (its address marks the copy)


cdef enum:
    _ID_DIRECT_MAX = 1 << 20     # raw ids below this are mapped by a direct table (4 MB at most)
    _ID_MAX = 0x7FFFFFFF


cdef struct IdMap:
    int32_t* direct     # raw id -> dense id (-1: not seen yet), for raw ids below dcap
    Py_ssize_t dcap
    StrMap big          # raw ids >= _ID_DIRECT_MAX, keyed by their 4 bytes
    int32_t count       # dense ids given so far


cdef void _idmap_free(IdMap* m) noexcept:
    free(m.direct)
    _smap_free(&m.big)
    memset(m, 0, sizeof(IdMap))


cdef int32_t _idmap_new(IdMap* m, uint32_t v) noexcept nogil:
    """Dense id of raw id v that is not in the direct table yet (grows it, or uses the map); -2:
    out of memory."""
    cdef Py_ssize_t cap, k
    cdef int32_t* q
    cdef int32_t d
    cdef uint64_t h
    if v < _ID_DIRECT_MAX:
        if v >= m.dcap:
            cap = pow2_at_least(<Py_ssize_t>v + 1)
            q = <int32_t*>realloc(m.direct, cap * sizeof(int32_t))
            if q == NULL:
                return -2
            for k in range(m.dcap, cap):
                q[k] = -1
            m.direct = q
            m.dcap = cap
        if m.direct[v] < 0:
            m.direct[v] = m.count
            m.count += 1
        return m.direct[v]
    h = _str_hash(<const uint8_t*>&v, 4)
    d = _smap_get(&m.big, <const uint8_t*>&v, 4, h, -1)
    if d < 0:
        d = m.count
        if _smap_put(&m.big, <const uint8_t*>&v, 4, h, d) < 0:
            return -2
        m.count += 1
    return d


cdef int32_t _idmap_slow(IdMap* m, uint32_t v) except -1:
    """:func:`_idmap_new`, MemoryError when out of memory."""
    cdef int32_t d = _idmap_new(m, v)
    if d == -2:
        raise MemoryError()
    return d


cdef inline int32_t _idmap_get(IdMap* m, int64_t v, Py_ssize_t pair, int ref) except -1:
    cdef int32_t d
    if v < 0 or v > _ID_MAX:
        _out_of_range(v, pair, ref)
    if v < m.dcap:
        d = m.direct[v]
        if d >= 0:
            return d
    return _idmap_slow(m, <uint32_t>v)


# The common input, one contiguous int32 array per summary, is read without the GIL: prepare_ids
# gets each array's buffer (GIL), then maps all the queued arrays at once (no GIL), so the jobs'
# engines read their chunks in parallel.

cdef struct IdPend:
    Py_buffer* views
    DocC** dst
    int32_t*** slot
    Py_ssize_t* pair
    int* ref
    Py_ssize_t n
    Py_ssize_t cap


cdef extern from *:
    """
    /* An int object's value when it is compact (one digit, below 2**30): 1, else 0 (read it with
       the API). The layout of an int is CPython's own: its unstable API from 3.12, the digits before. */
    #if PY_VERSION_HEX >= 0x030C0000
    static inline int rk_compact_long(PyObject *o, long long *v) {
        if (!PyUnstable_Long_IsCompact((PyLongObject *)o)) return 0;
        *v = (long long)PyUnstable_Long_CompactValue((PyLongObject *)o);
        return 1;
    }
    #else
    static inline int rk_compact_long(PyObject *o, long long *v) {
        Py_ssize_t size = Py_SIZE(o);
        if (size == 0) { *v = 0; return 1; }
        if (size == 1) { *v = (long long)((PyLongObject *)o)->ob_digit[0]; return 1; }
        return 0;
    }
    #endif
    """
    int rk_compact_long(PyObject* o, long long* v) nogil


cdef void* _list_int32(object x) except? NULL:
    """(GIL) A flat list or tuple of ints, every one 0 to 2**31-1, copied into a new block: its
    length (a Py_ssize_t) then the ids as int32; NULL when ``x`` is anything else (an item of
    another type, an id out of range: read the slow way, which names it).  One C loop over the
    item array, no Python call per id (the token ids of TRL's ``completion_ids`` are such lists)."""
    cdef Py_ssize_t k, n = len(x)
    cdef PyObject** items = PySequence_Fast_ITEMS(x)
    cdef PyObject* e
    cdef long long v
    cdef int overflow = 0
    cdef char* block = <char*>malloc(sizeof(Py_ssize_t) + 4 * n + 4)
    cdef int32_t* data
    if block == NULL:
        raise MemoryError()
    (<Py_ssize_t*>block)[0] = n
    data = <int32_t*>(block + sizeof(Py_ssize_t))
    for k in range(n):
        e = items[k]
        if type(<object>e) is not int:
            free(block)
            return NULL
        if not rk_compact_long(e, &v):
            v = PyLong_AsLongLongAndOverflow(<object>e, &overflow)
        if overflow or v < 0 or v > _ID_MAX:
            free(block)
            return NULL
        data[k] = <int32_t>v
    return block


cdef int _idpend_reserve(IdPend* q, Py_ssize_t cap) except -1:
    """(GIL) Room for ``cap`` queued summaries (an _IdJob filled while engines read it reserves
    them all first: its arrays then never move)."""
    cdef void* t
    if cap <= q.cap:
        return 0
    t = realloc(q.views, cap * sizeof(Py_buffer))
    if t == NULL:
        raise MemoryError()
    q.views = <Py_buffer*>t
    t = realloc(q.dst, cap * sizeof(DocC*))
    if t == NULL:
        raise MemoryError()
    q.dst = <DocC**>t
    t = realloc(q.slot, cap * sizeof(int32_t**))
    if t == NULL:
        raise MemoryError()
    q.slot = <int32_t***>t
    t = realloc(q.pair, cap * sizeof(Py_ssize_t))
    if t == NULL:
        raise MemoryError()
    q.pair = <Py_ssize_t*>t
    t = realloc(q.ref, cap * sizeof(int))
    if t == NULL:
        raise MemoryError()
    q.ref = <int*>t
    q.cap = cap
    return 0


cdef int _idpend_add(IdPend* q, object x, DocC* dst, int32_t** slot, Py_ssize_t pair, int ref) except -1:
    """(GIL) Queue ``x`` when it is a contiguous one-dimensional int32 buffer, or a flat list or
    tuple of ints in range (copied as int32, see _list_int32): 1; else 0 (not queued)."""
    cdef Py_buffer* v
    cdef const char* f
    cdef void* block = NULL
    if type(x) is list or type(x) is tuple:
        if len(x) == 0 or type((<object>PySequence_Fast_ITEMS(x)[0])) is not int:
            return 0
        block = _list_int32(x)
        if block == NULL:
            return 0
    elif not PyObject_CheckBuffer(x) or isinstance(x, (bytes, bytearray)):
        return 0
    if q.n == q.cap:
        _idpend_reserve(q, 2 * q.cap if q.cap else 64)
    v = &q.views[q.n]
    if block != NULL:   # the copy: no exporter (obj NULL), the block freed on release (internal)
        memset(v, 0, sizeof(Py_buffer))
        v.buf = <char*>block + sizeof(Py_ssize_t)
        v.shape = <Py_ssize_t*>block
        v.internal = block
        v.ndim = 1
        v.itemsize = 4
        v.len = 4 * (<Py_ssize_t*>block)[0]
        v.readonly = 1
        v.format = <char*>_FMT_OWN
        q.dst[q.n] = dst
        q.slot[q.n] = slot
        q.pair[q.n] = pair
        q.ref[q.n] = ref
        q.n += 1
        return 1
    PyObject_GetBuffer(x, v, PyBUF_RECORDS_RO)
    f = v.format
    if f != NULL and f[0] == b"@":
        f += 1
    if (v.ndim != 1 or f == NULL or f[0] != b"i" or f[1] != 0 or v.itemsize != 4
            or (v.shape[0] > 1 and v.strides[0] != 4)):
        PyBuffer_Release(v)
        return 0
    q.dst[q.n] = dst
    q.slot[q.n] = slot
    q.pair[q.n] = pair
    q.ref[q.n] = ref
    q.n += 1
    return 1


cdef void _idpend_release(IdPend* q) noexcept:
    """(GIL) Release the queued buffers and empty the queue."""
    cdef Py_ssize_t k
    for k in range(q.n):
        if q.views[k].format == _FMT_OWN:   # a list's copy (_list_int32): no exporter to release
            free(q.views[k].internal)
            q.views[k].internal = NULL
        else:
            PyBuffer_Release(&q.views[k])
    q.n = 0


cdef void _idpend_free(IdPend* q) noexcept:
    _idpend_release(q)
    free(q.views)
    free(q.dst)
    free(q.slot)
    free(q.pair)
    free(q.ref)
    memset(q, 0, sizeof(IdPend))


cdef int _read_int32_nogil(IdMap* m, const int32_t* p, Py_ssize_t n, int word_limit, IntBuf* tok, IntBuf* off,
                           int64_t* bad) except -3 nogil:
    """One int32 summary (one sentence) into ``tok`` / ``off``, as _read_id_summary reads it: every
    id mapped (checked) before the word limit cuts; -1: id ``bad`` out of range; -2: no memory."""
    cdef Py_ssize_t k, dcap
    cdef int32_t s32, d
    cdef int32_t* dst
    cdef const int32_t* direct
    tok.n = 0
    off.n = 0
    _push(off, 0)
    _reserve(tok, n)
    dst = tok.data
    direct = m.direct
    dcap = m.dcap
    for k in range(n):
        s32 = p[k]
        d = direct[s32] if <uint32_t>s32 < <uint64_t>dcap else -1
        if d < 0:
            if s32 < 0:
                bad[0] = s32
                return -1
            d = _idmap_new(m, <uint32_t>s32)
            if d == -2:
                return -2
            direct = m.direct
            dcap = m.dcap
        dst[k] = d
    tok.n = n
    if word_limit > 0 and tok.n > word_limit:
        tok.n = word_limit
    if tok.n > 0:
        _push(off, <int32_t>tok.n)
    return 0


cdef int _id_level(object x) except -2:
    """1: a flat id sequence; 2: a sequence of sequences; 0: empty; -1: neither (as inputs.id_level)."""
    cdef Py_buffer view
    cdef int nd
    cdef Py_ssize_t k
    if type(x) is list or type(x) is tuple:
        if len(x) == 0:
            return 0
        if type(x[0]) is int:
            return 1
        first = x[0]
        # a list of id lists (a pair's references as TRL's columns hold them): no Python call
        if type(first) is list or type(first) is tuple:
            if len(first) == 0 or type(first[0]) is int:
                return 2
        # a list of arrays (its sentences, or references): no Python call (bytes are text, as in inputs.py)
        if PyObject_CheckBuffer(first) and not isinstance(first, (bytes, bytearray)):
            PyObject_GetBuffer(first, &view, PyBUF_RECORDS_RO)
            nd = view.ndim
            PyBuffer_Release(&view)
            if nd >= 1:
                return 2
        return _inputs.id_level(x)
    if isinstance(x, (str, bytes, bytearray)):
        return -1
    if PyObject_CheckBuffer(x):
        PyObject_GetBuffer(x, &view, PyBUF_RECORDS_RO)
        nd = view.ndim
        k = view.shape[0] if nd >= 1 else 0
        PyBuffer_Release(&view)
        if nd == 1:
            return 1
        if nd == 0:
            return -1
        return 2 if k else 0
    return _inputs.id_level(x)


cdef int _read_buffer(IdMap* m, object part, IntBuf* out, Py_ssize_t pair, int ref) except -1:
    """Append the dense ids of a one-dimensional integer buffer to ``out``."""
    cdef Py_buffer view
    PyObject_GetBuffer(part, &view, PyBUF_RECORDS_RO)
    try:
        return _read_view(m, &view, out, pair, ref)
    finally:
        PyBuffer_Release(&view)


cdef int _read_view(IdMap* m, Py_buffer* vp, IntBuf* out, Py_ssize_t pair, int ref) except -1:
    """Append the dense ids of a one-dimensional integer buffer (already got) to ``out``."""
    cdef const char* f
    cdef char c
    cdef Py_ssize_t k, n, st, dcap
    cdef const char* p
    cdef int64_t v
    cdef int32_t s32, d
    cdef int32_t* dst
    cdef const int32_t* direct
    cdef int isz
    cdef Py_buffer view = vp[0]
    f = view.format
    if f == NULL:
        f = _FMT_B
    if f[0] == b"@":
        f += 1
    c = f[0]
    if view.ndim != 1 or c == 0 or f[1] != 0 or memchr(b"bBhHiIlLqQnN", c, 12) == NULL:
        raise TypeError(f"{_where(pair, ref)}: token ids must be integers (got a buffer of format "
                        f"{(<bytes>f).decode('ascii', 'replace')!r})")
    n = view.shape[0]
    st = view.strides[0]
    isz = <int>view.itemsize
    p = <const char*>view.buf
    if c == b"i" and isz == 4 and st == 4:   # int32, contiguous (numpy's int32 arrays)
        _reserve(out, n)
        dst = out.data + out.n   # the table and the output in locals: stores to dst cannot move them
        direct = m.direct
        dcap = m.dcap
        for k in range(n):
            s32 = (<const int32_t*>p)[k]
            d = direct[s32] if <uint32_t>s32 < <uint64_t>dcap else -1
            if d < 0:   # a negative id (an error), or an id new to the engine (the table may grow)
                d = _idmap_get(m, s32, pair, ref)
                direct = m.direct
                dcap = m.dcap
            dst[k] = d
        out.n += n
        return 0
    for k in range(n):
        if c == b"i" and isz == 4:
            s32 = (<const int32_t*>(p + k * st))[0]
            if 0 <= s32 < m.dcap and m.direct[s32] >= 0:
                _push(out, m.direct[s32])
                continue
            v = s32
        elif isz == 8:
            if c >= b"a":   # lower case: signed
                v = (<const int64_t*>(p + k * st))[0]
            else:
                if (<const uint64_t*>(p + k * st))[0] > _ID_MAX:
                    _out_of_range((<const uint64_t*>(p + k * st))[0], pair, ref)
                v = <int64_t>(<const uint64_t*>(p + k * st))[0]
        elif isz == 4:
            v = (<const int32_t*>(p + k * st))[0] if c >= b"a" else <int64_t>(<const uint32_t*>(p + k * st))[0]
        elif isz == 2:
            v = (<const int16_t*>(p + k * st))[0] if c >= b"a" else <int64_t>(<const uint16_t*>(p + k * st))[0]
        elif isz == 1:
            v = (<const int8_t*>(p + k * st))[0] if c >= b"a" else <int64_t>(<const uint8_t*>(p + k * st))[0]
        else:
            raise TypeError(f"{_where(pair, ref)}: unsupported integer size {isz}")
        _push(out, _idmap_get(m, v, pair, ref))
    return 0


cdef int _read_flat(IdMap* m, object part, IntBuf* out, Py_ssize_t pair, int ref) except -1:
    """Append the dense ids of one flat id sequence (a list/tuple of ints, or a 1-d buffer).

    A list or tuple is read through its item array (borrowed references: a list of ids from a
    model's tokenizer is the common input of RL rewards), room for all of it made first."""
    cdef Py_ssize_t k, n
    cdef int64_t v
    cdef int overflow
    cdef PyObject** items
    cdef PyObject* e
    if type(part) is list or type(part) is tuple:
        n = len(part)
        _reserve(out, n)
        items = PySequence_Fast_ITEMS(part)
        for k in range(n):
            e = items[k]
            if type(<object>e) is int:
                v = PyLong_AsLongLongAndOverflow(<object>e, &overflow)
                if overflow:
                    _out_of_range(<object>e, pair, ref)
            elif _inputs._is_int(<object>e):
                x = (<object>e).__index__()
                if not 0 <= x <= _ID_MAX:
                    _out_of_range(x, pair, ref)
                v = x
            else:
                raise TypeError(f"{_where(pair, ref)}: token ids must be integers, got {type(<object>e).__name__}")
            out.data[out.n] = _idmap_get(m, v, pair, ref)
            out.n += 1
        return 0
    return _read_buffer(m, part, out, pair, ref)


cdef int _read_id_summary(IdMap* m, object x, int word_limit, IntBuf* tok, IntBuf* off, Py_ssize_t pair, int ref) except -1:
    """Sentences of one id summary into ``tok`` (dense ids) and ``off`` (offsets, from 0)."""
    cdef int level
    cdef Py_ssize_t start, used = 0
    cdef Py_buffer view
    tok.n = 0
    off.n = 0
    _push(off, 0)
    if isinstance(x, (str, bytes)):
        raise TypeError(f"{_where(pair, ref)}: text where token ids are expected "
                        "(give every summary as text or every one as ids)")
    if PyObject_CheckBuffer(x) and not isinstance(x, bytearray):
        # one array, the common case: its buffer got once (not once to find its nesting, once to
        # check the sentence and once to read it)
        PyObject_GetBuffer(x, &view, PyBUF_RECORDS_RO)
        try:
            if view.ndim == 1:
                _read_view(m, &view, tok, pair, ref)
                if word_limit > 0 and tok.n > word_limit:
                    tok.n = word_limit
                if tok.n > 0:
                    _push(off, <int32_t>tok.n)
                return 0
        finally:
            PyBuffer_Release(&view)
    level = _id_level(x)
    if level < 0:
        raise TypeError(f"{_where(pair, ref)}: expected token ids (a sequence of ints, or a list of them), got {x!r:.60}")
    parts = (x,) if level == 1 else (x if level == 2 else ())
    for part in parts:
        if isinstance(part, (str, bytes)) or not 0 <= _id_level(part) <= 1:
            raise TypeError(f"{_where(pair, ref)}: a sentence must be a flat sequence of token ids")
        start = tok.n
        _read_flat(m, part, tok, pair, ref)
        if word_limit > 0:
            if used + (tok.n - start) >= word_limit:
                tok.n = start + (word_limit - used)
                if tok.n > start:
                    _push(off, <int32_t>tok.n)
                break
            used += tok.n - start
        if tok.n > start:
            _push(off, <int32_t>tok.n)
    return 0


from array import array as _array


cdef object _array_i():
    """An empty int32 array('i') (a C int is 32 bits wherever rougekit builds)."""
    out = _array("i")
    if out.itemsize != 4:
        raise TypeError("array('i') is not 32 bits here")
    return out


def ids_without(object x, drop):
    """A flat list or tuple of token ids (ints, 0 to 2**31-1) without the ids in ``drop`` (a sorted
    sequence of ints), as an int32 ``array('i')``, read in one C loop (no Python call per id); None
    when ``x`` is anything else (the caller's slower path then keeps its behaviour and errors)."""
    cdef Py_ssize_t k, j, n, kept = 0, nd = len(drop)
    cdef void* block
    cdef int32_t* data
    cdef int64_t* dr
    cdef int64_t v
    cdef bint hit
    if type(x) is not list and type(x) is not tuple:
        return None
    n = len(x)
    if n == 0 or type(<object>PySequence_Fast_ITEMS(x)[0]) is not int:
        return None
    block = _list_int32(x)
    if block == NULL:
        return None
    dr = <int64_t*>malloc((nd + 1) * sizeof(int64_t))
    if dr == NULL:
        free(block)
        raise MemoryError()
    try:
        for j in range(nd):
            dr[j] = drop[j]
        data = <int32_t*>(<char*>block + sizeof(Py_ssize_t))
        for k in range(n):
            v = data[k]
            hit = False
            for j in range(nd):   # a few ids (EOS, padding): a scan beats a search
                if dr[j] == v:
                    hit = True
                    break
            if not hit:
                data[kept] = <int32_t>v
                kept += 1
        out = _array_i()
        out.frombytes((<char*>data)[: 4 * kept])
        return out
    finally:
        free(dr)
        free(block)
