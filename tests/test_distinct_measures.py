"""ROUGE-<n>-DISTINCT and ROUGE-L-DISTINCT (sets of types, the pltrdy ``rouge`` counting).

The kernel option ``ngram_stats(..., distinct=True)`` is held to its pure twin and to sets
computed here; ROUGE-L-DISTINCT to a direct LCS trace-back written in this test (reference by
rows, ties drop the candidate token).
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rougekit._core import _pure
from rougekit.errors import OptionError
from rougekit.measures import Measure
from rougekit.scoring import Doc, reference_stats

try:
    from rougekit._core import _batch as _kernels  # the compiled kernels: the batch engine, one pair
except ImportError:  # pragma: no cover - depends on the build
    _kernels = None

needs_compiled = pytest.mark.skipif(_kernels is None, reason="rougekit._core._batch is not built (build_ext)")

tokens = st.lists(st.integers(0, 5), max_size=40)
sentences = st.lists(st.lists(st.integers(0, 5), min_size=1, max_size=12), min_size=1, max_size=5)


def grams(seq, n):
    return {tuple(seq[i : i + n]) for i in range(len(seq) - n + 1)}


@settings(max_examples=400, deadline=None)
@given(tokens, tokens, st.integers(1, 5))
def test_distinct_ngram_stats_are_sets(peer, model, n):
    expected = (len(grams(peer, n) & grams(model, n)), len(grams(model, n)), len(grams(peer, n)))
    assert _pure.ngram_stats(peer, model, n, True) == expected
    if _kernels is not None:
        assert _kernels.ngram_stats(peer, model, n, True) == expected
        assert _kernels.ngram_stats(peer, model, n) == _pure.ngram_stats(peer, model, n)


@needs_compiled
def test_distinct_ngram_stats_on_long_inputs():
    import random

    rng = random.Random(3)
    for n in (1, 2, 3, 7):
        peer = [rng.randrange(50) for _ in range(9000)]
        model = [rng.randrange(50) for _ in range(7000)]
        assert _kernels.ngram_stats(peer, model, n, True) == _pure.ngram_stats(peer, model, n, True)


def traced_lcs_types(ref, cand):
    """Token types of one LCS of ``ref`` (rows) and ``cand`` (columns); ties drop the candidate token."""
    table = [[0] * (len(cand) + 1) for _ in range(len(ref) + 1)]
    for i in range(1, len(ref) + 1):
        for j in range(1, len(cand) + 1):
            if ref[i - 1] == cand[j - 1]:
                table[i][j] = table[i - 1][j - 1] + 1
            else:
                table[i][j] = max(table[i - 1][j], table[i][j - 1])
    i, j, types = len(ref), len(cand), set()
    while i and j:
        if ref[i - 1] == cand[j - 1]:
            types.add(ref[i - 1])
            i, j = i - 1, j - 1
        elif table[i - 1][j] > table[i][j - 1]:
            i -= 1
        else:
            j -= 1
    return types


def doc(sents):
    return Doc([t for s in sents for t in s], sents)


@settings(max_examples=400, deadline=None)
@given(sentences, sentences)
def test_rouge_l_distinct_is_the_union_of_traced_lcs_types(cand, ref):
    union = set()
    for r in ref:
        for c in cand:
            union |= traced_lcs_types(r, c)
    stats = reference_stats(Measure.parse("ROUGE-L-DISTINCT"), doc(cand), doc(ref))
    assert (stats.hits, stats.model_count, stats.peer_count) == (
        len(union),
        len({t for s in ref for t in s}),
        len({t for s in cand for t in s}),
    )


def test_the_tie_break_decides_which_types_count():
    # ref "a b" / cand "b a": the trace keeps "b" (a tie drops the candidate's last token "a");
    # the second reference sentence "b" adds nothing new, so 1 hit (the other tie-break gives 2)
    stats = reference_stats(Measure.parse("ROUGE-L-DISTINCT"), doc([[1, 0]]), doc([[0, 1], [1]]))
    assert stats.hits == 1


def test_names():
    assert Measure.parse("rouge-2-distinct") == Measure("ND", n=2)
    assert str(Measure.parse("ROUGE-L-distinct")) == "ROUGE-L-DISTINCT"
    assert str(Measure.parse("ROUGE-3-DISTINCT")) == "ROUGE-3-DISTINCT"
    with pytest.raises(OptionError):
        Measure.parse("ROUGE-0-DISTINCT")
