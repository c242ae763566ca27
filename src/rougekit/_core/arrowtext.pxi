# Summaries read straight from Arrow UTF-8 string arrays (``string``, ``large_string``, and a
# ``list`` of them for several references a row): their offsets and bytes, no Python str per row.
# The engine tokenizes the very bytes ``PyUnicode_AsUTF8AndSize`` gives for the same text (valid
# UTF-8, checked by the caller), so every number equals the str path's.  ``arrow_flags`` reads, on
# the same bytes, what the front ends' warnings need (blank texts, non-ASCII texts, sentence
# markers).  Nulls, invalid UTF-8 and other types are the caller's (engine/batch.py): it reads such
# columns through Python strings.  No ROUGE behaviour here.

from libc.stdint cimport uintptr_t

cdef uint8_t _NO_BYTES[1]


cdef class _ArrowText:
    """One column of summaries as Arrow buffers: strings ``base .. base + nstr`` of an offsets buffer
    (int32, or int64 when ``wide``) into ``data``; with ``lists``, row ``i``'s summaries are strings
    ``loffs[lbase + i] .. loffs[lbase + i + 1]`` (a list column: several references a row)."""
    cdef const uint8_t* data
    cdef const void* offs
    cdef bint wide
    cdef Py_ssize_t base
    cdef const void* loffs
    cdef bint lwide
    cdef Py_ssize_t lbase
    cdef readonly Py_ssize_t rows
    cdef object keep

    def __cinit__(self, offsets, data, Py_ssize_t base, bint wide, Py_ssize_t rows,
                  list_offsets=None, Py_ssize_t lbase=0, bint lwide=False):
        """``offsets``, ``data``, ``list_offsets``: pyarrow Buffers (their ``address`` and ``size``; kept
        alive by this object); ``data`` may be None (no bytes: every string empty)."""
        cdef Py_ssize_t width = 8 if wide else 4, last
        if rows < 0 or base < 0 or lbase < 0:
            raise ValueError("negative rows or offset")
        self.keep = (offsets, data, list_offsets)
        self.wide, self.base, self.rows = wide, base, rows
        self.data = _NO_BYTES
        if data is not None and data.size:
            self.data = <const uint8_t*><uintptr_t>data.address
        self.loffs = NULL
        if list_offsets is not None:
            if list_offsets.size < (lbase + rows + 1) * (8 if lwide else 4):
                raise ValueError("list offsets buffer too short")
            self.loffs = <const void*><uintptr_t>list_offsets.address
            self.lbase, self.lwide = lbase, lwide
        last = self._loff(rows) if self.loffs != NULL else rows
        if offsets is None or offsets.size < (base + last + 1) * width:
            raise ValueError("offsets buffer too short")
        self.offs = <const void*><uintptr_t>offsets.address
        if self._soff(0 if self.loffs == NULL else self._loff(0)) < 0 or self._soff(last) > (
                data.size if data is not None else 0):
            raise ValueError("string offsets outside the data buffer")

    cdef inline Py_ssize_t _loff(self, Py_ssize_t i) noexcept nogil:
        if self.lwide:
            return <Py_ssize_t>(<const int64_t*>self.loffs)[self.lbase + i]
        return (<const int32_t*>self.loffs)[self.lbase + i]

    cdef inline Py_ssize_t _soff(self, Py_ssize_t k) noexcept nogil:
        if self.wide:
            return <Py_ssize_t>(<const int64_t*>self.offs)[self.base + k]
        return (<const int32_t*>self.offs)[self.base + k]

    cdef inline Py_ssize_t first_string(self, Py_ssize_t row) noexcept nogil:
        """The index of row ``row``'s first string (one a row without lists)."""
        return self._loff(row) - self._loff(0) if self.loffs != NULL else row

    cpdef Py_ssize_t strings(self):
        """Strings in all (one a row, or the lists' items)."""
        return self.first_string(self.rows)

    cdef inline const uint8_t* text(self, Py_ssize_t k, Py_ssize_t* n) noexcept nogil:
        """String ``k`` (counted from the first row's first string) and its length in ``n``."""
        cdef Py_ssize_t at = k + (self._loff(0) if self.loffs != NULL else 0)
        cdef Py_ssize_t s = self._soff(at)
        n[0] = self._soff(at + 1) - s
        return self.data + s


def arrow_prepare(_Engine eng, _ArrowText cands, _ArrowText refs, Py_ssize_t start, Py_ssize_t end,
                  _Work wk not None, double[:, :, ::1] out):
    """Read pairs ``start:end`` (rows of ``cands`` and ``refs``) and score them into ``out`` with
    workspace ``wk``, all without the GIL (what ``_Engine.prepare`` does for str summaries, with
    no reference cache: the tokens of the chunk's summaries live in the engine's slab)."""
    cdef Py_ssize_t n = end - start, nr, i, k, r0, ln, at = 0
    cdef const uint8_t* p
    cdef DocC* docs = NULL
    cdef const DocC** peers = NULL
    cdef const DocC** rp = NULL
    cdef Py_ssize_t* roff = NULL
    cdef int rc = 0
    cdef double* base = eng._out_base(start, n, wk, out)
    if eng.unicode_lower:
        raise ValueError("arrow_prepare reads the bytes as they are: not with unicode_lower")
    if start < 0 or end > cands.rows or end > refs.rows or n < 0:
        raise IndexError("pairs out of the arrays' range")
    if n == 0:
        return
    r0 = refs.first_string(start)
    nr = refs.first_string(end) - r0
    docs = <DocC*>malloc((n + nr + 1) * sizeof(DocC))
    peers = <const DocC**>malloc((n + 1) * sizeof(DocC*))
    rp = <const DocC**>malloc((nr + 1) * sizeof(DocC*))
    roff = <Py_ssize_t*>malloc((n + 1) * sizeof(Py_ssize_t))
    try:
        if docs == NULL or peers == NULL or rp == NULL or roff == NULL:
            raise MemoryError()
        with nogil:
            _slab_reset(&eng.slab)
            for i in range(n):
                p = cands.text(start + i, &ln)
                eng._build_into(p, ln, &docs[i], NULL)
                peers[i] = &docs[i]
                roff[i] = refs.first_string(start + i) - r0
            roff[n] = nr
            for k in range(nr):
                p = refs.text(r0 + k, &ln)
                eng._build_into(p, ln, &docs[n + k], NULL)
                rp[k] = &docs[n + k]
            rc = eng._score_chunk(peers, rp, roff, n, start, &wk.w, base, &at)
    finally:
        free(docs)
        free(peers)
        free(rp)
        free(roff)
    _count_error(rc, start + at)


cdef enum:
    AF_NON_ASCII = 1    # a byte above 0x7F
    AF_SPACES = 2       # no ASCII byte but str.isspace's (\t \n \v \f \r \x1c-\x1f space): empty, or blank if ASCII
    AF_MARKER = 4       # bits 2-4: 1 + the index in markers.MARKERS of the first one the text holds


cdef bint _holds(const uint8_t* p, Py_ssize_t n, const char* m, Py_ssize_t mn) noexcept nogil:
    cdef const uint8_t* q = p
    cdef const uint8_t* e = p + n
    while e - q >= mn:
        q = <const uint8_t*>memchr(q, m[0], e - q - mn + 1)
        if q == NULL:
            return False
        if memcmp(q, m, mn) == 0:
            return True
        q += 1
    return False


cdef inline uint8_t _bytes_flags(const uint8_t* p, Py_ssize_t ln) noexcept nogil:
    """AF_NON_ASCII and AF_SPACES of one text: its bytes read one at a time up to the first that is
    neither white space nor above 0x7F (usually the first), the rest 8 at a time for a byte above 0x7F."""
    cdef uint8_t fl = AF_SPACES, b
    cdef Py_ssize_t j = 0
    cdef uint64_t w
    while j < ln:
        b = p[j]
        j += 1
        if b >= 0x80:
            fl |= AF_NON_ASCII
        elif not (b == 32 or (9 <= b <= 13) or (28 <= b <= 31)):
            fl &= ~AF_SPACES
            break
    if fl & AF_NON_ASCII:
        return fl
    while j + 8 <= ln:
        memcpy(&w, p + j, 8)
        if w & <uint64_t>0x8080808080808080:
            return fl | AF_NON_ASCII
        j += 8
    while j < ln:
        if p[j] >= 0x80:
            return fl | AF_NON_ASCII
        j += 1
    return fl


def arrow_flags(_ArrowText t):
    """One byte of flags a string (``AF_*``), in order, as a bytearray."""
    cdef Py_ssize_t ns = t.strings(), k, ln
    cdef bytearray res = bytearray(ns)
    cdef uint8_t[::1] f = res
    cdef const uint8_t* p
    cdef uint8_t fl
    cdef int m
    with nogil:
        for k in range(ns):
            p = t.text(k, &ln)
            fl = _bytes_flags(p, ln)
            if ln >= 3 and memchr(p, 60, ln) != NULL:   # "<"
                m = 0
                if _holds(p, ln, b"<q>", 3):
                    m = 1
                elif _holds(p, ln, b"<t>", 3):
                    m = 2
                elif _holds(p, ln, b"</s>", 4):
                    m = 3
                elif _holds(p, ln, b"<n>", 3):
                    m = 4
                fl |= <uint8_t>(m * AF_MARKER)
            f[k] = fl
    return res
