"""Token stemming for ROUGE-1.5.5's ``-m`` flag: WordNet 2.0 exceptions, then Porter.

``MorphStem`` in the reference looks the (ASCII-lower-cased) token up in the WordNet 2.0
exception DB and returns the stored base form as it is; otherwise it returns the
modified Porter stem (:func:`rougekit.text.porter.porter_stem`). The tokenizer only
calls it for tokens longer than 3 characters (:func:`stem_token`). See
docs/rouge155/stemming-stopwords.md.
"""

from __future__ import annotations

import functools
from importlib import resources

from rougekit.text.porter import porter_stem

__all__ = ["load_exceptions", "morph_stem", "porter_stem155", "stem_token"]

EXCEPTIONS_FILE = "wordnet-2.0-exceptions.tsv"
_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


def _data_text(name: str) -> str:
    return resources.files("rougekit.text").joinpath("data", name).read_text(encoding="ascii")


@functools.lru_cache(maxsize=1)
def load_exceptions() -> dict[str, str]:
    """The exception DB (5,930 keys) as ``{inflected: base}``. Do not mutate the result."""
    table: dict[str, str] = {}
    for line in _data_text(EXCEPTIONS_FILE).splitlines():
        if line and not line.startswith("#"):
            key, base = line.split("\t")
            table[key] = base
    return table


@functools.lru_cache(maxsize=1 << 18)
def morph_stem(token: str) -> str:
    """ROUGE's ``MorphStem``: exception base form if listed, else the Porter stem (``-m``)."""
    word = token.translate(_ASCII_LOWER)
    base = load_exceptions().get(word)
    if base is not None:
        return base

    return porter_stem(word)


@functools.lru_cache(maxsize=1 << 18)
def porter_stem155(token: str) -> str:
    """``MorphStem`` with an empty exception DB (files2rouge's data folder): the Porter stem alone."""
    return porter_stem(token.translate(_ASCII_LOWER))


def stem_token(token: str) -> str:
    """Stem one token as ROUGE-1.5.5 does with ``-m``: only tokens longer than 3 characters."""
    return morph_stem(token) if len(token) > 3 else token
