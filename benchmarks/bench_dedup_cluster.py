#!/usr/bin/env python3
"""Dedup on a cluster (issue 29): ``rougekit.dask.dedup`` on a ``LocalCluster`` (2 worker processes,
1 thread each) and ``rougekit.spark.dedup`` on ``local[2]``, against ``process.dedup`` in one process.

    python benchmarks/bench_dedup_cluster.py --n 20000 [--block-size N] [--skip-dask] [--skip-spark]

The corpus is ``dedup_corpus.near_duplicate_corpus(n, seed)`` at 0.7 (rouge-score's rougeL). Phase 1
(the pairs above the threshold) runs in the workers on one all-pairs index of the whole input
(``rougekit.process.blocks.PrefixIndex``: the ids and rank made on the client/driver, sent to each
worker once, the compiled index built there once; all of it in the total);
phase 2 applies the rule to those pairs on the client. Each distributed result must equal
``process.dedup``'s (kept and dropped, bit for bit); prints the times, phase 1 alone in this
process (serially), the index entries read, candidates, LCS and above-threshold pairs per text,
and the load average.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "src"))

from dedup_corpus import near_duplicate_corpus  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=int, default=20_000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--block-size", type=int, default=None, help="texts a task (default: each call's own)")
    ap.add_argument("--skip-dask", action="store_true")
    ap.add_argument("--skip-spark", action="store_true")
    args = ap.parse_args(argv)
    from rougekit import process
    from rougekit.process.blocks import InOrder, PrefixIndex
    from rougekit.process.core import dedup_decided
    from rougekit.process.encode import Encoder

    texts = near_duplicate_corpus(args.n, args.seed)
    block = args.block_size or 2000  # the serial phase 1 and Dask (rougekit.dask.dedup's default)
    report: dict = {"n": args.n, "block_size": args.block_size, "load_before": os.getloadavg()}
    start, cpu = time.perf_counter(), time.process_time()
    want = process.dedup(texts, threshold=0.7)
    report["process_dedup_s"] = round(time.perf_counter() - start, 2)
    report["process_dedup_cpu_s"] = round(time.process_time() - cpu, 2)
    report["kept"] = len(want.kept)

    # phase 1 in this process, serially (what the workers share out): the index, then its pairs block
    # by block in input order, each block told the texts dropped before it (InOrder), as the drivers do
    start = time.perf_counter()
    index = PrefixIndex(Encoder("rougeL").encode(texts), 0.7, skip_repeats=True)
    kernel = index.kernel
    report["one_process_index_s"] = round(time.perf_counter() - start, 2)
    start = time.perf_counter()
    order, above = InOrder(len(texts), 0.7), 0
    for j0 in range(0, len(texts), block):
        j1 = min(len(texts), j0 + block)
        pairs = index.pairs_above(j0, j1, order.dropped())
        above += len(pairs[0])
        order.add(j0, j1, pairs)
    report["one_process_pairs_s"] = round(time.perf_counter() - start, 2)
    report["one_process_same"] = dedup_decided(order.result(), 0.7, "rougeL") == want  # kept and dropped
    per_text = max(1, len(texts))
    report["entries_read_per_text"] = round(kernel.pairs_met / per_text, 1)
    report["candidates_per_text"] = round(kernel.pairs_cand / per_text, 1)
    report["lcs_per_text"] = round(kernel.pairs_lcs / per_text, 1)
    report["pairs_above_per_text"] = round(above / per_text, 1)
    report["exact_repeats_left_out"] = int(len(texts) - index.indexed.sum())
    del index, kernel

    if not args.skip_dask:
        import distributed

        import rougekit.dask as rdask

        cluster = distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None, worker_dashboard_address=None
        )
        with distributed.Client(cluster):
            start = time.perf_counter()
            got = rdask.dedup(texts, threshold=0.7, block_size=block)
            report["dask_s"] = round(time.perf_counter() - start, 2)
            report["dask_same"] = got == want
        cluster.close()

    if not args.skip_spark:
        from pyspark.sql import SparkSession

        import rougekit.spark as rspark

        spark = SparkSession.builder.master("local[2]").config("spark.ui.enabled", "false").getOrCreate()
        spark.sparkContext.setLogLevel("ERROR")
        start = time.perf_counter()
        got = rspark.dedup(texts, spark=spark, threshold=0.7, block_size=args.block_size)
        report["spark_s"] = round(time.perf_counter() - start, 2)
        report["spark_same"] = got == want
        spark.stop()
    report["load_after"] = os.getloadavg()
    for key in ("dask", "spark"):
        if f"{key}_s" in report:
            report[f"{key}_vs_process_dedup"] = round(report[f"{key}_s"] / max(1e-9, report["process_dedup_s"]), 2)
    print(json.dumps(report, indent=1))
    return 0 if report.get("dask_same", True) and report.get("spark_same", True) else 1


if __name__ == "__main__":
    sys.exit(main())
