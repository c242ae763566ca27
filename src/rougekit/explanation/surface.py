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

import numpy as np

_ASCII_RUN = re.compile(r"[A-Za-z0-9]+")


def _runs(text: str, tokenizer) -> list[tuple[int, int, str]] | None:
    if tokenizer == "rouge155":
        return [(m.start(), m.end(), m.group().lower()) for m in _ASCII_RUN.finditer(text)]
    if tokenizer == "unicode":
        from rougekit.text.tokenizers import _word_pattern

        runs = _word_pattern().finditer(text)
        return [(m.start(), m.end(), unicodedata.normalize("NFKC", m.group()).casefold()) for m in runs]
    return None


def _align(runs: list[tuple[int, int, str]], plain: list[str]) -> list[int] | None:
    """The run of each token of ``plain``, in order (a run that is not the next token is skipped:
    a removed stopword); the last token may be a prefix of its run (cut by a byte limit)."""
    out, k, last = [], 0, len(plain) - 1
    for i, token in enumerate(plain):
        while k < len(runs) and runs[k][2] != token and not (i == last and token and runs[k][2].startswith(token)):
            k += 1
        if k == len(runs):
            return None
        out.append(k)
        k += 1
    return out


def spans(text: str, plain: list[str], tokenizer) -> list[list[int]] | None:
    """``[start, end]`` in ``text`` of each token of ``plain`` (the tokens before stemming), or None."""
    runs = _runs(text, tokenizer)
    if runs is None:
        return None
    at = _align(runs, plain)
    return None if at is None else [[runs[k][0], runs[k][1]] for k in at]


def run_spans(text: str, tokenizer) -> list[list[int]] | None:
    """``[start, end]`` of each run of ``text`` (the tokenizer's words before stopwords and
    limits), or None for a tokenizer whose runs are not known."""
    runs = _runs(text, tokenizer)
    return None if runs is None else [[a, b] for a, b, _ in runs]


def ascii_run_count(text: str) -> int:
    """How many runs the ``rouge155`` tokenizer finds in ``text``."""
    return len(_ASCII_RUN.findall(text))


def slots_of(pre, text: str, n_tokens: int, space: str) -> np.ndarray | None:
    """The run of each of the ``n_tokens`` tokens of ``text`` as ``pre`` (a Preprocessor) makes
    them: the joined tokens (``space == "joined"``) or the flattened sentence units (``"units"``),
    or None where they cannot be aligned.

    ``rouge155``: every run is a token but stopwords (the ASCII-lowercased run in the SMART list),
    and the limits keep a prefix, so the tokens are the first ``n_tokens`` kept runs. Other
    tokenizers: the tokens before stemming aligned with the runs (:func:`spans`'s rule)."""
    runs = _runs(text, pre.tokenizer)
    if runs is None:
        return None
    if pre.tokenizer == "rouge155":
        if pre.stopwords:
            from rougekit.text.stopwords import load_smart_stopwords

            stop = load_smart_stopwords()
            kept = [k for k, run in enumerate(runs) if run[2] not in stop]
        else:
            kept = list(range(len(runs)))
        return np.asarray(kept[:n_tokens], dtype=np.int32) if n_tokens <= len(kept) else None
    from dataclasses import replace

    joined, units = replace(pre, stem=False).process(text)
    plain = joined if space == "joined" else [t for u in units for t in u]
    at = _align(runs, plain) if len(plain) == n_tokens else None
    return None if at is None else np.asarray(at, dtype=np.int32)
