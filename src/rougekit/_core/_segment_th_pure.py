"""Readable twin of ``_segment_th.pyx``: pythainlp's ``newmm`` segmentation (before its post-processing).

``Tables(words, clusters, max_graph)``: ``words`` is the dictionary (pythainlp's default word trie,
read at run time), ``clusters`` the Thai Character Cluster rules as parsed by
:func:`rougekit.text.thai_newmm.parse_clusters` from pythainlp's own pattern, ``max_graph`` its
limit on the size of the graph of candidate words. ``cut(text)`` gives newmm's pieces:

1. cluster boundaries: from the start, the first rule that matches (in pattern order, with the
   pattern's own choices: an optional part is tried first with, then without) ends a cluster;
   a character that no rule matches is a cluster of its own;
2. from the earliest open position, every dictionary word ending on a cluster boundary is an
   edge (at most ``max_graph`` edges before a cut); when one open position is left, the shortest
   path to it (breadth first, edges in dictionary order) is cut into words; when none is left the
   text up to the next likely word start is one piece (a non-Thai run, or the next boundary that
   starts a dictionary word longer than two consonants, or starts a non-Thai run).

>>> t = Tables(["ab", "abc", "cd"], [[(0, False, ((97, 122),), 0)]], 50)
>>> t.cut("abcd xy")
['ab', 'cd', ' ', 'xy']
"""

from __future__ import annotations

# cluster rule nodes: (kind, optional, ranges, group end / dollar flag)
CLASS, GROUP, GROUP_END, LOOK = 0, 1, 2, 3
THAI_CONSONANTS = (0x0E01, 0x0E2E)


def _in(ranges, c: int) -> bool:
    return any(lo <= c <= hi for lo, hi in ranges)


def _digit(ch: str) -> bool:
    return ch.isdecimal()  # what the pattern's \\d matches


def _latin(ch: str) -> bool:
    return ch == "-" or ("a" <= ch <= "z") or ("A" <= ch <= "Z")


def non_thai_end(text: str, i: int) -> int:
    """End of the non-Thai token at ``i`` (Latin, a number like 1,234.5, spaces, a newline, other), or -1."""
    n = len(text)
    ch = text[i]
    j = i + 1
    if _latin(ch):
        while j < n and _latin(text[j]):
            j += 1
        return j
    if _digit(ch):
        while j < n and _digit(text[j]):
            j += 1
        while j + 1 < n and text[j] in ",." and _digit(text[j + 1]):
            j += 2
            while j < n and _digit(text[j]):
                j += 1
        return j
    if ch in " \t":
        while j < n and text[j] in " \t":
            j += 1
        return j
    if ch == "\n":
        return j
    if ch == "\r":
        return j + 1 if j < n and text[j] == "\n" else -1
    if 0x0E00 <= ord(ch) <= 0x0E7F:
        return -1
    while j < n and not (0x0E00 <= ord(text[j]) <= 0x0E7F or text[j] in " \t\r\n"):
        j += 1
    return j


class Tables:
    def __init__(self, words, clusters, max_graph: int):
        self.words = frozenset(w for w in words if w)
        self.prefixes = frozenset(w[:k] for w in self.words for k in range(1, len(w) + 1))
        self.clusters = [list(rule) for rule in clusters]
        self.max_graph = max_graph

    # ------------------------------------------------------------ clusters

    def _rule_end(self, rule, k: int, text: str, pos: int) -> int:
        """End of the first match of ``rule[k:]`` at ``pos`` (the pattern's order of choices), or -1."""
        if k == len(rule):
            return pos
        kind, optional, ranges, extra = rule[k]
        if kind == CLASS:
            if pos < len(text) and _in(ranges, ord(text[pos])):
                end = self._rule_end(rule, k + 1, text, pos + 1)
                if end >= 0:
                    return end
            return self._rule_end(rule, k + 1, text, pos) if optional else -1
        if kind == GROUP:  # always optional here: the group first, then without it
            end = self._rule_end(rule, k + 1, text, pos)
            return end if end >= 0 else self._rule_end(rule, extra + 1, text, pos)
        if kind == GROUP_END:
            return self._rule_end(rule, k + 1, text, pos)
        # LOOK: a class at pos, or the end ("$": also just before a final newline)
        n = len(text)
        ahead = (pos < n and _in(ranges, ord(text[pos]))) or (
            extra and (pos == n or (pos == n - 1 and text[pos] == "\n"))
        )
        return self._rule_end(rule, k + 1, text, pos) if ahead else -1

    def boundaries(self, text: str) -> bytearray:
        """``b[i]`` is 1 where a cluster ends at ``i``."""
        ends = bytearray(len(text) + 1)
        p = 0
        while p < len(text):
            step = 1
            for rule in self.clusters:
                end = self._rule_end(rule, 0, text, p)
                if end >= 0:
                    step = end - p
                    break
            p += step
            ends[p] = 1
        return ends

    # ------------------------------------------------------------ words

    def _words_at(self, text: str, i: int) -> list[int]:
        """Ends of the dictionary words starting at ``i``, shortest first."""
        found, j = [], i + 1
        while j <= len(text) and text[i:j] in self.prefixes:
            if text[i:j] in self.words:
                found.append(j)
            j += 1
        return found

    def _two_consonants(self, word: str) -> bool:
        lo, hi = THAI_CONSONANTS
        return len(word) <= 2 and all(lo <= ord(ch) <= hi for ch in word)

    def _skip(self, text: str, i: int, ends: bytearray) -> int:
        """Where an unknown piece starting at ``i`` ends."""
        end = non_thai_end(text, i)
        if end >= 0:
            return end
        for p in range(i + 1, len(text)):
            if ends[p]:
                if any(ends[j] and not self._two_consonants(text[p:j]) for j in self._words_at(text, p)):
                    return p
                if non_thai_end(text, p) >= 0:
                    return p
        return len(text)

    def cut(self, text: str, rejoin=None) -> list[str]:
        """newmm's pieces; ``rejoin(pieces)`` applied when a digit, one of ``.,:`` and a digit are in a row."""
        if not text:
            return []
        n = len(text)
        ends = self.boundaries(text)
        out: list[str] = []
        edges: dict[int, list[int]] = {}
        size = 0
        open_ = [0]  # the open positions, kept sorted (newmm's heap: the same minimum each time)
        done = 0
        while open_[0] < n:
            begin = open_.pop(0)
            for j in self._words_at(text, begin):
                if ends[j]:
                    edges.setdefault(begin, []).append(j)
                    size += 1
                    if j not in open_:
                        open_.append(j)
                        open_.sort()
                    if size > self.max_graph:
                        break
            if len(open_) == 1:
                path = _shortest(edges, done, open_[0])
                for p in path:
                    out.append(text[done:p])
                    done = p
                edges, size = {}, 0
            elif not open_:
                done = self._skip(text, begin, ends)
                edges, size = {}, 0
                out.append(text[begin:done])
                open_.append(done)
        if rejoin is not None and any(
            text[p + 1] in ".,:" and _digit(text[p]) and _digit(text[p + 2]) for p in range(len(text) - 2)
        ):
            out = rejoin(out)
        return out


def _shortest(edges: dict[int, list[int]], start: int, goal: int) -> list[int]:
    """The first path found breadth first from ``start`` to ``goal`` (positions after ``start``)."""
    came = {start: None}
    queue = [start]
    for vertex in queue:
        for nxt in edges.get(vertex, ()):
            if nxt == goal:
                path = [goal]
                while vertex != start:
                    path.append(vertex)
                    vertex = came[vertex]
                return path[::-1]
            if nxt not in came:
                came[nxt] = vertex
                queue.append(nxt)
    raise RuntimeError("newmm: no path to the only open position")
