"""The ``rougekit`` command's process settings (cli/main.py): numpy's OpenBLAS single-threaded.

A threaded OpenBLAS starts a thread per core when numpy is imported, and each spins ~0.1 s of CPU before
it sleeps (issue 28: 1.7% of the Parquet defaults' CPU under perf); no command multiplies matrices. The
setting is the command's only: a program that imports rougekit (or calls ``main`` with arguments) keeps
its BLAS as it is, and a value the user set wins.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

SRC = str(Path(__file__).resolve().parents[1] / "src")

# runs main() as the program does (argv from sys.argv), then loads numpy and reports what it got
_AS_PROGRAM = """
import json, os, sys
sys.argv = ["rougekit", "--version"]
from rougekit.cli.main import main
main() if {program} else main(["--version"])
import numpy
tasks = len(os.listdir("/proc/self/task")) if os.path.isdir("/proc/self/task") else None
print(json.dumps({{"env": os.environ.get("OPENBLAS_NUM_THREADS"), "threads": tasks}}))
"""


def _run(program: bool, **env_extra: str) -> dict:
    env = {
        k: v for k, v in os.environ.items() if k not in ("OPENBLAS_NUM_THREADS", "GOTO_NUM_THREADS", "OMP_NUM_THREADS")
    }
    env["PYTHONPATH"] = SRC + os.pathsep + env.get("PYTHONPATH", "")
    env.update(env_extra)
    out = subprocess.run(
        [sys.executable, "-c", _AS_PROGRAM.format(program=program)],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return json.loads(out.strip().splitlines()[-1])


def test_the_command_loads_openblas_single_threaded():
    got = _run(program=True)
    assert got["env"] == "1"
    if got["threads"] is not None:  # Linux: no OpenBLAS thread beside the main one
        assert got["threads"] == 1


def test_a_value_the_user_set_is_kept():
    assert _run(program=True, OPENBLAS_NUM_THREADS="2")["env"] == "2"


def test_main_called_by_a_program_leaves_blas_alone():
    assert _run(program=False)["env"] is None
