"""ROUGE-N-DISTINCT and ROUGE-L-DISTINCT (kinds ND and LD, pltrdy rouge's sets) on the compiled
batch path: every per-pair number (counts, R, P, F) equal to the readable path's, which counts
each pair with ``DistinctTypes.reference_stats`` (the per-pair kernels, and their pure twins).
These measures ran pair by pair in Python before."""

from __future__ import annotations

import random

import numpy as np
import pytest
import test_batch as tb  # its random corpora

import rougekit
from rougekit.api import Scorer

NAMES = ["ROUGE-1-DISTINCT", "ROUGE-2-DISTINCT", "ROUGE-3-DISTINCT", "ROUGE-L-DISTINCT", "ROUGE-1", "ROUGE-L"]


def _compiled_scorer(names, **options):
    if not Scorer(["ROUGE-1"], bootstrap=None)._plan.batch:  # pragma: no cover - depends on the build
        pytest.skip("the compiled engine is not built")
    scorer = Scorer(names, bootstrap=None, **options)
    assert scorer._plan.batch is not None  # the distinct kinds no longer send the scorer pair by pair
    return scorer


def _compiled_and_readable(names, cands, refs, **options):
    scorer = _compiled_scorer(names, **options)
    compiled, _ = scorer._score_arrays_of(cands, refs, None, 1)
    readable_scorer = Scorer(names, bootstrap=None, fast=False, **options)  # the readable path, the same options
    assert readable_scorer._plan.batch is None
    readable, _ = readable_scorer._score_arrays_of(cands, refs, None, 1)
    return compiled, readable


def _corpus(seed, n=120):
    rng = random.Random(seed)
    cands = [tb._summary(rng) for _ in range(n)]
    refs = [[tb._summary(rng) for _ in range(rng.randint(1, 3))] for _ in cands]
    # more than 256 types on a side and sentences above 64 tokens (the hashed tables, wide LCS rows)
    wide = "\n".join(" ".join(f"w{rng.randint(0, 600)}" for _ in range(150)) for _ in range(3))
    cands.append(wide)
    refs.append([wide.replace("w1", "v1"), "w3 w4 w1 w3"])
    return cands, refs


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"multi_ref": "best"},
        {"multi_ref": "max"},
        {"stem": True, "stopwords": True},
        {"byte_limit": 40},  # the sentence tokens are not the joined tokens
        {"word_limit": 7, "alpha": 0.2},
    ],
)
def test_distinct_kinds_on_the_compiled_path_equal_the_readable_path(options):
    cands, refs = _corpus(24)
    compiled, readable = _compiled_and_readable(NAMES, cands, refs, **options)
    assert np.array_equal(compiled, readable)
    assert compiled[:, :4, 1].sum(axis=0).min() > 0  # hits of every distinct measure were counted


def test_distinct_counts_by_hand():
    # "the cat the cat sat" against "the cat sat on the mat": distinct unigrams {the, cat, sat} and
    # {the, cat, sat, on, mat}, 3 shared; bigrams {the cat, cat the, cat sat} and {the cat, cat sat,
    # sat on, on the, the mat}, 2 shared; the traced LCS marks 2 distinct tokens (the real rouge
    # 1.0.1 prints the same: Rouge(raw_results=True) gives rouge-1/2/l overlaps 3, 2, 2; hyp 3, ref 5)
    scorer = _compiled_scorer(["ROUGE-1-DISTINCT", "ROUGE-2-DISTINCT", "ROUGE-L-DISTINCT"])
    counts, _ = scorer._score_arrays_of(["the cat the cat sat"], [["the cat sat on the mat"]], None, 1)
    # columns: reference count, hits, candidate count
    assert counts[0, :, :3].tolist() == [[5, 3, 3], [5, 2, 3], [5, 2, 3]]


def test_token_ids_on_the_compiled_path_equal_the_readable_path():
    rng = random.Random(7)
    cands = [[rng.randint(0, 40) for _ in range(rng.randint(0, 30))] for _ in range(300)]
    refs = [[[rng.randint(0, 40) for _ in range(rng.randint(0, 30))] for _ in range(rng.randint(1, 2))] for _ in cands]
    _compiled_scorer(NAMES)
    for multi_ref in ("sum", "best"):
        fast = rougekit.score(cands, refs, measures=NAMES, bootstrap=None, multi_ref=multi_ref).to_pandas()
        slow = rougekit.score(cands, refs, measures=NAMES, bootstrap=None, multi_ref=multi_ref, fast=False)
        assert fast.equals(slow.to_pandas())
