# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Compiled ROUGE-1.5.5 counting kernels (twins of ``_pure.py``, bit-for-bit identical).

Inputs are copied into C ``int`` buffers (fast paths for ``list``/``tuple`` and
for buffers of C ints such as ``array.array('i')`` and int32 ``numpy`` arrays;
anything else iterable of ints is accepted through a slower generic path).
The counting itself runs in ``nogil`` C functions; the GIL is released around
them when the amount of work makes it worthwhile.

* n-grams / skip-bigrams: open-addressing hash tables of 64-bit keys (exact
  packed keys for n <= 2 and for skip-bigrams, hashed windows verified by
  comparison for n >= 3).  Model units are inserted, peer units are looked up
  and clipped online, so peer-only types are never stored.
* LCS / WLCS: one byte of direction per DP cell (reused for every sentence
  pair of a call), two rolling rows of scores.  The WLCS update and the hit
  accumulation perform the same floating-point operations in the same order
  as the reference script (C ``pow`` for ``**``).
"""

from libc.stdlib cimport malloc, calloc, realloc, free
from libc.string cimport memcpy, memset
from libc.math cimport pow
from libc.stdint cimport uint64_t, uint32_t, int32_t, int64_t, uint8_t
from cpython.buffer cimport (PyObject_CheckBuffer, PyObject_GetBuffer, PyBuffer_Release,
                             PyBUF_RECORDS_RO)

include "common.pxi"

__all__ = ["ngram_stats", "skip_bigram_stats", "lcs_union_hits", "wlcs_union_hits", "wlcs_weight"]

# Release the GIL only when the C work is large enough to repay the release/acquire.
cdef Py_ssize_t _NOGIL_UNITS = 4096      # n-gram / skip-bigram units
cdef Py_ssize_t _NOGIL_CELLS = 16384     # LCS DP cells

if sizeof(int) != sizeof(int32_t):  # the shared .pxi kernels read the int token buffers as int32_t
    raise ImportError("rougekit._core._kernels needs a 32-bit C int; the pure-Python kernels are used")

# =========================================================================== input buffers

cdef struct IntBuf:
    int* data
    Py_ssize_t n
    Py_ssize_t cap


cdef int _reserve(IntBuf* buf, Py_ssize_t extra) except -1:
    cdef Py_ssize_t need = buf.n + extra
    cdef Py_ssize_t cap
    cdef int* p
    if need <= buf.cap:
        return 0
    cap = buf.cap * 2 if buf.cap > 0 else 64
    while cap < need:
        cap *= 2
    p = <int*>realloc(buf.data, cap * sizeof(int))
    if p == NULL:
        raise MemoryError()
    buf.data = p
    buf.cap = cap
    return 0


cdef inline bint _native_int_format(const char* fmt):
    """True when a buffer format string describes a native C int."""
    if fmt == NULL:
        return False  # no format means unsigned bytes
    if fmt[0] == c'@' or fmt[0] == c'=':
        fmt += 1
    elif fmt[0] == c'<':
        if not _little_endian():
            return False
        fmt += 1
    elif fmt[0] == c'>' or fmt[0] == c'!':
        if _little_endian():
            return False
        fmt += 1
    return fmt[0] == c'i' and fmt[1] == 0


cdef inline bint _little_endian():
    cdef uint32_t one = 1
    return (<uint8_t*>&one)[0] == 1


cdef int _append(IntBuf* buf, object seq) except -1:
    """Append the ints of ``seq`` to ``buf``."""
    cdef Py_ssize_t i, L
    cdef int* dst
    cdef Py_buffer view
    cdef bint ok
    if type(seq) is list or type(seq) is tuple:
        L = len(seq)
        _reserve(buf, L)
        dst = buf.data + buf.n
        i = 0
        for x in seq:
            dst[i] = x
            i += 1
        buf.n += L
        return 0
    if PyObject_CheckBuffer(seq):
        try:
            PyObject_GetBuffer(seq, &view, PyBUF_RECORDS_RO)
        except (BufferError, ValueError, TypeError):
            pass
        else:
            try:
                ok = (view.ndim == 1 and view.itemsize == sizeof(int)
                      and _native_int_format(view.format))
                if ok:
                    L = view.shape[0]
                    _reserve(buf, L)
                    dst = buf.data + buf.n
                    if view.strides == NULL or view.strides[0] == sizeof(int):
                        if L > 0:
                            memcpy(dst, view.buf, L * sizeof(int))
                    else:  # strided 1-d buffer, e.g. a numpy slice with a step
                        for i in range(L):
                            dst[i] = (<int*>((<char*>view.buf) + i * view.strides[0]))[0]
                    buf.n += L
                    return 0
            finally:
                PyBuffer_Release(&view)
    # generic (numpy arrays of other dtypes, ranges, generators, ...)
    return _append(buf, list(seq))


cdef class _Seqs:
    """A list of sentences flattened into one C buffer with offsets."""
    cdef IntBuf buf
    cdef Py_ssize_t* off
    cdef Py_ssize_t count
    cdef Py_ssize_t max_len

    def __cinit__(self, sents):
        cdef Py_ssize_t k = 0, ln
        if not (type(sents) is list or type(sents) is tuple):
            sents = list(sents)
        self.count = len(sents)
        self.off = <Py_ssize_t*>malloc((self.count + 1) * sizeof(Py_ssize_t))
        if self.off == NULL:
            raise MemoryError()
        self.off[0] = 0
        self.max_len = 0
        for s in sents:
            _append(&self.buf, s)
            k += 1
            self.off[k] = self.buf.n
            ln = self.off[k] - self.off[k - 1]
            if ln > self.max_len:
                self.max_len = ln

    def __dealloc__(self):
        free(self.buf.data)
        free(self.off)


cdef class _Seq:
    """One token sequence copied into a C buffer."""
    cdef IntBuf buf

    def __cinit__(self, seq):
        _append(&self.buf, seq)

    def __dealloc__(self):
        free(self.buf.data)


# =========================================================================== hashing

cdef inline Py_ssize_t _table_size(Py_ssize_t units) noexcept nogil:
    return pow2_at_least(2 * units)


cdef struct GramEntry:
    uint64_t key      # packed gram (n <= 2, skip-bigrams) or window hash (n >= 3)
    int32_t pos       # start of the first model window with this key (verification)
    int32_t kind      # skip-bigrams: 1 = bigram, 2 = unigram
    int32_t cm        # model count; 0 marks an empty slot
    int32_t cp        # peer count, only ever raised up to cm (clipped online)


cdef inline bint _same_window(const int* a, const int* b, int n) noexcept nogil:
    cdef int k
    for k in range(n):
        if a[k] != b[k]:
            return False
    return True


cdef int64_t _ngram_hits(const int* p, Py_ssize_t lp, const int* m, Py_ssize_t lm, int n,
                         GramEntry* table, Py_ssize_t cap, bint distinct=False) noexcept nogil:
    """Clipped n-gram overlap; ``table`` has ``cap`` zeroed slots (a power of two).

    ``distinct``: every model type counts once, so the hits are the types found in both.
    """
    cdef Py_ssize_t nm = lm - n + 1, np_ = lp - n + 1, i, s
    cdef Py_ssize_t msk = cap - 1
    cdef uint64_t key
    cdef GramEntry* e
    cdef int64_t hits = 0
    cdef bint verify = n > 2
    if nm <= 0 or np_ <= 0:
        return 0
    for i in range(nm):
        key = gram_key(<const int32_t*>m + i, n)
        s = <Py_ssize_t>(mix64(key) & msk)
        while True:
            e = &table[s]
            if e.cm == 0:
                e.key = key
                e.pos = <int32_t>i
                e.cm = 1
                break
            if e.key == key and (not verify or _same_window(m + e.pos, m + i, n)):
                if not distinct:
                    e.cm += 1
                break
            s = (s + 1) & msk
    for i in range(np_):
        key = gram_key(<const int32_t*>p + i, n)
        s = <Py_ssize_t>(mix64(key) & msk)
        while True:
            e = &table[s]
            if e.cm == 0:
                break
            if e.key == key and (not verify or _same_window(m + e.pos, p + i, n)):
                if e.cp < e.cm:
                    e.cp += 1
                    hits += 1
                break
            s = (s + 1) & msk
    return hits


cdef int64_t _gram_hits(_Seq P, _Seq M, int n, bint distinct) except -1:
    """``_ngram_hits`` of P against M with a table of its own (the GIL released for large inputs)."""
    cdef Py_ssize_t lp = P.buf.n, lm = M.buf.n
    cdef Py_ssize_t nm = lm - n + 1 if lm >= n else 0
    cdef Py_ssize_t np_ = lp - n + 1 if lp >= n else 0
    cdef int64_t hits = 0
    cdef Py_ssize_t cap
    cdef GramEntry small[256]
    cdef GramEntry* table
    if nm <= 0 or np_ <= 0:
        return 0
    cap = _table_size(nm)
    if cap <= 256:
        table = small
        memset(table, 0, cap * sizeof(GramEntry))
    else:
        table = <GramEntry*>calloc(cap, sizeof(GramEntry))
        if table == NULL:
            raise MemoryError()
    try:
        if nm + np_ >= _NOGIL_UNITS:
            with nogil:
                hits = _ngram_hits(P.buf.data, lp, M.buf.data, lm, n, table, cap, distinct)
        else:
            hits = _ngram_hits(P.buf.data, lp, M.buf.data, lm, n, table, cap, distinct)
    finally:
        if table != small:
            free(table)
    return hits


def ngram_stats(peer, model, int n, bint distinct=False):
    """ROUGE-N statistics ``(hits, model_count, peer_count)``; see ``_pure.ngram_stats``.

    ``distinct``: counts of n-gram types (a sequence against itself gives its distinct count).
    """
    if n < 1:
        raise ValueError(f"n must be >= 1, got {n}")
    cdef _Seq P = _Seq(peer)
    cdef _Seq M = _Seq(model)
    cdef Py_ssize_t lp = P.buf.n, lm = M.buf.n
    cdef Py_ssize_t nm = lm - n + 1 if lm >= n else 0
    cdef Py_ssize_t np_ = lp - n + 1 if lp >= n else 0
    cdef int64_t hits = _gram_hits(P, M, n, distinct)
    if distinct:
        return int(hits), int(_gram_hits(M, M, n, True)), int(_gram_hits(P, P, n, True))
    return int(hits), int(nm), int(np_)


# =========================================================================== skip-bigrams

cdef inline Py_ssize_t _skip_units(Py_ssize_t L, int max_skip, bint su) noexcept nogil:
    """Number of units the script creates for a sequence of L tokens."""
    cdef Py_ssize_t i, total = 0, span
    for i in range(L - 1):
        span = L - 1 - i
        if max_skip >= 0 and span > <Py_ssize_t>max_skip + 1:
            span = <Py_ssize_t>max_skip + 1
        total += span
        if su:
            total += 1
    return total


cdef inline GramEntry* _find_or_insert(GramEntry* table, Py_ssize_t msk, uint64_t key,
                                       int32_t kind) noexcept nogil:
    cdef Py_ssize_t s = <Py_ssize_t>(mix64(key ^ (<uint64_t>kind << 61) ^ <uint64_t>kind) & msk)
    cdef GramEntry* e
    while True:
        e = &table[s]
        if e.cm == 0:
            e.key = key
            e.kind = kind
            return e
        if e.key == key and e.kind == kind:
            return e
        s = (s + 1) & msk


cdef inline GramEntry* _find(GramEntry* table, Py_ssize_t msk, uint64_t key,
                             int32_t kind) noexcept nogil:
    cdef Py_ssize_t s = <Py_ssize_t>(mix64(key ^ (<uint64_t>kind << 61) ^ <uint64_t>kind) & msk)
    cdef GramEntry* e
    while True:
        e = &table[s]
        if e.cm == 0:
            return NULL
        if e.key == key and e.kind == kind:
            return e
        s = (s + 1) & msk


cdef int64_t _skip_hits(const int* p, Py_ssize_t lp, const int* m, Py_ssize_t lm,
                        int max_skip, bint su, GramEntry* table, Py_ssize_t cap) noexcept nogil:
    cdef Py_ssize_t i, j, jmax, msk = cap - 1
    cdef uint64_t hi
    cdef GramEntry* e
    cdef int64_t hits = 0
    for i in range(lm - 1):
        hi = (<uint64_t><uint32_t>m[i]) << 32
        if su:
            e = _find_or_insert(table, msk, <uint32_t>m[i], 2)
            e.cm += 1
        jmax = lm - 1
        if max_skip >= 0 and i + max_skip + 1 < jmax:
            jmax = i + max_skip + 1
        for j in range(i + 1, jmax + 1):
            e = _find_or_insert(table, msk, hi | <uint32_t>m[j], 1)
            e.cm += 1
    for i in range(lp - 1):
        hi = (<uint64_t><uint32_t>p[i]) << 32
        if su:
            e = _find(table, msk, <uint32_t>p[i], 2)
            if e != NULL and e.cp < e.cm:
                e.cp += 1
                hits += 1
        jmax = lp - 1
        if max_skip >= 0 and i + max_skip + 1 < jmax:
            jmax = i + max_skip + 1
        for j in range(i + 1, jmax + 1):
            e = _find(table, msk, hi | <uint32_t>p[j], 1)
            if e != NULL and e.cp < e.cm:
                e.cp += 1
                hits += 1
    return hits


def skip_bigram_stats(peer, model, int max_skip, bint with_unigrams):
    """ROUGE-S/SU statistics ``(hits, model_count, peer_count)``; see ``_pure.skip_bigram_stats``."""
    cdef _Seq P = _Seq(peer)
    cdef _Seq M = _Seq(model)
    cdef Py_ssize_t lp = P.buf.n, lm = M.buf.n
    cdef Py_ssize_t nm = _skip_units(lm, max_skip, with_unigrams)
    cdef Py_ssize_t np_ = _skip_units(lp, max_skip, with_unigrams)
    cdef int64_t hits = 0
    cdef Py_ssize_t cap
    cdef GramEntry small[256]
    cdef GramEntry* table
    if nm > 0 and np_ > 0:
        cap = _table_size(nm)
        if cap <= 256:
            table = small
            memset(table, 0, cap * sizeof(GramEntry))
        else:
            table = <GramEntry*>calloc(cap, sizeof(GramEntry))
            if table == NULL:
                raise MemoryError()
        try:
            if nm + np_ >= _NOGIL_UNITS:
                with nogil:
                    hits = _skip_hits(P.buf.data, lp, M.buf.data, lm, max_skip,
                                      with_unigrams, table, cap)
            else:
                hits = _skip_hits(P.buf.data, lp, M.buf.data, lm, max_skip,
                                  with_unigrams, table, cap)
        finally:
            if table != small:
                free(table)
    return int(hits), int(nm), int(np_)


# =========================================================================== unigram clip tables

cdef struct UniEntry:
    int32_t tok
    int32_t used
    int32_t mu
    int32_t pu


cdef void _build_clip_table(UniEntry* t, Py_ssize_t msk, const int* mt, Py_ssize_t lm,
                            const int* pt, Py_ssize_t lp) noexcept nogil:
    """Mu from the model tokens; Pu (only for tokens also in the model) from the peer tokens."""
    cdef Py_ssize_t i, s
    cdef UniEntry* e
    for i in range(lm):
        s = <Py_ssize_t>(mix64(<uint32_t>mt[i]) & msk)
        while True:
            e = &t[s]
            if not e.used:
                e.used = 1
                e.tok = mt[i]
                e.mu = 1
                break
            if e.tok == mt[i]:
                e.mu += 1
                break
            s = (s + 1) & msk
    for i in range(lp):
        e = _uni_find(t, msk, pt[i])
        if e != NULL:
            e.pu += 1


cdef inline UniEntry* _uni_find(UniEntry* t, Py_ssize_t msk, int tok) noexcept nogil:
    cdef Py_ssize_t s = <Py_ssize_t>(mix64(<uint32_t>tok) & msk)
    cdef UniEntry* e
    while True:
        e = &t[s]
        if not e.used:
            return NULL
        if e.tok == tok:
            return e
        s = (s + 1) & msk


cdef inline bint _clip(UniEntry* t, Py_ssize_t msk, int tok) noexcept nogil:
    """The script's clip: one hit only if Mu[tok] > 0 and Pu[tok] > 0, then decrement both."""
    cdef UniEntry* e = _uni_find(t, msk, tok)
    if e != NULL and e.mu > 0 and e.pu > 0:
        e.mu -= 1
        e.pu -= 1
        return True
    return False


# =========================================================================== LCS / WLCS

cdef void _lcs_mark(const int* x, Py_ssize_t m, const int* y, Py_ssize_t n, uint8_t* mask,
                    uint64_t* ups, int32_t* prev, int32_t* cur) noexcept nogil:
    """LCS DP of one model sentence (rows) and one peer sentence (columns), then trace-back.

    Same decisions as ``_pure._lcs_mark``: match -> diagonal; else up if c(a-1,b) >= c(a,b-1);
    else left. ``ups`` keeps the up/left bit of each cell (``trace_marks`` in common.pxi).
    """
    cdef Py_ssize_t a, b, nw = (n + 63) >> 6
    cdef int t
    cdef int32_t up, left, val
    cdef bint eq, ge
    cdef int32_t* tmp
    cdef uint64_t* urow
    cdef uint64_t acc
    if m == 0:
        return
    memset(prev, 0, (n + 1) * sizeof(int32_t))
    cur[0] = 0
    for a in range(1, m + 1):
        t = x[a - 1]
        urow = ups + (a - 1) * nw
        left = 0
        acc = 0
        for b in range(n):
            up = prev[b + 1]
            ge = up >= left
            val = up if ge else left
            eq = t == y[b]
            acc |= (<uint64_t>(ge and not eq)) << (b & 63)
            val = (prev[b] + 1) if eq else val
            cur[b + 1] = val
            left = val
            if (b & 63) == 63:
                urow[b >> 6] = acc
                acc = 0
        if n & 63:
            urow[n >> 6] = acc
        tmp = prev
        prev = cur
        cur = tmp
    trace_marks(<const int32_t*>x, m, <const int32_t*>y, n, ups, mask)


cdef int64_t _lcs_union(const int* pd, const Py_ssize_t* po, Py_ssize_t pc,
                        const int* md, const Py_ssize_t* mo, Py_ssize_t mc, UniEntry* tab, Py_ssize_t msk, uint8_t* mask,
                        uint64_t* dirs, int32_t* prev, int32_t* cur) noexcept nogil:
    cdef Py_ssize_t i, j, pos, m
    cdef const int* x
    cdef int64_t hits = 0
    for i in range(mc):
        x = md + mo[i]
        m = mo[i + 1] - mo[i]
        if m == 0:
            continue
        memset(mask, 0, m)
        for j in range(pc):
            _lcs_mark(x, m, pd + po[j], po[j + 1] - po[j], mask, dirs, prev, cur)
        for pos in range(m):
            if mask[pos] and _clip(tab, msk, x[pos]):
                hits += 1
    return hits


cdef double _wlcs_union(const int* pd, const Py_ssize_t* po, Py_ssize_t pc,
                        const int* md, const Py_ssize_t* mo, Py_ssize_t mc, UniEntry* tab, Py_ssize_t msk, uint8_t* mask,
                        uint64_t* dirs, double* prev, double* cur, int32_t* lprev, int32_t* lcur,
                        const double* fw) noexcept nogil:
    cdef Py_ssize_t i, j, pos, m
    cdef const int* x
    cdef double hits = 0.0
    cdef Py_ssize_t run
    for i in range(mc):
        x = md + mo[i]
        m = mo[i + 1] - mo[i]
        if m == 0:
            continue
        memset(mask, 0, m)
        for j in range(pc):
            wlcs_mark(<const int32_t*>x, m, <const int32_t*>(pd + po[j]), po[j + 1] - po[j], mask, dirs,
                      prev, cur, lprev, lcur, fw)
        run = 0
        for pos in range(m):
            if mask[pos] and _clip(tab, msk, x[pos]):
                run += 1
                if pos + 1 < m and not mask[pos + 1]:
                    hits += fw[run]
                    run = 0
                elif pos + 1 == m:
                    hits += fw[run]
                    run = 0
    return hits


cdef class _LcsWork:
    """Per-call buffers of the union-LCS kernels (freed with the object)."""
    cdef _Seqs P
    cdef _Seqs M
    cdef _Seq PT
    cdef _Seq MT
    cdef UniEntry* tab
    cdef Py_ssize_t msk
    cdef uint8_t* mask
    cdef uint64_t* dirs  # up/left bits of the DP cells (common.pxi: trace_marks)
    cdef void* rows      # 2 score rows + 2 length rows
    cdef Py_ssize_t cells

    def __cinit__(self, peer_sents, model_sents, peer_tokens, model_tokens, bint need_dp=True):
        cdef Py_ssize_t cap, mm, nn
        self.P = _Seqs(peer_sents)
        self.M = _Seqs(model_sents)
        self.PT = _Seq(peer_tokens)
        self.MT = _Seq(model_tokens)
        cap = _table_size(self.MT.buf.n)
        self.msk = cap - 1
        self.tab = <UniEntry*>calloc(cap, sizeof(UniEntry))
        mm = self.M.max_len
        nn = self.P.max_len
        self.cells = mm * nn
        if self.tab == NULL:
            raise MemoryError()
        if need_dp:  # buffers of the O(m*n) DPs (not needed by the bit-parallel LCS)
            self.mask = <uint8_t*>malloc(mm + 1)
            self.dirs = <uint64_t*>malloc((mm * ((nn + 63) >> 6) + 1) * sizeof(uint64_t))
            self.rows = malloc((nn + 1) * (2 * sizeof(double) + 2 * sizeof(int32_t)))
            if self.mask == NULL or self.dirs == NULL or self.rows == NULL:
                raise MemoryError()
        _build_clip_table(self.tab, self.msk, self.MT.buf.data, self.MT.buf.n,
                          self.PT.buf.data, self.PT.buf.n)

    def __dealloc__(self):
        free(self.tab)
        free(self.mask)
        free(self.dirs)
        free(self.rows)


def _lcs_union_hits_dp(peer_sents, model_sents, peer_tokens, model_tokens):
    """``lcs_union_hits`` with the classic O(m*n) DP (kept to cross-check the bit-parallel one)."""
    cdef _LcsWork w = _LcsWork(peer_sents, model_sents, peer_tokens, model_tokens)
    cdef int64_t hits
    cdef Py_ssize_t nn = w.P.max_len
    cdef int32_t* prev = <int32_t*>w.rows
    cdef int32_t* cur = prev + (nn + 1)
    if w.M.buf.n * w.P.buf.n >= _NOGIL_CELLS:
        with nogil:
            hits = _lcs_union(w.P.buf.data, w.P.off, w.P.count, w.M.buf.data, w.M.off, w.M.count,
                                   w.tab, w.msk, w.mask, w.dirs, prev, cur)
    else:
        hits = _lcs_union(w.P.buf.data, w.P.off, w.P.count, w.M.buf.data, w.M.off, w.M.count,
                                   w.tab, w.msk, w.mask, w.dirs, prev, cur)
    return int(hits)


cdef struct IdEntry:
    int32_t tok
    int32_t id        # -1: empty slot


cdef inline int32_t _id_of(IdEntry* t, Py_ssize_t msk, int tok, int32_t* next_id) noexcept nogil:
    """Dense id of ``tok``; a new id is given when ``next_id`` is not NULL, else -1 if absent."""
    cdef Py_ssize_t s = <Py_ssize_t>(mix64(<uint32_t>tok) & msk)
    cdef IdEntry* e
    while True:
        e = &t[s]
        if e.id < 0:
            if next_id == NULL:
                return -1
            e.tok = tok
            e.id = next_id[0]
            next_id[0] += 1
            return e.id
        if e.tok == tok:
            return e.id
        s = (s + 1) & msk


cdef void _lcs_masks_bp(const int* pd, const Py_ssize_t* po, Py_ssize_t pc,
                        const int* md, const Py_ssize_t* mo, Py_ssize_t mc,
                        const int32_t* pid, const int32_t* mid, uint64_t* PM, Py_ssize_t W,
                        uint64_t* rows, uint8_t* mask) noexcept nogil:
    """Union-LCS masks of all model sentences, bit-parallel (Allison-Dix / Hyyro rows).

    Row a of the DP (model sentence rows, peer sentence columns) is kept as a bit vector
    V_a over the peer positions: bit b-1 is 0 exactly when c(a, b) = c(a, b-1) + 1, so
    c(a, b) = number of zero bits of V_a below b.  V_0 = all ones and
    V_a = (V + (V & PM[t])) | (V & ~PM[t]) for the model token t = x[a-1].
    The trace-back then takes the script's decisions from these values: a match is always
    diagonal, else "up" if c(a-1, b) >= c(a, b-1), else "left".  The union over the peer
    sentences does not depend on their order, so each peer sentence's match table PM is
    built once and every model sentence is traced against it.
    """
    cdef Py_ssize_t i, j, a, b, n, m, w, wj
    cdef const int* x
    cdef const int* y
    cdef const int32_t* xi
    cdef const int32_t* yi
    cdef uint64_t* V
    cdef uint64_t* Vn
    cdef const uint64_t* pm
    cdef int32_t tid
    cdef uint8_t* mk
    for j in range(pc):
        y = pd + po[j]
        yi = pid + po[j]
        n = po[j + 1] - po[j]
        if n == 0:
            continue
        wj = (n + 63) >> 6
        for b in range(n):
            PM[<Py_ssize_t>yi[b] * W + (b >> 6)] |= (<uint64_t>1) << (b & 63)
        for w in range(wj):
            rows[w] = ~(<uint64_t>0)
        for i in range(mc):
            m = mo[i + 1] - mo[i]
            if m == 0:
                continue
            x = md + mo[i]
            xi = mid + mo[i]
            for a in range(1, m + 1):
                V = rows + (a - 1) * wj
                Vn = V + wj
                tid = xi[a - 1]
                if tid < 0:  # the token does not occur in any peer sentence
                    for w in range(wj):
                        Vn[w] = V[w]
                    continue
                pm = PM + <Py_ssize_t>tid * W
                bitlcs_row(V, Vn, pm, wj)
            a = m
            b = n
            mk = mask + mo[i]
            while a != 0 and b != 0:
                if x[a - 1] == y[b - 1]:
                    a -= 1
                    b -= 1
                    mk[a] = 1
                elif lcs_prefix(rows + (a - 1) * wj, b) >= lcs_prefix(rows + a * wj, b - 1):
                    a -= 1
                else:
                    b -= 1
        for b in range(n):
            PM[<Py_ssize_t>yi[b] * W + (b >> 6)] = 0


cdef int64_t _clip_walk(const int* md, const Py_ssize_t* mo, Py_ssize_t mc, const uint8_t* mask,
                        UniEntry* tab, Py_ssize_t msk) noexcept nogil:
    cdef Py_ssize_t i, pos
    cdef int64_t hits = 0
    for i in range(mc):
        for pos in range(mo[i], mo[i + 1]):
            if mask[pos] and _clip(tab, msk, md[pos]):
                hits += 1
    return hits


def lcs_union_hits(peer_sents, model_sents, peer_tokens, model_tokens):
    """ROUGE-L union-LCS hits with clipping; see ``_pure.lcs_union_hits``.

    Bit-parallel LCS rows (O(m * n / 64) per sentence pair) with the script's trace-back.
    """
    cdef _LcsWork w = _LcsWork(peer_sents, model_sents, peer_tokens, model_tokens, False)
    cdef Py_ssize_t NP = w.P.buf.n, NM = w.M.buf.n, k, cap, W
    cdef int32_t U = 0
    cdef int64_t hits = 0
    cdef IdEntry* ids = NULL
    cdef int32_t* pid = NULL
    cdef int32_t* mid = NULL
    cdef uint64_t* PM = NULL
    cdef uint64_t* rows = NULL
    cdef uint8_t* mask = NULL
    if NP == 0 or NM == 0:
        return 0
    W = (w.P.max_len + 63) >> 6
    cap = _table_size(NP)
    try:
        ids = <IdEntry*>malloc(cap * sizeof(IdEntry))
        pid = <int32_t*>malloc(NP * sizeof(int32_t))
        mid = <int32_t*>malloc(NM * sizeof(int32_t))
        mask = <uint8_t*>calloc(NM, 1)
        rows = <uint64_t*>malloc((w.M.max_len + 1) * W * sizeof(uint64_t))
        if ids == NULL or pid == NULL or mid == NULL or mask == NULL or rows == NULL:
            raise MemoryError()
        memset(ids, 0xFF, cap * sizeof(IdEntry))
        for k in range(NP):
            pid[k] = _id_of(ids, cap - 1, w.P.buf.data[k], &U)
        for k in range(NM):
            mid[k] = _id_of(ids, cap - 1, w.M.buf.data[k], NULL)
        PM = <uint64_t*>calloc(<Py_ssize_t>U * W, sizeof(uint64_t))
        if PM == NULL:
            raise MemoryError()
        if NM * NP >= 64 * _NOGIL_CELLS:
            with nogil:
                _lcs_masks_bp(w.P.buf.data, w.P.off, w.P.count, w.M.buf.data, w.M.off, w.M.count,
                              pid, mid, PM, W, rows, mask)
                hits = _clip_walk(w.M.buf.data, w.M.off, w.M.count, mask, w.tab, w.msk)
        else:
            _lcs_masks_bp(w.P.buf.data, w.P.off, w.P.count, w.M.buf.data, w.M.off, w.M.count,
                          pid, mid, PM, W, rows, mask)
            hits = _clip_walk(w.M.buf.data, w.M.off, w.M.count, mask, w.tab, w.msk)
    finally:
        free(ids)
        free(pid)
        free(mid)
        free(mask)
        free(rows)
        free(PM)
    return int(hits)


def wlcs_union_hits(peer_sents, model_sents, peer_tokens, model_tokens, double weight):
    """ROUGE-W weighted union-LCS hits (a float); see ``_pure.wlcs_union_hits``."""
    cdef _LcsWork w = _LcsWork(peer_sents, model_sents, peer_tokens, model_tokens)
    cdef double hits
    cdef Py_ssize_t nn = w.P.max_len, mm = w.M.max_len, k
    cdef double* prev = <double*>w.rows
    cdef double* cur = prev + (nn + 1)
    cdef int32_t* lprev = <int32_t*>(cur + (nn + 1))
    cdef int32_t* lcur = lprev + (nn + 1)
    # f(k) = k ** w for every run / consecutive length that can occur (k <= max model length)
    cdef double* fw = <double*>malloc((mm + 2) * sizeof(double))
    if fw == NULL:
        raise MemoryError()
    try:
        for k in range(mm + 2):
            fw[k] = pow(<double>k, weight)
        if w.M.buf.n * w.P.buf.n >= _NOGIL_CELLS:
            with nogil:
                hits = _wlcs_union(w.P.buf.data, w.P.off, w.P.count, w.M.buf.data, w.M.off, w.M.count,
                                   w.tab, w.msk, w.mask, w.dirs, prev, cur,
                                   lprev, lcur, fw)
        else:
            hits = _wlcs_union(w.P.buf.data, w.P.off, w.P.count, w.M.buf.data, w.M.off, w.M.count,
                                   w.tab, w.msk, w.mask, w.dirs, prev, cur,
                               lprev, lcur, fw)
    finally:
        free(fw)
    return hits


def wlcs_weight(k, double w):
    """``f(k) = k ** w`` with C ``pow`` (the same double as Perl's ``**``)."""
    return pow(<double>k, w)
