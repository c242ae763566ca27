"""Where the tokens are in the text as given: character spans of each token, for highlighting.

The ``rouge155`` tokenizer keeps runs of ASCII letters and digits (every other character, hyphens
included, separates them; ``-`` tokens are dropped) and lowercases them; the ``unicode`` one
keeps runs of letters, digits and marks after NFKC and case folding. The runs of the original
text are aligned with the unstemmed tokens in order: a run that is not the next token is a
removed stopword. Other tokenizers, or a text whose runs do not align (NFKC joining or splitting
words), get no spans.
"""

from __future__ import annotations

import re
import unicodedata

_ASCII_RUN = re.compile(r"[A-Za-z0-9]+")


def _runs(text: str, tokenizer) -> list[tuple[int, int, str]] | None:
    if tokenizer == "rouge155":
        return [(m.start(), m.end(), m.group().lower()) for m in _ASCII_RUN.finditer(text)]
    if tokenizer == "unicode":
        from rougekit.text.tokenizers import _word_pattern

        runs = _word_pattern().finditer(text)
        return [(m.start(), m.end(), unicodedata.normalize("NFKC", m.group()).casefold()) for m in runs]
    return None


def spans(text: str, plain: list[str], tokenizer) -> list[list[int]] | None:
    """``[start, end]`` in ``text`` of each token of ``plain`` (the tokens before stemming), or None.

    The last token may be a prefix of its run (cut by a byte limit)."""
    runs = _runs(text, tokenizer)
    if runs is None:
        return None
    out, k, last = [], 0, len(plain) - 1
    for i, token in enumerate(plain):
        while k < len(runs) and runs[k][2] != token and not (i == last and token and runs[k][2].startswith(token)):
            k += 1
        if k == len(runs):
            return None
        out.append([runs[k][0], runs[k][1]])
        k += 1
    return out
