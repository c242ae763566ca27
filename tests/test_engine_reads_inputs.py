"""A call of plain lists is checked as the compiled engine reads it (issue 24): no Python pass of its own
over every summary (``inputs.summaries``), the same numbers and the same errors as a call that is."""

import pytest

import rougekit
from rougekit._core import inputs

np = pytest.importorskip("numpy")

CANDS = ["the cat sat on the mat", "a dog ran", "police killed the gunman"]
REFS = [["the cat was on the mat"], ["the dog ran home", "a dog ran"], ["the gunman was shot"]]
pytestmark = pytest.mark.skipif(not rougekit.Scorer().reads_arrow(), reason="the compiled engine is not built")


def _scores(candidates, references, **options):
    return rougekit.score(candidates, references, measures=["ROUGE-1", "ROUGE-L"], bootstrap=None, **options).data


def test_lists_of_str_reach_the_engine_with_no_pass_over_their_summaries(monkeypatch):
    read = []
    real = inputs.summaries
    monkeypatch.setattr(inputs, "summaries", lambda value, name, *a: read.append(name) or real(value, name, *a))
    data = _scores(CANDS, REFS)
    assert read == []
    assert data[0, 0, 1] == 5  # ROUGE-1 hits: the, cat, on, the, mat (by hand)
    assert data[2, 0, 1] == 2  # the, gunman
    assert data[1, 0, 1] == 2 + 3 and data[1, 0, 0] == 4 + 3  # dog, ran; a, dog, ran (summed over references)
    monkeypatch.setattr(inputs, "summaries", real)
    assert (_scores(CANDS, REFS, fast=False) == data).all()


@pytest.mark.parametrize(
    "entry",
    [
        lambda s: (w for w in [s]),  # a generator of sentences: read once, before the engine
        lambda s: np.array([s]),  # a numpy array of strings: a list of sentences
        lambda s: np.str_(s),
        lambda s: (s,),
    ],
    ids=["generator", "str-array", "np.str_", "tuple"],
)
def test_an_entry_to_convert_gives_the_numbers_of_its_list(entry):
    want = _scores(CANDS, REFS)
    assert (_scores([entry(c) for c in CANDS], REFS) == want).all()
    assert (_scores(CANDS, [[entry(r) for r in refs] for refs in REFS]) == want).all()


def test_the_errors_are_those_of_the_checked_call():
    """The first error the checks find, whatever the engine met first (a tuple is checked first)."""
    cands = ["a \ud800 b", "b", {"the": 1}]
    for container in (list, tuple):
        with pytest.raises(TypeError, match=r"^pair 3: candidate: expected text .* or token ids, got a dict$"):
            _scores(container(cands), container(REFS))
    with pytest.raises(TypeError, match=r"^pair 2: reference 2: expected text .* or token ids, got a set$"):
        _scores(CANDS, [["a"], ["b", {"c"}], ["d"]])
    with pytest.raises(TypeError, match=r"^pair 1: reference 1: expected text .* got None \(a missing value"):
        _scores(CANDS, [[None], ["b"], ["d"]])


def test_plain_text_joins_sentences_and_refuses_what_must_be_converted():
    assert inputs.plain_text(["a b", "c"]) == "a b\nc"
    assert inputs.plain_text(("a", "c")) == "a\nc"
    for entry in ({"a": 1}, {"a"}, iter(["a"]), np.array(["a"])):
        with pytest.raises(inputs.NotPlain):
            inputs.plain_text(entry)
    with pytest.raises(TypeError):
        inputs.plain_text(None)


def test_the_warnings_of_a_scorer_still_point_at_its_caller():
    """Reading a call twice (engine first, then checked) keeps the warning on the caller's line."""
    from rougekit.errors import LettersDroppedWarning

    scorer = rougekit.Scorer(["ROUGE-1"], bootstrap=None)
    for cands in (["Straße cat"], [iter(["Straße cat"])]):  # the engine's read, and the read again
        with pytest.warns(LettersDroppedWarning) as rec:
            scorer.score(cands, [["the cat"]])
        assert rec[0].filename == __file__


def test_an_unrelated_error_on_the_engine_read_is_raised_not_read_again(monkeypatch):
    """Only an entry to convert (NotPlain) or an input error means "read the call the checked way": a
    bug met on the engine's read (here a RuntimeError injected into it) is raised as it is, not
    hidden by a second, checked read that succeeds."""
    real = inputs.normalize
    checked = []

    def normalize(candidates, references, engine_reads=False):
        if engine_reads:
            raise RuntimeError("a bug in the engine's read")
        checked.append(1)
        return real(candidates, references, engine_reads)

    monkeypatch.setattr(inputs, "normalize", normalize)
    with pytest.raises(RuntimeError, match="a bug in the engine's read"):
        _scores(CANDS, REFS)
    assert checked == []  # no second read
