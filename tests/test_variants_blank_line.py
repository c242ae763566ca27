"""variants with a blank candidate (or reference) line gives the table, files2rouge's row marked with why
(qa21b F10: the command stopped on files2rouge's 'Use `--ignore_empty_summary`', a flag variants has not)."""

from __future__ import annotations

import contextlib
import io
import warnings

import pytest

from rougekit.cli.main import main
from rougekit.variants import variants


@pytest.mark.parametrize(
    "candidates,references,said",
    [
        (["a b", "", "c d"], ["a b", "x", "c d"], "candidate: empty summary at line 2"),
        (["a b", "x", "c d"], ["a b", "", "c d"], "reference: empty reference at line 2"),
    ],
)
def test_files2rouge_row_says_why_and_the_others_stay(candidates, references, said):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the blank-line warnings of the readers
        r = variants(candidates, references, ["ROUGE-1"], rows=["files2rouge", "rouge-score"])
    [(name, why)] = r.skipped
    assert name == "files2rouge" and said in why and "files2rouge stops on it" in why
    # rouge-score: per-pair unigram F 1, 0, 1
    assert r.row("rouge-score").scores["ROUGE-1"]["f"] == pytest.approx(2 / 3, abs=1e-15)


def test_cli_variants_prints_the_table(tmp_path):
    (tmp_path / "c.txt").write_text("a b\n\nc d\n")
    (tmp_path / "r.txt").write_text("a b\nx\nc d\n")
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        argv = ["variants", "-c", str(tmp_path / "c.txt"), "-r", str(tmp_path / "r.txt")]
        code = main([*argv, "--measures", "ROUGE-1", "--rows", "files2rouge,rouge-score"])
    assert code == 0, err.getvalue()
    assert "rouge-score" in out.getvalue() and "0.66667/0.66667/0.66667" in out.getvalue()
    assert "row files2rouge left out: files2rouge 2.1.0 fails" in err.getvalue()
    assert "--ignore_empty_summary` to ignore it" not in err.getvalue()
