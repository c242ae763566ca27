"""compat.rouge_scorer and compat.multilingual_rouge against the real packages on what a random
differential test found (qa21c): bytes texts, rouge types that are not strings, the tokenizers module."""

from __future__ import annotations

import warnings

import pytest
from rouge_score import rouge_scorer as rouge_score  # the package (the test extra installs it)

from rougekit.compat import multilingual_rouge, rouge_scorer


def _outcome(scorer_class, types, target, prediction):
    try:
        return scorer_class(types).score(target, prediction)
    except Exception as exc:  # the same exception type and text as the package
        return type(exc).__name__, str(exc)


@pytest.mark.parametrize("types", [[1], [None], [(1,)], [b"rouge1"], [b"rougeL"], ["rouge1", "rougeL"]])
def test_rouge_types_as_the_package_reads_them(types):
    assert _outcome(rouge_scorer.RougeScorer, types, "a b", "a c") == _outcome(
        rouge_score.RougeScorer, types, "a b", "a c"
    )


def test_multilingual_scores_bytes_as_the_package():
    real = pytest.importorskip("multilingual_rouge.rouge_scorer")
    types = ["rouge1", "rougeL", "rougeLsum"]
    for lang in (None, "chinese"):
        for stem in (False, True):
            with warnings.catch_warnings():  # both say "unknown stemmer language" for chinese
                warnings.simplefilter("ignore", UserWarning)
                ours = multilingual_rouge.RougeScorer(types, lang=lang, use_stemmer=stem)
                theirs = real.RougeScorer(types, lang=lang, use_stemmer=stem)
            assert ours.score(b"the cat sat\nok", "the cat") == theirs.score(b"the cat sat\nok", "the cat")


def test_the_tokenizers_module_as_rouge_scorer_reaches_it():
    import rouge_score.tokenizers

    assert rouge_scorer.tokenizers.DefaultTokenizer(use_stemmer=True).tokenize("The cats ran") == (
        rouge_score.tokenizers.DefaultTokenizer(use_stemmer=True).tokenize("The cats ran")
    )
