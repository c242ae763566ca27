"""A one-reference pair's ROUGE-L of one sentence a side is put off and run with another pair's rows
(score.pxi: LseqLater); its reference then keeps only the tokens of types the candidate has (AVX-512:
compressed 16 at a time; AVX2: 8 at a time), since the others' rows change nothing. With and without
that, the LCS lengths equal a dynamic-programming LCS computed here, with no tolerance: references
with none to all of their tokens lacking from the candidate, lengths on and around the 16-token
blocks, an odd pair out (its rows run alone), AVX-512 rows and scalar rows."""

from __future__ import annotations

import random

import numpy as np
import pytest
from _oracles import dp_lcs, simd_level

import rougekit
from rougekit.engine.batch import AVAILABLE

pytestmark = pytest.mark.skipif(not AVAILABLE, reason="the compiled batch scorer is not built")


def _pairs(seed: int, count: int) -> list:
    rng = random.Random(seed)
    pairs = []
    for k in range(count):
        n = rng.randrange(60, 260)
        types = rng.randrange(5, 80)
        cand = [rng.randrange(types) for _ in range(n)]
        lacking = [0.0, 0.2, 0.5, 0.9, 1.0][k % 5]
        m = 1 + (k * 7) % 200 if k % 3 else 16 * rng.randrange(1, 12) + rng.choice([-1, 0, 1])
        ref = [1000 + rng.randrange(30) if rng.random() < lacking else rng.randrange(types) for _ in range(m)]
        pairs.append((cand, ref))
    return pairs


@pytest.mark.parametrize("count", [61, 62])  # an odd pair out, and none
@pytest.mark.parametrize("wide", [True, False])  # AVX-512 rows (when the CPU has them), scalar rows
def test_put_off_lcs_rows_with_and_without_the_lacking_tokens(count, wide):
    from rougekit._core import _batch

    pairs = _pairs(count, count)
    want = [float(dp_lcs(r, c)) for c, r in pairs]
    assert any(w == 0 for w in want) and any(w > 0 for w in want)
    cands = [np.array(c, dtype=np.int32) for c, _ in pairs]
    refs = [np.array(r, dtype=np.int32) for _, r in pairs]
    got = {}
    try:
        _batch._wide_rows(wide)
        for mode in (1, 2, 0):  # the widest kept copy, the AVX2 one, every token (before: no such hook)
            _batch._lseq_kept(mode)
            res = rougekit.score(cands, refs, measures=["ROUGE-L", "ROUGE-1"], bootstrap=None, jobs=1)
            got[mode] = res.data[:, 0, :3]
    finally:
        _batch._lseq_kept(1)
        _batch._wide_rows(True)
    for mode in (1, 2, 0):
        assert got[mode][:, 1].tolist() == want  # hits: the LCS
        assert got[mode][:, 0].tolist() == [float(len(r)) for _, r in pairs]  # the reference's tokens, all
        assert got[mode][:, 2].tolist() == [float(len(c)) for c, _ in pairs]


def test_the_kept_tokens_are_used_where_the_cpu_has_avx2_or_avx512():
    from rougekit._core import _batch

    best = simd_level()
    assert _batch._LSEQ_KEPT == best
    try:
        assert _batch._lseq_kept(0) == 0
        assert _batch._lseq_kept(2) == (1 if best else 0)
    finally:
        assert _batch._lseq_kept(1) == best
