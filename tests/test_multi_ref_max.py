"""``multi_ref="max"``: per pair, the reference with the best F (each scored as if it were the only
reference, R/P rounded like the script), the first one on ties; its counts and R/P/F are reported.

Expected values are computed by hand below; the compiled engine (mode "M") must equal the
readable path (``scoring.pair_score``) bit for bit on random corpora of every measure kind.
"""

from __future__ import annotations

import numpy as np
import pytest

import rougekit
from rougekit.engine.batch import AVAILABLE
from rougekit.errors import InputError

needs_batch = pytest.mark.skipif(not AVAILABLE, reason="the compiled batch scorer is not built")


@pytest.mark.parametrize("fast", [True, False])
def test_hand_computed(fast):
    # candidate a b c d (4 unigrams)
    #   ref 1 "a b x y":      hits 2 of 4: R 0.5, P 0.5,  F 0.5
    #   ref 2 "a b c z z z":  hits 3 of 6: R 0.5, P 0.75, F 2*0.5*0.75/1.25 = 0.6  <- max
    # best (-f B) keeps the first best recall (ref 1, a tie at 0.5); sum adds the counts
    cand, refs = ["a b c d"], [["a b x y", "a b c z z z"]]
    rows = {
        mode: rougekit.score(cand, refs, measures="ROUGE-1", multi_ref=mode, fast=fast, bootstrap=None).per_pair()[0][
            "ROUGE-1"
        ]
        for mode in ("max", "best", "sum")
    }
    assert (rows["max"]["recall"], rows["max"]["precision"], rows["max"]["f"]) == (0.5, 0.75, 0.6)
    assert rows["best"]["f"] == 0.5
    assert (rows["sum"]["recall"], rows["sum"]["precision"], rows["sum"]["f"]) == (0.5, 0.625, 0.55556)


@pytest.mark.parametrize("fast", [True, False])
def test_ties_keep_the_first_reference(fast):
    # candidate a b c d; ref 1 (8 tokens, hits 2): R 0.25, P 0.5; ref 2 "c y" (hits 1): R 0.5, P 0.25;
    # both F = 2 * 0.25 * 0.5 / 0.75 = 0.33333: the first reference's numbers are kept
    cand, refs = ["a b c d"], [["a b x x x x x x", "c y"]]
    r = rougekit.score(cand, refs, measures="ROUGE-1", multi_ref="max", fast=fast, bootstrap=None)
    row = r.per_pair()[0]["ROUGE-1"]
    assert (row["recall"], row["precision"], row["f"]) == (0.25, 0.5, 0.33333)
    counts = r.column("ROUGE-1")[0, :3].tolist()
    assert counts == [8.0, 2.0, 4.0]  # model count, hits, peer count of reference 1


@needs_batch
@pytest.mark.parametrize("block", range(4))
def test_random_corpora_compiled_equals_readable(block):
    import test_batch as tb  # the random corpora of the batch tests

    from rougekit.engine.batch import BatchScorer

    checked = 0
    for seed in range(7000 + block * 40, 7000 + block * 40 + 40):
        measures, opts, cands, refs = tb._random_case(seed)
        opts["mode"] = "M"
        try:
            exp = tb._expected(cands, refs, measures, **opts)
        except InputError:
            continue  # ROUGE-W on a reference without tokens
        scorer = BatchScorer(measures, **opts)
        for jobs in (1, 2):
            tb._assert_same(scorer.score_arrays(cands, refs, jobs=jobs), exp, f"seed {seed} {opts} jobs={jobs}")
        checked += 1
    assert checked > 20


def test_api_max_equals_per_reference_best():
    # the API's max row is the single-reference row with the best F
    cands = ["the police killed the gunman", "a b c"]
    refs = [["police kill the gunman", "the gunman was shot by police", "gunman"], ["c b a", "a b c d"]]
    for m in ("ROUGE-1", "ROUGE-2", "ROUGE-L", "ROUGE-W-1.2", "ROUGE-SU4"):
        got = rougekit.score(cands, refs, measures=m, multi_ref="max", bootstrap=None).column(m)
        for i, (c, rs) in enumerate(zip(cands, refs)):
            singles = [rougekit.score([c], [[r]], measures=m, bootstrap=None).column(m)[0] for r in rs]
            best = max(range(len(rs)), key=lambda k: (singles[k][5], -k))
            assert np.array_equal(got[i], singles[best]), (m, i)
