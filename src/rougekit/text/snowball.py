"""Snowball stemmers through PyStemmer (compiled libstemmer), by ISO 639-1 code.

>>> snowball_stemmer("ru")("кошками")
'кошк'
"""

from __future__ import annotations

import functools
import importlib.metadata
from typing import Callable

from rougekit.errors import OptionError

#: ISO 639-1 code -> Snowball algorithm name (those PyStemmer 2.2 and later ship)
SNOWBALL = {
    "ar": "arabic",
    "hy": "armenian",
    "eu": "basque",
    "ca": "catalan",
    "cs": "czech",
    "da": "danish",
    "nl": "dutch",
    "en": "english",
    "eo": "esperanto",
    "et": "estonian",
    "fi": "finnish",
    "fr": "french",
    "de": "german",
    "el": "greek",
    "hi": "hindi",
    "hu": "hungarian",
    "id": "indonesian",
    "ga": "irish",
    "it": "italian",
    "lt": "lithuanian",
    "ne": "nepali",
    "no": "norwegian",
    "nb": "norwegian",
    "fa": "persian",
    "pl": "polish",
    "pt": "portuguese",
    "ro": "romanian",
    "ru": "russian",
    "sr": "serbian",
    "st": "sesotho",
    "es": "spanish",
    "sv": "swedish",
    "ta": "tamil",
    "tr": "turkish",
    "yi": "yiddish",
}


def _pystemmer():
    try:
        import Stemmer
    except ImportError:
        raise OptionError("Snowball stemming needs PyStemmer: pip install rougekit[snowball]") from None
    return Stemmer


@functools.lru_cache(maxsize=None)
def snowball_stemmer(code: str) -> Callable[[str], str]:
    """The Snowball stemmer of language ``code`` (a ``str -> str`` function), made once."""
    Stemmer = _pystemmer()
    algorithm = SNOWBALL.get(code)
    if algorithm is None or algorithm not in Stemmer.algorithms():
        raise OptionError(f"no Snowball stemmer for {code!r} in PyStemmer {_version()}")
    return Stemmer.Stemmer(algorithm).stemWord


def snowball_name(code: str) -> str:
    """``snowball-russian/pystemmer-3.1.0``: the algorithm and the library version, for the signature."""
    return f"snowball-{SNOWBALL[code]}/pystemmer-{_version()}"


def _version() -> str:
    try:
        return importlib.metadata.version("PyStemmer")
    except importlib.metadata.PackageNotFoundError:
        return "unknown"
