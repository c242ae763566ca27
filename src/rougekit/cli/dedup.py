"""``rougekit dedup``: drop near-duplicate texts by the Self-Instruct rule (rougekit.process.dedup).

    rougekit dedup instructions.txt --threshold 0.7 -o kept.txt --dropped dropped.jsonl
    rougekit dedup data.jsonl --field instruction -o kept.jsonl
    rougekit dedup data.csv --column text -o kept.csv

A text is kept iff its rouge-score rougeL F against every text kept before it is at most the
threshold. Kept rows are written as they were read (same format, same order).
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import sys

from rougekit.cli._options import OneLineParser
from rougekit.errors import InputError
from rougekit.io import inputs
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

input: one text per line; JSONL (one object per line) with --field; CSV with a header row and --column.
--dropped writes one JSON object per dropped row: its index (0-based row) and line, the kept row it
matched best (match_index, match_line, the first in input order on ties), the score and both texts.
""",
    )
    parser.add_argument("file", help="the input ('-' for standard input)")
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--field", help="JSONL input: the field holding the text")
    where.add_argument("--column", help="CSV input: the column holding the text (by its header)")
    parser.add_argument("--threshold", type=float, default=0.7, help="drop a text scoring above this (default 0.7)")
    parser.add_argument(
        "--measure", default="rougeL", help="rougeL (rouge-score's, default) or a rougekit measure such as ROUGE-L"
    )
    parser.add_argument("--stem", action="store_true", help="stem tokens (rougeL: rouge-score's use_stemmer)")
    parser.add_argument("--stopwords", action="store_true", help="remove stopwords (rougekit measures only)")
    parser.add_argument("-o", "--output", default="-", help="where the kept rows go (default: standard output)")
    parser.add_argument("--dropped", help="write the dropped rows with their match and score (JSONL)")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar (shown on a terminal with tqdm)")
    return parser


class Rows:
    """The rows of the input: their texts, 1-based line numbers, and how to write some of them back."""

    def __init__(self, texts: list[str], lines: list[int], raw: list[str], header: str = ""):
        self.texts, self.lines, self.raw, self.header = texts, lines, raw, header

    def write(self, handle, indices: list[int]) -> None:
        handle.write(self.header)
        for i in indices:
            handle.write(self.raw[i])


def _text_lines(data: bytes, path: str) -> Rows:
    label = inputs._label(path)
    texts, lines = [], []
    raw = data.split(b"\n")
    if raw and raw[-1] == b"":
        raw.pop()
    for number, line in enumerate(raw, start=1):
        text = inputs._decode(line.rstrip(b"\r"), path, number, "strict")
        if not text.strip():
            raise InputError(f"{label}, line {number}: empty line (every line is a text: remove it)")
        texts.append(text)
        lines.append(number)
    return Rows(texts, lines, [t + "\n" for t in texts])


def _jsonl(data: bytes, path: str, field: str) -> Rows:
    label = inputs._label(path)
    texts, lines, raw = [], [], []
    for number, line in enumerate(data.split(b"\n"), start=1):
        if not line.strip():
            continue
        decoded = inputs._decode(line.rstrip(b"\r"), path, number, "strict")
        try:
            row = json.loads(decoded)
        except json.JSONDecodeError as exc:
            raise InputError(f"{label}, line {number}: not valid JSON ({exc.msg})") from None
        except RecursionError:
            raise InputError(f"{label}, line {number}: JSON nested too deeply") from None
        if not isinstance(row, dict) or field not in row:
            raise InputError(f"{label}, line {number}: no field {shown(field)}")
        value = row[field]
        if not isinstance(value, str) or not value.strip():
            raise InputError(f"{label}, line {number}: field {shown(field)} must be a non-empty string")
        texts.append(value)
        lines.append(number)
        raw.append(decoded + "\n")
    return Rows(texts, lines, raw)


def _csv(data: bytes, path: str, column: str) -> Rows:
    label = inputs._label(path)
    text = inputs._decode(data, path, 1, "strict")
    reader = csv.reader(io.StringIO(text, newline=""))
    try:
        header = next(reader)
    except StopIteration:
        raise InputError(f"{label}: empty CSV (a header row naming the columns is needed)") from None
    except csv.Error as exc:
        raise InputError(f"{label}, line 1: {exc}") from None
    if column not in header:
        raise InputError(f"{label}: no column {shown(column)} in the header ({', '.join(map(shown, header))})")
    k = header.index(column)
    texts, lines, raw = [], [], []
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(header)
    head = out.getvalue()
    try:
        for row in reader:
            number = reader.line_num
            if not row:
                continue
            if k >= len(row) or not row[k].strip():
                raise InputError(f"{label}, line {number}: column {shown(column)} is missing or empty")
            texts.append(row[k])
            lines.append(number)
            out.seek(0)
            out.truncate()
            writer.writerow(row)
            raw.append(out.getvalue())
    except csv.Error as exc:
        raise InputError(f"{label}, line {reader.line_num}: {exc}") from None
    return Rows(texts, lines, raw, head)


def read_rows(path: str, field: str | None, column: str | None) -> Rows:
    data = inputs.read_bytes(path)
    if field is not None:
        return _jsonl(data, path, field)
    if column is not None:
        return _csv(data, path, column)
    return _text_lines(data, path)


def run(argv: list[str]) -> int:
    args = build_parser().parse_args(argv)
    from rougekit import process

    rows = read_rows(args.file, args.field, args.column)
    options = {"stem": True} if args.stem else {}
    if args.stopwords:
        options["stopwords"] = True
    progress = not args.no_progress and sys.stderr.isatty()
    result = process.dedup(rows.texts, threshold=args.threshold, measure=args.measure, progress=progress, **options)
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
                    "match_index": d.match,
                    "match_line": rows.lines[d.match],
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
