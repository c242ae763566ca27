"""ROUGE-SU with the paper's unigrams (``su_unigrams="all"``) on the compiled batch engine (issue 24):
its kind spec split into ROUGE-S's skip-bigram row and ROUGE-1's unigram row (kinds.py ``counted``),
the first folded into the second per reference by the engine before the multi-reference rule (sum,
best and max); the numbers bit-identical to the per-pair path."""

import random

import pytest

import rougekit
from rougekit.engine.batch import batch_supported
from rougekit.measures import Measure

np = pytest.importorskip("numpy")
pytestmark = pytest.mark.skipif(not rougekit.Scorer().reads_arrow(), reason="the compiled engine is not built")

MEASURES = ["ROUGE-SU4", "ROUGE-1", "ROUGE-SU*", "ROUGE-S2", "ROUGE-L", "ROUGE-SU0"]
WORDS = "the cat sat on mat a dog ran police killed gunman running cats played of".split()


def _pairs(seed, n=300):
    rng = random.Random(seed)

    def text():
        lines = [" ".join(rng.choice(WORDS) for _ in range(rng.randint(0, 9))) for _ in range(rng.randint(1, 3))]
        return "\n".join(lines)

    return [text() for _ in range(n)], [[text() for _ in range(rng.randint(1, 3))] for _ in range(n)]


def test_by_hand():
    # "a b c" against "a b d", skip 4: skip-bigrams ab ac bc / ab ad bd (1 hit); the paper's unigrams,
    # every token: a b c / a b d (2 hits): R = P = 3 / 6. The script's (all but the last token): a b / a b,
    # R = P = 3 / 5
    scorer = rougekit.Scorer(["ROUGE-SU4"], su_unigrams="all", bootstrap=None)
    assert scorer._batch() is not None  # counted by the compiled engine
    assert scorer.statistics(["a b c"], [["a b d"]])[0][0, 0].tolist() == [6, 3, 6, 0.5, 0.5, 0.5]
    script = rougekit.Scorer(["ROUGE-SU4"], bootstrap=None).statistics(["a b c"], [["a b d"]])[0]
    assert script[0, 0].tolist() == [5, 3, 5, 0.6, 0.6, 0.6]


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("options", [{}, {"stem": True}, {"stopwords": True, "word_limit": 5}, {"alpha": 0.8}])
def test_batch_equals_the_per_pair_path(seed, options):
    cands, refs = _pairs(seed)
    fast = rougekit.Scorer(MEASURES, su_unigrams="all", bootstrap=None, **options)
    assert fast._batch() is not None
    slow = rougekit.Scorer(MEASURES, su_unigrams="all", bootstrap=None, fast=False, **options)
    got, want = fast.statistics(cands, refs)[0], slow.statistics(cands, refs)[0]
    assert (got == want).all()
    script = rougekit.Scorer(MEASURES, bootstrap=None, **options).statistics(cands, refs)[0]
    assert (got[:, 0, 0] > script[:, 0, 0]).any()  # the unigram of each summary's last token counts


@pytest.mark.parametrize("rule", ["sum", "best", "max"])
def test_other_feeds_equal_the_per_pair_path(rule):
    cands, refs = _pairs(7, 120)
    slow = rougekit.Scorer(MEASURES, su_unigrams="all", multi_ref=rule, bootstrap=None, fast=False)
    want = slow.statistics(cands, refs)[0]
    pa = pytest.importorskip("pyarrow")
    fast = rougekit.Scorer(MEASURES, su_unigrams="all", multi_ref=rule, bootstrap=None)
    assert (fast.statistics(pa.array(cands), pa.array(refs))[0] == want).all()  # Arrow columns
    uni = dict(su_unigrams="all", multi_ref=rule, bootstrap=None, tokenizer="unicode")  # the id feed
    assert rougekit.Scorer(MEASURES, **uni)._batch() is not None
    assert (
        rougekit.Scorer(MEASURES, **uni).statistics(cands, refs)[0]
        == rougekit.Scorer(MEASURES, fast=False, **uni).statistics(cands, refs)[0]
    ).all()
    ids = [[1, 2, 3, 1], [4, 2, 2]]
    ref_ids = [[[1, 2, 4]], [[2, 4], [4, 4, 2, 5]]]
    assert (fast.statistics(ids, ref_ids)[0] == slow.statistics(ids, ref_ids)[0]).all()  # token ids


@pytest.mark.parametrize("rule", ["best", "max"])
@pytest.mark.parametrize("options", [{}, {"stem": True}, {"stopwords": True, "word_limit": 5}, {"alpha": 0.8}])
def test_best_and_max_run_in_the_batch_engine(rule, options):
    """-f B and max choose a reference by the summed counts of each (the engine folds ROUGE-S's row
    into ROUGE-1's before its rule): counted by the compiled engine, bit for bit the per-pair path."""
    ms = [Measure.parse(x) for x in MEASURES]
    ok = dict(tokenizer="rouge155", word_limit=0, byte_limit=0, su_unigrams="all", wlcs="rouge155")
    assert batch_supported(ms, multi_ref=rule, **ok)
    assert batch_supported(["ROUGE-SU4"], multi_ref=rule, **ok)  # names, as the planner may pass
    cands, refs = _pairs(3, 300)
    fast = rougekit.Scorer(MEASURES, su_unigrams="all", multi_ref=rule, bootstrap=None, **options)
    assert fast._batch() is not None
    slow = rougekit.Scorer(MEASURES, su_unigrams="all", multi_ref=rule, bootstrap=None, fast=False, **options)
    got, want = fast.statistics(cands, refs)[0], slow.statistics(cands, refs)[0]
    assert (got == want).all()


def test_best_and_max_by_hand():
    # candidate "a b c" (6 units: ab ac bc and a b c); reference 1 "a b d": 6 units, hits ab a b:
    # R = P = F = 0.5; reference 2 "c": 1 unit (c), 1 hit: R = 1, P = 0.16667, F from the rounded
    # values 2 * 0.16667 / 1.16667 = 0.285717. -f B keeps the
    # best summed recall (the second), max the best F (the first)
    for rule, want in (("best", [1, 1, 6, 1.0, 0.16667, 0.28572]), ("max", [6, 3, 6, 0.5, 0.5, 0.5])):
        scorer = rougekit.Scorer(["ROUGE-SU4"], su_unigrams="all", multi_ref=rule, bootstrap=None)
        assert scorer._batch() is not None
        assert scorer.statistics(["a b c"], [["a b d", "c"]])[0][0, 0].tolist() == want, rule
