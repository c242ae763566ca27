"""The word segmenters the XL-Sum scorer (multilingual-rouge 0.0.1) calls, called the same way.

Each function returns a ``segment(text) -> list[str]`` for the cleaned text (words joined by
single spaces). jieba and pythainlp return the spaces between words as tokens ``" "``; the
package keeps them, and so does this module. Segmentations are cached by text (the same
reference is usually scored against many systems). The segmenter packages are the extras
``rougekit[zh]`` (jieba), ``rougekit[ja]`` (fugashi, unidic-lite) and ``rougekit[th]``
(pythainlp); a missing one is an ``ImportError`` naming the extra.
"""

from __future__ import annotations

import functools
import os
from typing import Callable, List

__all__ = ["chinese", "japanese", "thai", "burmese"]

_CACHE_SIZE = 1 << 16


def _need(module: str, extra: str):
    import importlib

    try:
        return importlib.import_module(module)
    except ImportError:
        raise ImportError(f"this language needs {module.split('.')[0]}: pip install 'rougekit[{extra}]'") from None


def chinese() -> Callable[[str], List[str]]:
    """jieba's default mode (``jieba.cut``, accurate mode with the HMM)."""
    jieba = _need("jieba", "zh")
    jieba.setLogLevel(60)  # no "Building prefix dict" chatter on stderr
    jieba.initialize()

    @functools.lru_cache(maxsize=_CACHE_SIZE)
    def segment(text: str) -> tuple:
        return tuple(jieba.cut(text))

    return lambda text: list(segment(text))


def thai() -> Callable[[str], List[str]]:
    """pythainlp's ``word_tokenize(text, engine="newmm")``."""
    word_tokenize = _need("pythainlp.tokenize", "th").word_tokenize

    @functools.lru_cache(maxsize=_CACHE_SIZE)
    def segment(text: str) -> tuple:
        return tuple(word_tokenize(text, engine="newmm"))

    return lambda text: list(segment(text))


def japanese() -> Callable[[str], List[str]]:
    """MeCab through fugashi with ``-O wakati -b 50000`` and unidic-lite's dictionary.

    The package lets fugashi find a dictionary (the full ``unidic``, downloaded separately);
    rougekit always names unidic-lite's, so an empty ``unidic`` package beside it is harmless.
    """
    fugashi = _need("fugashi", "ja")
    dicdir = _need("unidic_lite", "ja").DICDIR
    tagger = fugashi.Tagger(f'-O wakati -b 50000 -d "{dicdir}" -r "{os.path.join(dicdir, "mecabrc")}"')

    @functools.lru_cache(maxsize=_CACHE_SIZE)
    def segment(text: str) -> tuple:
        return tuple(tagger.parse(text).split())

    return lambda text: list(segment(text))


# Burmese: the syllable rules the package takes from Ding et al. (ACM TALLIP 2019).
_ASAT, _DOT_BELOW, _VIRAMA = "\u103a", "\u1037", "\u1039"
_DEPENDENT = {chr(c) for c in (*range(0x102B, 0x1033), *range(0x1036, 0x1039), *range(0x103B, 0x103F))} | {_ASAT}


def burmese() -> Callable[[str], List[str]]:
    """Burmese syllables: dependent signs join the preceding character, short asat units attach."""

    def segment(text: str) -> List[str]:
        text = text.replace("\u200c", " ").replace(_DOT_BELOW + _ASAT, _ASAT + _DOT_BELOW)
        units = list("".join(text.lower().strip().split()))
        # walk right to left: a unit starting with a dependent sign moves onto the unit before it
        for i in range(len(units) - 1, 0, -1):
            if units[i][:1] in _DEPENDENT:
                units[i - 1] += units[i]
                units[i] = ""
        units = " ".join(units).split()
        for i in range(1, len(units)):
            if _ASAT in units[i] and len(units[i]) < 4:
                units[i - 1] += units[i]
                units[i] = ""
        joined = " ".join(" ".join(units).split())
        return joined.replace(f" {_VIRAMA} ", _VIRAMA).split()

    return segment
