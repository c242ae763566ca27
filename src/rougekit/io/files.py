"""Opening input files with one-line errors that name the file."""
from __future__ import annotations

from typing import BinaryIO

from rougekit.errors import InputError


def open_binary(path: str, what: str = "") -> BinaryIO:
    """Open ``path`` for reading bytes; failures become an :class:`InputError` naming it."""
    label = f"{what} {path}".strip()
    try:
        return open(path, "rb")
    except FileNotFoundError:
        raise InputError(f"cannot open {label}: no such file") from None
    except IsADirectoryError:
        raise InputError(f"cannot open {label}: it is a directory") from None
    except OSError as exc:
        raise InputError(f"cannot open {label}: {exc.strerror}") from None


def read_bytes(path: str, what: str = "") -> bytes:
    """The whole file as bytes (see :func:`open_binary`)."""
    with open_binary(path, what) as handle:
        return handle.read()
