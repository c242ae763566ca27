"""Summaries to tokens: the exact ROUGE-1.5.5 tokenizer and Unicode-aware ones.

A summary is a string whose lines are its sentences (or a list of sentence strings).

- ``rouge155`` (default): the script's bytes-level rules; non-ASCII text is destroyed.
- ``unicode``: NFKC, case folding, optional marks dropped and digits read as ASCII (:func:`fold`);
  tokens are runs of letters, digits and combining marks of any script.
- ``cjk``: as ``unicode``, but each Han, Hiragana or Katakana character is a token of its own.
- any callable ``str -> list[str]`` applied to each sentence.

>>> Preprocessor("unicode").sentences("Привет, мир!\\nΚαλημέρα κόσμε")
[['привет', 'мир'], ['καλημέρα', 'κόσμε']]
>>> Preprocessor("cjk").sentences("東京は晴れ。Tokyo")
[['東', '京', 'は', '晴', 'れ', 'tokyo']]
"""

from __future__ import annotations

import functools
import re
import sys
import unicodedata
from dataclasses import dataclass
from typing import Callable, Union

from rougekit.errors import OptionError
from rougekit.text import rouge155 as r155
from rougekit.text.stemming import morph_stem
from rougekit.text.stopwords import load_smart_stopwords

Tokenizer = Union[str, Callable[[str], list]]
TOKENIZERS = ("rouge155", "unicode", "cjk")
#: The version of :func:`fold`, the normal form of the ``unicode`` and ``cjk`` tokenizers and of every
#: language preset; the signature writes it as ``fold:2``. Version 1 (signatures without ``fold:``) is
#: "unversioned" (signature.FOLDS): NFKC and case folding, with some of version 2's steps (they came in
#: steps, and one of them dropped more marks than version 2 does). Version 2 reads Turkish ``İ`` as
#: ``i``, drops the optional marks (:func:`_optional_marks`) and reads the decimal digits of every script
#: as ASCII digits. Raise it with any change to what :func:`fold` writes.
FOLD_VERSION = "2"

_CJK = re.compile(
    "([\u3040-\u309f\u30a0-\u30ff\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0002fa1f])"
)


@functools.lru_cache(maxsize=1)
def word_pattern() -> re.Pattern:
    """Runs of letters, digits and combining marks (Unicode categories L*, N*, M*)."""
    marks = []
    start = None
    for cp in range(sys.maxunicode + 1):
        is_mark = unicodedata.category(chr(cp))[0] == "M"
        if is_mark and start is None:
            start = cp
        elif not is_mark and start is not None:
            marks.append((start, cp - 1))
            start = None
    ranges = "".join(f"\\U{a:08x}-\\U{b:08x}" for a, b in marks)
    return re.compile(f"(?:[^\\W_]|[{ranges}])+")


def _optional_marks() -> dict[int, None]:
    """Characters a word can be written with or without, dropped by :func:`fold`: the Arabic tatweel
    (a stretch, U+0640), the Arabic harakat (U+064B-0652: tanwin, fatha, damma, kasra, shadda, sukun),
    the dagger alif (U+0670) and the Quranic annotation signs (U+06D6-06ED but the small waw, yeh and
    the sign letters), Hebrew cantillation (U+0591-05AF), and the zero-width (non-)joiners (U+200C,
    U+200D: Persian writes ``می‌خواهم`` with one, ``میخواهم`` without; they join or part letters, never
    words). Kept, because they tell words apart in a language written with them: the Hebrew points
    (Yiddish פּ p / פֿ f, אַ a / אָ o) and the Arabic marks from U+0653 (Kashmiri's vowel signs)."""
    quranic = {*range(0x06D6, 0x06DD), *range(0x06DF, 0x06E5), 0x06E7, 0x06E8, *range(0x06EA, 0x06EE)}
    drop = {0x0640, 0x0670, 0x200C, 0x200D, *range(0x064B, 0x0653), *quranic, *range(0x0591, 0x05B0)}
    return dict.fromkeys(drop)


def _ascii_digits() -> dict[int, int]:
    """Every decimal digit of another script (Arabic-Indic ٣, Devanagari ३, ...) as its ASCII digit."""
    return {
        cp: ord("0") + unicodedata.decimal(chr(cp))
        for cp in range(128, 0x20000)  # (Unicode 15: none past U+1FBF9)
        if unicodedata.category(chr(cp)) == "Nd"
    }


@functools.lru_cache(maxsize=1)
def _fold_table() -> dict[int, int | None]:
    return {**_optional_marks(), **_ascii_digits()}


def fold(text: str) -> str:
    """The ``unicode`` tokenizer's normal form: NFKC, case folded; ``i`` with a combining dot above
    (U+0307) is ``i`` (Turkish and Azerbaijani capital İ folds to that pair, and Python's ``lower()``
    writes the same, so ``İki`` and ``iki`` are one word; ``I`` folds to ``i``, as everywhere);
    optional marks dropped (Arabic tatweel and harakat, Hebrew cantillation, zero-width joiners: vocalised
    and plain spellings are one word) and decimal digits of every script read as ASCII digits."""
    text = unicodedata.normalize("NFKC", text).casefold()
    if text.isascii():
        return text
    text = text.translate(_fold_table())
    return text.replace("i\u0307", "i") if "\u0307" in text else text


def unicode_tokens(sentence: str) -> list[str]:
    """Tokens of one sentence for the ``unicode`` tokenizer."""
    return word_pattern().findall(fold(sentence))


def cjk_tokens(sentence: str) -> list[str]:
    """As :func:`unicode_tokens`, with Han, Hiragana and Katakana split into characters."""
    out: list[str] = []
    for token in unicode_tokens(sentence):
        out.extend(piece for piece in _CJK.split(token) if piece)
    return out


def split_sentences(summary: str | list[str]) -> list[str]:
    """Sentences of a summary: its non-empty lines (as the script reads SPL files)."""
    if not isinstance(summary, str):
        summary = "\n".join(summary)
    return [line for line in summary.split("\n") if line]


def tokenizer_name(tokenizer) -> str:
    """How the signature names a tokenizer: its name, or ``custom:<function name>`` for a callable."""
    return tokenizer if isinstance(tokenizer, str) else f"custom:{getattr(tokenizer, '__name__', 'callable')}"


@dataclass(frozen=True)
class Preprocessor:
    """Tokenizer plus the script's stopword (``-s``), stemming (``-m``) and limit (``-l``/``-b``) options."""

    tokenizer: Tokenizer = "rouge155"
    stem: bool = False
    stopwords: bool = False
    word_limit: int = 0
    byte_limit: int = 0
    stemmer: Callable[[str], str] | None = None  # with stem=True: instead of the script's (a language preset's)
    stopword_list: frozenset[str] | None = None  # with stopwords=True: instead of SMART's (a language preset's)

    def __post_init__(self):
        if isinstance(self.tokenizer, str) and self.tokenizer not in TOKENIZERS:
            raise OptionError(f"unknown tokenizer {self.tokenizer!r} (use {', '.join(TOKENIZERS)} or a callable)")
        if self.word_limit and self.byte_limit:
            raise OptionError("give word_limit or byte_limit, not both (as ROUGE-1.5.5's -l and -b)")
        if self.byte_limit and self.tokenizer != "rouge155":
            raise OptionError("byte_limit is defined only for the rouge155 tokenizer")
        if self.word_limit < 0 or self.byte_limit < 0:
            raise OptionError("word_limit and byte_limit must be >= 0")

    @property
    def name(self) -> str:
        return tokenizer_name(self.tokenizer)

    def _finish(self, tokens: list[str]) -> list[str]:
        stop = None
        if self.stopwords:
            stop = load_smart_stopwords() if self.stopword_list is None else self.stopword_list
        stem = (self.stemmer or morph_stem) if self.stem else None
        if stop is None and stem is None:
            return tokens
        out = []
        for token in tokens:
            if stop is not None and token in stop:
                continue
            if stem is not None and len(token) > 3:
                token = stem(token)
            out.append(token)
        return out

    def process(self, summary: str | list[str]) -> tuple[list[str], list[list[str]]]:
        """(joined tokens, sentence tokens): what ROUGE-N/S and ROUGE-L/W read."""
        sentences = split_sentences(summary)
        if self.tokenizer == "rouge155":
            raw = [r155.lower_ascii(s.encode("utf-8", "surrogateescape")) for s in sentences]
            tokens, units = r155.summary_tokens(
                raw,
                self.word_limit,
                self.byte_limit,
                load_smart_stopwords() if self.stopwords else None,
                morph_stem if self.stem else None,
            )
            return tokens or [], units
        split = {"unicode": unicode_tokens, "cjk": cjk_tokens}.get(self.tokenizer, self.tokenizer)
        units = [self._finish(list(split(s))) for s in sentences]
        if self.word_limit:
            kept, left = [], self.word_limit
            for unit in units:
                if left <= 0:
                    break
                kept.append(unit[:left])
                left -= len(unit)
            units = kept
        return [t for unit in units for t in unit], units

    def sentences(self, summary: str | list[str]) -> list[list[str]]:
        return self.process(summary)[1]
