"""rougekit.spark on a real local Spark session (local[2], Java 17): the same result as rougekit.score
on the collected rows, for partitions of 0, 1 and uneven sizes; errors and warnings from the executors."""

from __future__ import annotations

import random
import shutil
import warnings

import numpy as np
import pytest

import rougekit
import rougekit.process
import rougekit.spark
from rougekit.errors import InputError, OptionError

pytestmark = pytest.mark.integration  # CI's integration step; the default run deselects it


WORDS = "the a cat dog sat on mat police killed gunman shot was near house river ran fast slow".split()


def _texts(rng: random.Random, n: int) -> list[str]:
    return [" ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 12))) for _ in range(n)]


@pytest.fixture(scope="module")
def spark():
    # checked here, not at import: the default run deselects these tests and must not skip them
    pytest.importorskip("pyspark", reason="pyspark is in the integration extra (pip install '.[integration]')")
    if shutil.which("java") is None:  # pragma: no cover - CI installs Java
        pytest.skip("Spark needs Java 17 (apt-get install openjdk-17-jre-headless)")
    from pyspark.sql import SparkSession

    session = (
        SparkSession.builder.master("local[2]")
        .appName("rougekit-tests")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "2")
        .config("spark.sql.execution.arrow.maxRecordsPerBatch", "7")  # several Arrow batches per partition
        .getOrCreate()
    )
    yield session
    session.stop()


def _frame(spark, rows: list[dict], sizes: list[int], schema: str):
    """A DataFrame whose partitions hold exactly ``sizes`` rows, in order."""
    assert sum(sizes) == len(rows)
    parts, start = [], 0
    for n in sizes:
        parts.append(rows[start : start + n])
        start += n
    rdd = spark.sparkContext.parallelize(range(len(sizes)), len(sizes)).flatMap(lambda i: parts[i])
    df = spark.createDataFrame(rdd.map(lambda r: tuple(r.values())), schema)
    assert df.rdd.glom().map(len).collect() == sizes
    return df


def _same(a: rougekit.RougeResult, b: rougekit.RougeResult) -> None:
    assert a.data.shape == b.data.shape
    assert np.array_equal(a.data, b.data, equal_nan=True)
    assert a.to_dict() == b.to_dict()
    assert str(a.signature) == str(b.signature)
    assert [r for r in a.rows()] == [r for r in b.rows()]


@pytest.mark.parametrize("sizes", [[0, 1, 13, 0, 2, 30], [1], [46]])
def test_score_equals_rougekit_score_on_the_collected_rows(spark, sizes):
    rng = random.Random(len(sizes))
    n = sum(sizes)
    cands, refs = _texts(rng, n), _texts(rng, n)
    rows = [{"prediction": c, "reference": r, "id": f"d{k:03d}"} for k, (c, r) in enumerate(zip(cands, refs))]
    df = _frame(spark, rows, sizes, "prediction string, reference string, id string")
    options = dict(measures=["ROUGE-1", "ROUGE-2", "ROUGE-L", "ROUGE-SU4", "ROUGE-W-1.2"], stem=True, seed=7)
    got = rougekit.spark.score(df, "prediction", "reference", ids="id", **options)
    want = rougekit.score(cands, refs, ids=[r["id"] for r in rows], **options)
    _same(got, want)
    assert got.to_dict()["ROUGE-L"]["interval"] == want.to_dict()["ROUGE-L"]["interval"]


def test_several_references_per_row_and_reference_columns(spark):
    rng = random.Random(3)
    cands = _texts(rng, 9)
    refs = [_texts(rng, 1 + k % 3) for k in range(9)]
    rows = [{"prediction": c, "references": r} for c, r in zip(cands, refs)]
    df = _frame(spark, rows, [4, 0, 5], "prediction string, references array<string>")
    _same(
        rougekit.spark.score(df, references="references", bootstrap=None, multi_ref="max"),
        rougekit.score(cands, refs, bootstrap=None, multi_ref="max"),
    )
    two = [{"p": c, "r1": r[0], "r2": r[-1]} for c, r in zip(cands, refs)]
    df2 = _frame(spark, two, [9], "p string, r1 string, r2 string")
    _same(
        rougekit.spark.score(df2, "p", ["r1", "r2"], bootstrap=None),
        rougekit.score(cands, [[r[0], r[-1]] for r in refs], bootstrap=None),
    )


def test_per_pair_adds_columns_equal_to_rougekit_per_pair(spark):
    rng = random.Random(5)
    cands, refs = _texts(rng, 20), _texts(rng, 20)
    rows = [{"k": k, "prediction": c, "reference": r} for k, (c, r) in enumerate(zip(cands, refs))]
    df = _frame(spark, rows, [3, 0, 17], "k long, prediction string, reference string")
    out = rougekit.spark.per_pair(df, measures=["ROUGE-1", "ROUGE-L"], stats=("f", "hits")).toPandas()
    added = ["ROUGE-1_f", "ROUGE-1_hits", "ROUGE-L_f", "ROUGE-L_hits"]
    assert list(out.columns) == ["k", "prediction", "reference", *added]
    out = out.sort_values("k")
    want = rougekit.score(cands, refs, measures=["ROUGE-1", "ROUGE-L"], bootstrap=None)
    assert out["ROUGE-L_f"].tolist() == want.values("ROUGE-L", "f").tolist()
    assert out["ROUGE-1_hits"].tolist() == [c["ROUGE-1"]["hits"] for c in want.counts()]


def test_the_first_bad_row_in_dataframe_order_is_named(spark):
    """An executor's error comes back as data: the driver raises the first in DataFrame order, its row
    counted from the DataFrame's first row (not the partition's), with no JVM traceback."""
    rows = [{"prediction": "a cat", "reference": "the cat"} for _ in range(12)]
    rows[9]["prediction"] = None
    rows[4]["reference"] = None
    df = _frame(spark, rows, [3, 6, 3], "prediction string, reference string")
    with pytest.raises(TypeError) as error:
        rougekit.spark.score(df, bootstrap=None)
    assert str(error.value) == "row 5: 'reference' holds a missing value (null), not text"


def test_executor_warnings_reach_the_driver(spark):
    rows = [{"prediction": "the cat", "reference": "猫坐"}, {"prediction": "猫坐在垫子上", "reference": "a cat"}]
    df = _frame(spark, rows, [1, 1], "prediction string, reference string")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        rougekit.spark.score(df, bootstrap=None)
    with warnings.catch_warnings(record=True) as local:
        warnings.simplefilter("always")
        rougekit.score([r["prediction"] for r in rows], [r["reference"] for r in rows], bootstrap=None)
    assert [type(w.message).__name__ for w in local] == ["EmptyTokensWarning"]
    ours = [w for w in caught if type(w.message).__module__ == "rougekit.errors"]  # not Spark's own
    assert [type(w.message).__name__ for w in ours] == ["EmptyTokensWarning"]
    text = str(ours[0].message)  # the counts are the first batch's: the message says whose they are
    assert text.startswith("Arrow batch 1: 1 of 2 summaries have words but no tokens"), text
    assert text.endswith("(and in 1 other Arrow batch)"), text


def test_a_warning_names_its_arrow_batch_counted_in_dataframe_order(spark):
    """Batches are counted in DataFrame order, with or without a warning: the one with Han text is the third."""
    rows = [{"prediction": "the cat", "reference": "a cat"}] * 9 + [{"prediction": "猫坐", "reference": "a cat"}]
    df = _frame(spark, rows, [7, 2, 1], "prediction string, reference string")  # three batches (7 rows at most)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        rougekit.spark.score(df, bootstrap=None)
    ours = [str(w.message) for w in caught if type(w.message).__module__ == "rougekit.errors"]
    assert len(ours) == 1 and ours[0].startswith("Arrow batch 3: 1 of 2 summaries have words but no tokens"), ours


def test_options_and_columns_are_checked_on_the_driver(spark):
    row = {"prediction": "a", "reference": "a", "n": 1}
    df = _frame(spark, [row], [1], "prediction string, reference string, n long")
    with pytest.raises(OptionError, match="no column 'pred'"):
        rougekit.spark.score(df, "pred")
    with pytest.raises(TypeError, match="column 'n' holds bigint"):
        rougekit.spark.score(df, "prediction", "n")
    with pytest.raises(OptionError, match="BLEU"):
        rougekit.spark.score(df, measures=["BLEU"])
    with pytest.raises(OptionError):
        rougekit.spark.score(df, measures=["ROUGE-9x"])
    empty = _frame(spark, [], [0, 0], "prediction string, reference string")
    with pytest.raises(InputError, match="no rows"):
        rougekit.spark.score(empty)


def test_text_that_looks_like_a_list_is_scored_as_text(spark):
    """Spark hands text over as pandas string columns; the check for Dask's convert-string (a column of
    lists turned into reprs) must not refuse a text that happens to read like a Python list."""
    rows = [{"prediction": "['police', 'killed']", "reference": "['police', 'killed']"}]
    df = _frame(spark, rows, [1], "prediction string, reference string")
    got = rougekit.spark.score(df, measures=["ROUGE-1"], bootstrap=None)
    want = rougekit.score([rows[0]["prediction"]], [rows[0]["reference"]], measures=["ROUGE-1"], bootstrap=None)
    _same(got, want)


def test_a_missing_pair_id_is_refused_as_by_rougekit_score(spark):
    rows = [{"p": "a cat", "r": "a cat", "id": "x"}, {"p": "a dog", "r": "a dog", "id": None}]
    df = _frame(spark, rows, [1, 1], "p string, r string, id string")
    with pytest.raises(TypeError, match="row 2: 'id' holds a missing value"):
        rougekit.spark.score(df, "p", "r", ids="id", bootstrap=None)
    with pytest.raises(TypeError, match="ids: item 2 is a missing value"):
        rougekit.score(["a cat", "a dog"], ["a cat", "a dog"], ids=["x", None], bootstrap=None)


def _near_duplicates(n: int, seed: int) -> list[str]:
    """Texts that often repeat an earlier one with a word changed (many drops, many tied scores)."""
    rng = random.Random(seed)
    out: list[str] = []
    for _ in range(n):
        if out and rng.random() < 0.6:
            base = rng.choice(out).split()
            base[rng.randrange(len(base))] = rng.choice(WORDS)
            out.append(" ".join(base))
        else:
            out.append(" ".join(rng.choice(WORDS) for _ in range(rng.randint(2, 10))))
    return out


@pytest.mark.parametrize(
    "options", [{"measure": "rougeL"}, {"measure": "ROUGE-2", "stat": "precision", "score_cutoff": 0.2}]
)
def test_cdist_blocks_equal_the_single_process_matrix(spark, options):
    queries, choices = _near_duplicates(60, 1), _near_duplicates(90, 2)
    got = rougekit.spark.cdist(queries, choices, spark=spark, block_size=(13, 40), dtype=np.float64, **options)
    want = rougekit.process.cdist(queries, choices, dtype=np.float64, **options)
    assert got.dtype == want.dtype and np.array_equal(got, want) and np.count_nonzero(got) > 100


@pytest.mark.parametrize("limit, cutoff", [(3, None), (None, 0.4), (1, None)])
def test_extract_equals_process_extract_on_every_query(spark, limit, cutoff):
    queries, choices = _near_duplicates(30, 3), _near_duplicates(120, 4)
    got = rougekit.spark.extract(
        queries, choices, spark=spark, limit=limit, score_cutoff=cutoff, measure="rougeL", block_size=(8, 25)
    )
    want = [rougekit.process.extract(q, choices, limit=limit, score_cutoff=cutoff, measure="rougeL") for q in queries]
    assert got == want and sum(map(len, want)) >= 30


def test_dedup_equals_process_dedup(spark):
    texts = _near_duplicates(250, 5)
    for options in ({"measure": "rougeL"}, {"measure": "ROUGE-L", "stem": True}):
        got = rougekit.spark.dedup(texts, spark=spark, threshold=0.7, block_size=31, **options)
        want = rougekit.process.dedup(texts, threshold=0.7, **options)
        assert got == want and len(got.dropped) > 50


def test_matrix_inputs_from_a_dataframe_and_errors_named_on_the_driver(spark):
    texts = _near_duplicates(20, 6)
    df = spark.createDataFrame([(t,) for t in texts], "text string")
    assert rougekit.spark.dedup(df, spark=spark, block_size=7) == rougekit.process.dedup(texts)
    with pytest.raises(OptionError, match="one column is needed, got 2"):
        rougekit.spark.cdist(df.selectExpr("text", "text as t2"), texts, spark=spark)
    with pytest.raises(InputError, match=r"choices\[3\] is empty"):
        rougekit.spark.cdist(texts, ["a", "b", "c", " "], spark=spark)
    with pytest.raises(OptionError, match="limit must be a positive integer"):
        rougekit.spark.extract(texts, texts, spark=spark, limit=0)
    bad = list(texts)
    bad[13], bad[17] = "a \ud800 b", "c \udc00"  # found by the tokenizer, in the executors
    for call in (rougekit.spark.cdist, rougekit.spark.extract):  # named in the whole input, as process names it
        with pytest.raises(InputError, match=r"^choices: text 14 is not valid Unicode"):
            call(texts, bad, spark=spark, block_size=(5, 5))
        with pytest.raises(InputError, match=r"^queries: text 14 is not valid Unicode"):
            call(texts[:12] + bad[12:], bad, spark=spark, block_size=(5, 5))
    with pytest.raises(InputError, match=r"^texts: text 14 is not valid Unicode"):
        rougekit.spark.dedup(bad, spark=spark, block_size=4)
    assert rougekit.spark.cdist([], texts, spark=spark).shape == (0, 20)
    assert rougekit.spark.extract(texts[:2], [], spark=spark) == [[], []]


@pytest.mark.parametrize("n, block_size", [(0, 4), (1, 4), (9, 100), (57, 10)])
def test_dedup_on_uneven_and_empty_blocks(spark, n, block_size):
    """rougeL blocks on the filtered index (rougekit.process.blocks.pairs_above): the decisions of process.dedup."""
    texts = _near_duplicates(n, 7)
    got = rougekit.spark.dedup(texts, spark=spark, threshold=0.7, block_size=block_size)
    assert got == rougekit.process.dedup(texts, threshold=0.7) and len(got) == n


def test_dedup_default_blocks_over_several_waves(spark, monkeypatch):
    """The default block (rougeL: rougekit.spark.matrix._INDEX_BLOCK texts a task), made small here so
    that 1,000 texts run in many waves, each told the texts dropped before it: process.dedup's decisions."""
    import rougekit.spark.matrix as sm

    monkeypatch.setattr(sm, "_INDEX_BLOCK", 37)
    texts = _near_duplicates(1000, 3)
    got = rougekit.spark.dedup(texts, spark=spark, threshold=0.6)
    assert got == rougekit.process.dedup(texts, threshold=0.6) and len(got.dropped) > 100


def test_token_id_columns_with_a_pad_id(spark):
    """array<int> columns are token ids: ``ignore_ids`` drops the pad id as rougekit.score does."""
    rows = [
        {"p": [5, 6, 7, 0, 0], "r": [5, 9, 0, 0, 0]},
        {"p": [1, 12, 0, 0, 0], "r": [1, 2, 0, 0, 0]},
        {"p": [3, 3, 3, 3, 0], "r": [3, 4, 0, 0, 0]},
    ]
    df = _frame(spark, rows, [0, 2, 1], "p array<int>, r array<int>")
    got = rougekit.spark.score(df, "p", "r", measures=["ROUGE-1"], bootstrap=None, ignore_ids=0)
    # by hand: 1 hit of 3 and 2 (F .4), 1 of 2 and 2 (F .5), 1 of 4 and 2 (F 2/6, rounded as 1.5.5 rounds)
    assert got.values("ROUGE-1").tolist() == [0.4, 0.5, 0.33333]
    want = rougekit.score(
        [r["p"] for r in rows], [r["r"] for r in rows], measures=["ROUGE-1"], bootstrap=None, ignore_ids=0
    )
    _same(got, want)
