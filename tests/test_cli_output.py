"""Output files of the commands: ``-o FILE`` written whole or not at all (an error, a full disk, Ctrl-C
leave the file as it was), symbolic links kept, devices written in place, standard output closed or
full said in one line (qa21b F6, F14, F16, F22)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from _cli import run
from _paths import subprocess_env

resource = pytest.importorskip("resource")  # RLIMIT_FSIZE: POSIX

PAIRS = 3000  # ~0.5 MB of per-pair JSON: well over the file-size limit below
LIMIT = 64 * 1024  # bytes a process may write to a file (`ulimit -f 64`)


@pytest.fixture
def big(tmp_path):
    (tmp_path / "c.txt").write_text("".join(f"police kill the gunman number {k} at noon\n" for k in range(PAIRS)))
    (tmp_path / "r.txt").write_text("".join(f"police killed the gunman {k} in the town\n" for k in range(PAIRS)))
    return tmp_path


def _limited(argv, cwd):
    """``rougekit ARGV`` run with files limited to LIMIT bytes (a disk that fills up)."""

    def limit():
        resource.setrlimit(resource.RLIMIT_FSIZE, (LIMIT, LIMIT))

    return subprocess.run(
        [sys.executable, "-m", "rougekit", *argv],
        cwd=cwd,
        capture_output=True,
        text=True,
        env=subprocess_env(),
        preexec_fn=limit,
        timeout=300,
    )


@pytest.mark.parametrize(
    "argv",
    [
        ["score", "-c", "c.txt", "-r", "r.txt", "--per-pair", "--format", "json"],
        ["score", "-c", "c.txt", "-r", "r.txt", "--per-pair", "--format", "text"],
        ["report", "-c", "c.txt", "-r", "r.txt", "--trials", "10"],
    ],
    ids=["json", "text", "report"],
)
def test_a_write_error_leaves_no_partial_file_and_keeps_the_old_one(big, argv):
    """F6: json/text/report output cut at the file-size limit stayed as a truncated file (65,536 bytes
    of cut JSON); an existing file lost its content. Now: no file, or the old one as it was."""
    done = _limited([*argv, "-q", "-o", "new.out"], big)
    assert done.returncode == 2
    assert done.stderr.strip().endswith("error: cannot write output new.out: File too large"), done.stderr
    assert not (big / "new.out").exists()
    (big / "old.out").write_text("the previous result\n")
    done = _limited([*argv, "-q", "-o", "old.out"], big)
    assert done.returncode == 2, done.stderr
    assert (big / "old.out").read_text() == "the previous result\n"
    assert sorted(p.name for p in big.iterdir()) == ["c.txt", "old.out", "r.txt"]  # no temporary file left


def test_a_symlinked_output_keeps_its_target_when_the_run_fails(tmp_path):
    """F14: on an error the link was removed and its target kept the first system's rows (the old
    content lost). Now the target is untouched, and a run that succeeds writes through the link."""
    (tmp_path / "c.txt").write_text("police kill the gunman\nthe cat sat\n")
    (tmp_path / "bad.txt").write_bytes(b"police\0kill\nthe cat\n")
    (tmp_path / "r.txt").write_text("police killed the gunman\nthe cat sat on the mat\n")
    target = tmp_path / "target.csv"
    target.write_text("precious\n")
    link = tmp_path / "out.csv"
    link.symlink_to(target)
    common = ["-r", tmp_path / "r.txt", "--per-pair", "--format", "csv", "--measures", "ROUGE-1", "-o", link]
    code, _, err = run("score", "-c", tmp_path / "c.txt", "-c", tmp_path / "bad.txt", *common)
    assert code == 2 and "holds a NUL byte" in err
    assert link.is_symlink() and target.read_text() == "precious\n"
    code, _, err = run("score", "-c", tmp_path / "c.txt", *common)
    assert code == 0, err
    assert link.is_symlink() and os.readlink(link) == str(target)
    rows = target.read_text().splitlines()
    # ROUGE-1 by hand: 3 of 4 words match (R 3/4, P 3/4); 3 of 3 against 6 (R 0.5, P 1, F 2/3)
    assert rows[1:] == ["c,1,0.75,0.75,0.75", "c,2,0.5,1.0,0.66667"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.txt", "c.txt", "out.csv", "r.txt", "target.csv"]


def test_a_new_output_file_has_the_umask_permissions(tmp_path):
    """The temporary file moved onto -o is made as open() makes a file (0o666 less the umask), and an
    existing file keeps its own permissions."""
    (tmp_path / "c.txt").write_text("police kill the gunman\n")
    out = tmp_path / "out.txt"
    old = os.umask(0o022)
    try:
        assert run("score", "-c", tmp_path / "c.txt", "-r", tmp_path / "c.txt", "-q", "-o", out)[0] == 0
        assert out.stat().st_mode & 0o777 == 0o644
        out.chmod(0o600)
        assert run("score", "-c", tmp_path / "c.txt", "-r", tmp_path / "c.txt", "-q", "-o", out)[0] == 0
        assert out.stat().st_mode & 0o777 == 0o600
    finally:
        os.umask(old)


def test_parquet_to_a_pipe_says_it_needs_a_regular_file(tmp_path):
    """F16: `--format parquet -o /dev/stdout` into a pipe said "lseek failed"."""
    (tmp_path / "c.txt").write_text("police kill the gunman\n")
    argv = ["score", "-c", "c.txt", "-r", "c.txt", "--per-pair", "--format", "parquet", "-o", "/dev/stdout"]
    done = subprocess.run(
        [sys.executable, "-m", "rougekit", *argv], cwd=tmp_path, capture_output=True, env=subprocess_env()
    )
    assert done.returncode == 2 and done.stdout == b""
    assert done.stderr.decode().strip() == (
        "rougekit score: error: --format parquet needs a regular file for -o (/dev/stdout is a device or a pipe: "
        "Parquet is written with seeks, its footer last)"
    )


@pytest.mark.parametrize(
    "argv",
    [
        ["score", "-c", "c.txt", "-r", "c.txt", "-q"],
        ["score", "-c", "c.txt", "-r", "c.txt", "--per-pair", "--format", "csv", "-q"],
        ["explain", "-c", "police kill", "-r", "police killed"],
        ["files2rouge", "c.txt", "c.txt"],
    ],
    ids=["text", "csv", "explain", "files2rouge"],
)
def test_closed_standard_output_is_one_line(tmp_path, argv):
    """F22: `rougekit score ... >&-` gave an AttributeError traceback (text) or a TypeError (per-pair
    csv); explain's was an AttributeError too, and files2rouge printed nothing, exit 0."""
    (tmp_path / "c.txt").write_text("police kill the gunman\n")
    done = subprocess.run(
        [sys.executable, "-m", "rougekit", *argv],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=subprocess_env(),
        preexec_fn=lambda: os.close(1),
    )
    assert done.returncode == 2
    assert done.stderr.decode() == (
        f"rougekit {argv[0]}: error: cannot write to standard output: it is closed (redirect it: > FILE)\n"
    )


def test_closed_standard_output_does_not_stop_an_output_file(tmp_path):
    """-o FILE with standard output closed: the run writes its file as usual."""
    (tmp_path / "c.txt").write_text("police kill the gunman\n")
    argv = ["score", "-c", "c.txt", "-r", "c.txt", "--per-pair", "--format", "csv", "--measures", "ROUGE-1"]
    done = subprocess.run(
        [sys.executable, "-m", "rougekit", *argv, "-q", "-o", "out.csv"],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=subprocess_env(),
        preexec_fn=lambda: os.close(1),
    )
    assert (done.returncode, done.stderr) == (0, b"")
    assert (tmp_path / "out.csv").read_text().splitlines()[1] == "c,1,1.0,1.0,1.0"


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full")
@pytest.mark.parametrize("unbuffered", ["1", None])
@pytest.mark.parametrize(
    "args",
    [
        ["score", "-c", "c.txt", "-r", "c.txt", "-q"],
        ["explain", "-c", "police kill", "-r", "police killed"],
        ["rouge155", "-h"],
    ],
)
def test_a_full_standard_output_is_named(tmp_path, args, unbuffered):
    """F22: `> /dev/full` said "error: No space left on device" without naming what failed; with standard
    output buffered (no PYTHONUNBUFFERED) the interpreter's flush at exit failed again: exit code 120
    and a traceback after the error line (the README's fresh run)."""
    (tmp_path / "c.txt").write_text("police kill the gunman\n")
    env = subprocess_env()
    env.pop("PYTHONUNBUFFERED", None)
    if unbuffered:
        env["PYTHONUNBUFFERED"] = unbuffered
    with open("/dev/full", "wb") as full:
        done = subprocess.run(
            [sys.executable, "-m", "rougekit", *args], cwd=tmp_path, stdout=full, stderr=subprocess.PIPE, env=env
        )
    assert done.returncode == 2
    said = f"rougekit {args[0]}: error: cannot write standard output: No space left on device\n"
    assert done.stderr.decode() == said


# rougeL F of a text against its repeat with a word added: P 4/5, R 4/4, as rouge-score's fmeasure
# computes it (2PR / (P + R): 0.888888888888889, one ulp off 8/9)
F_REPEAT = 2 * (4 / 5) * 1.0 / (4 / 5 + 1.0)


class _StopAfter:
    """The ``json`` module of a command, with a Ctrl-C raised by the ``n``-th ``json.dumps``: an
    interrupt while the command writes its rows."""

    def __init__(self, n: int) -> None:
        self.n = n

    def __getattr__(self, name):
        return getattr(json, name)

    def dumps(self, *args, **kwargs):
        self.n -= 1
        if self.n == 0:
            raise KeyboardInterrupt
        return json.dumps(*args, **kwargs)


def _near_duplicates(path, n):
    """``n`` texts, every second one a repeat of the one before with a word added (dropped: rougeL F
    of 4 tokens against 5, all 4 in common, is 8/9 > 0.7; two others share one token of 4: F 1/4)."""
    lines = []
    for k in range(n // 2):
        text = f"item {k} {k + 100_000} {k + 200_000}"
        lines += [text, text + " too"]
    path.write_text("\n".join(lines) + "\n")
    return lines


@pytest.mark.parametrize("checkpoint", [False, True], ids=["plain", "checkpoint"])
def test_dedup_interrupted_while_writing_leaves_neither_output(tmp_path, monkeypatch, checkpoint):
    """F24: with --checkpoint, Ctrl-C while the --dropped file was written left kept.txt whole and
    dropped.jsonl cut (valid lines: it looked finished). Now neither is left (the checkpoint is:
    the same command resumes), and old files of those names are kept as they were."""
    import rougekit.cli.dedup as dedup_cli

    _near_duplicates(tmp_path / "in.txt", 200)
    (tmp_path / "kept.txt").write_text("old kept\n")
    argv = ["dedup", tmp_path / "in.txt", "-o", tmp_path / "kept.txt", "--dropped", tmp_path / "dropped.jsonl", "-q"]
    if checkpoint:
        argv += ["--checkpoint", tmp_path / "ck"]
    monkeypatch.setattr(dedup_cli, "json", _StopAfter(50))  # the 50th of 100 dropped rows
    assert run(*argv)[0] == 130
    assert (tmp_path / "kept.txt").read_text() == "old kept\n"
    left = sorted(p.name for p in tmp_path.iterdir())
    assert left == (["ck", "in.txt", "kept.txt"] if checkpoint else ["in.txt", "kept.txt"])
    monkeypatch.undo()
    code, _, err = run(*argv)
    assert code == 0, err
    kept = (tmp_path / "kept.txt").read_text().splitlines()
    dropped = [json.loads(line) for line in (tmp_path / "dropped.jsonl").read_text().splitlines()]
    assert kept == [f"item {k} {k + 100_000} {k + 200_000}" for k in range(100)]
    assert [d["line"] for d in dropped] == list(range(2, 201, 2)) and {d["score"] for d in dropped} == {F_REPEAT}


def test_extract_interrupted_while_writing_leaves_no_file(tmp_path, monkeypatch):
    """F12: `rougekit extract -o FILE` stopped by Ctrl-C / SIGTERM left FILE (a prefix of the rows)."""
    import rougekit.cli.extract as extract_cli

    _near_duplicates(tmp_path / "q.txt", 600)
    _near_duplicates(tmp_path / "c.txt", 40)
    monkeypatch.setattr(extract_cli, "json", _StopAfter(400))  # in the second block of 256 queries
    argv = ["extract", tmp_path / "q.txt", tmp_path / "c.txt", "-o", tmp_path / "out.jsonl", "-q"]
    assert run(*argv)[0] == 130
    assert sorted(p.name for p in tmp_path.iterdir()) == ["c.txt", "q.txt"]
    monkeypatch.undo()
    code, _, err = run(*argv)
    assert code == 0, err
    rows = [json.loads(line) for line in (tmp_path / "out.jsonl").read_text().splitlines()]
    assert len(rows) == 600
    # query 0 is choice 0 itself (F 1), then its longer form, 4 of 4 tokens in 5: F 8/9
    assert [(m["index"], m["score"]) for m in rows[0]["matches"]][:2] == [(0, 1.0), (1, F_REPEAT)]


def test_dedup_write_error_names_the_file(tmp_path):
    """F6: dedup -o cut at the file-size limit left 16 KiB of the kept rows and said "error: File too
    large", naming no file."""
    _near_duplicates(tmp_path / "in.txt", 12_000)  # 6,000 kept rows of ~20 bytes: over 64 KiB
    done = _limited(["dedup", "in.txt", "-o", "kept.txt", "-q"], tmp_path)
    assert done.returncode == 2
    assert done.stderr == "rougekit dedup: error: cannot write output kept.txt: File too large\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.txt"]


def test_dedup_dropped_dash_is_standard_output(tmp_path):
    """F19: `--dropped -` wrote a file named "-"; now standard output, refused when -o is too."""
    (tmp_path / "d.txt").write_text("a b c d\na b c d\n")
    code, out, err = run("dedup", tmp_path / "d.txt", "-o", tmp_path / "kept.txt", "--dropped", "-", "-q")
    assert code == 0, err
    assert json.loads(out) == {
        "index": 1,
        "line": 2,
        "where": "line 2",
        "match_index": 0,
        "match_line": 1,
        "match_where": "line 1",
        "score": 1.0,
        "text": "a b c d",
        "match": "a b c d",
    }
    assert (tmp_path / "kept.txt").read_text() == "a b c d\n" and not os.path.exists("-")
    code, out, err = run("dedup", tmp_path / "d.txt", "--dropped", "-")
    assert (code, out) == (2, "")
    assert err == (
        "rougekit dedup: error: --dropped - and the kept rows both go to standard output: give one of them a file "
        "(-o FILE)\n"
    )


def test_export_rouge155_refuses_dash(tmp_path, monkeypatch):
    """F19: `--export-rouge155 -` made a folder named "-"."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "c.txt").write_text("police kill the gunman\n")
    code, out, err = run("score", "-c", "c.txt", "-r", "c.txt", "--export-rouge155", "-")
    assert (code, out) == (2, "")
    assert err == (
        "rougekit score: error: --export-rouge155 writes a folder of files: give it a folder name, not '-'\n"
    )
    assert sorted(p.name for p in tmp_path.iterdir()) == ["c.txt"]


@pytest.mark.parametrize("signame, code", [("SIGINT", 130), ("SIGTERM", 143)])
def test_stopped_while_the_command_is_imported(tmp_path, signame, code):
    """F23: Ctrl-C in the first ~0.5 s (while `rougekit score` imports numpy and the engine) printed
    a 23-44 line traceback; SIGTERM then killed the process before its handler was set. The signal
    is sent here from inside that import."""
    script = f"""
import importlib, os, signal, sys
import rougekit.cli.main as cli

def interrupted(name):
    os.kill(os.getpid(), signal.{signame})
    return importlib.import_module(name)

cli.importlib = type("Imports", (), {{"import_module": staticmethod(interrupted)}})
sys.argv = ["rougekit", "score", "-c", "c.txt", "-r", "c.txt"]
sys.exit(cli.main())
"""
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=tmp_path, capture_output=True, text=True, env=subprocess_env(), timeout=60
    )
    assert (done.returncode, done.stdout, done.stderr) == (code, "", "\n")


def test_output_to_standard_output_by_name_writes_into_the_redirection(tmp_path):
    """-o /dev/stdout (or a link to it) with standard output redirected to a file: the rows go into that
    open file, which is not replaced (a new file moved onto its name would leave the shell's
    redirection writing to a removed file)."""
    (tmp_path / "c.txt").write_text("police kill the gunman\n")
    (tmp_path / "link").symlink_to("/dev/stdout")
    for name in ("/dev/stdout", "link"):
        argv = ["score", "-c", "c.txt", "-r", "c.txt", "--per-pair", "--format", "csv", "--measures", "ROUGE-1"]
        with open(tmp_path / "redirected.csv", "w") as out:
            before = os.fstat(out.fileno()).st_ino
            done = subprocess.run(
                [sys.executable, "-m", "rougekit", *argv, "-q", "-o", name],
                cwd=tmp_path,
                stdout=out,
                stderr=subprocess.PIPE,
                env=subprocess_env(),
            )
        assert (done.returncode, done.stderr) == (0, b"")
        assert (tmp_path / "redirected.csv").stat().st_ino == before
        assert (tmp_path / "redirected.csv").read_text().splitlines()[1] == "c,1,1.0,1.0,1.0"


def test_an_output_name_near_the_length_limit(tmp_path):
    """A 250-byte file name (the limit is 255) leaves no room for the temporary file's ending: it is
    then named by its random part alone, and the output still lands under the given name."""
    (tmp_path / "c.txt").write_text("police kill the gunman\n")
    out = tmp_path / ("é" * 125)  # 250 bytes in UTF-8
    code, _, err = run(
        "score",
        "-c",
        tmp_path / "c.txt",
        "-r",
        tmp_path / "c.txt",
        "--per-pair",
        "--format",
        "csv",
        "--measures",
        "ROUGE-1",
        "-q",
        "-o",
        out,
    )
    assert code == 0, err
    assert out.read_text().splitlines()[1] == "c,1,1.0,1.0,1.0"
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(["c.txt", out.name])
