"""The progress line `rougekit score` shows on a terminal (cli/_systems.progress_line) is ended before a
warning or an error is printed: neither is glued to ``scoring c: 100,000 pairs`` (qa21b F7)."""

from __future__ import annotations

import io
import sys

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


def test_a_warning_starts_its_own_line_after_the_progress_line(tmp_path, monkeypatch):
    terminal = _terminal(monkeypatch)
    cands = tmp_path / "c.txt"
    refs = tmp_path / "r.txt"
    # Japanese under the script's tokenizer: no tokens, said while scoring its chunk, after the progress
    # line of the chunks before it
    cands.write_text("police kill the gunman\n" * 30_000 + "東京は今日とても晴れています\n", encoding="utf-8")
    refs.write_text("police killed the gunman\n" * 30_000 + "東京は今日晴れ\n", encoding="utf-8")
    code = main.main(["score", "-c", str(cands), "-r", str(refs), "--bootstrap", "none", "-o", str(tmp_path / "o")])
    err = terminal.getvalue()
    assert code == 0
    warning = next(line for line in err.split("\n") if "warning:" in line)
    assert warning.startswith("rougekit score: warning:"), err
    assert "scoring" in err.split("warning:")[0]  # the progress line was shown before it


def test_an_error_starts_its_own_line_after_the_progress_line(tmp_path, monkeypatch):
    terminal = _terminal(monkeypatch)
    cands = tmp_path / "c.txt"
    refs = tmp_path / "r.txt"
    cands.write_text("police kill the gunman\n" * 30_001, encoding="utf-8")  # one line more: an error
    refs.write_text("police killed the gunman\n" * 30_000, encoding="utf-8")  # after the first chunks
    code = main.main(["score", "-c", str(cands), "-r", str(refs), "--bootstrap", "none", "-o", str(tmp_path / "o")])
    err = terminal.getvalue()
    assert code == 2
    error = next(line for line in err.split("\n") if "error:" in line)
    assert error.startswith("rougekit score: error:"), err
    assert "scoring" in err.split("error:")[0]  # the progress line was shown before it


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
