"""rougekit.dask.score on a real distributed.LocalCluster (2 worker processes) against rougekit.score
on the same data in this process: per-pair statistics, corpus numbers, intervals and the signature
must be identical (the bootstrap draws the same resamples from the same pairs in the same order)."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from _paths import SHARED, shared_missing, subprocess_env

import rougekit
from rougekit.errors import EmptyTokensWarning, InputError, OptionError

pd = pytest.importorskip("pandas", reason="pandas is not installed (pip install 'rougekit[test]')")
dask = pytest.importorskip("dask", reason="dask is not installed (pip install 'rougekit[dask]')")
dd = pytest.importorskip("dask.dataframe", reason="dask[dataframe] is not installed (pip install 'rougekit[dask]')")
db = pytest.importorskip("dask.bag", reason="dask is not installed (pip install 'rougekit[dask]')")
distributed = pytest.importorskip("distributed", reason="distributed is not installed (pip install 'rougekit[dask]')")

import rougekit.dask as rdask  # noqa: E402

SUMMEVAL = SHARED / "data" / "summeval" / "summeval.jsonl"
MEASURES = ["ROUGE-1", "ROUGE-2", "ROUGE-L", "ROUGE-SU4", "ROUGE-W-1.2"]


@pytest.fixture(scope="module")
def client():
    """One real cluster for the module: two worker processes with one thread each."""
    cluster = distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None, worker_dashboard_address=None
    )
    with distributed.Client(cluster) as c:
        yield c
    cluster.close()


def assert_same(got: rougekit.RougeResult, want: rougekit.RougeResult) -> None:
    """Identical results: statistics bit for bit, ids, corpus numbers with intervals, signature."""
    assert got.data.shape == want.data.shape
    assert np.array_equal(got.data, want.data, equal_nan=True)
    assert got.ids == want.ids
    assert got.to_dict() == want.to_dict()
    assert str(got.signature) == str(want.signature)
    assert got.per_pair() == want.per_pair()


def from_slices(frame, sizes):
    """A Dask DataFrame whose partitions hold ``sizes`` rows each (zeros allowed), in order."""
    assert sum(sizes) == len(frame)
    starts = np.cumsum([0, *sizes])
    bounds = list(zip(starts[:-1].tolist(), starts[1:].tolist()))
    return dd.from_map(lambda b: frame.iloc[b[0] : b[1]], bounds, meta=frame.iloc[:0], enforce_metadata=False)


def summeval_rows():
    if not SUMMEVAL.exists():
        pytest.skip(shared_missing(SUMMEVAL))
    rows = []
    with SUMMEVAL.open(encoding="utf-8") as f:
        for line in f:
            doc = json.loads(line)
            for system in sorted(doc["sys_summs"]):
                rows.append({"prediction": doc["sys_summs"][system]["sys_summ"], "references": doc["ref_summs"]})
    return rows


def generated(n: int, seed: int):
    """Random short texts over a small vocabulary, 1 to 3 references each (one as a plain string)."""
    rng = random.Random(seed)
    words = "the a cat dog sat ran on mat rug and of police gunman killed shot was".split()

    def text():
        sentences = [" ".join(rng.choice(words) for _ in range(rng.randint(1, 9))) for _ in range(rng.randint(1, 2))]
        return "\n".join(sentences)

    out = []
    for _ in range(n):
        k = rng.randint(1, 3)
        out.append({"prediction": text(), "reference": text() if k == 1 else [text() for _ in range(k)]})
    return out


def test_summeval_reference_columns_uneven_partitions(client):
    """1,600 SummEval summaries, 11 references each as 11 columns, partitions of 0 to 700 rows."""
    rows = summeval_rows()
    names = [f"ref{i}" for i in range(11)]
    frame = pd.DataFrame(
        {
            "prediction": [r["prediction"] for r in rows],
            **{n: [r["references"][i] for r in rows] for i, n in enumerate(names)},
        }
    )
    sizes = [0, 1, 37, 700, 0, 262, len(frame) - 1000, 0]
    got = rdask.score(from_slices(frame, sizes), "prediction", names, measures=MEASURES, stem=True)
    want = rougekit.score(frame["prediction"].tolist(), [list(r) for r in zip(*(frame[n] for n in names))],
                          measures=MEASURES, stem=True)  # fmt: skip
    assert len(got) == len(rows) == 1600
    assert_same(got, want)
    assert "interval" in got.to_dict()["ROUGE-L"] and "rouge155_average" in got.to_dict()["ROUGE-L"]


def test_summeval_bag_of_records_with_reference_lists(client):
    rows = summeval_rows()
    bag = db.from_sequence(rows, partition_size=150)
    options = dict(measures=["ROUGE-1", "ROUGE-L"], multi_ref="max", bootstrap="percentile", seed=7, resamples=300)
    got = rdask.score(bag, references="references", **options)
    want = rougekit.score([r["prediction"] for r in rows], [r["references"] for r in rows], **options)
    assert bag.npartitions > 5
    assert_same(got, want)


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"average": "tokens", "stopwords": True, "word_limit": 6},
        {"average": "rouge155", "multi_ref": "best", "measures": ["ROUGE-2", "ROUGE-S4", "ROUGE-W-1.2"]},
        {"tokenizer": "unicode", "multi_ref": "jackknife", "bootstrap": "percentile", "seed": 3},
        {"measures": ["ROUGE-1", "BLEU", "Ngram(1,2)"], "bootstrap": None},
    ],
)
def test_generated_texts_dataframe(client, options):
    rows = generated(900, seed=len(str(options)))
    frame = pd.DataFrame(rows)
    with dask.config.set({"dataframe.convert-string": False}):  # keep the lists of references as lists
        ddf = from_slices(frame, [300, 0, 1, 599])
    got = rdask.score(ddf, **options)
    want = rougekit.score(frame["prediction"].tolist(), frame["reference"].tolist(), **options)
    assert_same(got, want)


def test_ids_column_orders_the_rouge155_bootstrap(client):
    rows = generated(300, seed=11)
    ids = [f"d{(k * 37) % 300}" for k in range(300)]
    bag = db.from_sequence([dict(r, doc=i) for r, i in zip(rows, ids)], npartitions=4)
    got = rdask.score(bag, ids="doc", average="rouge155")
    want = rougekit.score([r["prediction"] for r in rows], [r["reference"] for r in rows], ids=ids, average="rouge155")
    assert got.ids == ids
    assert_same(got, want)


def test_bag_of_tuples_and_a_callable_tokenizer(client):
    rows = generated(200, seed=5)
    bag = db.from_sequence([(r["prediction"], r["reference"]) for r in rows], npartitions=3)
    got = rdask.score(bag, tokenizer=str.split, measures=["ROUGE-1", "ROUGE-L"])
    want = rougekit.score([r["prediction"] for r in rows], [r["reference"] for r in rows], tokenizer=str.split,
                          measures=["ROUGE-1", "ROUGE-L"])  # fmt: skip
    assert_same(got, want)


def test_counting_runs_in_the_workers(client, monkeypatch):
    """This process cannot count (its Scorer.statistics raises), yet the result is complete."""

    def refuse(*args, **kwargs):
        raise AssertionError("counted in the client")

    monkeypatch.setattr(rougekit.Scorer, "statistics", refuse)
    rows = generated(100, seed=2)
    got = rdask.score(db.from_sequence(rows, npartitions=2), measures=["ROUGE-1"])
    monkeypatch.undo()
    want = rougekit.score([r["prediction"] for r in rows], [r["reference"] for r in rows], measures=["ROUGE-1"])
    assert_same(got, want)


def test_empty_collection(client):
    frame = pd.DataFrame({"prediction": pd.Series([], dtype=object), "reference": pd.Series([], dtype=object)})
    with pytest.raises(InputError, match="no pairs to score"):  # as rougekit.score([], []) (issue 25 item 9)
        rdask.score(from_slices(frame, [0, 0]))
    with pytest.raises(InputError, match="no pairs to score"):
        rougekit.score([], [])


def test_bad_input(client):
    frame = pd.DataFrame({"prediction": ["a b", "c d", None], "reference": ["a", "c", "d"], "n": [1, 2, 3]})
    ddf = dd.from_pandas(frame, npartitions=2)
    with pytest.raises(OptionError, match="no column 'summary'.*prediction, reference, n"):
        rdask.score(ddf, candidates="summary")
    with pytest.raises(TypeError, match="column 'n' holds int64, not text"):
        rdask.score(ddf, references="n")
    with pytest.raises(TypeError, match="partition 2, row 1: 'prediction' holds .*, not text"):
        rdask.score(ddf)
    with pytest.raises(TypeError, match="takes a dask DataFrame or Bag, got list"):
        rdask.score([("a", "b")])
    with pytest.raises(OptionError, match="unknown|ROUGE-9x|measure"):
        rdask.score(ddf, measures=["ROUGE-9x"])
    bag = db.from_sequence([{"prediction": "a", "reference": "a"}, {"prediction": "b"}], npartitions=1)
    with pytest.raises(OptionError, match="partition 1, record 2: no field 'reference'"):
        rdask.score(bag)
    bag = db.from_sequence([{"prediction": "a", "reference": 7}], npartitions=1)
    with pytest.raises(TypeError, match="row 1: 'reference' holds int 7, not text"):
        rdask.score(bag)


def test_stringified_reference_lists_are_refused(client):
    """With Dask's default convert-string, a column of lists arrives as their reprs: an error, not wrong scores."""
    frame = pd.DataFrame({"prediction": ["a b", "c d"], "reference": [["a", "b c"], ["d"]]})
    with dask.config.set({"dataframe.convert-string": True}):
        ddf = dd.from_pandas(frame, npartitions=1)
    with pytest.raises(TypeError, match="row 1: 'reference' holds the text of a Python list.*convert-string"):
        rdask.score(ddf)


def test_stringified_token_id_lists_are_refused(client):
    """A column of token-id lists under convert-string arrives as "[5, 6, 7, 0]": refused, not scored as the
    texts of numbers (ignore_ids would then be refused as "text inputs")."""
    frame = pd.DataFrame({"prediction": [[5, 6, 7, 0], [1, 12, 0, 0]], "reference": [[5, 9, 0, 0], [1, 2, 0, 0]]})
    with dask.config.set({"dataframe.convert-string": True}):
        ddf = dd.from_pandas(frame, npartitions=1)
    with pytest.raises(TypeError, match=r"row 1: 'prediction' holds the text of a list of token ids.*convert-string"):
        rdask.score(ddf, ignore_ids=0)
    # the same frame kept as lists: the ids scored as rougekit.score scores them, the pad id dropped
    with dask.config.set({"dataframe.convert-string": False}):
        ddf = dd.from_pandas(frame, npartitions=2)
    got = rdask.score(ddf, ignore_ids=0, measures=["ROUGE-1"], bootstrap=None)
    # by hand: [5,6,7] vs [5,9] 1 hit, F = 2/(3+2) = .4; [1,12] vs [1,2] 1 hit, F = 2/(2+2) = .5
    assert got.values("ROUGE-1").tolist() == pytest.approx([0.4, 0.5], abs=1e-12)
    assert "ignore:0" in str(got.signature)


def test_text_that_reads_as_a_list_of_numbers_is_still_text(client):
    """One summary that happens to be "[1, 2]" among texts is text (only a whole column of id lists is refused)."""
    frame = pd.DataFrame({"prediction": ["[1, 2]", "a b"], "reference": ["1 2", "a b"]})
    with dask.config.set({"dataframe.convert-string": True}):
        ddf = dd.from_pandas(frame, npartitions=1)
    got = rdask.score(ddf, measures=["ROUGE-1"], bootstrap=None)
    assert got.values("ROUGE-1").tolist() == [1.0, 1.0]


def test_statistics_frame_batches_as_spark_would_send_them():
    """The mapInPandas recipe without Spark: batches scored apart, gathered out of order, sorted by row."""
    rows = generated(500, seed=9)
    frame = pd.DataFrame(rows).assign(row=np.arange(500))
    options = dict(measures=["ROUGE-1", "ROUGE-L", "ROUGE-W-1.2"], stem=True, average="tokens")
    batches = [frame.iloc[a:b] for a, b in ((0, 170), (170, 171), (171, 171), (171, 500))]
    stats = [rdask.statistics_frame(b, keep=["row"], **options) for b in reversed(batches)]
    gathered = pd.concat(stats).sort_values("row", kind="stable")
    got = rdask.result_from_frame(gathered, **options)
    want = rougekit.score(frame["prediction"].tolist(), frame["reference"].tolist(), **options)
    assert_same(got, want)
    assert rdask.spark_schema(["ROUGE-1"], keep=["row"]).startswith("`row` long, `ROUGE-1_reference_count` double")
    with pytest.raises(OptionError, match="BLEU"):
        rdask.statistics_frame(frame, measures=["BLEU"])


def test_docs_example_runs(tmp_path):
    """docs/dask.md's example (its own two-process cluster) runs and its assertion holds."""
    page = (Path(__file__).resolve().parents[1] / "docs" / "dask.md").read_text(encoding="utf-8")
    example = page.split("## Example", 1)[1].split("```python\n", 1)[1].split("```", 1)[0]
    script = tmp_path / "example.py"
    script.write_text(example, encoding="utf-8")
    run = subprocess.run(
        [sys.executable, str(script)], env=subprocess_env(), capture_output=True, text=True, timeout=300, cwd=tmp_path
    )
    assert run.returncode == 0, run.stderr[-2000:]
    signature = rougekit.Scorer(["ROUGE-1", "ROUGE-L"], stem=True).signature
    assert run.stdout.startswith(f"{signature}\n")
    assert "ROUGE-L      R " in run.stdout


def test_workers_warnings_reach_the_client(client):
    """Summaries the tokenizer turns into nothing score 0 with a warning, also when workers scored them."""
    japanese = {"prediction": "猫が座った", "reference": "猫がマットに座った"}
    rows = [japanese, {"prediction": "a b", "reference": "a"}] * 3
    with pytest.warns(EmptyTokensWarning) as caught:
        want = rougekit.score([r["prediction"] for r in rows], [r["reference"] for r in rows])
    with pytest.warns(EmptyTokensWarning) as got_caught:
        got = rdask.score(db.from_sequence(rows, npartitions=3))
    assert_same(got, want)
    messages = [str(w.message) for w in got_caught if issubclass(w.category, EmptyTokensWarning)]
    assert len(messages) == 1
    assert messages[0].startswith("partition 1: 2 of 4 summaries have words but no tokens")
    assert messages[0].endswith("(and in 2 other partitions)")
    assert "score 0" in str(caught[0].message)


def test_parquet_list_column_of_references(client, tmp_path):
    """read_parquet gives a list<string> column as arrays: each is read as that pair's references."""
    pa = pytest.importorskip("pyarrow", reason="pyarrow is not installed (pip install 'rougekit[test]')")
    pq = pytest.importorskip("pyarrow.parquet", reason="pyarrow is not installed (pip install 'rougekit[test]')")
    rows = generated(400, seed=21)
    refs = [r["reference"] if isinstance(r["reference"], list) else [r["reference"]] for r in rows]
    for k in range(4):
        part = slice(100 * k, 100 * (k + 1))
        table = pa.table({"prediction": [r["prediction"] for r in rows[part]], "reference": refs[part]})
        pq.write_table(table, tmp_path / f"part-{k}.parquet")
    got = rdask.score(dd.read_parquet(tmp_path), average="rouge155")
    want = rougekit.score([r["prediction"] for r in rows], refs, average="rouge155")
    assert_same(got, want)
