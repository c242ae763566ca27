"""Opening input files with one-line errors that name the file."""

from __future__ import annotations

import os
from typing import BinaryIO, TextIO

from rougekit.errors import InputError

O_BINARY = getattr(os, "O_BINARY", 0)  # Windows: no newline translation


def open_error(label: str, exc: OSError) -> InputError:
    """The one-line InputError of a file that cannot be opened (``label`` names it)."""
    if isinstance(exc, FileNotFoundError):
        return InputError(f"cannot open {label}: no such file")
    if isinstance(exc, IsADirectoryError):
        return InputError(f"cannot open {label}: it is a directory")
    return InputError(f"cannot open {label}: {exc.strerror or type(exc).__name__}")


def write_text(path: str, text: str, what: str = "output") -> None:
    """Write ``text`` as UTF-8 to ``path``; failures (a folder, a missing folder, no permission, a
    full disk) become one :class:`InputError` line naming the file."""
    handle = open_output(path, what)
    try:
        with handle:
            handle.write(text)
    except OSError as exc:
        raise InputError(f"cannot write {what} {path}: {exc.strerror or type(exc).__name__}") from None


def open_output(path: str, what: str = "output") -> TextIO:
    """Open ``path`` to write UTF-8 text bit by bit, with the errors of :func:`write_text`."""
    try:
        return open(path, "w", encoding="utf-8", errors="surrogateescape")
    except IsADirectoryError:
        raise InputError(f"cannot write {what} {path}: it is a directory") from None
    except FileNotFoundError:
        raise InputError(f"cannot write {what} {path}: its folder does not exist") from None
    except OSError as exc:
        raise InputError(f"cannot write {what} {path}: {exc.strerror or type(exc).__name__}") from None


def open_binary(path: str, what: str = "") -> BinaryIO:
    """Open ``path`` for reading bytes; failures become an :class:`InputError` naming it."""
    try:
        return open(path, "rb")
    except OSError as exc:
        raise open_error(f"{what} {path}".strip(), exc) from None
