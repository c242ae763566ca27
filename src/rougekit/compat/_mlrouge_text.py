"""Text to tokens as the XL-Sum scorer (``multilingual-rouge`` 0.0.1) makes them.

Written from the behaviour of that package and of the libraries it calls (no code taken):

* **clean and split** (its BERT-style ``BasicTokenizer``): the characters U+0000, U+FFFD and
  every ``C*`` category character other than tab, newline and carriage return are deleted
  (so they join their neighbours); then the text is split on whitespace (``str.split``
  and ``Zs``) and on punctuation (the ASCII non-alphanumerics ``!``..``/``, ``:``..``@``,
  ``[``..`````, ``{``..``~`` and every ``P*`` character), which are dropped;
* **default tokens** (no word segmenter for the language, or it gave no token): the cleaned
  words joined by spaces go through OpenNMT Tokenizer's ``aggressive`` mode (pyonmttok):
  letters (``L*``) with their combining marks form words, numbers (``N*``) form their own
  runs, every other character (a symbol) is a token of its own; ``▁``, ``￭`` and ``￨``
  become ``_``, ``■`` and ``│``; a space followed by combining marks becomes the token
  ``％0020`` plus those marks, and marks at the very start a token of their own. Then each
  CJK ideograph (the BERT ranges) is split off as a token of its own.

Character categories come from Python's ``unicodedata`` (the package's own cleaning uses it
too; pyonmttok asks ICU, which only differs for characters new in a later Unicode version).
"""

from __future__ import annotations

import functools
import re
import sys
import unicodedata

from rougekit.text.split import splitter

__all__ = ["basic_tokens", "default_tokens", "split_cjk"]

# BERT's "Chinese character" ranges (CJK Unified Ideographs, extensions A-E, compatibility)
_CJK_RANGES = (
    (0x4E00, 0x9FFF), (0x3400, 0x4DBF), (0x20000, 0x2A6DF), (0x2A700, 0x2B73F),
    (0x2B740, 0x2B81F), (0x2B820, 0x2CEAF), (0xF900, 0xFAFF), (0x2F800, 0x2FA1F),
)  # fmt: skip
_ONMT_SUBSTITUTES = str.maketrans({"\u2581": "_", "\uffed": "\u25a0", "\uffe8": "\u2502"})
_WHITESPACE_TO_SPACE = str.maketrans("\t\n\r", "   ")  # printable stand-ins: they are never dropped
_ASCII_PUNCT = {c for c in map(chr, range(33, 127)) if not c.isalnum()}


def _char_class(chars: list[int]) -> str:
    """A regex character class body for a sorted list of code points."""
    parts = []
    start = prev = None
    for cp in chars:
        if prev is not None and cp == prev + 1:
            prev = cp
            continue
        if start is not None:
            parts.append(_range(start, prev))
        start = prev = cp
    if start is not None:
        parts.append(_range(start, prev))
    return "".join(parts)


def _range(a: int, b: int) -> str:
    return re.escape(chr(a)) if a == b else f"{re.escape(chr(a))}-{re.escape(chr(b))}"


@functools.lru_cache(maxsize=1)
def _patterns():
    """The regexes of the cleaning and of the aggressive mode, from one pass over Unicode."""
    dropped, separators, letters, numbers, marks = [], [], [], [], []
    category = unicodedata.category
    for cp in range(sys.maxunicode + 1):
        ch = chr(cp)
        cat = category(ch)
        if cp == 0 or cp == 0xFFFD or (cat[0] == "C" and ch not in "\t\n\r"):
            dropped.append(cp)
        elif ch.isspace() or cat == "Zs" or cat[0] == "P" or ch in _ASCII_PUNCT:
            separators.append(cp)
        elif cat[0] == "L":
            letters.append(cp)
        elif cat[0] == "N":
            numbers.append(cp)
        elif cat[0] == "M":
            marks.append(cp)
    letter, number, mark = _char_class(letters), _char_class(numbers), _char_class(marks)
    # everything not dropped, not a separator, not a letter, number or mark is a symbol (S*)
    other = f"[^ {letter}{number}{mark}]"
    aggressive = re.compile(
        f"(?:[{letter}][{mark}]*)+|(?:[{number}][{mark}]*)+|{other}[{mark}]*|^[{mark}]+|(?<= )[{mark}]+"
    )
    cjk = re.compile("([" + "".join(f"{_range(a, b)}" for a, b in _CJK_RANGES) + "])")
    return (
        re.compile(f"[{_char_class(dropped)}]+"),
        re.compile(f"[{_char_class(separators)}]+"),
        aggressive,
        cjk,
        re.compile(f"[{mark}]"),
        # the separators str.isprintable() lets through (the space, punctuation) -> a space
        {cp: " " for cp in separators if chr(cp).isprintable()},
    )


_split_printable = None  # the cut of a printable text at its separators (made on first use)


def basic_tokens(text: str) -> list[str]:
    """The words of ``text`` after the package's cleaning (its ``BasicTokenizer``)."""
    global _split_printable
    if text.isprintable() and "\ufffd" not in text:
        # nothing to drop, and the only white space is " ": cut at the separators (the space, punctuation)
        if _split_printable is None:
            _split_printable = splitter(_patterns()[5])
        return _split_printable(text)
    patterns = _patterns()
    if "\ufffd" in text or not text.translate(_WHITESPACE_TO_SPACE).isprintable():  # a character to drop?
        text = patterns[0].sub("", text)
    return [t for t in patterns[1].split(text) if t]


def split_cjk(text: str) -> list[str]:
    """Whitespace tokens of ``text`` with each CJK ideograph a token of its own."""
    return _patterns()[3].sub(r" \1 ", text).split()


def default_tokens(cleaned: str) -> list[str]:
    """The package's fallback tokens of an already cleaned text (words joined by spaces)."""
    aggressive, mark = _patterns()[2], _patterns()[4]
    pieces = []
    for match in aggressive.finditer(cleaned):
        piece = match.group()
        if match.start() > 0 and cleaned[match.start() - 1] == " " and mark.match(piece):
            piece = "\uff050020" + piece  # a space carrying combining marks: pyonmttok escapes it
        pieces.append(piece.translate(_ONMT_SUBSTITUTES))
    return split_cjk(" ".join(pieces))
