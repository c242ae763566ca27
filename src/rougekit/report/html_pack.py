"""The examples of the HTML report as one compact JSON blob, decoded by the page's script.

Texts are split into display words (white space; a sentence break is the word ``"\\n"``); each
distinct word gets an id, the most frequent the smallest, and a text becomes a string of
variable-length codes: an id is written as base-26 "leading" characters (``A``-``Z``) followed by
one base-61 "final" character (:data:`FINAL`), so the 61 most frequent words cost one character
and the next 1,586 two. Scores are integers in units of 1e-5 (the tables' 5 decimals). Nothing in
the blob needs escaping in JSON or inside a ``<script>`` element.
"""

from __future__ import annotations

from collections import Counter

import numpy as np

FINAL = "0123456789abcdefghijklmnopqrstuvwxyz!#$%()*+,-./:;=?@[]^_{|}~"
LEAD = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
BREAK = "\n"  # the word standing for a sentence break
SCALE = 100000  # scores are stored as round(value * SCALE)


def code(word_id: int) -> str:
    """The characters of one word id (see the module docstring)."""
    last, rest = word_id % len(FINAL), word_id // len(FINAL)
    lead = ""
    while rest:
        rest, digit = divmod(rest, len(LEAD))
        lead = LEAD[digit] + lead
    return lead + FINAL[last]


def decode(text: str, words: list[str]) -> list[str]:
    """The words of an encoded text (the page's script does the same; used by the tests)."""
    out, value = [], 0
    for ch in text:
        k = LEAD.find(ch)
        if k >= 0:
            value = value * len(LEAD) + k
        else:
            out.append(words[value * len(FINAL) + FINAL.index(ch)])
            value = 0
    return out


def split_words(text: str) -> list[str]:
    """Display words of a text: white-space separated, ``BREAK`` between its lines (sentences)."""
    words: list[str] = []
    for line in text.split("\n"):
        parts = line.split()
        if parts:
            if words:
                words.append(BREAK)
            words.extend(parts)
    return words


class Vocabulary:
    """Encodes many texts against one frequency-ordered word list."""

    def __init__(self, texts: list[list[str]]):
        counts = Counter(w for words in texts for w in words)
        self.words = [w for w, _ in counts.most_common()]
        self._codes = {w: code(i) for i, w in enumerate(self.words)}

    def encode(self, words: list[str]) -> str:
        codes = self._codes
        return "".join([codes[w] for w in words])


def scores(values: np.ndarray) -> list[int]:
    """Per-pair values as integers in units of 1e-5."""
    return np.rint(np.asarray(values, dtype=np.float64) * SCALE).astype(np.int64).tolist()
