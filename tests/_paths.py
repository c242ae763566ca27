"""Where the tests find what lies outside them: the shared data folder and the rougekit under test.

* ``SHARED``: the folder of papers and data that sits beside the repository (``<repo>/../shared``),
  or ``$ROUGEKIT_SHARED`` when that is set (a worktree elsewhere, a CI layout). It is not part of
  the repository: tests that need it skip with :func:`shared_missing` as their reason when it is
  absent, and CI (which has it) turns such skips into failures (see ``tests/conftest.py``).
* ``ROUGEKIT_ROOT``: the folder the imported ``rougekit`` package sits in (``src`` in a checkout
  run with ``PYTHONPATH=src``, ``site-packages`` after ``pip install .``), to put first on the
  ``PYTHONPATH`` of subprocesses so they run the same rougekit as the test itself.
"""

from __future__ import annotations

import os
from pathlib import Path

import rougekit

REPO = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("ROUGEKIT_SHARED") or REPO.parent / "shared")
ROUGEKIT_ROOT = Path(rougekit.__file__).resolve().parents[1]


def shared_missing(path: Path) -> str:
    """The skip reason for a test whose shared input ``path`` is absent."""
    return f"{path} not found: the shared data folder is not beside the repository (set ROUGEKIT_SHARED to its path)"


def subprocess_env(**extra: str) -> dict[str, str]:
    """``os.environ`` with ``ROUGEKIT_ROOT`` first on ``PYTHONPATH`` (plus ``extra`` variables)."""
    env = dict(os.environ, **extra)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROUGEKIT_ROOT), env.get("PYTHONPATH", "")) if p)
    return env
