"""Output files of the commands: ``-o FILE`` written whole or not at all (an error, a full disk, Ctrl-C
leave the file as it was), symbolic links kept, devices written in place, standard output closed or
full said in one line (qa21b F6, F14, F16, F22)."""

from __future__ import annotations

import contextlib
import io
import os
import subprocess
import sys

import pytest
from _paths import subprocess_env

from rougekit.cli.main import main

resource = pytest.importorskip("resource")  # RLIMIT_FSIZE: POSIX

PAIRS = 3000  # ~0.5 MB of per-pair JSON: well over the file-size limit below
LIMIT = 64 * 1024  # bytes a process may write to a file (`ulimit -f 64`)


def run(*argv):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main([*map(str, argv)])
    return code, out.getvalue(), err.getvalue()


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


@pytest.mark.parametrize("fmt", ["text", "csv"])
def test_closed_standard_output_is_one_line(tmp_path, fmt):
    """F22: `rougekit score ... >&-` gave an AttributeError traceback (text) or a TypeError (per-pair csv)."""
    (tmp_path / "c.txt").write_text("police kill the gunman\n")
    argv = ["score", "-c", "c.txt", "-r", "c.txt", "--per-pair", "--format", fmt, "-q"]
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
        "rougekit score: error: cannot write to standard output: it is closed (give -o FILE, or redirect it)\n"
    )


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full")
def test_a_full_standard_output_is_named(tmp_path):
    """F22: `> /dev/full` said "error: No space left on device" without naming what failed."""
    (tmp_path / "c.txt").write_text("police kill the gunman\n")
    with open("/dev/full", "wb") as full:
        done = subprocess.run(
            [sys.executable, "-m", "rougekit", "score", "-c", "c.txt", "-r", "c.txt", "-q"],
            cwd=tmp_path,
            stdout=full,
            stderr=subprocess.PIPE,
            env=subprocess_env(),
        )
    assert done.returncode == 2
    assert done.stderr.decode() == "rougekit score: error: cannot write standard output: No space left on device\n"
