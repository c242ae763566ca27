"""Which system a command is scoring, for its warnings: with several systems, a warning names the
system it came from, and the same kind of warning from the other systems is counted, not lost
(``rougekit.cli.main`` shows the first of each kind)."""

from __future__ import annotations

import contextvars
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
