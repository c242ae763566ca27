"""Inputs named by a pipe (a shell's ``<(...)`` is ``/dev/fd/63``, a named pipe): read once, from the
start. ``score --parquet/--arrow`` copies the pipe to a temporary file as it does standard input
(the Arrow reader seeks); ``dedup`` and ``extract`` refuse it in one line, since their reading of its
first bytes (to know its format) took them away: they wrote nothing and exited 0 (found by QA)."""

from __future__ import annotations

import os
import threading

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from rougekit.cli.main import main


def fifo_with(tmp_path, data: bytes) -> str:
    path = str(tmp_path / "pipe")
    os.mkfifo(path)

    def write():
        with open(path, "wb") as handle:
            try:
                handle.write(data)
            except BrokenPipeError:
                pass

    threading.Thread(target=write, daemon=True).start()
    return path


def test_score_reads_a_parquet_file_from_a_pipe(tmp_path, capsys):
    source = tmp_path / "pairs.parquet"
    pq.write_table(pa.table({"c": ["the cat sat", "a b"], "r": ["the cat sat down", "a b"]}), source)
    args = ["--candidate-column", "c", "--reference-column", "r", "--measures", "ROUGE-1", "--bootstrap", "none", "-q"]
    assert main(["score", "--parquet", str(source), *args]) == 0
    want = capsys.readouterr().out
    assert main(["score", "--parquet", fifo_with(tmp_path, source.read_bytes()), *args]) == 0
    assert capsys.readouterr().out == want
    assert "0.87500" in want  # by hand: R (3/4 + 1) / 2 = 0.875


@pytest.mark.parametrize("command", [["dedup"], ["extract"]])
def test_dedup_and_extract_refuse_a_pipe_in_one_line(tmp_path, capsys, command):
    texts = tmp_path / "texts.txt"
    texts.write_text("give three tips for staying healthy\nname a red fruit\n")
    pipe = fifo_with(tmp_path, texts.read_bytes())
    argv = [*command, pipe] + ([str(texts)] if command == ["extract"] else [])
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and f"{pipe} is a pipe" in err


def test_dedup_refuses_an_output_name_of_another_format(tmp_path, capsys):
    # the kept rows are written as read: Parquet bytes under kept.csv would be read as CSV far from here
    table, texts = tmp_path / "in.parquet", tmp_path / "in.txt"
    pq.write_table(pa.table({"t": ["give three tips", "name a red fruit"]}), table)
    texts.write_text("give three tips\nname a red fruit\n")
    for argv, said in (
        ([str(table), "--column", "t", "-o", str(tmp_path / "kept.csv")], "as a Parquet file"),
        ([str(texts), "-o", str(tmp_path / "kept.parquet")], "as lines"),
        ([str(table), "--column", "t", "-o", str(tmp_path / "kept.arrow")], "as a Parquet file"),
        ([str(table), "--column", "t", "-o", str(tmp_path / "kept.jsonl.gz")], "uncompressed"),
    ):
        assert main(["dedup", *argv, "-q"]) == 2
        assert said in capsys.readouterr().err
    assert main(["dedup", str(table), "--column", "t", "-o", str(tmp_path / "kept.parquet"), "-q"]) == 0
    assert pq.read_table(tmp_path / "kept.parquet").column("t").to_pylist() == ["give three tips", "name a red fruit"]
    assert not (tmp_path / "kept.csv").exists()
