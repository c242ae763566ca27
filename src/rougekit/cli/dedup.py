"""``rougekit dedup``: drop near-duplicate texts by the Self-Instruct rule (rougekit.process.dedup).

    rougekit dedup instructions.txt --threshold 0.7 -o kept.txt --dropped dropped.jsonl
    rougekit dedup data.jsonl --field instruction -o kept.jsonl
    rougekit dedup data.csv --column text -o kept.csv

A text is kept iff its rouge-score rougeL F against every text kept before it is at most the
threshold. Kept rows are written as they were read (same format, same order).
"""

from __future__ import annotations

import argparse
import codecs
import contextlib
import io
import json
import os
import sys

import numpy as np

from rougekit.cli._options import OneLineParser, add_text_place, lang_option, rougekit_measure_option
from rougekit.cli._output import output_file, output_path, write_error
from rougekit.errors import InputError, OptionError
from rougekit.io import arrow, reader, stream
from rougekit.limits import shown


def build_parser() -> argparse.ArgumentParser:
    parser = OneLineParser(
        prog="rougekit dedup",
        description="Drop near-duplicates: keep a text iff its score against every text kept before it is at most "
        "the threshold (Self-Instruct / Alpaca's rule; rouge-score's rougeL by default).",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="""examples:
  rougekit dedup instructions.txt --threshold 0.7 -o kept.txt --dropped dropped.jsonl
  rougekit dedup data.jsonl --field instruction -o kept.jsonl
  rougekit dedup data.csv --column text --measure ROUGE-L --stem -o kept.csv
  rougekit dedup data.parquet --column instruction -o kept.parquet

input: one text per line; JSON with --field (JSONL, a JSON array of objects, or one object whose fields
are lists of one length); CSV with a header row and --column; Parquet or Arrow IPC (known by the
file's first bytes; needs pyarrow) with --column, read a record batch at a time. JSON without --field
and a .csv/.tsv file without --column are refused (their lines are not the texts). Kept rows are
written back as read (the same shape and line endings, in UTF-8; Parquet/Arrow: every column, to -o FILE).
Measures: rougeL or ROUGE-N/L/W/S/SU (BLEU, Ngram, ACCY, PREC-n and ROUGE-BE are refused: not scored
in bulk, minutes where ROUGE-1 takes a second).
--dropped writes one JSON object per dropped row: its index (0-based row), line (where it starts) and
where ("line 3", "item 3", "item 3 (line 5)"), the kept row it matched best (match_index, match_line,
match_where, the first in input order on ties), the score and both texts.
memory and resuming (rougeL): a file of lines, a JSONL file (.jsonl/.ndjson), CSV/TSV and Parquet/Arrow
are read lazily, twice (first their token ids, then the kept rows to write): only the token ids are
held, about 4 bytes a token and 8 a text (-v or a terminal says how many); UTF-16/32 files (by their
byte order mark) too. Standard input ('-') is read as it comes and copied to a temporary file (in
TMPDIR) for the second pass; with --checkpoint, give the same input again to resume (its texts'
SHA-256 is checked). A JSON array of objects is read an item at a time; column-shaped JSON (one
object) is read whole. --checkpoint FILE saves the decisions;
after a Ctrl-C (exit 130) the same command resumes from FILE with the same result as one run.
""",
    )
    parser.add_argument("file", help="the input ('-' for standard input)")
    add_text_place(parser)
    parser.add_argument("--threshold", type=float, default=0.7, help="drop a text scoring above this (default 0.7)")
    parser.add_argument(
        "--measure", default="rougeL", help="rougeL (rouge-score's, default) or ROUGE-N, -L, -W, -S, -SU (e.g. ROUGE-L)"
    )
    parser.add_argument("--stem", action="store_true", help="stem tokens (rougeL: rouge-score's use_stemmer)")
    parser.add_argument("--stopwords", action="store_true", help="remove stopwords (rougekit measures only)")
    parser.add_argument(
        "--lang", metavar="LANG", help="a language preset (rougekit measures only, e.g. --measure ROUGE-L --lang zh)"
    )
    parser.add_argument("-o", "--output", default="-", help="where the kept rows go (default: standard output)")
    parser.add_argument(
        "--dropped", help="write the dropped rows with their match and score (JSONL; '-': standard output)"
    )
    parser.add_argument(
        "--no-progress", action="store_true", help="no progress line (shown on stderr when it is a terminal)"
    )
    parser.add_argument("-q", "--quiet", action="store_true", help="no progress line and no summary on stderr")
    parser.add_argument(
        "-v", "--verbose", action="store_true", help="also say the memory held per text (said on a terminal anyway)"
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=-1,
        metavar="N",
        help="threads searching the kept texts (-1, the default: every core); the decisions do not depend on it",
    )
    parser.add_argument(
        "--checkpoint",
        metavar="FILE",
        help="save the decisions to FILE (every --checkpoint-every seconds and on Ctrl-C) and resume from it "
        "when it exists; removed when the output is written (rougeL only)",
    )
    parser.add_argument(
        "--checkpoint-every", type=float, default=60.0, metavar="SECONDS", help="seconds between saves (default 60)"
    )
    return parser


class Rows:
    """The rows of the input: their texts, 1-based line numbers, where each is (``line 3``,
    ``item 3``), and how to write some of them back (as read: the same shape, line endings and
    bytes of each kept row)."""

    def __init__(self, texts: list[str], lines: list[int], write, places: list[str] | None = None, table=None):
        self.texts, self.lines, self._write = texts, lines, write
        self.places = places if places is not None else [f"line {n}" for n in lines]
        self.table = table  # a Parquet/Arrow file (ColumnFile): kept rows are written in its format
        self.count = len(texts)

    def write(self, handle, indices: list[int]) -> None:
        handle.write(self._write(indices))

    # the interface of the streamed sources (see LineStream)

    def chunks(self, size: int):
        for start in range(0, len(self.texts), size):
            yield self.texts[start : start + size]

    def rows(self):
        """(line, where, text) of every row, in order."""
        return zip(self.lines, self.places, self.texts)

    def write_kept(self, output: str, keep) -> None:
        kept = np.flatnonzero(keep).tolist()
        if self.table is not None:
            self.write_table(output, kept)
            return
        with writing_to(output) as out:
            self.write(out, kept)

    def write_table(self, path: str, indices: list[int]) -> None:
        """The kept rows of a Parquet/Arrow input, every column, a record batch at a time, in its format."""
        table = self.table
        pa = table.pa
        keep = np.zeros(self.count, dtype=bool)
        keep[np.asarray(indices, dtype=np.int64)] = True
        try:
            if table.kind == "parquet":
                import pyarrow.parquet as pq

                writer = pq.ParquetWriter(path, table.schema)
            else:
                writer = pa.ipc.new_file(pa.OSFile(path, "wb"), table.schema)
        except OSError as exc:
            raise InputError(f"cannot write output {path}: {exc.strerror or exc}") from None
        with writer:
            first = 0
            for batch in table.batches(table.columns()):
                n = batch.num_rows
                writer.write_batch(batch.filter(pa.array(keep[first : first + n])))
                first += n


class LineStream:
    """The rows of a UTF-8 file read lazily, a line at a time (as many times as asked): a file of
    lines, one text each (see :class:`JsonlStream` for JSONL). Kept rows are written back as the
    bytes read; a UTF-8 byte order mark is dropped, as when the file is read whole."""

    table = None

    def __init__(self, path: str, source=None, codec: str = "utf-8") -> None:
        self.path = path  # how errors name it ('-': standard input)
        self.source = source if source is not None else path  # a path, or a StdinCopy
        self.codec = codec  # by the byte order mark: UTF-16/32 are decoded as they come
        self.count = 0  # the rows, known after one pass

    def _open(self):
        if isinstance(self.source, stream.StdinCopy):
            return self.source.open()
        try:
            return open(self.source, "rb")
        except OSError as exc:
            raise reader.open_error(self.path, exc) from None

    def _raw(self):
        """(line number, the line's bytes with its ending) of every line."""
        cap = reader.max_line_bytes()
        guard = reader.Guard(self.path, True, json_document=False)  # the whole-file reader's limits
        with self._open() as handle:
            if self.codec != "utf-8":
                yield from stream.wide_lines(handle, self.path, guard)
                return
            number = 0
            while True:
                raw = handle.readline(cap + 1)  # past the limit: the guard stops it
                if not raw:
                    return
                guard.feed(raw)
                number += 1
                if number == 1 and raw.startswith(b"\xef\xbb\xbf"):
                    raw = raw[3:]
                elif number == 1:
                    reader.refuse_not_text(raw, self.path)
                if b"\0" in raw:
                    raise reader.nul_error(self.path, number)
                if raw.find(b"\r", 0, len(raw) - 2) >= 0 and reader.lone_cr_line(raw, number):  # not a CRLF ending
                    reader.warn_lone_cr(self.path, number)
                yield number, raw

    def _text(self, number: int, raw: bytes):
        """The text of a line, or None for a line that holds no row."""
        line = reader.decode_utf8(raw, self.path, first_line=number).rstrip("\n").rstrip("\r")
        if not line.strip():
            raise InputError(f"{reader.label(self.path)}, line {number}: empty line (every line is a text: remove it)")
        return line

    def _rows(self):
        """(line number, bytes, text) of every row."""
        for number, raw in self._raw():
            text = self._text(number, raw)
            if text is not None:
                yield number, raw, text

    def chunks(self, size: int):
        chunk: list[str] = []
        count = 0
        # the text last: (number, bytes, text), or ArrayStream's (line, item number, bytes, text)
        for *_, text in self._rows():
            chunk.append(text)
            count += 1
            if len(chunk) == size:
                yield chunk
                chunk = []
        if chunk:
            yield chunk
        self.count = count

    def rows(self):
        for number, _, text in self._rows():
            yield number, f"line {number}", text

    def write_kept(self, output: str, keep) -> None:
        """The kept rows as read."""
        self._write_bytes(output, (raw for index, (_, raw, _) in enumerate(self._rows()) if keep[index]))

    def _write_bytes(self, output: str, pieces) -> None:
        """Write the bytes of ``pieces`` to ``output`` (``-``: standard output)."""
        with writing_to(output, binary=True) as out:
            for piece in pieces:
                out.write(piece)


@contextlib.contextmanager
def writing_to(path: str, binary: bool = False, what: str = "output"):
    """``path`` open to write (``-``: standard output). In :func:`run` it is the temporary file of an
    output (:func:`rougekit.cli._output.output_path`): written whole, then moved onto the file named,
    so the input itself may be named (it is read again while the kept rows are written)."""
    if path == "-":
        with output_file(None, what, binary=binary) as out:
            yield out
        return
    try:
        out = open(path, "wb") if binary else open(path, "w", encoding="utf-8", errors="surrogateescape")
    except OSError as exc:
        raise write_error(path, exc, what) from None
    with out:
        yield out


class JsonlStream(LineStream):
    """The rows of a JSONL file read lazily (one JSON object a line; blank lines hold no row)."""

    def __init__(self, path: str, field: str, source=None, codec: str = "utf-8") -> None:
        super().__init__(path, source, codec)
        self.field = field

    def _text(self, number: int, raw: bytes):
        line = reader.decode_utf8(raw, self.path, first_line=number)
        if not line.strip():
            return None
        row = reader.loads(line.rstrip("\r\n"), self.path, number)
        where = f"{reader.label(self.path)}, line {number}"
        if not isinstance(row, dict):
            raise InputError(f"{where}: a JSON row must be an object, got {type(row).__name__}")
        return _field_text(row, self.field, where)


def _field_text(row: dict, field: str, where) -> str:
    """The row's text under ``field`` (an InputError at ``where``, a str or a function that tells it,
    if it is missing or blank)."""
    value = reader.field_value(row, field)
    if isinstance(value, str) and value.strip():
        return value
    place = where if isinstance(where, str) else where()
    if value is reader.MISSING:
        raise reader.no_field(place, field, row)
    raise InputError(f"{place}: field {shown(field)} must be a non-empty string")


class ArrayStream(LineStream):
    """The rows of a JSON array of objects read an item at a time (:func:`rougekit.io.stream.array_items`:
    the items, places and errors of the whole-file reader). Kept rows are written back as that
    reader writes them: ``[``, the kept items as read, one a line, ``]``."""

    def __init__(self, path: str, field: str, source=None, codec: str = "utf-8") -> None:
        super().__init__(path, source, codec)
        self.field = field
        self._shape: tuple[bool, bool] | None = None

    def _chunks_of_text(self):
        guard = reader.Guard(self.path, True)  # a JSON document: no limit per line
        with self._open() as handle:
            yield from stream.decoded_chunks(handle, self.path, guard)

    def _rows(self):
        """(line, item number, raw item, text) of every row; the first pass learns the array's shape
        as it reads (no pass of its own), which only the places of its errors need before the end."""
        shape = stream.Shape() if self._shape is None else None
        chunks = self._chunks_of_text()
        items = stream.array_items(shape.watch(chunks) if shape else chunks, self.path)
        for k, (line, item, raw) in enumerate(items, start=1):
            if not isinstance(item, dict):
                raise InputError(f"{self._where(k, line)}: each row must be a JSON object, not {reader.kind_of(item)}")
            yield line, k, raw, _field_text(item, self.field, lambda: self._where(k, line))
        if shape is not None:
            self._shape = shape.result

    def _place(self, k: int, line: int) -> str:
        """Item ``k``'s place: its number, and its line when the array spans several."""
        if self._shape is None:  # an error in the first pass: one quick pass for the shape
            self._shape = stream.shape_of(self._chunks_of_text())
        return f"item {k}" + ("" if self._shape[0] else f" (line {line})")

    def _where(self, k: int, line: int) -> str:
        return f"{reader.label(self.path)}, {self._place(k, line)}"

    def rows(self):
        for line, k, _, text in self._rows():
            yield line, self._place(k, line), text

    def write_kept(self, output: str, keep) -> None:
        end = "\r\n" if self._shape is not None and self._shape[1] else "\n"

        def pieces():
            yield ("[" + end).encode("utf-8")
            first = True
            for index, (_, _, raw, _) in enumerate(self._rows()):
                if keep[index]:
                    yield (("" if first else "," + end) + raw).encode("utf-8", "surrogatepass")
                    first = False
            yield (end + "]" + end).encode("utf-8")

        self._write_bytes(output, pieces())


class CsvStream(LineStream):
    """The rows of a UTF-8 CSV/TSV file's ``column`` read lazily (:class:`rougekit.io.reader.CsvRows`:
    the same rows and errors as the whole-file reader). Kept rows are written back after the
    header, as read."""

    def __init__(self, path: str, column: str, source=None, codec: str = "utf-8") -> None:
        super().__init__(path, source, codec)
        self.column = column

    def _physical(self):
        """The file's lines as the csv module counts them (``\\r`` alone also ends one)."""
        for number, raw in self._raw():
            line = reader.decode_utf8(raw, self.path, first_line=number)
            cr = line.find("\r")
            if cr < 0 or (cr == len(line) - 2 and line.endswith("\n")):
                yield line  # no \r, or only the one of its \r\n ending
            else:
                yield from io.StringIO(line, newline="").readlines()

    def _table(self) -> reader.CsvRows:
        delimiter = "\t" if self.path.lower().endswith(".tsv") else ","
        return reader.CsvRows(self._physical(), self.path, delimiter, (self.column,))

    def _rows(self):
        for record in self._table():
            value = record.row[self.column]
            if not value.strip():
                raise InputError(f"{record.where}: column {shown(self.column)} is missing or empty")
            yield record.line, record.raw.encode("utf-8", "surrogateescape"), value

    def write_kept(self, output: str, keep) -> None:
        table = self._table()

        def pieces():
            yield table.header.encode("utf-8", "surrogateescape")
            for index, record in enumerate(table):
                if keep[index]:
                    yield record.raw.encode("utf-8", "surrogateescape")

        self._write_bytes(output, pieces())


def _streamed(path: str, field: str | None, column: str | None, copy=None):
    """A lazy reader of ``path`` (``copy``: standard input's :class:`StdinCopy`) when it is a file of
    lines (no option), CSV (``column``) or JSONL (``field``, not named .json, its first row an
    object on its line), in UTF-8 or UTF-16/32 (by its byte order mark); None otherwise (read whole)."""
    if copy is None and (path == reader.STDIN or not os.path.isfile(path)):
        return None
    named = path.lower()
    if column is None and (named.endswith((".csv", ".tsv")) or (field is None and named.endswith(".json"))):
        return None
    if copy is not None:
        head = copy.head
    else:
        try:
            with open(path, "rb") as handle:
                head = handle.read(1 << 16)
        except OSError:
            return None
    codec, _, skip = reader.bom(head)
    source = copy if copy is not None else path
    if column is not None:
        return CsvStream(path, column, source, codec) if field is None else None
    first = codecs.getincrementaldecoder(codec)("replace").decode(head[skip:]).lstrip()
    if field is None:
        if named.endswith((".jsonl", ".ndjson")):
            return None  # JSON, refused without --field by the whole-file reader
        if reader.json_start(first, whole=len(head) < 1 << 16):
            return None  # JSON rows or a document (the whole-file reader refuses them without --field)
        if reader.cr_only(head):
            return None  # lines ending in \r (classic Mac): the whole-file reader splits them
        return LineStream(path, source, codec)  # text, though its first line may start with [ or { ("[INST] ...")
    if first[:1] == "[":
        return ArrayStream(path, field, source, codec)  # a JSON array whatever its name
    if named.endswith(".json") or first[:1] != "{":
        return None
    line = first.split("\n", 1)[0]
    try:
        if not isinstance(json.loads(line), dict):
            return None
    except (ValueError, RecursionError):
        return None  # one object over several lines: a document
    # its first line one object and more after it: JSON rows for the whole-file reader too
    return JsonlStream(path, field, source, codec)


class TableStream(Rows):
    """The rows of a Parquet or Arrow IPC file's column, read a record batch at a time (each pass)."""

    def __init__(self, table, column: str) -> None:
        super().__init__([], [], None, [], table)
        self.column = column

    def chunks(self, size: int):
        count = 0
        for batch in arrow.PairColumns(self.table, [self.column], []).batches(references=False):
            values = batch.candidates[self.column]
            for k, value in enumerate(values):
                if not value.strip():
                    where = f"{self.table.path}, row {batch.first + k:,}"
                    raise InputError(f"{where}: column {shown(self.column)} is empty")
            count += len(values)
            yield values
        self.count = count

    def rows(self):
        n = 0
        for chunk in self.chunks(0):
            for text in chunk:
                n += 1
                yield n, f"row {n}", text


def _text_lines(text: str, path: str) -> Rows:
    raw = reader.lines_with_ends(text)
    texts = reader.lines(text, path)
    for number, line in enumerate(texts, start=1):
        if not line.strip():
            raise InputError(f"{reader.label(path)}, line {number}: empty line (every line is a text: remove it)")
    return Rows(texts, list(range(1, len(texts) + 1)), lambda kept: "".join(raw[i] for i in kept))


def _json_rows(text: str, path: str, field: str) -> Rows:
    found = reader.records(text, path, [field])
    texts, lines = [], []
    for r in found.rows:
        value = reader.field_value(r.row, field)
        if value is reader.MISSING:
            raise reader.no_field(r.where, field, r.row)
        if not isinstance(value, str) or not value.strip():
            raise InputError(f"{r.where}: field {shown(field)} must be a non-empty string")
        texts.append(value)
        lines.append(r.line)
    rows = found.rows
    if found.shape == "array":
        end = "\r\n" if "\r\n" in text else "\n"

        def write(kept: list[int]) -> str:
            return "[" + end + ("," + end).join(rows[i].raw for i in kept) + end + "]" + end

    elif found.shape == "columns":
        columns = found.columns
        key = reader.column_keys(columns, [field])[0]  # "data.text": the column sits in the object "data"
        parts = key.split(".") if key not in columns else [key]
        holders = {".".join(parts[:k]) for k in range(len(parts))}  # the objects whose lists are all columns

        def lists(obj: dict, at: str = ""):
            for name, value in obj.items():
                where = f"{at}.{name}" if at else name
                if isinstance(value, list):
                    yield where, value
                elif isinstance(value, dict) and where in holders:
                    yield from lists(value, where)

        for name, value in lists(columns):  # written back sliced by position: every such list is a column
            if len(value) != len(rows):
                raise InputError(
                    f"{reader.label(path)}: field {shown(name)} is a list of {len(value)} items but {shown(field)} "
                    f"has {len(rows)}: as columns every list needs one length (the kept rows are written back by "
                    "position)"
                )

        def cut(obj: dict, kept: list[int], at: str = "") -> dict:
            out = {}
            for name, value in obj.items():
                where = f"{at}.{name}" if at else name
                if isinstance(value, list):
                    out[name] = [value[i] for i in kept]
                elif isinstance(value, dict) and where in holders:
                    out[name] = cut(value, kept, where)
                else:
                    out[name] = value
            return out

        def write(kept: list[int]) -> str:
            return json.dumps(cut(columns, kept), ensure_ascii=False) + "\n"

    else:

        def write(kept: list[int]) -> str:
            return "".join(rows[i].raw for i in kept)

    return Rows(texts, lines, write, [r.at for r in rows])


def _csv(text: str, path: str, column: str) -> Rows:
    found = reader.csv_records(text, path, "\t" if path.lower().endswith(".tsv") else ",", (column,))
    texts, lines = [], []
    for r in found.rows:
        value = r.row[column]
        if not value.strip():
            raise InputError(f"{r.where}: column {shown(column)} is missing or empty")
        texts.append(value)
        lines.append(r.line)
    rows = found.rows
    return Rows(texts, lines, lambda kept: found.header + "".join(rows[i].raw for i in kept), [r.at for r in rows])


def _table_rows(path: str, kind: str, field: str | None, column: str | None) -> TableStream:
    """The texts of a Parquet or Arrow IPC file's ``column``, read a record batch at a time."""
    table = arrow.ColumnFile(path, kind, option=f"a {'Parquet' if kind == 'parquet' else 'Arrow'} file")
    if column is None:
        names = ", ".join(repr(n) for n in table.columns()[:20])
        flag = "--column" if field is None else "--column (not --field)"
        raise OptionError(f"{path} is {table.what}: give {flag} with the column of the text (columns: {names})")
    table.column_type(column, "--column")
    return TableStream(table, column)


def read_rows(path: str, field: str | None, column: str | None, lazy: bool = False):
    """The texts of a file: lines, JSON rows (``field``: JSONL, a JSON array or column-shaped
    JSON), CSV rows (``column``) or the rows of a Parquet or Arrow IPC file (``column``, found by
    the file's first bytes). JSON without ``field`` and a .csv/.tsv file without ``column`` are
    refused: their lines are not the texts. ``lazy``: a file of lines, JSONL, CSV and Parquet/Arrow
    come as a reader that reads them on demand (:class:`LineStream`, :class:`CsvStream`,
    :class:`TableStream`), not as their texts in memory."""
    if path != reader.STDIN and arrow.is_pipe(path):  # its first bytes, read to know its kind, would be gone
        raise InputError(
            f"{path} is a pipe (e.g. <(...)), which can be read only once: give a file, or pipe the texts to "
            "standard input ('-')"
        )
    kind = arrow.sniff(path) if path != reader.STDIN else None
    if kind is not None:
        table = _table_rows(path, kind, field, column)
        if lazy:
            return table
        texts = [text for chunk in table.chunks(0) for text in chunk]
        numbers = list(range(1, len(texts) + 1))
        return Rows(texts, numbers, None, [f"row {n}" for n in numbers], table.table)
    copy = stream.StdinCopy() if lazy and path == reader.STDIN else None
    lazily = _streamed(path, field, column, copy) if lazy else None
    if lazily is not None:
        return lazily
    if copy is not None:  # read whole after all, from its copy
        with copy.open() as handle:
            text = reader.decode(reader.read_bytes(path, handle=handle), path)
        copy.remove()
    else:
        text = reader.read_text(path)
    if field is not None:
        return _json_rows(text, path, field)
    if column is not None:
        return _csv(text, path, column)
    if reader.looks_like_json(text, path):
        first = reader.records(text, path).rows
        names = reader.field_names(first[0].row) if first else "none"
        raise OptionError(f"{reader.label(path)} holds JSON rows: give --field with the field of the text ({names})")
    if path.lower().endswith((".csv", ".tsv")):
        header = reader.csv_records(text, path, "\t" if path.lower().endswith(".tsv") else ",").columns or {}
        names = reader.header_names(list(header))
        raise OptionError(f"{reader.label(path)} is CSV: give --column with the column of the text ({names})")
    return _text_lines(text, path)


_NAMED = {
    ".parquet": "parquet",
    ".arrow": "arrow",
    ".arrows": "arrow",
    ".feather": "arrow",
    ".ipc": "arrow",
    ".csv": "csv",
    ".tsv": "csv",
    ".json": "json",
    ".jsonl": "json",
    ".ndjson": "json",
    ".txt": "text",
}
_FORMAT_NAMES = {
    "parquet": "a Parquet file",
    "arrow": "an Arrow IPC file",
    "csv": "CSV",
    "json": "JSON",
    "text": "lines",
}


def _output_named_as_read(output: str, args, table) -> None:
    """The kept rows are written in the input's format, uncompressed: an -o name that says another
    format (or a compression) is refused (a pipeline would read Parquet bytes as CSV far from here)."""
    if output == "-":
        return
    read = table.kind if table is not None else "json" if args.field else "csv" if args.column else "text"
    suffix = os.path.splitext(output.lower())[1]
    if suffix in (".gz", ".bz2", ".xz", ".zst", ".zip"):
        raise OptionError(f"-o {output}: the kept rows are written uncompressed; give -o a name without {suffix}")
    named = _NAMED.get(suffix)
    if named is not None and named != read:
        raise OptionError(
            f"-o {output}: the kept rows are written as read, as {_FORMAT_NAMES[read]}; give -o a name that says so"
        )


def check_measure(measure: str) -> None:
    """Refuse the measures the all-pairs commands cannot score fast (seconds where ROUGE-1 takes
    a fraction of one on 400 texts): those with one value per pair (BLEU, Ngram(i,j), ACCY, PREC-n,
    ...) and ROUGE-BE (its basic elements are parsed again for every pair)."""
    from rougekit.process.encode import parse_measure

    parsed = parse_measure(measure)
    if isinstance(parsed, str):
        return
    if parsed.single_valued or parsed.name.startswith("ROUGE-BE"):
        raise OptionError(
            f"--measure {parsed.name}: dedup and extract take rougeL or ROUGE-N, -L, -W, -S or -SU "
            f"({parsed.name} is not scored in bulk: too slow for all pairs)"
        )


def _same_file(a: str, b: str) -> bool:
    """Whether two output names are one file (the same path, or links to one)."""
    if os.path.realpath(a) == os.path.realpath(b):
        return True
    try:
        return os.path.samefile(a, b)
    except OSError:  # one does not exist yet
        return False


def run(argv: list[str], interrupt=None) -> int:
    """The command; ``interrupt(decided)`` is called after each block of decisions (tests)."""
    args = build_parser().parse_args(argv)
    from rougekit import process
    from rougekit.cli import _dedup_run as engine

    check_measure(args.measure)
    if args.dropped == "-" and args.output == "-":
        raise OptionError("--dropped - and the kept rows both go to standard output: give one of them a file (-o FILE)")
    if (
        args.dropped
        and args.dropped != "-"
        and args.output
        and args.output != "-"
        and _same_file(args.dropped, args.output)
    ):
        raise OptionError(f"--dropped {args.dropped} is the -o file too: give the dropped rows a file of their own")
    engine.check_checkpoint_options(args.measure, args.checkpoint)
    if not args.checkpoint_every > 0:
        raise OptionError(f"--checkpoint-every must be a positive number of seconds, got {args.checkpoint_every}")
    process.blocks.workers_count(args.workers)  # refused before the input is read
    fast = args.measure == "rougeL"
    rows = read_rows(args.file, args.field, args.column, lazy=fast)
    if rows.table is not None and args.output == "-":
        raise OptionError(f"the kept rows of {rows.table.what} are written as one: give -o FILE")
    _output_named_as_read(args.output, args, rows.table)
    options = {"stem": True} if args.stem else {}
    if args.lang:
        options["lang"] = lang_option(args.lang, args.measure)
    if args.stopwords:
        rougekit_measure_option("--stopwords", args.measure)
        options["stopwords"] = True
    terminal = sys.stderr.isatty() and not args.quiet
    progress = engine.Progress(terminal and not args.no_progress)
    if fast:
        outcome = engine.run_rule(
            rows,
            threshold=process.blocks.check_threshold(args.threshold),
            options=options,
            progress=progress,
            checkpoint=args.checkpoint,
            every=args.checkpoint_every,
            interrupt=interrupt,
            workers=args.workers,
        )
        match, score, name = outcome.match, outcome.score, "rougeL"
    else:
        result = process.dedup(
            rows.texts,
            threshold=args.threshold,
            measure=args.measure,
            progress=progress.shown,
            workers=args.workers,
            **options,
        )
        match = np.full(len(result), -1, dtype=np.int64)
        score = np.zeros(len(result), dtype=np.float64)
        for d in result.dropped:
            match[d.index], score[d.index] = d.match, d.score
        name = result.measure
    keep = match < 0
    # both outputs written whole or not at all, moved onto their files together at the end: a run
    # stopped while writing (Ctrl-C, a full disk) leaves neither half written (the checkpoint stays)
    with contextlib.ExitStack() as files:
        kept_to = args.output if args.output == "-" else files.enter_context(output_path(args.output))
        if args.dropped:
            dropped_to = (
                "-" if args.dropped == "-" else files.enter_context(output_path(args.dropped, "--dropped file"))
            )
        rows.write_kept(kept_to, keep)
        if args.dropped:
            _write_dropped(dropped_to, rows, match, score)
    if args.checkpoint:
        engine.Checkpoint(args.checkpoint, {}).remove()
    n, kept = len(match), int(keep.sum())
    if not args.quiet:
        print(
            f"rougekit dedup: kept {kept} of {n} texts, dropped {n - kept} ({name} F > {float(args.threshold)})",
            file=sys.stderr,
        )
        if fast and (terminal or args.verbose):
            peak = engine.peak_memory_mb()
            print(
                f"rougekit dedup: held {outcome.held_bytes / max(1, n):.0f} bytes per text (token ids)"
                + (f"; peak memory {peak:,.0f} MB" if peak is not None else ""),
                file=sys.stderr,
            )
    return 0


def _write_dropped(path: str, rows, match: np.ndarray, score: np.ndarray) -> None:
    """One JSON line per dropped row, in input order, in one pass over the rows (holding the texts of
    the kept rows some row matched, until the end)."""
    wanted = set(match[match >= 0].tolist())
    seen: dict[int, tuple] = {}
    with writing_to(path, what="--dropped file") as handle:
        for index, (line, where, text) in enumerate(rows.rows()):
            if index in wanted:
                seen[index] = (line, where, text)
            j = int(match[index])
            if j < 0:
                continue
            match_line, match_where, match_text = seen[j]
            record = {
                "index": index,
                "line": line,
                "where": where,
                "match_index": j,
                "match_line": match_line,
                "match_where": match_where,
                "score": float(score[index]),
                "text": text,
                "match": match_text,
            }
            handle.write(json.dumps(record, ensure_ascii=False) + "\n")
