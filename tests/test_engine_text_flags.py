"""The engine says, as it reads the texts, whether any holds a character outside ASCII or a ``<``;
the front ends skip their own passes over the texts (dropped letters, sentence markers) only when
it says none does. A count that said 0 wrongly would silently drop a warning: these tests hold the
counts to the texts, computed here in Python, and the warnings to every path a text reaches the
engine by (a new text, a duplicate in the chunk, a reference found in the cache, several threads)."""

from __future__ import annotations

import random
import warnings

import pytest

import rougekit
from rougekit.engine.batch import BatchScorer
from rougekit.errors import LettersDroppedWarning, SentenceMarkerWarning
from rougekit.measures import Measure

OPTS = dict(stem=False, stopwords=False, word_limit=0, byte_limit=0, mode="A", alpha=0.5)
WORDS = ["the", "cat", "sat", "on", "a", "mat", "dog", "ran"]


def _text(rng: random.Random, odd: str | None) -> str:
    words = [rng.choice(WORDS) for _ in range(rng.randint(1, 12))]
    if odd is not None:
        words.insert(rng.randrange(len(words) + 1), odd)
    return " ".join(words)


@pytest.mark.parametrize("lowercase", ["ascii", "unicode"])
@pytest.mark.parametrize("jobs", [1, 2])
def test_the_counts_say_zero_exactly_when_no_text_holds_one(lowercase, jobs):
    rng = random.Random(11)
    # the Kelvin sign lower-cases to an ASCII 'k' (lowercase="unicode"): the text as given counts
    odd_ones = [None] * 30 + ["<q>", "</s>", "a<b", "café", "\u212a", "naïve<t>"]
    scorer = BatchScorer([Measure.parse("ROUGE-1")], **OPTS, lowercase=lowercase)
    for _ in range(60):
        n = rng.randint(1, 40)
        cands = [_text(rng, rng.choice(odd_ones) if rng.random() < 0.05 else None) for _ in range(n)]
        refs = [[_text(rng, rng.choice(odd_ones) if rng.random() < 0.05 else None)] for _ in range(n)]
        if rng.random() < 0.3:  # the same reference again: a duplicate in the chunk or a cache hit
            refs[-1] = list(refs[0])
        counts: dict = {}
        scorer.score_arrays(cands, refs, jobs=jobs, counts=counts)
        texts = cands + [r for rs in refs for r in rs]
        assert (counts["non_ascii"] > 0) == any(not t.isascii() for t in texts)
        assert (counts["marked"] > 0) == any("<" in t for t in texts)


def test_a_reference_found_in_the_cache_still_warns():
    """The second call reads its reference from the engine's cache, not from the text."""
    scorer = rougekit.Scorer(measures=["ROUGE-1"], bootstrap=None)
    for candidate in ("the cat", "a dog"):
        with warnings.catch_warnings(record=True) as rec:
            warnings.simplefilter("always")
            scorer.score([candidate], [["the cat <q> sat"]])
            scorer.score([candidate], [["Die Straße ist nass"]])
        kinds = [type(w.message) for w in rec]
        assert kinds.count(SentenceMarkerWarning) == 1, kinds
        assert kinds.count(LettersDroppedWarning) == 1, kinds


def test_plain_ascii_text_gives_no_warning_and_the_same_numbers():
    rng = random.Random(3)
    cands = [_text(rng, None) for _ in range(500)]
    refs = [[_text(rng, None), _text(rng, None)] for _ in range(500)]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        result = rougekit.score(cands, refs, measures=["ROUGE-1", "ROUGE-L"], bootstrap=None, jobs=2)
    one = rougekit.score(cands[:1], refs[:1], measures=["ROUGE-1", "ROUGE-L"], bootstrap=None)
    assert result.per_pair()[0] == one.per_pair()[0]
