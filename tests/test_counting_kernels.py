"""The engine's per-pair counting (score.pxi's score_docs, grams.pxi, lcs.pxi) against the pure twins.

Random pairs of token ids go through ``rougekit.score`` on int32 arrays (the id path: the same
kernels as texts, ``jobs=1``), many pairs in one call so the tables an engine keeps between pairs
are reused, candidates of few and of many types one after the other (ROUGE-2's tables change at
128 types), one to three references (``-f A`` sums their counts).  Every pair's hits, reference
count and candidate count must be the sums over its references of ``_pure.ngram_stats`` (ROUGE-1,
ROUGE-2, ROUGE-3) and of ``_pure.pair_counts(..., lcs=True)`` (ROUGE-L of one sentence a side).
"""

from __future__ import annotations

import math
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rougekit
from rougekit._core import _batch, _pure

MEASURES = ["ROUGE-1", "ROUGE-2", "ROUGE-3", "ROUGE-L"]


def expected_counts(cand, refs):
    """(hits, reference count, candidate count) of each measure, summed over the references."""
    out = {m: [0, 0, 0] for m in MEASURES}
    for ref in refs:
        for m, n in (("ROUGE-1", 1), ("ROUGE-2", 2), ("ROUGE-3", 3)):
            for k, v in enumerate(_pure.ngram_stats(cand, ref, n)):
                out[m][k] += v
        for k, v in enumerate(_pure.pair_counts(cand, ref, (), lcs=True)):
            out["ROUGE-L"][k] += v
    return out


def expected_rpf(hits, model, peer):
    """The script's R and P rounded like %7.5f and F (alpha 0.5) from the rounded values, rounded."""
    rec = _pure.round5(hits / model) if model else 0.0
    prec = _pure.round5(hits / peer) if peer else 0.0
    denom = 0.5 * prec + 0.5 * rec
    return [rec, prec, _pure.round5(prec * rec / denom) if denom > 0 else 0.0]


def engine_counts(pairs):
    cands = [np.array(c, dtype=np.int32) for c, _ in pairs]
    refs = [[np.array(r, dtype=np.int32) for r in rs] for _, rs in pairs]
    res = rougekit.score(cands, refs, measures=MEASURES, bootstrap=None, jobs=1)
    keys = ("hits", "reference_count", "candidate_count", "recall", "precision", "f")
    return {m: np.array([res.values(m, k) for k in keys]).T.tolist() for m in MEASURES}


def check(pairs):
    got = engine_counts(pairs)
    for i, (cand, refs) in enumerate(pairs):
        want = expected_counts(cand, refs)
        for m in MEASURES:
            h, model, peer = want[m]
            assert got[m][i] == want[m] + expected_rpf(h, model, peer), (m, i, len(set(cand)))


def random_pair(rng, types, length, nrefs):
    """A candidate of about ``length`` ids over ``types`` types (frequent ones low, as in text) and
    references sharing some of its runs."""

    def draw(k):
        return [
            min(int(rng.paretovariate(0.8)) - 1, types - 1) if rng.random() < 0.5 else rng.randrange(types)
            for _ in range(k)
        ]

    cand = draw(max(1, length + rng.randrange(-length // 4, length // 4 + 1)))
    refs = []
    for _ in range(nrefs):
        ref = draw(rng.randrange(0, 2 * length + 2))
        if cand and ref:  # copy a run of the candidate in: bigrams that hit
            a = rng.randrange(len(cand))
            b = min(len(cand), a + rng.randrange(1, 12))
            at = rng.randrange(len(ref) + 1)
            ref[at:at] = cand[a:b]
        refs.append(ref)
    return cand, refs


@pytest.mark.parametrize("seed", range(4))
def test_counts_match_the_pure_twins_across_table_sizes(seed):
    """Types per candidate from 1 to ~600 in one call: the small tables (at most 128 types), the bit
    table (129-2,895) and back, each pair's counts exact and the tables left clean for the next."""
    rng = random.Random(seed)
    pairs = []
    for k in range(120):
        types = rng.choice([1, 2, 5, 30, 60, 100, 127, 128, 129, 130, 200, 600])
        length = rng.choice([1, 2, 3, 10, 60, 150, 400]) if types < 200 else rng.choice([150, 400, 900])
        pairs.append(random_pair(rng, types, length, 1 + (k % 7 == 3) + (k % 11 == 5)))
    check(pairs)


@pytest.mark.parametrize(("narrow", "wide"), [(True, True), (False, True), (True, False), (False, False)])
def test_lcs_rows_in_every_mode(narrow, wide):
    """Two pairs' LCS rows of candidates of 1 to 200 tokens (one and two words a row in general
    registers, wider ones as before) with the narrow rows on and off, the AVX-512 rows on and off."""
    rng = random.Random(11)
    pairs = [
        random_pair(rng, rng.choice([3, 20, 60]), rng.choice([1, 30, 63, 64, 65, 100, 128, 129, 200]), 1)
        for _ in range(150)
    ]
    pairs += [random_pair(rng, 40, 60, 2) for _ in range(10)]  # two references: their rows two at a time
    try:
        assert _batch._narrow_rows(narrow) == narrow
        _batch._wide_rows(wide)
        check(pairs)
    finally:
        _batch._narrow_rows(True)
        _batch._wide_rows(True)


def test_counts_of_repeated_bigrams():
    """A bigram many times on both sides: each reference copy takes one of the candidate's copies
    until none is left, the next reference starts from all of them again."""
    cand = [1, 2] * 300 + [3]
    refs = [[1, 2] * 500, [2, 1] * 10 + [1, 2] * 5, [3, 3, 3]]
    check([(cand, refs), (cand, refs[:1]), ([7, 7, 7, 7], [[7] * 9, [7, 7]])])


ids = st.lists(st.integers(0, 12), min_size=1, max_size=60)


@settings(max_examples=150, deadline=None)
@given(
    st.lists(
        st.tuples(ids, st.lists(st.lists(st.integers(0, 14), max_size=60), min_size=1, max_size=3)),
        min_size=1,
        max_size=8,
    )
)
def test_counts_of_random_small_pairs(pairs):
    check(pairs)


def test_round5_near_every_half_and_on_ratios():
    """The R/P/F rounding (``%7.5f`` on the exact binary value, the error of x * 1e5 found without fma)
    at the doubles nearest the halfway points k + 0.5 (in units of 1e-5) and on ratios h / c."""
    values = []
    for k in range(0, 100_001, 3):
        x = (k + 0.5) / 1e5
        values += [x, math.nextafter(x, 0), math.nextafter(x, 1), math.nextafter(math.nextafter(x, 0), 0)]
    values += [h / c for c in range(1, 300) for h in range(c + 1)]
    values += [2.0**-1060, 2.0**-1030 * 3, 5e-324, 1e-5, 0.5e-5, 999_999_999.99999]
    for x in values:
        assert _batch._round5_py(x) == float("%7.5f" % x), x
