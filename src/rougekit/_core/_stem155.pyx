# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Test wrapper around ``stem155.pxi`` (the compiled ROUGE-1.5.5 stemmer).

Only for tests and timing; the batch scorer includes the .pxi itself.  Words must be
ASCII (``UnicodeEncodeError`` otherwise).
"""

include "stem155.pxi"

cdef s155_Exc _exc                   # the table given to use_exceptions()
cdef bint _exc_ready = False


def use_exceptions(dict table) -> None:
    """Give the morphological stemmer its WordNet exception table (word -> base form), once.

    The caller passes ``rougekit.text.stemming.load_exceptions()``: ``_core`` imports nothing
    of the layers above it."""
    global _exc_ready
    if _exc_ready:
        raise RuntimeError("_stem155.use_exceptions: the exception table is already set")
    s155_exc_init(&_exc, table)
    _exc_ready = True


cdef const s155_Exc* _exceptions() except NULL:
    if not _exc_ready:
        raise RuntimeError("_stem155: call use_exceptions(load_exceptions()) first")
    return &_exc


def porter_stem(str word) -> str:
    """``rougekit.text.porter.porter_stem`` in C."""
    cdef bytearray buf = bytearray(word.encode("ascii"))
    cdef Py_ssize_t n = len(buf)
    buf.extend(b"\0" * 8)            # the .pxi contract: n + 8 bytes
    n = s155_porter(<uint8_t*><char*>buf, n)
    return buf[:n].decode("ascii")


def morph_stem_cap(str word, Py_ssize_t cap):
    """``s155_morph`` with an output buffer of ``cap`` bytes: (return value, text)."""
    cdef const s155_Exc* t = _exceptions()
    cdef bytes b = word.encode("ascii")
    cdef bytearray out = bytearray(max(cap, 0) + 1)
    cdef Py_ssize_t r = s155_morph(t, <const uint8_t*><const char*>b, len(b),
                                   <uint8_t*><char*>out, cap)
    return r, (out[:r].decode("utf-8") if r >= 0 else None)


def morph_stem(str word) -> str:
    """``rougekit.text.stemming.morph_stem`` in C."""
    cdef Py_ssize_t cap = len(word) + 8
    r, text = morph_stem_cap(word, cap)
    if r < 0:                        # a base form longer than the word
        r, text = morph_stem_cap(word, -r)
    return text


def stem_many(list words) -> list:
    """``morph_stem`` over ``words``; the stemming loop itself runs without the GIL."""
    cdef const s155_Exc* t = _exceptions()
    cdef Py_ssize_t nw = len(words), i, total = 0, pos, r
    cdef list enc = [w.encode("ascii") for w in words]
    cdef bytes b
    for b in enc:
        total += len(b)
    # every word into one input blob; outputs get the word's length + 8 bytes each
    cdef bytes inp = b"".join(enc)
    cdef bytearray outb = bytearray(total + 8 * nw + 1)
    cdef const uint8_t* ip = <const uint8_t*><const char*>inp
    cdef uint8_t* op = <uint8_t*><char*>outb
    cdef Py_ssize_t* lens = <Py_ssize_t*>malloc(2 * max(nw, 1) * sizeof(Py_ssize_t))
    cdef Py_ssize_t* res
    if lens == NULL:
        raise MemoryError()
    res = lens + nw
    try:
        for i in range(nw):
            lens[i] = len(<bytes>enc[i])
        with nogil:
            pos = 0
            for i in range(nw):
                res[i] = s155_morph(t, ip + pos, lens[i], op + pos + 8 * i, lens[i] + 8)
                pos += lens[i]
        out = []
        pos = 0
        for i in range(nw):
            r = res[i]
            if r < 0:                # a base form longer than word + 8: redo alone
                out.append(morph_stem(words[i]))
            else:
                out.append((<char*>op + pos + 8 * i)[:r].decode("utf-8"))
            pos += lens[i]
        return out
    finally:
        free(lens)


def _measures(str word) -> tuple:
    """The five pattern tests on ``word``: (has_vowel, m>0, m==1, m>1, cvc) -- for tests."""
    cdef bytes b = word.encode("ascii")
    cdef const uint8_t* w = <const uint8_t*><const char*>b
    cdef Py_ssize_t n = len(b)
    return (s155_has_vowel(w, n), s155_m_gt0(w, n), s155_m_eq1(w, n), s155_m_gt1(w, n),
            s155_is_cvc(w, n))
