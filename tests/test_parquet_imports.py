"""What `rougekit score --parquet` loads before it scores (issue 28: the serial start of the command).

``pyarrow.compute`` takes 22-28 ms to import (its functions are registered in Python); the defaults on a
file without a blank reference do not need it (``io.arrow.blank_rows`` reads the buffers with numpy and
loads it only for a list column or a row that may be blank, where tests/test_cli_parquet_blank.py checks
the rows it finds).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
from _paths import subprocess_env

_RUN = """
import io, contextlib, json, sys
from rougekit.cli.main import main
with contextlib.redirect_stdout(io.StringIO()) as out:
    code = main(["score", "--parquet", sys.argv[1], "--candidate-column", "c", "--reference-column", "r", "-q"])
print(json.dumps({"code": code, "compute": "pyarrow.compute" in sys.modules, "out": out.getvalue()}))
"""


def _run(path: Path) -> dict:
    env = subprocess_env()  # the rougekit under test, wherever it is installed
    done = subprocess.run([sys.executable, "-c", _RUN, str(path)], env=env, capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_the_parquet_defaults_do_not_load_pyarrow_compute(tmp_path):
    path = tmp_path / "pairs.parquet"
    cands = ["the cat sat on the mat", "a dog ran", "police kill the gunman"] * 10
    refs = ["the cat sat", "the dog ran away", "police killed the gunman"] * 10
    pq.write_table(pa.table({"c": cands, "r": refs}), path)
    got = _run(path)
    assert got["code"] == 0
    assert "ROUGE-1" in got["out"]  # scored, with the 1.5.5 bootstrap's intervals
    assert not got["compute"]


def test_a_blank_reference_still_found_through_pyarrow_compute(tmp_path):
    path = tmp_path / "pairs.parquet"
    pq.write_table(pa.table({"c": ["a b", "c d"], "r": ["a", "\u3000 "]}), path)  # U+3000: blank, not ASCII
    got = _run(path)
    assert got["code"] == 0
    assert got["compute"]  # the one row that may be blank is tested by utf8_is_space
