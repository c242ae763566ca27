"""The strict-skip hook of tests/conftest.py, run on a small suite in a subprocess."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest

CONFTEST = Path(__file__).with_name("conftest.py")

SUITE = """
import pytest

def test_passes():
    pass

def test_peer_missing():
    pytest.skip("rouge-score is not installed")

@pytest.mark.skipif(True, reason="shared data folder not found")
def test_marked():
    pass

def test_allowed():
    pytest.skip("not installable in CI: data downloaded at run time")

@pytest.mark.xfail(reason="known difference", strict=True)
def test_expected_failure():
    assert False
"""


def _run(tmp_path: Path, files: dict[str, str], strict: bool) -> subprocess.CompletedProcess:
    shutil.copy(CONFTEST, tmp_path / "conftest.py")
    (tmp_path / "pytest.ini").write_text("[pytest]\n")
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    env = {k: v for k, v in os.environ.items() if k not in ("ROUGEKIT_STRICT_SKIPS", "PYTEST_ADDOPTS")}
    if strict:
        env["ROUGEKIT_STRICT_SKIPS"] = "1"
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-rA", str(tmp_path)],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_skips_are_skips_by_default(tmp_path):
    done = _run(tmp_path, {"test_suite.py": SUITE}, strict=False)
    assert done.returncode == 0, done.stdout
    assert "1 passed, 3 skipped, 1 xfailed" in done.stdout


def test_strict_turns_skips_into_failures_except_the_allowed(tmp_path):
    done = _run(tmp_path, {"test_suite.py": SUITE}, strict=True)
    assert done.returncode == 1, done.stdout
    assert "1 failed, 1 passed, 1 skipped, 1 xfailed, 1 error" in done.stdout  # the skipif fails in setup
    assert "FAILED test_suite.py::test_peer_missing" in done.stdout
    assert "ERROR test_suite.py::test_marked" in done.stdout
    assert "SKIPPED [1] test_suite.py:15: not installable in CI: data downloaded at run time" in done.stdout
    assert "ROUGEKIT_STRICT_SKIPS=1 (CI provides what it needs): rouge-score is not installed" in done.stdout
    assert "ROUGEKIT_STRICT_SKIPS=1 (CI provides what it needs): shared data folder not found" in done.stdout


def test_strict_fails_a_module_skipped_at_collection(tmp_path):
    module = 'import pytest\n\npytest.importorskip("no_such_peer_package")\n\n\ndef test_x():\n    pass\n'
    files = {"test_mod.py": module, "test_other.py": "def test_y():\n    pass\n"}
    assert _run(tmp_path, files, strict=False).returncode == 0
    done = _run(tmp_path, files, strict=True)
    assert done.returncode != 0, done.stdout
    assert "could not import 'no_such_peer_package'" in done.stdout
    assert "passed" not in done.stdout.splitlines()[-1]


def test_the_suite_looks_up_no_host_name():
    """conftest's guard: a download reached by mistake fails at once, naming the host."""
    with pytest.raises(socket.gaierror, match="the test suite uses no network: 'example.org'"):
        socket.getaddrinfo("example.org", 443)
    assert socket.getaddrinfo("127.0.0.1", 80)  # a written-out address is left alone
    assert socket.getaddrinfo("localhost", 80)
