"""Text columns of pyarrow arrays scored from their UTF-8 buffers and offsets, no Python str per row.

A candidate column is a ``string`` or ``large_string`` array (one summary a row); a reference
column is one of those (one reference a row) or a ``list``/``large_list`` of them (several).
:func:`readable` tells whether the engine reads a column this way: no null at any level, and valid
UTF-8 (the bytes are those ``str.encode`` gives for the same text, so every number equals the
str path's). Anything else (nulls, other types, bytes that are not UTF-8) is read through Python
strings by the caller, which gives that path's errors.

The warnings of the str path are kept, computed on the bytes (``_batch.arrow_flags``): texts with
words but no tokens and texts with letters outside ASCII (only the non-ASCII texts become Python
strings, as the str path reads only those), sentence markers, and blank candidates.
"""

from __future__ import annotations

import functools
import re
from typing import TYPE_CHECKING

from rougekit.errors import InputError

if TYPE_CHECKING:
    import numpy as np

try:
    from rougekit._core import _batch
except ImportError:  # pragma: no cover - depends on the build
    _batch = None

_NON_ASCII, _SPACES, _MARKER_SHIFT = 1, 2, 2  # _batch.arrow_flags: AF_NON_ASCII, AF_SPACES, AF_MARKER = 1 << 2
_MARKERS = ("<q>", "<t>", "</s>", "<n>")  # markers.MARKERS, in its order (the flags' codes 1 to 4)


def _types(pa):
    t = pa.types
    text = lambda x: t.is_string(x) or t.is_large_string(x)  # noqa: E731
    lists = lambda x: (t.is_list(x) or t.is_large_list(x)) and text(x.value_type)  # noqa: E731
    return text, lists


def readable(array, lists: bool = False) -> bool:
    """True when the engine reads ``array`` (a pyarrow Array) from its buffers: a string or large_string
    array (or, with ``lists``, a list of them) with no null at any level and valid UTF-8."""
    try:
        import pyarrow as pa
    except ImportError:  # pragma: no cover - pyarrow is what made the array
        return False
    if _batch is None or not isinstance(array, pa.Array):
        return False
    text, listed = _types(pa)
    if not (text(array.type) or (lists and listed(array.type))):
        return False
    if array.null_count or (listed(array.type) and array.flatten().null_count):
        return False
    try:
        array.validate(full=True)  # offsets in range and UTF-8
    except pa.ArrowInvalid:
        return False
    return True


def column(array):
    """The engine's view of a :func:`readable` array (``_batch._ArrowText``)."""
    import pyarrow as pa

    if pa.types.is_string(array.type) or pa.types.is_large_string(array.type):
        buffers = array.buffers()
        return _batch._ArrowText(buffers[1], buffers[2], array.offset, pa.types.is_large_string(array.type), len(array))
    child = array.values  # the whole child: the list offsets say which of its strings a row holds
    buffers = child.buffers()
    return _batch._ArrowText(
        buffers[1],
        buffers[2],
        child.offset,
        pa.types.is_large_string(child.type),
        len(array),
        array.buffers()[1],
        array.offset,
        pa.types.is_large_list(array.type),
    )


def aligned(candidates, references) -> list[tuple]:
    """(candidates, references) arrays of the same rows, cut where either input's chunks end (zero-copy
    slices; an Array is one chunk, a ChunkedArray many)."""
    cands = list(getattr(candidates, "chunks", [candidates]))
    refs = list(getattr(references, "chunks", [references]))
    out = []
    i = j = 0
    ci = ri = 0  # rows of cands[i] and refs[j] already taken
    while i < len(cands) and j < len(refs):
        take = min(len(cands[i]) - ci, len(refs[j]) - ri)
        if take:
            out.append((cands[i].slice(ci, take), refs[j].slice(ri, take)))
        ci += take
        ri += take
        if ci == len(cands[i]):
            i, ci = i + 1, 0
        if ri == len(refs[j]):
            j, ri = j + 1, 0
    return out


_PAIR = re.compile(r"pair (\d+): ")


def _shifted(error: Exception, rows: int) -> Exception:
    found = _PAIR.match(str(error))
    if not rows or not found:
        return error
    return type(error)(f"pair {int(found.group(1)) + rows}: {str(error)[found.end() :]}")


def score(
    batch, pieces: list[tuple], jobs: int, tally=None, found=None, stem: bool = False, blank=None, out=None
) -> np.ndarray:
    """Per-pair statistics (rows x measures x 6) of ``pieces``, (candidates, references) pairs of
    :func:`readable` arrays of the same rows, scored by ``batch`` (a BatchScorer) from their buffers;
    an engine error names the pair counted from 1 over all pieces.

    As the str path does over the same pairs in one call: ``tally`` (an ``empty.Tally``) counts the
    summaries the tokenizer cannot read, ``found`` (a ``markers.MarkerTally``) those holding a sentence
    marker; ``blank`` (a list) gets the 0-based rows whose candidate is empty or white space only.
    ``out``, when given, is where the rows are written (a zeroed C-contiguous float64 array of the
    pieces' rows: a view of the caller's array of every pair, so no chunk is copied again)."""
    import numpy as np  # here, not at import: rougekit rouge155 never loads numpy

    from rougekit.text import empty  # loads numpy too

    columns = [(column(c), column(r)) for c, r in pieces]
    n = sum(c.rows for c, _ in columns)
    shape = (n, len(batch.measures), 6)
    if out is None:
        out = np.zeros(shape, dtype=np.float64)
    elif out.shape != shape or out.dtype != np.float64 or not out.flags.c_contiguous:
        raise ValueError(f"out must be a C-contiguous float64 array of shape {shape}")
    at, no_tokens = 0, 0
    wants_flags = tally is not None or found is not None or blank is not None
    # each piece's flags (a pass over the candidates' bytes, one over the references', without the GIL)
    # are two tasks the engine's jobs take once out of pairs: before, one thread made them after the
    # engine, the other core idle (0.1 s of 1,000,000 pairs)
    flagged: list = [None] * (2 * len(columns))  # per piece cflags, rflags (or the error met)
    for k, (cands, refs) in enumerate(columns):
        extra = None
        if wants_flags:
            extra = [
                functools.partial(_flags, cands, flagged, 2 * k),
                functools.partial(_flags, refs, flagged, 2 * k + 1),
            ]
        try:
            no_tokens += batch.score_arrow(cands, refs, out[at : at + cands.rows], jobs, extra)
        except (InputError, TypeError) as exc:
            raise _shifted(exc, at) from None
        at += cands.rows
    if not wants_flags:
        return out
    for k, (cands, refs) in enumerate(columns):
        for j, text in ((2 * k, cands), (2 * k + 1, refs)):
            if flagged[j] is None:  # (no row to score: the engine ran nothing)
                _flags(text, flagged, j)
            if isinstance(flagged[j], BaseException):
                raise flagged[j]
    cflags, rflags = flagged[0::2], flagged[1::2]
    summaries = n + sum(len(f) for f in rflags)
    if tally is not None:
        tally.total += summaries
        # the str path reads the non-ASCII texts only (empty.count_rouge155): the same texts, in its order
        texts = _with(pieces, cflags, 0, _NON_ASCII)
        refs = _with(pieces, rflags, 1, _NON_ASCII)
        empty.count_rouge155(texts, [refs], tally, stem=stem, engine_empty=no_tokens)
    if found is not None:
        found.total += summaries
        codes = np.concatenate([*cflags, *rflags]) >> _MARKER_SHIFT if summaries else np.zeros(0, np.uint8)
        held = np.flatnonzero(codes)
        found.summaries += len(held)
        if len(held) and not found.marker:
            found.marker = _MARKERS[int(codes[held[0]]) - 1]
    if blank is not None:
        first = 0
        for (cands, _), flags in zip(pieces, cflags):
            spaces = (flags & (_SPACES | _NON_ASCII)) == _SPACES
            maybe = np.flatnonzero((flags & (_SPACES | _NON_ASCII)) == (_SPACES | _NON_ASCII))
            if len(maybe):  # white space outside ASCII (U+00A0, U+3000, ...): str.isspace decides
                texts = cands.take(maybe).to_pylist()
                spaces[maybe[[t.isspace() for t in texts]]] = True
            blank.extend((np.flatnonzero(spaces) + first).tolist())
            first += len(cands)
    return out


def _flags(text, into: list, k: int) -> None:
    """``into[k]``: the ``arrow_flags`` of ``text`` (a uint8 array), or the error met."""
    import numpy as np

    try:
        into[k] = np.frombuffer(_batch.arrow_flags(text), dtype=np.uint8)
    except Exception as exc:  # noqa: BLE001 - raised by the caller
        into[k] = exc


def _with(pieces, flags, side: int, bit: int) -> list[str]:
    """The texts of the pieces' ``side`` (0 candidates, 1 references) whose flags have ``bit``, in order."""
    import numpy as np  # here, not at import: rougekit rouge155 never loads numpy

    out: list[str] = []
    for piece, f in zip(pieces, flags):
        rows = np.flatnonzero(f & bit)
        if len(rows):
            array = piece[side]
            strings = array.flatten() if hasattr(array, "flatten") else array
            out += strings.take(rows).to_pylist()
    return out
