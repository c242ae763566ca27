"""``rougekit files2rouge`` against goldens recorded from the real files2rouge 2.1.0 + its pyrouge fork.

tests/goldens/files2rouge/<case>/case.json holds what ``files2rouge references.txt summaries.txt
ARGS`` printed (tools/goldens/record_files2rouge.py, commands in tools/goldens/README.md): the
report without its ``Elapsed time`` line, the ``--saveto`` file, or the last line of its error.
"""

from __future__ import annotations

import io
import itertools
import json
import re
import shutil
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest
from _paths import SHARED, shared_missing

from rougekit.cli.main import main
from rougekit.compat import files2rouge

GOLDENS = Path(__file__).parent / "goldens" / "files2rouge"
CASES = sorted(p.name for p in GOLDENS.iterdir() if (p / "case.json").is_file())
# DUC 2004's references (NIST data) are not in tests/data: that case runs with the shared folder
SHARED_ONLY = {"shared_duc2004"}
SUITES = SHARED / "data" / "peer-rouge-test-suites"


def shared_lines(source: dict) -> tuple[list[str], list[str]]:
    """The texts of a ``shared_*`` case: the rule of tools/goldens/record_files2rouge.py."""
    if source["kind"] == "pltrdy":
        root = SUITES / "pltrdy-rouge"
        return root.joinpath("ref.txt").read_text().splitlines(), root.joinpath("hyp.txt").read_text().splitlines()
    root = SUITES / "diego999-py-rouge" / "summaries_1"
    ids = sorted(int(p.stem) for p in (root / "system").glob("*.txt"))
    first_ref = [sorted((root / "references").glob(f"{i}[a-z].txt"))[0] for i in ids]

    def join(path):
        return " ".join(path.read_text(encoding="utf-8").split())

    return [join(p) for p in first_ref], [join(root / "system" / f"{i}.txt") for i in ids]


def assert_same_log(err: str, recorded: list[str]) -> None:
    """Our ``-v`` lines are files2rouge's: same format and messages, its temporary folders and ROUGE
    home (``<tmp1>`` ... ``<home>`` in the golden) named as rougekit holds them, and the files of a
    folder in evaluation order (files2rouge: the file system's order, so compared as a set)."""
    names = {"<home>": files2rouge.HOME, "<tmp1>": files2rouge.HTML, "<tmp2>": files2rouge.LINES}
    names["<tmp3>"] = files2rouge.CONFIG
    expected = [re.sub(r"<home>|<tmp\d>", lambda m: names[m[0]], line) for line in recorded]
    time = r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} "
    lines = err.splitlines()
    assert all(re.match(time, line) for line in lines), err
    ours = [re.sub(time, "<time> ", line) for line in lines]

    def blocks(log):  # each run of "Processing <file>." lines as a set
        return [
            (k, sorted(g) if k else list(g))
            for k, g in itertools.groupby(log, lambda x: " Processing s." in x or " Processing m." in x)
        ]

    assert blocks(ours) == blocks(expected)
    assert ours[-1] == expected[-1]  # the ROUGE command, arguments in their order


def run(argv, cwd, monkeypatch):
    monkeypatch.chdir(cwd)
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(["files2rouge", *argv])
    return code, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("name", [pytest.param(n, marks=pytest.mark.shared) if n in SHARED_ONLY else n for n in CASES])
def test_golden(name, tmp_path, monkeypatch):
    case = json.loads((GOLDENS / name / "case.json").read_text(encoding="utf-8"))
    if "source" in case:
        if not SUITES.is_dir():
            pytest.skip(shared_missing(SUITES))
        refs, sums = shared_lines(case["source"])
        (tmp_path / "references.txt").write_text("\n".join(refs) + "\n", encoding="utf-8")
        (tmp_path / "summaries.txt").write_text("\n".join(sums) + "\n", encoding="utf-8")
    else:
        for file in ("references.txt", "summaries.txt"):
            shutil.copy(GOLDENS / name / file, tmp_path / file)
    code, out, err = run(case["argv"], tmp_path, monkeypatch)
    if "log" in case:  # -v: the pyrouge fork's log lines on stderr
        assert_same_log(err, case["log"])
        err = ""
    if case["exit"] == 0:
        assert (code, err) == (0, "")
        report, elapsed = out.rsplit("Elapsed time: ", 1)
        assert report == case["stdout"]
        assert elapsed.endswith(" seconds\n") and float(elapsed.split()[0]) >= 0
        if "saved" in case:
            assert (tmp_path / "saved.txt").read_text(encoding="utf-8") == case["saved"]
    else:  # files2rouge: a traceback (exit 1) or argparse (exit 2); here one line and exit 2
        assert code == 2 and out == ""
        assert err.count("\n") == 1 and err.startswith("rougekit files2rouge: error: ")
        message = case["error"].split("error: ", 1)[-1].removeprefix("ValueError: ").strip()
        assert message in err


def test_porter_only_stemming_differs_from_full_rouge155():
    """files2rouge's empty exception DB: 'went' stays 'went' (ROUGE-1.5.5's full DB gives 'go')."""
    import rougekit

    texts = {0: ("children went home .", "child go home .")}
    porter = files2rouge.evaluate(texts, files2rouge.rouge_arguments(None, 1, True))
    assert "ROUGE-1 Average_R: 0.33333" in porter  # by hand: only 'home' matches
    full = rougekit.score(["child go home ."], ["children went home ."], measures=["ROUGE-1"], stem=True)
    assert full.to_dict()["ROUGE-1"]["recall"] == 1.0  # children -> child, went -> go


@pytest.mark.parametrize(
    "refs, sums, message",
    [
        (b"", b"", "empty reference file"),
        (b"a .\n", b"\xff b .\n", "line 1 is not UTF-8"),
        (b"a\n\n", b"a\nb\n", "Empty reference at line 2"),
    ],
)
def test_bad_input_is_one_line(refs, sums, message, tmp_path, monkeypatch):
    (tmp_path / "r.txt").write_bytes(refs)
    (tmp_path / "s.txt").write_bytes(sums)
    code, out, err = run(["r.txt", "s.txt"], tmp_path, monkeypatch)
    assert code == 2 and err.count("\n") == 1 and message in err


def test_missing_file_and_all_ignored(tmp_path, monkeypatch):
    code, _, err = run(["nope.txt", "nope2.txt"], tmp_path, monkeypatch)
    assert code == 2 and "nope.txt" in err
    (tmp_path / "r.txt").write_text("\n \n")
    (tmp_path / "s.txt").write_text("a\nb\n")
    code, _, err = run(["r.txt", "s.txt", "-ir"], tmp_path, monkeypatch)
    assert code == 2 and "every line was empty" in err
    (tmp_path / "r.txt").write_text("a\nb\n")
    code, _, err = run(["r.txt", "s.txt", "--args=-n 2"], tmp_path, monkeypatch)  # the script needs -a
    assert code == 2 and "-a" in err and err.count("\n") == 1
    code, _, err = run(["r.txt", "s.txt", "--args=-n 2", "-v"], tmp_path, monkeypatch)  # -v: still one line
    assert code == 2 and "-a" in err and err.count("\n") == 1
