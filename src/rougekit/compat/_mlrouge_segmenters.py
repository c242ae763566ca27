"""The word segmenters the XL-Sum scorer (multilingual-rouge 0.0.1) calls, with its options.

Chinese (jieba), Thai (pythainlp ``newmm``) and Burmese (syllables) are rougekit's own
segmenters (:mod:`rougekit.text.segmenters`), which return the library's pieces as the package
gets them: jieba and pythainlp keep the spaces between words as tokens ``" "``, and so does
the package. Japanese is MeCab through fugashi with unidic-lite's dictionary, plus the
package's ``-b 50000`` (a larger input buffer: MeCab splits longer texts itself otherwise).
MeCab's segmentations are cached by text (the same reference is usually scored against many
systems); the scorer also caches its tokens by text.
"""

from __future__ import annotations

import functools
import os
from typing import Callable, List

from rougekit.text import segmenters

__all__ = ["segmenter"]

_CACHE_SIZE = 1 << 16
_CODES = {"chinese": "zh", "japanese": "ja", "thai": "th", "burmese": "my"}


def _mecab_as_the_package() -> Callable[[str], List[str]]:
    fugashi = segmenters.required_module("fugashi", "ja")
    folder = segmenters.required_module("unidic_lite", "ja").DICDIR
    tagger = fugashi.Tagger(f'-O wakati -b 50000 -d "{folder}" -r "{os.path.join(folder, "mecabrc")}"')
    return lambda text: tagger.parse(text).split()


def segmenter(lang: str, cached: bool = True) -> Callable[[str], List[str]]:
    """``segment(text) -> tokens`` for one of the package's segmented languages (MeCab's cached by
    text unless ``cached`` is false: for a caller that caches by text itself).

    rougekit's own cutters of Chinese, Thai and Burmese take about as long as a cache lookup, and
    the scorer caches its tokens by text anyway: they are not wrapped.
    """
    if lang != "japanese":
        return segmenters.segmenter(_CODES[lang])
    segment = _mecab_as_the_package()
    if not cached:
        return segment
    remembered = functools.lru_cache(maxsize=_CACHE_SIZE)(lambda text: tuple(segment(text)))
    return lambda text: list(remembered(text))
