"""Issue 28: `rougekit score --parquet/--arrow` read a record batch at a time, and per-pair scores
written as Parquet (`--per-pair --format parquet -o FILE`): the same numbers as `--jsonl` and as
`rougekit.score` on the same pairs; errors that name the file, the row and the column."""

from __future__ import annotations

import csv
import io
import json
import sys

import pytest
from _cli import run

pa = pytest.importorskip("pyarrow")  # the test extra installs it; only the pyarrow-less test below runs without
import pyarrow.parquet as pq  # noqa: E402

import rougekit  # noqa: E402

CANDIDATES = [
    "police killed the gunman",
    "the cat was found under the bed",
    "a dog barked at the mailman all day",
    "",
    "markets fell sharply on monday",
]
REFERENCES = [
    ["police kill the gunman", "the gunman was shot by police"],
    ["the cat was under the bed"],
    ["the dog barked", "a dog barked loudly at the postman", "dogs bark"],
    ["nothing here"],
    ["stock markets fell on monday"],
]
IDS = ["a1", "b2", "c3", "d4", "e5"]
MEASURES = "ROUGE-1,ROUGE-2,ROUGE-L,ROUGE-SU4"


def _table(cand_type=None, ref_type=None, **extra):
    cands = pa.array(CANDIDATES, cand_type or pa.string())
    refs = pa.array(REFERENCES, ref_type or pa.list_(pa.string()))
    return pa.table({"id": IDS, "prediction": cands, "references": refs, **extra})


def _jsonl(path):
    path.write_text(
        "".join(
            json.dumps({"id": i, "prediction": c, "references": r}) + "\n"
            for i, c, r in zip(IDS, CANDIDATES, REFERENCES)
        )
    )
    return path


def _score(flag, path, *options):
    code, out, err = run(
        "score", flag, path, "--candidate-" + ("field" if flag == "--jsonl" else "column"), "prediction",
        "--reference-" + ("field" if flag == "--jsonl" else "column"), "references", "--measures", MEASURES, *options,
    )  # fmt: skip
    assert code == 0, err
    return out


def test_parquet_scores_as_jsonl_and_the_api(tmp_path):
    pq.write_table(_table(), tmp_path / "d.parquet")
    as_json = _score("--parquet", tmp_path / "d.parquet", "--format", "json", "--per-pair")
    assert as_json == _score("--jsonl", _jsonl(tmp_path / "d.jsonl"), "--format", "json", "--per-pair")
    api = rougekit.score(CANDIDATES, REFERENCES, measures=MEASURES.split(","))
    got = json.loads(as_json)
    assert [p["ROUGE-2"] for p in got["per_pair"]["prediction"]] == [p["ROUGE-2"] for p in api.per_pair()]
    assert got["systems"]["prediction"]["ROUGE-L"]["f"] == api.to_dict()["ROUGE-L"]["f"]
    # by hand: pair 2, ROUGE-1 with the one reference: 6 shared of 7 candidate, 6 reference words
    assert got["per_pair"]["prediction"][1]["ROUGE-1"] == {"recall": 1.0, "precision": round(6 / 7, 5), "f": 0.92308}


def test_text_output_and_id_column_as_jsonl(tmp_path):
    pq.write_table(_table(), tmp_path / "d.parquet")
    code, _, err = run(
        "score", "--parquet", tmp_path / "d.parquet", "--candidate-column", "prediction", "--reference-column",
        "references", "--format", "csv",
    )  # fmt: skip
    assert code == 0
    assert err == (
        f"rougekit score: warning: {tmp_path / 'd.parquet'}: 1 blank 'prediction' candidate(s) (row 4): they have no "
        "words and score 0 (kept, so the pairs stay aligned)\n"
    )
    jsonl = _jsonl(tmp_path / "d.jsonl")
    for fmt in ("text", "csv"):
        assert _score("--parquet", tmp_path / "d.parquet", "--format", fmt) == _score("--jsonl", jsonl, "--format", fmt)
    by_id = _score("--parquet", tmp_path / "d.parquet", "--id-column", "id", "--per-pair", "--format", "csv")
    assert by_id == _score("--jsonl", jsonl, "--id-field", "id", "--per-pair", "--format", "csv")
    assert [row["instance"] for row in csv.DictReader(io.StringIO(by_id))] == IDS


@pytest.mark.parametrize(
    "cand_type, ref_type",
    [
        (pa.large_string(), pa.large_list(pa.large_string())),
        (pa.dictionary(pa.int32(), pa.string()), pa.list_(pa.dictionary(pa.int16(), pa.string()))),
        (pa.string(), pa.list_(pa.large_string())),
    ],
    ids=["large", "dictionary", "mixed"],
)
def test_large_and_dictionary_strings_score_as_strings(tmp_path, cand_type, ref_type):
    pq.write_table(_table(), tmp_path / "plain.parquet")
    table = _table(cand_type, ref_type)
    pq.write_table(table, tmp_path / "typed.parquet")
    with pa.OSFile(str(tmp_path / "typed.arrow"), "wb") as sink, pa.ipc.new_file(sink, table.schema) as writer:
        writer.write_table(table, max_chunksize=2)  # three record batches
    with pa.OSFile(str(tmp_path / "typed.arrows"), "wb") as sink, pa.ipc.new_stream(sink, table.schema) as writer:
        writer.write_table(table, max_chunksize=3)
    want = _score("--parquet", tmp_path / "plain.parquet", "--per-pair", "--format", "csv")
    assert _score("--parquet", tmp_path / "typed.parquet", "--per-pair", "--format", "csv") == want
    assert _score("--arrow", tmp_path / "typed.arrow", "--per-pair", "--format", "csv") == want
    assert _score("--arrow", tmp_path / "typed.arrows", "--per-pair", "--format", "csv") == want


def test_one_reference_string_several_columns_and_sentence_lists(tmp_path):
    refs = pa.array([r[0] for r in REFERENCES])
    halves = [[" ".join(r[-1].split(" ")[:2]), " ".join(r[-1].split(" ")[2:])] for r in REFERENCES]
    second = pa.array([[h] for h in halves])  # list<list<string>>: one reference a row, as two sentences
    sentences = pa.array([c.split(" the ") for c in CANDIDATES])  # a candidate as a list of sentences
    pq.write_table(pa.table({"c": sentences, "r1": refs, "r2": second}), tmp_path / "d.parquet")
    code, out, err = run(
        "score", "--parquet", tmp_path / "d.parquet", "--candidate-column", "c", "--reference-column", "r1",
        "--reference-column", "r2", "--measures", "ROUGE-1,ROUGE-L", "--per-pair", "--format", "json",
    )  # fmt: skip
    assert code == 0, err
    cands = ["\n".join(c.split(" the ")) for c in CANDIDATES]
    api_refs = [[r[0], "\n".join(h)] for r, h in zip(REFERENCES, halves)]
    api = rougekit.score(cands, api_refs, measures=["ROUGE-1", "ROUGE-L"])
    got = json.loads(out)["per_pair"]["c"]
    assert [{k: v for k, v in p.items() if k != "instance"} for p in got] == api.per_pair()


def test_one_row_and_a_second_record_batch(tmp_path):
    pq.write_table(pa.table({"c": ["the cat sat"], "r": ["the cat sat down"]}), tmp_path / "one.parquet")
    code, out, err = run(
        "score", "--parquet", tmp_path / "one.parquet", "--candidate-column", "c", "--reference-column", "r",
        "--measures", "ROUGE-1", "--per-pair", "--format", "csv",
    )  # fmt: skip
    assert code == 0, err
    assert out.splitlines()[1] == "c,1,0.75,1.0,0.85714"  # 3 of 4 reference words, all 3 candidate words
    # 70,000 rows: two record batches; row numbers go on across them
    n = 70_000
    cands = ["the cat sat"] * n
    cands[-1] = None
    pq.write_table(pa.table({"c": cands, "r": ["a cat"] * n}), tmp_path / "big.parquet", row_group_size=30_000)
    code, out, err = run(
        "score", "--parquet", tmp_path / "big.parquet", "--candidate-column", "c", "--reference-column", "r"
    )
    assert (code, out) == (2, "")
    assert err == f"rougekit score: error: {tmp_path / 'big.parquet'}, row 70,000: column 'c' is null\n"


def _error(tmp_path, table, *options, name="d.parquet"):
    pq.write_table(table, tmp_path / name)
    code, out, err = run(
        "score", "--parquet", tmp_path / name, "--candidate-column", "c", "--reference-column", "r", *options
    )
    assert (code, out) == (2, ""), err
    assert err.count("\n") == 1 and err.startswith("rougekit score: error: ")
    return err.removeprefix("rougekit score: error: ").rstrip("\n")


def test_errors_name_file_row_and_column(tmp_path):
    path = tmp_path / "d.parquet"
    assert _error(tmp_path, pa.table({"c": ["x"], "ref": ["y"]})) == (
        f"{path}: no column 'r' for --reference-column (columns: 'c', 'ref')"
    )
    assert _error(tmp_path, pa.table({"c": ["x", None, "z"], "r": ["y"] * 3})) == f"{path}, row 2: column 'c' is null"
    assert _error(tmp_path, pa.table({"c": ["x", "z"], "r": [["y"], None]})) == f"{path}, row 2: column 'r' is null"
    assert _error(tmp_path, pa.table({"c": ["x", "z"], "r": [["y"], ["a", None]]})) == (
        f"{path}, row 2: column 'r' holds a null inside its list"
    )
    assert _error(tmp_path, pa.table({"c": ["x", "z"], "r": pa.array([["y"], []], pa.list_(pa.string()))})) == (
        f"{path}, row 2: column 'r' is an empty list (no reference)"
    )
    assert _error(tmp_path, pa.table({"c": [1, 2], "r": ["y", "z"]})) == (
        f"{path}: column 'c' is of type int64; it must be a string (large_string, string_view or dictionary-encoded "
        "strings) or a list of sentence strings"
    )
    assert _error(tmp_path, pa.table({"c": ["x"], "r": pa.array([b"y"], pa.binary())})).startswith(
        f"{path}: column 'r' is of type binary (binary: cast it to string); it must be"
    )
    assert _error(tmp_path, pa.table({"c": ["x"], "r": ["y"], "i": [["no"]]}), "--id-column", "i") == (
        f"{path}: column 'i' is of type {pq.read_schema(path).field('i').type}; "
        "it must be a column of strings or numbers"
    )
    assert _error(
        tmp_path, pa.table({"c": ["x"], "r": ["y"], "i": pa.array([None], pa.int64())}), "--id-column", "i"
    ) == (f"{path}, row 1: column 'i' is null")


def _not_utf8(texts):
    """A string array holding bytes that are not UTF-8 (a file not written by pyarrow may hold such)."""
    return pa.array(texts, pa.binary()).view(pa.string())


def test_bytes_not_utf8_and_nulls_in_one_batch_in_order(tmp_path):
    # the candidates' and the references' checks of a batch run at the same time: the error is the one
    # met first when the candidates are checked before the references, as the columns are read
    path = tmp_path / "d.parquet"
    bad = _not_utf8([b"x", b"y", b"a \xff b"])
    assert _error(tmp_path, pa.table({"c": bad, "r": ["y", None, "z"]})) == (
        f"{path}, row 3: column 'c' is not valid UTF-8"
    )
    assert _error(tmp_path, pa.table({"c": ["x", None, "z"], "r": _not_utf8([b"\xff", b"y", b"z"])})) == (
        f"{path}, row 2: column 'c' is null"
    )
    assert (
        _error(tmp_path, pa.table({"c": ["x", "y", "z"], "r": bad})) == f"{path}, row 3: column 'r' is not valid UTF-8"
    )
    refs = pa.ListArray.from_arrays(pa.array([0, 1, 3], pa.int32()), _not_utf8([b"y", b"z", b"\xc3("]))
    assert _error(tmp_path, pa.table({"c": ["x", "y"], "r": refs})) == f"{path}, row 2: column 'r' is not valid UTF-8"
    assert _error(tmp_path, pa.table({"c": _not_utf8([b"x", b"\xe2\x82"]), "r": refs})) == (
        f"{path}, row 2: column 'c' is not valid UTF-8"
    )


def test_empty_and_unreadable_files(tmp_path):
    empty = pa.table({"c": pa.array([], pa.string()), "r": pa.array([], pa.string())})
    assert _error(tmp_path, empty) == f"{tmp_path / 'd.parquet'} has no rows: no summaries to score"
    assert _error(tmp_path, empty, "--per-pair", "--format", "parquet", "-o", tmp_path / "o.parquet") == (
        f"{tmp_path / 'd.parquet'} has no rows: no summaries to score"
    )
    assert not (tmp_path / "o.parquet").exists()  # a stopped run leaves no partial output
    (tmp_path / "t.txt").write_text("not parquet\n")
    code, _, err = run("score", "--parquet", tmp_path / "t.txt", "--candidate-column", "c", "--reference-column", "r")
    assert code == 2 and err.startswith(
        f"rougekit score: error: {tmp_path / 't.txt'}: not readable as a Parquet file ("
    )
    code, _, err = run("score", "--parquet", tmp_path / "nope", "--candidate-column", "c", "--reference-column", "r")
    assert (code, err) == (2, f"rougekit score: error: cannot open {tmp_path / 'nope'}: no such file\n")
    pq.write_table(pa.table({"c": ["x"], "r": ["y"]}), tmp_path / "p.parquet")
    code, _, err = run("score", "--arrow", tmp_path / "p.parquet", "--candidate-column", "c", "--reference-column", "r")
    assert (code, err) == (
        2,
        f"rougekit score: error: {tmp_path / 'p.parquet'}: an Arrow IPC file or stream was expected, but it is a "
        "Parquet file: give it with --parquet\n",
    )
    code, _, err = run("score", "--parquet", tmp_path / "p.parquet", "-c", "x.txt")
    assert (code, err) == (
        2,
        "rougekit score: error: give exactly one input style: -c/-r files, --jsonl, --parquet, --arrow, or "
        "--candidate-dir\n",
    )
    code, _, err = run(
        "score", "--parquet", tmp_path / "p.parquet", "--candidate-column", "c", "--reference-column", "r",
        "--sources", "s.txt",
    )  # fmt: skip
    assert (code, err) == (
        2,
        "rougekit score: error: --parquet and --arrow read the original texts from a column: give --source-column\n",
    )
    code, _, err = run("score", "--parquet", tmp_path / "p.parquet", "--candidate-column", "c")
    assert (code, err) == (2, "rougekit score: error: --parquet needs --candidate-column and --reference-column\n")


def test_without_pyarrow_one_line_names_the_option(tmp_path, monkeypatch):
    pq.write_table(pa.table({"c": ["x"], "r": ["y"]}), tmp_path / "p.parquet")
    for name in [m for m in sys.modules if m == "pyarrow" or m.startswith("pyarrow.")]:
        monkeypatch.setitem(sys.modules, name, None)  # import pyarrow fails as where it is not installed
    code, out, err = run(
        "score", "--parquet", tmp_path / "p.parquet", "--candidate-column", "c", "--reference-column", "r"
    )
    assert (code, out) == (2, "")
    assert (
        err
        == "rougekit score: error: --parquet needs pyarrow, which is not installed: pip install 'rougekit[pyarrow]'\n"
    )
    (tmp_path / "c.txt").write_text("x\n")
    code, _, err = run(
        "score",
        "-c",
        tmp_path / "c.txt",
        "-r",
        tmp_path / "c.txt",
        "--per-pair",
        "--format",
        "parquet",
        "-o",
        tmp_path / "o",
    )
    assert (code, err) == (
        2,
        "rougekit score: error: --format parquet needs pyarrow, which is not installed: "
        "pip install 'rougekit[pyarrow]'\n",
    )


# -- per-pair scores as Parquet -------------------------------------------------------------------


def _csv_rows(text):
    return [
        {k: (v if k in ("system", "instance") else float(v)) for k, v in row.items()}
        for row in csv.DictReader(io.StringIO(text))
    ]


def test_per_pair_parquet_has_the_csv_columns_values_and_the_signature(tmp_path):
    pq.write_table(_table(), tmp_path / "d.parquet")
    out = tmp_path / "scores.parquet"
    assert (
        _score("--parquet", tmp_path / "d.parquet", "--id-column", "id", "--per-pair", "--format", "parquet", "-o", out)
        == ""
    )
    written = pq.read_table(out)
    as_csv = _score("--parquet", tmp_path / "d.parquet", "--id-column", "id", "--per-pair", "--format", "csv")
    assert written.to_pylist() == _csv_rows(as_csv)
    assert written.column_names == next(csv.reader(io.StringIO(as_csv)))
    signature = json.loads(_score("--parquet", tmp_path / "d.parquet", "--format", "json"))["signature"]
    assert written.schema.metadata[b"rougekit.signature"].decode() == signature
    # the same rows from line files, streamed (-c/-r) and from JSONL (scored in memory)
    (tmp_path / "c.txt").write_text("".join(c + "\n" for c in CANDIDATES))
    for k in range(3):
        (tmp_path / f"r{k}.txt").write_text("".join((r[k] if k < len(r) else "") + "\n" for r in REFERENCES))
    code, _, err = run(
        "score", "-c", tmp_path / "c.txt", "-r", tmp_path / "r0.txt", "--per-pair", "--format", "parquet", "-o", out
    )
    assert code == 0, err
    api = rougekit.score(CANDIDATES, [[r[0]] for r in REFERENCES])
    assert [row["ROUGE-2_f"] for row in pq.read_table(out).to_pylist()] == [p["ROUGE-2"]["f"] for p in api.per_pair()]
    assert pq.read_table(out).column("system").to_pylist() == ["c"] * 5
    _score("--jsonl", _jsonl(tmp_path / "d.jsonl"), "--id-field", "id", "--per-pair", "--format", "parquet", "-o", out)
    assert pq.read_table(out).to_pylist() == written.to_pylist()


def test_per_pair_parquet_streams_in_row_groups(tmp_path):
    n = 50_000
    words = "the cat sat on a mat by the door".split()
    cands = [" ".join(words[k % 9 :] + words[: k % 5]) for k in range(n)]
    refs = [" ".join(words[k % 4 :]) for k in range(n)]
    pq.write_table(pa.table({"c": cands, "r": refs}), tmp_path / "d.parquet", row_group_size=8_000)
    out = tmp_path / "o.parquet"
    code, _, err = run(
        "score", "--parquet", tmp_path / "d.parquet", "--candidate-column", "c", "--reference-column", "r",
        "--measures", "ROUGE-1,ROUGE-L", "--per-pair", "--format", "parquet", "-o", out,
    )  # fmt: skip
    assert code == 0, err
    meta = pq.ParquetFile(out).metadata
    assert meta.num_rows == n and meta.num_row_groups == 3  # one per chunk of 20,000 pairs scored
    got = pq.read_table(out)
    api = rougekit.score(cands, refs, measures=["ROUGE-1", "ROUGE-L"], bootstrap=None)
    assert got.column("ROUGE-L_f").to_pylist() == api.data[:, 1, 5].tolist()
    assert got.column("instance").to_pylist()[-1] == str(n)


@pytest.mark.parametrize("ids", [False, True])
def test_per_pair_parquet_does_not_import_pandas(tmp_path, ids):
    """The row groups are built from the buffers of the scores and of the pair IDs (pyarrow.array of a
    list or an array imports pandas: 0.2 s of a run); a system name and IDs outside ASCII are kept.
    Before: pandas imported (with IDs, until session 18)."""
    import subprocess

    names = ["é1", "b", "", "d\u00df", "e5"]
    table = {"prédiction": CANDIDATES, "r": [r[0] for r in REFERENCES], "id": names}
    pq.write_table(pa.table(table), tmp_path / "d.parquet")
    out = tmp_path / "o.parquet"
    argv = ["score", "--parquet", str(tmp_path / "d.parquet"), "--candidate-column", "prédiction"]
    argv += ["--reference-column", "r", "--per-pair", "--format", "parquet", "-o", str(out)]
    argv += ["--id-column", "id"] if ids else []
    code = f"import sys; from rougekit.cli.main import main; main({argv!r}); print('pandas' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"
    got = pq.read_table(out)
    assert got.column("system").to_pylist() == ["prédiction"] * 5
    assert got.column("instance").to_pylist() == (names if ids else ["1", "2", "3", "4", "5"])
    api = rougekit.score(CANDIDATES, [[r[0]] for r in REFERENCES], bootstrap=None)
    assert got.column("ROUGE-2_f").to_pylist() == [p["ROUGE-2"]["f"] for p in api.per_pair()]


def test_parquet_format_needs_per_pair_and_a_file(tmp_path):
    pq.write_table(pa.table({"c": ["x"], "r": ["y"]}), tmp_path / "p.parquet")
    assert _error(tmp_path, pa.table({"c": ["x"], "r": ["y"]}), "--format", "parquet", "-o", tmp_path / "o") == (
        "--format parquet writes per-pair scores: add --per-pair"
    )
    assert _error(tmp_path, pa.table({"c": ["x"], "r": ["y"]}), "--format", "parquet", "--per-pair") == (
        "--format parquet writes a binary file: give it with -o FILE"
    )


# -- dedup and extract read the same files ---------------------------------------------------------

TEXTS = [
    "the cat sat on the mat",
    "the cat sat on a mat",
    "dogs bark at night",
    "a completely different sentence",
    "dogs bark at night again",
]


def test_dedup_of_a_parquet_or_arrow_file_keeps_the_rows_of_process_dedup(tmp_path):
    from rougekit import process

    want = process.dedup(TEXTS, threshold=0.7)
    table = pa.table({"id": [10, 20, 30, 40, 50], "text": pa.array(TEXTS, pa.large_string())})
    pq.write_table(table, tmp_path / "d.parquet", row_group_size=2)
    with pa.OSFile(str(tmp_path / "d.arrow"), "wb") as sink, pa.ipc.new_file(sink, table.schema) as writer:
        writer.write_table(table, max_chunksize=2)
    for name, read in (("d.parquet", pq.read_table), ("d.arrow", lambda p: pa.ipc.open_file(p).read_all())):
        out = tmp_path / f"kept-{name}"
        code, _, err = run("dedup", tmp_path / name, "--column", "text", "-o", out, "--dropped", tmp_path / "dr.jsonl")
        assert code == 0, err
        assert read(str(out)).to_pylist() == [table.to_pylist()[i] for i in want.kept]
        assert [(i, t) for i, t in enumerate(TEXTS) if i not in want.kept] == [(1, TEXTS[1]), (4, TEXTS[4])]
        dropped = [json.loads(line) for line in (tmp_path / "dr.jsonl").read_text().splitlines()]
        assert [(d["where"], d["match_where"], d["score"]) for d in dropped] == [
            (f"row {d.index + 1}", f"row {d.match + 1}", d.score) for d in want.dropped
        ]
    code, _, err = run("dedup", tmp_path / "d.parquet", "--column", "text")
    assert err == "rougekit dedup: error: the kept rows of a Parquet file are written as one: give -o FILE\n"
    assert code == 2
    code, _, err = run("dedup", tmp_path / "d.parquet", "-o", tmp_path / "k")
    assert (code, err) == (
        2,
        f"rougekit dedup: error: {tmp_path / 'd.parquet'} is a Parquet file: give --column with the column of the "
        "text (columns: 'id', 'text')\n",
    )
    pq.write_table(pa.table({"text": ["a b", None]}), tmp_path / "n.parquet")
    code, _, err = run("dedup", tmp_path / "n.parquet", "--column", "text", "-o", tmp_path / "k")
    assert (code, err) == (2, f"rougekit dedup: error: {tmp_path / 'n.parquet'}, row 2: column 'text' is null\n")


def test_dedup_written_over_its_own_parquet_or_arrow_input_keeps_the_rows(tmp_path):
    """``-o`` naming the input: the input is read again while the kept rows are written, so writing
    straight to it truncated it first (the file ended empty, the command failed). Written beside
    it and moved over it at the end; no partial file is left."""
    from rougekit import process

    want = process.dedup(TEXTS, threshold=0.7)
    table = pa.table({"id": [10, 20, 30, 40, 50], "text": TEXTS})
    pq.write_table(table, tmp_path / "d.parquet", row_group_size=2)
    with pa.OSFile(str(tmp_path / "d.arrow"), "wb") as sink, pa.ipc.new_file(sink, table.schema) as writer:
        writer.write_table(table, max_chunksize=2)
    for name, read in (("d.parquet", pq.read_table), ("d.arrow", lambda p: pa.ipc.open_file(p).read_all())):
        code, _, err = run("dedup", tmp_path / name, "--column", "text", "-o", tmp_path / name)
        assert code == 0, err
        assert read(str(tmp_path / name)).to_pylist() == [table.to_pylist()[i] for i in want.kept]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["d.arrow", "d.parquet"]


def test_extract_reads_parquet_as_text_lines(tmp_path):
    pq.write_table(pa.table({"text": pa.array(TEXTS, pa.dictionary(pa.int8(), pa.string()))}), tmp_path / "d.parquet")
    (tmp_path / "d.txt").write_text("".join(t + "\n" for t in TEXTS))
    code, from_parquet, err = run("extract", tmp_path / "d.parquet", tmp_path / "d.parquet", "--column", "text")
    assert code == 0, err
    code, from_lines, err = run("extract", tmp_path / "d.txt", tmp_path / "d.txt")
    assert code == 0, err
    assert from_parquet == from_lines.replace('where": "line ', 'where": "row ')
    first = json.loads(from_parquet.splitlines()[1])["matches"][1]
    # rouge-score rougeL: LCS 5 of 6 words each way
    assert (first["where"], first["score"]) == ("row 1", 5 / 6)


def test_compare_reads_the_same_columns(tmp_path):
    table = pa.table({"a": CANDIDATES, "b": [c.replace("the ", "") for c in CANDIDATES], "r": REFERENCES})
    pq.write_table(table, tmp_path / "d.parquet")
    (tmp_path / "d.jsonl").write_text("".join(json.dumps(row) + "\n" for row in table.to_pylist()))
    code, from_parquet, err = run(
        "compare", "--parquet", tmp_path / "d.parquet", "--candidate-column", "a", "--candidate-column", "b",
        "--reference-column", "r", "--trials", "200",
    )  # fmt: skip
    assert code == 0, err
    code, from_jsonl, err = run(
        "compare", "--jsonl", tmp_path / "d.jsonl", "--candidate-field", "a", "--candidate-field", "b",
        "--reference-field", "r", "--trials", "200",
    )  # fmt: skip
    assert code == 0, err
    assert from_parquet == from_jsonl and "ROUGE-1" in from_parquet


def test_a_column_or_field_given_twice_is_refused(tmp_path):
    """The same candidate column twice would be one system (a dict keyed by the name), the same
    reference column twice the same references counted twice: both are refused, as for --jsonl."""
    table = pa.table({"c": ["x y"], "r": ["y z"]})
    assert (
        _error(tmp_path, table, "--candidate-column", "c") == "--candidate-column c is given twice: give each one once"
    )
    assert (
        _error(tmp_path, table, "--reference-column", "r") == "--reference-column r is given twice: give each one once"
    )
    (tmp_path / "d.jsonl").write_text('{"c": "x y", "r": "y z"}\n')
    for flag, name in (("--candidate-field", "c"), ("--reference-field", "r")):
        fields = ["--candidate-field", "c", "--reference-field", "r", flag, name]
        code, out, err = run("score", "--jsonl", tmp_path / "d.jsonl", *fields)
        assert (code, out, err) == (2, "", f"rougekit score: error: {flag} {name} is given twice: give each one once\n")


def test_score_refuses_an_output_that_is_one_of_its_inputs(tmp_path):
    """``-o`` naming an input file (by any path) truncated it before it was read: the input was lost
    and the command failed on an empty file. Refused before anything is opened; the input is kept."""
    pq.write_table(_table(), tmp_path / "d.parquet")
    (tmp_path / "c.txt").write_text("the cat sat\n")
    (tmp_path / "r.txt").write_text("the cat sat down\n")
    cases = [
        (
            "--parquet",
            tmp_path / "d.parquet",
            "--candidate-column",
            "prediction",
            "--reference-column",
            "references",
            "--format",
            "parquet",
            "-o",
            tmp_path / "d.parquet",
        ),
        ("-c", tmp_path / "c.txt", "-r", tmp_path / "r.txt", "--format", "csv", "-o", tmp_path / "." / "r.txt"),
    ]
    for case in cases:
        code, out, err = run("score", *case, "--per-pair", "--bootstrap", "none")
        assert (code, out) == (2, ""), err
        assert err.startswith(f"rougekit score: error: -o {case[-1]} is also an input (") and err.count("\n") == 1
    assert pq.read_table(tmp_path / "d.parquet").num_rows == len(CANDIDATES)
    assert (tmp_path / "r.txt").read_text() == "the cat sat down\n"


class _Stdin:
    """Standard input holding ``data`` (bytes), as ``sys.stdin`` when the command reads it."""

    def __init__(self, data: bytes):
        self.buffer = io.BytesIO(data)


def test_parquet_and_arrow_from_standard_input(tmp_path, monkeypatch):
    pq.write_table(_table(), tmp_path / "d.parquet")
    from_file = _score("--parquet", tmp_path / "d.parquet", "--format", "json", "--per-pair", "--id-column", "id")
    monkeypatch.setattr(sys, "stdin", _Stdin((tmp_path / "d.parquet").read_bytes()))
    assert _score("--parquet", "-", "--format", "json", "--per-pair", "--id-column", "id") == from_file
    sink = pa.BufferOutputStream()
    with pa.ipc.new_stream(sink, _table().schema) as writer:  # the stream format, as a pipe carries it
        for batch in _table().to_batches(max_chunksize=2):
            writer.write_batch(batch)
    monkeypatch.setattr(sys, "stdin", _Stdin(sink.getvalue().to_pybytes()))
    assert _score("--arrow", "-", "--format", "json", "--per-pair", "--id-column", "id") == from_file
    # the per-pair scores of pair 2 by hand (ROUGE-1, one reference: 6 of 7 candidate words, all 6 reference words)
    assert json.loads(from_file)["per_pair"]["prediction"][1]["ROUGE-1"]["f"] == 0.92308


def test_standard_input_errors_name_it(tmp_path, monkeypatch):
    pq.write_table(pa.table({"c": ["x"], "r": ["y"]}), tmp_path / "p.parquet")
    monkeypatch.setattr(sys, "stdin", _Stdin((tmp_path / "p.parquet").read_bytes()))
    code, _, err = run("score", "--arrow", "-", "--candidate-column", "c", "--reference-column", "r")
    assert (code, err) == (
        2,
        "rougekit score: error: standard input: an Arrow IPC file or stream was expected, but it is a "
        "Parquet file: give it with --parquet\n",
    )
    monkeypatch.setattr(sys, "stdin", _Stdin((tmp_path / "p.parquet").read_bytes()))
    code, _, err = run("score", "--parquet", "-", "--candidate-column", "nope", "--reference-column", "r")
    assert (code, err) == (
        2,
        "rougekit score: error: standard input: no column 'nope' for --candidate-column (columns: 'c', 'r')\n",
    )
    monkeypatch.setattr(sys, "stdin", _Stdin(b"not parquet\n"))
    code, _, err = run("score", "--parquet", "-", "--candidate-column", "c", "--reference-column", "r")
    assert code == 2 and err.startswith("rougekit score: error: standard input: not readable as a Parquet file (")


@pytest.mark.parametrize("fmt", ["csv", "jsonl"])
def test_per_pair_rows_with_an_id_column_are_streamed_and_equal_the_api(tmp_path, fmt, monkeypatch):
    """--per-pair csv/jsonl with --id-column are written batch by batch as the pairs are scored (they
    were scored in memory, every pair kept); the rows equal rougekit.score's with those IDs, IDs that
    csv must quote (a comma, a quote, a line break) included, over several record batches."""
    from rougekit.cli import score as score_cli
    from rougekit.report.formats import WRITERS

    n = 9000  # three record batches of 4,096 rows
    ids = [f"doc {k}" for k in range(n)]
    ids[5], ids[4100], ids[8000], ids[8001] = "a,b", 'say "hi"', "two\nlines", "ünï ⌘"
    cands = [CANDIDATES[k % len(CANDIDATES)] or "x" for k in range(n)]
    refs = [REFERENCES[(k * 7) % len(REFERENCES)] for k in range(n)]
    pq.write_table(pa.table({"id": ids, "prediction": cands, "references": refs}), tmp_path / "d.parquet")
    monkeypatch.setattr(score_cli, "_write", None)  # the in-memory writer: not called when streamed
    out = _score("--parquet", tmp_path / "d.parquet", "--id-column", "id", "--per-pair", "--format", fmt)
    want = rougekit.score(cands, refs, ids=ids, measures=MEASURES.split(","), bootstrap=None)
    assert out == WRITERS[fmt]({"prediction": want}, True)
    rows = list(csv.DictReader(io.StringIO(out))) if fmt == "csv" else [json.loads(line) for line in out.splitlines()]
    assert [row["instance"] for row in rows] == ids


@pytest.mark.parametrize("multi_ref", ["sum", "jackknife"])  # the engine's buffer path and the str path
def test_a_dictionary_value_that_is_null_is_a_null_row(tmp_path, multi_ref):
    # a row whose dictionary index is valid but names a null value of the dictionary is null, though
    # the array's null_count (its null indices) is 0: before, it was read as "" and scored 0 (or
    # ended in a traceback on the str path)
    import pyarrow.feather as feather

    words = pa.array(["the cat sat", None, "a dog ran"])
    nulls = pa.DictionaryArray.from_arrays(pa.array([0, 1, 2], pa.int32()), words)
    assert nulls.null_count == 0 and nulls.is_null().to_pylist() == [False, True, False]
    fine = pa.array(["the cat sat", "a dog", "a dog ran"])
    listed = pa.ListArray.from_arrays(pa.array([0, 1, 2, 3], pa.int32()), nulls)
    cases = [
        ({"c": nulls, "r": fine}, "column 'c' is null"),
        ({"c": fine, "r": nulls}, "column 'r' is null"),
        ({"c": fine, "r": listed}, "column 'r' holds a null inside its list"),
    ]
    for columns, what in cases:
        path = tmp_path / "d.arrow"
        feather.write_feather(pa.table(columns), path, compression="uncompressed")
        code, out, err = run(
            "score", "--arrow", path, "--candidate-column", "c", "--reference-column", "r", "--multi-ref", multi_ref
        )
        assert (code, out, err) == (2, "", f"rougekit score: error: {path}, row 2: {what}\n")


def test_a_pair_id_that_is_a_lone_surrogate_is_refused(tmp_path):
    # JSON allows "\\ud800"; no output can write it: before, a traceback at the output (UnicodeEncodeError)
    path = tmp_path / "s.jsonl"
    path.write_text('{"id": "a\\ud800", "c": "the cat", "r": "the cat"}\n{"id": "b", "c": "a dog", "r": "the dog"}\n')
    for fmt in (["--format", "csv"], ["--format", "parquet", "-o", str(tmp_path / "o.parquet")]):
        code, out, err = run(
            "score", "--jsonl", path, "--candidate-field", "c", "--reference-field", "r", "--id-field", "id",
            "--per-pair", *fmt,
        )  # fmt: skip
        assert (code, out, err) == (
            2,
            "",
            f"rougekit score: error: {path}, line 1: field 'id' holds a lone surrogate\n",
        )
    with pytest.raises(rougekit.InputError, match=r"^ids: item 2 holds a lone surrogate \(not valid Unicode text\)$"):
        rougekit.score(["a", "b"], ["a", "b"], ids=["x", "y\ud800"], bootstrap=None)
