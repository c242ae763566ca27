"""The progress line `rougekit score` shows on a terminal (cli/_systems.progress_line) is ended before a
warning or an error is printed: neither is glued to ``scoring c: 100,000 pairs`` (qa21b F7)."""

from __future__ import annotations

import io
import sys

import pytest

from rougekit.cli import _systems, main


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def _terminal(monkeypatch) -> _Terminal:
    """Standard error as a terminal (the progress line is shown there only), set in the test's body:
    pytest puts its own capture in place after the fixtures ran."""
    stream = _Terminal()
    monkeypatch.setattr(sys, "stderr", stream)
    monkeypatch.setattr(_systems, "_line_open", False, raising=False)
    return stream


def _score_on_a_terminal(tmp_path, monkeypatch, cands: str, refs: str) -> tuple[int, str]:
    """``rougekit score`` of two line files with standard error a terminal: (exit code, what it showed)."""
    terminal = _terminal(monkeypatch)
    (tmp_path / "c.txt").write_text(cands, encoding="utf-8")
    (tmp_path / "r.txt").write_text(refs, encoding="utf-8")
    args = ["score", "-c", str(tmp_path / "c.txt"), "-r", str(tmp_path / "r.txt"), "--bootstrap", "none"]
    return main.main([*args, "-o", str(tmp_path / "o")]), terminal.getvalue()


@pytest.mark.parametrize(
    "cands, refs, code, said",
    [
        # Japanese under the script's tokenizer: no tokens, said while scoring its chunk, after the
        # progress line of the chunks before it
        ("police kill the gunman\n" * 30_000 + "東京は今日とても晴れています\n",
         "police killed the gunman\n" * 30_000 + "東京は今日晴れ\n", 0, "warning:"),
        # one line more: an error after the first chunks
        ("police kill the gunman\n" * 30_001, "police killed the gunman\n" * 30_000, 2, "error:"),
    ],
)  # fmt: skip
def test_a_warning_or_error_starts_its_own_line_after_the_progress_line(tmp_path, monkeypatch, cands, refs, code, said):
    got, err = _score_on_a_terminal(tmp_path, monkeypatch, cands, refs)
    assert got == code
    line = next(line for line in err.split("\n") if said in line)
    assert line.startswith(f"rougekit score: {said}"), err
    assert "scoring" in err.split(said)[0]  # the progress line was shown before it


def test_dedups_progress_line_is_ended_before_a_warning(tmp_path, monkeypatch):
    terminal = _terminal(monkeypatch)
    texts = tmp_path / "t.txt"
    # 60,000 distinct texts (the progress shows while they are read), then Japanese the tokenizer cannot read
    texts.write_text("".join(f"text number {i} of many\n" for i in range(60_000)) + "東京は今日とても晴れています\n")
    code = main.main(["dedup", str(texts), "-o", str(tmp_path / "kept.txt")])
    err = terminal.getvalue()
    assert code == 0
    warning = next(line for line in err.split("\n") if "warning:" in line)
    assert warning.lstrip(" \r").startswith("rougekit dedup: warning:"), err


def test_no_empty_line_when_no_progress_line_is_open(monkeypatch):
    terminal = _terminal(monkeypatch)
    _systems.progress_line("scoring c: 20,000 pairs")
    _systems.end_progress_line()
    _systems.end_progress_line()  # nothing open: no empty line
    assert terminal.getvalue() == "\rscoring c: 20,000 pairs\n"
