# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Compiled Thai word segmentation giving pythainlp's ``newmm`` pieces (before ``word_tokenize``'s post-processing).

``Tables(words, clusters, max_graph)`` takes pythainlp's data at run time: its default word
dictionary, its Thai Character Cluster rules (parsed from its own pattern by
``rougekit.text.thai_newmm.parse_clusters``) and its graph size limit. The procedure (see the
readable twin ``_segment_th_pure.py``): cluster boundaries by the first matching rule; from the
earliest open position, dictionary words that end on a boundary; a single open position commits
the breadth-first shortest path to it; no open position makes the text up to the next likely
word start one piece.
"""

from cpython.mem cimport PyMem_Free
from cpython.unicode cimport PyUnicode_AsUCS4Copy, Py_UNICODE_ISDECIMAL
from libc.stdint cimport int32_t, uint8_t, uint32_t, uint64_t
from libc.stdlib cimport free, malloc, realloc

include "chartrie.pxi"

cdef enum:
    END = 1  # trie flag: a dictionary word ends here
    CLASS = 0
    GROUP = 1
    GROUP_END = 2
    LOOK = 3
    KO_KAI = 0x0E01
    HO_NOKHUK = 0x0E2E


cdef inline bint thai_block(uint32_t c) noexcept nogil:
    return 0x0E00 <= c <= 0x0E7F


cdef inline bint latin(uint32_t c) noexcept nogil:
    return c == 45 or (97 <= c <= 122) or (65 <= c <= 90)


cdef inline bint digit(uint32_t c) noexcept:
    return Py_UNICODE_ISDECIMAL(<Py_UCS4>c)


cdef Py_ssize_t non_thai_end(const uint32_t *c, Py_ssize_t n, Py_ssize_t i) noexcept:
    """End of the non-Thai token at ``i`` (Latin, a number like 1,234.5, spaces, a newline, other), or -1."""
    cdef uint32_t ch = c[i]
    cdef Py_ssize_t j = i + 1
    if latin(ch):
        while j < n and latin(c[j]):
            j += 1
        return j
    if digit(ch):
        while j < n and digit(c[j]):
            j += 1
        while j + 1 < n and (c[j] == 44 or c[j] == 46) and digit(c[j + 1]):
            j += 2
            while j < n and digit(c[j]):
                j += 1
        return j
    if ch == 32 or ch == 9:
        while j < n and (c[j] == 32 or c[j] == 9):
            j += 1
        return j
    if ch == 10:
        return j
    if ch == 13:
        return j + 1 if j < n and c[j] == 10 else -1
    if thai_block(ch):
        return -1
    while j < n and not (thai_block(c[j]) or c[j] == 32 or c[j] == 9 or c[j] == 13 or c[j] == 10):
        j += 1
    return j


cdef inline Py_ssize_t word_end(CharTrie trie, const uint32_t *c, Py_ssize_t n, Py_ssize_t j,
                                 const uint8_t *ends, int32_t *node) noexcept:
    """The trie walk from ``node`` (the characters before ``j`` read) on to the next end of a dictionary
    word on a cluster boundary: that position (``node`` left there), or -1 when no word goes on."""
    while j < n:
        node[0] = trie.find(node[0], c[j])
        if node[0] < 0:
            return -1
        j += 1
        if (trie.flags[node[0]] & END) and ends[j]:
            return j
    return -1


cdef class Tables:
    """pythainlp's newmm data in arrays; ``cut(text)`` gives newmm's pieces."""

    cdef CharTrie trie
    cdef int max_graph
    # cluster rules, flattened: rule r is nodes rule_first[r] .. rule_first[r + 1] - 1
    cdef int n_rules
    cdef int *rule_first
    cdef int *kind
    cdef int *optional
    cdef int *extra  # GROUP: index of its GROUP_END; LOOK: 1 when "$" is an alternative
    cdef int *range_first  # node k's ranges: range_first[k] .. range_first[k + 1] - 1
    cdef uint32_t *lo
    cdef uint32_t *hi
    cdef uint64_t *thai_bits  # per node: 2 words, the characters of the Thai block its class takes
    cdef uint64_t thai_first[128]  # per character of the Thai block: the rules whose first node takes it
    cdef bint filtered  # thai_first is usable (at most 64 rules, each starting with a required class)

    def __cinit__(self):
        self.rule_first = self.kind = self.optional = self.extra = self.range_first = NULL
        self.lo = self.hi = NULL
        self.thai_bits = NULL

    def __dealloc__(self):
        free(self.rule_first)
        free(self.kind)
        free(self.optional)
        free(self.extra)
        free(self.range_first)
        free(self.lo)
        free(self.hi)
        free(self.thai_bits)

    def __init__(self, words, list clusters, int max_graph):
        cdef int32_t node
        cdef int k = 0, r = 0, g = 0
        self.trie = CharTrie()
        for word in words:
            if type(word) is not str:
                raise ValueError(f"not a word: {word!r}")
            if len(<str>word):
                node = self.trie.add(word)
                self.trie.flags[node] |= END
        self.max_graph = max_graph
        nodes = [item for rule in clusters for item in rule]
        ranges = [rng for item in nodes for rng in item[2]]
        self.n_rules = len(clusters)
        self.rule_first = <int *>malloc((self.n_rules + 1) * sizeof(int))
        self.kind = <int *>malloc((len(nodes) + 1) * sizeof(int))
        self.optional = <int *>malloc((len(nodes) + 1) * sizeof(int))
        self.extra = <int *>malloc((len(nodes) + 1) * sizeof(int))
        self.range_first = <int *>malloc((len(nodes) + 1) * sizeof(int))
        self.lo = <uint32_t *>malloc((len(ranges) + 1) * sizeof(uint32_t))
        self.hi = <uint32_t *>malloc((len(ranges) + 1) * sizeof(uint32_t))
        if not (self.rule_first and self.kind and self.optional and self.extra and self.range_first
                and self.lo and self.hi):
            raise MemoryError()
        for r, rule in enumerate(clusters):
            self.rule_first[r] = k
            for kind, optional, rngs, extra in rule:
                self.kind[k] = kind
                self.optional[k] = 1 if optional else 0
                # a group's end is given within its rule: make it an index into the flat arrays
                self.extra[k] = self.rule_first[r] + extra if kind == GROUP else extra
                self.range_first[k] = g
                for a, b in rngs:
                    self.lo[g] = a
                    self.hi[g] = b
                    g += 1
                k += 1
        self.rule_first[self.n_rules] = k
        self.range_first[k] = g
        self.thai_bits = <uint64_t *>calloc(2 * (k + 1), sizeof(uint64_t))
        if not self.thai_bits:
            raise MemoryError()
        for r in range(k):
            for g in range(self.range_first[r], self.range_first[r + 1]):
                for a in range(max(self.lo[g], 0x0E00), min(self.hi[g], 0x0E7F) + 1):
                    self.thai_bits[2 * r + ((a - 0x0E00) >> 6)] |= (<uint64_t>1) << ((a - 0x0E00) & 63)
        self.filtered = self.n_rules <= 64
        for r in range(self.n_rules):
            k = self.rule_first[r]
            if k == self.rule_first[r + 1] or self.kind[k] != CLASS or self.optional[k]:
                self.filtered = False
        if self.filtered:
            for g in range(128):
                self.thai_first[g] = 0
                for r in range(self.n_rules):
                    if self._in(self.rule_first[r], 0x0E00 + g):
                        self.thai_first[g] |= (<uint64_t>1) << r

    cdef inline bint _in(self, int k, uint32_t ch) noexcept nogil:
        cdef int g
        if 0x0E00 <= ch <= 0x0E7F:
            return (self.thai_bits[2 * k + ((ch - 0x0E00) >> 6)] >> ((ch - 0x0E00) & 63)) & 1
        for g in range(self.range_first[k], self.range_first[k + 1]):
            if self.lo[g] <= ch <= self.hi[g]:
                return True
        return False

    cdef Py_ssize_t _rule_end(self, int k, int stop, const uint32_t *c, Py_ssize_t n, Py_ssize_t pos) noexcept nogil:
        """End of the first match of nodes ``k .. stop - 1`` at ``pos`` (the pattern's order of choices), or -1."""
        cdef Py_ssize_t end
        cdef int kind
        while k < stop and self.kind[k] == CLASS and not self.optional[k]:  # required characters: no choice
            if pos < n and self._in(k, c[pos]):
                k += 1
                pos += 1
            else:
                return -1
        if k == stop:
            return pos
        kind = self.kind[k]
        if kind == CLASS:
            if pos < n and self._in(k, c[pos]):
                end = self._rule_end(k + 1, stop, c, n, pos + 1)
                if end >= 0:
                    return end
            return self._rule_end(k + 1, stop, c, n, pos) if self.optional[k] else -1
        if kind == GROUP:  # optional: the group first, then without it
            end = self._rule_end(k + 1, stop, c, n, pos)
            return end if end >= 0 else self._rule_end(self.extra[k] + 1, stop, c, n, pos)
        if kind == GROUP_END:
            return self._rule_end(k + 1, stop, c, n, pos)
        # LOOK: a class at pos, or "$" (the end, or just before a final newline)
        if (pos < n and self._in(k, c[pos])) or (self.extra[k] and (pos == n or (pos == n - 1 and c[pos] == 10))):
            return self._rule_end(k + 1, stop, c, n, pos)
        return -1

    cdef void _boundaries(self, const uint32_t *c, Py_ssize_t n, uint8_t *ends) noexcept nogil:
        cdef Py_ssize_t p = 0, step, end
        cdef int r
        cdef uint64_t rules
        while p < n:
            step = 1
            if self.filtered:  # only the rules that can start here, in their order
                rules = self.thai_first[c[p] - 0x0E00] if 0x0E00 <= c[p] <= 0x0E7F else 0
                if not (0x0E00 <= c[p] <= 0x0E7F):
                    for r in range(self.n_rules):
                        if self._in(self.rule_first[r], c[p]):
                            rules |= (<uint64_t>1) << r
            else:
                rules = ~(<uint64_t>0)
            for r in range(self.n_rules):
                if r < 64 and not (rules >> r) & 1:
                    continue
                end = self._rule_end(self.rule_first[r], self.rule_first[r + 1], c, n, p)
                if end >= 0:
                    step = end - p
                    break
            p += step
            ends[p] = 1

    cdef bint _two_consonants(self, const uint32_t *c, Py_ssize_t a, Py_ssize_t b) noexcept nogil:
        """``[ก-ฮ]{,2}$`` matches ``c[a:b]`` ("$" also before a final newline)."""
        cdef Py_ssize_t i
        if b - a >= 1 and c[b - 1] == 10:
            b -= 1
            if b - a > 2:
                return False
        elif b - a > 2:
            return False
        for i in range(a, b):
            if not (KO_KAI <= c[i] <= HO_NOKHUK):
                return False
        return True

    cdef Py_ssize_t _skip(self, const uint32_t *c, Py_ssize_t n, Py_ssize_t i, const uint8_t *ends) noexcept:
        """Where an unknown piece starting at ``i`` ends."""
        cdef Py_ssize_t end = non_thai_end(c, n, i), p, j
        cdef int32_t node
        if end >= 0:
            return end
        for p in range(i + 1, n):
            if ends[p]:
                node = 0
                j = word_end(self.trie, c, n, p, ends, &node)
                while j >= 0:
                    if not self._two_consonants(c, p, j):
                        return p
                    j = word_end(self.trie, c, n, j, ends, &node)
                if non_thai_end(c, n, p) >= 0:
                    return p
        return n

    def cut(self, str text not None, rejoin=None):
        """newmm's pieces of ``text`` (``pythainlp.tokenize.newmm.segment(text)``).

        ``rejoin(pieces)`` is applied when ``text`` has a digit, one of ``.,:`` and a digit in a
        row (where ``word_tokenize`` rejoins formatted numbers), when given.
        """
        cdef Py_ssize_t n = len(text)
        cdef list out = []
        if n == 0:
            return out
        cdef uint32_t *c = <uint32_t *>PyUnicode_AsUCS4Copy(text)
        if c == NULL:
            raise MemoryError()
        # per position: a cluster ends here, open (in newmm's queue), edges (when extended in this
        # round: stamp == round), breadth-first parent (seen == search)
        cdef uint8_t *ends = <uint8_t *>calloc(n + 1, 1)
        cdef uint8_t *open_ = <uint8_t *>calloc(n + 1, 1)
        cdef int32_t *first = <int32_t *>malloc((n + 1) * sizeof(int32_t))
        cdef int32_t *count = <int32_t *>malloc((n + 1) * sizeof(int32_t))
        cdef int32_t *stamp = <int32_t *>calloc(n + 1, sizeof(int32_t))
        cdef int32_t *parent = <int32_t *>malloc((n + 1) * sizeof(int32_t))
        cdef int32_t *seen = <int32_t *>calloc(n + 1, sizeof(int32_t))
        cdef int32_t *queue = <int32_t *>malloc((n + 1) * sizeof(int32_t))
        cdef Py_ssize_t cap = 64, n_edges = 0
        cdef int32_t *edge = <int32_t *>malloc(cap * sizeof(int32_t))
        cdef Py_ssize_t begin, done = 0, lowest = 0, n_open = 1, j, p, goal, head, tail, v, w, e
        cdef int32_t node, rnd = 1, search = 0
        cdef int size = 0
        try:
            if not (ends and open_ and first and count and stamp and parent and seen and queue and edge):
                raise MemoryError()
            self._boundaries(c, n, ends)
            open_[0] = 1
            while lowest < n:  # lowest: the smallest open position (newmm's heap top)
                begin = lowest
                open_[begin] = 0
                n_open -= 1
                # the dictionary words from begin that end on a cluster boundary
                stamp[begin] = rnd
                first[begin] = <int32_t>n_edges
                count[begin] = 0
                node = 0
                j = word_end(self.trie, c, n, begin, ends, &node)
                while j >= 0:
                    if n_edges == cap:
                        cap *= 2
                        edge = <int32_t *>realloc(edge, cap * sizeof(int32_t))
                        if edge == NULL:
                            raise MemoryError()
                    edge[n_edges] = <int32_t>j
                    n_edges += 1
                    count[begin] += 1
                    size += 1
                    if not open_[j]:
                        open_[j] = 1
                        n_open += 1
                    if size > self.max_graph:
                        break
                    j = word_end(self.trie, c, n, j, ends, &node)
                lowest = begin + 1
                while lowest <= n and not open_[lowest]:
                    lowest += 1
                if n_open == 1:
                    goal = lowest
                    # breadth first from done; the first vertex with an edge to goal ends the path
                    search += 1
                    seen[done] = search
                    queue[0] = <int32_t>done
                    head = 0
                    tail = 1
                    v = -1
                    while head < tail and v < 0:
                        w = queue[head]
                        head += 1
                        if stamp[w] != rnd:
                            continue
                        for e in range(first[w], first[w] + count[w]):
                            p = edge[e]
                            if p == goal:
                                v = w
                                break
                            if seen[p] != search:
                                seen[p] = search
                                parent[p] = <int32_t>w
                                queue[tail] = <int32_t>p
                                tail += 1
                    if v < 0:
                        raise RuntimeError("newmm: no path to the only open position")
                    # the path done -> ... -> v -> goal, written backwards into queue
                    tail = 0
                    queue[tail] = <int32_t>goal
                    tail += 1
                    while v != done:
                        queue[tail] = <int32_t>v
                        tail += 1
                        v = parent[v]
                    while tail:
                        tail -= 1
                        out.append(text[done:queue[tail]])
                        done = queue[tail]
                    rnd += 1
                    n_edges = 0
                    size = 0
                elif n_open == 0:
                    done = self._skip(c, n, begin, ends)
                    rnd += 1
                    n_edges = 0
                    size = 0
                    out.append(text[begin:done])
                    open_[done] = 1
                    n_open = 1
                    lowest = done
            if rejoin is not None:
                for p in range(n - 2):
                    if (c[p + 1] == 46 or c[p + 1] == 44 or c[p + 1] == 58) and digit(c[p]) and digit(c[p + 2]):
                        out = rejoin(out)
                        break
        finally:
            PyMem_Free(<void *>c)
            free(ends)
            free(open_)
            free(first)
            free(count)
            free(stamp)
            free(parent)
            free(seen)
            free(queue)
            free(edge)
        return out
