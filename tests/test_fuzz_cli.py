"""The CLI fuzz (issue 17): random argument lists and files for every command, seeded.

Every run must exit with 0, or with 2 and one line on stderr: never a traceback, another exit
code or a hang (see ``tests/_cli_fuzz.py``). The suite runs a short profile; a longer run::

    ROUGEKIT_FUZZ_ITERATIONS=20000 ROUGEKIT_FUZZ_SEED=1 PYTHONPATH=src python -m pytest -q tests/test_fuzz_cli.py
    PYTHONPATH=src python tests/_cli_fuzz.py --iterations 300 --seed 1 --subprocess   # 1 GB memory cap per run
"""

from __future__ import annotations

import json
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
    """Issue 25: the fuzz's own inputs are read as meant: every encoding with a mark scores as UTF-8
    (the same JSON output as the text written in UTF-8), UTF-16 without a mark is named, and every
    endless-ish input stops at a named limit."""
    monkeypatch.chdir(tmp_path)
    text = "police kill the gunman\nthe cat sat\n"
    (tmp_path / "r.txt").write_text("police killed the gunman\nthe cat sat\n")

    def score(codec, mark, folder):  # the candidate file is c.txt in each folder: the same system name
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "c.txt").write_bytes(mark + text.encode(codec))
        argv = ["score", "-c", f"{folder}/c.txt", "-r", "r.txt", "--format", "json", "--bootstrap", "none"]
        return fuzz.run_in_process(argv)

    with fuzz.fuzz_limits():
        plain = score("utf-8", b"", "plain")
        assert plain.code == 0, plain.stderr
        assert json.loads(plain.stdout)["systems"]["c"]["ROUGE-1"]["recall"] == 0.875  # by hand: mean of 3/4 and 3/3
        for k, (codec, mark) in enumerate(fuzz.ENCODINGS):
            outcome = score(codec, mark, f"c{k}")
            if codec == "utf-16-le" and not mark:
                assert outcome.code == 2 and "NUL byte" in outcome.stderr and "UTF-16" in outcome.stderr
            else:
                assert outcome.code == 0 and outcome.problem is None, (codec, outcome.stderr)
                assert outcome.stdout == plain.stdout, codec
        rng = fuzz.random.Random(0)
        for _ in range(12):
            path = fuzz._endless(rng, tmp_path)
            outcome = fuzz.run_in_process(["dedup", str(path)])
            assert outcome.code == 2 and outcome.problem is None, outcome.stderr
            assert "limit" in outcome.stderr or "NUL byte" in outcome.stderr


def test_the_fuzz_leaves_the_environment_and_the_reader_limits_as_they_were():
    """fuzz() lowers the reading limits while it runs, and only then: later tests (and their
    subprocesses) in the same worker read with the limits they had before."""
    from rougekit.io import reader

    names = list(fuzz.FUZZ_LIMITS)
    before = {name: os.environ.get(name) for name in names}
    limits = (reader.max_lines(), reader.max_file_bytes(), reader.max_line_bytes())
    with fuzz.fuzz_limits():
        assert reader.max_lines() == int(os.environ["ROUGEKIT_MAX_LINES"])
    fuzz.fuzz(1, SEED)
    assert {name: os.environ.get(name) for name in names} == before
    assert (reader.max_lines(), reader.max_file_bytes(), reader.max_line_bytes()) == limits
