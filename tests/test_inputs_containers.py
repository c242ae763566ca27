"""Issue 25 item 1: every container a user plausibly passes means what a list means, or is a one-line
TypeError; issue 25 item 9: zero pairs is an error, never a NaN result.

Expected values are counted by hand: "police kill the gunman" against "police killed the gunman"
shares 3 of 4 unigrams (R = P = F = 0.75); "the cat sat" against "a cat sat down" shares 2
(R 2/4, P 2/3, F 4/7, printed by ROUGE-1.5.5 as 0.57143).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import polars as pl
import pytest

import rougekit
from rougekit.errors import InputError

CANDIDATES = ["police kill the gunman", "the cat sat"]
REFERENCES = ["police killed the gunman", "a cat sat down"]
BY_HAND = [0.75, round(4 / 7, 5)]  # ROUGE-1.5.5 rounds per-pair numbers to 5 decimals

CONTAINERS = {
    "list": list,
    "tuple": tuple,
    "generator": lambda xs: (x for x in xs),
    "iterator": iter,
    "numpy str_": np.array,
    "numpy object": lambda xs: np.array(xs, dtype=object),
    "numpy StringDType": lambda xs: np.array(xs, dtype=np.dtypes.StringDType()),
    "pandas": pd.Series,
    "pandas string": lambda xs: pd.Series(xs, dtype="string"),
    "pandas, index reversed": lambda xs: pd.Series(xs, index=list(range(len(xs)))[::-1]),
    "polars": pl.Series,
}


def f_values(candidates, references, **options) -> list[float]:
    result = rougekit.score(candidates, references, measures=["ROUGE-1"], bootstrap=None, **options)
    return result.values("ROUGE-1", "f").tolist()


def test_the_issue_reproduction():
    """A numpy array of reference strings was read character by character (F 0.0)."""
    got = rougekit.score(
        ["police kill the gunman"], np.array(["police killed the gunman"]), measures=["ROUGE-1"], bootstrap=None
    ).per_pair()[0]["ROUGE-1"]
    assert (got["recall"], got["precision"], got["f"]) == (0.75, 0.75, 0.75)


@pytest.mark.parametrize("fast", [True, False], ids=["engine", "readable"])
@pytest.mark.parametrize("name", list(CONTAINERS))
def test_every_container_means_a_list(name, fast):
    make = CONTAINERS[name]
    assert f_values(make(CANDIDATES), REFERENCES, fast=fast) == pytest.approx(BY_HAND, abs=1e-15)
    assert f_values(CANDIDATES, make(REFERENCES), fast=fast) == pytest.approx(BY_HAND, abs=1e-15)
    assert f_values(make(CANDIDATES), make(REFERENCES), fast=fast) == pytest.approx(BY_HAND, abs=1e-15)
    # the references of one pair in a container, and a pair's references as a 0-d array
    assert f_values(CANDIDATES, [make([r]) for r in REFERENCES], fast=fast) == pytest.approx(BY_HAND, abs=1e-15)
    two = [[r, "police sat"] for r in REFERENCES]
    assert f_values(CANDIDATES, [make(refs) for refs in two], fast=fast) == f_values(CANDIDATES, two, fast=fast)
    if name.startswith("numpy"):
        zero_d = [np.array(r, dtype=make([r]).dtype) for r in REFERENCES]
        assert f_values(CANDIDATES, zero_d, fast=fast) == pytest.approx(BY_HAND, abs=1e-15)
        table = make([[r] for r in REFERENCES])  # 2-d: one row of references per pair
        assert f_values(CANDIDATES, table, fast=fast) == pytest.approx(BY_HAND, abs=1e-15)


REFUSED = {
    "a str": ("the cat sat", "not one string"),
    "bytes": (b"the cat", "not one bytes object"),
    "a dict": ({"the cat": 1}, "not a dict \\(its keys would be read\\)"),
    "a set": ({"the cat"}, "not a set \\(it has no order\\)"),
    "a pandas DataFrame": (pd.DataFrame({"c": ["the cat"]}), "not a DataFrame: give one of its columns"),
    "a polars DataFrame": (pl.DataFrame({"c": ["the cat"]}), "not a DataFrame: give one of its columns"),
    "a 1-d int array": (np.array([5, 9]), "not a 1-d integer array, which is ONE summary of token ids"),
    "a 0-d array": (np.array("the cat"), "not a 0-d array"),
    "a number": (5, "not int"),
}


@pytest.mark.parametrize("name", list(REFUSED))
def test_containers_that_would_be_misread_are_a_one_line_type_error(name):
    value, message = REFUSED[name]
    with pytest.raises(TypeError, match=f"^candidates must be a list of candidate summaries, .*{message}") as e:
        rougekit.score(value, ["the cat"])
    assert "\n" not in str(e.value)
    with pytest.raises(TypeError, match=f"^references must be a list with one entry per candidate, .*{message}"):
        rougekit.score(["the cat"], value)


@pytest.mark.parametrize("bad", [None, 5, 2.5, b"the cat", {"the cat": 1}])
def test_a_pairs_references_that_are_no_reference_name_the_pair(bad):
    with pytest.raises(TypeError, match="^pair 2: references must be one reference \\(a str\\) or a list of them"):
        rougekit.score(["a", "b"], ["a", bad])


def test_token_ids_and_text_arrays_are_never_confused():
    """A 1-d integer array is ONE summary of ids; an array of strings is a list of texts."""
    ids = f_values([np.array([5, 9, 2])], [np.array([5, 2])])  # R 2/2, P 2/3: F 0.8
    assert ids == [0.8]
    assert f_values(np.array([[5, 9, 2]]), np.array([[5, 2]])) == [0.8]  # 2-d: one summary per row
    assert f_values(pl.Series([[5, 9, 2]]), pd.Series([[5, 2]])) == [0.8]
    sentences = f_values([np.array(["police kill", "the gunman"])], [["police killed the gunman"]])
    assert sentences == [0.75]  # an array of sentence strings, not a buffer of ids


@pytest.mark.parametrize("name", list(CONTAINERS))
def test_zero_pairs_in_any_container_are_an_input_error(name):
    """Issue 25 item 9: rougekit.score([], []) gave NaN for every measure."""
    make = CONTAINERS[name]
    with pytest.raises(InputError, match="^no pairs to score: candidates and references are empty"):
        rougekit.score(make([]), make([]))


@pytest.mark.parametrize("name", list(CONTAINERS))
def test_explain_reads_containers_as_lists(name):
    make = CONTAINERS[name]
    listed = rougekit.explain(CANDIDATES[0], list(REFERENCES), measures=["ROUGE-1"]).to_dict()
    got = rougekit.explain(CANDIDATES[0], make(REFERENCES), measures=["ROUGE-1"]).to_dict()
    assert got == listed
    # sum (-f A) over both references, by hand: hits 3 + 0 of 4 + 4 reference unigrams, R 3/8
    assert got["measures"]["ROUGE-1"]["recall"] == 0.375
    if name not in ("generator", "iterator"):  # a sentence list is a sequence (a generator is refused)
        sentences = rougekit.explain(make(["police kill", "the gunman"]), REFERENCES[0], measures=["ROUGE-1"])
        assert sentences.to_dict()["measures"]["ROUGE-1"]["f"] == 0.75


@pytest.mark.parametrize(
    "args, what",
    [
        (("\ud800 a", "a"), "candidate"),
        (("a", ["b", "c \udfff"]), "a reference"),
    ],
)
def test_explain_refuses_a_lone_surrogate_as_score_does(args, what):
    """Issue 25 item 15: explain raised the codec's UnicodeEncodeError, score an InputError."""
    message = f"pair 1: {what} holds a lone surrogate (not valid Unicode text)"
    with pytest.raises(InputError) as by_score:
        rougekit.score([args[0]], [args[1]])
    assert str(by_score.value) == message
    with pytest.raises(InputError) as by_explain:
        rougekit.explain(*args)
    assert str(by_explain.value) == message


def test_to_html_returns_the_page_only_when_no_path_is_given(tmp_path):
    """Issue 25 item 13: to_html(path) returned the whole page (47 KB in a notebook cell)."""
    result = rougekit.score(CANDIDATES, REFERENCES, measures=["ROUGE-1"])
    path = tmp_path / "r.html"
    assert result.to_html(path) is None
    assert result.to_html(str(path)) is None
    page = result.to_html()
    assert path.read_text(encoding="utf-8") == page and page.startswith("<!DOCTYPE html>")


def test_to_html_title():
    """Issue 25 item 15: title=None or title=5 raised AttributeError deep in the page builder."""
    result = rougekit.score(CANDIDATES, REFERENCES, measures=["ROUGE-1"])
    assert result.to_html(None, title=None) == result.to_html()
    assert "<title>My run</title>" in result.to_html(title="My run")
    with pytest.raises(TypeError, match="^to_html\\(\\): title must be a str, got int$"):
        result.to_html(None, title=5)


@pytest.mark.parametrize("fast", [True, False], ids=["engine", "readable"])
def test_a_dict_or_set_where_a_summary_is_expected_is_refused(fast):
    """Read as a sentence list, a dict would score its keys (found by tests/_api_fuzz.py)."""
    with pytest.raises(TypeError, match="^pair 2: candidate: expected text .* got a dict$"):
        rougekit.score(["a", {"the cat": 1}], ["a", "the cat"], fast=fast)
    with pytest.raises(TypeError, match="^pair 2: reference 2: expected text .* got a set$"):
        rougekit.score(["a", "b"], ["a", ["b", {"the cat"}]], fast=fast)


def test_the_readable_path_names_the_bad_summary_as_the_engine_does():
    """Under the pure twins a bad summary raised 'can only join an iterable' (found by the fuzz)."""
    for fast in (True, False):
        with pytest.raises(TypeError, match="^pair 1: candidate: expected text \\(a str or a list of str sentences\\)"):
            rougekit.score([5], ["a"], fast=fast)
        with pytest.raises(TypeError, match="^pair 2: reference 1: expected text"):
            rougekit.score(["a", "b"], ["a", [None]], fast=fast)
        with pytest.raises(InputError, match="^pair 2: candidate: token id -1 is out of range"):
            rougekit.score([[1], [-1]], [[1], [1]], fast=fast)


def test_a_generator_of_ids_is_one_summary_as_a_list_of_ids_is():
    """A generator of ints as a pair's references was one reference to the engine, several to the twin."""
    for fast in (True, False):
        assert f_values([[5, 9, 2]], [(i for i in (5, 2))], fast=fast) == [0.8]


@pytest.mark.parametrize("fast", [True, False], ids=["engine", "readable"])
def test_a_streams_errors_name_the_pair_counted_from_the_start(fast):
    """The engine counted the pairs of each chunk from 1: the third pair was 'pair 1' (found by the fuzz)."""
    scorer = rougekit.Scorer(["ROUGE-1"], bootstrap=None, fast=fast)
    with pytest.raises(InputError, match="^pair 3: candidate: token id -1 is out of range"):
        scorer.score_stream(zip([[1], [2], [-1]], [[1], [2], [3]]), chunk_size=2)


def test_a_generator_of_id_references_after_an_empty_candidate_is_read_as_ids():
    """The kind of a call was taken from a generator's type (text) instead of its items (found by the fuzz)."""
    refs = [(x for x in [np.array([1, 2]), np.array([3])])]
    data = rougekit.score([[]], refs, measures=["ROUGE-1"], bootstrap=None).data
    assert data[0, 0, :3].tolist() == [3.0, 0.0, 0.0]  # two references, 2 + 1 ids; an empty candidate: 0 hits


@pytest.mark.parametrize(
    "item, shown",
    [
        (("the cat",), "tuple of length 1"),
        ({"c": "a", "r": "b"}, "dict of length 2"),
        (5, "int"),
        ("ab", "str of length 2"),
    ],
)
def test_a_stream_item_that_is_no_pair_is_a_type_error_naming_it(item, shown):
    """An item of one text raised a bare IndexError, a dict a KeyError."""
    scorer = rougekit.Scorer(["ROUGE-1"], bootstrap=None)
    with pytest.raises(TypeError, match=f"^pair 2: each pair must be a \\(candidate, references\\) .* got {shown}$"):
        scorer.score_stream([("a", "a"), item])


def _f1(result) -> list[float]:
    return [p["ROUGE-1"]["f"] for p in result.per_pair()]


@pytest.mark.parametrize("where", ["candidates", "references"])
@pytest.mark.parametrize("shape", ["Table", "RecordBatch"])
def test_a_pyarrow_table_is_refused_naming_a_column(where, shape):
    """Read as a list, a Table is its columns: each column became one candidate's sentences."""
    import pyarrow as pa

    table = pa.table({"candidate": CANDIDATES, "reference": REFERENCES})
    frame = table if shape == "Table" else table.to_batches()[0]
    given = {"candidates": CANDIDATES, "references": REFERENCES, where: frame}
    with pytest.raises(TypeError, match=rf"^{where} must be .*, not a pyarrow {shape}: give one of its columns"):
        rougekit.score(given["candidates"], given["references"], measures=["ROUGE-1"], bootstrap=None)
    # its columns are what it means
    r = rougekit.score(table["candidate"], table["reference"], measures=["ROUGE-1"], bootstrap=None)
    assert _f1(r) == BY_HAND


def test_pair_ids_may_be_an_integer_array():
    r = rougekit.score(CANDIDATES, REFERENCES, ids=np.array([7, 8]), measures=["ROUGE-1"], bootstrap=None)
    assert r.ids == ["7", "8"] and _f1(r) == BY_HAND
    r = rougekit.score(CANDIDATES, REFERENCES, ids=pd.Series([7, 8]), measures=["ROUGE-1"], bootstrap=None)
    assert r.ids == ["7", "8"]


def test_pandas_series_with_different_indexes_are_refused_not_paired_by_position():
    cands = pd.Series(CANDIDATES, index=[10, 11])
    swapped = pd.Series(REFERENCES[::-1], index=[11, 10])  # the same pairs, by label
    with pytest.raises(rougekit.errors.OptionError, match=r"^candidates and references are pandas Series with "):
        rougekit.score(cands, swapped, measures=["ROUGE-1"], bootstrap=None)
    aligned = swapped.reindex(cands.index)
    assert _f1(rougekit.score(cands, aligned, measures=["ROUGE-1"], bootstrap=None)) == BY_HAND
    with pytest.raises(rougekit.errors.OptionError, match=r"^candidates and ids are pandas Series"):
        rougekit.score(cands, REFERENCES, ids=pd.Series(["a", "b"]), measures=["ROUGE-1"], bootstrap=None)
    # a Series beside a list is read by position, as documented
    assert _f1(rougekit.score(cands, REFERENCES, measures=["ROUGE-1"], bootstrap=None)) == BY_HAND


@pytest.mark.parametrize("fast", [True, False], ids=["engine", "readable"])
def test_a_bad_reference_is_named_by_its_position_and_a_missing_value_or_bytes_as_such(fast):
    """The engine named any bad reference of a pair 'reference 1'; a missing value or bytes got the
    hint 'give every summary as text or every one as token ids', which is not the fix."""
    missing = "(a missing value: drop those rows or fill them, e.g. with '', first)"
    with pytest.raises(TypeError, match=r"^pair 2: reference 3: expected text .* got None \(a missing value"):
        rougekit.score(["a", "b"], [["a"], ["b", "c", None]], fast=fast)
    with pytest.raises(TypeError) as err:
        rougekit.score(pd.Series(["a", pd.NA], dtype="string"), ["a", "b"], fast=fast)
    assert str(err.value) == f"pair 2: candidate: expected text (a str or a list of str sentences), got <NA> {missing}"
    with pytest.raises(TypeError) as err:
        rougekit.score(["a", "b"], pd.Series(["a", np.nan]), fast=fast)
    assert str(err.value) == f"pair 2: references must be one reference (a str) or a list of them, got float {missing}"
    with pytest.raises(TypeError, match=r"^pair 1: reference 2: .* got b'c' \(bytes: decode them first, e\.g\. "):
        rougekit.score(["a"], [["a", b"c"]], fast=fast)
    # counted from the start of a stream, whichever chunk
    stream = zip(["a", "b", "c"], [["a"], ["b"], ["c", None]])
    with pytest.raises(TypeError, match=r"^pair 3: reference 2: expected text .* got None \(a missing value"):
        rougekit.Scorer(["ROUGE-1"], bootstrap=None, fast=fast).score_stream(stream, chunk_size=2)


def test_a_pd_na_pair_id_is_refused_not_named_na():
    pd = pytest.importorskip("pandas")
    with pytest.raises(TypeError, match=r"ids: item 2 is a missing value"):
        rougekit.score(["a b", "c d"], ["a b", "c d"], ids=pd.Series(["x", pd.NA], dtype=object), bootstrap=None)
