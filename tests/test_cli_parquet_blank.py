"""A blank reference in a Parquet/Arrow column (an empty or white-space-only text, alone or in a row's
list of references) scores 0 as in any input: `rougekit score` says so once, naming the file, the
rows and the column, as it does for line files and JSONL (it said nothing: found by QA). The rows
are found from the Arrow buffers (io.arrow.blank_rows), checked here against Python's own test of a
blank text on random strings."""

from __future__ import annotations

import random

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from rougekit.cli.main import main
from rougekit.io import arrow

SPACES = [" ", "\t", "\n", "\r", "\u00a0", "\u3000", "\u2028", "\x1c"]
LETTERS = ["a", "b", "é", "中", "\u200b"]  # a zero-width space is not white space


@pytest.mark.parametrize("seed", range(5))
def test_blank_rows_finds_what_python_calls_blank(seed):
    rng = random.Random(seed)
    texts = ["".join(rng.choice(SPACES + LETTERS * (k % 3 > 0)) for _ in range(rng.randint(0, 4))) for k in range(300)]
    want = [k for k, t in enumerate(texts) if not t.strip()]
    assert want  # the draw makes blank texts
    for kind in (pa.string(), pa.large_string()):
        array = pa.array(texts, kind)
        assert arrow.blank_rows(array) == want
        assert arrow.blank_rows(array.slice(7)) == [k - 7 for k in want if k >= 7]
        assert arrow.blank_rows(array.dictionary_encode()) == want
        chunked = pa.chunked_array([array.slice(0, 100), array.slice(100)])
        assert arrow.blank_rows(chunked) == want
    rows = [texts[k : k + 3] for k in range(0, 300, 3)]  # lists of references
    assert arrow.blank_rows(pa.array(rows)) == sorted({k // 3 for k in want})


@pytest.mark.parametrize("engine_reads_arrow", ["1", "0"])
def test_a_blank_reference_is_said_once_naming_file_rows_and_column(tmp_path, capsys, monkeypatch, engine_reads_arrow):
    monkeypatch.setenv("ROUGEKIT_ARROW", engine_reads_arrow)
    one, many = tmp_path / "one.parquet", tmp_path / "many.parquet"
    pq.write_table(pa.table({"c": ["a b", "c", "d"], "e": ["a", "c", "d"], "r": ["  ", "c", "d"]}), one)
    pq.write_table(pa.table({"c": ["a b", "c", "d"], "r": [["a", ""], ["c"], ["\n"]]}), many)
    base = ["--reference-column", "r", "--measures", "ROUGE-1", "--bootstrap", "none", "-q"]
    assert main(["score", "--parquet", str(one), "--candidate-column", "c", "--candidate-column", "e", *base]) == 0
    err = capsys.readouterr().err
    assert err.count("blank 'r' reference") == 1  # once, not once a system
    assert "one.parquet: 1 blank 'r' reference(s) (row 1)" in err
    assert (
        main(["score", "--parquet", str(many), "--candidate-column", "c", *base, "--per-pair", "--format", "csv"]) == 0
    )
    assert "many.parquet: 2 blank 'r' reference(s) (row 1, 3)" in capsys.readouterr().err
    pq.write_table(pa.table({"c": ["a b"], "r": [" a "]}), one)
    assert main(["score", "--parquet", str(one), "--candidate-column", "c", *base]) == 0
    assert "blank" not in capsys.readouterr().err


def test_source_measures_name_the_option_and_row_errors_name_the_file_row(tmp_path, capsys):
    path = tmp_path / "acc.parquet"
    table = {"c": ["a b", "the cat sat"], "r": ["a b", "the dog ran"], "s": ["a b c", "the cat sat on the mat"]}
    pq.write_table(pa.table(table), path)
    base = ["score", "--parquet", str(path), "--candidate-column", "c", "--reference-column", "r", "-q"]
    assert main([*base, "--measures", "SumACCY"]) == 2
    assert "--measures SumACCY reads the original texts: give --source-column COLUMN" in capsys.readouterr().err
    # row 2's reference is not an extract of its source ("dog" is not in it): the error names the file and row
    assert main([*base, "--source-column", "s", "--measures", "SumACCY"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"rougekit score: error: {path}, row 2: reference token 2 of 3 is not in the source")
    assert len(err.splitlines()) == 1


def test_a_blank_reference_does_not_hide_a_blank_candidate(tmp_path, capsys):
    # the command line says the first warning of each class: the two are classes of their own
    path = tmp_path / "both.parquet"
    pq.write_table(
        pa.table({"a": ["the cat", "y", "x"], "b": ["the cat", " ", "x"], "r": ["the cat", "y", "  "]}), path
    )
    for output in ([], ["--per-pair", "--format", "json"]):  # streamed, and read whole
        argv = ["score", "--parquet", str(path), "--candidate-column", "a", "--candidate-column", "b"]
        assert main([*argv, "--reference-column", "r", "--measures", "ROUGE-1", "-q", *output]) == 0
        err = capsys.readouterr().err
        assert "1 blank 'b' candidate(s) (row 2)" in err and "1 blank 'r' reference(s) (row 3)" in err


def test_a_candidate_column_named_reference_something_warns_as_a_candidate(tmp_path, capsys):
    # the class of the warning follows what is blank, not a word in the column's name
    path = tmp_path / "named.parquet"
    pq.write_table(pa.table({"reference_summary": ["a b", " "], "r": ["a b", " "]}), path)
    argv = ["score", "--parquet", str(path), "--candidate-column", "reference_summary", "--reference-column", "r"]
    assert main([*argv, "--measures", "ROUGE-1", "--bootstrap", "none", "-q"]) == 0
    err = capsys.readouterr().err
    assert "1 blank 'reference_summary' candidate(s) (row 2)" in err and "1 blank 'r' reference(s) (row 2)" in err
