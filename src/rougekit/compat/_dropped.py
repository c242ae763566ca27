"""The warning of the drop-ins where the replaced package leaves input out of its numbers silently."""

from __future__ import annotations

import warnings

from rougekit.errors import RougeKitWarning


class DroppedInputWarning(RougeKitWarning):
    """Input that the replaced package leaves out of its numbers silently (kept bit for bit, but said)."""


def warn_dropped(package: str, dropped: list, stacklevel: int) -> None:
    """One warning for everything a call left out, as ``package`` would have (nothing when none)."""
    if dropped:
        message = f"as {package}, left out of the scores: " + "; ".join(dropped)
        warnings.warn(DroppedInputWarning(message), stacklevel=stacklevel + 1)
