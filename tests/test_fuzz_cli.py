"""The CLI fuzz (issue 17): random argument lists and files for every command, seeded.

Every run must exit with 0, or with 2 and one line on stderr: never a traceback, another exit
code or a hang (see ``tests/_cli_fuzz.py``). The suite runs a short profile; a longer run::

    ROUGEKIT_FUZZ_ITERATIONS=20000 ROUGEKIT_FUZZ_SEED=1 PYTHONPATH=src python -m pytest -q tests/test_fuzz_cli.py
    PYTHONPATH=src python tests/_cli_fuzz.py --iterations 300 --seed 1 --subprocess   # 1 GB memory cap per run
"""

from __future__ import annotations

import os
import random
import tempfile
from pathlib import Path

import _cli_fuzz as fuzz

ITERATIONS = int(os.environ.get("ROUGEKIT_FUZZ_ITERATIONS", "120"))
SEED = int(os.environ.get("ROUGEKIT_FUZZ_SEED", "0"))


def test_cli_fuzz_finds_no_traceback_hang_or_bad_exit():
    found = fuzz.fuzz(ITERATIONS, SEED)
    report = "\n\n".join(f"{o.problem}: rougekit {' '.join(o.argv)}\n{o.stderr[-2000:]}" for o in found)
    assert not found, f"{len(found)} problem(s) with seed {SEED}:\n{report}"


def test_fuzz_reaches_the_scoring_code(monkeypatch):
    """The generator must not only make bad command lines: most commands should also succeed."""
    codes = {}
    for k in range(120):
        rng = random.Random(f"{SEED}:{k}")
        with tempfile.TemporaryDirectory() as tmp:
            argv = fuzz.random_argv(rng, Path(tmp))
            monkeypatch.chdir(tmp)  # relative output paths land in the temporary folder
            outcome = fuzz.run_in_process(argv)
        codes.setdefault(argv[0], []).append(outcome.code)
    for command in ("rouge155", "score", "correlate", "explain", "dedup", "extract", "files2rouge", "report"):
        assert 0 in codes.get(command, []), (command, codes.get(command))


def test_the_checker_flags_bad_runs():
    assert fuzz.check(["score"], 1, "boom\n", 0.1) == "exit code 1"
    assert fuzz.check(["score"], 2, "x: oops\nrougekit score: error: a\n", 0.1) == "the error is not exactly one line"
    assert fuzz.check(["score"], 2, "rougekit score: error: a\nmore\n", 0.1).startswith("the error is not one line")
    assert fuzz.check(["rouge155"], 2, "readText: f -> empty text\nrougekit rouge155: error: a\n", 0.1) is None
    assert fuzz.check(["score"], 2, "Traceback (most recent call last):\n", 0.1) == "traceback"
    assert fuzz.check(["score"], 0, "", fuzz.TIME_CAP + 1).startswith("took")
    assert fuzz.check(["score"], 2, "rougekit score: error: bad\n", 0.1) is None


def test_the_fuzz_inputs_cover_encodings_shapes_and_endless_streams(monkeypatch, tmp_path):
    """Issue 25: the fuzz's own inputs are read as meant: every encoding with a mark scores as UTF-8,
    UTF-16 without a mark is named, and every endless-ish input stops at a named limit."""
    from rougekit.io.reader import reset_limits

    for name, value in fuzz.FUZZ_LIMITS.items():
        monkeypatch.setenv(name, value)
    reset_limits()
    monkeypatch.chdir(tmp_path)
    text = "police kill the gunman\nthe cat sat\n"
    (tmp_path / "r.txt").write_text("police killed the gunman\nthe cat sat\n")
    plain = fuzz.run_in_process(["score", "-c", "r.txt", "-r", "r.txt", "--format", "json", "--bootstrap", "none"])
    assert plain.code == 0
    for k, (codec, mark) in enumerate(fuzz.ENCODINGS):
        path = tmp_path / f"c{k}.txt"
        path.write_bytes(mark + text.encode(codec))
        outcome = fuzz.run_in_process(["score", "-c", str(path), "-r", "r.txt", "--bootstrap", "none"])
        if codec == "utf-16-le" and not mark:
            assert outcome.code == 2 and "NUL byte" in outcome.stderr and "UTF-16" in outcome.stderr
        else:
            assert outcome.code == 0 and outcome.problem is None, (codec, outcome.stderr)
    rng = fuzz.random.Random(0)
    for _ in range(12):
        path = fuzz._endless(rng, tmp_path)
        outcome = fuzz.run_in_process(["dedup", str(path)])
        assert outcome.code == 2 and outcome.problem is None, outcome.stderr
        assert "limit" in outcome.stderr or "NUL byte" in outcome.stderr
    reset_limits()
