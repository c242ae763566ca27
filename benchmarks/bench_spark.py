#!/usr/bin/env python3
"""Benchmark of rougekit.spark.score (issue 28): a local Spark session (local[2]) against rougekit.score.

    python benchmarks/bench_spark.py [--pairs 1000000] [--partitions 8] [--workdir DIR] [--repeat N]

The pairs (synthetic CNN/DM-sized summaries, one reference each: benchmarks/corpora.py) are written
once to ``--partitions`` Parquet files. Timed, each in the same process after a small warm-up:

* ``rougekit.spark.score(spark.read.parquet(DIR), measures=ROUGE-1/2/L)``: the executors' Python
  workers read their Arrow batches and count; the driver gathers the statistics and merges them
  (the bootstrap runs only when its numbers are read, so it is not in the time);
* ``rougekit.score`` on the same pairs already in memory as Python lists (every core).

``--repeat N`` times the two N times, alternating, and compares the best of each. The target
(issue 28) is Spark within 2x of rougekit.score. Both must give the same numbers, pair by pair.
The load average is printed with the numbers: on a shared machine the ratio says little.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
MEASURES = ["ROUGE-1", "ROUGE-2", "ROUGE-L"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=1_000_000)
    parser.add_argument("--partitions", type=int, default=8)
    parser.add_argument("--workdir", type=Path, default=None)
    parser.add_argument("--repeat", type=int, default=1, help="times each side, alternating (best is compared)")
    args = parser.parse_args()

    import numpy as np
    from bench_dask import write_parquet  # the same Parquet files as the Dask benchmark
    from pyspark.sql import SparkSession

    import rougekit
    import rougekit.spark

    work = args.workdir or Path(tempfile.mkdtemp(prefix="rougekit-spark-"))
    folder = work / f"pairs-{args.pairs}"
    if not folder.exists():
        write_parquet(folder, args.pairs, args.partitions)
    spark = (
        SparkSession.builder.master("local[2]")
        .config("spark.ui.enabled", "false")
        .config("spark.driver.memory", "4g")
        .config("spark.sql.execution.arrow.pyspark.enabled", "true")
        .getOrCreate()
    )
    warm = spark.createDataFrame([("a b c", "a b d")] * 4, "prediction string, reference string")
    rougekit.spark.score(warm, measures=MEASURES)
    df = spark.read.parquet(str(folder))
    load_before = os.getloadavg()[0]
    frame = df.toPandas()  # in the DataFrame's order (Spark packs the files into partitions largest first)
    cands, refs = frame["prediction"].tolist(), frame["reference"].tolist()
    del frame
    rougekit.score(cands[:100], refs[:100], measures=MEASURES, bootstrap=None)
    spark_times, local_times = [], []
    for _ in range(args.repeat):  # alternating, so that a change of load falls on both sides
        t0 = time.perf_counter()
        on_spark = rougekit.spark.score(df, measures=MEASURES)
        spark_times.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        local = rougekit.score(cands, refs, measures=MEASURES)
        local_times.append(time.perf_counter() - t0)
        assert np.array_equal(on_spark.data, local.data, equal_nan=True)  # every pair, bit for bit
        assert on_spark.to_dict() == local.to_dict()
    spark_seconds, local_seconds = min(spark_times), min(local_times)
    print(
        f"pairs {args.pairs:,}, {args.partitions} Parquet files read as {df.rdd.getNumPartitions()} Spark partitions, "
        f"Spark {spark.version} local[2], load {load_before:.2f} before, {os.getloadavg()[0]:.2f} after"
    )
    print(f"rougekit.spark.score: {', '.join(f'{t:.2f}' for t in spark_times)} s")
    print(f"rougekit.score (lists in memory): {', '.join(f'{t:.2f}' for t in local_times)} s")
    print(f"spark / local (best of {args.repeat} each): {spark_seconds / local_seconds:.2f}x (target: within 2x)")
    spark.stop()


if __name__ == "__main__":
    main()
