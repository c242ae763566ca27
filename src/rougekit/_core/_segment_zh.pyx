# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Compiled Chinese word segmentation giving jieba's ``cut(text)`` (accurate mode, HMM on), piece for piece.

The dictionary and the HMM tables are not ours: :class:`Tables` is built at run time from the
installed jieba's loaded data (the prefix dictionary ``{word: frequency}`` with its total, and
``finalseg``'s start / transition / emission log-probabilities). What is reproduced is the
procedure, as jieba 0.42 runs it:

1. The text falls into runs of "word" characters (U+4E00..U+9FD5, ASCII letters and digits,
   ``+#&._%-``) and the rest; outside the runs every character is its own piece, except that a
   ``"\\r\\n"`` pair stays one piece.
2. In a run, every position has the dictionary words starting there (walking the prefix
   dictionary while the growing fragment is one of its keys; a key of frequency 0 is only a
   prefix). The route from the right end maximises the sum of ``log(freq) - log(total)``; a
   position with no word takes its one character with frequency 1; of equal sums the longer word
   wins.
3. Along the route, consecutive one-character pieces are gathered; a gathered run of two or more
   that is not itself a dictionary word is cut again by the HMM: its Han characters by the
   Viterbi path over the states B, M, E, S (ties to the later state letter), its other
   characters at ``[a-zA-Z0-9]+(\\.\\d+)?%?``.

The float sums are formed in jieba's order (``(log(f) - log(total)) + rest``; ``(v + trans) +
emit``) so the maxima and their ties are the same. The readable twin is ``_segment_zh_pure.py``.
"""

from cpython.unicode cimport PyUnicode_AsUCS4Copy
from cpython.mem cimport PyMem_Free
from libc.math cimport log
from libc.stdint cimport int32_t, uint8_t, uint32_t, uint64_t
from libc.stdlib cimport free, malloc

include "chartrie.pxi"

cdef enum:
    IS_KEY = 1  # the fragment is a key of the prefix dictionary
    IS_WORD = 2  # ... with a frequency above 0
    HAN_FIRST = 0x4E00
    HAN_LAST = 0x9FD5
    HAN_COUNT = HAN_LAST - HAN_FIRST + 1

# HMM states in the order jieba's Viterbi visits them; the letters break ties
cdef char *STATES = b"BMES"
cdef int S_B = 0, S_M = 1, S_E = 2, S_S = 3
# the states each state may follow (jieba's PrevStatus): B after E|S, M after M|B, E after B|M, S after S|E
cdef int PREV[4][2]
PREV[0][0] = 2
PREV[0][1] = 3
PREV[1][0] = 1
PREV[1][1] = 0
PREV[2][0] = 0
PREV[2][1] = 1
PREV[3][0] = 3
PREV[3][1] = 2


cdef inline bint word_char(uint32_t c) noexcept nogil:
    """A character of jieba's word runs: U+4E00..U+9FD5, ASCII letters and digits, ``+#&._%-``."""
    if HAN_FIRST <= c <= HAN_LAST:
        return True
    if c >= 128:
        return False
    return (
        (c >= 97 and c <= 122) or (c >= 65 and c <= 90) or (c >= 48 and c <= 57)
        or c == 43 or c == 35 or c == 38 or c == 46 or c == 95 or c == 37 or c == 45
    )


cdef inline bint ascii_alnum(uint32_t c) noexcept nogil:
    return (c >= 97 and c <= 122) or (c >= 65 and c <= 90) or (c >= 48 and c <= 57)


cdef inline bint ascii_digit(uint32_t c) noexcept nogil:
    return c >= 48 and c <= 57


cdef class Tables:
    """jieba's loaded data in arrays: a character trie of the prefix dictionary, the HMM tables.

    ``Tables(freq, total, start_p, trans_p, emit_p, min_float)``: ``freq`` is jieba's
    ``{word: int frequency >= 0}`` (``jieba.dt.FREQ``), ``total`` its ``jieba.dt.total``; the
    HMM dictionaries are ``jieba.finalseg``'s. ``cut(text)`` is ``list(jieba.cut(text))``.
    """

    cdef CharTrie trie  # the prefix dictionary; flags IS_KEY / IS_WORD, weight log(freq) - log(total)
    cdef double unknown  # log(1) - log(total): a character that is no word
    cdef double start[4]
    cdef double trans[4][4]
    cdef double *emit  # [4][HAN_COUNT]

    def __cinit__(self):
        self.emit = NULL

    def __dealloc__(self):
        free(self.emit)

    def __init__(self, dict freq, total, dict start_p, dict trans_p, dict emit_p, double min_float):
        cdef double logtotal = log(<double>total)
        cdef Py_ssize_t k
        cdef int32_t node
        cdef int s, t
        self.unknown = log(1.0) - logtotal
        self.trie = CharTrie()
        for word, f in freq.items():
            if type(word) is not str or type(f) is not int or not (0 <= f < (1 << 53)):
                raise ValueError(f"not a frequency dictionary entry: {word!r}: {f!r}")
            node = self.trie.add(word)
            self.trie.flags[node] |= IS_KEY
            if f:
                self.trie.flags[node] |= IS_WORD
                self.trie.weight[node] = log(<double>f) - logtotal
        self.emit = <double *>malloc(4 * HAN_COUNT * sizeof(double))
        if self.emit == NULL:
            raise MemoryError()
        for s in range(4):
            state = chr(STATES[s])
            self.start[s] = start_p[state]
            row = trans_p.get(state, {})
            for t in range(4):
                self.trans[s][t] = row.get(chr(STATES[t]), min_float)
            for k in range(HAN_COUNT):
                self.emit[s * HAN_COUNT + k] = min_float
            for char, p in emit_p.get(state, {}).items():
                if type(char) is str and len(<str>char) == 1 and HAN_FIRST <= ord(char) <= HAN_LAST:
                    self.emit[s * HAN_COUNT + ord(char) - HAN_FIRST] = p

    cdef bint _is_word(self, const uint32_t *c, Py_ssize_t a, Py_ssize_t b) noexcept nogil:
        """Is ``c[a:b]`` a key of frequency above 0 (jieba's ``FREQ.get(buf)``)?"""
        cdef int32_t node = 0
        cdef Py_ssize_t i
        for i in range(a, b):
            node = self.trie.find(node, c[i])
            if node < 0:
                return False
        return (self.trie.flags[node] & IS_WORD) != 0

    def cut(self, str text not None):
        """The pieces of ``text``, as ``list(jieba.cut(text))`` gives them."""
        cdef Py_ssize_t n = len(text), i = 0, j
        cdef list out = []
        cdef uint32_t *c
        if n == 0:
            return out
        c = <uint32_t *>PyUnicode_AsUCS4Copy(text)
        if c == NULL:
            raise MemoryError()
        cdef double *route = <double *>malloc((n + 1) * sizeof(double))
        cdef Py_ssize_t *end = <Py_ssize_t *>malloc((n + 1) * sizeof(Py_ssize_t))
        cdef signed char *state = <signed char *>malloc(5 * (n + 1))  # Viterbi back pointers, then the path
        cdef double *vit = <double *>malloc(8 * (n + 1) * sizeof(double))
        try:
            if route == NULL or end == NULL or state == NULL or vit == NULL:
                raise MemoryError()
            while i < n:
                if word_char(c[i]):
                    j = i + 1
                    while j < n and word_char(c[j]):
                        j += 1
                    self._run(text, c, i, j, route, end, state, vit, out)
                    i = j
                elif c[i] == 13 and i + 1 < n and c[i + 1] == 10:
                    out.append(text[i:i + 2])
                    i += 2
                else:
                    out.append(text[i:i + 1])
                    i += 1
        finally:
            PyMem_Free(<void *>c)
            free(route)
            free(end)
            free(state)
            free(vit)
        return out

    cdef void _run(self, str text, const uint32_t *c, Py_ssize_t a, Py_ssize_t b, double *route,
                   Py_ssize_t *end, signed char *state, double *vit, list out) except *:
        """Cut the word run ``c[a:b]``: the best route, then the HMM on gathered single characters."""
        cdef Py_ssize_t k, i, best_end, x, y, gathered
        cdef int32_t node
        cdef double best, score
        cdef bint found
        route[b - a] = 0.0
        for k in range(b - 1, a - 1, -1):
            node = 0
            found = False
            best = 0.0
            best_end = k
            i = k
            while i < b:
                node = self.trie.find(node, c[i])
                if node < 0 or not (self.trie.flags[node] & IS_KEY):
                    break
                if self.trie.flags[node] & IS_WORD:
                    score = self.trie.weight[node] + route[i + 1 - a]
                    if not found or score >= best:  # ties go to the later (longer) end
                        best = score
                        best_end = i
                        found = True
                i += 1
            if not found:
                best = self.unknown + route[k + 1 - a]
                best_end = k
            route[k - a] = best
            end[k - a] = best_end
        x = a
        gathered = -1  # start of the gathered single characters, -1 when none
        while x < b:
            y = end[x - a] + 1
            if y - x == 1:
                if gathered < 0:
                    gathered = x
            else:
                if gathered >= 0:
                    self._gathered(text, c, gathered, x, state, vit, out)
                    gathered = -1
                out.append(text[x:y])
            x = y
        if gathered >= 0:
            self._gathered(text, c, gathered, b, state, vit, out)

    cdef void _gathered(self, str text, const uint32_t *c, Py_ssize_t a, Py_ssize_t b,
                        signed char *state, double *vit, list out) except *:
        cdef Py_ssize_t i, j, p, q
        if b - a == 1:
            out.append(text[a:b])
        elif self._is_word(c, a, b):
            for i in range(a, b):
                out.append(text[i:i + 1])
        else:
            i = a
            while i < b:
                j = i + 1
                if HAN_FIRST <= c[i] <= HAN_LAST:
                    while j < b and HAN_FIRST <= c[j] <= HAN_LAST:
                        j += 1
                    self._viterbi(text, c, i, j, state, vit, out)
                else:
                    while j < b and not (HAN_FIRST <= c[j] <= HAN_LAST):
                        j += 1
                    # pieces at [a-zA-Z0-9]+(\.\d+)?%? and the text between them
                    p = i
                    q = i
                    while q < j:
                        if not ascii_alnum(c[q]):
                            q += 1
                            continue
                        if q > p:
                            out.append(text[p:q])
                        p = q
                        while q < j and ascii_alnum(c[q]):
                            q += 1
                        if q + 1 < j and c[q] == 46 and ascii_digit(c[q + 1]):
                            q += 2
                            while q < j and ascii_digit(c[q]):
                                q += 1
                        if q < j and c[q] == 37:
                            q += 1
                        out.append(text[p:q])
                        p = q
                    if j > p:
                        out.append(text[p:j])
                i = j

    cdef void _viterbi(self, str text, const uint32_t *c, Py_ssize_t a, Py_ssize_t b,
                       signed char *back, double *vit, list out) except *:
        """The HMM's best states for the Han characters ``c[a:b]``, then jieba's cutting by them."""
        cdef Py_ssize_t t, n = b - a, i, begin, nexti
        cdef int s, s0, s1, pick
        cdef double em, p0, p1
        cdef double *prev
        cdef double *cur
        cdef const double *emit = self.emit
        cdef Py_ssize_t col = c[a] - HAN_FIRST
        cdef signed char *path
        for s in range(4):
            vit[s] = self.start[s] + emit[s * HAN_COUNT + col]
        for t in range(1, n):
            prev = vit + 4 * (t - 1)
            cur = vit + 4 * t
            col = c[a + t] - HAN_FIRST
            for s in range(4):
                em = emit[s * HAN_COUNT + col]
                s0 = PREV[s][0]
                s1 = PREV[s][1]
                p0 = prev[s0] + self.trans[s0][s] + em
                p1 = prev[s1] + self.trans[s1][s] + em
                # max of (p, letter) pairs, the first kept unless the second is greater
                if p1 > p0 or (p1 == p0 and STATES[s1] > STATES[s0]):
                    cur[s] = p1
                    pick = s1
                else:
                    cur[s] = p0
                    pick = s0
                back[4 * t + s] = pick
        cur = vit + 4 * (n - 1)
        s = S_S if cur[S_S] >= cur[S_E] else S_E
        path = back + 4 * n  # back[4 * t + s]: the state at t - 1 on the best way to state s at t
        for t in range(n - 1, -1, -1):
            path[t] = s
            if t:
                s = back[4 * t + s]
        begin = 0
        nexti = 0
        for i in range(n):
            s = path[i]
            if s == S_B:
                begin = i
            elif s == S_E:
                out.append(text[a + begin:a + i + 1])
                nexti = i + 1
            elif s == S_S:
                out.append(text[a + i:a + i + 1])
                nexti = i + 1
        if nexti < n:
            out.append(text[a + nexti:b])
