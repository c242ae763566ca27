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

Containers. Every Python entry point reads its arguments through :func:`summaries` (one entry per
pair: candidates, references, sources) and :func:`normalize` (the references of each pair), so a
list, a tuple, a generator, a numpy array of strings (``str_``, ``StringDType``, ``object``), a
pandas or polars Series (taken by position; pandas Series of one call must share their index, see
:func:`same_index`) and a pyarrow array all mean what the list of their items means. A string, a
dict, a set, a DataFrame, a pyarrow Table or a 1-d integer array in place of the list of summaries
is a one-line ``TypeError`` (pair IDs may be a 1-d integer array). The rule that keeps token ids and text apart:
a numpy array of integers is ONE summary of token ids (2-d: one summary per row), a numpy array of
strings is a list of texts (summaries, or the sentences or references of one pair).

A torch tensor of ids is read as its numpy array (on the CPU), wherever it stands: a list of 1-d
tensors means what the list of their arrays means (torch is never imported here). :func:`id_pairs`
makes a call's ids what the engine reads, with the ``ignore_ids`` option's ids (padding, EOS) left out.

>>> input_kind([[5, 9, 2]], [[5, 2]])
'ids'
>>> id_sentences([[5, 9], [], [2, 7, 7]], word_limit=4)
[[5, 9], [2, 7]]
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from collections.abc import Set as AbstractSet
from itertools import chain

from rougekit.errors import InputError, OptionError

__all__ = [
    "MAX_ID",
    "input_kind",
    "id_level",
    "id_sentences",
    "split_references",
    "id_pairs",
    "id_summary",
    "padding_id",
    "check_id_options",
    "summaries",
    "holds_arrow",
    "arrow_column",
    "same_index",
    "summary",
    "normalize",
    "lone_surrogate",
    "check_kind",
    "missing",
    "not_text",
    "NotPlain",
    "plain_text",
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


def _is_tensor(x) -> bool:
    """A torch tensor (looked at by its module: torch is never imported here)."""
    return type(x).__module__.partition(".")[0] == "torch" and hasattr(x, "numpy")


def _tensor_array(x):
    """A torch tensor's numbers as a numpy array, on the CPU."""
    return x.detach().cpu().numpy()


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
    if mv is None and _is_tensor(x):  # a torch tensor (no buffer protocol): read as its numpy array
        mv = x
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


def id_pairs(candidates: list, references: list[list], drop: tuple = (), kernel=None) -> tuple[list, list[list]]:
    """The summaries of a token-id call (candidates from :func:`summaries`, references from
    :func:`normalize`) as the engine reads them: torch tensors (a reference or a sentence, at any depth)
    as numpy arrays, and without the ids in ``drop`` (a sorted tuple: ``ignore_ids``, e.g. padding and
    EOS). ``kernel``: the compiled ``ids_without`` (a list of ints in one C loop), or None. The lists
    given are returned as they are when there is nothing to do (no ``drop``, no tensor)."""
    if not drop and ("torch" not in sys.modules or not _holds_tensor(candidates, references)):
        return candidates, references
    return (
        [id_summary(c, drop, kernel) for c in candidates],
        [[id_summary(r, drop, kernel) for r in refs] for refs in references],
    )


def _holds_tensor(candidates: list, references: list[list]) -> bool:
    def has(x) -> bool:
        if type(x) is list or type(x) is tuple:
            return bool(x) and type(x[0]) is not int and any(map(_is_tensor, x))
        return _is_tensor(x)

    return any(map(has, candidates)) or any(has(r) for refs in references for r in refs)


def id_summary(x, drop: tuple = (), kernel=None):
    """One token-id summary as the engine reads it (see :func:`id_pairs`): a tensor as a numpy array,
    the ids in ``drop`` left out (a flat sequence, or each sentence of one). Anything that is not token
    ids is returned as it is (the engine names what is wrong with it).

    >>> id_summary([[5, 0, 6], [0, 0], [7]], drop=(0,))
    [[5, 6], [], [7]]
    """
    if _is_tensor(x):
        x = _tensor_array(x)
    if (type(x) is list and x and type(x[0]) is int) or (type(x) is _ndarray() and x.ndim == 1):
        level = 1  # the common cases, without a memoryview
    else:
        level = id_level(x)
    if level == 2:
        return [id_summary(s, drop, kernel) for s in x]
    if level != 1 or not drop:
        return x
    return _without(x, drop, kernel)


def _without(ids, drop: tuple, kernel=None):
    """A flat id sequence without the ids in ``drop``: a list or tuple of ints as an int32 ``array('i')``
    (``kernel``) or a list, a numpy array as a numpy array of its dtype, another integer buffer as a list."""
    if type(ids) is list or type(ids) is tuple:
        if kernel is not None:
            kept = kernel(ids, drop)
            if kept is not None:
                return kept
        if not all(map(_is_int, ids)):
            return ids  # not token ids: the engine says what is wrong
        return [v for v in ids if v not in drop]
    nd = _ndarray()
    if nd is not None and isinstance(ids, nd):
        if ids.dtype.kind not in "iu":
            return ids
        if len(drop) > 4:
            return ids[~sys.modules["numpy"].isin(ids, drop)]
        keep = ids != drop[0]  # a few ids (padding, EOS): a comparison each, ~5x faster than isin per row
        for d in drop[1:]:
            keep &= ids != d
        return ids[keep]
    mv = _buffer(ids)
    if mv is not None and mv.ndim == 1 and mv.format.lstrip("@") in _INT_FORMATS:
        return [v for v in mv.tolist() if v not in drop]
    return ids


def padding_id(value) -> int | None:
    """The id that pads a 2-d integer array or tensor given as a batch of summaries (one per row), or None.

    Padding shows as rows ending in runs of one id: it is found when at least half the rows end in 2 or
    more copies of one id and one of them in 3 or more (a single padded row: 3 or more). Real text rarely
    does that: SummEval's 1,300 texts as word ids (words and punctuation) cut at every width from 3 to
    199, one row each, are found 18 times in 71,243 (0.025 %; 15 of them runs of '.', '!' or '*' that a
    subword tokenizer merges into one token); in batches of 16 rows cut to one width, never (350 batches).
    Only the last 3 columns are read (a tensor's are copied to the CPU); None for anything else.
    """
    if _is_tensor(value) and getattr(value, "ndim", 0) == 2:
        value = _tensor_array(value[:, -3:])
    nd = _ndarray()
    if nd is None or not isinstance(value, nd) or value.ndim != 2 or value.dtype.kind not in "iu":
        return None
    rows, width = value.shape
    if width < 3 or not rows:
        return None
    tail = value[:, -3:]
    last = tail[:, 2]
    run2 = tail[:, 1] == last
    run3 = run2 & (tail[:, 0] == last)
    if not run3.any():
        return None
    np = sys.modules["numpy"]
    ids, counts = np.unique(last[run2], return_counts=True)
    best = int(counts.argmax())
    pad = ids[best]
    if 2 * counts[best] < rows or not (run3 & (last == pad)).any():
        return None
    return int(pad)


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


_LIST_OF = {
    "candidates": "a list of candidate summaries",
    "references": "a list with one entry per candidate",
    "sources": "a list with one source per candidate",
    "ids": "a list with one id per candidate",
}
_AS_IS = frozenset((str, list))  # summaries the engine reads as they are
_LIST = {list}
_STR = {str}
_TEXT_KINDS = "USTO"  # numpy dtype kinds read as Python objects: bytes, str, StringDType, object
_TEXT_KIND_SET = frozenset(_TEXT_KINDS)


def _package(x) -> str:
    return type(x).__module__.partition(".")[0]


def _column_of(x) -> str | None:
    """ "pandas", "polars" or "pyarrow" for a Series of theirs or a pyarrow array, else None."""
    package = _package(x)
    if package == "pandas" and getattr(x, "ndim", 0) == 1 and hasattr(x, "tolist"):
        return package
    if package == "polars" and type(x).__name__ == "Series":
        return package
    if package == "pyarrow" and hasattr(x, "to_pylist") and type(x).__name__.endswith("Array"):
        return package
    return None


def _column(x):
    """A pandas/polars Series or a pyarrow array as a list of Python objects (by position), else None."""
    package = _column_of(x)
    if package == "pandas":
        return x.tolist()
    if package == "polars":
        return x.to_list()
    if package == "pyarrow":
        return x.to_pylist()
    return None


_ARROW_PANDAS = frozenset(("ArrowStringArray", "ArrowStringArrayNumpySemantics", "ArrowExtensionArray"))


def holds_arrow(x) -> bool:
    """True for a column whose text is in Arrow memory: a pyarrow Array or ChunkedArray, a polars
    Series, a pandas Series backed by pyarrow (``str`` in pandas 3, ``string[pyarrow]``, ``ArrowDtype``),
    a ``datasets`` column of a Dataset (``ds["text"]``), a 1-d numpy ``StringDType`` array (its bytes are
    UTF-8: :func:`arrow_column` makes them an Arrow column). Checked by module and type names: nothing is
    imported (a package the caller did not import is not looked at)."""
    package = _package(x)
    name = type(x).__name__
    if package == "pyarrow":
        return name.endswith("Array")
    if package == "polars":
        return name == "Series"
    if package == "pandas":
        return name == "Series" and type(getattr(x, "array", None)).__name__ in _ARROW_PANDAS
    if package == "datasets":
        return name == "Column" and type(getattr(x, "source", None)).__name__ == "Dataset"
    return _string_dtype(x)


def _string_dtype(x) -> bool:
    """A 1-d numpy array of ``StringDType`` (numpy >= 2: UTF-8 in numpy's own memory)."""
    nd = _ndarray()
    return nd is not None and isinstance(x, nd) and x.ndim == 1 and x.dtype.kind == "T"


def arrow_column(x):
    """The pyarrow Array or ChunkedArray of a :func:`holds_arrow` column, by position, else None. Zero-copy
    for a pyarrow ``string``/``large_string`` column, a pandas Series of one chunk and a Dataset column
    with no indices mapping; a copy of the buffers (still no Python str per row) for string_view (cast to
    large_string: polars Series, pyarrow string_view), a dictionary of strings (decoded), a pandas Series
    of several chunks (joined) and a
    Dataset after ``select``/``shuffle``/``filter`` (its rows taken), and a 1-d numpy ``StringDType`` array
    (numpy >= 2; its UTF-8 bytes copied into a ``large_string`` array by pyarrow, about 5 times faster than
    ``tolist``). Without pyarrow, None (the column is read as a list)."""
    if not holds_arrow(x):
        return None
    package = _package(x)
    try:
        import pyarrow as pa
    except ImportError:  # pragma: no cover - polars/pandas/datasets without pyarrow: read as a list
        return None
    if package == "polars":
        x = x.to_arrow()
    elif package == "pandas":
        x = pa.array(x.array)  # the ExtensionArray's __arrow_array__: its pyarrow memory
    elif package == "datasets":
        source = x.source
        if (source.format or {}).get("type") == "custom":  # a transform changes what a row is
            return None
        x = source.with_format("arrow")[x.column_name]
    elif _string_dtype(x):  # pyarrow copies numpy's UTF-8 bytes into one buffer (no Python str per row);
        x = pa.array(x, type=pa.large_string())  # a missing value (na_object) becomes a null: read as a list
    if not isinstance(x, (pa.Array, pa.ChunkedArray)):
        return None
    t = x.type
    if pa.types.is_dictionary(t):  # e.g. a pandas category of strings: decoded, a copy of the bytes
        t = t.value_type
        if not (pa.types.is_string(t) or pa.types.is_large_string(t) or pa.types.is_string_view(t)):
            return x
        x = x.cast(pa.large_string())
    elif pa.types.is_string_view(t):
        x = x.cast(pa.large_string())
    return x


def _refused(value, name: str) -> str | None:
    """Why ``value`` cannot be a list of summaries (None when it can)."""
    if isinstance(value, (str, bytes)):  # read as a list, it would be scored character by character
        one = {"candidates": "candidate", "references": "reference", "sources": "source"}.get(name, "text")
        return f"e.g. [{one}], not one {'string' if isinstance(value, str) else 'bytes object'}"
    if isinstance(value, Mapping):
        return f"not a {type(value).__name__} (its keys would be read)"
    if isinstance(value, AbstractSet):
        return f"not a {type(value).__name__} (it has no order)"
    if type(value).__name__ == "DataFrame" or getattr(value, "ndim", 1) == 2 and hasattr(value, "columns"):
        return f"not a {type(value).__name__}: give one of its columns, e.g. frame['text']"
    if _package(value) == "pyarrow" and type(value).__name__ in ("Table", "RecordBatch"):  # read as its columns
        return f"not a pyarrow {type(value).__name__}: give one of its columns, e.g. table['text']"
    nd = _ndarray()
    if nd is not None and isinstance(value, nd):
        if value.ndim == 0:
            return "not a 0-d array"
        if value.ndim == 1 and value.dtype.kind in "iub" and name != "ids":  # pair IDs may be numbers
            return "not a 1-d integer array, which is ONE summary of token ids: give a list of them, e.g. [ids]"
    return None


def summaries(value, name: str, each: str | None = None) -> list:
    """The entries of a call's ``candidates``, ``references`` or ``sources`` (``name``), one per pair, as
    a list (see the module's Containers paragraph), each read by :func:`summary`; a container that would
    be misread is a one-line ``TypeError``. With ``each`` (``"candidate"``, ``"source"``: what one entry
    is), an entry that is a dict or a set (its keys would be read as sentences) is one too."""
    why = _refused(value, name)
    if why:
        raise TypeError(f"{name} must be {_LIST_OF.get(name, 'a list of texts')}, {why}")
    nd = _ndarray()
    if type(value) is not list:  # a list is read as it is (never changed)
        if nd is not None and isinstance(value, nd):
            value = value.tolist() if value.dtype.kind in _TEXT_KINDS else list(value)
        else:
            listed = _column(value)
            if listed is not None:
                value = listed
            else:
                try:
                    value = list(value)
                except TypeError:
                    why = f"not {type(value).__name__}"
                    raise TypeError(f"{name} must be {_LIST_OF.get(name, 'a list of texts')}, {why}") from None
    types = set(map(type, value))
    if types <= _AS_IS:  # the common case, at C speed: nothing to convert
        return value
    if nd is not None and types == {nd} and _TEXT_KIND_SET.isdisjoint({x.dtype.kind for x in value}):
        return value  # numpy arrays of token ids (or numbers the engine refuses): read as they are, as summary() would
    if each:
        for k, x in enumerate(value):
            _not_keyed(x, f"pair {k + 1}: {each}")
    return [x if type(x) is str else summary(x) for x in value]


def same_index(**given) -> None:
    """Refuse pandas Series (among ``given``, by argument name) whose indexes differ: they are read by
    position, where pandas itself would pair them by label (``OptionError``)."""
    series = [(name, v) for name, v in given.items() if _package(v) == "pandas" and type(v).__name__ == "Series"]
    for (name, v), (other, w) in zip(series, series[1:]):
        if not v.index.equals(w.index):
            raise OptionError(
                f"{name} and {other} are pandas Series with different indexes, and Series are paired by position: "
                f"align them (e.g. {other}.reindex({name}.index)) or pass lists"
            )


def _not_keyed(x, where: str) -> None:
    if isinstance(x, (Mapping, AbstractSet)):
        raise TypeError(
            f"{where}: expected text (a str or a list of str sentences) or token ids, got a {type(x).__name__}"
        )


def summary(x):
    """One summary (or one entry of a pair's references) as the engine reads it: a ``str`` subclass
    (``numpy.str_``) as ``str``; a numpy array of strings, a Series or a pyarrow array as the list of its
    items; token ids (integer arrays, lists of ints) and everything else as they are."""
    if type(x) is str or type(x) is list:
        return x
    if isinstance(x, str):
        return str(x)
    if hasattr(x, "__next__"):  # a generator or iterator: its items, read once, as a list's
        return list(x)
    if _is_tensor(x):  # a tensor of token ids: its numbers, on the CPU
        x = _tensor_array(x)
    nd = _ndarray()
    if nd is not None and isinstance(x, nd):
        if x.dtype.kind not in _TEXT_KINDS:
            return x  # token ids (the engine reads the buffer), or numbers it refuses
        return summary(x.item()) if x.ndim == 0 else x.tolist()
    listed = _column(x)
    return x if listed is None else listed


def _pair_references(refs, kind: str, k: int) -> list:
    """The references of pair ``k`` (from 0) as a list: one reference (a str, a flat id sequence) or several."""
    if kind == "text" and isinstance(refs, str):
        return [str(refs)]
    if refs is None or isinstance(refs, (bytes, Mapping, AbstractSet)) or not hasattr(refs, "__iter__"):
        fix = f" {_fix(refs)}" if missing(refs) or isinstance(refs, bytes) else ""
        raise TypeError(
            f"pair {k + 1}: references must be one reference (a str) or a list of them, got {type(refs).__name__}{fix}"
        )
    refs = summary(refs)
    if isinstance(refs, str):  # a 0-d array of text
        return [refs]
    if not hasattr(refs, "__len__"):  # a generator: its items, read as a list's
        refs = list(refs)
    if kind == "ids":
        return _split_ids(refs)
    for j, r in enumerate(refs):
        _not_keyed(r, f"pair {k + 1}: reference {j + 1}")
    return [r if type(r) is str else summary(r) for r in refs]


def normalize(candidates: list, references, engine_reads: bool = False) -> tuple[str, list[list]]:
    """(kind, references as one list per pair) for a call; kind is 'text' or 'ids' (see :func:`input_kind`).

    ``candidates`` come from :func:`summaries`; ``references`` may be any container it reads. A pair
    with an empty list of references is refused (it would score 0 against nothing).

    ``engine_reads``: only the compiled engine reads these texts, with :func:`plain_text` as its
    ``to_text``, and ``candidates`` were not read by :func:`summaries`: each summary is left to the
    engine's read (a str as it is; anything else through ``plain_text``), not checked here in a pass
    of its own. :class:`NotPlain` (raised here, by ``plain_text`` or by the engine) means that an entry
    must be converted or refused first (nothing is read before): the caller reads the call again with
    ``engine_reads=False``. Token ids are read that way too."""
    kind, split = _normalize(candidates, references, engine_reads)
    if not all(split):
        k = next(k for k, refs in enumerate(split) if not refs)
        raise InputError(f"pair {k + 1}: no reference (an empty list): give each pair at least one reference")
    return kind, split


def _normalize(candidates: list, references, engine_reads: bool = False) -> tuple[str, list[list]]:
    types = set(map(type, references)) if type(references) is list else None
    if types is None or not types <= _AS_IS:  # (a list of str or lists is read as it is: one pass, here)
        if engine_reads:  # converted first (a generator is read once: before anything reads it)
            raise NotPlain("references")
        references = summaries(references, "references")
        types = set(map(type, references))
    kind = input_kind(candidates, references)
    if engine_reads and kind != "text":  # decided on summaries not converted (a numpy array of strings
        raise NotPlain(kind)  # reads as token ids): read again, converted first
    if kind == "text":  # the common shapes first: this runs once per pair of every call; a list of str
        # is read as it is (never changed), not copied: no new list per pair for the GC to track
        if types == _STR:
            return kind, [[r] for r in references]
        if types <= _AS_IS:
            split = references if types == _LIST else [r if type(r) is list else [r] for r in references]
            if engine_reads or set(map(type, chain.from_iterable(split))) <= _AS_IS:  # a str or sentences each
                return kind, split
        return kind, [[r] if type(r) is str else _pair_references(r, kind, k) for k, r in enumerate(references)]
    nd = _ndarray()  # numpy's own 1-d integer arrays and lists of ints, the common cases: no memoryview to make
    return kind, [
        [r]
        if (type(r) is list and r and type(r[0]) is int) or (type(r) is nd and r.ndim == 1 and r.dtype.kind in "iu")
        else _pair_references(r, kind, k)
        for k, r in enumerate(references)
    ]


class NotPlain(Exception):
    """A summary the engine cannot read as it is (see :func:`plain_text`): the call is read again
    with every summary checked and converted first (:func:`summaries`, :func:`normalize`)."""


def _convertible(x) -> bool:
    """An entry that :func:`summary` converts or :func:`summaries` refuses (not read as it is): never
    one of a call read with every summary checked first."""
    if isinstance(x, (Mapping, AbstractSet)) or hasattr(x, "__next__"):
        return True
    nd = _ndarray()
    if nd is not None and isinstance(x, nd):
        return x.dtype.kind in _TEXT_KINDS
    return _column_of(x) is not None


def plain_text(summary) -> str:
    """The engine's ``to_text`` for a summary that is not a str (its sentences joined by newlines), on a
    call whose summaries were not checked one by one (``normalize(..., engine_reads=True)``): an entry
    that must be converted or refused first (a dict or set, an iterator, a numpy array of strings, a
    pandas, polars or pyarrow column) raises :class:`NotPlain`, before it is read."""
    if type(summary) is not list and type(summary) is not tuple and _convertible(summary):
        raise NotPlain(type(summary).__name__)
    return "\n".join(summary)


def lone_surrogate(candidates, references, sources, first: int) -> str:
    """The error message naming the first text that is not valid Unicode (a lone surrogate): pair
    ``first`` is ``candidates[0]``; ``references`` are one list per pair, ``sources`` None or one per pair."""

    def bad(text) -> bool:
        if not isinstance(text, str):  # a list of sentences (or of token ids)
            return any(isinstance(t, str) and bad(t) for t in text)
        try:
            text.encode("utf-8", "surrogateescape")
        except UnicodeEncodeError:
            return True
        return False

    for k, cand in enumerate(candidates):
        what = "candidate" if bad(cand) else None
        what = what or ("a reference" if any(bad(r) for r in references[k]) else None)
        what = what or ("source" if sources is not None and bad(sources[k]) else None)
        if what:
            return f"pair {first + k}: {what} holds a lone surrogate (not valid Unicode text)"
    return "a text holds a lone surrogate (not valid Unicode text)"


def missing(x) -> bool:
    """True for a missing value as pandas, numpy and Python write it: None, NaN, ``pd.NA``, ``pd.NaT``."""
    return x is None or (isinstance(x, float) and x != x) or type(x).__name__ in ("NAType", "NaTType")


def not_text(summary, where: str) -> str:
    """Why ``summary`` (at ``where``: ``pair 3: reference 2``) cannot be read as text, in one line."""
    return f"{where}: expected text (a str or a list of str sentences), got {summary!r:.60} {_fix(summary)}"


def _fix(value) -> str:
    """What to do about a value that is not text: a missing value or bytes are named as such."""
    parts = value if isinstance(value, (list, tuple)) else [value]
    if any(missing(x) for x in parts):
        return "(a missing value: drop those rows or fill them, e.g. with '', first)"
    if any(isinstance(x, (bytes, bytearray)) for x in parts):
        return "(bytes: decode them first, e.g. .decode('utf-8'))"
    return "(give every summary as text or every one as token ids)"


def check_kind(summary, kind: str, where: str = "summary") -> None:
    """``TypeError`` when a text summary comes in an ids call or token ids in a text call."""
    if kind == "ids" and isinstance(summary, (str, bytes)):
        raise TypeError(f"{where}: text where token ids are expected (give every summary as text or every one as ids)")
    if kind == "text" and not isinstance(summary, str) and id_level(summary) > 0 and _summary_kind(summary) == "ids":
        raise TypeError(f"{where}: token ids where text is expected (give every summary as text or every one as ids)")
