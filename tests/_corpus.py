"""Random pairs of short texts for tests that score the same pairs along two paths (bit for bit)."""

from __future__ import annotations

import random


def random_pairs(n: int, seed: int, words: list[str], longest: int, empty: float = 0.0) -> tuple[list, list]:
    """``n`` candidates and ``n`` references of 1 to ``longest`` words drawn from ``words``; with
    probability ``empty`` a text is the empty string."""
    rng = random.Random(seed)

    def text() -> str:
        if empty and rng.random() < empty:
            return ""
        return " ".join(rng.choice(words) for _ in range(rng.randint(1, longest)))

    return [text() for _ in range(n)], [text() for _ in range(n)]
