"""Issue 25, "Also": for random summaries, every container type gives what a list gives, through
score, Scorer (statistics, score_stream), process.cdist, a reward function and compat's score_batch.

The expected value of each call is the same call on plain lists (whose numbers the exactness tests
hold against ROUGE-1.5.5 and the peer packages); a container that cannot hold the items (a numpy
``str_`` array of lists) is not drawn. The refused containers are tested in test_inputs_containers.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rougekit
from rougekit import process
from rougekit.compat import rouge_scorer
from rougekit.rewards import rouge_reward

WORDS = ["the", "cat", "sat", "on", "mat", "police", "killed", "gunman", "a", "dog"]


def _object_array(items):
    out = np.empty(len(items), dtype=object)
    for k, x in enumerate(items):
        out[k] = x
    return out


def _texts_only(make):
    return lambda items: make(items) if all(isinstance(x, str) for x in items) else None


CONTAINERS = {
    "list": list,
    "tuple": tuple,
    "generator": lambda items: (x for x in items),
    "numpy str_": _texts_only(lambda items: np.array(items, dtype=str)),
    "numpy StringDType": _texts_only(lambda items: np.array(items, dtype=np.dtypes.StringDType())),
    "numpy object": _object_array,
    "pandas": lambda items: pd.Series(items, dtype=object, index=range(len(items), 0, -1)),
    "pandas string": _texts_only(lambda items: pd.Series(items, dtype="string")),
    "polars": _texts_only(lambda items: pl.Series(items, dtype=pl.String)),
}

text = st.lists(st.sampled_from(WORDS), min_size=1, max_size=8).map(" ".join)
references = st.one_of(text, text, st.lists(text, min_size=1, max_size=3))  # one text: every container
pairs = st.lists(st.tuples(text, references), min_size=1, max_size=6)
container = st.sampled_from(sorted(CONTAINERS))


def _in(name, items):
    return CONTAINERS[name](items)


@pytest.mark.parametrize("outer", sorted(CONTAINERS))
@settings(max_examples=12, deadline=None)
@given(pairs=pairs, inner=container, measure=st.sampled_from(["ROUGE-1", "ROUGE-2", "ROUGE-L"]))
def test_score_and_scorer(outer, pairs, inner, measure):
    cands = [c for c, _ in pairs]
    refs = [r for _, r in pairs]
    nested = [r if isinstance(r, str) else _in(inner, r) for r in refs]
    if any(r is None for r in nested) or _in(outer, cands) is None or _in(outer, nested) is None:
        return  # a container that cannot hold these items (e.g. numpy str_ of lists)
    want = rougekit.score(cands, refs, measures=[measure], bootstrap=None).data
    got = rougekit.score(_in(outer, cands), _in(outer, nested), measures=[measure], bootstrap=None).data
    np.testing.assert_array_equal(got, want)
    scorer = rougekit.Scorer([measure], bootstrap=None, fast=False)
    nested = [r if isinstance(r, str) else _in(inner, r) for r in refs]  # generators are used once
    np.testing.assert_array_equal(scorer.statistics(_in(outer, cands), _in(outer, nested))[0], want)
    nested = [r if isinstance(r, str) else _in(inner, r) for r in refs]
    stream = rougekit.Scorer([measure], bootstrap=None).score_stream(zip(_in(outer, cands), _in(outer, nested)))
    np.testing.assert_array_equal(stream.data, want)


@pytest.mark.parametrize("outer", sorted(CONTAINERS))
@settings(max_examples=6, deadline=None)
@given(pairs=pairs)
def test_process_cdist_reward_and_score_batch(outer, pairs):
    cands = [c for c, _ in pairs]
    refs = [r if isinstance(r, str) else r[0] for _, r in pairs]  # one text each
    if _in(outer, cands) is None or _in(outer, refs) is None:
        return
    for measure in ("rougeL", "ROUGE-L"):
        want = process.cdist(cands, refs, measure=measure, dtype="float64")
        got = process.cdist(_in(outer, cands), _in(outer, refs), measure=measure, dtype="float64")
        np.testing.assert_array_equal(got, want)
    reward = rouge_reward("ROUGE-1")
    assert reward(_in(outer, cands), reference=_in(outer, refs)) == reward(cands, reference=refs)
    scorer = rouge_scorer.RougeScorer(["rouge1", "rougeL"])
    assert scorer.score_batch(_in(outer, refs), _in(outer, cands)) == scorer.score_batch(refs, cands)
    assert scorer.score_batch(refs, cands) == [scorer.score(t, p) for t, p in zip(refs, cands)]
