"""Columns that keep their texts in Arrow memory are read from it (api.arrow_inside), with the
numbers of the same texts as a list of str.

pandas 3's default ``str`` Series, ``string[pyarrow]`` and ``ArrowDtype`` strings, polars Series
and Hugging Face ``datasets`` Columns hold pyarrow arrays: the engine reads those arrays' UTF-8
buffers (no Python str per row). Expected values: ``rougekit.score`` of the plain lists.
"""

from __future__ import annotations

import random

import numpy as np
import pandas as pd
import polars as pl
import pyarrow as pa
import pytest

import rougekit
from rougekit.api import arrow_inside

WORDS = "the cat sat on a mat dog ran far über ça naïve 東京 big small red".split()
MEASURES = ["ROUGE-1", "ROUGE-2", "ROUGE-L", "ROUGE-SU4"]
pytestmark = pytest.mark.filterwarnings("ignore::rougekit.errors.RougeKitWarning")  # non-ASCII words, on purpose


def texts(n: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    return [" ".join(rng.choice(WORDS) for _ in range(rng.randint(0, 15))) for _ in range(n)]


CANDS, REFS = texts(300, 1), texts(300, 2)


def _dataset(columns: dict):
    import datasets  # the integration extra

    return datasets.Dataset.from_dict(columns)


def containers():
    return {
        "pandas str": (pd.Series(CANDS, dtype="str"), pd.Series(REFS, dtype="str")),
        "pandas string[pyarrow]": (pd.Series(CANDS, dtype="string[pyarrow]"), pd.Series(REFS, dtype="string[pyarrow]")),
        "pandas ArrowDtype": (
            pd.Series(CANDS, dtype=pd.ArrowDtype(pa.large_string())),
            pd.Series(REFS, dtype=pd.ArrowDtype(pa.string())),
        ),
        "polars": (pl.Series(CANDS), pl.Series(REFS)),
    }


def data_of(result) -> bytes:
    return np.ascontiguousarray(result.data).tobytes()


@pytest.mark.parametrize("name", sorted(containers()))
def test_each_container_is_read_from_its_arrow_column_with_the_numbers_of_the_list(name):
    cands, refs = containers()[name]
    arrow_held = name != "pandas str" or "pyarrow" in str(getattr(cands.dtype, "storage", ""))  # pandas >= 3
    assert type(arrow_inside(cands)).__module__.startswith("pyarrow") == arrow_held
    want = rougekit.score(CANDS, REFS, measures=MEASURES, stem=True, bootstrap=None)
    got = rougekit.score(cands, refs, measures=MEASURES, stem=True, bootstrap=None)
    assert data_of(got) == data_of(want)
    scorer = rougekit.Scorer(MEASURES)
    assert scorer.statistics(cands, refs)[0].tobytes() == scorer.statistics(CANDS, REFS)[0].tobytes()


def test_the_arrow_column_is_what_the_engine_reads(monkeypatch):
    """The engine's Arrow reader gets the columns of a pandas and a polars Series: no list of str."""
    seen = []
    real = rougekit.Scorer._arrow_pieces

    def spy(self, *args):
        pieces = real(self, *args)
        seen.append(pieces)
        return pieces

    monkeypatch.setattr(rougekit.Scorer, "_arrow_pieces", spy)
    rougekit.Scorer(["ROUGE-L"]).score(pd.Series(CANDS, dtype="str"), pl.Series(REFS))
    assert seen and seen[0] is not None


def test_lists_of_references():
    refs = [[a, b] for a, b in zip(REFS, CANDS[::-1])]
    want = rougekit.score(CANDS, refs, measures=MEASURES, bootstrap=None)
    got = rougekit.score(pl.Series(CANDS), pl.Series(refs), measures=MEASURES, bootstrap=None)
    assert data_of(got) == data_of(want)


@pytest.mark.integration  # datasets is in the integration extra
def test_a_datasets_column_and_a_reordered_dataset():
    refs = [[a, b] for a, b in zip(REFS, CANDS[::-1])]
    ds = _dataset({"c": CANDS, "r": refs})
    assert type(arrow_inside(ds["c"])).__module__.startswith("pyarrow")
    want = rougekit.score(CANDS, refs, measures=MEASURES, bootstrap=None)
    assert data_of(rougekit.score(ds["c"], ds["r"], measures=MEASURES, bootstrap=None)) == data_of(want)
    ds = ds.shuffle(seed=3).select(range(100, 250))
    want = rougekit.score(list(ds["c"]), list(ds["r"]), measures=MEASURES, bootstrap=None)
    assert data_of(rougekit.score(ds["c"], ds["r"], measures=MEASURES, bootstrap=None)) == data_of(want)


def test_other_columns_are_read_as_they_were():
    """Numbers (token ids), numpy-backed strings and categories are not taken as Arrow text."""
    for value in (
        pd.Series([1, 2, 3]),
        pd.Series(["a", "b"], dtype=object),
        pd.Series(["a", "b"], dtype="category"),
        pd.Series(["a", "b"], dtype="string[python]"),
        pl.Series([[1, 2], [3]]),
        ["a", "b"],
    ):
        assert arrow_inside(value) is value


def test_a_missing_value_is_named_as_the_container_holds_it():
    """A column with a missing value is read as the container (its error names NaN or None)."""
    for column, shown in ((pd.Series(["a b", None], dtype="str"), "got nan"), (pl.Series(["a b", None]), "got None")):
        assert arrow_inside(column) is column
        with pytest.raises(TypeError, match=f"^pair 2: candidate: expected text .*, {shown} \\(a missing value"):
            rougekit.score(column, ["a b", "c"], bootstrap=None)
