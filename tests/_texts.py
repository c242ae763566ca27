"""Seeded English-like texts for the drop-in goldens (tools/goldens/record_torchmetrics.py uses them too).

Sentences of common words, inflections, abbreviations (Mr. Dr. U.S.), numbers and punctuation,
sometimes on several lines; deterministic for a given seed.
"""

from __future__ import annotations

import random

WORDS = (
    "the a of to and in police officials said was were went gone children mice geese better best "
    "running ran runs studies studied happily agreed agreement report reports reported government "
    "minister ministers economy economic markets market fell rose higher lower storm storms flooding "
    "city cities people person women men woman man teeth leaves knives wolves did done has had is are "
    "been being saw seen took taken gave given wrote written Mr. Dr. U.S. 3.5 2004 , ; : 's n't ( ) "
    "Reuters London Paris caf\u00e9 na\u00efve"
).split()


def sentence(rng: random.Random) -> str:
    words = [rng.choice(WORDS) for _ in range(rng.randint(3, 14))]
    return " ".join(words).capitalize() + rng.choice([".", ".", ".", "!", "?"])


def summary(rng: random.Random) -> str:
    sentences = [sentence(rng) for _ in range(rng.randint(1, 4))]
    return ("\n" if rng.random() < 0.3 else " ").join(sentences)


def related(rng: random.Random, text: str) -> str:
    """A text sharing many of ``text``'s words, in a similar order."""
    words = [w if rng.random() < 0.7 else rng.choice(WORDS) for w in text.split() if rng.random() < 0.85]
    return " ".join(words) or rng.choice(WORDS)


def pairs(seed: int, n: int, refs_per: int = 0):
    """``n`` predictions and their references (a string each, or a list of ``refs_per`` strings)."""
    rng = random.Random(seed)
    references = [summary(rng) for _ in range(n)]
    predictions = [related(rng, r) if rng.random() < 0.85 else summary(rng) for r in references]
    if refs_per:
        references = [[r, *(related(rng, r) for _ in range(refs_per - 1))] for r in references]
    return predictions, references
