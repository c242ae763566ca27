"""``rougekit dedup``: drop near-duplicate texts by the Self-Instruct rule (rougekit.process.dedup).

    rougekit dedup instructions.txt --threshold 0.7 -o kept.txt --dropped dropped.jsonl
    rougekit dedup data.jsonl --field instruction -o kept.jsonl
    rougekit dedup data.csv --column text -o kept.csv

A text is kept iff its rouge-score rougeL F against every text kept before it is at most the
threshold. Kept rows are written as they were read (same format, same order).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys

from rougekit.cli._options import OneLineParser
from rougekit.errors import InputError, OptionError
from rougekit.io import arrow, reader
from rougekit.io.files import open_output
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
written back as read (the same shape and line endings; Parquet/Arrow: every column, to -o FILE).
Measures: rougeL or ROUGE-N/L/W/S/SU (BLEU, Ngram, ACCY, PREC-n and ROUGE-BE are refused: not scored
in bulk, minutes where ROUGE-1 takes a second).
--dropped writes one JSON object per dropped row: its index (0-based row), line (where it starts) and
where ("line 3", "item 3", "item 3 (line 5)"), the kept row it matched best (match_index, match_line,
match_where, the first in input order on ties), the score and both texts.
""",
    )
    parser.add_argument("file", help="the input ('-' for standard input)")
    where = parser.add_mutually_exclusive_group()
    where.add_argument(
        "--field", help="JSON input (JSONL, a JSON array or column-shaped JSON): the field holding the text"
    )
    where.add_argument(
        "--column", help="CSV, Parquet or Arrow input: the column holding the text (by its header or name)"
    )
    parser.add_argument("--threshold", type=float, default=0.7, help="drop a text scoring above this (default 0.7)")
    parser.add_argument(
        "--measure", default="rougeL", help="rougeL (rouge-score's, default) or ROUGE-N, -L, -W, -S, -SU (e.g. ROUGE-L)"
    )
    parser.add_argument("--stem", action="store_true", help="stem tokens (rougeL: rouge-score's use_stemmer)")
    parser.add_argument("--stopwords", action="store_true", help="remove stopwords (rougekit measures only)")
    parser.add_argument("-o", "--output", default="-", help="where the kept rows go (default: standard output)")
    parser.add_argument("--dropped", help="write the dropped rows with their match and score (JSONL)")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar (shown on a terminal with tqdm)")
    return parser


class Rows:
    """The rows of the input: their texts, 1-based line numbers, where each is (``line 3``,
    ``item 3``), and how to write some of them back (as read: the same shape, line endings and
    bytes of each kept row)."""

    def __init__(self, texts: list[str], lines: list[int], write, places: list[str] | None = None, table=None):
        self.texts, self.lines, self._write = texts, lines, write
        self.places = places if places is not None else [f"line {n}" for n in lines]
        self.table = table  # a Parquet/Arrow file (ColumnFile): kept rows are written in its format

    def write(self, handle, indices: list[int]) -> None:
        handle.write(self._write(indices))

    def write_table(self, path: str, indices: list[int]) -> None:
        """The kept rows of a Parquet/Arrow input, every column, a record batch at a time, in its format."""
        import numpy as np

        table = self.table
        pa = table.pa
        keep = np.zeros(len(self.texts), dtype=bool)
        keep[np.asarray(indices, dtype=np.int64)] = True
        # written beside ``path`` and moved over it at the end: the input is read again while writing,
        # so ``-o`` naming the input itself must not truncate it first, and a failed run leaves no part
        partial = os.path.join(os.path.dirname(os.path.abspath(path)), f".{os.path.basename(path)}.rougekit-partial")
        try:
            if table.kind == "parquet":
                import pyarrow.parquet as pq

                writer = pq.ParquetWriter(partial, table.schema)
            else:
                writer = pa.ipc.new_file(pa.OSFile(partial, "wb"), table.schema)
        except OSError as exc:
            raise InputError(f"cannot write output {path}: {exc.strerror or exc}") from None
        try:
            with writer:
                first = 0
                for batch in table.batches(table.columns()):
                    n = batch.num_rows
                    writer.write_batch(batch.filter(pa.array(keep[first : first + n])))
                    first += n
            os.replace(partial, path)
        except BaseException:
            with contextlib.suppress(OSError):
                os.remove(partial)
            raise


def _text_lines(text: str, path: str) -> Rows:
    raw = reader.lines_with_ends(text)
    texts = reader.lines(text)
    for number, line in enumerate(texts, start=1):
        if not line.strip():
            raise InputError(f"{reader.label(path)}, line {number}: empty line (every line is a text: remove it)")
    return Rows(texts, list(range(1, len(texts) + 1)), lambda kept: "".join(raw[i] for i in kept))


def _json_rows(text: str, path: str, field: str) -> Rows:
    found = reader.records(text, path, [field])
    texts, lines = [], []
    for r in found.rows:
        if field not in r.row:
            raise reader.no_field(r.where, field, r.row)
        value = r.row[field]
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
        for name, value in columns.items():  # written back sliced by position: every list is a column
            if isinstance(value, list) and len(value) != len(rows):
                raise InputError(
                    f"{reader.label(path)}: field {shown(name)} is a list of {len(value)} items but {shown(field)} "
                    f"has {len(rows)}: as columns every list needs one length (the kept rows are written back by "
                    "position)"
                )

        def write(kept: list[int]) -> str:
            out = {k: ([v[i] for i in kept] if isinstance(v, list) else v) for k, v in columns.items()}
            return json.dumps(out, ensure_ascii=False) + "\n"

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


def _table_rows(path: str, kind: str, field: str | None, column: str | None) -> Rows:
    """The texts of a Parquet or Arrow IPC file's ``column``, read a record batch at a time."""
    table = arrow.ColumnFile(path, kind, option=f"a {'Parquet' if kind == 'parquet' else 'Arrow'} file")
    if column is None:
        names = ", ".join(repr(n) for n in table.columns()[:20])
        flag = "--column" if field is None else "--column (not --field)"
        raise OptionError(f"{path} is {table.what}: give {flag} with the column of the text (columns: {names})")
    table.column_type(column, "--column")
    texts = arrow.PairColumns(table, [column], []).batches(references=False)
    out: list[str] = []
    for batch in texts:
        values = batch.candidates[column]
        for k, value in enumerate(values):
            if not value.strip():
                raise InputError(f"{path}, row {batch.first + k:,}: column {shown(column)} is empty")
        out.extend(values)
    numbers = list(range(1, len(out) + 1))
    return Rows(out, numbers, None, [f"row {n}" for n in numbers], table)


def read_rows(path: str, field: str | None, column: str | None) -> Rows:
    """The texts of a file: lines, JSON rows (``field``: JSONL, a JSON array or column-shaped
    JSON), CSV rows (``column``) or the rows of a Parquet or Arrow IPC file (``column``, found by
    the file's first bytes). JSON without ``field`` and a .csv/.tsv file without ``column`` are
    refused: their lines are not the texts."""
    kind = arrow.sniff(path) if path != reader.STDIN else None
    if kind is not None:
        return _table_rows(path, kind, field, column)
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


def run(argv: list[str]) -> int:
    args = build_parser().parse_args(argv)
    from rougekit import process

    check_measure(args.measure)
    rows = read_rows(args.file, args.field, args.column)
    if rows.table is not None and args.output == "-":
        raise OptionError(f"the kept rows of {rows.table.what} are written as one: give -o FILE")
    options = {"stem": True} if args.stem else {}
    if args.stopwords:
        options["stopwords"] = True
    progress = not args.no_progress and sys.stderr.isatty()
    result = process.dedup(rows.texts, threshold=args.threshold, measure=args.measure, progress=progress, **options)
    if rows.table is not None:
        rows.write_table(args.output, result.kept)
    else:
        out = sys.stdout if args.output == "-" else open_output(args.output, "output")
        try:
            rows.write(out, result.kept)
        finally:
            if out is not sys.stdout:
                out.close()
    if args.dropped:
        with open_output(args.dropped, "--dropped file") as handle:
            for d in result.dropped:
                record = {
                    "index": d.index,
                    "line": rows.lines[d.index],
                    "where": rows.places[d.index],
                    "match_index": d.match,
                    "match_line": rows.lines[d.match],
                    "match_where": rows.places[d.match],
                    "score": d.score,
                    "text": rows.texts[d.index],
                    "match": rows.texts[d.match],
                }
                handle.write(json.dumps(record, ensure_ascii=False) + "\n")
    print(
        f"rougekit dedup: kept {len(result.kept)} of {len(result)} texts, dropped {len(result.dropped)} "
        f"({result.measure} F > {result.threshold})",
        file=sys.stderr,
    )
    return 0
