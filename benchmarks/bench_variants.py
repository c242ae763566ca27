"""``rougekit variants --target`` on 35,000 CNN/DM pairs: the whole command, and the search alone.

The pairs are the real CNN/DM pairs of ``corpora.real_pairs()`` (SummEval's 1,600 and REALSumm's
2,500 system outputs against their references), repeated to ``--pairs`` (35,000 by default), or
synthetic CNN/DM-sized pairs when the shared data are missing. They are written as one JSONL file
and the command is run as a user runs it (``python -m rougekit variants --jsonl ...``), once with a
target nothing reproduces (every counting choice walked, most aggregations pruned) and once with
the ROUGE-1.5.5 -m row's own numbers (the rows and the settings that print them). The table gives
the wall time and the CPU time of the process (the steadier figure on a loaded machine), and the
search's own seconds and settings as the command prints them.

Usage: ``python benchmarks/bench_variants.py [--pairs 35000]``
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import corpora  # noqa: E402

NO_MATCH = "R1=41.00,R2=18.00,RL=38.00"


def write_pairs(path: Path, n: int) -> str:
    shared = os.environ.get("ROUGEKIT_SHARED")
    if shared:  # the shared data where the environment says (a worktree has no ../shared beside it)
        corpora.SUMMEVAL_FILE = Path(shared) / "data" / "summeval" / "summeval.jsonl"
        corpora.REALSUMM_FILE = Path(shared) / "data" / "realsumm" / "parity" / "realsumm_rouge155_parity.jsonl"
    base = corpora.real_pairs()
    name = base.name if base is not None else "synthetic"
    if base is None:
        base = corpora.synthetic(n)
    with path.open("w", encoding="utf-8") as fh:
        for i in range(n):
            k = i % len(base)
            fh.write(json.dumps({"candidate": base.candidates[k], "references": base.references[k]}) + "\n")
    return f"{name}, {len(base)} distinct pairs repeated to {n}"


def run(jsonl: Path, target: str) -> tuple[float, float, str, str]:
    env = {**os.environ, "PYTHONPATH": str(HERE.parent / "src")}
    cmd = [sys.executable, "-m", "rougekit", "variants", "--jsonl", str(jsonl), "--candidate-field", "candidate"]
    cmd += ["--reference-field", "references", "--target", target]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(cmd, capture_output=True, text=True, env=env, check=True)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    searched = re.search(r"^searched .*$", done.stdout, re.M)
    row = re.search(r"^rouge155-m .*$", done.stdout, re.M)
    return wall, cpu, searched.group(0) if searched else "", row.group(0) if row else ""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=35_000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        jsonl = Path(folder) / "pairs.jsonl"
        print(f"pairs: {write_pairs(jsonl, args.pairs)}")
        wall, cpu, searched, row = run(jsonl, NO_MATCH)
        print(f"no match ({NO_MATCH}): {wall:.1f} s wall, {cpu:.1f} s CPU; {searched}")
        f = [v.split("/")[-1] for v in row.split()[-3:]]
        target = ",".join(f"{k}={100 * float(v):.2f}" for k, v in zip(("R1", "R2", "RL"), f))
        wall, cpu, searched, _ = run(jsonl, target)
        print(f"rouge155-m's numbers ({target}): {wall:.1f} s wall, {cpu:.1f} s CPU; {searched}")


if __name__ == "__main__":
    main()
