"""ROUGE-2's tables in the compiled engine (grams.pxi): candidates of 129 to 2,895 types count their
bigrams in a bit table whose set bits are numbered by a rank per 64-bit word, smaller ones in a
direct table, larger ones in a hashed one.  Expected values: clipped bigram counts computed here
with ``collections.Counter`` (hits = sum over bigrams of min(candidate count, reference count);
``-f A`` sums hits, reference bigrams and candidate bigrams over the references), and the readable
path (``fast=False``) on the same pairs, with no tolerance.
"""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest

import rougekit
from rougekit.engine.batch import AVAILABLE

needs_batch = pytest.mark.skipif(not AVAILABLE, reason="the compiled batch scorer is not built")


def _bigrams(ids: list[int]) -> Counter:
    return Counter(zip(ids, ids[1:]))


def _counts(cand: list[int], refs: list[list[int]]) -> list[float]:
    """(reference bigrams, hits, candidate bigrams) summed over the references (-f A)."""
    pc = _bigrams(cand)
    m = h = p = 0
    for ref in refs:
        rc = _bigrams(ref)
        h += sum(min(n, pc[g]) for g, n in rc.items())
        m += max(len(ref) - 1, 0)
        p += max(len(cand) - 1, 0)
    return [float(m), float(h), float(p)]


def _pair(rng: random.Random, types: int):
    """A candidate with exactly ``types`` distinct ids (first seen in a shuffled order, then
    repeated with a Zipf-like skew so bigrams repeat), and 1-3 references that keep some of its
    bigrams, repeat some more often than it does, and use ids it lacks (at either end of a bigram)."""
    pool = rng.sample(range(50_000), types)
    weights = [1.0 / (k + 1) for k in range(types)]
    cand = pool + rng.choices(pool, weights=weights, k=rng.randrange(0, 3 * types))
    refs = []
    for _ in range(rng.choice([1, 1, 2, 3])):
        ref = []
        for t in cand[rng.randrange(len(cand)) :]:
            u = rng.random()
            if u < 0.6:
                ref.append(t)
            elif u < 0.75:
                ref.extend([t, t, t])  # (t, t) more often than the candidate has it
            elif u < 0.9:
                ref.append(60_000 + rng.randrange(100))  # a type the candidate lacks
            else:
                ref.append(rng.choice(pool[:8]))
        refs.append(ref)
    return cand, refs


@needs_batch
def test_bit_table_counts_many_pairs_in_one_call():
    # 140 pairs of 100 to 3,000 types in one call (the direct table below 129 types; one workspace: the
    # bits left by a pair, and the ranks of its words, must not leak into the next pair, whose
    # table has another width U + 1)
    rng = random.Random(28)
    sizes = [100, 128, 129, 130, 200, 256, 257, 258, 300, 383, 384, 511, 512, 600, 723, 724, 1500, 2895, 2896, 3000]
    sizes += [rng.randrange(100, 1024) for _ in range(140 - len(sizes))]
    pairs = [_pair(rng, t) for t in sizes]
    cands = [c for c, _ in pairs]
    refs = [r for _, r in pairs]
    got = rougekit.score(cands, refs, measures="ROUGE-2", bootstrap=None, jobs=1).data[:, 0, :3]
    want = np.array([_counts(c, r) for c, r in pairs])
    assert np.array_equal(got, want)
    arrays = rougekit.score(
        [np.array(c, dtype=np.int32) for c in cands],
        [[np.array(x, dtype=np.int32) for x in r] for r in refs],
        measures="ROUGE-2",
        bootstrap=None,
        jobs=2,
    ).data[:, 0, :3]
    assert np.array_equal(arrays, want)


@needs_batch
@pytest.mark.parametrize("types", [129, 200, 257, 320, 723, 1000, 2895])
def test_bit_table_word_edges(types):
    # the candidate's ids 0 .. types-1 first (local id = id), so bigram (a, b) is bit a * (types + 1) + b:
    # bigrams on bits 63 and 64 (the two sides of a word boundary) and on the table's last bits,
    # repeated, clipped by references that repeat them more and less often
    V = types + 1
    edge = [(0, 63), (0, 64), (1, 63 - V % 64 + 64), (types - 1, types - 1), (types - 1, 0), (0, 0)]
    cand = list(range(types))
    for a, b in edge:
        cand += [a, b] * 2
    refs = [[x for a, b in edge for x in [a, b] * 3], [x for a, b in edge[::2] for x in [a, b]] + [types + 9, 5]]
    res = rougekit.score([cand], [refs], measures="ROUGE-2", bootstrap=None)
    assert res.data[0, 0, :3].tolist() == _counts(cand, refs)
    slow = rougekit.score([cand], [refs], measures="ROUGE-2", bootstrap=None, fast=False)
    assert np.array_equal(res.data, slow.data)


def _unigram_hits(cand: list[int], ref: list[int]) -> float:
    pc = Counter(cand)
    return float(sum(min(n, pc[t]) for t, n in Counter(ref).items()))


@needs_batch
@pytest.mark.parametrize("types", [65_000, 65_454, 65_455, 70_000])
def test_id_table_past_uint16(types):
    # the id table holds local id + 1 as uint16 while the candidate has fewer than 65,535 tokens,
    # else as int32: candidates of that many distinct ids plus their last 40 twice more (65,454
    # types: 65,534 tokens, the last local ids at the top of uint16; 70,000: past it), references
    # made of those last ids, and ids the candidate lacks
    rng = random.Random(types)
    cand = rng.sample(range(200_000), types)
    tail = cand[-40:]
    cand += tail + tail
    # and the ids whose local ids are 65,536 below the tail's (a uint16 would wrap onto them)
    partners = [cand[i - 65_536] for i in range(types - 40, types) if i >= 65_536]
    ref = [t for t in tail for _ in range(3)] + [300_000, 300_001] + cand[:5] + partners * 2
    other = [cand[-1], cand[0], 400_000, cand[-2], cand[-1], cand[-1], cand[-1]]
    kw = dict(measures=["ROUGE-1", "ROUGE-2"], bootstrap=None, jobs=1)
    got = rougekit.score([cand, np.array(cand, dtype=np.int32)], [ref, other], **kw).data
    assert got[0, 0, :3].tolist() == [float(len(ref)), _unigram_hits(cand, ref), float(len(cand))]
    assert got[1, 0, :3].tolist() == [float(len(other)), _unigram_hits(cand, other), float(len(cand))]
    assert got[0, 1, :3].tolist() == _counts(cand, [ref])
    assert got[1, 1, :3].tolist() == _counts(cand, [other])
