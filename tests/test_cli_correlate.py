"""`rougekit correlate` and rougekit.meta.tables."""

from __future__ import annotations

import csv
import io
import json
import math
from pathlib import Path

import numpy as np
import pytest
from _paths import SHARED, shared_missing

from rougekit.cli.main import main
from rougekit.errors import InputError
from rougekit.meta import correlation as C
from rougekit.meta.tables import align_tables, read_table

FIXTURES = SHARED / "data" / "sacrerouge-fixtures"

RNG = np.random.default_rng(0)
SYSTEMS = [f"S{i}" for i in range(6)]
DOCS = [f"d{j}" for j in range(5)]
HUMAN = RNG.normal(size=(6, 5)) + np.arange(6)[:, None] * 0.5
METRIC = HUMAN + RNG.normal(scale=0.5, size=(6, 5))


def _write_csv(path: Path, matrix, name="score", extra=None):
    with path.open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["system", "instance", name] + ([extra[0]] if extra else []))
        for i, s in enumerate(SYSTEMS):
            for j, d in enumerate(DOCS):
                v = matrix[i, j]
                row = [s, d, "NA" if np.isnan(v) else repr(float(v))]
                if extra:
                    row.append(extra[1])
                w.writerow(row)
    return path


@pytest.fixture
def files(tmp_path):
    m = _write_csv(tmp_path / "metric.csv", METRIC, "rouge1")
    h = _write_csv(tmp_path / "human.csv", HUMAN, "relevance")
    return str(m), str(h)


def run(argv, capsys):
    code = main(["correlate", *argv])
    out, err = capsys.readouterr()
    return code, out, err


# ----------------------------------------------------------------------------- output formats


@pytest.mark.parametrize("level", ["system", "summary", "global"])
def test_json_values_match_the_library(files, capsys, level):
    code, out, err = run([*files, "--level", level, "--format", "json"], capsys)
    assert code == 0 and err == ""
    data = json.loads(out)
    assert list(data) == ["rouge1"] and list(data["rouge1"]) == ["relevance"]
    got = data["rouge1"]["relevance"]
    assert list(got) == ["pearson", "spearman", "kendall"]
    for coef, value in got.items():
        assert value == pytest.approx(C.correlate(METRIC, HUMAN, level, coef), rel=1e-15)


def test_csv_and_text(files, capsys):
    code, out, _ = run([*files, "--format", "csv", "--coefficient", "pearson,kendall_c"], capsys)
    assert code == 0
    rows = list(csv.DictReader(io.StringIO(out)))
    assert [r["coefficient"] for r in rows] == ["pearson", "kendall_c"]
    assert float(rows[0]["value"]) == C.system_level(METRIC, HUMAN, "pearson")
    assert rows[0]["metric"] == "rouge1" and rows[0]["human"] == "relevance"
    code, out, _ = run([*files, "--format", "text", "--coefficient", "spearman"], capsys)
    assert code == 0
    lines = out.splitlines()
    assert lines[0].startswith("system-level correlation (6 systems, 5 instances)")
    assert lines[2].split() == ["rouge1", "relevance", "spearman", f"{C.system_level(METRIC, HUMAN, 'spearman'):.4f}"]


def test_bootstrap_ci_json_is_seeded(files, capsys):
    argv = [
        *files,
        "--format",
        "json",
        "--ci",
        "bootstrap",
        "--samples",
        "100",
        "--seed",
        "3",
        "--resample",
        "systems",
        "--coefficient",
        "pearson",
        "--confidence",
        "90",
    ]
    code, out, _ = run(argv, capsys)
    assert code == 0
    d = json.loads(out)["rouge1"]["relevance"]["pearson"]
    assert {"value", "low", "high", "level", "seed", "samples", "resample", "method"} <= set(d)
    assert d["level"] == 90 and d["seed"] == 3 and d["samples"] == 100
    assert d["resample"] == "systems" and d["method"] == "bootstrap"
    assert d["low"] <= d["value"] <= d["high"]
    _, out2, _ = run(argv, capsys)
    assert json.loads(out2)["rouge1"]["relevance"]["pearson"] == d
    code, out, _ = run([*files, "--format", "csv", "--ci", "bootstrap", "--samples", "50"], capsys)
    assert code == 0 and out.splitlines()[0].endswith("low,high,confidence,method")


def test_fisher_ci(files, capsys):
    code, out, _ = run([*files, "--format", "json", "--ci", "fisher", "--coefficient", "pearson"], capsys)
    d = json.loads(out)["rouge1"]["relevance"]["pearson"]
    assert d["method"] == "fisher" and d["n"] == 6 and d["level"] == 95
    code, out, err = run([*files, "--ci", "fisher", "--level", "summary"], capsys)
    assert code == 2 and len(err.strip().splitlines()) == 1 and "Fisher" in err


def test_missing_values_and_alignment_report(tmp_path, capsys):
    M = METRIC.copy()
    M[0, 0] = np.nan
    m = _write_csv(tmp_path / "m.csv", M, "rouge1")
    h = tmp_path / "h.csv"
    h.write_text(
        "system,instance,relevance\n"
        + "".join(
            f"{s},{d},{'-' if (i, j) == (1, 1) else repr(float(HUMAN[i, j]))}\n"
            for i, s in enumerate(SYSTEMS[:5])
            for j, d in enumerate(DOCS)
        )
        + "S9,d0,3\n"
    )
    code, out, err = run([str(m), str(h), "--format", "json", "--level", "global"], capsys)
    assert code == 0
    assert "dropped 1 system(s) with no human scores: S5" in err
    assert "dropped 1 system(s) with no metric scores: S9" in err
    # the missing cells of the shared systems are said, each table's own (they were left out silently)
    assert "1 (system, instance) cell(s) of metric column 'rouge1' have no score" in err and "S0/d0" in err
    assert "1 (system, instance) cell(s) of human column 'relevance' have no score" in err and "S1/d1" in err
    X, Y = M[:5].copy(), HUMAN[:5].copy()
    Y[1, 1] = np.nan
    assert json.loads(out)["rouge1"]["relevance"]["pearson"] == pytest.approx(
        C.global_level(X, Y, "pearson"), rel=1e-15
    )


def test_system_level_tables_without_instance_column(tmp_path, capsys):
    m = tmp_path / "m.jsonl"
    m.write_text(
        "".join(
            json.dumps({"system": s, "r1": float(METRIC[i].mean()), "r2": None}) + "\n" for i, s in enumerate(SYSTEMS)
        )
    )
    h = _write_csv(tmp_path / "h.csv", HUMAN, "relevance")
    code, out, err = run([str(m), str(h), "--format", "json", "--coefficient", "pearson"], capsys)
    assert code == 0 and "averaged per system" in err
    data = json.loads(out)
    assert data["r1"]["relevance"]["pearson"] == pytest.approx(
        C.pearson(METRIC.mean(axis=1), HUMAN.mean(axis=1)), rel=1e-12
    )
    assert data["r2"]["relevance"]["pearson"] is None  # no values: undefined, not an error


# ----------------------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    "content,needle",
    [
        ("system,instance,score\nA,d1,0.5\nB,d1,abc\n", ", line 3: column 'score': 'abc' is not a number"),
        ("system,instance,score\nA,d1,0.5\nA,d1,0.6\n", ", line 3: system 'A', instance 'd1' repeats line 2"),
        # rows per instance under another name: the message says which column it looked for
        (
            "system,doc_id,score\nA,d1,0.5\nA,d2,0.6\n",
            ", line 3: system 'A' repeats line 2 (the file has no 'instance' column: if its rows are per instance, "
            "name their column with --instance-column",
        ),
        (
            "sys,instance,score\nA,d1,0.5\n",
            ", line 1 (the header): no 'system' column (columns: 'sys', 'instance', 'score')",
        ),
        ("system,instance,score\nA,d1\n", ", line 2: 2 cell(s), the header has 3"),
        ("", ", line 1: empty file"),
        ("system,instance,score\nA,d1,inf\n", "is not finite"),
    ],
)
def test_bad_csv_exits_2_with_one_line(tmp_path, capsys, files, content, needle):
    bad = tmp_path / "bad.csv"
    bad.write_text(content)
    code, out, err = run([str(bad), files[1]], capsys)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1, err
    assert err.startswith("rougekit correlate: error: ") and str(bad) in err and needle in err


@pytest.mark.parametrize(
    "content,needle",
    [
        ('{"system": "A", "score": 1}\n{"system": "B", "score": \n', ", line 2: not valid JSON"),
        ("[1, 2]\n", "item 1: each row must be a JSON object"),
        ('{"system": "A", "score": "x"}\n{"system": "B", "score": 2}\n', ", line 1: column 'score'"),
    ],
)
def test_bad_jsonl_exits_2(tmp_path, capsys, files, content, needle):
    bad = tmp_path / "bad.jsonl"
    bad.write_text(content)
    code, _, err = run([str(bad), files[1]], capsys)
    assert code == 2 and len(err.strip().splitlines()) == 1 and needle in err


@pytest.mark.parametrize(
    "argv,needle",
    [
        (["--coefficient", "cosine"], "unknown correlation coefficient"),
        (["--level", "corpus"], "invalid choice"),
        (["--samples", "0", "--ci", "bootstrap"], "--samples must be within 1 and 100000"),
        (["--confidence", "0.95"], "percentage"),
        (["--where", "novalue"], "COLUMN=VALUE"),
        (["--metric-columns", "nope"], "no column 'nope'"),
    ],
)
def test_bad_options_exit_2(files, capsys, argv, needle):
    code, _, err = run([*files, *argv], capsys)
    assert code == 2 and len(err.strip().splitlines()) == 1 and needle in err, err


def test_missing_file_and_no_shared_system(tmp_path, files, capsys):
    code, _, err = run([str(tmp_path / "absent.csv"), files[1]], capsys)
    assert code == 2 and "cannot open" in err and "no such file" in err
    other = tmp_path / "other.csv"
    other.write_text("system,instance,x\nZ,d0,1\n")
    code, _, err = run([str(other), files[1]], capsys)
    assert code == 2 and "share no system" in err


# ----------------------------------------------------------------------------- tables


def test_read_table_missing_tokens_and_label_columns(tmp_path):
    p = tmp_path / "t.csv"
    p.write_text("system,instance,kind,a,b\nA,1,peer,,0.5\nA,2,peer,NA,NaN\nB,1,ref,-,2\nB,2,ref,n/a,3\n")
    t = read_table(p)
    assert t.columns == ["a", "b"]  # "kind" holds no numbers: a label column, left out
    assert np.isnan(t.values["a"]).all()
    np.testing.assert_array_equal(t.values["b"], [[0.5, np.nan], [2.0, 3.0]])
    peers = read_table(p, where={"kind": "peer"}, columns=["b"])
    assert peers.systems == ["A"] and peers.columns == ["b"]
    with pytest.raises(InputError, match=r", line 1: no rows left after the filter kind=x"):
        read_table(p, where={"kind": "x"})


def test_align_tables_report(tmp_path):
    a = tmp_path / "a.csv"
    b = tmp_path / "b.csv"
    a.write_text("system,instance,m\nA,1,1\nA,2,2\nB,1,3\nC,1,4\n")
    b.write_text("system,instance,h\nB,1,1\nA,1,2\nA,3,3\nD,1,1\n")
    al = align_tables(read_table(a), read_table(b))
    assert al.systems == ["A", "B"] and al.instances == ["1"]
    assert al.systems_only_in_metric == ["C"] and al.systems_only_in_human == ["D"]
    assert al.instances_only_in_metric == ["2"] and al.instances_only_in_human == ["3"]
    np.testing.assert_array_equal(al.metric["m"], [[1.0], [3.0]])
    np.testing.assert_array_equal(al.human["h"], [[2.0], [1.0]])
    assert len(al.report()) == 4


@pytest.mark.skipif(not FIXTURES.exists(), reason=shared_missing(FIXTURES))
def test_cli_reproduces_sacrerouge_fixture(capsys):
    spec = json.loads((FIXTURES / "expected_correlations_multiling2011.json").read_text())
    f = str(FIXTURES / "multiling2011" / "metrics.jsonl")
    t = spec["tests"]["test_correlate_all"]
    levels = {"summary_level": "summary", "system_level": "system", "global": "global"}
    for exp in t["expected"]:
        code, out, _ = run(
            [
                f,
                f,
                "--system-column",
                "summarizer_id",
                "--instance-column",
                "instance_id",
                "--metric-columns",
                t["metrics"][0],
                "--human-columns",
                t["metrics"][1],
                "--level",
                levels[exp["level"]],
                "--coefficient",
                exp["coef"],
                "--format",
                "json",
            ],
            capsys,
        )
        assert code == 0
        assert json.loads(out)[t["metrics"][0]][t["metrics"][1]][exp["coef"]] == exp["value"]


@pytest.mark.skipif(not (SHARED / "data" / "summeval").exists(), reason=shared_missing(SHARED / "data" / "summeval"))
def test_summeval_human_table_reads(capsys):
    path = SHARED / "data" / "summeval" / "summeval_human_scores.csv"
    t = read_table(path, instance_column="doc_id")
    assert len(t.systems) == 16 and len(t.instances) == 100
    assert t.columns == ["coherence", "consistency", "fluency", "relevance"]
    assert not np.isnan(t.values["relevance"]).any()
    r = C.system_level(t.values["coherence"], t.values["relevance"], "kendall")
    assert -1.0 <= r <= 1.0 and not math.isnan(r)
