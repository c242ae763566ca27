"""Reading candidates and references from Parquet and Arrow IPC files, one record batch at a time.

A text column is ``string``, ``large_string``, ``string_view`` or a dictionary of one of them. As in
JSONL, a candidate column holds a string or a list of sentence strings, and a reference column a
string (one reference) or a list of references, each a string or a list of sentence strings. Rows
are counted from 1. Errors name the file, the row and the column: a missing column (with the
columns there are), a null cell, a column of another type (with its type), an empty list of
references. pyarrow is an optional extra; without it the option that needs it says so.
"""

from __future__ import annotations

import functools
import os
import re
import threading
from collections.abc import Iterator
from dataclasses import dataclass

import rougekit.io
from rougekit.errors import InputError, OptionError
from rougekit.io.files import open_error
from rougekit.io.inputs import split_sentences

BATCH_ROWS = 4_096  # rows read at a time: a Parquet reader holds some 40 MB at 20,000, 6 MB at 2,000
ARRAY_ROWS = 20_000  # ... by text_arrays (no Python str per row: a Scorer chunk's rows in one engine call)
_ARROW_FILE_MAGIC = b"ARROW1"
_PARQUET_MAGIC = b"PAR1"
_WHAT = {"parquet": "a Parquet file", "arrow": "an Arrow IPC file or stream"}


def need_pyarrow(option: str):
    """The ``pyarrow`` module, or an :class:`OptionError` naming ``option`` when it is not installed."""
    try:
        import pyarrow
        import pyarrow.ipc
        import pyarrow.parquet  # noqa: F401
    except ImportError:
        raise OptionError(f"{option} needs pyarrow, which is not installed: pip install 'rougekit[pyarrow]'") from None
    _use_command_pool(pyarrow)
    return pyarrow


def _use_command_pool(pa) -> None:
    """Make ``rougekit.io.command_arrow_pool`` pyarrow's default pool (once), where this pyarrow has it
    and the user's ``ARROW_DEFAULT_MEMORY_POOL`` does not choose another."""
    name, rougekit.io.command_arrow_pool = rougekit.io.command_arrow_pool, None
    if name and "ARROW_DEFAULT_MEMORY_POOL" not in os.environ and name in pa.supported_memory_backends():
        pa.set_memory_pool(getattr(pa, f"{name}_memory_pool")())
        if name == "jemalloc":  # pyarrow's jemalloc gives freed pages back at once (decay 0): keep them
            pa.jemalloc_set_decay_ms(-1)


def sniff(path: str) -> str | None:
    """``parquet`` or ``arrow`` when the file starts as one (by its magic bytes), else None."""
    try:
        with open(path, "rb") as handle:
            head = handle.read(8)
    except OSError:
        return None
    if head[:4] == _PARQUET_MAGIC:
        return "parquet"
    if head[:6] == _ARROW_FILE_MAGIC or head[:4] == b"\xff\xff\xff\xff":
        return "arrow"
    return None


def is_pipe(path: str) -> bool:
    """A named pipe or a shell's process substitution (``<(...)``, ``/dev/fd/63``): read once, from the start."""
    import stat

    try:
        return stat.S_ISFIFO(os.stat(path).st_mode)
    except (OSError, ValueError):
        return False


def _spool_stdin(path: str | None = None):
    """Standard input (or the pipe ``path``) copied to a temporary file, 1 MiB at a time (Parquet is
    read from its end, and the columns are read more than once: a pipe will not do; memory stays
    bounded). The file is deleted when closed."""
    import shutil
    import tempfile

    from rougekit.io import reader

    spool = tempfile.NamedTemporaryFile(prefix="rougekit-stdin-", suffix=".bin")
    try:
        if path is None:
            shutil.copyfileobj(reader.stdin_buffer(), spool, 1 << 20)
        else:
            with open(path, "rb") as pipe:
                shutil.copyfileobj(pipe, spool, 1 << 20)
        spool.flush()
    except BaseException:
        spool.close()
        raise
    return spool


def _unique(path: str, names: list[str], column: str) -> None:
    if names.count(column) > 1:
        raise InputError(f"{path}: {names.count(column)} columns are named {_name(column)}: rename one")


def _name(column: str) -> str:
    return repr(column if len(column) <= 40 else column[:37] + "...")


class ColumnFile:
    """A Parquet file or an Arrow IPC file (or stream) opened for reading columns batch by batch.

    ``kind`` is ``parquet`` or ``arrow``; ``option`` is the command-line option that named the file
    (for the error when pyarrow is missing)."""

    def __init__(self, path: str, kind: str, option: str | None = None):
        self.pa = need_pyarrow(option or f"--{kind}")
        self.path, self.kind = path, kind
        self.what = _WHAT[kind]
        self._source = path  # the file read (a copy of standard input for "-")
        self.rows: int | None = None  # rows in the file, when its metadata says (Parquet)
        self._spool = None
        if path == "-":
            self.path = "standard input"
            self._spool = _spool_stdin()
            self._source = self._spool.name
        elif os.path.isdir(path):
            raise InputError(f"cannot open {path}: it is a directory")
        elif is_pipe(path):  # <(...): read once, copied as standard input is
            self._spool = _spool_stdin(path)
            self._source = self._spool.name
        found = sniff(self._source)
        if found is not None and found != kind:
            raise InputError(f"{self.path}: {self.what} was expected, but it is {_WHAT[found]}: give it with --{found}")
        self.schema = self._open()[0]

    def close(self) -> None:
        """Delete the copy of standard input (if any); a file given by name is left as it is."""
        if self._spool is not None:
            self._spool.close()
            self._spool = None

    def __del__(self):
        spool = getattr(self, "_spool", None)
        if spool is not None:
            spool.close()

    def _open(self):
        """(schema, batch iterator factory) of a fresh reader."""
        pa = self.pa
        try:
            if self.kind == "parquet":
                import pyarrow.parquet as pq

                # read through a small buffer, a column chunk's pages at a time: a row group is not held whole
                pf = pq.ParquetFile(self._source, buffer_size=1 << 20, pre_buffer=False)
                self.rows = pf.metadata.num_rows
                return pf.schema_arrow, lambda columns, rows: pf.iter_batches(batch_size=rows, columns=columns)
            source = pa.OSFile(self._source)  # read, not mapped: a batch's pages leave memory with it
            try:
                reader = pa.ipc.open_file(source)

                def file_batches(columns, rows):
                    for i in range(reader.num_record_batches):
                        yield reader.get_batch(i).select(columns)

                return reader.schema, file_batches
            except pa.ArrowInvalid:
                source.seek(0)
                stream = pa.ipc.open_stream(source)
                return stream.schema, lambda columns, rows: (b.select(columns) for b in stream)
        except OSError as exc:
            if isinstance(exc, (FileNotFoundError, PermissionError, IsADirectoryError)):
                raise open_error(self.path, exc) from None
            raise self._unreadable(exc) from None
        except pa.ArrowException as exc:
            raise self._unreadable(exc) from None

    def _unreadable(self, exc: Exception) -> InputError:
        detail = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        return InputError(f"{self.path}: not readable as {self.what} ({detail[:200]})")

    def columns(self) -> list[str]:
        return list(self.schema.names)

    def _field_path(self, column: str) -> tuple[list[int], object] | None:
        """(child indices, type) of a dotted name read through struct columns (``pred.text``: the field
        ``text`` of the struct column ``pred``) when the file has no column of that name; None for a
        plain column (or no column at all: :meth:`column_type` lists those there are). An error says
        where the path stops."""
        names = self.columns()
        if column in names or "." not in column:
            return None
        parts = column.split(".")
        if parts[0] not in names:
            return None
        _unique(self.path, names, parts[0])
        t, path = self.schema.field(parts[0]).type, []
        for k, part in enumerate(parts[1:], start=1):
            fields = [t.field(i).name for i in range(t.num_fields)] if self.pa.types.is_struct(t) else None
            if fields is None or part not in fields:
                held = f"a struct of fields {', '.join(map(_name, fields))}" if fields else f"of type {t}"
                raise InputError(f"{self.path}: no column {_name(column)}: {_name('.'.join(parts[:k]))} is {held}")
            path.append(fields.index(part))
            t = t.field(path[-1]).type
        return path, t

    def column_type(self, column: str, option: str):
        """The type of ``column`` (a dotted name: a field of a struct column), or an error listing the
        columns there are."""
        names = self.columns()
        found = self._field_path(column)
        if found is not None:
            return found[1]
        if column not in names:
            shown = ", ".join(_name(n) for n in names[:20]) + (
                f", ... ({len(names)} in all)" if len(names) > 20 else ""
            )
            raise InputError(f"{self.path}: no column {_name(column)} for {option} (columns: {shown or 'none'})")
        _unique(self.path, names, column)
        return self.schema.field(column).type

    def batches(self, columns: list[str], rows: int = BATCH_ROWS) -> Iterator:
        """Record batches of ``columns`` (each read once, however often it is named), in file order; a
        dotted name is the field of a struct column (see :meth:`column_type`), named as given."""
        wanted = list(dict.fromkeys(columns))
        paths = {c: self._field_path(c) for c in wanted}
        if all(p is None for p in paths.values()):
            yield from self._batches(wanted, rows)
            return
        import pyarrow.compute as pc

        roots = list(dict.fromkeys(c if paths[c] is None else c.split(".")[0] for c in wanted))
        for batch in self._batches(roots, rows):
            arrays = [
                batch.column(c) if paths[c] is None else pc.struct_field(batch.column(c.split(".")[0]), paths[c][0])
                for c in wanted
            ]  # a null struct row is a null field: refused as any null row is
            yield self.pa.RecordBatch.from_arrays(arrays, names=wanted)

    def _batches(self, wanted: list[str], rows: int) -> Iterator:
        pa = self.pa
        batches = self._open()[1](wanted, rows)
        while True:
            try:
                batch = next(batches)
            except StopIteration:
                return
            except OSError as exc:
                raise self._unreadable(exc) from None
            except pa.ArrowException as exc:
                raise self._unreadable(exc) from None
            yield batch


def table_records(path: str, kind: str, option: str):
    """The rows of a Parquet or Arrow IPC file (``kind``), in order, as :class:`rougekit.io.reader.Record`
    s named ``FILE, row N`` (counted from 1), each a dict of every column's value (a score table:
    ``rougekit correlate`` reads the per-pair Parquet that ``score`` writes). ``option`` names what
    needs pyarrow when it is missing."""
    from rougekit.io.reader import Record

    table = ColumnFile(path, kind, option)
    # pandas' index (to_parquet of a filtered frame writes it as __index_level_0__): not a score column
    columns = [c for c in table.columns() if not re.fullmatch(r"__index_level_\d+__", c)]
    try:
        n = 0
        for batch in table.batches(columns):
            for row in batch.to_pylist():
                n += 1
                yield Record(f"{table.path}, row {n}", n, row)
    finally:
        table.close()


def _at_once(first, second) -> tuple:
    """(first(), second()), ``second`` run on a thread while ``first`` runs here; the error ``first``
    raises is raised before the one ``second`` raises, as when they run one after the other.

    The two columns' checks of a record batch (pyarrow's UTF-8 validation lets go of the GIL): of
    1,000,000 pairs, 0.058 s of one thread while the other core waits, ~0.03 s on two."""
    out: list = [None, None]  # second's value, or the error it raised

    def run() -> None:
        try:
            out[0] = second()
        except BaseException as exc:  # noqa: BLE001 - raised below, in order
            out[1] = exc

    helper = threading.Thread(target=run, daemon=True)
    helper.start()
    try:
        value = first()
    finally:
        helper.join()
    if out[1] is not None:
        raise out[1]
    return value, out[0]


# -- column types ---------------------------------------------------------------------------------


def _is_text(pa, t) -> bool:
    if pa.types.is_dictionary(t):
        t = t.value_type
    view = getattr(pa.types, "is_string_view", lambda _: False)
    return pa.types.is_string(t) or pa.types.is_large_string(t) or view(t)


def _list_item(pa, t):
    """The item type of a list type, or None."""
    for test in ("is_list", "is_large_list", "is_fixed_size_list", "is_list_view", "is_large_list_view"):
        if getattr(pa.types, test, lambda _: False)(t):
            return t.value_type
    return None


def _shape(pa, t) -> str | None:
    """``text``, ``texts`` (a list of strings) or ``nested`` (a list of lists of strings), else None."""
    if _is_text(pa, t):
        return "text"
    item = _list_item(pa, t)
    if item is None:
        return None
    if _is_text(pa, item):
        return "texts"
    inner = _list_item(pa, item)
    return "nested" if inner is not None and _is_text(pa, inner) else None


def _type_error(path: str, column: str, t, wanted: str) -> InputError:
    hint = " (binary: cast it to string)" if "binary" in str(t) else ""
    return InputError(f"{path}: column {_name(column)} is of type {t}{hint}; it must be {wanted}")


# -- reading pairs --------------------------------------------------------------------------------


@dataclass
class Batch:
    """The rows of one record batch: ``first`` is the 1-based number of its first row."""

    first: int
    ids: list[str] | None
    candidates: dict[str, list[str]]
    references: list[list[str]] | None
    sources: list[str] | None


class PairColumns:
    """Which columns hold the candidates (one per system), the references, IDs and sources.

    The types are checked when made (before any row is read)."""

    def __init__(
        self,
        table: ColumnFile,
        candidates: list[str],
        references: list[str],
        id_column: str | None = None,
        source_column: str | None = None,
        sentence_sep: str | None = None,
    ):
        pa = table.pa
        self.table, self.sentence_sep = table, sentence_sep
        self.candidates, self.references = candidates, references
        self.id_column, self.source_column = id_column, source_column
        self.shapes: dict[str, str] = {}
        texts = "string (large_string, string_view or dictionary-encoded strings) or a list of sentence strings"
        for c in candidates:
            t = table.column_type(c, "--candidate-column")
            shape = _shape(pa, t)
            if shape not in ("text", "texts"):
                raise _type_error(table.path, c, t, f"a {texts}")
            self.shapes[c] = shape
        for r in references:
            t = table.column_type(r, "--reference-column")
            shape = _shape(pa, t)
            if shape is None:
                raise _type_error(
                    table.path, r, t, "a string (one reference) or a list of references (strings or lists of sentences)"
                )
            self.shapes[r] = shape
        if source_column:
            t = table.column_type(source_column, "--source-column")
            shape = _shape(pa, t)
            if shape not in ("text", "texts"):
                raise _type_error(table.path, source_column, t, f"a {texts}")
            self.shapes[source_column] = shape
        if id_column:
            t = table.column_type(id_column, "--id-column")
            if pa.types.is_nested(t) or pa.types.is_binary(t) or pa.types.is_large_binary(t):
                raise _type_error(table.path, id_column, t, "a column of strings or numbers")

    def batches(self, systems: list[str] | None = None, references: bool = True) -> Iterator[Batch]:
        """The rows batch by batch: the candidates of ``systems`` (default: all), the references
        (unless ``references=False``), the IDs and sources when there are such columns."""
        systems = self.candidates if systems is None else systems
        wanted = [*systems, *(self.references if references else [])]
        wanted += [c for c in (self.id_column, self.source_column) if c]
        first = 1
        for batch in self.table.batches(wanted):
            n = batch.num_rows
            names = batch.schema.names
            column = {name: batch.column(k) for k, name in enumerate(names)}
            cands = {c: self._texts(column[c], c, first, "candidate") for c in systems}
            refs = None
            if references:
                per_column = [self._references(column[r], r, first) for r in self.references]
                refs = per_column[0] if len(per_column) == 1 else [sum(group, []) for group in zip(*per_column)]
            ids = self._ids(column[self.id_column], first) if self.id_column else None
            sources = (
                self._texts(column[self.source_column], self.source_column, first, "source")
                if self.source_column
                else None
            )
            yield Batch(first, ids, cands, refs, sources)
            first += n

    def text_arrays(self, system: str, ids: list[str] | None = None, rows: int = ARRAY_ROWS) -> Iterator[tuple]:
        """(candidates, references) pyarrow arrays of each record batch, for an engine that reads them from
        their buffers: strings (a dictionary or a view decoded), references a string or a list of
        strings a row. The rows are checked as :meth:`batches` checks them (nulls, empty lists, bytes
        that are not UTF-8: the same errors) but not read. The rows' IDs are appended to ``ids``.
        Only for :meth:`arrow_ready` columns; ``rows`` at a time (no Python object per row is made, so
        a batch holds only its bytes)."""
        if not self.arrow_ready(system):
            raise ValueError("these columns are not read as Arrow text arrays: use batches()")
        reference = self.references[0]
        wanted = [system, reference, *([self.id_column] if self.id_column else [])]
        first = 1
        for batch in self.table.batches(wanted, rows):
            names = batch.schema.names
            column = {name: batch.column(k) for k, name in enumerate(names)}
            check_refs = self._checked if self.shapes[reference] == "text" else self._checked_list
            cands, refs = _at_once(
                functools.partial(self._checked, column[system], system, first),
                functools.partial(check_refs, column[reference], reference, first),
            )
            if ids is not None and self.id_column:
                ids.extend(self._ids(column[self.id_column], first))
            elif self.id_column:  # not kept, but refused as batches() refuses it
                self._checked_ids(column[self.id_column], first)
            yield cands, refs
            first += batch.num_rows

    def arrow_ready(self, system: str) -> bool:
        """True when :meth:`text_arrays` reads ``system``'s pairs: one summary string a row, one reference
        column (a string or a list of strings a row), no sentence separator and no source column."""
        return (
            self.shapes.get(system) == "text"
            and len(self.references) == 1
            and self.shapes[self.references[0]] in ("text", "texts")
            and not self.sentence_sep
            and not self.source_column
        )

    def _checked_ids(self, array, first: int) -> None:
        """An ID column of one batch, its nulls and bytes that are not UTF-8 refused (its values not read)."""
        pa = self.table.pa
        if _has_nulls(array):
            raise self._null(array, self.id_column, first)
        if _is_text(pa, array.type):
            self._utf8(self._plain_strings(array), self.id_column, first)

    def _plain_strings(self, array):
        """A text array as ``string`` or ``large_string`` (a dictionary or a view decoded)."""
        pa = self.table.pa
        t = array.type
        if pa.types.is_string(t) or pa.types.is_large_string(t):
            return array
        return array.cast(pa.large_string())

    def _checked(self, array, column: str, first: int):
        """A string column of one batch, its nulls and bytes that are not UTF-8 refused (naming the row)."""
        if _has_nulls(array):
            raise self._null(array, column, first)
        array = self._plain_strings(array)
        self._utf8(array, column, first)
        return array

    def _checked_list(self, array, column: str, first: int):
        """A list-of-strings reference column of one batch, checked as :meth:`_references` checks it."""
        import pyarrow.compute as pc

        pa = self.table.pa
        if _has_nulls(array):
            raise self._null(array, column, first)
        lengths = pc.list_value_length(array)
        if len(array) and pc.min(lengths).as_py() == 0:
            row = first + pc.index(lengths, 0).as_py()
            raise InputError(f"{self.table.path}, row {row:,}: column {_name(column)} is an empty list (no reference)")
        self._inner_nulls(array, column, first, 1)
        t = array.type
        if not (pa.types.is_string(t.value_type) or pa.types.is_large_string(t.value_type)) or not (
            pa.types.is_list(t) or pa.types.is_large_list(t)
        ):
            array = array.cast(pa.large_list(pa.large_string()))
        self._utf8(array, column, first)
        return array

    def _utf8(self, array, column: str, first: int) -> None:
        pa = self.table.pa
        try:
            array.validate(full=True)
        except pa.ArrowInvalid as exc:
            self._plain(array, column, first)  # names the row of bytes that are not UTF-8
            raise self.table._unreadable(exc) from None

    # each column of a batch as Python values, refusing nulls with the row they are in

    def _row_of_null(self, array, first: int) -> int:  # is_null: a dictionary's null values too
        import numpy as np

        mask = array.is_null().to_numpy(zero_copy_only=False)
        return first + int(np.argmax(mask))

    def _null(self, array, column: str, first: int, what: str = "is null") -> InputError:
        return InputError(f"{self.table.path}, row {self._row_of_null(array, first):,}: column {_name(column)} {what}")

    def _inner_nulls(self, array, column: str, first: int, depth: int) -> None:
        """A null inside the lists of ``array`` (``depth`` levels deep): an error naming its row."""
        import pyarrow.compute as pc

        rows = None
        values = array
        for _ in range(depth):
            parents = pc.list_parent_indices(values)
            rows = parents if rows is None else rows.take(parents)
            values = values.flatten()
            if _has_nulls(values):
                where = pc.filter(rows, values.is_null())
                row = first + int(where[0].as_py())
                raise InputError(f"{self.table.path}, row {row:,}: column {_name(column)} holds a null inside its list")

    def _plain(self, array, column: str, first: int) -> list:
        try:
            return array.to_pylist()
        except UnicodeDecodeError:  # a file not written by pyarrow may hold bytes that are not UTF-8
            for k in range(len(array)):
                try:
                    array[k].as_py()
                except UnicodeDecodeError:
                    raise InputError(
                        f"{self.table.path}, row {first + k:,}: column {_name(column)} is not valid UTF-8"
                    ) from None
            raise

    def _texts(self, array, column: str, first: int, what: str) -> list[str]:
        """One summary a row: a string, or a list of sentences (joined one per line)."""
        if _has_nulls(array):
            raise self._null(array, column, first)
        sep = self.sentence_sep
        if self.shapes[column] == "texts":
            self._inner_nulls(array, column, first, 1)
            return ["\n".join(s) for s in self._plain(array, column, first)]
        values = self._plain(array, column, first)
        return [split_sentences(v, sep) for v in values] if sep else values

    def _references(self, array, column: str, first: int) -> list[list[str]]:
        """The references of each row: a string is one, a list holds several (strings or lists of sentences)."""
        import pyarrow.compute as pc

        if _has_nulls(array):
            raise self._null(array, column, first)
        sep = self.sentence_sep
        shape = self.shapes[column]
        if shape == "text":
            values = self._plain(array, column, first)
            return [[split_sentences(v, sep)] for v in values] if sep else [[v] for v in values]
        lengths = pc.list_value_length(array)
        if pc.min(lengths).as_py() == 0:
            row = first + pc.index(lengths, 0).as_py()
            raise InputError(f"{self.table.path}, row {row:,}: column {_name(column)} is an empty list (no reference)")
        self._inner_nulls(array, column, first, 1 if shape == "texts" else 2)
        values = self._plain(array, column, first)
        if shape == "nested":
            return [["\n".join(sentences) for sentences in row] for row in values]
        return [[split_sentences(v, sep) for v in row] for row in values] if sep else values

    def _ids(self, array, first: int) -> list[str]:
        if _has_nulls(array):
            raise self._null(array, self.id_column, first)
        return [str(v) for v in self._plain(array, self.id_column, first)]


def _has_nulls(array) -> bool:
    """Any null row in a pyarrow array: for a dictionary array, a row whose index is null or names a
    null value of its dictionary too (``null_count`` counts null indices only)."""
    if array.null_count:
        return True
    dictionary = getattr(array, "dictionary", None)
    return dictionary is not None and dictionary.null_count > 0 and array.is_null().true_count > 0


def blank_rows(array) -> list[int]:
    """The 0-based rows of a (chunked) array of strings, or of lists of strings, holding an empty or
    white-space-only text: a blank reference scores 0 (said as the line and JSONL readers say it).
    Read from the buffers: only a text that is empty or starts with white space or a non-ASCII byte
    is looked at whole (a million rows: ~5 ms). pyarrow.compute (22-28 ms to import) is loaded only for a
    list column or a row that may be blank."""
    import numpy as np
    import pyarrow as pa

    if isinstance(array, pa.ChunkedArray):
        found, first = [], 0
        for chunk in array.chunks:
            found += [first + k for k in blank_rows(chunk)]
            first += len(chunk)
        return found
    values, parents = array, None
    if pa.types.is_list(array.type) or pa.types.is_large_list(array.type):
        import pyarrow.compute as pc

        values, parents = array.flatten(), pc.list_parent_indices(array)
    if not (pa.types.is_string(values.type) or pa.types.is_large_string(values.type)):
        values = values.cast(pa.large_string())  # a dictionary or a view: decoded
    n = len(values)
    if not n:
        return []
    width = np.int64 if pa.types.is_large_string(values.type) else np.int32
    _, offset_buffer, data_buffer = values.buffers()
    offsets = np.frombuffer(offset_buffer, dtype=width, count=n + 1, offset=values.offset * width().itemsize)
    data = np.frombuffer(data_buffer, dtype=np.uint8) if data_buffer is not None and data_buffer.size else None
    starts = offsets[:-1]
    empty = offsets[1:] <= starts
    if data is None:
        maybe = empty
    else:
        first = data[np.minimum(starts, data.size - 1)]
        maybe = empty | (first <= 0x20) | (first >= 0x80)  # white space is ASCII <= 0x20 or not ASCII
    rows = np.flatnonzero(maybe)
    if rows.size and not empty[rows].all():
        import pyarrow.compute as pc

        taken = values.take(pa.array(rows))
        rows = rows[empty[rows] | pc.utf8_is_space(taken).to_numpy(zero_copy_only=False)]
    if parents is not None:
        rows = np.unique(np.asarray(parents)[rows])
    return rows.tolist()
