# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Test wrapper around the compiled NLTK-mode Porter stemmer in ``stemnltk.pxi``.

``stem(word)`` / ``stem_many(words)`` must equal ``rougekit.compat._porter_nltk.stem`` for
ASCII words (non-ASCII input raises ``UnicodeEncodeError``).  Only tests and benchmarks use
this module; the batch scorer includes ``stemnltk.pxi`` itself.
"""

from libc.stdlib cimport malloc, free

include "stemnltk.pxi"

cdef enum:
    SNL_STACK = 256  # words up to SNL_STACK - 8 bytes are stemmed in a stack buffer


cdef str _stem_bytes(bytes b, uint8_t* buf, Py_ssize_t cap):
    """Stem the ASCII bytes b in buf (cap >= len(b) + 8 bytes)."""
    cdef Py_ssize_t n = len(b), r
    memcpy(buf, <const char*>b, n)
    with nogil:
        r = snl_stem(buf, n, cap)
    if r < 0:  # cannot happen: a stem is never longer than its word
        raise RuntimeError(f"stem of {b!r} does not fit in {cap} bytes")
    return (<char*>buf)[:r].decode("ascii")


def stem(str word) -> str:
    """Stem one ASCII word (as ``_porter_nltk.stem``)."""
    cdef bytes b = word.encode("ascii")
    cdef Py_ssize_t cap = len(b) + 8
    cdef uint8_t stack[SNL_STACK]
    cdef uint8_t* buf
    if cap <= SNL_STACK:
        return _stem_bytes(b, stack, SNL_STACK)
    buf = <uint8_t*>malloc(cap)
    if buf == NULL:
        raise MemoryError()
    try:
        return _stem_bytes(b, buf, cap)
    finally:
        free(buf)


def stem_many(list words) -> list:
    """Stem every ASCII word of ``words`` (one growing buffer for the whole list)."""
    cdef list out = []
    cdef Py_ssize_t cap = SNL_STACK, need
    cdef uint8_t* buf = <uint8_t*>malloc(cap)
    cdef uint8_t* grown
    cdef bytes b
    if buf == NULL:
        raise MemoryError()
    try:
        for word in words:
            b = (<str?>word).encode("ascii")
            need = len(b) + 8
            if need > cap:
                grown = <uint8_t*>malloc(need)
                if grown == NULL:
                    raise MemoryError()
                free(buf)
                buf = grown
                cap = need
            out.append(_stem_bytes(b, buf, cap))
    finally:
        free(buf)
    return out
