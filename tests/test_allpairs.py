"""Phase 1 of the Self-Instruct rule on a cluster (issue 29): the all-pairs index (``_AllPairs``,
compiled in ``_process`` from allpairs.pxi, and its twin in ``_process_pure``) returns every pair
(old < new) with rouge-score's rougeL F above the threshold, bit for bit the full matrix's and
rouge-score's; phase 2 (``greedy_pairs``) on those pairs gives ``process.dedup``'s decisions."""

from __future__ import annotations

import pickle
import random

import numpy as np
import pytest

from rougekit import process
from rougekit._core import _process_pure as pure
from rougekit.process.blocks import InOrder, PrefixIndex, greedy_from_pairs
from rougekit.process.encode import Encoder, rank_by_frequency

compiled = pytest.importorskip("rougekit._core._process", reason="the compiled kernels are not built")
rouge_scorer = pytest.importorskip("rouge_score.rouge_scorer", reason="rouge-score (the test extra) is not installed")

THRESHOLDS = [0.0, 0.3, 0.5, 0.7, 0.85, 1.0]


def near_duplicates(n: int, seed: int) -> list[str]:
    """Short texts over 14 words, often an earlier one with words dropped, replaced or inserted
    (many pairs above every threshold, many ties), plus texts without a token and exact repeats."""
    rng = random.Random(seed)
    words = "the a cat dog sat ran on mat rug and of police gunman shot".split()
    out: list[str] = []
    for _ in range(n):
        if out and rng.random() < 0.55:
            base = rng.choice(out).split()
            for _ in range(rng.randint(0, 3)):
                op = rng.randrange(3)
                if op == 0 and len(base) > 1:
                    del base[rng.randrange(len(base))]
                elif op == 1 and base:
                    base[rng.randrange(len(base))] = rng.choice(words)
                else:
                    base.insert(rng.randrange(len(base) + 1), rng.choice(words))
            out.append(" ".join(base) or "?")
        else:
            out.append(" ".join(rng.choice(words) for _ in range(rng.randint(0, 14))) or "--")
    return out + ["!!!", "the cat", "the cat", "?", "cat the"]


def brute_pairs(texts: list[str], threshold: float) -> set:
    """(new, old, F) of every pair old < new above the threshold, from the full matrix."""
    f = process.cdist(texts, texts, measure="rougeL", dtype=np.float64)
    return {(j, i, f[i, j]) for j in range(len(texts)) for i in range(j) if f[i, j] > threshold}


def all_pairs(kernels, texts: list[str], threshold: float, block: int, indexed=None) -> tuple[set, object]:
    e = Encoder("rougeL").encode(texts)
    indexed = np.ones(len(texts), np.uint8) if indexed is None else indexed
    ap = kernels._AllPairs(threshold, rank_by_frequency(e), e.ids, e.off, indexed)
    got: set = set()
    for j0 in range(0, len(texts), block):
        new, old, f = ap.pairs(j0, min(len(texts), j0 + block))
        assert new.dtype == np.int64 and old.dtype == np.int64 and f.dtype == np.float64
        assert np.all(old < new) and np.all((new >= j0) & (new < j0 + block))
        got |= set(zip(new.tolist(), old.tolist(), f.tolist()))
    return got, ap


@pytest.mark.parametrize("threshold", THRESHOLDS)
@pytest.mark.parametrize("kernels", [compiled, pure], ids=["compiled", "pure"])
def test_every_pair_above_the_threshold_bit_for_bit(kernels, threshold):
    texts = near_duplicates(220, seed=int(threshold * 100))
    want = brute_pairs(texts, threshold)
    got, ap = all_pairs(kernels, texts, threshold, block=53)
    assert got == want
    assert len(want) > (100 if threshold < 1 else -1)
    if 0.7 <= threshold < 1:  # the bounds work: far fewer LCS than pairs before each text
        assert want and ap.pairs_lcs < len(texts) * (len(texts) - 1) // 2 // 3


def test_the_pairs_are_rouge_scores_own_numbers():
    """Each F is rouge-score's rougeL fmeasure (the new text the target, the old one the prediction)."""
    scorer = rouge_scorer.RougeScorer(["rougeL"])
    texts = near_duplicates(120, seed=5)
    got, _ = all_pairs(compiled, texts, 0.6, block=40)
    assert len(got) > 100
    for new, old, f in got:
        assert f == scorer.score(texts[new], texts[old])["rougeL"].fmeasure
    # by hand: "the cat sat on the mat" / "the cat sat on a mat": LCS 5 of 6 and 6 tokens
    pair, _ = all_pairs(compiled, ["the cat sat on the mat", "the cat sat on a mat"], 0.8, block=2)
    p = r = 5 / 6
    assert pair == {(1, 0, 2 * p * r / (p + r))}


@pytest.mark.parametrize("threshold", [0.0, 0.5, 0.7, 1.0])
def test_texts_left_out_of_the_index_are_never_the_earlier_side(threshold):
    texts = near_duplicates(150, seed=9)
    indexed = np.array([i % 3 != 1 for i in range(len(texts))], np.uint8)
    want = {p for p in brute_pairs(texts, threshold) if indexed[p[1]]}
    for kernels in (compiled, pure):
        got, _ = all_pairs(kernels, texts, threshold, block=150, indexed=indexed)
        assert got == want


@pytest.mark.parametrize("threshold", THRESHOLDS)
def test_phase_two_on_the_pairs_gives_process_dedups_decisions(threshold):
    """skip_repeats (exact repeats out of the earlier side) loses no decision, nor a best match."""
    texts = near_duplicates(300, seed=21)
    want = process.dedup(texts, threshold=threshold)
    e = Encoder("rougeL").encode(texts)
    for skip in (False, True):
        index = PrefixIndex(e, threshold, skip_repeats=skip)
        found = [index.pairs_above(j0, min(len(texts), j0 + 64)) for j0 in range(0, len(texts), 64)]
        got = process.core.dedup_from_pairs(len(texts), found, threshold, "rougeL")
        assert got == want
    assert want.dropped or threshold == 1.0


def test_skip_repeats_leaves_out_exact_repeats_only_below_one():
    texts = ["a b c", "a b c", "!!", "?", "a b", "a b c", "b a c"]
    e = Encoder("rougeL").encode(texts)
    assert PrefixIndex(e, 0.5, skip_repeats=True).indexed.tolist() == [1, 0, 1, 1, 1, 0, 1]
    assert PrefixIndex(e, 1.0, skip_repeats=True).indexed.tolist() == [1] * 7
    new, old, f = PrefixIndex(e, 0.5, skip_repeats=True).pairs_above(5, 7)
    assert sorted(zip(new.tolist(), old.tolist())) == [(5, 0), (5, 4), (6, 0)]  # never old 1 or 5


def test_greedy_pairs_twins_agree_with_the_rule_by_hand():
    # text 1 dropped by 0; 2 matches only the dropped 1 (kept); 3: kept 0 and 2 tie at 0.8 -> 0 (first)
    new, old = np.array([1, 2, 3, 3], np.int64), np.array([0, 1, 0, 2], np.int64)
    score = np.array([0.9, 0.95, 0.8, 0.8])
    for kernels in (compiled, pure):
        keep, match, best = np.ones(4, np.uint8), np.full(4, -1, np.int64), np.zeros(4)
        kernels.greedy_pairs(new, old, score, keep, match, best)
        assert keep.tolist() == [1, 0, 1, 0] and match.tolist() == [-1, 0, -1, 0] and best.tolist() == [0, 0.9, 0, 0.8]
    keep, match, best = greedy_from_pairs(4, new[::-1], old[::-1], score[::-1], 0.7)  # any order given
    assert keep.tolist() == [True, False, True, False] and match.tolist() == [-1, 0, -1, 0]


def test_a_pickled_index_carries_the_ids_not_the_compiled_index():
    texts = near_duplicates(200, seed=4)
    index = PrefixIndex(Encoder("rougeL").encode(texts), 0.7)
    first = index.pairs_above(0, 200)
    assert index._kernel is not None
    copy = pickle.loads(pickle.dumps(index))
    assert copy._kernel is None
    again = copy.pairs_above(0, 200)
    assert all(np.array_equal(a, b) for a, b in zip(first, again)) and len(first[0]) > 50
    assert len(copy) == len(texts) == 205


@pytest.mark.parametrize("kernels", [compiled, pure], ids=["compiled", "pure"])
def test_bad_inputs_are_refused(kernels):
    rank = np.arange(3, dtype=np.int32)
    ones = np.ones(2, np.uint8)
    with pytest.raises(ValueError, match="token id 3 outside the rank table"):
        kernels._AllPairs(0.5, rank, np.array([0, 3], np.int32), np.array([0, 1, 2], np.int64), ones)
    with pytest.raises(ValueError, match="indexed one per text"):
        kernels._AllPairs(0.5, rank, np.array([0, 1], np.int32), np.array([0, 1, 2], np.int64), np.ones(3, np.uint8))
    ap = kernels._AllPairs(0.5, rank, np.array([0, 1], np.int32), np.array([0, 1, 2], np.int64), ones)
    with pytest.raises(ValueError, match="outside the 2 texts"):
        ap.pairs(1, 3)
    assert [len(a) for a in ap.pairs(0, 2)] == [0, 0, 0]


hypothesis = pytest.importorskip("hypothesis", reason="property tests need hypothesis (the test extra)")
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

_text = st.lists(st.sampled_from("a b c d e".split()), min_size=0, max_size=9).map(lambda w: " ".join(w) or "?")


@settings(max_examples=60, deadline=None)
@given(texts=st.lists(_text, min_size=1, max_size=25), threshold=st.sampled_from([0.0, 0.2, 0.5, 2 / 3, 0.75, 1.0]))
def test_property_the_twins_find_the_matrixs_pairs(texts, threshold):
    want = brute_pairs(texts, threshold)
    assert all_pairs(compiled, texts, threshold, block=7)[0] == want
    assert all_pairs(pure, texts, threshold, block=7)[0] == want


@pytest.mark.parametrize("kernels", [compiled, pure], ids=["compiled", "pure"])
def test_skipped_texts_are_never_the_earlier_side(kernels):
    """pairs(j0, j1, skip): the texts s < len(skip) with skip[s] set are left out of the old side,
    every other pair of the full matrix is still found (masks shorter, as long as, and past j0)."""
    texts = near_duplicates(260, seed=5)
    e = Encoder("rougeL").encode(texts)
    ap = kernels._AllPairs(0.5, rank_by_frequency(e), e.ids, e.off, np.ones(len(texts), np.uint8))
    full = brute_pairs(texts, 0.5)
    rng = np.random.default_rng(4)
    for length in (0, 17, 120, 200, len(texts)):
        skip = (rng.random(length) < 0.6).astype(np.uint8)
        want = {p for p in full if p[0] in range(100, 200) and not (p[1] < length and skip[p[1]])}
        new, old, f = ap.pairs(100, 200, skip)
        assert set(zip(new.tolist(), old.tolist(), f.tolist())) == want
        assert skip.sum() > 0 or length == 0
    assert len(want) < len({p for p in full if p[0] in range(100, 200)})


@pytest.mark.parametrize("threshold", [0.3, 0.7, 1.0])
def test_blocks_in_any_order_with_the_dropped_so_far_give_process_dedups_decisions(threshold):
    """InOrder as the drivers use it: blocks found in a shuffled order, each told the texts dropped
    when it was started (a stale mask too), resolved in input order: process.dedup's decisions."""
    texts = near_duplicates(400, seed=33)
    want = process.dedup(texts, threshold=threshold)
    index = PrefixIndex(Encoder("rougeL").encode(texts), threshold, skip_repeats=True)
    rng = random.Random(threshold)
    blocks = [(j0, min(len(texts), j0 + 37)) for j0 in range(0, len(texts), 37)]
    order = InOrder(len(texts), threshold)
    started = {}
    pending = list(blocks)
    while pending or started:
        if pending and (not started or rng.random() < 0.5):  # start a block with today's mask
            block = pending.pop(0)
            started[block] = order.dropped()
        else:  # one started block ends, not necessarily the first
            block = rng.choice(sorted(started))
            order.add(*block, index.pairs_above(*block, started.pop(block)))
    got = process.core.dedup_decided(order.result(), threshold, "rougeL")
    assert got == want
    assert threshold == 1.0 or order.dropped()[1] == len(texts) and np.unpackbits(order.dropped()[0]).sum() > 50


def test_in_order_refuses_bad_blocks_and_pairs():
    order = InOrder(5, 0.5)
    with pytest.raises(ValueError, match="not decided"):
        order.result()
    order.add(2, 5, ([], [], []))
    with pytest.raises(ValueError, match="twice"):
        order.add(2, 4, ([], [], []))
    with pytest.raises(ValueError, match="1 <= new < 2|0 <= new < 2"):
        order.add(0, 2, ([2], [0], [0.9]))  # a new text outside its block
    order = InOrder(3, 0.5)
    with pytest.raises(ValueError, match="old < new"):
        order.add(0, 3, ([1], [1], [0.9]))
    assert InOrder(0, 0.5).result()[0].tolist() == []


@pytest.mark.parametrize("kernels", [compiled, pure], ids=["compiled", "pure"])
def test_forgetting_dropped_texts_changes_no_pair_of_the_others(kernels):
    """forget(skip) in steps (the sorted part grows, the tail shrinks): every later block finds the
    full matrix's pairs but those of the forgotten texts, as a skip mask alone gives them."""
    texts = near_duplicates(330, seed=8)
    e = Encoder("rougeL").encode(texts)
    ap = kernels._AllPairs(0.5, rank_by_frequency(e), e.ids, e.off, np.ones(len(texts), np.uint8))
    full = brute_pairs(texts, 0.5)
    skip = (np.random.default_rng(2).random(len(texts)) < 0.5).astype(np.uint8)
    for step in (0, 40, 41, 150, 260):
        ap.forget(skip[:step])
        for j0, j1 in ((step, step + 30), (280, 330)):
            want = {p for p in full if j0 <= p[0] < j1 and not (p[1] < step and skip[p[1]])}
            new, old, f = ap.pairs(j0, j1)
            assert set(zip(new.tolist(), old.tolist(), f.tolist())) == want
            assert np.all(np.diff(new) >= 0) and all(np.all(np.diff(old[new == k]) > 0) for k in set(new.tolist()))
    with pytest.raises(ValueError, match="skip has"):
        ap.forget(np.zeros(len(texts) + 1, np.uint8))


def test_threads_probing_and_forgetting_one_index_give_the_serial_decisions():
    """PrefixIndex.pairs_above on 4 threads, masks growing as blocks are decided: the index forgets
    dropped texts between probes (never during one); the decisions are process.dedup's."""
    import concurrent.futures as cf

    import rougekit.process.blocks as pb

    texts = near_duplicates(1500, seed=12)
    want = process.dedup(texts, threshold=0.6)
    index = PrefixIndex(Encoder("rougeL").encode(texts), 0.6, skip_repeats=True)
    order = InOrder(len(texts), 0.6)
    blocks = [(j0, min(len(texts), j0 + 25)) for j0 in range(0, len(texts), 25)]
    old_every = pb._FORGET_EVERY
    pb._FORGET_EVERY = 50  # forget often
    try:
        with cf.ThreadPoolExecutor(4) as pool:
            running = {}
            todo = iter(blocks)
            for block in [next(todo) for _ in range(8)]:
                running[pool.submit(index.pairs_above, *block, order.dropped())] = block
            while running:
                done, _ = cf.wait(running, return_when=cf.FIRST_COMPLETED)
                for future in done:
                    order.add(*running.pop(future), future.result())
                    block = next(todo, None)
                    if block is not None:
                        running[pool.submit(index.pairs_above, *block, order.dropped())] = block
    finally:
        pb._FORGET_EVERY = old_every
    assert process.core.dedup_decided(order.result(), 0.6, "rougeL") == want
    assert index._forgotten > 0  # forgotten on the way
