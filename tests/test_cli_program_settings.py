"""The ``rougekit`` command's process settings (cli/main.py): numpy's OpenBLAS single-threaded, pyarrow
reading with jemalloc (else its mimalloc keeping the pages it frees).

A threaded OpenBLAS starts a thread per core when numpy is imported, and each spins ~0.1 s of CPU before
it sleeps (issue 28: 1.7% of the Parquet defaults' CPU under perf); no command multiplies matrices.
mimalloc gave a Parquet reader's freed buffers back to the system each record batch, and the kernel
zeroed them again as fresh pages (8% of the defaults' CPU; jemalloc reuses them). The settings are the command's only:
a program that imports rougekit (or calls ``main`` with arguments) keeps its libraries as they are, and
a value the user set wins.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

from _paths import ROUGEKIT_ROOT

_SETTINGS = (
    "OPENBLAS_NUM_THREADS",
    "GOTO_NUM_THREADS",
    "OMP_NUM_THREADS",
    "MIMALLOC_PURGE_DELAY",
    "ARROW_DEFAULT_MEMORY_POOL",
)

# runs main() as the program does (argv from sys.argv), then loads numpy and reports what it got
_AS_PROGRAM = """
import json, os, sys
sys.argv = ["rougekit", "--version"]
from rougekit.cli.main import main
main() if {program} else main(["--version"])
import numpy
tasks = len(os.listdir("/proc/self/task")) if os.path.isdir("/proc/self/task") else None
from rougekit.io.arrow import need_pyarrow
pa = need_pyarrow("--parquet")  # what `score --parquet` reads with
print(json.dumps({{"env": os.environ.get("OPENBLAS_NUM_THREADS"), "threads": tasks,
                  "purge": os.environ.get("MIMALLOC_PURGE_DELAY"),
                  "pool": pa.default_memory_pool().backend_name, "pools": pa.supported_memory_backends()}}))
"""


def _run(program: bool, **env_extra: str) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in _SETTINGS}
    env["PYTHONPATH"] = str(ROUGEKIT_ROOT) + os.pathsep + env.get("PYTHONPATH", "")  # the rougekit under test
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


def test_the_command_keeps_pyarrows_freed_pages():
    assert _run(program=True)["purge"] == "-1"


def test_the_command_reads_arrow_with_jemalloc_where_pyarrow_has_it():
    got = _run(program=True)
    assert got["pool"] == ("jemalloc" if "jemalloc" in got["pools"] else "mimalloc")


def test_a_pool_the_user_chose_is_kept():
    got = _run(program=True, ARROW_DEFAULT_MEMORY_POOL="system")
    assert got["pool"] == "system"


def test_a_value_the_user_set_is_kept():
    got = _run(program=True, OPENBLAS_NUM_THREADS="2", MIMALLOC_PURGE_DELAY="10")
    assert (got["env"], got["purge"]) == ("2", "10")
    # OpenBLAS also reads OMP_NUM_THREADS and GOTO_NUM_THREADS: a user's OMP_NUM_THREADS=2 is not overridden
    # (review20: OPENBLAS_NUM_THREADS=1 was set over it, and OpenBLAS reads that one first)
    for name in ("OMP_NUM_THREADS", "GOTO_NUM_THREADS"):
        got = _run(program=True, **{name: "2"})
        assert got["env"] is None


def test_main_called_by_a_program_leaves_blas_and_pyarrow_alone():
    got = _run(program=False)
    plain = subprocess.run(  # the pool pyarrow picks in a process without rougekit
        [sys.executable, "-c", "import pyarrow; print(pyarrow.default_memory_pool().backend_name)"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    assert (got["env"], got["purge"], got["pool"]) == (None, None, plain)
