"""Parquet/Arrow columns nested in structs, named by a dotted path (``--candidate-column pred.text``):
Hugging Face data sets and Spark write such columns. The texts are read where they are and score as
the same texts given to ``rougekit.score``; a path that leads nowhere says where it stops, and a null
struct row is refused as any null row is (never read as an empty text)."""

from __future__ import annotations

import contextlib
import csv
import io

import pyarrow as pa
import pyarrow.parquet as pq

import rougekit
from rougekit.cli.main import main

CANDIDATES = ["police killed the gunman", "the cat was found under the bed", "markets fell sharply on monday"]
REFERENCES = [
    ["police kill the gunman", "the gunman was shot by police"],
    ["the cat was under the bed"],
    ["stock markets fell on monday"],
]


def run(*argv) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


def nested_table() -> pa.Table:
    pred = pa.array([{"text": c, "model": "m"} for c in CANDIDATES])
    gold = pa.array([{"refs": r, "n": len(r)} for r in REFERENCES])
    return pa.table({"pred": pred, "gold": gold})


def per_pair_f(out: str) -> list[float]:
    return [float(row["ROUGE-L_f"]) for row in csv.DictReader(io.StringIO(out))]


def test_struct_fields_score_as_the_same_texts_from_parquet_and_arrow(tmp_path):
    parquet, ipc = tmp_path / "nested.parquet", tmp_path / "nested.arrow"
    pq.write_table(nested_table(), parquet, row_group_size=2)  # rows across two row groups
    with pa.OSFile(str(ipc), "wb") as sink, pa.ipc.new_file(sink, nested_table().schema) as writer:
        writer.write_table(nested_table(), max_chunksize=2)
    result = rougekit.score(CANDIDATES, REFERENCES, measures=["ROUGE-L"])
    want = [round(float(x), 5) for x in result.columns()["ROUGE-L_f"]]
    for flag, path in (("--parquet", parquet), ("--arrow", ipc)):
        code, out, err = run(
            "score", flag, str(path), "--candidate-column", "pred.text", "--reference-column", "gold.refs",
            "--measures", "ROUGE-L", "--per-pair", "--format", "csv", "-q",
        )  # fmt: skip
        assert code == 0, err
        assert per_pair_f(out) == want


def test_a_path_that_leads_nowhere_says_where_it_stops(tmp_path):
    path = tmp_path / "nested.parquet"
    pq.write_table(nested_table(), path)
    for column, said in (
        ("pred.txt", "no column 'pred.txt': 'pred' is a struct of fields 'text', 'model'"),
        ("pred.text.x", "no column 'pred.text.x': 'pred.text' is of type string"),
        ("nope.text", "no column 'nope.text' for --candidate-column (columns: 'pred', 'gold')"),
    ):
        code, _, err = run(
            "score", "--parquet", str(path), "--candidate-column", column, "--reference-column", "gold.refs"
        )
        assert code == 2 and said in err and len(err.strip().splitlines()) == 1


def test_a_null_struct_row_is_refused_not_read_as_empty(tmp_path):
    path = tmp_path / "null.parquet"
    pred = pa.array([{"text": CANDIDATES[0]}, None, {"text": CANDIDATES[2]}])
    pq.write_table(pa.table({"pred": pred, "ref": [r[0] for r in REFERENCES]}), path)
    code, _, err = run("score", "--parquet", str(path), "--candidate-column", "pred.text", "--reference-column", "ref")
    assert code == 2 and "row 2: column 'pred.text' is null" in err


def test_dedup_reads_a_struct_field_and_writes_every_column_back(tmp_path):
    path, kept = tmp_path / "msgs.parquet", tmp_path / "kept.parquet"
    texts = ["give three tips for staying healthy", "give 3 tips for staying healthy", "name a red fruit"]
    pq.write_table(pa.table({"msg": pa.array([{"content": t} for t in texts]), "k": [0, 1, 2]}), path)
    code, _, err = run("dedup", str(path), "--column", "msg.content", "-o", str(kept), "-q")
    assert code == 0, err
    # by hand: rows 1 and 2 share an LCS of 5 of their 6 tokens, F = 5/6 > 0.7: row 2 is dropped
    assert pq.read_table(kept).to_pylist() == [
        {"msg": {"content": texts[0]}, "k": 0},
        {"msg": {"content": texts[2]}, "k": 2},
    ]


def test_a_struct_path_under_a_repeated_column_name_is_one_line(tmp_path):
    path = tmp_path / "dup.parquet"
    table = pa.Table.from_arrays(
        [pa.array([{"text": "a b"}]), pa.array([{"text": "x"}]), pa.array(["a b"])], ["p", "p", "r"]
    )
    pq.write_table(table, path)
    code, _, err = run("score", "--parquet", str(path), "--candidate-column", "p.text", "--reference-column", "r")
    assert code == 2 and "2 columns are named 'p': rename one" in err
