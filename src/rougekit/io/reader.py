"""The one reader of every command: text lines, JSONL rows, a JSON array, column-shaped JSON, CSV.

* **Limits.** A file is read up to :func:`max_file_bytes` bytes (default 2 GiB) and
  :func:`max_lines` lines (default 20 million), a line up to :func:`max_line_bytes` bytes (default
  16 MiB; a file that is one JSON document has no line limit). Past one of them reading stops at once
  with an error naming the file, the line and the limit; the environment variables
  ``ROUGEKIT_MAX_FILE_BYTES``, ``ROUGEKIT_MAX_LINES`` and ``ROUGEKIT_MAX_LINE_BYTES`` raise them. So
  ``/dev/zero`` or any endless stream fails within a moment instead of filling the memory. A
  stream read line by line (``score -c/-r``) keeps only the limit per line (its memory is flat); a
  UTF-16/32 file is held to the file size while read and its lines are counted after decoding.
* **Encodings.** UTF-8. A byte order mark chooses UTF-8 (``EF BB BF``, dropped), UTF-16 LE/BE or
  UTF-32 LE/BE, and the text is read in that encoding. A NUL byte in text is refused (it is a binary
  file, or UTF-16 without a byte order mark).
* **Line endings** ``\\n`` or ``\\r\\n``; :func:`lines` drops them, :func:`lines_with_ends` keeps
  them as read (for commands that write rows back). A file with carriage returns and no ``\\n`` at
  all ("classic Mac") has lines ending in ``\\r`` (as Python's universal newlines read it); in a file
  with ``\\n`` line ends a lone ``\\r`` stays inside its line (read as a space), said once
  (:class:`~rougekit.errors.LineEndWarning`, naming the first such line).
* **Errors** are :class:`~rougekit.errors.InputError` lines ``FILE, line N: what`` (the command line
  prints them with exit code 2). They never quote the file's contents.

JSON shapes (:func:`records`): JSONL (one object per line), a JSON array of objects, or
column-shaped JSON: one object whose wanted fields are lists of one length (Hugging Face's
``{"predictions": [...], "references": [...]}``; the lists may sit in nested objects, named by dotted
fields such as ``data.predictions``), read as one row per position. The shape of the
file decides: one JSON value per line (or a ``.jsonl``/``.ndjson`` name) is rows; only one object
document (``.json``, or an object over several lines) may be columns, and when it also reads as
one valid row the caller's ``--json-shape`` must choose. A single object whose wanted fields are
lists of different lengths is refused as columns.
"""

from __future__ import annotations

import codecs
import csv
import io
import json
import os
import re
import sys
import warnings
from collections.abc import Callable
from dataclasses import dataclass

from rougekit.errors import BlankLinesWarning, BlankReferencesWarning, InputError, LineEndWarning, OptionError
from rougekit.io.files import O_BINARY, open_error

STDIN = "-"
_FIRST, _CHUNK = 1 << 16, 1 << 20

DEFAULT_MAX_FILE_BYTES = 1 << 31  # 2 GiB
DEFAULT_MAX_LINES = 20_000_000
DEFAULT_MAX_LINE_BYTES = 1 << 24  # 16 MiB

_BOMS = (  # longest first: the UTF-32 LE mark starts with the UTF-16 LE one
    (codecs.BOM_UTF32_LE, "utf-32-le", "UTF-32 LE"),
    (codecs.BOM_UTF32_BE, "utf-32-be", "UTF-32 BE"),
    (codecs.BOM_UTF8, "utf-8", "UTF-8"),
    (codecs.BOM_UTF16_LE, "utf-16-le", "UTF-16 LE"),
    (codecs.BOM_UTF16_BE, "utf-16-be", "UTF-16 BE"),
)


_LIMITS: dict[str, int] = {}  # read from the environment once (see reset_limits)


def reset_limits() -> None:
    """Read the ``ROUGEKIT_MAX_*`` variables again on next use (after changing ``os.environ``)."""
    _LIMITS.clear()


def _limit(name: str, default: int) -> int:
    value = _LIMITS.get(name)
    if value is None:
        value = _LIMITS[name] = _read_limit(name, default)
    return value


def _read_limit(name: str, default: int) -> int:
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    try:
        value = int(raw)
    except ValueError:
        raise OptionError(f"{name} must be a whole number of bytes or lines, got {raw[:40]!r}") from None
    if value < 1:
        raise OptionError(f"{name} must be at least 1, got {value}")
    return value


def max_file_bytes() -> int:
    """Bytes read from one file at most (``ROUGEKIT_MAX_FILE_BYTES``, default 2 GiB)."""
    return _limit("ROUGEKIT_MAX_FILE_BYTES", DEFAULT_MAX_FILE_BYTES)


def max_lines() -> int:
    """Lines read from one file at most (``ROUGEKIT_MAX_LINES``, default 20,000,000)."""
    return _limit("ROUGEKIT_MAX_LINES", DEFAULT_MAX_LINES)


def max_line_bytes() -> int:
    """Bytes of one line at most (``ROUGEKIT_MAX_LINE_BYTES``, default 16 MiB)."""
    return _limit("ROUGEKIT_MAX_LINE_BYTES", DEFAULT_MAX_LINE_BYTES)


def label(path: str) -> str:
    """How errors name a path (``-`` is standard input)."""
    return "standard input" if path == STDIN else str(path)


def _size(n: int) -> str:
    for unit, size in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= size and n % size == 0:
            return f"{n // size} {unit}"
    return f"{n:,} bytes"


class Guard:
    """Counts bytes, lines and the current line's length while a file is read; stops at a limit.

    ``file_limits=False`` checks the line length only (a stream read line by line, in flat memory).
    A UTF-16/32 file (by its byte order mark) is held to the file size only: a ``0x0A`` byte may be
    part of a character there, so its lines are counted after decoding (:func:`decode`)."""

    def __init__(self, path: str, line_limit: bool, json_document: bool = True, file_limits: bool = True):
        self.path = path
        self.json_document = json_document  # a file starting with [ or { may be one long line
        self.file_cap, self.lines_cap = (max_file_bytes(), max_lines()) if file_limits else (0, 0)
        self.line_cap = max_line_bytes() if line_limit else 0
        self.total = self.newlines = self.open_line = 0
        self.first = True
        self.wide = False
        self.end = b"\n"  # what ends a line: b"\r" in a file of carriage returns only

    def feed(self, chunk: bytes) -> None:
        if self.first and chunk:
            self.first = False
            codec, _, skip = bom(chunk)
            if codec != "utf-8":
                self.wide = True
            elif b"\n" not in chunk and b"\r" in chunk:
                self.end = b"\r"  # classic Mac line ends (:func:`cr_only`), counted as lines
            elif self.line_cap and self.json_document and chunk[skip:].lstrip()[:1] in (b"[", b"{"):
                self.line_cap = 0  # a JSON document may be one long line: the file limit holds it
        self.total += len(chunk)
        if self.file_cap and self.total > self.file_cap:
            raise InputError(
                f"{label(self.path)}: larger than {_size(self.file_cap)}, the limit per file "
                "(set ROUGEKIT_MAX_FILE_BYTES to raise it)"
            )
        if self.wide:
            return
        end = self.end
        count = chunk.count(end)
        if count:
            if self.line_cap:
                self._check_lines(chunk)
            self.open_line = len(chunk) - chunk.rfind(end) - 1
            self.newlines += count
            if self.lines_cap and self.newlines > self.lines_cap:
                raise too_many_lines(self.path, self.lines_cap)
        else:
            self.open_line += len(chunk)
        if self.line_cap and self.open_line > self.line_cap:
            self._too_long(self.newlines + 1)

    def _check_lines(self, chunk: bytes) -> None:
        """The lines a chunk ends: the open one and, in a chunk longer than the limit, each inside it."""
        if self.open_line + chunk.find(self.end) > self.line_cap:
            self._too_long(self.newlines + 1)
        if len(chunk) > self.line_cap:
            for k, part in enumerate(chunk.split(self.end)[1:-1], start=2):
                if len(part) > self.line_cap:
                    self._too_long(self.newlines + k)

    def _too_long(self, line: int) -> None:
        raise InputError(
            f"{label(self.path)}, line {line:,}: longer than {_size(self.line_cap)}, "
            "the limit per line (set ROUGEKIT_MAX_LINE_BYTES to raise it)"
        )


def too_many_lines(path: str, cap: int) -> InputError:
    return InputError(
        f"{label(path)}, line {cap + 1:,}: more than {cap:,} lines, the limit per file "
        "(set ROUGEKIT_MAX_LINES to raise it)"
    )


def stdin_buffer():
    """Standard input's binary stream; an :class:`InputError` when there is none (closed: ``<&-``)."""
    if sys.stdin is None:
        raise InputError("standard input is closed: give the input as a file, or pipe it")
    return sys.stdin.buffer


def read_bytes(path: str, what: str = "", *, line_limit: bool = True, handle=None) -> bytes:
    """The whole file (``-``: standard input, or ``handle`` when given) as bytes, within the limits;
    a file that cannot be opened or read is one :class:`InputError` naming it (and ``what`` it is)."""
    guard = Guard(path, line_limit)
    chunks = []
    if path == STDIN:
        source = handle if handle is not None else stdin_buffer()
        read = getattr(source, "read1", source.read)
        while True:
            chunk = read(_CHUNK)
            if not chunk:
                break
            guard.feed(chunk)
            chunks.append(chunk)
        return b"".join(chunks)
    name = f"{what} {path}".strip()
    try:
        fd = os.open(path, os.O_RDONLY | O_BINARY)
        try:
            size = _FIRST  # most summary files fit in one small read
            while True:
                chunk = os.read(fd, size)
                if not chunk:
                    break
                guard.feed(chunk)
                chunks.append(chunk)
                if len(chunk) == size:  # a big file: bigger reads (a short read is followed by the end)
                    size = _CHUNK
        finally:
            os.close(fd)
    except OSError as exc:
        raise open_error(name, exc) from None
    return chunks[0] if len(chunks) == 1 else b"".join(chunks)


def bom(data: bytes) -> tuple[str, str, int]:
    """(Python codec, name, mark length) chosen by the data's byte order mark (UTF-8 without one)."""
    for mark, codec, name in _BOMS:
        if data.startswith(mark):
            return codec, name, len(mark)
    return "utf-8", "UTF-8", 0


_COMPRESSED = (  # (magic bytes, what, the tool that prints it decompressed)
    (b"\x1f\x8b", "gzip-compressed", "zcat"),
    (b"\xfd7zXZ\x00", "xz-compressed", "xzcat"),
    (b"\x28\xb5\x2f\xfd", "zstd-compressed", "zstdcat"),
)
_BZIP2 = re.compile(rb"BZh[1-9](?:1AY&SY|\x17rE8P\x90)")


def not_text(head: bytes, path: str) -> InputError | None:
    """The error for a file whose first bytes say it is compressed (gzip, bzip2, xz, zstd), a zip
    archive or a Parquet file, not text; None for any other start."""
    name = label(path)
    found = next(((what, tool) for magic, what, tool in _COMPRESSED if head.startswith(magic)), None)
    if found is None and _BZIP2.match(head):
        found = ("bzip2-compressed", "bzcat")
    if found is not None:
        what, tool = found
        if path == STDIN:
            return InputError(f"{name} is {what}: decompress it first ({tool} FILE | rougekit ... -)")
        return InputError(
            f"{name} is {what}: decompress it first, or pipe it in as '-' ({tool} {path} | rougekit ... -)"
        )
    if head.startswith(b"PK\x03\x04"):
        return InputError(f"{name} is a zip archive: unzip it and give the text file inside")
    if head.startswith(b"PAR1") and b"\0" in head[:4096]:
        return InputError(f"{name} is a Parquet file, not text (score reads one with --parquet FILE)")
    return None


def refuse_not_text(head: bytes, path: str) -> None:
    """Raise :func:`not_text`'s error, if any."""
    error = not_text(head, path)
    if error is not None:
        raise error


def decode(data: bytes, path: str, errors: str = "strict", hint: str = "") -> str:
    """Text of a file's bytes: UTF-8, or the encoding its byte order mark names (the mark dropped).

    An invalid byte (under ``errors="strict"``) or a NUL is an error naming the line; ``hint`` is
    added to the invalid-byte error (e.g. the option that reads it anyway).
    """
    codec, name, skip = bom(data)
    if skip:
        data = data[skip:]
    else:
        refuse_not_text(data[:4096], path)
    if codec != "utf-8":
        try:
            text = data.decode(codec, errors)
        except UnicodeDecodeError as exc:
            line = data[: exc.start].decode(codec, "replace").count("\n") + 1
            raise InputError(f"{label(path)}, line {line}: invalid {name} (byte order mark {name})") from None
        nul = text.find("\0")
        if nul >= 0:
            raise InputError(f"{label(path)}, line {text.count(chr(10), 0, nul) + 1}: holds a NUL character")
        if text.count("\n") > max_lines():  # counted here, as Guard counts UTF-8 lines
            raise too_many_lines(path, max_lines())
        return text
    nul = data.find(b"\0")
    if nul >= 0:
        raise nul_error(path, data.count(b"\n", 0, nul) + 1)
    return decode_utf8(data, path, errors, hint)


def decode_utf8(data: bytes, path: str, errors: str = "strict", hint: str = "", first_line: int = 1) -> str:
    """UTF-8 bytes (no byte order mark read) as text; an invalid byte is an error naming its line
    (counted from ``first_line``) and its byte in that line."""
    try:
        return data.decode("utf-8", errors)
    except UnicodeDecodeError as exc:
        start = data.rfind(b"\n", 0, exc.start) + 1
        line = first_line + data.count(b"\n", 0, exc.start)
        more = f" ({hint})" if hint else ""
        raise InputError(f"{label(path)}, line {line}: invalid UTF-8 at byte {exc.start - start}{more}") from None


def nul_error(path: str, line: int) -> InputError:
    return InputError(
        f"{label(path)}, line {line}: holds a NUL byte: not a text file, or UTF-16/UTF-32 without a "
        "byte order mark (save it as UTF-8)"
    )


def read_text(path: str, what: str = "", errors: str = "strict", hint: str = "") -> str:
    """:func:`read_bytes` then :func:`decode`."""
    return decode(read_bytes(path, what), path, errors, hint)


def cr_only(data) -> bool:
    """Whether a text (or its bytes) has carriage returns and no ``\\n``: its lines end in ``\\r``
    (classic Mac), as Python's universal newlines (files2rouge, ``compat.rouge.FilesRouge``) read it."""
    cr, lf = ("\r", "\n") if isinstance(data, str) else (b"\r", b"\n")
    return cr in data and lf not in data


def cr_as_lf(data):
    """A text (or its bytes) of :func:`cr_only` line ends with ``\\n`` for each ``\\r``."""
    return data.replace("\r", "\n") if isinstance(data, str) else data.replace(b"\r", b"\n")


# a \r followed by neither \r, \n nor the end: the last \r of a lone run (linear: no backtracking over runs)
_LONE_CR = re.compile(r"\r(?![\r\n]|\Z)")
_LONE_CR_BYTES = re.compile(rb"\r(?![\r\n]|\Z)")


def lone_cr_line(data, first_line: int = 1) -> int:
    """The number (counted from ``first_line``) of the first line of a text (or its bytes) that holds
    a carriage return inside it (not in its ``\\r\\n`` ending), or 0. Every ``\\r`` followed by
    ``\\n`` (or ending the text, which may stop before a line's ``\\n``) is CRLF line ends: counted,
    not searched."""
    cr, lf = ("\r", "\n") if isinstance(data, str) else (b"\r", b"\n")
    crs = data.count(cr)
    if not crs:
        return 0
    if crs == data.count(cr + lf) + data.endswith(cr):  # CRLF line ends (not as many \r as \n: review21b R1)
        return 0
    found = (_LONE_CR if isinstance(data, str) else _LONE_CR_BYTES).search(data)
    return first_line + data.count(lf, 0, found.start()) if found else 0


def warn_lone_cr(path: str, line: int) -> None:
    """Say that a line of ``path`` holds a lone carriage return, read as a space, not a line end."""
    warnings.warn(
        LineEndWarning(
            f"{label(path)}, line {line}: a carriage return (\\r) inside a line, read as a space: lines end "
            "at \\n in this file (convert its line ends if the \\r was meant as one)"
        ),
        stacklevel=3,
    )


def lines(text: str, path: str | None = None) -> list[str]:
    """The lines of a text without their endings (``\\n`` or ``\\r\\n``; a line's trailing ``\\r``
    characters go too); no last empty line. A text with carriage returns and no ``\\n``
    (:func:`cr_only`) has lines ending in ``\\r``; in another, a lone ``\\r`` inside a line is warned
    about (once, naming ``path`` and the line) when ``path`` is given."""
    if cr_only(text):
        text = cr_as_lf(text)
    elif path is not None:
        line = lone_cr_line(text)
        if line:
            warn_lone_cr(path, line)
    out = text.split("\n")
    if out and out[-1] == "":
        out.pop()
    return [line.rstrip("\r") for line in out]


def lines_with_ends(text: str) -> list[str]:
    """The lines of a text with their endings as read (``\\r`` in a :func:`cr_only` text)."""
    if cr_only(text):
        parts = text.split("\r")
        out = [p + "\r" for p in parts[:-1]]
        if parts[-1]:
            out.append(parts[-1])
        return out
    parts = text.split("\n")
    out = [p + "\n" for p in parts[:-1]]
    if parts[-1]:
        out.append(parts[-1])
    return out


def warn_blank(path: str, texts, what: str = "candidate line", unit: str = "line") -> None:
    """Warn (once per file) about blank summaries, with their line (or row) numbers: they score 0."""
    warn_blank_lines(path, [n for n, t in enumerate(texts, start=1) if not t.strip()], what, unit)


def blank_reference_rows(references, first: int = 1) -> list[int]:
    """The numbers (counted from ``first``) of the rows whose references (a list of texts a row) hold a
    blank one: empty or white space, no words (it scores 0)."""
    return [first + k for k, row in enumerate(references) if not all(map(str.strip, row))]


def warn_blank_lines(path: str, blank: list[int], what: str = "candidate line", unit: str = "line") -> None:
    """Warn about blank summaries at the given line (or row) numbers, if any."""
    if not blank:
        return
    shown = ", ".join(map(str, blank[:10])) + (f", ... ({len(blank)} in all)" if len(blank) > 10 else "")
    message = (
        f"{label(path)}: {len(blank)} blank {what}(s) ({unit} {shown}): they have no words and score 0 "
        "(kept, so the pairs stay aligned)"
    )
    # ("'r' reference", "reference line"; a candidate field may hold the word: "'reference_summary' candidate")
    category = BlankReferencesWarning if what.endswith(("reference", "reference line")) else BlankLinesWarning
    warnings.warn(category(message), stacklevel=3)


def warn_blank_files(paths: list[str], what: str = "candidate") -> None:
    """Warn about files read as one blank summary each (empty or white space), naming them: they score 0."""
    if not paths:
        return
    shown = ", ".join(paths[:10]) + (f", ... ({len(paths)} in all)" if len(paths) > 10 else "")
    message = f"{len(paths)} blank {what} file(s) ({shown}): they have no words and score 0"
    category = BlankReferencesWarning if what == "reference" else BlankLinesWarning
    warnings.warn(category(message), stacklevel=3)


# -- JSON -----------------------------------------------------------------------------------------


@dataclass
class Record:
    """One row of a JSON or CSV file: where it is (for errors), its line, its object and its text as read."""

    where: str
    line: int
    row: dict
    raw: str = ""

    @property
    def at(self) -> str:
        """Where the row is, without the file: ``line 3``, ``item 2`` or ``item 2 (line 5)``."""
        return self.where.rpartition(", ")[2]


@dataclass
class Records:
    """The rows of a file and its shape: ``jsonl``, ``array``, ``columns`` or ``csv``."""

    shape: str
    rows: list[Record]
    columns: dict | None = None  # the object of a column-shaped file
    header: str = ""  # the header line of a CSV file, as read
    names: list[str] | None = None  # the header's cells of a CSV file, in order (repeats kept)


def _nested(path: str, line: int) -> InputError:
    return InputError(f"{label(path)}, line {line}: JSON nested too deeply")


def loads(text: str, path: str, line: int):
    """One JSON value of a line file; invalid JSON is an InputError naming the file and its line. A
    UTF-8 byte order mark starting the line (files concatenated, one saved with a mark) is skipped."""
    if text[:1] == "\ufeff":
        text = text[1:]
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(f"{label(path)}, line {line + exc.lineno - 1}: not valid JSON ({exc.msg})") from None
    except RecursionError:
        raise _nested(path, line) from None


def _array_items(text: str, path: str, start: int):
    """(line, item, raw text) of a JSON array starting at ``start`` (the ``[``), one by one."""
    decoder = json.JSONDecoder()
    n = len(text)
    i = start + 1
    line = text.count("\n", 0, i) + 1
    at = i

    def skip(i: int) -> int:
        while i < n and text[i] in " \t\r\n":
            i += 1
        return i

    def where(i: int) -> int:
        nonlocal line, at
        line += text.count("\n", at, i)
        at = i
        return line

    i = skip(i)
    if i < n and text[i] == "]":
        i += 1
    else:
        while True:
            if i >= n:
                raise InputError(f"{label(path)}, line {where(i)}: not valid JSON (the array is not closed)")
            try:
                item, end = decoder.raw_decode(text, i)
            except json.JSONDecodeError as exc:
                raise InputError(f"{label(path)}, line {exc.lineno}: not valid JSON ({exc.msg})") from None
            except RecursionError:
                raise _nested(path, where(i)) from None
            yield where(i), item, text[i:end]
            i = skip(end)
            if i < n and text[i] == ",":
                i = skip(i + 1)
                continue
            if i < n and text[i] == "]":
                i += 1
                break
            raise InputError(f"{label(path)}, line {where(i)}: not valid JSON (expected ',' or ']' in the array)")
    if skip(i) < n:
        raise InputError(f"{label(path)}, line {where(skip(i))}: not valid JSON (text after the array)")


def _jsonl(text: str, path: str) -> list[Record]:
    out = []
    for number, line in enumerate(lines_with_ends(text), start=1):
        if not line.strip():
            continue
        row = loads(line.rstrip("\r\n"), path, number)
        out.append(Record(f"{label(path)}, line {number}", number, row, line))
    return out


def _columns(
    obj: dict, path: str, fields: list[str] | None, as_row: Callable[[dict], bool] | None = None
) -> list[Record] | None:
    """The rows of column-shaped JSON, or None when the object is one row. A column may sit in nested
    objects (``data.pred`` of ``{"data": {"pred": [...]}}``): each row then has that path as a key."""
    wanted = _wanted(obj, fields)
    lists = {f: v for f in wanted if isinstance(v := _at(obj, f), list)}
    if not wanted or len(lists) != len(wanted):
        return None
    lengths = {len(v) for v in lists.values()}
    if len(lengths) > 1:
        sizes = ", ".join(f"{_name(f)} has {len(v)}" for f, v in lists.items())
        advice = "; --json-shape rows reads it as one row" if as_row is not None and as_row(obj) else ""
        raise InputError(
            f"{label(path)}: one JSON object whose fields are lists of different lengths ({sizes}): as columns "
            f"they need one length (one row per position){advice}"
        )
    (n,) = lengths
    return [
        Record(f"{label(path)}, item {k + 1}", k + 1, {f: lists[f][k] for f in wanted} | _scalars(obj, wanted))
        for k in range(n)
    ]


def _wanted(obj: dict, fields: list[str] | None) -> list:
    """Where the fields' columns are: a key of ``obj``, or for a dotted name that is not one, the part
    of its path that goes through nested objects up to the first list or text (``pred.text`` is read
    from ``pred``, ``data.pred`` from ``data``'s ``pred``)."""
    if not fields:
        return list(obj)
    keys = []
    for f in fields:
        if f in obj or "." not in f:
            keys.append(f)
            continue
        parts, value, k = f.split("."), obj, 0
        while k < len(parts) and isinstance(value, dict) and parts[k] in value:
            value, k = value[parts[k]], k + 1
        if k:
            keys.append(".".join(parts[:k]))
    return list(dict.fromkeys(k for k in keys if _at(obj, k) is not MISSING))


column_keys = _wanted  # for writers that slice the columns back (dedup)


def _at(obj: dict, key: str):
    """The value of a key from :func:`_wanted`: ``obj[key]``, or down its dotted path through objects."""
    if key in obj:
        return obj[key]
    value = obj
    for part in key.split("."):
        if not isinstance(value, dict) or part not in value:
            return MISSING
        value = value[part]
    return value


def _scalars(obj: dict, wanted: list[str]) -> dict:
    """The other fields every row shares: the object's fields that are not lists and hold no column."""
    tops = {f if f in obj else f.split(".", 1)[0] for f in wanted}
    return {f: v for f, v in obj.items() if f not in tops and not isinstance(v, list)}


def _name(field) -> str:
    text = str(field)
    return repr(text if len(text) <= 40 else text[:37] + "...")


JSON_SHAPES = ("rows", "columns")
_ROW_SUFFIXES = (".jsonl", ".ndjson")


def records(
    text: str,
    path: str,
    fields: list[str] | None = None,
    shape: str | None = None,
    as_row: Callable[[dict], bool] | None = None,
) -> Records:
    """The rows of a JSON text: JSONL, a JSON array of objects, or column-shaped JSON.

    A file with one JSON value per line (or named ``.jsonl``/``.ndjson``) is rows. Only a file
    that is one JSON object document (named ``.json``, or an object over several lines) may be
    column-shaped: ``fields`` (the fields the caller needs; without them, all) are all lists of
    one length. When such an object is also one valid row (``as_row`` says so), the reading is
    ambiguous and refused unless ``shape`` (``"rows"`` or ``"columns"``, ``--json-shape``) chooses.
    Every row must be an object.
    """
    if shape is not None and shape not in JSON_SHAPES:
        raise OptionError(f"--json-shape {shape}: choose rows or columns")
    if cr_only(text):  # classic Mac line ends: lines as \n ends (JSON's strings hold no raw \r: review21b R5)
        text = cr_as_lf(text)
    start = len(text) - len(text.lstrip())
    if text[start : start + 1] == "[":
        one_line = "\n" not in text.strip()
        rows = [
            Record(f"{label(path)}, item {k}" + ("" if one_line else f" (line {line})"), line, item, raw)
            for k, (line, item, raw) in enumerate(_array_items(text, path, start), start=1)
        ]
        return _objects(Records("array", rows))
    if text[start : start + 1] == "{":
        multi_line = "\n" in text.strip()
        named = str(path).lower()
        document = shape == "columns" or (
            shape is None and not named.endswith(_ROW_SUFFIXES) and (multi_line or named.endswith(".json"))
        )
        if document or multi_line:
            try:
                whole = json.loads(text)
            except (json.JSONDecodeError, RecursionError):
                whole = None  # JSONL, or bad JSON: read line by line for the error's line
            if isinstance(whole, dict):
                line = text.count("\n", 0, start) + 1
                one = [Record(f"{label(path)}, line {line}", line, whole, text)]
                if not document:
                    return _objects(Records("jsonl", one))
                if shape == "rows":
                    return _objects(Records("jsonl", one))
                if shape is None:
                    _ambiguous(whole, path, fields, as_row)
                rows = _columns(whole, path, fields, as_row)
                if rows is not None:
                    return _objects(Records("columns", rows, whole))
                if shape == "columns":
                    raise InputError(
                        f"{label(path)}: --json-shape columns, but the object's fields "
                        f"({field_names({f: None for f in _wanted(whole, fields)})}) are not all lists"
                    )
                return _objects(Records("jsonl", one))
    return _objects(Records("jsonl", _jsonl(text, path)))


def _ambiguous(obj: dict, path: str, fields: list[str] | None, as_row: Callable[[dict], bool] | None) -> None:
    """Refuse an object that reads both as columns (lists of one length) and as one valid row, where
    the two readings give different pairs."""
    wanted = _wanted(obj, fields)
    if not wanted or as_row is None or not all(isinstance(_at(obj, f), list) for f in wanted):
        return
    n = {len(_at(obj, f)) for f in wanted}
    if n == {1} and all(isinstance(_at(obj, f)[0], str) for f in wanted):
        return  # one text a field: one pair either way (a list of one sentence is that sentence)
    if len(n) == 1 and as_row(obj):
        raise InputError(
            f"{label(path)}: one JSON object whose fields ({field_names({f: None for f in wanted})}) are lists "
            f"of {n.pop()} items reads two ways: as one row (lists of sentences/references) or as columns (one row "
            "per position); choose with --json-shape rows or --json-shape columns"
        )


def _objects(found: Records) -> Records:
    for r in found.rows:
        if not isinstance(r.row, dict):
            raise InputError(f"{r.where}: each row must be a JSON object, not {kind_of(r.row)}")
    return found


def kind_of(value) -> str:
    return {list: "a list", str: "a string", bool: "true/false", type(None): "null"}.get(
        type(value), "a number" if isinstance(value, (int, float)) else type(value).__name__
    )


def field_names(row: dict, limit: int = 20) -> str:
    """The fields of a row for an error message, each cut short."""
    names = [_name(f) for f in row]
    more = f", ... ({len(names)} in all)" if len(names) > limit else ""
    return ", ".join(names[:limit]) + more if names else "none"


MISSING = object()  # what field_value gives for a field a row does not have


def _step(value, part: str):
    """One part of a dotted field path: a key of an object, or a whole number picking a list item."""
    if isinstance(value, dict):
        return value.get(part, MISSING)
    if isinstance(value, list) and part.isdigit() and int(part) < len(value):
        return value[int(part)]
    return MISSING


def field_value(row: dict, field: str):
    """``row[field]``; a name the row does not have, with dots in it, is a path into nested objects
    (a part that is a whole number picks a list item, ``*`` every item): ``pred.text``,
    ``choices.0.text``, ``refs.*.text`` (the list of each item's text). MISSING when there is nothing
    there (for ``*``: in any item). A key with dots in it is read as that key first."""
    if field in row or "." not in field:
        return row.get(field, MISSING)
    parts = field.split(".")
    start = next((k for k in range(len(parts) - 1, 0, -1) if ".".join(parts[:k]) in row), 0)
    value = row[".".join(parts[:start])] if start else row  # a column's row: {"data.pred": item} (see _columns)
    return _path(value, parts[start:])


def _path(value, parts: list[str]):
    for k, part in enumerate(parts):
        if part == "*" and isinstance(value, list):
            items = [_path(item, parts[k + 1 :]) for item in value]
            return MISSING if any(item is MISSING for item in items) else items
        value = _step(value, part)
        if value is MISSING:
            break
    return value


def no_field(where: str, field: str, row: dict) -> InputError:
    """The error for a field the row does not have; for a dotted path, what is where it stops."""
    if "." in field and field not in row:
        value, parts = row, field.split(".")
        for k, part in enumerate(parts):
            if part == "*" and isinstance(value, list) and k:  # the first item without the rest of the path
                rest = parts[k + 1 :]
                i, item = next((i, v) for i, v in enumerate(value) if _path(v, rest) is MISSING)
                held = f"fields {field_names(item)}" if isinstance(item, dict) else kind_of(item)
                return InputError(
                    f"{where}: no field {_name(field)}: item {i} of {_name('.'.join(parts[:k]))} has no "
                    f"{_name('.'.join(rest))} (it holds {held})"
                )
            inner = _step(value, part)
            if inner is MISSING and k:
                held = f"fields {field_names(value)}" if isinstance(value, dict) else kind_of(value)
                if isinstance(value, list):
                    held += f" of {len(value)} item{'' if len(value) == 1 else 's'}"
                return InputError(f"{where}: no field {_name(field)}: {_name('.'.join(parts[:k]))} holds {held}")
            if inner is MISSING:
                break
            value = inner
    return InputError(f"{where}: no field {_name(field)} (fields: {field_names(row)})")


def looks_like_json(text: str, path: str = "") -> bool:
    """Whether a text is JSON rows: a file named ``.json``/``.jsonl``/``.ndjson``, a JSON array
    (that parses: a text line may start with ``[``, as ``[Music] ...``), or its first line is a JSON object."""
    if str(path).lower().endswith((".json", *_ROW_SUFFIXES)):
        return True
    return json_start(text, whole=True)


def json_start(text: str, whole: bool) -> bool:
    """:func:`looks_like_json`'s rule on the content alone: a JSON array, or a text whose first line
    is a JSON object, or one JSON object. ``whole`` False: ``text`` is only the start of the file
    (read lazily), and the answer is "may be": False only on a syntax error the rest cannot repair
    (``[INST] ...``, ``{"a": "b`` then a line break), True when it depends on what follows."""
    head = text.lstrip()
    if head[:1] not in ("[", "{"):
        return False
    if head[:1] == "{":
        try:
            if isinstance(json.loads(head.split("\n", 1)[0]), dict):
                return True
        except (json.JSONDecodeError, RecursionError):
            pass
    try:
        return isinstance(json.loads(head), list if head[:1] == "[" else dict)
    except RecursionError:
        return not whole  # undecided on a head: the whole-file reader decides
    except json.JSONDecodeError as exc:
        if whole:
            return False
        # a cut string, or an error in the last few characters (a cut true, -Infinity, 1.5e...):
        # the rest of the file may complete it
        return exc.msg.startswith("Unterminated string") or exc.pos >= len(head) - 16


# -- CSV ------------------------------------------------------------------------------------------


def _plain_names(header: list[str]) -> bool:
    """Whether a header looks like column names (so an error may list them without quoting data)."""
    return len(header) > 1 and all(len(h) <= 40 and all(c.isalnum() or c in " _-." for c in h) for h in header)


def header_names(header: list[str]) -> str:
    """A header for an error message: its names if they look like names, else only how many."""
    if _plain_names(header):
        return "columns: " + ", ".join(_name(h) for h in header[:20]) + (", ..." if len(header) > 20 else "")
    return f"{len(header)} column(s); is line 1 a header row naming them?"


class CsvRows:
    """The header and rows of CSV read from its physical lines as they come (a file of any size in
    flat memory); :func:`csv_records` is the same over a text held whole.

    ``physical`` yields the lines with their endings (split at ``\\n``, ``\\r\\n`` or ``\\r``, as
    the csv module counts lines). Building it reads the header (a header without the ``require``
    columns is an error before any row); iterating yields each row as a :class:`Record` with its
    text as read. Blank rows are skipped; a row with another number of cells than the header is an
    error naming its first line.
    """

    def __init__(self, physical, path: str, delimiter: str = ",", require: tuple[str, ...] = ()) -> None:
        self.path = path
        self._held: list[str] = []  # the physical lines of the record being read
        self._reader = csv.reader(self._keep(physical), delimiter=delimiter)
        try:
            self.names: list[str] = next(self._reader)
        except StopIteration:
            raise InputError(f"{label(path)}: empty (a CSV file needs a header row naming the columns)") from None
        except csv.Error as exc:
            raise self._unreadable(exc) from None
        self.header = self._take()  # the header's lines, as read
        for name in require:
            if name not in self.names:
                raise InputError(
                    f"{label(path)}, line {self._reader.line_num}: no column {_name(name)} ({header_names(self.names)})"
                )

    def _keep(self, physical):
        for line in physical:
            self._held.append(line)
            yield line

    def _take(self) -> str:
        out = "".join(self._held)
        self._held.clear()
        return out

    def _unreadable(self, exc: csv.Error) -> InputError:
        return InputError(f"{label(self.path)}, line {self._reader.line_num}: not readable as CSV ({exc})")

    def __iter__(self):
        reader, width = self._reader, len(self.names)
        done = reader.line_num
        raw, first = self.header, 1
        try:
            for cells in reader:
                first, done = done + 1, reader.line_num
                raw = self._take()
                if not cells or all(not c.strip() for c in cells):
                    continue
                if len(cells) != width:
                    raise InputError(f"{label(self.path)}, line {first}: {len(cells)} cell(s), the header has {width}")
                yield Record(f"{label(self.path)}, line {first}", first, dict(zip(self.names, cells)), raw)
        except csv.Error as exc:
            raise self._unreadable(exc) from None
        self._check_closed(raw, first)

    def _check_closed(self, raw: str, first: int) -> None:
        """Refuse a last row whose quoted cell never closes: the csv module would take every line
        after its quote into that one cell, silently (one stray quote, one text instead of many)."""
        try:
            list(csv.reader(io.StringIO(raw, newline=""), delimiter=self._reader.dialect.delimiter, strict=True))
        except csv.Error as exc:
            if "end of data" in str(exc):
                raise InputError(
                    f"{label(self.path)}, line {first}: a quoted cell is not closed before the end of the file "
                    "(its quote would take in every line after it)"
                ) from None


def csv_records(text: str, path: str, delimiter: str = ",", require: tuple[str, ...] = ()) -> Records:
    """The header and rows of a CSV text; each row as {column: cell} with its text as read (see
    :class:`CsvRows`)."""
    found = CsvRows(io.StringIO(text, newline="").readlines(), path, delimiter, require)
    out = Records("csv", list(found), header=found.header, names=found.names)
    out.columns = {h: None for h in found.names}
    return out
