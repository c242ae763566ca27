"""Property-based tests (Hypothesis) for issue 17: for any text and option, a number or a documented error.

* the compiled kernels equal their pure-Python twins (``_core._pure``);
* the compiled batch path equals the readable path, for any ``jobs``;
* every R, P and F is within [0, 1]; a text scored against itself gives 1 where the measure is
  defined (enough tokens), for ROUGE-N, -L, -S and -SU;
* odd options and texts raise only ``OptionError`` or ``InputError``.

The suite runs a short profile; a longer run: ``ROUGEKIT_HYPOTHESIS_EXAMPLES=2000 pytest tests/test_properties.py``.
"""

from __future__ import annotations

import math
import os

import pytest

hypothesis = pytest.importorskip("hypothesis", reason="property tests need hypothesis (the test extra)")
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from rougekit import Scorer, limits  # noqa: E402
from rougekit._core import _pure  # noqa: E402
from rougekit.errors import InputError, OptionError  # noqa: E402

kernels = pytest.importorskip("rougekit._core._batch", reason="the compiled kernels are not built")

EXAMPLES = int(os.environ.get("ROUGEKIT_HYPOTHESIS_EXAMPLES", "40"))
PROFILE = settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=True,  # the same examples on every run (a fixed seed)
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

WORDS = ["the", "a", "cat", "sat", "on", "mat", "dog", "ran", "police", "killed", "gunman", "of", "it's", "U.S."]
ODD = ["café", "東京", "x\u00a0y", "\udcff", "-", "...", "A", "THE", "12", "über-cool", "\t", "\r"]
token_ids = st.lists(st.integers(0, 6), max_size=25)
sentences = st.lists(token_ids, max_size=4)
word = st.sampled_from(WORDS + ODD)
sentence = st.lists(word, max_size=12).map(" ".join)
summary = st.lists(sentence, max_size=4).map("\n".join)
RPF_MEASURES = [
    "ROUGE-1",
    "ROUGE-2",
    "ROUGE-3",
    "ROUGE-L",
    "ROUGE-W-1.2",
    "ROUGE-W-5",
    "ROUGE-S4",
    "ROUGE-SU4",
    "ROUGE-S*",
]


# -- kernels: compiled == pure twin --------------------------------------------------------------


@PROFILE
@given(token_ids, token_ids, st.integers(1, 5))
def test_ngram_kernel_twin(peer, model, n):
    assert kernels.ngram_stats(peer, model, n) == _pure.ngram_stats(peer, model, n)


@PROFILE
@given(token_ids, token_ids, st.integers(-1, 6), st.booleans())
def test_skip_bigram_kernel_twin(peer, model, skip, unigrams):
    assert kernels.skip_bigram_stats(peer, model, skip, unigrams) == _pure.skip_bigram_stats(
        peer, model, skip, unigrams
    )


@PROFILE
@given(sentences, sentences)
def test_lcs_kernel_twin(peer_sents, model_sents):
    peer = [t for s in peer_sents for t in s]
    model = [t for s in model_sents for t in s]
    assert kernels.lcs_union_hits(peer_sents, model_sents, peer, model) == _pure.lcs_union_hits(
        peer_sents, model_sents, peer, model
    )


@PROFILE
@given(sentences, sentences, st.floats(limits.MIN_WEIGHT, limits.MAX_WEIGHT))
def test_wlcs_kernel_twin_inside_the_weight_range(peer_sents, model_sents, weight):
    peer = [t for s in peer_sents for t in s]
    model = [t for s in model_sents for t in s]
    fast = kernels.wlcs_union_hits(peer_sents, model_sents, peer, model, weight)
    slow = _pure.wlcs_union_hits(peer_sents, model_sents, peer, model, weight)
    assert math.isfinite(fast) and fast == pytest.approx(slow, rel=1e-12, abs=1e-12)


# -- the API: batch == readable path == any jobs; scores in [0, 1]; identity -----------------------


def _pairs(result):
    return [{m: tuple(v.values()) for m, v in row.items()} for row in result.per_pair()]


@PROFILE
@given(
    st.lists(st.tuples(summary, st.lists(summary, min_size=1, max_size=3)), min_size=1, max_size=6),
    st.lists(st.sampled_from(RPF_MEASURES), min_size=1, max_size=4, unique=True),
    st.booleans(),
    st.booleans(),
    st.sampled_from(["sum", "best"]),
)
def test_batch_readable_and_jobs_agree_and_scores_are_fractions(pairs, measures, stem, stopwords, multi_ref):
    cands = [c for c, _ in pairs]
    refs = [r for _, r in pairs]
    results = []
    for fast, jobs in ((True, 1), (True, 2), (False, 1)):
        scorer = Scorer(measures, stem=stem, stopwords=stopwords, multi_ref=multi_ref, bootstrap=None, fast=fast)
        try:
            results.append(_pairs(scorer.score(cands, refs, jobs=jobs)))
        except InputError as exc:  # ROUGE-W of a reference without tokens: the script dies there too
            assert "ROUGE-W" in str(exc)
            return
    assert results[0] == results[1]
    for row_fast, row_slow in zip(results[0], results[2]):
        for name in measures:
            assert row_fast[name] == pytest.approx(row_slow[name], abs=1e-9), name
            assert all(0.0 <= v <= 1.0 for v in row_fast[name]), (name, row_fast[name])


@PROFILE
@given(summary, st.sampled_from(["ROUGE-1", "ROUGE-2", "ROUGE-4", "ROUGE-L", "ROUGE-S4", "ROUGE-SU4", "ROUGE-S*"]))
def test_identity_gives_one_where_defined(text, measure):
    scorer = Scorer([measure], bootstrap=None)
    tokens = len(scorer.doc(text).tokens)
    needed = {"ROUGE-1": 1, "ROUGE-2": 2, "ROUGE-4": 4, "ROUGE-L": 1}.get(measure, 2)
    row = scorer.score([text], [[text]]).per_pair()[0][measure]
    if tokens >= needed:
        assert row == {"recall": 1.0, "precision": 1.0, "f": 1.0}
    else:
        assert row == {"recall": 0.0, "precision": 0.0, "f": 0.0}


# -- only documented exceptions ------------------------------------------------------------------

odd_numbers = st.one_of(
    st.integers(-3, 5),
    st.integers(),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([None, "1", True]),
)


@PROFILE
@given(
    st.lists(st.text(max_size=30), min_size=1, max_size=3),
    st.lists(st.lists(st.text(max_size=30), min_size=0, max_size=2), min_size=1, max_size=3),
    st.lists(
        st.sampled_from(RPF_MEASURES + ["BLEU", "Ngram(1,4)", "ACCY", "PREC-2", "ROUGE-W-0.5", "ROUGE-99999999999"]),
        max_size=3,
    ),
    st.fixed_dictionaries(
        {},
        optional={
            "word_limit": odd_numbers,
            "byte_limit": odd_numbers,
            "alpha": odd_numbers,
            "resamples": odd_numbers,
            "confidence": odd_numbers,
            "seed": odd_numbers,
            "multi_ref": st.sampled_from(["sum", "best", "jackknife", "x"]),
            "tokenizer": st.sampled_from(["rouge155", "unicode", "cjk", "x"]),
            "bootstrap": st.sampled_from(["rouge155", "percentile", None, "x"]),
            "average": st.sampled_from(["pairs", "tokens", "x"]),
            "stem": st.booleans(),
            "stopwords": st.booleans(),
        },
    ),
)
def test_only_documented_exceptions(cands, refs, measures, options):
    try:
        scorer = Scorer(measures, **options)
        result = scorer.score(cands, refs[: len(cands)] + [[]] * (len(cands) - len(refs)))
    except (OptionError, InputError) as exc:
        assert "\n" not in str(exc) and len(str(exc)) < 400
        return
    for row in result.per_pair():
        for values in row.values():
            assert all(0.0 <= v <= 1.0 for v in values.values() if not math.isnan(v)), values
