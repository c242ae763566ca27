"""rougekit.process: cdist / extract / dedup against rouge-score, rougekit.score and an unpruned brute force.

* the compiled kernels (``_core._process``) equal their pure-Python twin (``_process_pure``);
* the pruned greedy rule and cdist with a cutoff equal an unpruned brute force (Hypothesis: random
  token sequences over small alphabets, so near-duplicates and ties are common);
* rougeL numbers are rouge-score's own (``rouge_score.rouge_scorer._score_lcs``), ROUGE-L's are
  :func:`rougekit.score`'s, to the last bit;
* bad input gives OptionError / InputError / TypeError.
"""

from __future__ import annotations

import numpy as np
import pytest

hypothesis = pytest.importorskip("hypothesis", reason="property tests need hypothesis (the test extra)")
from _oracles import dp_lcs  # noqa: E402
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

import rougekit  # noqa: E402
import rougekit.dask  # noqa: E402  (neither imports Dask nor Spark before a call runs)
import rougekit.spark  # noqa: E402
from rougekit import process  # noqa: E402
from rougekit._core import _process_pure as pure  # noqa: E402
from rougekit.errors import InputError, OptionError  # noqa: E402
from rougekit.process.encode import Encoded  # noqa: E402
from rougekit.rewards import rouge_reward  # noqa: E402

compiled = pytest.importorskip("rougekit._core._process", reason="the compiled kernels are not built")
rouge_scorer = pytest.importorskip("rouge_score.rouge_scorer", reason="rouge-score (the test extra) is not installed")

PROFILE = settings(max_examples=60, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])


def encoded(texts: list[list[int]]) -> Encoded:
    off = np.zeros(len(texts) + 1, dtype=np.int64)
    np.cumsum([len(t) for t in texts], out=off[1:])
    ids = np.array([x for t in texts for x in t], dtype=np.int32)
    return Encoded(ids, off, np.ones(len(texts), dtype=np.int32))


def rs_f(new, kept) -> float:
    """rouge-score's F of ``kept`` (prediction) against ``new`` (target), as Self-Instruct calls it."""
    return rouge_scorer._score_lcs(new, kept).fmeasure


def brute_dedup(texts, threshold, score=None):
    """The plain greedy loop: every new text against every kept one, the max F (first on ties)."""
    score = score or (lambda i, k: rs_f(texts[i], texts[k]))
    kept, dropped = [], []
    for i in range(len(texts)):
        best, match = -1.0, -1
        for k in kept:
            f = score(i, k)
            if f > best:
                best, match = f, k
        if kept and best > threshold:
            dropped.append((i, match, best))
        else:
            kept.append(i)
    return kept, dropped


def run_greedy(module, texts, threshold, block=7):
    enc = encoded(texts)
    vocab = max(enc.vocab, 1)
    rank = np.arange(vocab, dtype=np.int32)[::-1].copy()  # any order gives the same decisions
    state = module._Greedy(threshold, rank)
    keep, match, score = [], [], []
    for s in range(0, len(texts), block):
        part = enc.slice(s, min(len(texts), s + block))
        k = np.zeros(len(part), np.uint8)
        m = np.zeros(len(part), np.int64)
        f = np.zeros(len(part), np.float64)
        state.feed(part.ids, part.off, k, m, f)
        keep += k.tolist()
        match += m.tolist()
        score += f.tolist()
    kept = [i for i, k in enumerate(keep) if k]
    dropped = [(i, match[i], score[i]) for i, k in enumerate(keep) if not k]
    return kept, dropped


texts_strategy = st.lists(st.lists(st.integers(0, 5), min_size=1, max_size=12), min_size=1, max_size=30)
thresholds = st.one_of(st.sampled_from([0.0, 0.5, 0.7, 2 / 3, 0.8, 0.9, 1.0]), st.floats(0, 1))


@PROFILE
@given(texts_strategy, thresholds)
def test_greedy_equals_unpruned_brute_force(texts, threshold):
    expected = brute_dedup(texts, threshold)
    assert run_greedy(compiled, texts, threshold) == expected
    assert run_greedy(pure, texts, threshold, block=5) == expected


@PROFILE
@given(st.lists(st.integers(0, 3), max_size=150), st.lists(st.integers(0, 3), max_size=150))
def test_lcs_kernels_equal_the_dp_table(a, b):
    enc_a, enc_b = encoded([a]), encoded([b])
    for module in (compiled, pure):
        out, zero = np.zeros(1, np.int32), np.zeros(1, np.int64)
        module.lcs_pairs(enc_a.ids, enc_a.off, enc_b.ids, enc_b.off, zero, zero, out, 4)
        assert int(out[0]) == dp_lcs(a, b)


@PROFILE
@given(texts_strategy, texts_strategy, st.sampled_from(["f", "precision", "recall"]), st.none() | thresholds)
def test_cdist_block_equals_rouge_score_with_any_cutoff(queries, choices, stat, cutoff):
    q, c = encoded(queries), encoded(choices)
    got = process.cdist_block(q, c, stat=stat, score_cutoff=cutoff, dtype=np.float64, workers=2)
    for i, a in enumerate(queries):
        for j, b in enumerate(choices):
            s = getattr(rouge_scorer._score_lcs(b, a), {"f": "fmeasure"}.get(stat, stat))
            assert got[i, j] == (s if cutoff is None or s >= cutoff else 0.0)
    out = np.zeros((len(queries), len(choices)), np.float64)
    code = process.blocks.STATS[stat]
    hits = np.zeros((1, 1), np.int32)
    pure.cdist_rows(q.ids, q.off, c.ids, c.off, 0, len(queries), code, -1.0 if cutoff is None else cutoff, out, hits, 6)
    assert np.array_equal(out, got)


def test_score_formula_is_rouge_scores():
    for h, lc, lr in [(7, 10, 10), (1, 3, 7), (2, 3, 4), (0, 5, 5), (13, 17, 19)]:
        expected = rouge_scorer._score_lcs(["x"] * lr, ["x"] * h + ["y"] * (lc - h)).fmeasure
        assert compiled.score_py(0, h, lc, lr) == pure.score_py(0, h, lc, lr) == expected


def test_float_threshold_not_exact_ratio():
    # 7/10 computed as rouge-score does is 0.7 exactly here; F of 7 hits over 10 and 10 tokens is 0.7 (kept),
    # while 2PR/(P+R) of 7/9 and 7/11 is 0.7000000000000001 > 0.7 in float64 (dropped)
    a = "a b c d e f g h i".split()
    b = "a b c d e f g x y z w".split()
    assert rs_f(b, a) == 0.7000000000000001
    r = process.dedup([" ".join(a), " ".join(b)], threshold=0.7)
    assert r.kept == [0] and r.dropped == [process.Dropped(1, 0, 0.7000000000000001)]
    c = "a b c d e f g h i j".split()
    d = "a b c d e f g x y z".split()
    assert rs_f(d, c) == 0.7
    assert process.dedup([" ".join(c), " ".join(d)], threshold=0.7).kept == [0, 1]


def test_dedup_best_match_is_max_then_first():
    texts = ["a b c d e f g h", "a b c d x y z w", "a b c d e f g q", "a b c d e f g q"]
    r = process.dedup(texts, threshold=0.3)
    # text 1 has F 0.5 with 0 (kept); 2 matches 0 (0.875); 3 matches 0 at 0.875 too (2 was dropped)
    assert r.kept == [0]
    assert [(d.index, d.match) for d in r.dropped] == [(1, 0), (2, 0), (3, 0)]
    r = process.dedup(["x y z", "a b c d e f g h", "a b c d e f g q", "a b c d e f g h"], threshold=0.9)
    assert r.dropped == [process.Dropped(3, 1, 1.0)]


def test_cdist_rougeL_equals_rouge_score_on_text():
    queries = ["The cat sat on the mat.", "Police killed the gunman!", "It's 3 p.m. in the U.S."]
    choices = ["the cat was on the mat", "the gunman was shot by police", "U.S. time: 3 pm", "café au lait"]
    for stem in (False, True):
        scorer = rouge_scorer.RougeScorer(["rougeL"], use_stemmer=stem)
        got = process.cdist(queries, choices, measure="rougeL", dtype=np.float64, stem=stem)
        for i, q in enumerate(queries):
            for j, c in enumerate(choices):
                assert got[i, j] == scorer.score(c, q)["rougeL"].fmeasure


@pytest.mark.parametrize("stat", ["f", "recall", "precision"])
def test_cdist_rouge_l_equals_rougekit_score_bit_for_bit(stat):
    queries = ["police kill the gunman", "the cat sat on the mat", "a b c", "gunman police the kill a"]
    choices = ["police killed the gunman", "the gunman was shot", "the cat sat", "mat"]
    for options in ({}, {"stem": True}, {"stopwords": True, "alpha": 0.3}):
        got = process.cdist(queries, choices, stat=stat, dtype=np.float64, **options)
        for i, q in enumerate(queries):
            want = rougekit.score([q] * len(choices), choices, measures=["ROUGE-L"], bootstrap=None, **options)
            assert got[i].tolist() == want.values("ROUGE-L", stat).tolist()
    # two sentences: the union LCS of the engine (pair by pair)
    multi = ["police kill\nthe gunman", "the cat"]
    got = process.cdist(multi, choices, stat=stat, dtype=np.float64, measure="ROUGE-2")
    for i, q in enumerate(multi):
        want = rougekit.score([q] * len(choices), choices, measures=["ROUGE-2"], bootstrap=None)
        assert got[i].tolist() == want.values("ROUGE-2", stat).tolist()


def test_extract():
    choices = ["a dog", "the cat sat down", "the cat", "the cat sat down"]
    got = process.extract("the cat sat", choices, measure="rougeL", limit=3)
    assert [m.index for m in got] == [1, 3, 2]
    assert process.extract_one("the cat sat", choices, measure="rougeL").index == 1
    assert process.extract_one("zebra", choices, measure="rougeL", score_cutoff=0.1) is None
    assert [m.index for m in process.extract("the cat sat", choices, measure="rougeL", limit=None)] == [1, 3, 2, 0]


def test_dedup_other_measure_pairwise():
    texts = ["police kill the gunman", "police killed the gunman", "the cat sat", "the cat sat down"]
    r = process.dedup(texts, threshold=0.5, measure="ROUGE-1")
    scores = {
        (i, k): rougekit.score([texts[k]], [texts[i]], measures=["ROUGE-1"], bootstrap=None).values("ROUGE-1")[0]
        for i in range(4)
        for k in range(4)
    }
    assert (r.kept, [tuple(d) for d in r.dropped]) == brute_dedup(texts, 0.5, lambda i, k: scores[i, k])


def test_bad_input():
    with pytest.raises(OptionError, match="threshold"):
        process.dedup(["a"], threshold=1.5)
    with pytest.raises(OptionError, match="threshold"):
        process.dedup(["a"], threshold=float("nan"))
    with pytest.raises(InputError, match=r"texts\[1\] is empty"):
        process.dedup(["a", "  "])
    with pytest.raises(InputError, match=r"choices\[0\] is empty"):
        process.cdist(["a"], [""])
    with pytest.raises(TypeError, match="not one string"):
        process.dedup("abc")
    with pytest.raises(TypeError, match=r"texts\[0\]"):
        process.dedup([3])
    with pytest.raises(OptionError, match="workers"):
        process.cdist(["a"], ["a"], workers=0)
    with pytest.raises(OptionError, match="stat"):
        process.cdist(["a"], ["a"], stat="hits")
    with pytest.raises(OptionError, match="rouge2"):
        process.dedup(["a"], measure="rouge2")
    with pytest.raises(OptionError, match="stopwords"):
        process.dedup(["a"], stopwords=True)
    with pytest.raises(OptionError, match="keep"):
        process.dedup(["a"], keep="last")
    assert process.dedup([]).kept == []


@pytest.mark.parametrize(
    ("call", "said"),
    [
        (
            lambda: process.cdist(["a"], ["a"], stemm=True),
            "rougekit.process.cdist() got an unexpected keyword argument 'stemm' (did you mean 'stem'?)",
        ),
        (
            lambda: process.cdist(["a"], ["a"], measures=["ROUGE-1"]),
            "rougekit.process.cdist() got an unexpected keyword argument 'measures' (did you mean 'measure'?)",
        ),
        (
            lambda: process.cdist(["a"], ["a"], bootstrap="percentile"),
            "rougekit.process.cdist() got an unexpected keyword argument 'bootstrap'",
        ),
        (
            lambda: process.cdist(["a"], ["a"], resamples=5),
            "rougekit.process.cdist() got an unexpected keyword argument 'resamples'",
        ),
        (
            lambda: process.dedup(["a"], measure="ROUGE-1", ignore_ids=0),
            "rougekit.process.dedup() got an unexpected keyword argument 'ignore_ids'",
        ),
        (
            lambda: process.extract("a", ["a"], stemm=True),
            "rougekit.process.extract() got an unexpected keyword argument 'stemm' (did you mean 'stem'?)",
        ),
        (
            lambda: process.extract("a", ["a"], limt=2),
            "rougekit.process.extract() got an unexpected keyword argument 'limt' (did you mean 'limit'?)",
        ),
        (
            lambda: process.extract_one("a", ["a"], lang_="de"),
            "rougekit.process.extract_one() got an unexpected keyword argument 'lang_' (did you mean 'lang'?)",
        ),
        (
            lambda: process.extract_one("a", ["a"], limit=2),
            "rougekit.process.extract_one() got an unexpected keyword argument 'limit'",
        ),
        (
            lambda: process.dedup(["a"], stemm=True),
            "rougekit.process.dedup() got an unexpected keyword argument 'stemm' (did you mean 'stem'?)",
        ),
        (
            lambda: process.dedup(["a"], measure="ROUGE-L", treshold=0.5),
            "rougekit.process.dedup() got an unexpected keyword argument 'treshold' (did you mean 'threshold'?)",
        ),
        (
            lambda: rougekit.score(["a"], ["a"], stemm=True),
            "rougekit.score() got an unexpected keyword argument 'stemm' (did you mean 'stem'?)",
        ),
        (
            lambda: rougekit.score(["a"], ["a"], measure="ROUGE-1"),
            "rougekit.score() got an unexpected keyword argument 'measure' (did you mean 'measures'?)",
        ),
        (
            lambda: rougekit.explain("a", "a", stemm=True),
            "rougekit.explain() got an unexpected keyword argument 'stemm' (did you mean 'stem'?)",
        ),
        (
            lambda: rougekit.explain("a", "a", fast=True),  # (Python said: multiple values for 'fast')
            "rougekit.explain() got an unexpected keyword argument 'fast'",
        ),
        (
            lambda: rouge_reward("ROUGE-1", refrence_field="gold"),
            "rouge_reward() got an unexpected keyword argument 'refrence_field' (did you mean 'reference_field'?)",
        ),
        (
            lambda: rougekit.dask.score(None, stemm=True),
            "rougekit.dask.score() got an unexpected keyword argument 'stemm' (did you mean 'stem'?)",
        ),
        (
            lambda: rougekit.dask.cdist(["a"], ["a"], workers=2),
            "rougekit.dask.cdist() got an unexpected keyword argument 'workers'",
        ),
        (
            lambda: rougekit.dask.extract(["a"], ["a"], limt=2),
            "rougekit.dask.extract() got an unexpected keyword argument 'limt' (did you mean 'limit'?)",
        ),
        (
            lambda: rougekit.dask.dedup(["a"], stemm=True),
            "rougekit.dask.dedup() got an unexpected keyword argument 'stemm' (did you mean 'stem'?)",
        ),
        (
            lambda: rougekit.spark.score(None, stemm=True),
            "rougekit.spark.score() got an unexpected keyword argument 'stemm' (did you mean 'stem'?)",
        ),
        (
            lambda: rougekit.spark.per_pair(None, stat=("f",)),
            "rougekit.spark.per_pair() got an unexpected keyword argument 'stat' (did you mean 'stats'?)",
        ),
        (
            lambda: rougekit.spark.cdist(["a"], ["a"], meassure="ROUGE-1"),
            "rougekit.spark.cdist() got an unexpected keyword argument 'meassure' (did you mean 'measure'?)",
        ),
        (
            lambda: rougekit.spark.extract(["a"], ["a"], resamples=9),
            "rougekit.spark.extract() got an unexpected keyword argument 'resamples'",
        ),
        (
            lambda: rougekit.spark.dedup(["a"], sparc=None),
            "rougekit.spark.dedup() got an unexpected keyword argument 'sparc' (did you mean 'spark'?)",
        ),
        (
            lambda: process.Encoder("rougeL", stemm=True),
            "rougekit.process.Encoder() got an unexpected keyword argument 'stemm' (did you mean 'stem'?)",
        ),
    ],
)
def test_a_misspelt_keyword_names_the_function_called(call, said):
    # before: "Scorer.__init__() got an unexpected keyword argument 'stemm'" (or dedup's "option 'stemm'
    # does not apply to rouge-score's tokenizer"), for a Scorer the caller never made
    with pytest.raises(TypeError) as info:
        call()
    assert str(info.value) == said


def test_every_option_of_the_functions_still_goes_through():
    assert process.extract("a b", ["a b"], measure="ROUGE-1", stat="recall", workers=1, dtype="float32", stem=True)
    assert process.extract_one("a b", ["a b"], measure="rougeL", stem=True, tokenizer="rouge-score").score == 1.0
    texts = ["police killed the gunman"] * 2
    got = process.dedup(texts, measure="ROUGE-2", tokenizer="unicode", stopwords=True, alpha=0.3, jobs=1)
    assert got.kept == [0]


def test_docs_page_example_runs():
    import re
    from pathlib import Path

    page = (Path(__file__).resolve().parents[1] / "docs" / "process.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", page, re.S)
    assert blocks
    for block in blocks:
        exec(compile(block, "docs/process.md", "exec"), {})


@PROFILE
@given(texts_strategy, thresholds)
def test_greedy_from_pairs_equals_greedy(texts, threshold):
    """The parallel route for rougekit.dask: the lower triangle by cdist_block blocks, then one pass."""
    enc = encoded(texts)
    new, old, score = [], [], []
    for start in range(0, len(texts), 4):  # blocks of 4 new texts against every earlier text
        block = enc.slice(start, min(len(texts), start + 4))
        if start == 0 and len(block) == 1:
            continue
        f = process.cdist_block(block, enc.slice(0, start + len(block)), score_cutoff=threshold, dtype=np.float64)
        for i in range(len(block)):
            for j in range(start + i):
                new.append(start + i)
                old.append(j)
                score.append(rs_f(texts[start + i], texts[j]) if f[i, j] > threshold else 0.0)
    keep, match, best = process.greedy_from_pairs(len(texts), new, old, score, threshold)
    kept = np.flatnonzero(keep).tolist()
    dropped = [(i, int(match[i]), float(best[i])) for i in np.flatnonzero(~keep).tolist()]
    assert (kept, dropped) == brute_dedup(texts, threshold)


@settings(max_examples=25, deadline=None, derandomize=True)
@given(st.lists(st.lists(st.integers(0, 3), min_size=60, max_size=140), min_size=2, max_size=8), thresholds)
def test_greedy_on_long_texts_multiword_lcs(texts, threshold):
    assert run_greedy(compiled, texts, threshold) == brute_dedup(texts, threshold)


def test_greedy_refuses_ids_outside_the_rank_table():
    enc = encoded([[0, 1, 9]])
    with pytest.raises(ValueError, match="token id 9"):
        process.Greedy(0.7, np.arange(5)).feed(enc)


def test_a_lone_surrogate_is_an_input_error():
    """Found by the CLI fuzz: text that has no UTF-8 form is refused by name, not a traceback."""
    from rougekit import process
    from rougekit.errors import InputError

    with pytest.raises(InputError, match="text 2 is not valid Unicode"):
        process.dedup(["a b", "x \ud800 y"])
    with pytest.raises(InputError, match="queries: text 1"):
        process.cdist(["a \ud800"], ["b"])
