"""Readable twin of ``_segment_zh.pyx``: jieba's ``cut(text)`` (accurate mode, HMM on) in plain Python.

The same procedure over the same run-time tables (see the compiled module's docstring); the
dictionary is looked up directly in jieba's ``{word: frequency}`` instead of a character trie.

>>> t = Tables({"ab": 2, "a": 1, "b": 1}, 4, {"B": -1.0, "M": -9.0, "E": -9.0, "S": -1.0}, {}, {}, -3.14e100)
>>> t.cut("ab, abab\\r\\n")
['ab', ',', ' ', 'ab', 'ab', '\\r\\n']
"""

from __future__ import annotations

from math import log

HAN_FIRST, HAN_LAST = 0x4E00, 0x9FD5
STATES = "BMES"
#: the states each state may follow (B after E|S, M after M|B, E after B|M, S after S|E)
PREV = {"B": "ES", "M": "MB", "E": "BM", "S": "SE"}
_ASCII_WORD = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+#&._%-")
_ALNUM = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
_DIGITS = frozenset("0123456789")


def _han(char: str) -> bool:
    return HAN_FIRST <= ord(char) <= HAN_LAST


def _word_char(char: str) -> bool:
    return _han(char) or char in _ASCII_WORD


class Tables:
    """jieba's loaded data: ``Tables(freq, total, start_p, trans_p, emit_p, min_float)``; ``cut(text)``."""

    def __init__(self, freq: dict, total: int, start_p: dict, trans_p: dict, emit_p: dict, min_float: float):
        logtotal = log(total)
        self.freq = freq
        self.weight = {}
        for word, f in freq.items():
            if type(word) is not str or type(f) is not int or not 0 <= f < 1 << 53:
                raise ValueError(f"not a frequency dictionary entry: {word!r}: {f!r}")
            if f:
                self.weight[word] = log(f) - logtotal
        self.unknown = log(1) - logtotal
        self.start = {s: start_p[s] for s in STATES}
        self.trans = {(a, b): trans_p.get(a, {}).get(b, min_float) for a in STATES for b in STATES}
        self.emit = {s: emit_p.get(s, {}) for s in STATES}
        self.min_float = min_float

    def cut(self, text: str) -> list[str]:
        out: list[str] = []
        i, n = 0, len(text)
        while i < n:
            if _word_char(text[i]):
                j = i + 1
                while j < n and _word_char(text[j]):
                    j += 1
                self._run(text[i:j], out)
                i = j
            elif text.startswith("\r\n", i):
                out.append("\r\n")
                i += 2
            else:
                out.append(text[i])
                i += 1
        return out

    def _run(self, run: str, out: list[str]) -> None:
        n = len(run)
        score = [0.0] * (n + 1)
        end = [0] * n
        for k in range(n - 1, -1, -1):
            best = None
            i = k
            while i < n and run[k : i + 1] in self.freq:
                w = self.weight.get(run[k : i + 1])
                if w is not None:
                    cand = w + score[i + 1]
                    if best is None or cand >= best:  # ties: the later end
                        best, end[k] = cand, i
                i += 1
            if best is None:
                best, end[k] = self.unknown + score[k + 1], k
            score[k] = best
        x, single = 0, None  # single: where the gathered one-character pieces start
        while x < n:
            y = end[x] + 1
            if y - x == 1:
                single = x if single is None else single
            else:
                if single is not None:
                    self._gathered(run[single:x], out)
                    single = None
                out.append(run[x:y])
            x = y
        if single is not None:
            self._gathered(run[single:], out)

    def _gathered(self, chars: str, out: list[str]) -> None:
        if len(chars) == 1:
            out.append(chars)
        elif chars in self.weight:
            out.extend(chars)
        else:
            i = 0
            while i < len(chars):
                han = _han(chars[i])
                j = i + 1
                while j < len(chars) and _han(chars[j]) == han:
                    j += 1
                if han:
                    out.extend(self._hmm(chars[i:j]))
                else:
                    out.extend(_numbers_apart(chars[i:j]))
                i = j

    def _hmm(self, chars: str) -> list[str]:
        """Viterbi over B, M, E, S (a tie goes to the later letter), then cut after each E and S."""
        emit, trans, low = self.emit, self.trans, self.min_float
        v = {s: self.start[s] + emit[s].get(chars[0], low) for s in STATES}
        back: list[dict] = []
        for char in chars[1:]:
            step, new = {}, {}
            for s in STATES:
                em = emit[s].get(char, low)
                new[s], step[s] = max((v[p] + trans[p, s] + em, p) for p in PREV[s])
            back.append(step)
            v = new
        state = max((v[s], s) for s in "ES")[1]
        states = [state]
        for step in reversed(back):
            state = step[state]
            states.append(state)
        states.reverse()
        pieces, begin, done = [], 0, 0
        for i, s in enumerate(states):
            if s == "B":
                begin = i
            elif s == "E":
                pieces.append(chars[begin : i + 1])
                done = i + 1
            elif s == "S":
                pieces.append(chars[i])
                done = i + 1
        if done < len(chars):
            pieces.append(chars[done:])
        return pieces


def _numbers_apart(chars: str) -> list[str]:
    """``chars`` cut at ``[a-zA-Z0-9]+(\\.[0-9]+)?%?`` (the matches and the text between them)."""
    pieces, p, q, n = [], 0, 0, len(chars)
    while q < n:
        if chars[q] not in _ALNUM:
            q += 1
            continue
        if q > p:
            pieces.append(chars[p:q])
        p = q
        while q < n and chars[q] in _ALNUM:
            q += 1
        if q + 1 < n and chars[q] == "." and chars[q + 1] in _DIGITS:
            q += 2
            while q < n and chars[q] in _DIGITS:
                q += 1
        if q < n and chars[q] == "%":
            q += 1
        pieces.append(chars[p:q])
        p = q
    if p < n:
        pieces.append(chars[p:])
    return pieces
