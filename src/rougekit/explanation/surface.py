"""Where the tokens are in the text as given: character spans of each token, for highlighting.

The *runs* of a text are the tokenizer's words before stopwords, limits and stemming, with their
places. ``rouge155``: runs of ASCII letters and digits (every other character, hyphens included,
separates them; ``-`` tokens are dropped), lowercased. ``unicode``, ``cjk`` and the language
presets' segmenters (``lang=zh/ja/th/my``): their tokens, found in turn in the text after NFKC and
case folding (the text they tokenize), and mapped back to the text as given character by
character; the characters between two runs must hold no letter, digit or mark (else a word was
lost and the text gets no spans). The unstemmed tokens are then aligned with the runs in order: a
run that is not the next token is a removed stopword. A text whose normalization changes across
characters (NFKC composing two of them), or another tokenizer (a callable), gets no spans.
"""

from __future__ import annotations

import re

import numpy as np

from rougekit.text.presets import PresetTokenizer
from rougekit.text.stopwords import load_smart_stopwords
from rougekit.text.tokenizers import cjk_tokens, fold, split_sentences, unicode_tokens, word_pattern

_ASCII_RUN = re.compile(r"[A-Za-z0-9]+")


def _normalized(text: str) -> tuple[str, list[int]] | None:
    """(``text`` as the ``unicode`` tokenizer folds it (:func:`rougekit.text.tokenizers.fold`), the index
    in ``text`` of each of its characters and of its end), or None when the folding of the whole text
    is not that of its characters one by one."""
    if text.isascii():
        return text.lower(), list(range(len(text) + 1))
    pieces, at = [], []
    for k, ch in enumerate(text):
        piece = fold(ch)
        pieces.append(piece)
        at += [k] * len(piece)
    norm = "".join(pieces)
    if "i\u0307" in norm:  # fold's i + combining dot above read as i: the dots dropped with their places
        keep = [k for k in range(len(norm)) if not (norm[k] == "\u0307" and k and norm[k - 1] == "i")]
        norm, at = "".join(norm[k] for k in keep), [at[k] for k in keep]
    if norm != fold(text):
        return None
    at.append(len(text))
    return norm, at


def _split(tokenizer):
    """The per-sentence tokenizer whose runs :func:`_found_runs` can place, or None."""
    if isinstance(tokenizer, PresetTokenizer):
        return tokenizer
    return {"unicode": unicode_tokens, "cjk": cjk_tokens}.get(tokenizer) if isinstance(tokenizer, str) else None


def _found_runs(text: str, split) -> list[tuple[int, int, str]] | None:
    """The tokens of each line of ``text`` (before stopwords and stemming), placed in turn."""
    found = _normalized(text)
    if found is None:
        return None
    norm, at = found
    word = word_pattern()
    out, pos = [], 0
    for line in split_sentences(text):
        for token in split(line):
            k = norm.find(token, pos) if token else -1
            if k < 0 or word.search(norm, pos, k):
                return None  # not found, or a word between this token and the last one
            out.append((at[k], at[k + len(token)], token))
            pos = k + len(token)
    return out


def _runs(text: str, tokenizer) -> list[tuple[int, int, str]] | None:
    if tokenizer == "rouge155":
        return [(m.start(), m.end(), m.group().lower()) for m in _ASCII_RUN.finditer(text)]
    split = _split(tokenizer)
    return None if split is None else _found_runs(text, split)


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
