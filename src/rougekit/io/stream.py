"""Reading a file as it comes, in flat memory, with the rows and errors of the whole-file reader
(:mod:`rougekit.io.reader`): standard input copied once for later passes (:class:`StdinCopy`),
UTF-8 and UTF-16/32 text decoded a chunk at a time (:func:`decoded_chunks`, :func:`wide_lines`)
and the items of a JSON array parsed one by one (:func:`array_items`).

An input with one error gives the whole-file reader's message; with several, the first in the file
is named (the whole-file reader names an invalid byte or a NUL anywhere before any other error).
"""

from __future__ import annotations

import codecs
import io
import os
import tempfile
import weakref

from rougekit.errors import InputError
from rougekit.io import reader

CHUNK = 1 << 20  # bytes read at a time


def _release(fd: int, path: str | None) -> None:
    os.close(fd)
    if path is not None:
        try:
            os.remove(path)
        except OSError:
            pass


class StdinCopy:
    """Standard input read once, as it comes, and copied to a temporary file (in ``TMPDIR``) that
    later passes read again. The file is unlinked at once where the system allows it (read through
    its open descriptor: nothing is left behind however the process ends, even killed); elsewhere it
    is removed when this object goes (or at exit).

    :meth:`open` gives a binary handle reading from the start: at the end of what is copied so far
    it reads more from standard input (so the first pass goes as the input comes)."""

    def __init__(self, stream=None) -> None:
        self._stdin = stream if stream is not None else reader.stdin_buffer()
        try:
            fd, path = tempfile.mkstemp(prefix="rougekit-stdin-")
        except OSError as exc:
            raise InputError(f"cannot copy standard input to a temporary file: {exc.strerror or exc}") from None
        self._fd = os.dup(fd)  # the copy is read through this (os.pread: no shared offset)
        self.path: str | None = path
        if hasattr(os, "pread"):
            try:
                os.remove(path)
                self.path = None
            except OSError:
                pass
        self._finalizer = weakref.finalize(self, _release, self._fd, self.path)
        self._copy = os.fdopen(fd, "wb")
        self.done = False
        self.head = b""
        while len(self.head) < 1 << 16 and self.pull():  # the start, to tell the format
            self.head = self.head + self._last
        self._last = b""

    def pull(self) -> bool:
        """Copy the next piece of standard input; False at its end."""
        if self.done:
            return False
        read = getattr(self._stdin, "read1", self._stdin.read)
        data = read(CHUNK)
        if not data:
            self.done = True
            self._last = b""
            self._copy.close()
            return False
        try:
            self._copy.write(data)
            self._copy.flush()
        except OSError as exc:
            raise InputError(f"cannot copy standard input to a temporary file: {exc.strerror or exc}") from None
        self._last = data
        return True

    def read_at(self, position: int, size: int) -> bytes:
        """Up to ``size`` bytes of the copy from ``position`` (fewer at the end of what is copied)."""
        if self.path is None:
            return os.pread(self._fd, size, position)
        with open(self.path, "rb", buffering=0) as handle:  # no pread here: a handle of its own
            handle.seek(position)
            return handle.read(size)

    def open(self):
        return io.BufferedReader(_CopyReader(self), CHUNK)

    def remove(self) -> None:
        self._finalizer()


class _CopyReader(io.RawIOBase):
    def __init__(self, copy: StdinCopy) -> None:
        self.copy = copy
        self.position = 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        while True:
            data = self.copy.read_at(self.position, len(buffer))
            if data or not self.copy.pull():
                n = len(data)
                buffer[:n] = data
                self.position += n
                return n


def decoded_chunks(handle, path: str, guard: reader.Guard):
    """The text of a binary handle a chunk at a time, as :func:`rougekit.io.reader.decode` reads
    the whole: UTF-8, or the encoding of its byte order mark (dropped); an invalid byte or a NUL is
    the same error, naming the line (and for UTF-8 the byte in it)."""
    data = handle.read(CHUNK)
    while 0 < len(data) < 4:  # a short read: the byte order mark is told from the first 4 bytes
        more = handle.read(CHUNK)
        if not more:
            break
        data += more
    guard.feed(data)
    codec, name, skip = reader.bom(data)
    if not skip:
        reader.refuse_not_text(data, path)
    data = data[skip:]
    if not data and skip:  # the mark alone: the text, if any, comes with the next read
        data = handle.read(CHUNK)
        guard.feed(data)
    decoder = codecs.getincrementaldecoder(codec)("strict")
    newlines = 0  # before the text decoded so far
    column = 0  # UTF-8: bytes after the last newline decoded so far
    cap = reader.max_lines()
    while True:
        final = not data
        pending = decoder.getstate()[0]
        if codec == "utf-8":
            nul = data.find(b"\0")
            if nul >= 0:
                raise reader.nul_error(path, newlines + (pending + data).count(b"\n", 0, len(pending) + nul) + 1)
        try:
            text = decoder.decode(data, final)
        except UnicodeDecodeError as exc:
            raise _invalid(exc, path, codec, name, newlines, column) from None
        if codec == "utf-8":
            done = (pending + data)[: len(pending) + len(data) - len(decoder.getstate()[0])]
            last = done.rfind(b"\n")
            column = len(done) - last - 1 if last >= 0 else column + len(done)
        else:
            nul = text.find("\0")
            if nul >= 0:
                line = newlines + text.count("\n", 0, nul) + 1
                raise InputError(f"{reader.label(path)}, line {line}: holds a NUL character")
        newlines += text.count("\n")
        if codec != "utf-8" and newlines > cap:  # as decode() counts them (Guard counts UTF-8 lines)
            raise reader.too_many_lines(path, cap)
        if text:
            yield text
        if final:
            return
        data = handle.read(CHUNK)
        guard.feed(data)


def _invalid(exc: UnicodeDecodeError, path: str, codec: str, name: str, newlines: int, column: int) -> InputError:
    before = exc.object[: exc.start]
    if codec != "utf-8":
        line = newlines + before.decode(codec, "replace").count("\n") + 1
        return InputError(f"{reader.label(path)}, line {line}: invalid {name} (byte order mark {name})")
    last = before.rfind(b"\n")
    line = newlines + before.count(b"\n") + 1
    byte = exc.start - last - 1 if last >= 0 else column + exc.start
    return InputError(f"{reader.label(path)}, line {line}: invalid UTF-8 at byte {byte}")


def wide_lines(handle, path: str, guard: reader.Guard):
    """(line number, the line as UTF-8 bytes with its ending) of a UTF-16/32 file (by its byte order
    mark), decoded as it comes: the lines of the whole-file reader."""
    number = 0
    rest = ""
    for text in decoded_chunks(handle, path, guard):
        parts = (rest + text).split("\n")
        rest = parts.pop()
        for part in parts:
            number += 1
            yield number, (part + "\n").encode("utf-8")
    if rest:
        yield number + 1, rest.encode("utf-8")


class Shape:
    """(whether the text, stripped, is one line; whether it holds a ``\\r\\n``) of a text fed in
    chunks (:meth:`watch` passes them on while it looks): what the whole-file reader asks of a JSON
    array (its items' places, its line endings). ``result`` is None until the last chunk passed."""

    def __init__(self) -> None:
        self.started = self.newline = self.inner = self.crlf = False
        self.last = ""
        self.result: tuple[bool, bool] | None = None

    def feed(self, text: str) -> None:
        self.crlf = self.crlf or "\r\n" in text or (self.last == "\r" and text[:1] == "\n")
        self.last = text[-1:]
        if not self.started:
            text = text.lstrip()
            if not text:
                return
            self.started = True
        if self.newline and text.strip():
            self.inner = True
        if not self.inner and "\n" in text:
            if text[text.index("\n") :].strip():
                self.inner = True
            self.newline = True

    def watch(self, chunks):
        for text in chunks:
            self.feed(text)
            yield text
        self.result = (not self.inner, self.crlf)


def shape_of(chunks) -> tuple[bool, bool]:
    """:class:`Shape` of a text in chunks, in one pass."""
    shape = Shape()
    for _ in shape.watch(chunks):
        pass
    assert shape.result is not None
    return shape.result


def array_items(chunks, path: str):
    """(line, item, raw text) of a JSON array given as text chunks, one by one, in flat memory (an
    item at a time): the items and errors of the whole-file reader (``reader._array_items``)."""
    import json

    feed = iter(chunks)
    text, base, eof = "", 1, False  # base: the line of text[0]
    at, at_line = 0, 1  # the line of text[at], counted onward as the items go (no recount)

    def more() -> bool:
        nonlocal text, eof
        piece = next(feed, None)
        if piece is None:
            eof = True
            return False
        text += piece
        return True

    def skip(i: int) -> int:
        while True:
            while i < len(text) and text[i] in " \t\r\n":
                i += 1
            if i < len(text) or not more():
                return i

    def line(i: int) -> int:
        nonlocal at, at_line
        if i < at:
            return at_line - text.count("\n", i, at)
        at_line += text.count("\n", at, i)
        at = i
        return at_line

    def trim(k: int) -> int:
        """Drop text[:k] once it is over half the buffer (each character is copied O(1) times)."""
        nonlocal text, base, at
        if k <= len(text) // 2:
            return k
        base = line(k)
        text, at = text[k:], 0
        return 0

    def error(i: int, what: str) -> InputError:
        return InputError(f"{reader.label(path)}, line {line(i)}: not valid JSON ({what})")

    decoder = json.JSONDecoder()
    i = skip(0)
    i = skip(i + 1)  # after the [ (the caller saw it)
    if i < len(text) and text[i] == "]":
        i += 1
    else:
        while True:
            if i >= len(text):
                raise error(i, "the array is not closed")
            while True:
                try:
                    item, end = decoder.raw_decode(text, i)
                except json.JSONDecodeError as exc:
                    if not eof and (exc.pos >= len(text) - 16 or exc.msg.startswith("Unterminated string")):
                        more()
                        continue
                    raise InputError(
                        f"{reader.label(path)}, line {base + exc.lineno - 1}: not valid JSON ({exc.msg})"
                    ) from None
                except RecursionError:
                    raise InputError(f"{reader.label(path)}, line {line(i)}: JSON nested too deeply") from None
                if end < len(text) or eof or not more():
                    break
            j = skip(end)  # what follows is checked first, as the whole-file reader does
            if j >= len(text) or text[j] not in ",]":
                raise error(j, "expected ',' or ']' in the array")
            yield line(i), item, text[i:end]
            j = trim(j)
            if text[j] == ",":
                i = skip(j + 1)
                continue
            i = j + 1
            break
    i = skip(i)
    if i < len(text):
        raise error(i, "text after the array")
