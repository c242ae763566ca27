"""The Hindi light stemmer of XL-Sum's multilingual ROUGE (Ramanathan & Rao, 2003).

A. Ramanathan and D. D. Rao, "A Lightweight Stemmer for Hindi" (EACL 2003 workshop on
computational linguistics for South-Asian languages) strip the longest matching
inflectional suffix from a word. The suffix table below is the one of that paper as
the XL-Sum scorer (``multilingual-rouge`` 0.0.1, ``HindiStemmer``) uses it: 53 suffixes
of one to five characters (code points: the vowel signs count, as Python's ``len``).

Rule: try suffix lengths 5, 4, 3, 2, 1 in that order; a suffix of length ``L`` is only
tried when the word is longer than ``L + 1`` characters; within one length the table's
order decides; the first match is cut off. Nothing else changes (no normalisation).
"""

from __future__ import annotations

__all__ = ["stemmer", "SUFFIXES"]

# Suffixes by length in code points, each tuple in the table's order.
SUFFIXES: dict[int, tuple[str, ...]] = {
    5: ("ाएंगी", "ाएंगे", "ाऊंगी", "ाऊंगा", "ाइयाँ", "ाइयों", "ाइयां"),
    4: (
        "ाएगी",
        "ाएगा",
        "ाओगी",
        "ाओगे",
        "एंगी",
        "ेंगी",
        "एंगे",
        "ेंगे",
        "ूंगी",
        "ूंगा",
        "ातीं",
        "नाओं",
        "नाएं",
        "ताओं",
        "ताएं",
        "ियाँ",
        "ियों",
        "ियां",
    ),  # fmt: skip
    3: (
        "ाकर",
        "ाइए",
        "ाईं",
        "ाया",
        "ेगी",
        "ेगा",
        "ोगी",
        "ोगे",
        "ाने",
        "ाना",
        "ाते",
        "ाती",
        "ाता",
        "तीं",
        "ाओं",
        "ाएं",
        "ुओं",
        "ुएं",
        "ुआं",
    ),  # fmt: skip
    2: ("कर", "ाओ", "िए", "ाई", "ाए", "ने", "नी", "ना", "ते", "ीं", "ती", "ता", "ाँ", "ां", "ों", "ें"),
    1: ("ो", "े", "ू", "ु", "ी", "ि", "ा"),
}


def stemmer(word: str) -> str:
    """``word`` without its longest listed suffix (only if at least two characters remain)."""
    for length in (5, 4, 3, 2, 1):
        if len(word) > length + 1 and word.endswith(SUFFIXES[length]):
            return word[:-length]
    return word
