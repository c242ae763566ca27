"""Every warning of rougekit.score and of a Scorer names the caller's file and line (issue 24): whatever
the path (the engine's read of lists, a tuple read the checked way, pyarrow columns, score_stream's
chunks, fast=False, a lang= with no stemmer), not a line inside rougekit."""

import warnings

import pytest

import rougekit
from rougekit.errors import EmptyTokensWarning, LettersDroppedWarning, SentenceMarkerWarning, StemmerWarning


def _given(call):
    with warnings.catch_warnings(record=True) as given:
        warnings.simplefilter("always")
        call()
    return [(type(w.message), w.filename) for w in given]


CASES = [
    (["Straße ist"], [["Straße"]], {}, LettersDroppedWarning),  # letters outside ASCII under the script's tokenizer
    (["a <q> b"], [["a b"]], {}, SentenceMarkerWarning),
    (["a b", "c d"], [["a b"], ["c d"]], {"stem": True, "lang": "ja"}, StemmerWarning),
]


@pytest.mark.parametrize("container", [list, tuple])
@pytest.mark.parametrize("fast", [True, False])
@pytest.mark.parametrize("cands, refs, options, kind", CASES)
def test_rougekit_score_warnings_name_the_callers_file(cands, refs, options, kind, container, fast):
    given = _given(lambda: rougekit.score(container(cands), container(refs), bootstrap=None, fast=fast, **options))
    assert kind in [k for k, _ in given]
    assert given == [(k, __file__) for k, _ in given]


def test_a_tokenless_summary_warns_at_the_caller():
    given = _given(lambda: rougekit.score(["这是", "a"], ["a", "a"], bootstrap=None))  # no ASCII letter: no token
    assert given == [(EmptyTokensWarning, __file__)]


def test_score_stream_and_arrow_columns_warn_at_the_caller():
    pairs = [("a <q> b", ["a b"]), ("Straße", ["a"])]
    given = _given(lambda: rougekit.Scorer(bootstrap=None).score_stream(iter(pairs), chunk_size=1))
    assert sorted(k.__name__ for k, _ in given) == ["LettersDroppedWarning", "SentenceMarkerWarning"]
    assert {f for _, f in given} == {__file__}
    pa = pytest.importorskip("pyarrow")
    given = _given(lambda: rougekit.score(pa.array(["a <q> b"]), pa.array(["a b"]), bootstrap=None))
    assert given == [(SentenceMarkerWarning, __file__)]
