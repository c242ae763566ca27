"""Which system a command is scoring, for its warnings: with several systems, a warning names the
system it came from, and the same kind of warning from the other systems is counted, not lost
(``rougekit.cli.main`` shows the first of each kind). And the progress line scoring shows on a
terminal, ended before a warning is printed."""

from __future__ import annotations

import contextvars
import sys
from typing import Iterable, Iterator, TypeVar

T = TypeVar("T")

#: (system name, number of systems) while one of several systems is scored, else None
SCORING: contextvars.ContextVar[tuple[str, int] | None] = contextvars.ContextVar("rougekit_system", default=None)


def each_system(items: Iterable[tuple[str, T]]) -> Iterator[tuple[str, T]]:
    """The (name, value) items of the systems, each system named to the warnings its scoring gives
    (only while the loop's body runs: not for lazy streams consumed later)."""
    items = list(items)
    for name, value in items:
        token = SCORING.set((name, len(items)))
        try:
            yield name, value
        finally:
            SCORING.reset(token)


_line_open = False  # a progress line is on standard error, not ended by a line break


def progress_line(text: str) -> None:
    """Show ``text`` on standard error in place of the last progress line."""
    global _line_open
    print("\r" + text, end="", file=sys.stderr, flush=True)
    _line_open = True


def end_progress_line() -> None:
    """End the progress line, if one is shown: what is printed next starts a line of its own (a
    warning is not glued to ``scoring X: 100,000 pairs``)."""
    global _line_open
    if _line_open:
        print(file=sys.stderr, flush=True)
        _line_open = False


def forget_progress_line() -> None:
    """The progress line was cleared (the cursor is at the start of an empty line): nothing to end."""
    global _line_open
    _line_open = False
