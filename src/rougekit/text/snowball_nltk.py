"""Snowball stemming as NLTK's ``SnowballStemmer(language, ignore_stopwords=True)`` does it.

The XL-Sum scorer (``multilingual-rouge`` 0.0.1) stems with NLTK's Snowball classes and
``ignore_stopwords=True``: a word of NLTK's stopword list for the language is returned
unchanged. NLTK reads that list from its data folder at run time; rougekit ships the lists
it needs (``data/nltk-stopwords.tsv``, see ``data/PROVENANCE.md``), so no NLTK data is needed.

The stemming algorithm: NLTK's Python Snowball ports are older versions of the Snowball
algorithms and differ from the Snowball 2 C stemmers of PyStemmer on some words (English
``evening``, French ``française``, most of German's ``-et`` forms ...). For the same
stems as the XL-Sum scorer, :func:`stemmer` runs NLTK's own classes when the ``nltk``
package is importable (only its code: the stopword list is ours); without it, it falls
back to PyStemmer and warns once that stems may differ.
"""

from __future__ import annotations

import functools
import warnings
from importlib import resources
from typing import Callable

__all__ = ["LANGUAGES", "load_stopwords", "stemmer"]

STOPWORDS_FILE = "nltk-stopwords.tsv"
LANGUAGES = (
    "arabic", "danish", "dutch", "english", "finnish", "french", "german", "hungarian",
    "italian", "norwegian", "portuguese", "romanian", "russian", "spanish", "swedish",
)  # fmt: skip


@functools.lru_cache(maxsize=None)
def _all_stopwords() -> dict[str, frozenset[str]]:
    table: dict[str, set[str]] = {}
    text = resources.files("rougekit.text").joinpath("data", STOPWORDS_FILE).read_text(encoding="utf-8")
    for line in text.splitlines():
        if line and not line.startswith("#"):
            language, word = line.split("\t")
            table.setdefault(language, set()).add(word)
    return {language: frozenset(words) for language, words in table.items()}


def load_stopwords(language: str) -> frozenset[str]:
    """NLTK's stopword list for ``language`` (a name such as ``"russian"``), as a frozenset."""
    try:
        return _all_stopwords()[language]
    except KeyError:
        raise ValueError(f"no NLTK stopword list for {language!r}; known: {', '.join(LANGUAGES)}") from None


def stemmer(language: str, ignore_stopwords: bool = True) -> Callable[[str], str]:
    """A ``stem(word) -> str`` function: NLTK's Snowball stemmer for ``language``.

    With ``ignore_stopwords`` the words of NLTK's stopword list come back unchanged (as
    ``SnowballStemmer(language, ignore_stopwords=True)``).
    """
    if language not in LANGUAGES:
        raise ValueError(f"no Snowball stemmer with NLTK stopwords for {language!r}; known: {', '.join(LANGUAGES)}")
    stopwords = load_stopwords(language) if ignore_stopwords else frozenset()
    try:
        from nltk.stem import snowball
    except ImportError:
        return _pystemmer(language, stopwords)
    nltk_stemmer = snowball.SnowballStemmer(language, ignore_stopwords=False)  # reads no NLTK data
    nltk_stemmer.stemmer.stopwords = set(stopwords)  # what ignore_stopwords=True would have loaded
    return nltk_stemmer.stem


def _pystemmer(language: str, stopwords: frozenset[str]) -> Callable[[str], str]:
    try:
        import Stemmer
    except ImportError:
        raise ImportError(
            f"Snowball stemming for {language!r} needs nltk (the same stems as multilingual-rouge) or PyStemmer: "
            "pip install nltk"
        ) from None
    warnings.warn(
        f"nltk is not installed: {language} is stemmed with PyStemmer's Snowball 2 stemmer, whose stems differ "
        "from NLTK's (and so from multilingual-rouge's) on some words; pip install nltk for the same stems",
        RuntimeWarning,
        stacklevel=3,
    )
    stem_word = Stemmer.Stemmer(language).stemWord

    def stem(word: str) -> str:
        word = word.lower()
        return word if word in stopwords else stem_word(word)

    return stem
