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


_BREAK_MARK = "\x01"  # stands for a sentence break while texts are split in bulk
_TEXT_END = "\x02"  # ends each text in the bulk split


def _marked(text: str) -> str:
    """A text with its non-empty lines joined by the break mark (the marks in the text itself shown as U+FFFD)."""
    if _BREAK_MARK in text or _TEXT_END in text:
        text = text.replace(_BREAK_MARK, "\ufffd").replace(_TEXT_END, "\ufffd")
    return f" {_BREAK_MARK} ".join(line for line in text.split("\n") if line.strip())


def encode_all(texts: list[str]) -> tuple[list[str], list[str]]:
    """(the frequency-ordered word list, each text encoded against it), in bulk: one split, one
    count and one join over all texts (a million words in a fraction of a second)."""
    if not texts:
        return [], []
    words = f" {_TEXT_END} ".join(_marked(t) for t in texts).split()
    counts = Counter(words)
    counts.pop(_TEXT_END, None)
    vocab = [BREAK if w == _BREAK_MARK else w for w, _ in counts.most_common()]
    codes = {(w if w != BREAK else _BREAK_MARK): code(i) for i, w in enumerate(vocab)}
    codes[_TEXT_END] = " "  # a space is no code character: the texts are the parts between spaces
    encoded = "".join(map(codes.__getitem__, words)).split(" ")
    return vocab, encoded


def scores(values: np.ndarray) -> list[int]:
    """Per-pair values as integers in units of 1e-5."""
    return np.rint(np.asarray(values, dtype=np.float64) * SCALE).astype(np.int64).tolist()
