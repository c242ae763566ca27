#!/usr/bin/env python3
"""``rougekit dedup`` on a file of N texts (issue 29): streamed, checkpointed, interrupted and resumed.

    python benchmarks/bench_dedup_cli.py --n 1000000 [--interrupt-after 40] [--folder /tmp/dedup-bench]

Writes ``dedup_corpus.near_duplicate_corpus(n, seed)`` one text a line, then runs in subprocesses:

1. ``rougekit dedup corpus.txt -o kept.txt --dropped dropped.jsonl -v`` (one run: its wall time and
   the bytes per text and peak memory it reports);
2. the same with ``--checkpoint``, sent SIGINT ``--interrupt-after`` seconds after it starts (exit
   130 expected), then run again to the end from the checkpoint: the kept and dropped files must be
   byte-identical to run 1's;
3. ``process.dedup`` on the same texts in one Python call (time; its kept rows must be run 1's).
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from dedup_corpus import near_duplicate_corpus  # noqa: E402

_PROCESS = """
import sys, time
from rougekit import process
texts = open(sys.argv[1], encoding="utf-8").read().splitlines()
start = time.perf_counter()
result = process.dedup(texts, threshold=0.7)
print(time.perf_counter() - start)
with open(sys.argv[2], "w", encoding="utf-8") as out:
    out.write("".join(texts[i] + "\\n" for i in result.kept))
"""


def _env() -> dict:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(HERE.parent / "src") + os.pathsep + env.get("PYTHONPATH", "")
    return env


def _dedup(folder: Path, name: str, *extra: str, interrupt: float | None = None) -> tuple[int, float, str]:
    argv = [sys.executable, "-m", "rougekit", "dedup", str(folder / "corpus.txt"), "-o", str(folder / f"{name}.txt")]
    argv += ["--dropped", str(folder / f"{name}.jsonl"), "-v", *extra]
    start = time.perf_counter()
    proc = subprocess.Popen(argv, stderr=subprocess.PIPE, text=True, env=_env())
    if interrupt is not None:
        try:
            proc.wait(interrupt)
        except subprocess.TimeoutExpired:
            proc.send_signal(signal.SIGINT)
    err = proc.communicate()[1]
    return proc.returncode, time.perf_counter() - start, err


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=int, default=100_000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--interrupt-after", type=float, default=None, help="seconds (default: half of run 1)")
    ap.add_argument("--folder", default="/tmp/rougekit-dedup-bench")
    args = ap.parse_args(argv)
    folder = Path(args.folder)
    folder.mkdir(parents=True, exist_ok=True)
    texts = near_duplicate_corpus(args.n, args.seed)
    (folder / "corpus.txt").write_text("".join(t + "\n" for t in texts), encoding="utf-8")
    del texts
    report: dict = {"n": args.n, "corpus_bytes": (folder / "corpus.txt").stat().st_size}

    code, seconds, err = _dedup(folder, "one")
    assert code == 0, err
    report["one_run_s"] = round(seconds, 1)
    report["one_run_stderr"] = err.strip().splitlines()

    ck = folder / "ck"
    if ck.exists():
        ck.unlink()
    after = args.interrupt_after if args.interrupt_after is not None else seconds / 2
    code, first, err = _dedup(folder, "resumed", "--checkpoint", str(ck), interrupt=after)
    report["interrupted"] = {"after_s": round(after, 1), "exit": code, "stderr": err, "checkpoint": ck.exists()}
    code, second, err = _dedup(folder, "resumed", "--checkpoint", str(ck))
    assert code == 0, err
    report["resumed_s"] = round(second, 1)
    same = all((folder / f"one{x}").read_bytes() == (folder / f"resumed{x}").read_bytes() for x in (".txt", ".jsonl"))
    report["resumed_identical"] = same

    run = subprocess.run(
        [sys.executable, "-c", _PROCESS, str(folder / "corpus.txt"), str(folder / "process.txt")],
        capture_output=True,
        text=True,
        env=_env(),
    )
    assert run.returncode == 0, run.stderr
    report["process_dedup_s"] = round(float(run.stdout), 1)
    report["process_same_kept"] = (folder / "process.txt").read_bytes() == (folder / "one.txt").read_bytes()
    print(json.dumps(report, indent=1))
    return 0 if same and report["process_same_kept"] else 1


if __name__ == "__main__":
    sys.exit(main())
