#!/usr/bin/env python3
"""Benchmark of rougekit.dask.score (issue 15): a local Dask cluster of 2 workers against 1 worker.

    python benchmarks/bench_dask.py [--pairs 1000000] [--partitions 40] [--workdir DIR]

The pairs (synthetic CNN/DM-sized summaries, one reference each: benchmarks/corpora.py) are
written once to ``--partitions`` Parquet files. Then, for 1 and 2 workers, a child process starts
``distributed.LocalCluster(n_workers=W, threads_per_worker=1, processes=True)``, scores a few
pairs to start the workers' imports, and times ``rougekit.dask.score(dd.read_parquet(...))``
with ROUGE-1/2/L (the bootstrap runs only when its numbers are read, so it is not in the time):
the workers read their files and count; the client merges. Throughput is pairs per second of
that call; the target (issue 15) is at least 1.6x with 2 workers. Both runs must give the same
corpus numbers. The load average is printed with the numbers: on a shared machine the ratio
says little; measure on a quiet one with at least 2 free cores.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
MEASURES = ["ROUGE-1", "ROUGE-2", "ROUGE-L"]


def write_parquet(folder: Path, pairs: int, partitions: int) -> None:
    """``pairs`` synthetic pairs in ``partitions`` Parquet files (prediction, reference columns)."""
    import corpora
    import pyarrow as pa
    import pyarrow.parquet as pq

    folder.mkdir(parents=True, exist_ok=True)
    per_file = -(-pairs // partitions)
    for k, chunk in enumerate(corpora.iter_synthetic(pairs, seed=3, chunk=per_file)):
        table = pa.table({"prediction": chunk.candidates, "reference": [r[0] for r in chunk.references]})
        pq.write_table(table, folder / f"part-{k:04d}.parquet")


def child(folder: str, workers: int) -> None:
    """One measurement (in its own process): a fresh cluster of ``workers`` single-thread workers."""
    import dask.dataframe as dd
    import pandas as pd
    from distributed import Client, LocalCluster

    import rougekit.dask

    with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        with Client(cluster):
            warm = pd.DataFrame({"prediction": ["a b c"] * 4, "reference": ["a b d"] * 4})
            rougekit.dask.score(dd.from_pandas(warm, npartitions=workers), measures=MEASURES)
            ddf = dd.read_parquet(folder)
            t0 = time.perf_counter()
            result = rougekit.dask.score(ddf, "prediction", "reference", measures=MEASURES)
            seconds = time.perf_counter() - t0
    check = {m: round(result.corpus(m)["f"], 12) for m in MEASURES}
    print(json.dumps({"seconds": seconds, "pairs": len(result), "check": check}))


def load() -> str:
    return "load average %.2f, %.2f, %.2f" % os.getloadavg()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--pairs", type=int, default=1_000_000)
    ap.add_argument("--partitions", type=int, default=40)
    ap.add_argument("--workdir", default=None, help="keep the Parquet files here (reused when present)")
    ap.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:
        child(args.child[0], int(args.child[1]))
        return 0
    tmp = None if args.workdir else tempfile.TemporaryDirectory(prefix="rougekit-dask-")
    folder = Path(args.workdir or tmp.name) / f"pairs-{args.pairs}-{args.partitions}"
    try:
        if not folder.exists():
            t0 = time.perf_counter()
            write_parquet(folder, args.pairs, args.partitions)
            print(f"wrote {args.pairs:,} pairs in {args.partitions} Parquet files ({time.perf_counter() - t0:.0f}s)")
        runs = {}
        for workers in (1, 2):
            before = load()
            done = subprocess.run(
                [sys.executable, __file__, "--child", str(folder), str(workers)],
                capture_output=True,
                text=True,
                env=os.environ.copy(),
            )
            if done.returncode != 0:
                print(f"{workers} worker(s): failed: {done.stderr.strip()[-500:]}")
                return 1
            runs[workers] = json.loads(done.stdout.strip().splitlines()[-1])
            r = runs[workers]
            print(
                f"{workers} worker(s): {r['seconds']:.1f} s, {r['pairs'] / r['seconds']:,.0f} pairs/s "
                f"({before} before; {load()} after)"
            )
        same = runs[1]["check"] == runs[2]["check"] and runs[1]["pairs"] == runs[2]["pairs"]
        ratio = runs[1]["seconds"] / runs[2]["seconds"]
        print(f"(q) rougekit.dask.score, {args.pairs:,} pairs: 2 workers / 1 worker throughput = {ratio:.2f}x")
        print(f"    target >= 1.6x; corpus F identical in both runs: {same} {runs[2]['check']}")
        print(f"    {os.cpu_count()} CPUs; {load()}")
    finally:
        if tmp is not None:
            tmp.cleanup()
    return 0


if __name__ == "__main__":
    sys.exit(main())
