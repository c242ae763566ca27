"""process.dedup's candidate filters (issue 29) against rouge-score itself.

* the prefix lengths of the two-part index cover every (length, partner length, LCS) whose
  rouge-score F (``rouge_score.scoring.fmeasure``) passes the threshold, for lengths 0..45;
* seeded corpora that stress the filters (near and exact repeats, splices, lengths 1..60,
  empty texts, thresholds 0, 0.5, 0.7, 0.99, 1.0): the decisions of ``process.dedup`` on text
  (without the empty texts, which it refuses) and of both kernels (compiled, pure twin) on
  token ids equal the brute-force greedy loop on rouge-score's ``_score_lcs``
  (every new text against every kept one, the first best);
* a Hypothesis property on longer texts with repeats.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from rougekit import process
from rougekit._core import _process_pure as pure
from rougekit.process.encode import Encoded

compiled = pytest.importorskip("rougekit._core._process", reason="the compiled kernels are not built")
rouge_scorer = pytest.importorskip("rouge_score.rouge_scorer", reason="rouge-score (the test extra) is not installed")
scoring = pytest.importorskip("rouge_score.scoring")

THRESHOLDS = (0.0, 0.5, 0.7, 0.99, 1.0)


@pytest.mark.parametrize("t", THRESHOLDS + (2 / 3, 0.3, 0.8, 0.9))
def test_prefix_lengths_cover_every_passing_pair(t):
    """A pair of lengths (n, m) whose LCS h passes needs overlap h: the prefix principle then
    asks n - h + 1 <= the prefix used on each side (short/long by which side is longer)."""
    for n in range(0, 46):
        got = compiled.prefix_lengths_py(n, t)
        assert got == pure.prefix_lengths_py(n, t)
        short, long_, probe_short, probe_long = got
        assert 0 <= short <= long_ <= n and 0 <= probe_short <= n and 0 <= probe_long <= n
        for m in range(1, 3 * n + 6):
            for h in range(1, min(n, m) + 1):
                if not scoring.fmeasure(h / n, h / m) > t:
                    continue
                assert n - h + 1 <= long_, (n, m, h)
                if m >= n:  # n is the kept side of a pair with a longer (or equal) new text
                    assert n - h + 1 <= short, (n, m, h)
                    assert n - h + 1 <= probe_long or m == n, (n, m, h)
                if m <= n:
                    assert n - h + 1 <= probe_short, (n, m, h)


def test_prefix_lengths_are_short_at_0_7():
    """The point of the split: a 20-token text indexes 6 tokens for partners as long or longer
    (F > 0.7 needs 15 in common: 14 of 20 and 20 scores 0.7), 10 for shorter ones (11 of 20
    and 11 scores 0.7097), and probes the longer ones with 6."""
    assert compiled.prefix_lengths_py(20, 0.7) == (6, 10, 10, 6)
    assert scoring.fmeasure(14 / 20, 14 / 20) <= 0.7 < scoring.fmeasure(15 / 20, 15 / 20)
    assert scoring.fmeasure(10 / 20, 10 / 10) <= 0.7 < scoring.fmeasure(11 / 20, 11 / 11)
    assert compiled.prefix_lengths_py(0, 0.7) == (0, 0, 0, 0)
    assert compiled.prefix_lengths_py(5, 1.0) == (0, 0, 0, 0)  # F > 1 never: nothing indexed


def _corpus(seed: int, n: int) -> list[list[str]]:
    """Texts of 0..60 words over a Zipf-like vocabulary, with near repeats, repeats and splices."""
    rng = random.Random(seed)
    common = [f"w{k}" for k in range(8)]
    rare = [f"r{k}" for k in range(400)]
    out: list[list[str]] = []
    for _ in range(n):
        kind = rng.random()
        if out and kind < 0.35:  # a near repeat: a few drops, swaps, substitutions
            x = list(rng.choice(out))
            for _ in range(rng.randint(0, 3)):
                op, k = rng.randrange(3), rng.randrange(len(x)) if x else 0
                if not x:
                    break
                if op == 0:
                    del x[k]
                elif op == 1 and k + 1 < len(x):
                    x[k], x[k + 1] = x[k + 1], x[k]
                else:
                    x[k] = rng.choice(common + rare)
            out.append(x)
        elif out and kind < 0.45:
            out.append(list(rng.choice(out)))  # an exact repeat
        elif len(out) > 1 and kind < 0.6:  # a splice of two earlier texts
            a, b = rng.choice(out), rng.choice(out)
            out.append(a[: rng.randint(0, len(a))] + b[rng.randint(0, len(b)) :])
        elif kind < 0.63:
            out.append([])
        else:
            size = rng.choice([1, 2, 3, rng.randint(1, 60), rng.randint(10, 40)])
            out.append([rng.choice(common) if rng.random() < 0.5 else rng.choice(rare) for _ in range(size)])
    return out


def _brute(scores: np.ndarray, threshold: float):
    """The greedy loop over rouge-score's F matrix (scores[i, k]: new i against kept k)."""
    kept: list[int] = []
    dropped: list[tuple[int, int, float]] = []
    for i in range(len(scores)):
        best, match = -1.0, -1
        for k in kept:
            if scores[i, k] > best:
                best, match = float(scores[i, k]), k
        if kept and best > threshold:
            dropped.append((i, match, best))
        else:
            kept.append(i)
    return kept, dropped


def _rouge_score_matrix(texts: list[list[str]]) -> np.ndarray:
    f = np.zeros((len(texts), len(texts)))
    for i in range(len(texts)):
        for k in range(i):
            f[i, k] = rouge_scorer._score_lcs(texts[i], texts[k]).fmeasure
    return f


def _kernel(module, ids: list[list[int]], threshold: float, rank: np.ndarray, block: int):
    off = np.zeros(len(ids) + 1, dtype=np.int64)
    np.cumsum([len(t) for t in ids], out=off[1:])
    flat = np.array([x for t in ids for x in t], dtype=np.int32)
    enc = Encoded(flat, off, np.ones(len(ids), dtype=np.int32))
    state = module._Greedy(threshold, rank)
    keep, match, score = [], [], []
    for s in range(0, len(ids), block):
        part = enc.slice(s, min(len(ids), s + block))
        k, m, f = np.zeros(len(part), np.uint8), np.zeros(len(part), np.int64), np.zeros(len(part))
        state.feed(np.ascontiguousarray(part.ids[part.off[0] : part.off[-1]]), part.off - part.off[0], k, m, f)
        keep += k.tolist()
        match += m.tolist()
        score += f.tolist()
    kept = [i for i, k in enumerate(keep) if k]
    stats = (state.pairs_met, state.pairs_cand)
    return (kept, [(i, match[i], score[i]) for i, k in enumerate(keep) if not k]), stats, state.pairs_lcs


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_dedup_equals_rouge_score_brute_force_on_stress_corpora(seed):
    texts = _corpus(seed, 140)
    scores = _rouge_score_matrix(texts)
    vocab = sorted({w for t in texts for w in t})
    index = {w: k for k, w in enumerate(vocab)}
    ids = [[index[w] for w in t] for t in texts]
    counts = np.bincount([x for t in ids for x in t], minlength=len(vocab))
    by_frequency = np.empty(len(vocab), np.int32)
    by_frequency[np.argsort(counts, kind="stable")] = np.arange(len(vocab), dtype=np.int32)
    for threshold in THRESHOLDS:
        expected = _brute(scores, threshold)
        full = [k for k, t in enumerate(texts) if t]  # the text API refuses texts with no words
        r = process.dedup([" ".join(texts[k]) for k in full], threshold=threshold)
        assert (r.kept, [tuple(d) for d in r.dropped]) == _brute(scores[np.ix_(full, full)], threshold), threshold
        for rank in (by_frequency, np.arange(len(vocab), dtype=np.int32)):
            got_c, met_c, lcs_c = _kernel(compiled, ids, threshold, rank, 16)
            got_p, met_p, lcs_p = _kernel(pure, ids, threshold, rank, 9)
            assert got_c == expected and got_p == expected, threshold
            assert (met_c, lcs_c) == (met_p, lcs_p)  # the twins make the same decisions on the way


hypothesis = pytest.importorskip("hypothesis", reason="property tests need hypothesis (the test extra)")
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402


@st.composite
def repeated_texts(draw):
    """Texts of 0..60 tokens over a small alphabet, a third of them edited copies of earlier ones."""
    out: list[list[int]] = []
    for _ in range(draw(st.integers(1, 25))):
        if out and draw(st.booleans()) and draw(st.booleans()):
            x = list(draw(st.sampled_from(out)))
            for _ in range(draw(st.integers(0, 2))):
                if x:
                    k = draw(st.integers(0, len(x) - 1))
                    x[k] = draw(st.integers(0, 9))
            out.append(x)
        else:
            out.append(draw(st.lists(st.integers(0, 9), max_size=60)))
    return out


@settings(max_examples=40, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(repeated_texts(), st.sampled_from(THRESHOLDS + (2 / 3, 0.8)))
def test_greedy_equals_rouge_score_property(texts, threshold):
    expected = _brute(_rouge_score_matrix(texts), threshold)
    rank = np.arange(10, dtype=np.int32)[::-1].copy()
    got_c, met_c, lcs_c = _kernel(compiled, texts, threshold, rank, 4)
    got_p, met_p, lcs_p = _kernel(pure, texts, threshold, rank, 3)
    assert got_c == expected and got_p == expected
    assert (met_c, lcs_c) == (met_p, lcs_p)


def test_signature_bound_holds_and_is_tight():
    """The 128-bit token signatures' overlap bound: the twins agree, it is never below the true
    multiset overlap, and it meets it on many pairs (so a bound one lower would be wrong)."""
    rng = random.Random(29)
    tight = 0
    for _ in range(3000):
        alphabet = rng.choice((6, 40, 300, 5000))
        x = [rng.randrange(alphabet) for _ in range(rng.randint(0, 45))]
        y = [rng.randrange(alphabet) for _ in range(rng.randint(0, 45))]
        sx, sy = pure.signature_py(x), pure.signature_py(y)
        cx = compiled.signature_py(np.array(x, np.int32))
        cy = compiled.signature_py(np.array(y, np.int32))
        assert cx == (sx & (2**64 - 1), sx >> 64) and cy == (sy & (2**64 - 1), sy >> 64)
        bound = pure.sig_bound_py(sx, len(x), sy, len(y))
        assert bound == compiled.sig_bound_py(cx[0], cx[1], len(x), cy[0], cy[1], len(y))
        overlap = pure._overlap(sorted(x), sorted(y))
        assert bound >= overlap
        tight += bound == overlap
    assert tight > 500


def test_texts_over_64_tokens_equal_rouge_score_brute_force():
    """Texts of 65-120 tokens take the bag-of-words overlap before the LCS; the kept texts' id-sorted
    copy is no longer stored but sorted when needed. Shuffles (full bag overlap, lower LCS), edits and
    fresh texts over 12 words: the twins' decisions equal the greedy loop on rouge-score's F, with
    the same LCS count (an overlap computed wrong would change it, or a decision)."""
    rng = random.Random(64)
    texts: list[list[str]] = []
    for _ in range(36):
        kind = rng.random()
        if texts and kind < 0.35:
            t = list(rng.choice(texts))
            rng.shuffle(t)
        elif texts and kind < 0.7:
            t = list(rng.choice(texts))
            for _ in range(rng.randint(1, 25)):
                t[rng.randrange(len(t))] = f"w{rng.randrange(12)}"
        else:
            t = [f"w{rng.randrange(12)}" for _ in range(rng.randint(65, 120))]
        texts.append(t)
    scores = _rouge_score_matrix(texts)
    index = {w: k for k, w in enumerate(sorted({w for t in texts for w in t}))}
    ids = [[index[w] for w in t] for t in texts]
    rank = np.arange(len(index), dtype=np.int32)[::-1].copy()
    for threshold in (0.5, 0.7, 0.9):
        expected = _brute(scores, threshold)
        got_c, met_c, lcs_c = _kernel(compiled, ids, threshold, rank, 5)
        got_p, met_p, lcs_p = _kernel(pure, ids, threshold, rank, 7)
        assert got_c == expected and got_p == expected, threshold
        assert (met_c, lcs_c) == (met_p, lcs_p)
        assert 0 < len(expected[0]) < len(texts), threshold  # some kept, some dropped


def test_index_memory_counts_the_entries():
    """``_Greedy.index_memory`` (what bench_dedup.py reports): 20 kept texts of 30 distinct fresh
    tokens each hold the first ``prefix_lengths(30, 0.7)[1]`` = 14 of them (the least LCS any partner
    needs is 17: 2 x 17 / 47 = 0.723 > 0.7 with 17 tokens, 2 x 16 / 46 = 0.696 with 16; 30 - 17 + 1):
    no shared token, every text kept, 280 entries, at least 260 slots of ``posting_bytes_py()`` bytes, and the 600 kept
    tokens' 4 bytes each, in the bytes."""
    assert compiled.prefix_lengths_py(30, 0.7)[1] == 14
    ids = np.arange(600, dtype=np.int32)
    state = compiled._Greedy(0.7, np.arange(600, dtype=np.int32))
    keep = np.zeros(20, np.uint8)
    state.feed(ids, np.arange(0, 601, 30, dtype=np.int64), keep, np.zeros(20, np.int64), np.zeros(20))
    assert keep.all()
    held, slots, nbytes = state.index_memory
    assert held == 280 and slots >= 280
    assert nbytes >= slots * compiled.posting_bytes_py() + 600 * 4


@pytest.mark.parametrize("module", [compiled, pure], ids=["compiled", "pure"])
def test_index_reads_only_the_lengths_that_can_pass(module):
    """Each token's entries are sorted by the kept text's length (the newest few excepted), and a
    probe reads only the lengths that can pass. 32 kept texts of 40 tokens share only the rarest
    token (id 0): sorted in twice (at 16, then at 32 = 16 + 16). A 10-token text holding it reads
    none of them: its F against 40 tokens is at most 2 x 10 / 50 = 0.4; its own entry is then the
    one unsorted (newest) entry. A 40-token text reads the 32 and that one."""
    fresh = iter(range(1, 10_000))
    texts = [[0] + [next(fresh) for _ in range(39)] for _ in range(32)]
    texts += [[0] + [next(fresh) for _ in range(9)], [0] + [next(fresh) for _ in range(39)]]
    rank = np.arange(10_000, dtype=np.int32)  # id 0 is the rarest
    state = module._Greedy(0.7, rank)
    met = []
    for x in texts:
        before = state.pairs_met
        keep = np.zeros(1, np.uint8)
        state.feed(np.array(x, np.int32), np.array([0, len(x)], np.int64), keep, np.zeros(1, np.int64), np.zeros(1))
        assert keep[0] == 1  # they share one token: every text is kept
        met.append(state.pairs_met - before)
    assert met[32:] == [0, 33]
    assert met[:32] == list(range(32))  # a text of 40 reads every 40-token entry before it
    assert scoring.fmeasure(10 / 40, 10 / 10) == pytest.approx(0.4)


def _kernel_threads(module, ids: list[list[int]], threshold: float, rank: np.ndarray, block: int, workers: int):
    """The block-at-once path: ``probe`` of each block's texts by ``workers`` scratches (here one
    after the other), then ``resolve`` in input order."""
    off = np.zeros(len(ids) + 1, dtype=np.int64)
    np.cumsum([len(t) for t in ids], out=off[1:])
    flat = np.array([x for t in ids for x in t], dtype=np.int32)
    state = module._Greedy(threshold, rank)
    state.set_workers(workers)
    keep, match, score = [], [], []
    for s in range(0, len(ids), block):
        e = min(len(ids), s + block)
        part_off = off[s : e + 1] - off[s]
        part_ids = np.ascontiguousarray(flat[off[s] : off[e]])
        slot, best = np.full(e - s, -1, np.int64), np.zeros(e - s)
        state.prepare(part_off)
        for w in range(workers):
            state.probe(part_ids, part_off, w, workers, w, slot, best)
        k, m, f = np.zeros(e - s, np.uint8), np.zeros(e - s, np.int64), np.zeros(e - s)
        state.resolve(part_ids, part_off, slot, best, k, m, f)
        keep += k.tolist()
        match += m.tolist()
        score += f.tolist()
    kept = [i for i, k in enumerate(keep) if k]
    return kept, [(i, match[i], score[i]) for i, k in enumerate(keep) if not k]


@pytest.mark.parametrize("seed", [1, 2])
def test_block_probed_on_threads_decides_as_brute_force(seed):
    """A block probed against the texts kept before it, then resolved in order with the texts kept
    earlier in the block (a text may match one of those only): the brute-force decisions, both twins."""
    texts = _corpus(seed, 140)
    scores = _rouge_score_matrix(texts)
    vocab = sorted({w for t in texts for w in t})
    index = {w: k for k, w in enumerate(vocab)}
    ids = [[index[w] for w in t] for t in texts]
    rank = np.arange(len(vocab), dtype=np.int32)
    for threshold in THRESHOLDS:
        expected = _brute(scores, threshold)
        for block, workers in ((16, 2), (64, 3), (1, 1)):
            assert _kernel_threads(compiled, ids, threshold, rank, block, workers) == expected, (threshold, block)
            assert _kernel_threads(pure, ids, threshold, rank, block, workers) == expected, (threshold, block)


def test_greedy_on_two_threads_equals_one_thread():
    """process.Greedy(workers=2) runs the probes on two threads: every decision as with one."""
    from rougekit.process import Encoder, Greedy, rank_by_frequency

    rng = random.Random(7)
    words = [[f"w{k}" for k in range(rng.randint(3, 30))] for _ in range(50)]
    texts = []
    for _ in range(3000):  # near repeats of 50 seeds (one or two words changed), so many drops
        x = list(rng.choice(words))
        for _ in range(rng.randint(0, 2)):
            x[rng.randrange(len(x))] = f"r{rng.randrange(300)}"
        texts.append(" ".join(x))
    enc = Encoder("rougeL").encode(texts)
    rank = rank_by_frequency(enc)
    one, two = Greedy(0.7, rank, workers=1), Greedy(0.7, rank, workers=2)
    a = one.feed(enc)
    b = two.feed(enc)
    assert all(np.array_equal(x, y) for x, y in zip(a, b))
    assert 100 < int(a[0].sum()) < 2900  # both kept and dropped texts
    r = process.dedup(texts, threshold=0.7, workers=2)
    assert r.kept == np.flatnonzero(a[0]).tolist()
