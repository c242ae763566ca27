"""`rougekit rouge155` on the committed goldens (tests/goldens/<name>/), byte for byte.

Each golden holds its inputs, ``command.txt`` (how ROUGE-1.5.5.pl produced it, with the
``args:`` and ``exit:`` lines used here) and ``expected.out`` (the script's stdout).  They are
regenerated with ``python tools/make_goldens.py``.  Needs no Perl and no ../shared.

Where the script died (``exit:`` not 0), rougekit must exit with code 2 and one error line on
stderr; its stdout is then not compared (the script had printed the metrics done before it died).
"""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest
from reference_rouge import first_difference, rougekit_available, run_rougekit

GOLDENS = Path(__file__).resolve().parent / "goldens"
NAMES = sorted(p.name for p in GOLDENS.iterdir() if (p / "command.txt").is_file()) if GOLDENS.is_dir() else []


def read_command(d: Path) -> tuple[list[str], int]:
    args, code = None, None
    for line in (d / "command.txt").read_text(encoding="utf-8").splitlines():
        if line.startswith("args:"):
            args = shlex.split(line[len("args:") :])
        elif line.startswith("exit:"):
            code = int(line[len("exit:") :])
    assert args is not None and code is not None, f"{d / 'command.txt'} lacks an args: or exit: line"
    return args, code


def test_goldens_present():
    assert len(NAMES) >= 15, f"expected the committed goldens in {GOLDENS}"


@pytest.mark.parametrize("name", NAMES)
def test_golden(name):
    ok, why = rougekit_available()
    if not ok:
        pytest.skip(why)
    d = GOLDENS / name
    args, expected_code = read_command(d)
    rc, out, err = run_rougekit(args, cwd=d)
    where = f"golden {name}: rougekit rouge155 {shlex.join(args)}"
    if expected_code != 0:
        assert rc == 2, f"{where}: the script died (exit {expected_code}) but rougekit exited {rc}"
        assert err.strip(), f"{where}: no error message on stderr"
        return
    assert rc == 0, f"{where}: exited {rc}; stderr:\n{err.decode('utf-8', 'replace')[-3000:]}"
    expected = (d / "expected.out").read_bytes()
    assert out == expected, f"{where}\n" + first_difference(expected, out)
