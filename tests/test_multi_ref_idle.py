"""multi_ref does nothing to BLEU, Ngram(i,j) and the Hori measures (qa21a F3): said once, and the
signature does not claim a rule no measure took; lin_hovy's functions refuse a str for a token list."""

from __future__ import annotations

import math
import warnings

import pytest

import rougekit
from rougekit.errors import IdleOptionWarning
from rougekit.metrics import lin_hovy

CAND = "the cat sat on the mat"
REFS = ["the cat is on the mat", "there is a cat on the mat"]
# pooled by hand: unigrams 5 of 6 + 4 of 7 matched, bigrams 3 of 5 + 2 of 6
NGRAM_1_2 = math.sqrt(9 / 13 * 5 / 11)


def _score(measures, multi_ref):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        r = rougekit.score([CAND], [REFS], measures=measures, multi_ref=multi_ref, bootstrap=None)
    return r, [w for w in caught if issubclass(w.category, IdleOptionWarning)]


@pytest.mark.parametrize("multi_ref", ["best", "max", "jackknife"])
def test_single_valued_measures_say_the_rule_is_idle(multi_ref):
    r, said = _score(["Ngram(1,2)"], multi_ref)
    assert r.per_pair()[0]["Ngram(1,2)"]["score"] == pytest.approx(NGRAM_1_2, abs=1e-15)
    assert len(said) == 1
    text = str(said[0].message)
    assert f"multi_ref={multi_ref!r}" in text and "Ngram(1,2) (matches and counts summed over all references)" in text
    assert said[0].filename == __file__  # names the caller's line
    assert "|refs:none|" in str(r.signature)


def test_mixed_measures_name_only_the_idle_ones():
    r, said = _score(["ROUGE-1", "BLEU", "ACCY"], "best")
    assert len(said) == 1
    text = str(said[0].message)
    assert "BLEU (" in text and "ACCY (the mean of its value against each reference)" in text
    assert "ROUGE-1" not in text and "ROUGE measures only" in text
    assert "|refs:best|" in str(r.signature)  # ROUGE-1 took it


def test_no_warning_where_the_rule_applies_or_is_the_default():
    assert _score(["ROUGE-1", "ROUGE-L"], "best")[1] == []
    r, said = _score(["Ngram(1,2)", "BLEU"], "sum")
    assert said == [] and r.per_pair()[0]["Ngram(1,2)"]["score"] == pytest.approx(NGRAM_1_2, abs=1e-15)


MODEL, PEER = "United States, Japan, and Taiwan", "United States, Taiwan, and Japan"


@pytest.mark.parametrize(
    "call",
    [
        lambda: lin_hovy.ngram_coverage(PEER, [MODEL.split()], 2),
        lambda: lin_hovy.ngram_coverage(PEER.split(), [MODEL], 2),
        lambda: lin_hovy.ngram_coverage(PEER.split(), MODEL, 2),
        lambda: lin_hovy.ngram_score(PEER, [MODEL.split()], 1, 2),
        lambda: lin_hovy.ngram_cooccurrence_precisions(PEER.split(), [MODEL], 1, 2),
        lambda: lin_hovy.sentence_bleu(PEER, [MODEL.split()]),
        lambda: lin_hovy.bleu([PEER.split()], [[MODEL]]),
    ],
)
def test_lin_hovy_refuses_a_str_for_tokens(call):
    with pytest.raises(TypeError, match="sequence of tokens"):
        call()


def test_lin_hovy_paper_example_on_word_lists():
    # Lin & Hovy (2003) section 4.1: bigram coverage 0.5 with "and" ignored (a str gave 1.0: character bigrams)
    model = MODEL.replace(",", "").split()
    peer = PEER.replace(",", "").split()
    assert lin_hovy.ngram_coverage(peer, [model], 2, stopwords={"and"}) == 0.5
