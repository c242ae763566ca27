"""The batch function Spark's executors run (``mapInArrow``), without Spark: a pyarrow RecordBatch or
Table scores as ``rougekit.score`` scores the same rows, and a bad cell is named by its row."""

from __future__ import annotations

import random
import warnings

import numpy as np
import pytest

import rougekit
from rougekit.dask.partition import Columns, score_partition

pa = pytest.importorskip("pyarrow", reason="pyarrow is not installed (pip install 'rougekit[test]')")

WORDS = "the a cat dog sat on mat police killed gunman shot was near house Straße café 猫 río".split()
MEASURES = ["ROUGE-1", "ROUGE-2", "ROUGE-L", "ROUGE-SU4"]


def _texts(rng: random.Random, n: int) -> list[str]:
    return [" ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 12))) for _ in range(n)]


@pytest.mark.parametrize("text_type", ["string", "large_string"])
def test_an_arrow_batch_scores_as_rougekit_score(text_type):
    rng = random.Random(11)
    cands, refs = _texts(rng, 40), _texts(rng, 40)
    kind = getattr(pa, text_type)()
    batch = pa.RecordBatch.from_arrays(
        [pa.array(cands, kind), pa.array(refs, kind), pa.array(range(40), pa.int64())], names=["p", "r", "k"]
    )
    got = score_partition(batch, Columns.build("p", "r", "k"), MEASURES, stem=True)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        want = rougekit.score(cands, refs, measures=MEASURES, stem=True, bootstrap=None)
    assert np.array_equal(got.data, want.data, equal_nan=True)
    assert [(type(w), str(w)) for w in got.warnings] == [(type(w.message), str(w.message)) for w in caught]
    assert len(got.warnings) == 2  # words with no tokens (猫), letters outside ASCII
    assert got.ids == [str(k) for k in range(40)]
    table = pa.Table.from_batches([batch.slice(0, 13), batch.slice(13)])  # a column of two chunks
    chunked = score_partition(table, Columns.build("p", "r"), MEASURES, stem=True)
    assert np.array_equal(chunked.data, want.data, equal_nan=True)


def test_arrow_reference_lists_and_reference_columns():
    rng = random.Random(12)
    cands = _texts(rng, 9)
    refs = [_texts(rng, 1 + k % 3) for k in range(9)]
    listed = pa.RecordBatch.from_pydict({"p": cands, "refs": refs})
    got = score_partition(listed, Columns.build("p", "refs"), MEASURES, multi_ref="max", tokenizer="unicode")
    want = rougekit.score(cands, refs, measures=MEASURES, multi_ref="max", tokenizer="unicode", bootstrap=None)
    assert np.array_equal(got.data, want.data)
    columns = pa.RecordBatch.from_pydict({"p": cands, "r1": [r[0] for r in refs], "r2": [r[-1] for r in refs]})
    got = score_partition(columns, Columns.build("p", ["r1", "r2"]), MEASURES, tokenizer="unicode")
    want = rougekit.score(cands, [[r[0], r[-1]] for r in refs], measures=MEASURES, tokenizer="unicode", bootstrap=None)
    assert np.array_equal(got.data, want.data)


@pytest.mark.parametrize(
    "cells, message",
    [
        ({"p": ["a", "b", None], "r": ["a", "b", "c"]}, "row 3: 'p' holds a missing value (null), not text"),
        ({"p": ["a", "b", "c"], "r": ["a", None, "c"]}, "row 2: 'r' holds a missing value (null), not text"),
        ({"p": ["a", "b"], "r": [["a"], []]}, "row 2: 'r' holds an empty list, not one or more references"),
        ({"p": ["a", "b"], "r": [1, 2]}, "row 1: 'r' holds int 1, not text (a str or a list of str sentences)"),
    ],
)
def test_a_bad_arrow_cell_is_named_by_its_row(cells, message):
    batch = pa.RecordBatch.from_pydict(cells)
    with pytest.raises(TypeError) as error:
        score_partition(batch, Columns.build("p", "r"), ["ROUGE-1"])
    assert str(error.value) == message
    with pytest.raises(TypeError, match=r"^row 2: 'k' holds a missing value \(null\), not a pair ID$"):
        score_partition(pa.RecordBatch.from_pydict({"p": ["a", "b"], "r": ["a", "b"], "k": ["x", None]}),
                        Columns.build("p", "r", "k"), ["ROUGE-1"])  # fmt: skip


def test_a_missing_arrow_column_names_the_columns_there_are():
    batch = pa.RecordBatch.from_pydict({"p": ["a"], "ref": ["a"]})
    with pytest.raises(rougekit.errors.OptionError, match=r"^no column 'r' in the data \(columns: p, ref\)$"):
        score_partition(batch, Columns.build("p", "r"), ["ROUGE-1"])
