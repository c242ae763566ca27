"""Issue 24: compat's one statistics-to-score step (``compat.scoring.score_of_counts`` and its array
twin ``prf_arrays``) is rouge-score's, to the bit, on every count triple up to 40 (and a few large
ones): against rouge-score's own ``_score_ngrams`` and ``_score_lcs`` fed Counters and token lists
that have those counts, and against the rougeL score of ``rougekit.process`` (``_process_pure.score_py``,
the readable twin of ``_process.pyx``'s ``score_of``, and the compiled one), which do the same float operations.
"""

from __future__ import annotations

import collections
import struct

import numpy as np
import pytest
from rouge_score import rouge_scorer as theirs

from rougekit._core._process_pure import STAT_F, STAT_PRECISION, STAT_RECALL, score_py
from rougekit.compat.scoring import prf_arrays, score_of_counts

STATS = (STAT_F, STAT_PRECISION, STAT_RECALL)
TRIPLES = [(h, m, p) for m in range(41) for p in range(41) for h in range(min(m, p) + 1)]
TRIPLES += [(123_457, 1_000_003, 999_983), (1, 2**31 - 1, 3), (7, 7, 2**40)]


def _bits(score) -> tuple:
    """The exact values and types of a Score (0 and 0.0 differ: rouge-score's empty LCS is int zeros)."""
    return tuple((type(v).__name__, struct.pack("<d", float(v))) for v in score)


def test_score_of_counts_is_rouge_scores_own_arithmetic():
    for hits, model, peer in TRIPLES:
        if model <= 20 and peer <= 20:  # rouge-score's LCS of token lists (its table is quadratic)
            target = ["x"] * hits + ["t"] * (model - hits)
            prediction = ["x"] * hits + ["p"] * (peer - hits)
            assert _bits(score_of_counts(hits, model, peer, lcs=True)) == _bits(theirs._score_lcs(target, prediction))
        target_ngrams = collections.Counter({("x",): hits, ("t",): model - hits})
        prediction_ngrams = collections.Counter({("x",): hits, ("p",): peer - hits})
        assert _bits(score_of_counts(hits, model, peer)) == _bits(
            theirs._score_ngrams(target_ngrams, prediction_ngrams)
        )


def test_the_array_twin_gives_the_same_bits():
    counts = np.array([(m, h, p) for h, m, p in TRIPLES], dtype=np.int64)  # (target count, hits, prediction count)
    for lcs in (False, True):
        precision, recall, f = prf_arrays(counts, lcs)
        for k, (hits, model, peer) in enumerate(TRIPLES):
            one = score_of_counts(hits, model, peer, lcs)
            assert struct.pack("<3d", precision[k], recall[k], f[k]) == struct.pack("<3d", *map(float, one))


@pytest.mark.parametrize("twin", ["readable", "compiled"])
def test_process_rouge_l_score_does_the_same_operations(twin):
    """Both twins of ``process``'s rougeL score: the readable ``score_py`` and the compiled
    ``score_of`` (``_process.score_py`` calls it), every statistic."""
    if twin == "compiled":
        score = pytest.importorskip("rougekit._core._process", reason="the compiled kernels are not built").score_py
    else:
        score = score_py
    for hits, model, peer in TRIPLES:
        one = score_of_counts(hits, model, peer, lcs=True)
        theirs_f, theirs_p, theirs_r = (score(stat, hits, peer, model) for stat in STATS)
        assert struct.pack("<3d", *map(float, one)) == struct.pack("<3d", theirs_p, theirs_r, theirs_f)


def test_a_users_tokens_are_interned_with_empty_ones_counted():
    """The one interner on a user's tokenizer keeps empty tokens, as rouge-score counts them."""
    from rougekit.compat import rouge_scorer as ours

    class Spaces:
        def tokenize(self, text):
            return text.split(" ")  # "a  b" gives an empty token

    types = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
    pairs = [("a  b c", "a b  c"), ("x  y\n z", " x y"), ("", "a"), ("  ", " ")]
    mine, real = ours.RougeScorer(types, tokenizer=Spaces()), theirs.RougeScorer(types, tokenizer=Spaces())
    for target, prediction in pairs:
        assert _bits_all(mine.score(target, prediction)) == _bits_all(real.score(target, prediction))
    assert _bits_all(mine.score_multi([t for t, _ in pairs], "a  b")) == _bits_all(
        real.score_multi([t for t, _ in pairs], "a  b")
    )


def _bits_all(scores: dict) -> dict:
    return {k: _bits(v) for k, v in scores.items()}
