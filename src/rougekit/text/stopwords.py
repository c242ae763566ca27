"""The SMART stopword list that ROUGE-1.5.5 removes with ``-s``.

The list is ROUGE-1.5.5's ``data/smart_common_words.txt`` as shipped (598 lines, 596
distinct words; 48 lines with an apostrophe, which no ROUGE token can match). A token is
dropped when it equals a line exactly, before any stemming (docs/rouge155/stemming-stopwords.md).
"""

from __future__ import annotations

import functools
from importlib import resources

__all__ = ["load_smart_stopwords", "STOPWORDS_FILE"]

STOPWORDS_FILE = "smart_common_words.txt"


@functools.lru_cache(maxsize=1)
def load_smart_stopwords() -> frozenset[str]:
    """Return the exact lines of ``smart_common_words.txt`` (``-s``) as a frozenset."""
    text = resources.files("rougekit.text").joinpath("data", STOPWORDS_FILE).read_text(encoding="ascii")
    return frozenset(text.split("\n")[:-1] if text.endswith("\n") else text.split("\n"))
