"""Where the tests find what lies outside them: the shared data folder and the rougekit under test.

* ``SHARED``: the folder of papers and data that sits beside the repository (``<repo>/../shared``),
  or ``$ROUGEKIT_SHARED`` when that is set (a worktree elsewhere, a CI layout). When neither is
  there, the part of it the repository carries: ``tests/data/shared/`` (the folders whose licence
  allows it, compressed; ``tools/bundle_test_data.py``), unpacked once per content into a folder of
  the temporary directory (``BUNDLED`` is then true). Tests that read what only the full folder has
  carry the ``shared`` marker (deselected by default, run by CI) and skip with
  :func:`shared_missing` as their reason when it is absent; CI turns such skips into failures
  (see ``tests/conftest.py``).
* ``ROUGEKIT_ROOT``: the folder the imported ``rougekit`` package sits in (``src`` in a checkout
  run with ``PYTHONPATH=src``, ``site-packages`` after ``pip install .``), to put first on the
  ``PYTHONPATH`` of subprocesses so they run the same rougekit as the test itself.
"""

from __future__ import annotations

import getpass
import hashlib
import os
import shutil
import tarfile
import tempfile
from pathlib import Path

import rougekit

REPO = Path(__file__).resolve().parents[1]
BUNDLE = REPO / "tests" / "data" / "shared"
ROUGEKIT_ROOT = Path(rougekit.__file__).resolve().parents[1]


def _unpacked_bundle() -> Path:
    """``tests/data/shared/<folder>/files.tar.xz`` (and the READMEs beside them) unpacked as
    ``<tmp>/rougekit-test-data-<uid>-<digest>/data/<folder>``: once per user and content (the
    folder is private to the user who made it; when that name is another user's, a private folder
    of this process), safe when several processes (pytest-xdist workers) start at once (each
    unpacks into its own folder; the first rename wins)."""
    archives = sorted(BUNDLE.glob("*/files.tar.xz"))
    digest = hashlib.sha256()
    for path in archives:
        digest.update(path.parent.name.encode() + b"\0" + path.read_bytes())
    user = os.getuid() if hasattr(os, "getuid") else getpass.getuser()
    root = Path(tempfile.gettempdir()) / f"rougekit-test-data-{user}-{digest.hexdigest()[:16]}"
    if _usable(root):
        return root
    work = Path(tempfile.mkdtemp(prefix=f"{root.name}."))
    _unpack(archives, work)
    try:
        work.rename(root)
    except OSError:  # another process was first (its folder is used), or the name is not ours (ours is kept)
        if not _usable(root):
            return work
        shutil.rmtree(work, ignore_errors=True)
    return root


def _usable(root: Path) -> bool:
    """``root/data`` is there, and ``root`` belongs to this user (another user's folder of the same
    name is neither readable nor trusted)."""
    try:
        return (root / "data").is_dir() and (not hasattr(os, "getuid") or root.stat().st_uid == os.getuid())
    except OSError:
        return False


def _unpack(archives: list[Path], work: Path) -> None:
    """Each archive (and the files beside it) into ``work/data/<folder>``."""
    for path in archives:
        folder = work / "data" / path.parent.name
        with tarfile.open(path, "r:xz") as tar:
            if hasattr(tarfile, "data_filter"):
                tar.extractall(folder, filter="data")
            else:  # pragma: no cover - Python without tarfile's extraction filters
                tar.extractall(folder)
        for other in path.parent.iterdir():
            if other.name != path.name:
                shutil.copyfile(other, folder / other.name)


def _shared() -> tuple[Path, bool]:
    given = os.environ.get("ROUGEKIT_SHARED")
    if given:
        return Path(given), False
    beside = REPO.parent / "shared"
    if beside.is_dir():
        return beside, False
    return _unpacked_bundle(), True


SHARED, BUNDLED = _shared()


def shared_missing(path: Path) -> str:
    """The skip reason for a test whose shared input ``path`` is absent."""
    if BUNDLED:
        return (
            f"{path} not found: it is not in tests/data/shared; put the shared data folder beside the repository "
            "(or set ROUGEKIT_SHARED to its path) and run the tests marked 'shared' (pytest -m shared)"
        )
    return f"{path} not found: the shared data folder is not beside the repository (set ROUGEKIT_SHARED to its path)"


def subprocess_env(**extra: str) -> dict[str, str]:
    """``os.environ`` with ``ROUGEKIT_ROOT`` first on ``PYTHONPATH`` (plus ``extra`` variables)."""
    env = dict(os.environ, **extra)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROUGEKIT_ROOT), env.get("PYTHONPATH", "")) if p)
    return env
