"""Reading candidates and references: line-aligned files, JSON/JSONL, and folders of files.

Every reader names the file and line of bad input; nothing is dropped or shifted silently.
The path ``-`` is standard input.
"""

from __future__ import annotations

import contextlib
import csv
import itertools
import os
import re
from pathlib import Path

from rougekit.errors import InputError
from rougekit.io import reader
from rougekit.io.files import open_binary
from rougekit.io.reader import STDIN

_HINT = "use --encoding-errors replace to read it anyway"


def _open(path: str):
    return contextlib.nullcontext(reader.stdin_buffer()) if path == STDIN else open_binary(path)


def _label(path: str) -> str:
    return reader.label(path)


def split_sentences(text: str, sentence_sep: str | None) -> str:
    """A summary's sentences one per line: ``sentence_sep`` (e.g. ``<q>``) marks breaks inside a line."""
    if not sentence_sep:
        return text
    return "\n".join(part.strip() for part in text.split(sentence_sep))


def read_lines(path: str, sentence_sep: str | None = None, errors: str = "strict") -> list[str]:
    """One summary per line; ``sentence_sep`` (e.g. ``<q>``) marks sentence breaks inside a line."""
    text = reader.read_text(path, errors=errors, hint=_HINT)
    return [split_sentences(line, sentence_sep) for line in reader.lines(text, path)]


def aligned(
    candidates: list[str], cand_path: str, references: list[list[str]], ref_paths: list[str]
) -> list[list[str]]:
    """Check that every reference file has one line per candidate; return references per candidate.

    Empty files are an error: there would be nothing to score.
    """
    if not candidates:
        raise InputError(f"{_label(cand_path)} is empty: no summaries to score")
    reader.warn_blank(cand_path, candidates)
    for refs, path in zip(references, ref_paths):
        if len(refs) != len(candidates):
            raise InputError(f"{_label(path)} has {len(refs)} lines but {_label(cand_path)} has {len(candidates)}")
    for refs, path in zip(references, ref_paths):  # a blank reference is a missing or shifted row, most often
        reader.warn_blank(path, refs, "reference line")
    return [list(group) for group in zip(*references)] if references else [[] for _ in candidates]


def _sentences(value, where: str, name: str, sentence_sep: str | None) -> str:
    """One summary: a string (sentences on lines or split by ``sentence_sep``) or a list of sentences."""
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        value = "\n".join(value)
    elif isinstance(value, str):
        value = split_sentences(value, sentence_sep)
    elif isinstance(value, dict):
        more = _field_of(value, "--candidate-field", name)
        raise InputError(
            f"{where}: field {name!r} is an object: it must be a string or a list of sentence strings{more}"
        )
    else:
        raise InputError(f"{where}: field {name!r} must be a string or a list of sentence strings")
    return _unicode(value, where, name)


def _field_of(value: dict, option: str, name: str) -> str:
    """The hint for an object where a text was expected: the option that reads its text field
    (``text``, else its first string field), or nothing when it has none."""
    texts = [key for key, v in value.items() if isinstance(v, str)]
    key = "text" if "text" in texts else (texts[0] if texts else "")
    return f" (to read its {key!r}: {option} {name}.{key})" if texts else ""


def _unicode(value: str, where: str, name: str) -> str:
    """``value``, refused when it holds a lone surrogate (no output could write it)."""
    if not value.isascii():
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:  # a \\uD800-style escape: JSON allows it, Unicode text does not
            raise InputError(f"{where}: field {name!r} holds a lone surrogate") from None
    return value


def _is_sentences(value) -> bool:
    return isinstance(value, str) or (isinstance(value, list) and all(isinstance(v, str) for v in value))


def _is_references(value) -> bool:
    return isinstance(value, str) or (isinstance(value, list) and bool(value) and all(map(_is_sentences, value)))


def _references(value, where: str, name: str, sentence_sep: str | None) -> list[str]:
    """A reference field: a string is one reference, a list holds several (each a string or a
    list of sentence strings)."""
    if isinstance(value, str):
        return [_sentences(value, where, name, sentence_sep)]
    if isinstance(value, dict):
        more = _field_of(value, "--reference-field", name)
        raise InputError(
            f"{where}: field {name!r} is an object: it must be a string (one reference) or a non-empty list of "
            f"references{more}"
        )
    if not isinstance(value, list) or not value:
        raise InputError(f"{where}: field {name!r} must be a string (one reference) or a non-empty list of references")
    for k, v in enumerate(value):
        if not _is_sentences(v):
            raise InputError(f"{where}: {_item_error(name, k, v)}")
    return [_sentences(v, where, name, sentence_sep) for v in value]


def _item_error(name: str, k: int, value) -> str:
    """What is wrong with item ``k`` of the reference field ``name`` (neither a string nor a list of
    sentence strings), with the dotted field that reads the text of an object."""
    what = "an object" if isinstance(value, dict) else reader.kind_of(value)
    if isinstance(value, list):
        bad = next(i for i, s in enumerate(value) if not isinstance(s, str))
        what = f"a list holding {reader.kind_of(value[bad])} (its item {bad})"
    message = f"item {k} of field {name!r} is {what}: each reference is a string or a list of sentence strings"
    if isinstance(value, dict):
        texts = [key for key, v in value.items() if isinstance(v, str)]
        if texts:
            key = "text" if "text" in texts else texts[0]
            each = f"{name}.{key}" if "*" in name.split(".") else f"{name}.*.{key}"  # refs.*.text: items of a list
            message += f" (to read each item's {key!r}: --reference-field {each})"
    return message


def read_jsonl(
    path: str,
    candidate_fields: list[str],
    reference_fields: list[str],
    id_field: str | None = None,
    errors: str = "strict",
    sentence_sep: str | None = None,
    json_shape: str | None = None,
    unique_ids: bool = False,
) -> tuple[list[str], dict[str, list[str]], list[list[str]]]:
    """Rows of a JSONL file (or a JSON list of objects): (ids, {candidate field: summaries}, references per row).

    A candidate field holds one summary: a string or a list of sentence strings. A reference field
    holds one reference as a string, or several as a list, each a string or a list of sentences
    (Hugging Face data sets write ``"references": ["ref A", "ref B"]``). A string's sentences are
    its lines, or split by ``sentence_sep``. A name with dots that is not a key of the row reads a
    nested field: ``pred.text``, ``choices.0.text`` (a whole number picks a list item). ``json_shape``
    (``rows`` or ``columns``) chooses how one JSON object whose fields are lists is read (see
    :func:`rougekit.io.reader.records`). An id (``id_field``) is a string or a number: null, true/false,
    a list or an object is refused naming the row; ``unique_ids`` refuses an id that repeats (per-pair
    rows are keyed by it).
    """
    ids: list[str] = []
    cands: dict[str, list[str]] = {f: [] for f in candidate_fields}
    refs: list[list[str]] = []
    wanted = candidate_fields + reference_fields + ([id_field] if id_field else [])
    first_at: dict[str, str] = {}  # an id's first row (unique_ids)
    text = reader.read_text(path, errors=errors, hint=_HINT)
    _refuse_csv(text, path)

    def as_row(row: dict) -> bool:  # the object is one valid row: summaries as lists of sentences
        return (
            all(_is_sentences(reader.field_value(row, f)) for f in candidate_fields)
            and all(_is_references(reader.field_value(row, f)) for f in reference_fields)
            and (id_field is None or not isinstance(reader.field_value(row, id_field), (list, dict)))
        )

    for record in reader.records(text, path, wanted, json_shape, as_row).rows:
        where, row = record.where, record.row
        value = {f: reader.field_value(row, f) for f in wanted}  # a dotted name reads a nested field
        for f in wanted:
            if value[f] is reader.MISSING:
                raise reader.no_field(where, f, row)
        ids.append(_row_id(value[id_field], where, id_field) if id_field else str(len(ids) + 1))
        if unique_ids and id_field:
            seen = first_at.setdefault(ids[-1], record.at)
            if seen != record.at:
                raise InputError(
                    f"{where}: id {ids[-1]!r} (field {id_field!r}) repeats {seen}: the per-pair rows are keyed by "
                    "it (give each row its own id, or leave --id-field out)"
                )
        for f in candidate_fields:
            cands[f].append(_sentences(value[f], where, f, sentence_sep))
        row_refs = []
        for f in reference_fields:
            row_refs.extend(_references(value[f], where, f, sentence_sep))
        refs.append(row_refs)
    if not refs:
        raise InputError(f"{_label(path)} has no rows: no summaries to score")
    for f in candidate_fields:
        reader.warn_blank(path, cands[f], f"{f!r} candidate", "row")
    fields = "/".join(map(repr, reference_fields))
    blank = reader.blank_reference_rows(refs)
    reader.warn_blank_lines(path, blank, f"{fields} reference", "row")
    return ids, cands, refs


def _refuse_csv(text: str, path: str) -> None:
    """Refuse, as CSV, a file given as JSON whose first line is a CSV header (several columns, or a
    ``.csv``/``.tsv`` name) rather than JSON (the JSON reader would say only "not valid JSON")."""
    head = text.lstrip()
    if head[:1] in ("[", "{", ""):
        return
    first = re.split(r"\r\n?|\n", head, maxsplit=1)[0]  # \r line ends too (Excel's "CSV (Macintosh)")
    named = str(path).lower()
    delimiter = "\t" if named.endswith(".tsv") or ("\t" in first and "," not in first) else ","
    names = next(csv.reader([first], delimiter=delimiter), [])
    if len(names) > 1 or named.endswith((".csv", ".tsv")):
        kind = "TSV" if delimiter == "\t" else "CSV"
        raise InputError(
            f"{_label(path)} is {kind} ({reader.header_names(names)}), not JSON: --jsonl reads JSONL or JSON; "
            "convert it (pandas: pd.read_csv(FILE).to_json(OUT, orient='records', lines=True)), or give "
            "score a Parquet file (--parquet FILE --candidate-column NAME --reference-column NAME)"
        )


def _row_id(value, where: str, name: str) -> str:
    """A row's id: a string, or a number as JSON writes it (``7``; ``7.5``); anything else is refused."""
    if isinstance(value, str):
        return _unicode(value, where, name)
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return str(value)
    kind = "an object" if isinstance(value, dict) else reader.kind_of(value)
    raise InputError(f"{where}: field {name!r} is {kind}: an id is a string or a number")


def read_folders(
    cand_dir: str,
    cand_pattern: str,
    ref_dir: str,
    ref_pattern: str,
    errors: str = "strict",
    sentence_sep: str | None = None,
) -> tuple[list[str], list[str], list[list[str]]]:
    """pyrouge-style folders: ``cand_pattern`` is a regex whose first group is the summary ID;
    ``ref_pattern`` is a regex in which ``#ID#`` stands for that ID. Files hold one sentence per
    line; ``sentence_sep`` (e.g. ``<q>``) marks more sentence breaks inside a line.
    """
    try:
        cand_regex = re.compile(cand_pattern)
    except re.error as exc:
        raise InputError(f"bad candidate pattern {cand_pattern!r}: {exc}") from None
    if cand_regex.groups < 1:
        raise InputError(f"candidate pattern {cand_pattern!r} needs a group for the summary ID")
    for d in (cand_dir, ref_dir):
        if not os.path.isdir(d):
            raise InputError(f"{d} is not a folder")
    ref_files = sorted(os.listdir(ref_dir))
    ids, cands, refs = [], [], []
    blank_cands: list[str] = []
    blank_refs: list[str] = []
    first_file: dict[str, str] = {}
    for name in sorted(os.listdir(cand_dir)):
        match = cand_regex.fullmatch(name)
        if not match:
            continue
        summary_id = match.group(1)
        if not summary_id.isascii():
            try:
                summary_id.encode("utf-8")
            except UnicodeEncodeError:  # bytes that are not UTF-8, read by os.listdir as surrogates
                shown = os.fsencode(name).decode("utf-8", "backslashreplace")
                raise InputError(f"{cand_dir}: file name '{shown}' is not UTF-8, so its ID cannot be written") from None
        if summary_id in first_file:  # e.g. doc.1.A.txt and doc.1.B.txt: two systems pooled as one
            raise InputError(
                f"{first_file[summary_id]} and {name} in {cand_dir} give the same summary ID {summary_id!r}: "
                f"one system has one file per ID (score several systems with one folder or pattern each)"
            )
        first_file[summary_id] = name
        try:
            ref_regex = re.compile(ref_pattern.replace("#ID#", re.escape(summary_id)))
        except re.error as exc:
            raise InputError(f"bad reference pattern {ref_pattern!r}: {exc}") from None
        matched = [f for f in ref_files if ref_regex.fullmatch(f)]
        if not matched:
            raise InputError(f"no reference in {ref_dir} matches {ref_pattern!r} for ID {summary_id!r}")
        ids.append(summary_id)
        cands.append(_read_text(str(Path(cand_dir) / name), errors, sentence_sep))
        refs.append([_read_text(str(Path(ref_dir) / f), errors, sentence_sep) for f in matched])
        if not cands[-1].strip():
            blank_cands.append(str(Path(cand_dir) / name))
        blank_refs += [str(Path(ref_dir) / f) for f, text in zip(matched, refs[-1]) if not text.strip()]
    if not ids:
        raise InputError(f"no file in {cand_dir} matches {cand_pattern!r}")
    reader.warn_blank_files(blank_cands, "candidate")
    reader.warn_blank_files(blank_refs, "reference")
    return ids, cands, refs


def _read_text(path: str, errors: str, sentence_sep: str | None = None) -> str:
    lines = reader.lines(reader.read_text(path, errors=errors, hint=_HINT), path)
    return "\n".join(split_sentences(line, sentence_sep) for line in lines)


_BLOCK = 1 << 22  # bytes read at a time by _iter_lines


def _iter_lines(path: str, sentence_sep: str | None, errors: str):
    """The lines of a file (without their line ending), decoded a block at a time within the
    reader's limit per line (no limit on the file's size or lines: memory stays flat, and the
    line limit stops ``/dev/zero``); an invalid line is named by its number, as when decoded one
    by one. A byte order mark is read as :mod:`rougekit.io.reader` reads it (UTF-16/32 is read
    whole, within the reader's limits per file)."""
    number = 0
    guard = reader.Guard(path, True, json_document=False, file_limits=False)
    with _open(path) as handle:
        read = getattr(handle, "read1", handle.read)  # a pipe: what is there, not a full block
        head = b""
        while len(head) < 4:  # enough for any byte order mark
            more = read(_BLOCK)
            if not more:
                break
            head += more
        codec, _, skip = reader.bom(head)
        if not skip:
            reader.refuse_not_text(head, path)
        if codec != "utf-8":  # UTF-16/32: read whole (within the limits), then split
            guard = reader.Guard(path, True, json_document=False)
            guard.feed(head)
            data = [head]
            for block in iter(lambda: read(_BLOCK), b""):
                guard.feed(block)
                data.append(block)
            for line in reader.lines(reader.decode(b"".join(data), path, errors, _HINT), path):
                yield split_sentences(line, sentence_sep)
            return
        head = head[skip:]
        while b"\n" not in head and len(head) < _BLOCK:  # the line ends: the first block decides
            more = read(_BLOCK)
            if not more:
                break
            head += more
        blocks = _cr_blocks(head, read, path) if reader.cr_only(head) else _blocks(head, read)
        rest = b""
        warned = False
        for block in blocks:
            guard.feed(block)
            if b"\0" in block:
                at = rest + block
                raise reader.nul_error(path, number + at.count(b"\n", 0, at.find(b"\0")) + 1)
            end = block.rfind(b"\n")
            if end < 0:
                rest += block
                continue
            whole, rest = rest + block[:end], block[end + 1 :]
            lines = reader.decode_utf8(whole, path, errors, _HINT, number + 1).split("\n")
            if not warned and b"\r" in whole:  # CRLF line ends are counted, not searched (reader.lone_cr_line)
                warned = _warn_lone_cr(whole, path, number + 1)
            if sentence_sep:
                for line in lines:
                    yield split_sentences(line.rstrip("\r"), sentence_sep)
            else:  # the common case, a call less per line (rstrip returns the line itself when it ends in no \r)
                for line in lines:
                    yield line.rstrip("\r")
            number += len(lines)
        if rest:
            if not warned and b"\r" in rest:
                _warn_lone_cr(rest, path, number + 1)
            last = reader.decode_utf8(rest, path, errors, _HINT, number + 1)
            yield split_sentences(last.rstrip("\r"), sentence_sep)


def _blocks(head: bytes, read):
    """``head``, then the blocks read."""
    block = head
    while block:
        yield block
        block = read(_BLOCK)


def _cr_blocks(head: bytes, read, path: str):
    """The blocks of a file whose line ends are carriage returns (:func:`rougekit.io.reader.cr_only`
    on its first block) with ``\\n`` for each ``\\r``; a ``\\n`` further on (line ends of two kinds)
    is an error naming its line."""
    lines = 1
    for block in _blocks(head, read):
        if b"\n" in block:
            line = lines + block.count(b"\r", 0, block.find(b"\n"))
            raise InputError(
                f"{_label(path)}, line {line}: a \\n line end in a file whose "
                "lines end in \\r until then (classic Mac): convert its line ends to one kind"
            )
        lines += block.count(b"\r")
        yield block.replace(b"\r", b"\n")


def _warn_lone_cr(data: bytes, path: str, first_line: int) -> bool:
    """Warn about the first line of ``data`` holding a lone carriage return; whether there was one."""
    line = reader.lone_cr_line(data, first_line)
    if line:
        reader.warn_lone_cr(path, line)
    return bool(line)


def iter_aligned(cand_path: str, ref_paths: list[str], sentence_sep: str | None = None, errors: str = "strict"):
    """Yield (candidate, [references]) line by line from line-aligned files, reading lazily.

    Files of different lengths stop the run with an error that gives both line counts; empty
    files, with an error too (there would be nothing to score).
    """
    streams = [_iter_lines(p, sentence_sep, errors) for p in [cand_path, *ref_paths]]
    sentinel = object()
    count = 0
    blank_lines: list[int] = []
    blank_refs: list[list[int]] = [[] for _ in ref_paths]  # a missing or shifted row, most often
    one = len(ref_paths) == 1
    for rows in itertools.zip_longest(*streams, fillvalue=sentinel):
        if sentinel in rows:
            lengths = [count + (0 if r is sentinel else 1 + sum(1 for _ in s)) for r, s in zip(rows, streams)]
            paths = [cand_path, *ref_paths]
            short = [i for i, r in enumerate(rows) if r is sentinel][0]
            long_ = [i for i, r in enumerate(rows) if r is not sentinel][0]
            raise InputError(
                f"{_label(paths[short])} has {lengths[short]} lines but {_label(paths[long_])} has {lengths[long_]}"
            )
        count += 1
        if not rows[0] or rows[0].isspace():  # blank: what strip() would empty, without a copy of every line
            blank_lines.append(count)
        if one:  # the common case, without a loop a row
            ref = rows[1]
            if not ref or ref.isspace():
                blank_refs[0].append(count)
        else:
            for k, ref in enumerate(rows[1:]):
                if not ref or ref.isspace():
                    blank_refs[k].append(count)
        yield rows[0], list(rows[1:])
    if count == 0:
        raise InputError(f"{_label(cand_path)} is empty: no summaries to score")
    reader.warn_blank_lines(cand_path, blank_lines)
    for path, blank in zip(ref_paths, blank_refs):
        reader.warn_blank_lines(path, blank, "reference line")
