"""`rougekit explain`: one pair as text or line N of files; text, colour and JSON; bad input exits 2."""

from __future__ import annotations

import contextlib
import io
import json
import subprocess
import sys

import pytest
from _paths import subprocess_env

import rougekit
from rougekit.cli.main import main


def run(*argv):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["explain", *map(str, argv)])
    return code, out.getvalue(), err.getvalue()


def test_text_pair_plain():
    code, out, err = run("-c", "police kill the gunman", "-r", "police killed the gunman", "--measures", "ROUGE-1")
    assert code == 0 and not err
    # 3 of 4 unigrams in common: police, the, gunman
    assert "ROUGE-1  R 0.75000  P 0.75000  F 0.75000  (hits 3, reference 4, candidate 4)" in out
    assert "candidate    [police] kill [the] [gunman]" in out
    assert "\x1b[" not in out  # not a terminal: no colour


def test_json_is_the_api_explanation():
    argv = ["-c", "the cat sat", "-r", "the cat", "-r", "a cat sat", "--measures", "ROUGE-1,ROUGE-L", "--stem"]
    code, out, _ = run(*argv, "--format", "json")
    assert code == 0
    expected = rougekit.explain("the cat sat", ["the cat", "a cat sat"], ["ROUGE-1", "ROUGE-L"], stem=True)
    assert json.loads(out) == json.loads(json.dumps(expected.to_dict()))


def test_language_preset():
    pytest.importorskip("Stemmer", reason="lang='de' stems with PyStemmer (the snowball extra, in the test extra)")
    code, out, _ = run("-c", "Die Katzen liefen", "-r", "Die Katze lief", "--lang", "de", "--stem", "--format", "json")
    assert code == 0
    # Snowball German: katzen and katze -> katz, liefen and lief -> lief: all three unigrams match
    assert json.loads(out)["measures"]["ROUGE-1"]["hits"] == 3


def test_line_of_files(tmp_path):
    (tmp_path / "sys.txt").write_text("first candidate\nthe gunman<q>was shot\n")
    (tmp_path / "ref.txt").write_text("first reference\nthe gunman was shot dead\n")
    code, out, _ = run(
        "--line", 2, "-c", tmp_path / "sys.txt", "-r", tmp_path / "ref.txt", "--sentence-sep", "<q>",
        "--format", "json", "--measures", "ROUGE-L",
    )  # fmt: skip
    assert code == 0
    d = json.loads(out)
    assert d["candidate"]["sentences"] == [["the", "gunman"], ["was", "shot"]]
    assert d["measures"]["ROUGE-L"]["hits"] == 4  # the candidate's four tokens, all in the reference sentence


@pytest.mark.parametrize(
    "argv, message",
    [
        (["-c", "a", "-r", "a", "--line", "0"], "--line must be at least 1"),
        (["-c", "{tmp}/none.txt", "-r", "{tmp}/none.txt", "--line", "1"], "cannot open"),
        (["-c", "{tmp}/one.txt", "-r", "{tmp}/one.txt", "--line", "2"], "has 1 lines: there is no line 2"),
        (["-c", "a"], "required"),
        (["-c", "a", "-r", "b", "--measures", "ROUGE-Q"], "ROUGE-Q"),
        (["-c", "a", "-r", "b", "--byte-limit", "3", "--tokenizer", "unicode"], "byte_limit"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(tmp_path, argv, message):
    (tmp_path / "one.txt").write_text("one line\n")
    code, out, err = run(*[a.replace("{tmp}", str(tmp_path)) for a in argv])
    assert code == 2 and not out
    assert err.count("\n") == 1 and err.startswith("rougekit explain: error:") and message in err


def test_colour_through_rich():
    pytest.importorskip("rich", reason="colour needs rich (the rich extra, in the test extra)")
    code, out, _ = run("-c", "police kill the gunman", "-r", "police killed the gunman", "--color", "always")
    assert code == 0
    assert "\x1b[" in out and "police" in out and "[police]" not in out


def test_listed_in_help_and_runs_as_a_program():
    done = subprocess.run(
        [sys.executable, "-m", "rougekit", "explain", "-c", "a b", "-r", "a c", "--measures", "ROUGE-1"],
        capture_output=True,
        text=True,
        env=subprocess_env(),
    )
    assert done.returncode == 0 and "[a] b" in done.stdout
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        main(["--help"])
    assert "  explain " in out.getvalue()


def test_unreadable_text_gets_the_same_hint_as_score():
    """Chinese under the default tokenizer is no tokens: explain says so as score does (it printed 0s silently)."""
    code, out, err = run("-c", "警方击毙了枪手", "-r", "警察击毙枪手", "--measures", "ROUGE-1")
    assert code == 0 and "F 0.00000" in out
    assert "2 of 2 summaries have words but no tokens" in err and "--lang" in err
    with pytest.warns(rougekit.errors.EmptyTokensWarning, match="lang="):
        rougekit.explain("警方击毙了枪手", "警察击毙枪手", ["ROUGE-1"])


def test_file_names_without_line_are_refused(tmp_path, monkeypatch):
    """-c FILE -r FILE without --line explained the names as text ("m0 txt"); now one line, exit 2."""
    (tmp_path / "M0.txt").write_text("the cat sat\n")
    (tmp_path / "ref0.txt").write_text("the cat\n")
    monkeypatch.chdir(tmp_path)
    code, out, err = run("-c", "M0.txt", "-r", "ref0.txt")
    assert code == 2 and not out
    assert err.strip() == "rougekit explain: error: -c M0.txt names a file: add --line N to explain line N of the files"
    code, out, _ = run("--line", "1", "-c", "M0.txt", "-r", "ref0.txt", "--measures", "ROUGE-1")
    assert code == 0 and "(hits 2, reference 2, candidate 3)" in out
