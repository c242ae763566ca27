"""`rougekit score`: every input style and output format, and bad input (exit 2, one line)."""

from __future__ import annotations

import contextlib
import csv
import io
import json

import pytest

from rougekit.cli.main import main


def run(*argv):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["score", *map(str, argv)])
    return code, out.getvalue(), err.getvalue()


@pytest.fixture
def files(tmp_path):
    (tmp_path / "sysA.txt").write_text("police kill the gunman\nthe cat sat\n")
    (tmp_path / "sysB.txt").write_text("the gunman police killed\na dog ran\n")
    (tmp_path / "ref1.txt").write_text("police killed the gunman\nthe cat sat on the mat\n")
    (tmp_path / "ref2.txt").write_text("the gunman was shot<q>by police\na cat\n")
    return tmp_path


def test_files_two_systems_json(files):
    code, out, _ = run(
        "-c",
        files / "sysA.txt",
        "-c",
        files / "sysB.txt",
        "-r",
        files / "ref1.txt",
        "--measures",
        "ROUGE-1",
        "--format",
        "json",
        "--per-pair",
        "--bootstrap",
        "none",
    )
    assert code == 0
    data = json.loads(out)
    # sysA pair 1: 3 of 4 unigrams; pair 2: "the cat sat" vs 6 tokens -> R 3/6, P 1
    assert data["per_pair"]["sysA"][0]["ROUGE-1"]["recall"] == 0.75
    assert data["per_pair"]["sysA"][1]["ROUGE-1"] == {"recall": 0.5, "precision": 1.0, "f": 0.66667}
    assert data["systems"]["sysA"]["ROUGE-1"]["recall"] == pytest.approx((0.75 + 0.5) / 2)
    assert data["systems"]["sysB"]["ROUGE-1"]["recall"] == pytest.approx((1.0 + 0.0) / 2)
    assert data["signature"].startswith("rougekit|m:ROUGE-1|")


def test_sentence_marker_and_two_references_csv(files):
    code, out, _ = run(
        "-c",
        files / "sysA.txt",
        "-r",
        files / "ref1.txt",
        "-r",
        files / "ref2.txt",
        "--sentence-sep",
        "<q>",
        "--measures",
        "ROUGE-L",
        "--format",
        "csv",
        "--per-pair",
        "--bootstrap",
        "none",
    )
    assert code == 0
    rows = list(csv.DictReader(io.StringIO(out)))
    assert [(r["system"], r["instance"]) for r in rows] == [("sysA", "1"), ("sysA", "2")]
    # pair 1, -f A: ref1 gives LCS 3 of 4; ref2 sentences "the gunman was shot" / "by police" give 2 + 1
    # of 6 -> R = 6/10, P = 6/8
    assert (float(rows[0]["ROUGE-L_recall"]), float(rows[0]["ROUGE-L_precision"])) == (0.6, 0.75)


def test_jsonl_with_lists(tmp_path):
    path = tmp_path / "d.jsonl"
    rows = [
        {"id": "a", "pred": ["police kill", "the gunman"], "refs": [["police killed the gunman"], "x y"]},
        {"id": "b", "pred": "the cat", "refs": ["the cat sat"]},
    ]
    path.write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    code, out, _ = run(
        "--jsonl",
        path,
        "--candidate-field",
        "pred",
        "--reference-field",
        "refs",
        "--id-field",
        "id",
        "--measures",
        "ROUGE-1",
        "--format",
        "json",
        "--per-pair",
        "--bootstrap",
        "none",
    )
    assert code == 0
    pp = json.loads(out)["per_pair"]["pred"]
    assert pp[0]["instance"] == "a"
    assert pp[0]["ROUGE-1"]["recall"] == pytest.approx(0.5)  # 3 hits / (4 + 2) reference tokens
    assert pp[1]["ROUGE-1"] == {"recall": 0.66667, "precision": 1.0, "f": 0.8}


def test_folders_and_rouge155_format(tmp_path):
    (tmp_path / "sys").mkdir()
    (tmp_path / "ref").mkdir()
    (tmp_path / "sys" / "doc.1.txt").write_text("police kill the gunman\n")
    (tmp_path / "sys" / "doc.2.txt").write_text("the cat\n")
    (tmp_path / "ref" / "doc.A.1.txt").write_text("police killed the gunman\n")
    (tmp_path / "ref" / "doc.A.2.txt").write_text("the cat sat\n")
    code, out, _ = run(
        "--candidate-dir",
        tmp_path / "sys",
        "--candidate-pattern",
        r"doc\.(\d+)\.txt",
        "--reference-dir",
        tmp_path / "ref",
        "--reference-pattern",
        r"doc\.[A-Z]\.#ID#\.txt",
        "--measures",
        "ROUGE-1",
        "--format",
        "rouge155",
        "--per-pair",
    )
    assert code == 0
    assert "sys ROUGE-1 Eval 1.sys R:0.75000 P:0.75000 F:0.75000" in out
    assert "sys ROUGE-1 Eval 2.sys R:0.66667 P:1.00000 F:0.80000" in out


def test_text_table(files):
    code, out, _ = run("-c", files / "sysA.txt", "-r", files / "ref1.txt", "--measures", "ROUGE-1,ROUGE-SU4")
    assert code == 0 and "ROUGE-SU4" in out and "signature: rougekit|" in out


@pytest.mark.parametrize(
    "argv,message",
    [
        (["--measures", "ROUGE-X"], "did you mean ROUGE-L"),
        (["--word-limit", "3", "--byte-limit", "4"], "not both"),
        (["--format", "rouge155", "--bootstrap", "none"], "needs --bootstrap rouge155"),
    ],
)
def test_bad_options(files, argv, message):
    code, out, err = run("-c", files / "sysA.txt", "-r", files / "ref1.txt", *argv)
    assert code == 2 and message in err and err.count("\n") == 1 and out == ""


def test_bad_input(files, tmp_path):
    (tmp_path / "short.txt").write_text("one line\n")
    code, _, err = run("-c", files / "sysA.txt", "-r", tmp_path / "short.txt")
    assert code == 2 and "has 1 lines but" in err and "has 2" in err
    (tmp_path / "bad.txt").write_bytes(b"ok\nbad \xff byte\n")
    code, _, err = run("-c", tmp_path / "bad.txt", "-r", files / "ref1.txt")
    assert code == 2 and "bad.txt, line 2: invalid UTF-8" in err
    code, out, _ = run(
        "-c",
        tmp_path / "bad.txt",
        "-r",
        files / "ref1.txt",
        "--encoding-errors",
        "replace",
        "--format",
        "json",
        "--bootstrap",
        "none",
    )
    assert code == 0
    code, _, err = run("-c", tmp_path / "missing.txt", "-r", files / "ref1.txt")
    assert code == 2 and "missing.txt: no such file" in err


@pytest.mark.parametrize(
    "command",
    [
        ("extract", "{c}", "{r}", "-o", "{r}"),
        ("compare", "-c", "{c}", "-c", "{c2}", "-r", "{r}", "--trials", "10", "-o", "{c2}"),
        ("report", "-c", "{c}", "-r", "{r}", "-o", "{c}"),
        ("variants", "-c", "{c}", "-r", "{r}", "-o", "{r}"),
        ("score", "-c", "{c}", "-r", "{r}", "-o", "{dot_c}"),
    ],
)
def test_commands_refuse_an_output_that_is_one_of_their_inputs(tmp_path, command):
    """``-o`` naming an input (by any path) would replace the user's data with a report: refused
    with one line and exit 2 before anything is written; every input is kept as it was."""
    files = {
        "c": "the cat sat\na dog ran\n",
        "c2": "the cat sat on the mat\na dog\n",
        "r": "the cat sat down\na dog ran far\n",
    }
    for name, text in files.items():
        (tmp_path / f"{name}.txt").write_text(text)
    names = {name: str(tmp_path / f"{name}.txt") for name in files}
    names["dot_c"] = str(tmp_path) + "/./c.txt"
    argv = [part.format(**names) for part in command]
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(argv)
    same_input = names["c"] if command[0] == "score" else argv[-1]  # score's -o is .../c.txt by another path
    assert (code, out.getvalue()) == (2, "")
    message = f"-o {argv[-1]} is also an input ({same_input}): write the output to another file"
    assert err.getvalue() == f"rougekit {command[0]}: error: {message}\n"
    for name, text in files.items():
        assert (tmp_path / f"{name}.txt").read_text() == text


def test_a_folder_file_name_that_is_not_utf8_is_named(tmp_path):
    # os.listdir reads bytes that are not UTF-8 as lone surrogates, which no output can write: before, a
    # traceback when the per-pair rows were written
    import os

    (tmp_path / "sys").mkdir()
    (tmp_path / "ref").mkdir()
    with open(os.path.join(os.fsencode(tmp_path / "sys"), b"doc.\xe9.txt"), "wb") as f:
        f.write(b"the cat sat\n")
    with open(os.path.join(os.fsencode(tmp_path / "ref"), b"doc.A.\xe9.txt"), "wb") as f:
        f.write(b"the cat\n")
    code, out, err = run(
        "--candidate-dir", tmp_path / "sys", "--candidate-pattern", r"doc\.(.+)\.txt", "--reference-dir",
        tmp_path / "ref", "--reference-pattern", r"doc\.[A-Z]\.#ID#\.txt", "--per-pair", "--format", "csv",
    )  # fmt: skip
    assert (code, out) == (2, "")
    why = "file name 'doc.\\xe9.txt' is not UTF-8, so its ID cannot be written"
    assert err == f"rougekit score: error: {tmp_path / 'sys'}: {why}\n"


def test_a_blank_reference_warns_with_its_file_and_line(tmp_path):
    # a blank reference (a missing or shifted row, most often) scores 0 as the script scores it, and
    # says so, as a blank candidate does (before: silent)
    (tmp_path / "c.txt").write_text("the cat sat\na dog ran\nthe end\n")
    (tmp_path / "r.txt").write_text("the cat\n \na end\n")
    code, out, err = run(
        "-c", tmp_path / "c.txt", "-r", tmp_path / "r.txt", "--bootstrap", "none", "--per-pair", "--format", "csv"
    )
    assert code == 0
    assert err == (
        f"rougekit score: warning: {tmp_path / 'r.txt'}: 1 blank reference line(s) (line 2): they have no words "
        "and score 0 (kept, so the pairs stay aligned)\n"
    )
    assert [row["ROUGE-1_f"] for row in csv.DictReader(io.StringIO(out))][1] == "0.0"
    (tmp_path / "r.jsonl").write_text('{"c": "the cat", "r": ["the cat", ""]}\n{"c": "a dog", "r": "a dog"}\n')
    code, out, err = run("--jsonl", tmp_path / "r.jsonl", "--candidate-field", "c", "--reference-field", "r")
    assert code == 0
    assert err == (
        f"rougekit score: warning: {tmp_path / 'r.jsonl'}: 1 blank 'r' reference(s) (row 1): they have no words "
        "and score 0 (kept, so the pairs stay aligned)\n"
    )


def test_blank_files_of_folders_warn_naming_them(tmp_path):
    """--candidate-dir/--reference-dir: an empty or blank file scores 0, and says so (it was silent)."""
    (tmp_path / "sys").mkdir()
    (tmp_path / "ref").mkdir()
    for name, text in [("d.1.txt", "the cat sat\n"), ("d.2.txt", ""), ("d.3.txt", "\n\n"), ("d.4.txt", "the cat\n")]:
        (tmp_path / "sys" / name).write_text(text)
    for k in (1, 2, 3):
        (tmp_path / "ref" / f"d.A.{k}.txt").write_text("the cat sat on\n")
    (tmp_path / "ref" / "d.A.4.txt").write_text("")
    code, out, err = run(
        "--candidate-dir", tmp_path / "sys", "--candidate-pattern", r"d\.(\d+)\.txt", "--reference-dir",
        tmp_path / "ref", "--reference-pattern", r"d\.A\.#ID#\.txt", "--measures", "ROUGE-1", "--per-pair",
        "--format", "csv",
    )  # fmt: skip
    assert code == 0
    cands = f"{tmp_path / 'sys' / 'd.2.txt'}, {tmp_path / 'sys' / 'd.3.txt'}"
    assert err.splitlines() == [
        f"rougekit score: warning: 2 blank candidate file(s) ({cands}): they have no words and score 0",
        f"rougekit score: warning: 1 blank reference file(s) ({tmp_path / 'ref' / 'd.A.4.txt'}): they have no words "
        "and score 0",
    ]
    # by hand: pair 1 R 3/4; pairs 2, 3, 4 score 0 (nothing on one side, or "the cat" against an empty reference)
    f = [row["ROUGE-1_f"] for row in csv.DictReader(io.StringIO(out))]
    assert [float(v) for v in f] == [0.85714, 0.0, 0.0, 0.0]


def test_a_pair_error_of_line_files_names_the_line_and_files(tmp_path):
    """ROUGE-W against a reference with no tokens is refused (the script dies); the error named only
    "pair 2", now the line of the files."""
    (tmp_path / "c.txt").write_text("the cat\nthe dog\n")
    (tmp_path / "r.txt").write_text("the cat\n\n")
    code, out, err = run("-c", tmp_path / "c.txt", "-r", tmp_path / "r.txt", "--measures", "ROUGE-1,ROUGE-W-1.2")
    assert code == 2 and not out
    last = err.splitlines()[-1]
    assert last.startswith(f"rougekit score: error: line 2 of {tmp_path / 'c.txt'}, {tmp_path / 'r.txt'}: ROUGE-W")


def test_options_that_do_nothing_are_said_and_an_empty_marker_refused(tmp_path):
    """--seed with the script's bootstrap, --resamples/--confidence with none: said in one line each (they
    were accepted silently); --sentence-sep '' (an empty shell variable) is refused, not read as 'lines'."""
    (tmp_path / "c.txt").write_text("the cat sat\na dog ran\n")
    (tmp_path / "r.txt").write_text("the cat\na dog\n")
    files = ["-c", tmp_path / "c.txt", "-r", tmp_path / "r.txt", "--measures", "ROUGE-1"]
    code, _, err = run(*files, "--seed", "5")
    assert code == 0 and "warning: --seed does nothing with --bootstrap rouge155" in err
    code, _, err = run(*files, "--bootstrap", "none", "--resamples", "50", "--confidence", "90")
    assert code == 0 and "warning: --resamples and --confidence do nothing with --bootstrap none" in err
    for quiet in (["--seed", "0", "--bootstrap", "percentile"], ["--resamples", "1000"], []):
        code, _, err = run(*files, *quiet)
        assert code == 0 and err == "", err
    code, out, err = run(*files, "--sentence-sep", "")
    assert code == 2 and not out and err.count("\n") == 1 and "--sentence-sep" in err and "'<q>'" in err
