"""rouge-score 0.1.2's default tokenizer, and a simple sentence splitter.

Tokenization (as ``rouge_score.tokenize.tokenize``):

1. lower-case the text (``str.lower``; a ``bytes`` input is lower-cased as bytes
   and then decoded as UTF-8, in that order);
2. replace every run of characters other than ASCII ``a-z`` / ``0-9`` by one space;
3. split on whitespace;
4. with stemming, stem each token *longer than three characters* with NLTK's
   default Porter variant (:mod:`rougekit.compat._porter_nltk`);
5. keep only non-empty tokens made of ``a-z`` / ``0-9``.

Note that lower-casing happens before the ASCII filter, so a few non-ASCII
characters survive as ASCII (``"\\u212a"``, the Kelvin sign, lower-cases to ``"k"``).
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod

from . import _porter_nltk

__all__ = ["Tokenizer", "DefaultTokenizer", "tokenize", "line_tokens", "split_sentences"]

_NON_ALNUM = re.compile(r"[^a-z0-9]+")
_NON_ALNUM_NOR_NEWLINE = re.compile(r"[^a-z0-9\n]+")


class _Stemmed(dict):
    """Token -> what the stemming step makes of it (stemmed if longer than three characters), remembered."""

    def __missing__(self, token: str) -> str:
        out = _porter_nltk.stem(token) if len(token) > 3 else token
        if len(self) >= _porter_nltk.CACHE_MAX:
            self.clear()
        self[token] = out
        return out


_STEMMED = _Stemmed()


def lowered_text(text) -> str:
    """``text`` lower-cased as rouge-score's tokenizer does (``str.lower``; bytes decoded as UTF-8 after)."""
    if isinstance(text, bytes):
        return text.lower().decode("utf-8")
    return text.lower()


def tokenize(text, use_stemmer: bool = False) -> list[str]:
    """Tokens of ``text`` exactly as rouge-score 0.1.2's default tokenizer makes them."""
    tokens = _NON_ALNUM.sub(" ", lowered_text(text)).split()
    if use_stemmer:
        # The stemmer maps [a-z0-9]+ to [a-z0-9]*, so only an empty stem could be
        # invalid here; rouge-score drops such tokens.
        tokens = list(filter(None, map(_STEMMED.__getitem__, tokens)))
    return tokens


def line_tokens(text: str, use_stemmer: bool = False) -> list[list[str]]:
    """``[tokenize(line) for line in text.split("\\n") if line]`` of a str, in one pass over the text.

    The same tokens: lower-casing maps no character to or from ASCII differently inside a line
    than in the whole text (its one context rule, the Greek final sigma, stays non-ASCII), and a
    newline separates tokens in both; so the lines' tokens joined are also ``tokenize(text)``.
    """
    pieces = _NON_ALNUM_NOR_NEWLINE.sub(" ", text.lower()).split("\n")
    if use_stemmer:
        stemmed = _STEMMED.__getitem__
        out = [list(filter(None, map(stemmed, piece.split()))) for piece in pieces]
    else:
        out = [piece.split() for piece in pieces]
    if "\n\n" in text or text.startswith("\n") or text.endswith("\n") or not text:  # empty lines: dropped
        out = [tokens for tokens, line in zip(out, text.split("\n")) if line]
    return out


class Tokenizer(ABC):
    """Interface of a tokenizer usable by :class:`~rougekit.compat.rouge_scorer.RougeScorer`.

    Any object with a ``tokenize(text) -> list`` method works; the tokens only
    need to be hashable and comparable with ``==``.
    """

    @abstractmethod
    def tokenize(self, text):
        raise NotImplementedError("Tokenizer subclasses must implement tokenize()")


class DefaultTokenizer(Tokenizer):
    """rouge-score's default tokenizer (see :func:`tokenize`)."""

    def __init__(self, use_stemmer: bool = False):
        self._use_stemmer = bool(use_stemmer)

    def tokenize(self, text) -> list[str]:
        return tokenize(text, self._use_stemmer)


# --------------------------------------------------------------------------- sentences

# A handful of common English abbreviations after which a period does not end a
# sentence.  (rouge-score uses NLTK's trained Punkt model, which knows many more
# and also applies orthographic heuristics; this list is deliberately small.)
_ABBREVIATIONS = frozenset(
    """mr mrs ms dr prof sr jr st mt vs etc inc ltd co corp jan feb mar apr jun jul aug
    sep sept oct nov dec gen gov sen rep rev col lt sgt capt fig no vol approx e.g i.e
    u.s u.k u.n a.m p.m""".split()
)

# Sentence-final punctuation, optional closing quotes/brackets, then whitespace.
_BOUNDARY = re.compile(r"[.!?]+[\"'\u2019\u201d)\]]*(?=\s)")


def split_sentences(text: str) -> list[str]:
    """Split ``text`` into sentences with a simple rule-based splitter.

    A sentence ends after ``.``, ``!`` or ``?`` (possibly repeated and followed
    by closing quotes or brackets) when whitespace follows, except after a
    single letter (an initial such as ``J.``) or a common abbreviation
    (``Mr.``, ``Dr.``, ``U.S.`` ...).  Newlines are *not* boundaries by
    themselves, as with NLTK's Punkt, which rouge-score 0.1.2 uses for
    ``split_summaries=True``.  The sentences are stripped of surrounding
    whitespace; empty ones are dropped.

    This is an approximation of ``nltk.sent_tokenize``: on ordinary prose both
    agree, but Punkt's learned abbreviations and orthographic heuristics can
    split differently around abbreviations, initials, numbers and ellipses.
    """
    sents: list[str] = []
    start = 0
    for m in _BOUNDARY.finditer(text):
        end = m.end()
        if text[m.start()] == ".":
            # The word the period is attached to.
            word_start = m.start()
            while word_start > start and not text[word_start - 1].isspace():
                word_start -= 1
            word = text[word_start : m.start()].lower().lstrip("\"'(\u2018\u201c[")
            if (len(word) == 1 and word.isalpha()) or word in _ABBREVIATIONS:
                continue
        piece = text[start:end].strip()
        if piece:
            sents.append(piece)
        start = end
    piece = text[start:].strip()
    if piece:
        sents.append(piece)
    return sents
