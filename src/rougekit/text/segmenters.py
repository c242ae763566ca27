"""Word segmenters for languages whose writing does not put spaces between words.

``segmenter(lang)`` returns a function ``str -> list[str]`` giving the segmenter's own pieces, as
the library returns them (jieba and pythainlp keep spaces and punctuation as pieces; the language
presets drop them afterwards). Chinese: jieba (extra ``rougekit[zh]``), its default ``cut``
computed by :mod:`rougekit.text.jieba_cut` over jieba's own tables (the same pieces, faster);
Japanese: fugashi (MeCab) with the unidic-lite dictionary (``rougekit[ja]``); Thai: pythainlp's
``newmm`` (``rougekit[th]``), computed by :mod:`rougekit.text.thai_newmm` over pythainlp's own
dictionary and cluster rules; Burmese: syllables by the rules of Ding et al. (2019), as XL-Sum
segments Burmese (no extra). Nothing is downloaded at run time: the dictionaries come with the packages.

>>> segmenter("my")("မြန်မာစာ")
['မြန်', 'မာ', 'စာ']
"""

from __future__ import annotations

import functools
import importlib
import importlib.metadata
import os
from typing import Callable

from rougekit.errors import OptionError
from rougekit.text.jieba_cut import JiebaCut
from rougekit.text.languages import language_code
from rougekit.text.thai_newmm import NewmmCut

Segmenter = Callable[[str], "list[str]"]

#: code -> (extra that installs the segmenter, the distributions it needs)
EXTRAS = {"zh": ("zh", ("jieba",)), "ja": ("ja", ("fugashi", "unidic-lite")), "th": ("th", ("pythainlp",))}
SEGMENTED = ("zh", "ja", "th", "my")


def required_module(module: str, lang: str):
    """Import ``module`` or raise the one-line error naming the extra that installs it."""
    try:
        return importlib.import_module(module)
    except ImportError:
        extra = EXTRAS[lang][0]
        raise OptionError(
            f"lang={lang!r} needs {module.split('.')[0]} for word segmentation: pip install rougekit[{extra}]"
        ) from None


def _version(dist: str) -> str:
    try:
        return importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        return "unknown"


def _jieba() -> Segmenter:
    import logging

    jieba = required_module("jieba", "zh")
    logging.getLogger("jieba").setLevel(logging.WARNING)  # no "Building prefix dict" lines on stderr
    jieba.initialize()

    return JiebaCut(jieba)  # jieba's pieces, cut by rougekit over jieba's own tables


def _fugashi() -> Segmenter:
    """MeCab through fugashi, given unidic-lite's dictionary by path.

    fugashi's own search prefers the ``unidic`` package, which ``fugashi[unidic]`` installs without
    its dictionary (it is downloaded separately); naming unidic-lite's folder avoids that trap.
    """
    fugashi = required_module("fugashi", "ja")
    unidic_lite = required_module("unidic_lite", "ja")
    folder = unidic_lite.DICDIR
    tagger = fugashi.Tagger(f'-O wakati -d "{folder}" -r "{os.path.join(folder, "mecabrc")}"')

    def mecab_words(text: str) -> list[str]:
        return tagger.parse(text).split()

    return mecab_words


def _pythainlp() -> Segmenter:
    tokenize = required_module("pythainlp.tokenize", "th")

    return NewmmCut(tokenize)  # newmm's pieces, cut by rougekit over pythainlp's own data


_ASAT = "\u103a"  # the killer: a syllable's final consonant
_DOT_BELOW = "\u1037"
_VIRAMA = "\u1039"  # stacks the next consonant under this one
# signs that belong to the character before them: vowel signs, medials, tone marks, asat
_DEPENDENT = frozenset(chr(c) for c in (*range(0x102B, 0x1033), *range(0x1036, 0x1039), 0x103A, *range(0x103B, 0x103F)))


def burmese_syllables(text: str) -> list[str]:
    """Burmese syllables (Ding et al. 2019, ACM TALLIP 18(4) 10.1145/3325885), as XL-Sum cuts them.

    White space (and a zero-width non-joiner) is removed; each character takes the dependent signs
    after it; a short piece with an asat (a final consonant) joins the piece before it; a virama
    standing alone joins the pieces on both sides.
    """
    text = text.replace("\u200c", " ").replace(_DOT_BELOW + _ASAT, _ASAT + _DOT_BELOW)
    pieces: list[str] = []
    for char in "".join(text.lower().split()):
        if pieces and char in _DEPENDENT:
            pieces[-1] += char
        else:
            pieces.append(char)
    for k in range(1, len(pieces)):
        if _ASAT in pieces[k] and len(pieces[k]) < 4:
            pieces[k - 1] += pieces[k]  # the slot before may be empty: then this piece stays alone
            pieces[k] = ""
    joined = " ".join(p for p in pieces if p)
    return joined.replace(f" {_VIRAMA} ", _VIRAMA).split()


_MAKERS = {"zh": _jieba, "ja": _fugashi, "th": _pythainlp, "my": lambda: burmese_syllables}


@functools.lru_cache(maxsize=None)
def _segmenter(code: str) -> Segmenter:
    return _MAKERS[code]()


def segmenter(lang: str) -> Segmenter:
    """The word segmenter of ``lang`` (``zh``, ``ja``, ``th``, ``my`` or their XL-Sum names), made once.

    OptionError when the language has none or its extra is not installed.
    """
    code = language_code(lang)
    if code not in _MAKERS:
        raise OptionError(f"no word segmenter for {lang!r} (segmented languages: {', '.join(SEGMENTED)})")
    return _segmenter(code)


def segmenter_name(lang: str) -> str:
    """What segments ``lang``, with versions, as the signature writes it (``jieba-0.42.1``)."""
    code = language_code(lang)
    if code == "zh":
        return f"jieba-{_version('jieba')}"
    if code == "ja":
        return f"fugashi-{_version('fugashi')}/unidic-lite-{_version('unidic-lite')}"
    if code == "th":
        return f"pythainlp-{_version('pythainlp')}/newmm"
    if code == "my":
        return "burmese-syllables"
    raise OptionError(f"no word segmenter for {lang!r}")
