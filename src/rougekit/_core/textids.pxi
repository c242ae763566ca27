# Text helpers of the front ends that hand the engine token ids (``rougekit.text.intern``,
# ``rougekit.text.split``): tokens to ids through a vocabulary dict, and a text cut at marked
# characters.  Twins: ``_pure.intern_ids`` and ``_pure.split_marked``.  No ROUGE behaviour here.


def intern_ids(dict vocab, tokens, bint skip_empty=True):
    """The ids of the (non-empty, unless not ``skip_empty``) ``tokens`` in ``vocab`` (token -> id),
    a new token numbered ``len(vocab)`` on first sight; see ``_pure.intern_ids``."""
    cdef list out = []
    cdef PyObject* v
    for t in tokens:
        if skip_empty and not t:
            continue
        v = PyDict_GetItem(vocab, t)
        if v == NULL:
            i = len(vocab)
            vocab[t] = i
            out.append(i)
        else:
            out.append(<object>v)
    return tuple(out)


cdef extern from "Python.h":
    int _pu_kind "PyUnicode_KIND" (object u)
    void* _pu_data "PyUnicode_DATA" (object u)
    Py_ssize_t _pu_len "PyUnicode_GET_LENGTH" (object u)
    uint32_t _pu_read "PyUnicode_READ" (int kind, void* data, Py_ssize_t i)
    object _pu_sub "PyUnicode_Substring" (object u, Py_ssize_t start, Py_ssize_t end)


def split_marked(bytes marks, str text):
    """The runs of ``text`` between the characters whose code point c has bit ``c & 7`` of byte
    ``c >> 3`` set in ``marks`` (dropped; none past the end); see ``_pure.split_marked``."""
    cdef Py_ssize_t n = _pu_len(text), i, start = -1
    cdef uint32_t nbits = <uint32_t>(8 * len(marks)), c
    cdef int kind = _pu_kind(text)
    cdef void* data = _pu_data(text)
    cdef const unsigned char* m = marks
    cdef list out = []
    for i in range(n):
        c = _pu_read(kind, data, i)
        if c < nbits and (m[c >> 3] >> (c & 7)) & 1:
            if start >= 0:
                out.append(_pu_sub(text, start, i))
                start = -1
        elif start < 0:
            start = i
    if start >= 0:
        out.append(text if start == 0 else _pu_sub(text, start, n))
    return out
