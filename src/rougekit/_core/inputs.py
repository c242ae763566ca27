"""Summaries given as token ids instead of text (for models' tokenizers and training loops).

A summary is text (a ``str``, or a list of ``str`` sentences) or token ids: a flat sequence of
integers (a list or tuple of ints, or a one-dimensional integer buffer such as an int32 numpy
array) or a list of such sequences, its sentences. Ids are ints from 0 to 2**31-1; they are
compared as they are (no tokenizer, stemmer or stopword list applies; ``word_limit`` keeps the
first N ids, like the script's ``-l``). Empty sentences are dropped.

``references[i]`` is one reference or a list of references: a flat id sequence is one
reference, a list of them several (a reference with sentences is a list of lists). One call
takes text or ids, never both (``TypeError``).

This module is the readable twin of the compiled ``_Engine.prepare_ids`` (``_batch.pyx``): both
read the same summaries into the same token sequences.

>>> input_kind([[5, 9, 2]], [[5, 2]])
'ids'
>>> id_sentences([[5, 9], [], [2, 7, 7]], word_limit=4)
[[5, 9], [2, 7]]
"""

from __future__ import annotations

import sys

from rougekit.errors import InputError, OptionError

__all__ = [
    "MAX_ID",
    "input_kind",
    "id_level",
    "id_sentences",
    "split_references",
    "check_id_options",
    "normalize",
    "check_kind",
]

MAX_ID = 2**31 - 1
_INT_FORMATS = frozenset("bBhHiIlLqQnN")


def _is_int(x) -> bool:
    """An integer token id: an int or an integer scalar (numpy), never a bool."""
    if type(x) is int:
        return True
    if isinstance(x, bool) or isinstance(x, (str, bytes, list, tuple)):
        return False
    return hasattr(type(x), "__index__") and getattr(x, "ndim", 0) == 0


def _buffer(x) -> memoryview | None:
    if isinstance(x, (str, bytes, bytearray, list, tuple)):
        return None
    try:
        return memoryview(x)
    except TypeError:
        return None


def id_level(x) -> int:
    """1: a flat id sequence; 2: a sequence of sequences; 0: empty; -1: neither (text or other).

    A one-dimensional buffer is flat whatever it holds (its format is checked when it is read).
    """
    mv = _buffer(x)
    if mv is not None:
        if mv.ndim == 1:
            return 1
        if mv.ndim == 0:
            return -1
        return 2 if mv.shape[0] else 0
    if not isinstance(x, (list, tuple)):
        return -1
    if not x:
        return 0
    first = x[0]
    if _is_int(first):
        return 1
    if isinstance(first, (str, bytes)):
        return -1
    return 2 if id_level(first) >= 0 else -1


def _summary_kind(x) -> str | None:
    """'text', 'ids' or None (empty: either)."""
    if isinstance(x, (str, bytes)):
        return "text"
    level = id_level(x)
    if level == 0:
        return None
    if level == 1:
        return "ids"
    if level == 2:
        for s in x:
            lv = id_level(s)
            if lv == 1:
                return "ids"
            if lv < 0:
                return "text"
        return None
    return "text"


def input_kind(candidates, references) -> str:
    """'ids' when the first summary that is not empty is token ids, else 'text'.

    Only the first decisive summary is looked at; the engine rejects a later summary of the
    other kind with a ``TypeError``.
    """
    for c in candidates:
        kind = _summary_kind(c)
        if kind:
            return kind
    for refs in references:
        kind = _summary_kind(refs)
        if kind:
            return kind
    return "text"


def _ints(seq, where: str) -> list[int]:
    mv = _buffer(seq)
    if mv is not None:
        if mv.ndim != 1 or mv.format.lstrip("@") not in _INT_FORMATS or len(mv.format.lstrip("@")) != 1:
            raise TypeError(f"{where}: token ids must be integers (got a buffer of format {mv.format!r})")
        out = mv.tolist()
    else:
        out = []
        for v in seq:
            if not _is_int(v):
                raise TypeError(f"{where}: token ids must be integers, got {type(v).__name__}")
            out.append(int(v))
    for v in out:
        if v < 0 or v > MAX_ID:
            raise InputError(f"{where}: token id {v} is out of range (0 to 2**31-1)")
    return out


def id_sentences(summary, word_limit: int = 0, where: str = "summary") -> list[list[int]]:
    """The sentences of a token-id summary (flat: one sentence), empty ones dropped, cut to the
    first ``word_limit`` ids (0: no limit)."""
    if isinstance(summary, (str, bytes)):
        raise TypeError(f"{where}: text where token ids are expected (give every summary as text or every one as ids)")
    level = id_level(summary)
    if level < 0:
        raise TypeError(f"{where}: expected token ids (a sequence of ints, or a list of them), got {summary!r:.60}")
    parts = [summary] if level == 1 else (list(summary) if level == 2 else [])
    out: list[list[int]] = []
    used = 0
    for part in parts:
        if isinstance(part, (str, bytes)) or id_level(part) not in (0, 1):
            raise TypeError(f"{where}: a sentence must be a flat sequence of token ids")
        ids = _ints(part, where)
        if word_limit > 0:
            if used + len(ids) >= word_limit:
                ids = ids[: word_limit - used]
                if ids:
                    out.append(ids)
                break
            used += len(ids)
        if ids:
            out.append(ids)
    return out


def split_references(refs, kind: str) -> list:
    """The references of one pair as a list: one reference (a str, a flat id sequence) or several."""
    if kind == "ids":
        return [refs] if id_level(refs) == 1 else list(refs)
    return [refs] if isinstance(refs, str) else list(refs)


def check_id_options(*, stem: bool, stopwords: bool, byte_limit: int, tokenizer="rouge155") -> None:
    """Options that only apply to text cannot be used with token ids (``OptionError``)."""
    for name, on in (
        ("stem", stem),
        ("stopwords", stopwords),
        ("byte_limit", byte_limit),
        ("tokenizer", not (isinstance(tokenizer, str) and tokenizer == "rouge155")),
    ):
        if on:
            raise OptionError(f"{name} applies to text only: it cannot be used with token-id inputs")


def _split_ids(refs) -> list:
    """:func:`split_references` of token ids, the common cases (a 1-d array, a list of ints) first."""
    if type(refs) is list or type(refs) is tuple:
        if refs and type(refs[0]) is int:
            return [refs]
    else:
        try:
            if memoryview(refs).ndim == 1:
                return [refs]
        except TypeError:
            pass
    return split_references(refs, "ids")


def _ndarray():
    """numpy's ndarray type when numpy is imported (this module never imports it), else None."""
    np = sys.modules.get("numpy")
    return getattr(np, "ndarray", None)


def normalize(candidates: list, references) -> tuple[str, list[list]]:
    """(kind, references as one list per pair) for a call; kind is 'text' or 'ids' (see :func:`input_kind`)."""
    references = list(references)
    kind = input_kind(candidates, references)
    if kind == "text":  # split_references, inline: this runs once per pair of every call; a list
        # is read as it is (never changed), not copied: no new list per pair for the GC to track
        return kind, [r if type(r) is list else [r] if type(r) is str else list(r) for r in references]
    nd = _ndarray()  # numpy's own 1-d integer arrays, the common case: no memoryview to make
    return kind, [[r] if type(r) is nd and r.ndim == 1 and r.dtype.kind in "iu" else _split_ids(r) for r in references]


def check_kind(summary, kind: str, where: str = "summary") -> None:
    """``TypeError`` when a text summary comes in an ids call or token ids in a text call."""
    if kind == "ids" and isinstance(summary, (str, bytes)):
        raise TypeError(f"{where}: text where token ids are expected (give every summary as text or every one as ids)")
    if kind == "text" and not isinstance(summary, str) and id_level(summary) > 0 and _summary_kind(summary) == "ids":
        raise TypeError(f"{where}: token ids where text is expected (give every summary as text or every one as ids)")
