"""`rougekit correlate` reads the per-pair Parquet that `score --per-pair --format parquet` writes
(qa21b F17: it was refused as a text file holding a NUL byte), and names the header of a CSV without
the system column (F9: a ';'-separated or header-less file was "line 2: no 'system' column").

Expected values: the same scores written as CSV by the same `score` run, correlated by the same
command (the CSV route is itself checked against scipy in tests/test_cli_correlate.py)."""

from __future__ import annotations

import pytest
from _cli import run

pytest.importorskip("pyarrow")  # the test extra installs it

SYSTEMS = {
    "A": "police kill the gunman\nthe cat sat\na dog ran\n",
    "B": "police killed gunman\nthe cat sat on the mat\ndogs ran in the park\n",
    "C": "gunman\ncat\npark\n",
}
REFS = "police killed the gunman\nthe cat sat on the mat\na dog ran in the park\n"
HUMAN = "system,instance,rel\nA,1,3\nA,2,1\nA,3,2\nB,1,2\nB,2,3\nB,3,3\nC,1,1\nC,2,1\nC,3,1\n"


@pytest.fixture
def scores(tmp_path, capsys):
    paths = []
    for name, text in SYSTEMS.items():
        (tmp_path / f"{name}.txt").write_text(text)
        paths += ["-c", tmp_path / f"{name}.txt"]
    (tmp_path / "ref.txt").write_text(REFS)
    out = {}
    for fmt in ("csv", "parquet"):
        out[fmt] = tmp_path / f"scores.{fmt}"
        code, _, err = run(
            *["score", *paths, "-r", tmp_path / "ref.txt", "--per-pair", "--format", fmt, "-o", out[fmt]]
        )
        assert code == 0, err
    (tmp_path / "human.csv").write_text(HUMAN)
    return out, tmp_path / "human.csv"


@pytest.mark.parametrize("level", ["system", "summary", "global"])
def test_correlate_reads_the_per_pair_parquet_of_score(scores, capsys, level):
    out, human = scores
    argv = ["--level", level, "--format", "csv", "--coefficient", "pearson,spearman,kendall"]
    code, from_csv, err = run(*["correlate", out["csv"], human, *argv])
    assert code == 0, err
    code, from_parquet, err = run(*["correlate", out["parquet"], human, *argv])
    assert code == 0, err
    assert from_parquet == from_csv
    assert len(from_csv.splitlines()) == 1 + 9 * 3  # 9 metric columns x 3 coefficients


def test_a_parquet_table_names_its_row_in_errors(scores, tmp_path, capsys):
    out, human = scores
    code, _, err = run(*["correlate", human, out["parquet"], "--system-column", "sys"])  # read first
    assert code == 2
    assert f"{out['parquet']}, row 1: no 'sys' column (columns: 'system', 'instance', 'ROUGE-1_recall'," in err


@pytest.mark.parametrize(
    ("human", "expected"),
    [
        (
            "system;instance;rel\nA;1;3\n",
            ", line 1 (the header): no 'system' column: its one column is separated by ';' "
            "(columns: 'system', 'instance', 'rel'): give the file with ',' (CSV) or tabs (.tsv)",
        ),
        (
            "A,1,3\nB,1,2\n",
            ", line 1 (the header): no 'system' column (columns: 'A', '1', '3'): line 1 reads as data: "
            "the file needs a header row naming 'system'",
        ),
        ("sys,instance,rel\nA,1,3\n", ", line 1 (the header): no 'system' column (columns: 'sys', 'instance', 'rel')"),
    ],
)
def test_a_csv_without_the_system_column_names_its_header(scores, tmp_path, capsys, human, expected):
    out, _ = scores
    bad = tmp_path / "bad.csv"
    bad.write_text(human)
    code, _, err = run(*["correlate", out["csv"], bad])
    assert code == 2
    assert err.strip() == f"rougekit correlate: error: {bad}{expected}"


def test_a_pandas_index_in_the_parquet_is_not_a_score_column(tmp_path):
    # pandas writes a filtered frame's index as __index_level_0__: it was correlated as a metric column
    import pandas as pd

    frame = pd.DataFrame(
        {"system": list("AABBCC"), "instance": [1, 2] * 3, "ROUGE-1_f": [0.1, 0.5, 0.2, 0.5, 0.9, 0.8]},
        index=[5, 6, 7, 8, 9, 10],
    )
    frame.to_parquet(tmp_path / "m.parquet")
    (tmp_path / "h.csv").write_text("system,instance,rel\nA,1,1\nA,2,1\nB,1,2\nB,2,2\nC,1,3\nC,2,3\n")
    code, out, err = run("correlate", tmp_path / "m.parquet", tmp_path / "h.csv", "--level", "system")
    assert code == 0, err
    assert "__index_level" not in out + err
    assert [line.split()[0] for line in out.splitlines()[2:]] == ["ROUGE-1_f"] * 3
