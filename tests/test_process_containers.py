"""rougekit.process (cdist, extract, dedup, Encoder.encode) reads every column rougekit.score takes (pyarrow
string/large_string/string_view/chunked arrays, polars and Arrow-backed pandas Series, ``datasets`` columns,
numpy StringDType arrays) as the list of their str: the same numbers, and a null is the error of a None (pandas:
pd.NA) in that list (issue 28, item 1; these columns become Python strs in process, see docs/process.md)."""

from __future__ import annotations

import random

import numpy as np
import pytest

pa = pytest.importorskip("pyarrow")

from rougekit import process  # noqa: E402
from rougekit.errors import InputError  # noqa: E402
from rougekit.process.encode import Encoder  # noqa: E402

WORDS = "police killed the gunman a cat was found Straße überflutet café 北京 欢迎 Привет мир , . x-ray".split()


def _texts(n: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    base = [" ".join(rng.choice(WORDS) for _ in range(rng.randint(2, 12))) for _ in range(n // 2)]
    # near repeats so that dedup drops some: a word changed or appended
    return base + [t + " " + rng.choice(WORDS) if rng.random() < 0.5 else t.upper() for t in base]


def _containers():
    out = [
        ("pyarrow string", lambda xs: pa.array(xs, pa.string())),
        ("pyarrow large_string", lambda xs: pa.array(xs, pa.large_string())),
        ("pyarrow string_view", lambda xs: pa.array(xs, pa.string_view())),
        ("pyarrow chunked", lambda xs: pa.chunked_array([xs[:3], [], xs[3:]], pa.string())),
    ]
    if hasattr(np, "dtypes") and hasattr(np.dtypes, "StringDType"):
        out.append(("numpy StringDType", lambda xs: np.array(xs, dtype=np.dtypes.StringDType(na_object=None))))
    try:
        import polars as pl

        out.append(("polars", lambda xs: pl.Series(xs, dtype=pl.String)))
    except ImportError:
        pass
    try:
        import pandas as pd

        out.append(("pandas string[pyarrow]", lambda xs: pd.Series(xs, dtype="string[pyarrow]")))
    except ImportError:
        pass
    try:
        import datasets

        out.append(("datasets ds[col]", lambda xs: datasets.Dataset.from_dict({"text": xs})["text"]))
    except ImportError:
        pass
    return out


CONTAINERS = _containers()
IDS = [name for name, _ in CONTAINERS]


@pytest.mark.parametrize("name,make", CONTAINERS, ids=IDS)
def test_cdist_extract_dedup_encode_equal_the_list(name, make):
    texts = _texts(40, 28)
    queries, choices = texts[:7], texts[7:]
    for measure in ("rougeL", "ROUGE-2"):
        expected = process.cdist(queries, choices, measure=measure, dtype="float64")
        got = process.cdist(make(queries), make(choices), measure=measure, dtype="float64")
        assert got.tobytes() == expected.tobytes()
    assert process.extract(texts[0], make(texts), limit=6) == process.extract(texts[0], texts, limit=6)
    listed = process.dedup(texts, threshold=0.7)
    assert 0 < len(listed.kept) < len(texts)  # the corpus has near repeats to drop
    got = process.dedup(make(texts), threshold=0.7)
    assert got.kept == listed.kept and got.dropped == listed.dropped
    a, b = Encoder().encode(texts), Encoder().encode(make(texts))
    assert a.ids.tobytes() == b.ids.tobytes() and a.off.tobytes() == b.off.tobytes()


@pytest.mark.parametrize("name,make", CONTAINERS, ids=IDS)
def test_a_null_gives_the_error_of_a_none_in_the_list(name, make):
    texts = ["police killed the gunman", None, "a cat was found"]
    column = make(texts)
    if type(column).__module__.startswith("pandas"):  # its missing value is pd.NA: the error of pd.NA in a list
        texts = column.tolist()
    for call in (
        lambda xs: process.dedup(xs, threshold=0.7),
        lambda xs: process.cdist(xs, ["the gunman"]),
        lambda xs: process.extract("the gunman", xs),
    ):
        with pytest.raises((TypeError, InputError)) as from_list:
            call(texts)
        with pytest.raises((TypeError, InputError)) as from_column:
            call(column)
        assert type(from_column.value) is type(from_list.value)
        assert str(from_column.value) == str(from_list.value)
        assert "[1]: expected a text (str), got " in str(from_list.value)  # the second text is named
        assert "a missing value: drop those rows first" in str(from_list.value)


def test_a_score_matrix_of_another_dtype_than_float_is_refused():
    """An integer, bool or str matrix cut every score silently (F 0.667 as 0, or True): refused."""
    from rougekit.errors import OptionError

    for dtype in ("int32", bool, "U5", complex):
        with pytest.raises(OptionError, match="dtype must be a float type"):
            process.cdist(["a"], ["a b"], dtype=dtype)
    assert process.cdist(["a"], ["a b"], dtype="float64").tolist() == [[0.66667]]  # R 1, P 1/2, F 2/3 (5 places)


def test_a_missing_text_is_not_told_to_be_filled_with_an_empty_one():
    import math

    with pytest.raises(TypeError, match="drop those rows first") as caught:
        process.dedup(["a b", math.nan, "c"])
    assert "fill" not in str(caught.value)
