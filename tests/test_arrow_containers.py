"""Columns whose text is in Arrow memory (polars Series, Arrow-backed pandas Series, ``datasets`` columns,
pyarrow string_view) and numpy StringDType arrays are scored from their buffers: the same bits as the list of
their str, no Python str per row (issue 28, item 1)."""

from __future__ import annotations

import pytest
from _corpus import random_pairs

pa = pytest.importorskip("pyarrow")

import rougekit  # noqa: E402
from rougekit._core import inputs  # noqa: E402
from rougekit.api import Scorer  # noqa: E402

pytestmark = pytest.mark.skipif(not Scorer().reads_arrow(), reason="the compiled engine is not built")

WORDS = "police killed the gunman a cat was found Straße überflutet café 北京 欢迎 Привет мир <q> , . x-ray".split()
MEASURES = ["ROUGE-1", "ROUGE-2", "ROUGE-L"]


def _corpus(n: int, seed: int):
    return random_pairs(n, seed, WORDS, 30, empty=0.08)  # empty summaries too


def _containers():
    """(name, maker of a column from a list of str) for each installed package."""
    out = [
        ("pyarrow string_view", lambda xs: pa.array(xs, pa.string_view())),
        ("pyarrow chunked string_view", lambda xs: pa.chunked_array([xs[:3], [], xs[3:]], pa.string_view())),
        ("pyarrow dictionary", lambda xs: pa.array(xs).dictionary_encode()),
        ("pyarrow chunked dictionary", lambda xs: pa.chunked_array([xs[:3], [], xs[3:]]).dictionary_encode()),
    ]
    try:
        import numpy as np

        text = np.dtypes.StringDType(na_object=None)  # numpy >= 2: its UTF-8 copied into one Arrow buffer
        out.append(("numpy StringDType", lambda xs: np.array(xs, dtype=text)))
        out.append(
            ("numpy StringDType strided", lambda xs: np.array([y for x in xs for y in (x, "pad")], dtype=text)[::2])
        )
    except (ImportError, AttributeError):  # numpy 1 has no StringDType
        pass
    try:
        import polars as pl

        out.append(("polars", lambda xs: pl.Series(xs)))
        out.append(("polars sliced", lambda xs: pl.Series(["pad", "pad", *xs, "pad"])[2 : 2 + len(xs)]))
        out.append(("polars chunked", lambda xs: pl.concat([pl.Series(xs[:5]), pl.Series(xs[5:])], rechunk=False)))
    except ImportError:
        pass
    try:
        import pandas as pd

        out.append(("pandas string[pyarrow]", lambda xs: pd.Series(xs, dtype="string[pyarrow]")))
        out.append(
            (
                "pandas ArrowDtype dictionary",
                lambda xs: pd.Series(pd.arrays.ArrowExtensionArray(pa.array(xs).dictionary_encode())),
            )
        )
        out.append(("pandas ArrowDtype", lambda xs: pd.Series(xs, dtype=pd.ArrowDtype(pa.large_string()))))
        out.append(
            (
                "pandas chunked ArrowDtype, labels not 0..n-1",
                lambda xs: pd.Series(
                    pd.arrays.ArrowExtensionArray(pa.chunked_array([xs[:4], [], xs[4:]])),
                    index=range(100, 100 + len(xs)),
                ),
            )
        )
    except ImportError:
        pass
    try:
        import datasets

        def column(xs, arrow=False, shuffled=False):
            ds = datasets.Dataset.from_dict({"text": ["pad", *xs]}).select(range(1, len(xs) + 1))
            if not shuffled:
                ds = datasets.Dataset.from_dict({"text": xs})
            return ds.with_format("arrow")["text"] if arrow else ds["text"]

        out.append(("datasets ds[col]", lambda xs: column(xs)))
        out.append(("datasets with_format(arrow)", lambda xs: column(xs, arrow=True)))
        out.append(("datasets after select", lambda xs: column(xs, shuffled=True)))
    except ImportError:
        pass
    return out


CONTAINERS = _containers()


@pytest.mark.parametrize("name,make", CONTAINERS, ids=[n for n, _ in CONTAINERS])
def test_each_container_is_read_from_its_buffers_bit_for_bit(name, make, monkeypatch):
    cands, refs = _corpus(300, 28)
    scorer = Scorer(MEASURES, bootstrap=None)
    c, r = make(cands), make(refs)
    assert inputs.holds_arrow(c) and inputs.holds_arrow(r)
    assert scorer._arrow_pieces(c, r) is not None  # the buffer path takes it
    expected = scorer.statistics(cands, refs)[0]
    expected_pairs = rougekit.score(cands, refs, measures=MEASURES, bootstrap=None).per_pair()

    def no_python_rows(*args, **kwargs):
        raise AssertionError("the column was read as Python objects")

    monkeypatch.setattr(inputs, "summaries", no_python_rows)
    monkeypatch.setattr(inputs, "normalize", no_python_rows)
    got = scorer.statistics(c, r)[0]
    assert got.tobytes() == expected.tobytes()  # bit for bit
    assert rougekit.score(c, r, measures=MEASURES, bootstrap=None).per_pair() == expected_pairs


@pytest.mark.parametrize("name,make", CONTAINERS, ids=[n for n, _ in CONTAINERS])
def test_a_null_gives_the_error_of_the_same_container_read_as_a_list(name, make):
    cands, refs = ["a b", "c d", "e", "f g h", "i", "j k"], ["a", "c", "e e", "f", "i j", "k"]
    column = make(cands[:1] + [None] + cands[2:])
    scorer = Scorer(MEASURES, bootstrap=None)
    assert scorer._arrow_pieces(column, make(refs)) is None  # nulls: not the buffer path
    listed = list(column) if type(column).__name__ == "Column" else inputs.summaries(column, "candidates")
    with pytest.raises((TypeError, rougekit.InputError)) as from_column:
        rougekit.score(column, make(refs), measures=MEASURES, bootstrap=None)
    with pytest.raises((TypeError, rougekit.InputError)) as from_list:
        rougekit.score(listed, refs, measures=MEASURES, bootstrap=None)
    assert str(from_column.value) == str(from_list.value)
    assert "pair 2" in str(from_list.value)


def test_detection_imports_nothing_and_refuses_other_columns():
    import sys

    before = set(sys.modules)
    assert not inputs.holds_arrow(["a"]) and not inputs.holds_arrow(("a",)) and inputs.arrow_column(["a"]) is None
    assert not any(m.partition(".")[0] in ("polars", "pandas", "datasets") for m in set(sys.modules) - before)
    np = pytest.importorskip("numpy")
    assert not inputs.holds_arrow(np.array(["a", "b"]))  # numpy strings are not Arrow memory: read as a list
    pd = sys.modules.get("pandas")
    if pd is not None:
        assert not inputs.holds_arrow(pd.Series(["a", None], dtype=object))


def test_a_dataset_with_a_transform_is_read_through_its_transform():
    datasets = pytest.importorskip("datasets")
    ds = datasets.Dataset.from_dict({"text": ["police killed", "the gunman"]})
    shown = ds.with_transform(lambda batch: {"text": [t + " police" for t in batch["text"]]})
    column = shown["text"]
    assert inputs.arrow_column(column) is None  # the table's text is not what a row is
    refs = ["police police", "gunman police"]
    got = rougekit.score(column, refs, measures=["ROUGE-1"], bootstrap=None).per_pair()
    assert got == rougekit.score(list(column), refs, measures=["ROUGE-1"], bootstrap=None).per_pair()
    # "police killed police" against "police police": 2 of 3 and 2 of 2 unigrams match
    assert got[0]["ROUGE-1"] == {"recall": 1.0, "precision": 0.66667, "f": 0.8}
