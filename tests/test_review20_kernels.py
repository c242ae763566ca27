"""Review of session 20's counting kernels (count20): the edges the branch's own tests leave out.

ROUGE-2 of a candidate with at most 128 types keeps a uint16 count per bigram (grams.pxi:
``_bigram_counts``) while the candidate has fewer than 65,535 bigrams: one bigram repeated up to
65,534 times must count exactly, and 65,535 bigrams or more go to the older tables; the counts are
checked against the pure twin (``_pure.ngram_stats``). The R/P/F rounding without fma (rounding.pxi)
is checked against Python's ``"%7.5f"`` on random doubles of every size the engine can pass.
"""

from __future__ import annotations

import random
import struct

import numpy as np
import pytest

import rougekit
from rougekit._core import _batch, _pure


def _rouge2(cand, refs):
    res = rougekit.score(
        [np.array(cand, dtype=np.int32)],
        [[np.array(r, dtype=np.int32) for r in refs]],
        measures=["ROUGE-2"],
        bootstrap=None,
        jobs=1,
    )
    return [res.values("ROUGE-2", k)[0] for k in ("hits", "reference_count", "candidate_count")]


def _pure_rouge2(cand, refs):
    out = [0, 0, 0]
    for ref in refs:
        for k, v in enumerate(_pure.ngram_stats(cand, ref, 2)):
            out[k] += v
    return out


@pytest.mark.parametrize("n", [65_535, 65_536, 65_537, 65_538])
def test_one_bigram_at_the_uint16_limit(n):
    """n tokens of one type: n - 1 copies of one bigram (65,534: the largest the uint16 table holds)."""
    cand = [7] * n
    refs = [[7] * 70_000, [7] * 3, [8, 7, 7, 8]]
    assert _rouge2(cand, refs) == _pure_rouge2(cand, refs) == [(n - 1) + 2 + 1, 69_999 + 2 + 3, 3 * (n - 1)]


@pytest.mark.parametrize("types", [127, 128, 129])
def test_many_bigrams_of_128_types_near_the_limit(types):
    rng = random.Random(types)
    for n in (65_534, 65_535, 65_536):
        cand = list(range(types)) + [rng.randrange(types) for _ in range(n - types)]
        refs = [[rng.randrange(types + 2) for _ in range(n + 100)], cand[::-1][:4000]]
        assert _rouge2(cand, refs) == _pure_rouge2(cand, refs), (types, n)


def test_round5_on_random_doubles_of_every_size():
    """``_round5`` (x * 1e5's exact error by a 41/12-bit split) equals float("%7.5f" % x) on random
    doubles in [0, 1], with random exponents down to subnormals, and up to 1e9 (the slow path above)."""
    rng = random.Random(20)
    values = [rng.random() for _ in range(40_000)]
    for _ in range(40_000):
        bits = rng.getrandbits(52) | (rng.randrange(0, 1024 + 30) << 52)
        values.append(struct.unpack("<d", struct.pack("<Q", bits))[0])
    values += [struct.unpack("<d", struct.pack("<Q", rng.getrandbits(52)))[0] for _ in range(2_000)]  # subnormal
    for x in values:
        assert _batch._round5_py(x) == float("%7.5f" % x), x.hex()
