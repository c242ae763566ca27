"""Inputs and outputs after session 21's review (review21b): a classic-Mac file that got a final \\n is
said (not read as one line in silence), a pipe given to correlate is read from its start, standard output
closed for --help/--version, '-o out/' names a folder, JSON with \\r line ends, dedup's two outputs in one
file."""

from __future__ import annotations

import shlex
import subprocess
import sys

import pytest
from _paths import subprocess_env

from rougekit.cli.main import main
from rougekit.io import reader


@pytest.mark.parametrize(
    "data, line",
    [
        (b"the cat sat\rthe dog ran\n", 1),  # classic Mac lines, a final \n added by an editor
        (b"the cat\rsat\nthe dog\rran\n", 1),  # one lone \r a line: as many \r as \n
        (b"ok\nthe cat\rsat\nthe dog ran", 2),
        (b"a\r\rb\n", 1),
        (b"a\r\n", 0),
        (b"a\r\r\nb\r\n", 0),  # a line's trailing \r characters are its ending
        (b"a\r\nb\r", 0),  # a block cut before the last line's \n
    ],
)
def test_the_first_line_with_a_lone_carriage_return(data, line):
    assert reader.lone_cr_line(data) == line
    assert reader.lone_cr_line(data.decode()) == line


@pytest.mark.parametrize("command", ["score", "compare", "dedup"])
def test_a_mac_file_with_a_final_newline_is_said(tmp_path, capsys, command):
    cands = tmp_path / "c.txt"
    refs = tmp_path / "r.txt"
    cands.write_bytes(b"the cat sat\rthe dog ran\n")
    refs.write_bytes(b"the cat sat on mat\rthe dog ran far\n")
    args = {
        "score": ["score", "-c", str(cands), "-r", str(refs), "--bootstrap", "none"],
        "compare": ["compare", "-c", str(cands), "-c", str(cands), "-r", str(refs), "--trials", "100"],
        "dedup": ["dedup", str(cands), "-o", str(tmp_path / "kept.txt")],
    }[command]
    main(args)
    assert (
        ".txt, line 1: a carriage return (\\r) inside a line" in capsys.readouterr().err
    )  # c.txt or r.txt: the first said


def _shell(command: str, cwd) -> subprocess.CompletedProcess:
    return subprocess.run(
        ["bash", "-c", command], cwd=cwd, env=subprocess_env(), capture_output=True, text=True, timeout=120
    )


def test_correlate_reads_a_pipe_from_its_start(tmp_path):
    (tmp_path / "m.csv").write_text("system,instance,ROUGE-1_f\nA,1,0.1\nA,2,0.5\nB,1,0.2\nB,2,0.4\nC,1,0.9\nC,2,0.9\n")
    (tmp_path / "h.csv").write_text("system,instance,rel\nA,1,1\nA,2,1\nB,1,2\nB,2,2\nC,1,3\nC,2,3\n")
    rk = f"{shlex.quote(sys.executable)} -m rougekit correlate"
    for args in ("<(cat m.csv) h.csv", "m.csv <(cat h.csv)"):
        done = _shell(f"{rk} {args} --level system --coefficient kendall", tmp_path)
        assert done.returncode == 0, done.stderr
        assert done.stdout.split("\n")[-2].split() == ["ROUGE-1_f", "rel", "kendall", "0.8165"]


@pytest.mark.parametrize("flag", ["--help", "--version"])
def test_help_and_version_with_standard_output_closed(tmp_path, flag):
    done = _shell(f"{shlex.quote(sys.executable)} -m rougekit {flag} >&-", tmp_path)
    assert done.returncode == 2
    assert done.stderr == "rougekit: error: cannot write to standard output: it is closed (redirect it: > FILE)\n"


def test_an_output_name_ending_in_a_slash_is_a_folder(tmp_path, capsys):
    text = tmp_path / "c.txt"
    text.write_text("the cat\n")
    assert main(["score", "-c", str(text), "-r", str(text), "-o", str(tmp_path / "out") + "/"]) == 2
    assert "it names a directory (give a file name)" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()


def test_a_json_object_with_carriage_return_line_ends(tmp_path, capsys):
    data = tmp_path / "o.jsonl"
    data.write_bytes(b'{"c": "the cat sat",\r "r": "the cat sat on mat"}\r')
    args = ["score", "--jsonl", str(data), "--candidate-field", "c", "--reference-field", "r"]
    assert main([*args, "--measures", "ROUGE-1", "--bootstrap", "none", "--per-pair", "--format", "csv"]) == 0
    rows = capsys.readouterr().out.strip().split("\n")
    assert len(rows) == 2 and rows[1].split(",")[2:5] == ["0.6", "1.0", "0.75"]  # R 3/5, P 3/3


def test_dedup_refuses_one_file_for_both_outputs(tmp_path, capsys):
    texts = tmp_path / "t.txt"
    texts.write_text("a b c\na b c\nd e f\n")
    out = tmp_path / "x.txt"
    assert main(["dedup", str(texts), "-o", str(out), "--dropped", str(tmp_path / "." / "x.txt")]) == 2
    assert "is the -o file too" in capsys.readouterr().err
    assert not out.exists()
