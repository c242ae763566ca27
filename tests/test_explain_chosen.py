"""The reference each pair's multi-reference rule keeps, as the engine chooses it (issue 24: the
explanations' ``_used_entries`` from the engine's counts): the compiled ``batch_chosen`` (score.pxi,
``_combine``'s choice) and its pure twin (``_core._explain``) equal the readable path's recount
(each reference's ``reference_stats`` and ``explanation.build.references_used``) on random pairs
with many ties, for every kernel-backed measure under -f B and max."""

import random

import numpy as np
import pytest

import rougekit
from rougekit._core import _explain
from rougekit.engine.door import Doc, plan
from rougekit.explanation.build import references_used

MEASURES = ["ROUGE-1", "ROUGE-2", "ROUGE-3", "ROUGE-L", "ROUGE-W-1.2", "ROUGE-S4", "ROUGE-SU4", "ROUGE-SU*", "ROUGE-S*"]


def _corpus(seed, n=150, words=5):
    """``n`` pairs of texts (lists of sentences of token ids from ``words`` types: many ties), 1 to 4
    references each, some with an empty sentence."""
    rng = random.Random(seed)

    def text():
        return [[rng.randrange(words) for _ in range(rng.randint(0, 5))] for _ in range(rng.randint(1, 3))]

    texts, peer, refs, ref_off = [], [], [], [0]
    for _ in range(n):
        peer.append(len(texts))
        texts.append(text())
        for _ in range(rng.randint(1, 4)):
            t = text()
            if not any(t):
                t[0].append(rng.randrange(words))  # ROUGE-W refuses a reference without tokens
            refs.append(len(texts))
            texts.append(t)
        ref_off.append(len(refs))
    return texts, np.array(peer, np.int32), np.array(refs, np.int32), np.array(ref_off, np.int64)


def _arrays(texts):
    joined = [[t for s in x for t in s] for x in texts]
    toks = np.array([t for j in joined for t in j], np.int32)
    tok_off = np.cumsum([0] + [len(j) for j in joined]).astype(np.int64)
    units = [s for x in texts for s in x]
    utoks = np.array([t for s in units for t in s], np.int32)
    sent_off = np.cumsum([0] + [len(s) for s in units]).astype(np.int64)
    text_sents = np.cumsum([0] + [len(x) for x in texts]).astype(np.int64)
    return toks, tok_off, utoks, sent_off, text_sents


@pytest.mark.parametrize("su_unigrams", ["rouge155", "all"])
@pytest.mark.parametrize("rule", ["best", "max"])
@pytest.mark.parametrize("seed", range(3))
def test_chosen_equals_the_recount(seed, rule, su_unigrams):
    texts, peer, refs, ref_off = _corpus(seed)
    arrays = _arrays(texts)
    alpha = (0.5, 0.8, 0.2)[seed]
    scorer = rougekit.Scorer(MEASURES, multi_ref=rule, su_unigrams=su_unigrams, alpha=alpha, bootstrap=None)
    options = scorer.options
    kernels = [_explain]
    if rougekit.Scorer().reads_arrow():  # the compiled engine is built: its kernel too
        kernels.append(plan())
    docs = [Doc([t for s in x for t in s], x) for x in texts]
    seen_other = False
    for m in scorer.measures:
        spec = m.family.kernel_spec(m, options)
        want = []
        for p in range(len(peer)):
            a, b = int(ref_off[p]), int(ref_off[p + 1])
            stats = [m.family.reference_stats(m, docs[peer[p]], docs[r], options=options) for r in refs[a:b]]
            (keep,) = references_used(stats, options.mode, alpha, m.f_exponent)
            want.append(keep)
        seen_other |= any(w > 0 for w in want)
        for kernel in kernels:
            got = np.full(len(peer), -7, np.int32)
            choose = kernel.chosen if kernel is not _explain else kernel.batch_chosen
            choose(spec.kind, spec.n, spec.flags, spec.weight, *arrays, peer, ref_off, refs,
                   rule == "best", rule == "max", alpha, got)  # fmt: skip
            assert got.tolist() == want, (m.name, kernel)
    assert seen_other  # not always the first reference


def test_sum_keeps_all_and_ties_keep_the_first():
    # ROUGE-2, candidate "0 1"; references "1 0" (no hit), "0 1", "0 1" (1 of 1 each: a tie): both
    # rules keep the first best, the second reference (1), not the third; under -f A (neither rule)
    # every reference counts: -1
    texts = [[[0, 1]], [[0, 1]], [[1, 0]], [[0, 1]]]
    arrays = _arrays(texts)
    args = (np.array([0], np.int32), np.array([0, 3], np.int64), np.array([2, 1, 3], np.int32))
    for b, mx, want in ((True, False, 1), (False, True, 1), (False, False, -1)):
        got = np.full(1, -7, np.int32)
        _explain.batch_chosen(0, 2, 0, 0.0, *arrays, *args, b, mx, 0.5, got)
        assert got.tolist() == [want]
        if rougekit.Scorer().reads_arrow():
            got2 = np.full(1, -7, np.int32)
            plan().chosen(0, 2, 0, 0.0, *arrays, *args, b, mx, 0.5, got2)
            assert got2.tolist() == [want]


def test_no_reference_keeps_none_under_every_rule():
    # (before: best and max named reference 0 of none, an index past the list)
    for mode in ("A", "B", "M", "J"):
        assert references_used([], mode, 0.5, None) == []
