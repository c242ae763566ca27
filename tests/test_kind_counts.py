"""``kind_counts``: several rows of the kind table on one pair in one kernel call. The compiled
kernel equals its pure twin, and each row equals the family's own per-reference statistics
(``reference_stats``, the per-pair kernels the readable path calls)."""

from __future__ import annotations

import random

import pytest

from rougekit._core import _pure
from rougekit._core.kinds import Kind
from rougekit.measures import Measure
from rougekit.measures.counts import Doc
from rougekit.scoring import reference_stats

_batch = pytest.importorskip("rougekit._core._batch", reason="the compiled engine is not built")

SPECS = [
    (int(Kind.N), 1, 0.0),
    (int(Kind.N), 3, 0.0),
    (int(Kind.ND), 1, 0.0),
    (int(Kind.ND), 2, 0.0),
    (int(Kind.ND), 4, 0.0),
    (int(Kind.S), 2, 0.0),
    (int(Kind.SU), -1, 0.0),
    (int(Kind.L), 0, 0.0),
    (int(Kind.LSEQ), 0, 0.0),
    (int(Kind.LD), 0, 0.0),
]
MEASURES = {int(Kind.ND): "ROUGE-{n}-DISTINCT", int(Kind.LD): "ROUGE-L-DISTINCT", int(Kind.L): "ROUGE-L"}


def _side(rng, vocab):
    sents = [[rng.randrange(vocab) for _ in range(rng.randint(0, 12))] for _ in range(rng.randint(1, 4))]
    return [t for s in sents for t in s], sents


@pytest.mark.parametrize("vocab", [3, 12, 400, 1 << 20])  # large ids: the dense-id table
def test_compiled_equals_the_twin_and_reference_stats(vocab):
    rng = random.Random(vocab)
    for _ in range(300):
        peer, ps = _side(rng, vocab)
        model, ms = _side(rng, vocab)
        compiled = _batch.kind_counts(peer, model, SPECS, ps, ms)
        assert compiled == _pure.kind_counts(peer, model, SPECS, ps, ms)
        for k, (kind, n, _) in enumerate(SPECS):
            if kind in MEASURES:
                m = Measure.parse(MEASURES[kind].format(n=n))
                st = reference_stats(m, Doc(peer, ps), Doc(model, ms))
                assert compiled[3 * k : 3 * k + 3] == (st.hits, st.model_count, st.peer_count)


def test_counts_by_hand():
    # peer "a b a b c" (ids 0 1 0 1 2), model "a b c d a" (0 1 2 3 0), one sentence each
    peer, model = [0, 1, 0, 1, 2], [0, 1, 2, 3, 0]
    out = _batch.kind_counts(peer, model, [(int(Kind.N), 1, 0.0), (int(Kind.ND), 2, 0.0), (int(Kind.LSEQ), 0, 0.0)])
    # unigrams clipped: a 2, b 1, c 1 = 4 of 5 / 5; distinct bigrams {ab, ba, bc} vs {ab, bc, cd, da}: 2 of
    # 4 / 3; LCS "a b c" = 3
    assert out == (4, 5, 5, 2, 4, 3, 3, 5, 5)


def test_refuses_rouge_w_and_bad_orders():
    with pytest.raises(ValueError, match="kind code 2"):
        _batch.kind_counts([1], [1], [(int(Kind.W), 0, 1.2)])
    with pytest.raises(ValueError, match="kind code 2"):
        _pure.kind_counts([1], [1], [(int(Kind.W), 0, 1.2)])
    with pytest.raises(ValueError, match="n must be >= 1"):
        _batch.kind_counts([1], [1], [(int(Kind.ND), 0, 0.0)])
