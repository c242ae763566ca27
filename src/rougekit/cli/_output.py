"""Where every command's output goes: ``-o FILE`` written whole or not at all, and standard output.

``-o FILE`` is written to a temporary file beside the file it names (beside the file a symbolic link
points to: the link is kept) and moved onto it (``os.replace``) only once everything is written. A run
stopped by an error, a full disk, Ctrl-C or SIGTERM removes the temporary file: the output file is
then as it was before the run (absent, or its old content), never half written. A device, a FIFO or
``/dev/stdout`` is written directly, as given. Standard output (no ``-o``, or ``-o -``) closed or
failing is one line naming it.
"""

from __future__ import annotations

import contextlib
import os
import stat
import sys
from collections.abc import Iterator
from typing import IO

from rougekit.errors import InputError

PARTIAL = ".rougekit-partial"  # the ending of a temporary file being written (hidden: a leading dot)
STDOUT = "standard output"
CLOSED = "cannot write to standard output: it is closed (redirect it: > FILE)"
_IN_PLACE = ("/dev/stdout", "/dev/stderr", "/dev/fd/", "/proc/")  # the process's open files: written in place


def is_stdout(path: str | None) -> bool:
    """No ``-o``, or ``-o -``: standard output."""
    return not path or path == "-"


def stdout_stream() -> IO[str]:
    """``sys.stdout``, or an :class:`InputError` when the process has none (started with ``>&-``)."""
    out = sys.stdout
    if out is None or getattr(out, "closed", False):
        raise InputError(CLOSED)
    return out


def discard_stdout() -> None:
    """After a failed write to standard output (a full disk, ``> /dev/full``): what is still buffered
    goes to the null device, so the interpreter's flush at exit does not fail again (exit code 120
    and a traceback after the command's one error line)."""
    try:
        null = os.open(os.devnull, os.O_WRONLY)
    except OSError:
        return
    try:
        os.dup2(null, 1)
    except OSError:
        pass
    finally:
        os.close(null)


class ClosedStdout:
    """``sys.stdout`` of a ``rougekit`` process started with standard output closed (``>&-``; Python
    sets it to None): a command writing to it (``print`` included) stops with one line."""

    closed = True

    def write(self, text: str) -> int:
        raise InputError(CLOSED)

    def flush(self) -> None:
        pass

    def isatty(self) -> bool:
        return False


def write_error(path: str | None, exc: OSError, what: str = "output") -> InputError:
    """The one-line error of a failed write to ``path`` (standard output when ``path`` is ``-``/None)."""
    reason = exc.strerror or type(exc).__name__
    if is_stdout(path):
        return InputError(f"cannot write {STDOUT}: {reason}")
    if isinstance(exc, IsADirectoryError):
        reason = "it is a directory"
    elif isinstance(exc, FileNotFoundError):
        reason = "its folder does not exist"
    return InputError(f"cannot write {what} {path}: {reason}")


def regular_target(path: str, what: str = "output") -> str | None:
    """The file that ``-o path`` replaces (symbolic links followed), or None when ``path`` is a
    device, a FIFO, a socket or another file that is written in place (``/dev/null``, ``/dev/stdout``)."""
    if _names_an_open_file(path):
        return None
    if path.endswith(("/", os.sep)):  # realpath would drop the slash: 'out/' names a folder (review21b R4)
        raise InputError(f"cannot write {what} {path}: it names a directory (give a file name)")
    real = os.path.realpath(path)
    try:
        mode = os.stat(real).st_mode
    except FileNotFoundError:
        return real
    except OSError:  # not reachable: the open of the path itself says why
        return None
    if stat.S_ISDIR(mode):
        raise InputError(f"cannot write {what} {path}: it is a directory")
    return real if stat.S_ISREG(mode) else None


def _names_an_open_file(path: str) -> bool:
    """``path`` (or a symbolic link on the way from it) is ``/dev/stdout``, ``/dev/fd/N``,
    ``/proc/self/fd/N``: a file the process has open (its shell's redirection ``> out.txt``). Replacing
    the file it resolves to would leave that redirection writing to a removed file: written in place."""
    path = os.path.abspath(path)
    for _ in range(40):
        if path.startswith(_IN_PLACE):
            return True
        if not os.path.islink(path):
            return False
        path = os.path.abspath(os.path.join(os.path.dirname(path), os.readlink(path)))
    return False


def seekable_file(path: str) -> bool:
    """``path`` is a regular file, or none yet (``/dev/stdout`` redirected to a file is one; a pipe,
    a terminal or ``/dev/null`` is not)."""
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except FileNotFoundError:
        return True
    except OSError:
        return True  # opening it says why


class OutputFile:
    """``-o FILE`` being written: :attr:`path` is where to write now (a temporary file beside the
    target, or the device itself); :meth:`commit` moves it onto the target, :meth:`discard` removes it.
    Use :func:`output_path` / :func:`output_file`, which do both."""

    def __init__(self, path: str, what: str = "output") -> None:
        self.given, self.what = path, what
        self.target = regular_target(path, what)
        self.path = path if self.target is None else self._temporary()

    def _temporary(self) -> str:
        """A new empty file beside the target, made with the permissions a new output file would get
        (the umask's), or the target's own when it exists."""
        folder, name = os.path.split(self.target)
        if not os.path.isdir(folder):
            raise InputError(f"cannot write {self.what} {self.given}: its folder does not exist")
        if os.path.exists(self.target) and not os.access(self.target, os.W_OK):
            # a file the user may not write is not replaced either (as opening it to write would refuse)
            raise InputError(f"cannot write {self.what} {self.given}: Permission denied")
        for _ in range(100):
            stem = f"{name}." if len(os.fsencode(name)) <= 200 else ""  # near the 255-byte limit: no room
            path = os.path.join(folder, f".{stem}{os.urandom(4).hex()}{PARTIAL}")
            try:
                fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o666)
            except FileExistsError:
                continue
            except PermissionError as exc:
                if os.path.isfile(self.target) and os.access(self.target, os.W_OK):
                    return self.target  # a writable file in a folder that is not: written in place, as given
                raise write_error(self.given, exc, self.what) from None
            except OSError as exc:
                raise write_error(self.given, exc, self.what) from None
            os.close(fd)
            with contextlib.suppress(OSError):  # an existing file keeps its permissions
                os.chmod(path, stat.S_IMODE(os.stat(self.target).st_mode))
            return path
        raise InputError(f"cannot write {self.what} {self.given}: no free temporary name beside it")  # pragma: no cover

    def commit(self) -> None:
        if self.target is not None and self.path != self.target:
            try:
                os.replace(self.path, self.target)
            except OSError as exc:
                self.discard()
                raise write_error(self.given, exc, self.what) from None

    def discard(self) -> None:
        if self.target is not None:
            with contextlib.suppress(OSError):
                os.remove(self.path)


@contextlib.contextmanager
def output_path(path: str, what: str = "output") -> Iterator[str]:
    """The file name to hand a writer that opens ``path`` itself (pyarrow's): the temporary file,
    moved onto ``path`` when the block ends without an exception, removed when it raises (an
    :class:`OSError` becomes one line naming ``path``)."""
    out = OutputFile(path, what)
    try:
        yield out.path
    except BaseException as exc:
        out.discard()
        if _writing(exc):
            raise write_error(path, exc, what) from None
        raise
    out.commit()


@contextlib.contextmanager
def output_file(path: str | None, what: str = "output", binary: bool = False) -> Iterator[IO]:
    """An open stream for a command's output: standard output when ``path`` is None or ``-``
    (flushed at the end), else ``-o FILE`` written whole or not at all (see the module). Text is
    UTF-8 (``surrogateescape``: bytes read undecodable are written back as they were). A failed write
    or close is one :class:`InputError` line naming the file (standard output included); a broken
    pipe (``| head``) is left to the command's caller."""
    if is_stdout(path):
        out = stdout_stream()
        if binary:
            out.flush()
            out = getattr(out, "buffer", None) or _TextAsBytes(out)
        try:
            yield out
            out.flush()
        except OSError as exc:
            if _writing(exc):
                discard_stdout()
                raise write_error(None, exc, what) from None
            raise
        return
    with output_path(path, what) as name:
        try:
            handle = open(name, "wb") if binary else open(name, "w", encoding="utf-8", errors="surrogateescape")
        except OSError as exc:
            raise write_error(path, exc, what) from None
        try:
            yield handle
        except BaseException:
            with contextlib.suppress(OSError):  # a full disk fails the close too
                handle.close()
            raise
        handle.close()


def _writing(exc: BaseException) -> bool:
    """An error of writing to an open stream (a full disk): an OSError naming no file. A broken pipe
    (``| head``) is the caller's, and an error naming a file (an input that cannot be opened while the
    output is streamed) says its own name."""
    return isinstance(exc, OSError) and not isinstance(exc, BrokenPipeError) and exc.filename is None


def write_output(path: str | None, text: str, what: str = "output") -> None:
    """Write a command's whole output ``text`` to ``-o FILE`` or standard output (:func:`output_file`)."""
    with output_file(path, what) as out:
        out.write(text)


class _TextAsBytes:
    """A text stream without a byte buffer (standard output replaced, as by a test) written bytes."""

    def __init__(self, stream) -> None:
        self.stream = stream

    def write(self, data: bytes) -> None:
        self.stream.write(data.decode("utf-8", "surrogateescape"))

    def flush(self) -> None:
        self.stream.flush()
