"""ROUGE-2's bit-table probe (grams.pxi) keeps only a reference's bigrams whose two types the
candidate has (AVX-512: compressed 16 at a time; AVX2: 8 at a time, by a permutation) before the
table loop; the plain probe sends every bigram through the loop. All give the clipped counts computed
here with ``collections.Counter`` (hits = sum over bigrams of min(candidate count, reference count),
summed over the references: ``-f A``), with no tolerance, on references whose bigram counts fall on
and around the 8- and 16-bigram blocks."""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest
from _oracles import simd_level

import rougekit
from rougekit.engine.batch import AVAILABLE

pytestmark = pytest.mark.skipif(not AVAILABLE, reason="the compiled batch scorer is not built")


def _counts(cand: list[int], refs: list[list[int]]) -> list[float]:
    pc = Counter(zip(cand, cand[1:]))
    m = h = p = 0
    for ref in refs:
        h += sum(min(n, pc[g]) for g, n in Counter(zip(ref, ref[1:])).items())
        m += max(len(ref) - 1, 0)
        p += max(len(cand) - 1, 0)
    return [float(m), float(h), float(p)]


def _pairs(seed: int) -> list:
    """Candidates of 130 to 900 types (the bit table's range) with repeats; references of 0 to 70
    tokens (0 to 69 bigrams: every block remainder) drawn from the candidate's bigrams, repeated ones
    and ids it lacks, in shares from none lacking to all lacking."""
    rng = random.Random(seed)
    pairs = []
    for k in range(160):
        types = rng.randrange(130, 900)
        pool = rng.sample(range(40_000), types)
        cand = pool + rng.choices(pool[:20], k=rng.randrange(0, 200))
        rng.shuffle(cand)
        refs = []
        for _ in range(rng.choice([1, 1, 2])):
            lacking = [0.0, 0.1, 0.35, 0.8, 1.0][k % 5]
            n = k % 71 if len(refs) == 0 else rng.randrange(0, 71)
            at = rng.randrange(len(cand))
            ref = []
            while len(ref) < n:
                u = rng.random()
                if u < lacking:
                    ref.append(50_000 + rng.randrange(50))  # a type the candidate lacks
                elif u < lacking + (1 - lacking) * 0.15:
                    ref += [cand[at % len(cand)]] * 3  # (t, t) more often than the candidate has it
                else:
                    ref.append(cand[at % len(cand)])
                    at += 1
            refs.append(ref[:n])
        pairs.append((cand, refs))
    return pairs


def test_compressed_and_plain_probe_count_the_same_bigrams():
    from rougekit._core import _batch

    pairs = _pairs(28)
    want = np.array([_counts(c, r) for c, r in pairs])
    cands = [np.array(c, dtype=np.int32) for c, _ in pairs]
    refs = [[np.array(x, dtype=np.int32) for x in r] for _, r in pairs]
    got = {}
    try:
        for mode in (1, 2, 0):  # the widest compressing probe, the AVX2 one, the plain one
            _batch._big2_compressed(mode)  # before: no such hook (one probe only)
            got[mode] = rougekit.score(cands, refs, measures="ROUGE-2", bootstrap=None, jobs=1).data[:, 0, :3]
    finally:
        _batch._big2_compressed(1)
    for mode in (1, 2, 0):
        assert np.array_equal(got[mode], want)
    assert want[:, 1].sum() > 0 and (want[:, 1] == 0).any()  # pairs with hits and pairs without


def test_the_compressing_probe_is_used_where_the_cpu_has_avx2_or_avx512():
    from rougekit._core import _batch

    best = simd_level()
    assert _batch._BIG2_COMPRESS == best
    try:
        assert _batch._big2_compressed(0) == 0
        assert _batch._big2_compressed(2) == (1 if best else 0)
    finally:
        assert _batch._big2_compressed(1) == best
