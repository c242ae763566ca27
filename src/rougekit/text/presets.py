"""Language presets (``lang=``): tokenizer, word segmenter, stemmer and stopwords chosen together.

Every language of XL-Sum has an entry (by ISO code or XL-Sum name); any other ISO 639-1 code gets
the Unicode tokenizer and its Snowball stemmer where PyStemmer has one. English is ROUGE-1.5.5
itself (the script's tokenizer, stemmer and SMART stopwords, the exact path). Every other preset
tokenizes with the ``unicode`` rules (NFKC, case folding, runs of letters, digits and marks), after
the language's word segmenter where it has one; with ``stem=True`` the stemmer is applied to
tokens longer than 3 characters, as ROUGE-1.5.5 and XL-Sum do. The table is docs/languages.md.

>>> p = preset("chinese_simplified")
>>> p.code, p.segmenter, p.stemmer
('zh', 'zh', None)
>>> preset("el").stemmer  # any ISO code: Snowball's Greek stemmer
'snowball'
"""

from __future__ import annotations

import importlib
import warnings
from dataclasses import dataclass
from typing import Callable

from rougekit.errors import OptionError, StemmerWarning, caller_stacklevel
from rougekit.text import segmenters, snowball, snowball_nltk
from rougekit.text.languages import ENGLISH_NAMES, XLSUM_NAMES, language_code
from rougekit.text.tokenizers import Preprocessor, fold, unicode_tokens

#: English names of the languages in the table: ISO 639-2's (languages.ENGLISH_NAMES) but where XL-Sum
#: spells them otherwise
_XLSUM_SPELLING = {"rn": "Kirundi", "ky": "Kyrgyz", "pcm": "Nigerian Pidgin"}
NAMES = {code: _XLSUM_SPELLING.get(code) or ENGLISH_NAMES[code] for code in set(XLSUM_NAMES.values())}

#: the languages with a stopword list: NLTK's (the Snowball project's lists, shipped in
#: ``data/nltk-stopwords.tsv``); English keeps ROUGE-1.5.5's SMART list
NLTK_STOPWORDS = {
    "ar": "arabic", "da": "danish", "nl": "dutch", "fi": "finnish", "fr": "french", "de": "german",
    "hu": "hungarian", "it": "italian", "no": "norwegian", "nb": "norwegian", "pt": "portuguese",
    "ro": "romanian", "ru": "russian", "es": "spanish", "sv": "swedish",
}  # fmt: skip

#: the languages XL-Sum stems with rules of its own (not Snowball's): their stemmers
#: (module with ``stemmer(word) -> str``, signature name)
XLSUM_STEMMERS = {
    "hi": ("rougekit.text.stem_hi", "xlsum-hindi"),  # Ramanathan & Rao (2003), as XL-Sum
    "bn": ("rougekit.text.stem_bn", "xlsum-bengali"),  # Rafi Kamal's rules (BanglaKit), as XL-Sum
    "tr": ("rougekit.text.stem_tr", "xlsum-turkish"),  # the TurkishStemmer 1.3 rules, as XL-Sum
}


@dataclass(frozen=True)
class Preset:
    """One language: ``tokenizer`` (``rouge155`` or ``unicode``), ``segmenter`` (a code of
    :mod:`rougekit.text.segmenters` or None), ``stemmer`` (``rouge155``, ``snowball``, ``xlsum`` or None) and
    ``stopwords`` (``smart``, ``nltk-<language>`` or None)."""

    code: str
    tokenizer: str = "unicode"
    segmenter: str | None = None
    stemmer: str | None = None
    stopwords: str | None = None

    @property
    def name(self) -> str:
        return NAMES.get(self.code, self.code)

    @property
    def xlsum_names(self) -> tuple[str, ...]:
        return tuple(n for n, c in XLSUM_NAMES.items() if c == self.code)

    @property
    def stems(self) -> bool:
        """True when ``stem=True`` changes tokens of this language."""
        return self.stemmer is not None

    @property
    def extra(self) -> str | None:
        """The pip extra this preset needs (``zh``, ``ja``, ``th``; ``snowball`` to stem), or None."""
        return segmenters.EXTRAS[self.segmenter][0] if self.segmenter in segmenters.EXTRAS else None


def preset(lang: str) -> Preset:
    """The preset of ``lang`` (ISO 639-1 code, XL-Sum name). OptionError for an unknown language."""
    code = language_code(lang)
    if code == "en":
        return Preset(code, tokenizer="rouge155", stemmer="rouge155", stopwords="smart")
    segmenter = code if code in segmenters.SEGMENTED else None
    if code in XLSUM_STEMMERS:
        stemmer = "xlsum"
    else:
        stemmer = "snowball" if code in snowball.SNOWBALL else None
    stopwords = f"nltk-{NLTK_STOPWORDS[code]}" if code in NLTK_STOPWORDS else None
    return Preset(code, segmenter=segmenter, stemmer=stemmer, stopwords=stopwords)


def table() -> list[Preset]:
    """The presets of XL-Sum's languages, by code."""
    return [preset(code) for code in sorted(set(XLSUM_NAMES.values()))]


class PresetTokenizer:
    """The ``unicode`` tokens of a sentence, after the language's segmenter; segmentations are
    cached by sentence (segmenting is the slow part, and references repeat)."""

    CACHE = 200_000

    def __init__(self, code: str):
        self.code = code
        self.segment = segmenters.segmenter(code)
        self.__name__ = f"unicode+{code}"
        self._cache: dict[str, list[str]] = {}

    def __call__(self, sentence: str) -> list[str]:
        tokens = self._cache.get(sentence)
        if tokens is None:
            tokens = self._tokens(sentence)
            if len(self._cache) >= self.CACHE:
                self._cache.clear()
            self._cache[sentence] = tokens
        return list(tokens)

    def _tokens(self, sentence: str) -> list[str]:
        if self.code == "my":  # syllables of each word (the syllable rules know nothing of punctuation)
            return [s for word in unicode_tokens(sentence) for s in self.segment(word)]
        return [t for piece in self.segment(fold(sentence)) for t in unicode_tokens(piece)]


def stemmer_of(p: Preset) -> Callable[[str], str] | None:
    """The stem function of a preset (None when it has none); OptionError when its extra is missing."""
    if p.stemmer == "xlsum":
        return importlib.import_module(XLSUM_STEMMERS[p.code][0]).stemmer
    return snowball.snowball_stemmer(p.code) if p.stemmer == "snowball" else None


def stemmer_name(lang: str | None, stem: bool) -> str:
    """What stems, as the signature writes it: ``none``, ``rouge155`` or ``snowball-russian/pystemmer-3.1.0``."""
    if not stem:
        return "none"
    if lang is None:
        return "rouge155"
    p = preset(lang)
    if p.stemmer == "snowball":
        return snowball.snowball_name(p.code)
    if p.stemmer == "xlsum":
        return XLSUM_STEMMERS[p.code][1]
    return p.stemmer or "none"


def segmenter_name(lang: str | None) -> str:
    """The segmenter and its version, or ``""`` when the language has none."""
    p = preset(lang) if lang else None
    return segmenters.segmenter_name(p.code) if p and p.segmenter else ""


def check(lang: str, stem: bool, stopwords: bool) -> None:
    """OptionError for a stopword list the language has not; a StemmerWarning when ``stem=True`` stems nothing."""
    p = preset(lang)
    if stopwords and p.stopwords is None:
        raise OptionError(
            f"no stopword list for lang={p.code!r}; stopwords=True (-s) knows en (SMART) and "
            f"{', '.join(sorted(NLTK_STOPWORDS))} (NLTK's lists)"
        )
    if stem and p.stemmer is None:
        tail = " (it has no stemmer); the signature says stem:none"
        warnings.warn(
            StemmerWarning(
                f"stem=True stems nothing for lang={p.code!r}" + tail,
                f"--stem stems nothing for --lang {p.code}" + tail,
            ),
            stacklevel=caller_stacklevel(),  # the user's file, however the options were reached
        )


def preprocessor(lang: str, stem: bool, stopwords: bool, word_limit: int, byte_limit: int) -> Preprocessor:
    """The text processing of a preset (segmenter and stemmer made here: OptionError when an extra is missing)."""
    p = preset(lang)
    if p.tokenizer == "rouge155":
        return Preprocessor("rouge155", stem, stopwords, word_limit, byte_limit)
    tokenizer = PresetTokenizer(p.code) if p.segmenter else "unicode"
    stemmer = stemmer_of(p) if stem else None
    stop = stopword_list(p) if stopwords else None
    return Preprocessor(
        tokenizer, bool(stemmer), stopwords, word_limit, byte_limit, stemmer=stemmer, stopword_list=stop
    )


def stopword_list(p: Preset) -> frozenset[str] | None:
    """The stopwords of a preset as its tokens come out of the ``unicode`` tokenizer (NFKC, case folded:
    German ``daß`` is removed as ``dass``), or None when the preset has no list of its own."""
    if p.stopwords is None or not p.stopwords.startswith("nltk-"):
        return None
    words = snowball_nltk.load_stopwords(p.stopwords[len("nltk-") :])
    return frozenset(fold(w) for w in words)
