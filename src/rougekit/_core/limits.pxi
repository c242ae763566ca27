# Sentences and the length limits: a summary's sentences are its non-empty lines; -l N keeps the
# first N words of Perl's split(/\s+/) (a leading empty field counts), cutting the sentence
# where the limit falls; -b N keeps the first N bytes (docs/rouge155: limits).

cdef inline bint _next_line(const uint8_t* p, Py_ssize_t n, Py_ssize_t* pos, Py_ssize_t* s,
                            Py_ssize_t* e) noexcept nogil:
    """The next non-empty line p[s:e] from ``pos`` on (``pos`` moves past it); False at the end."""
    cdef const uint8_t* nl
    while pos[0] < n:
        nl = <const uint8_t*>memchr(p + pos[0], 10, n - pos[0])
        s[0] = pos[0]
        e[0] = (nl - p) if nl != NULL else n
        pos[0] = e[0] + 1
        if e[0] > s[0]:
            return True
    return False


# word-limit helpers: Perl's split(/\s+/) on one raw sentence [s, e)

cdef Py_ssize_t _field_count(const uint8_t* p, Py_ssize_t s, Py_ssize_t e) noexcept nogil:
    """Fields of split(/\\s+/): a leading empty field when the text starts with white space."""
    cdef Py_ssize_t i = s, runs = 0
    cdef bint lead = _WS[p[s]] != 0
    while i < e:
        if _WS[p[i]]:
            i += 1
            continue
        runs += 1
        while i < e and not _WS[p[i]]:
            i += 1
    if runs == 0:
        return 0
    return runs + (1 if lead else 0)


cdef Py_ssize_t _field_prefix_end(const uint8_t* p, Py_ssize_t s, Py_ssize_t e, Py_ssize_t k) noexcept nogil:
    """End of the first k fields (``b" ".join(fields[:k])`` has the same tokens as p[s:end])."""
    cdef Py_ssize_t i = s, runs = 0
    if k <= 0:
        return s
    if _WS[p[s]]:
        k -= 1                      # the leading empty field
        if k == 0:
            return s
    while i < e:
        if _WS[p[i]]:
            i += 1
            continue
        while i < e and not _WS[p[i]]:
            i += 1
        runs += 1
        if runs == k:
            return i
    return e
