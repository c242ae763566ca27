#!/usr/bin/env python3
"""Benchmark of rougekit.spark.score (issue 28): a local Spark session (local[2]) against rougekit.score.

    python benchmarks/bench_spark.py [--pairs 1000000] [--partitions 8] [--workdir DIR]

The pairs (synthetic CNN/DM-sized summaries, one reference each: benchmarks/corpora.py) are written
once to ``--partitions`` Parquet files. Timed, each in the same process after a small warm-up:

* ``rougekit.spark.score(spark.read.parquet(DIR), measures=ROUGE-1/2/L)``: the executors' Python
  workers read their Arrow batches and count; the driver gathers the statistics and merges them
  (the bootstrap runs only when its numbers are read, so it is not in the time);
* ``rougekit.score`` on the same pairs already in memory as Python lists (every core).

The target (issue 28) is Spark within 2x of rougekit.score. Both must give the same corpus numbers.
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
    args = parser.parse_args()

    import pyarrow.parquet as pq
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
    t0 = time.perf_counter()
    on_spark = rougekit.spark.score(df, measures=MEASURES)
    spark_seconds = time.perf_counter() - t0

    table = pq.read_table(folder)
    cands, refs = table.column("prediction").to_pylist(), table.column("reference").to_pylist()
    rougekit.score(cands[:100], refs[:100], measures=MEASURES, bootstrap=None)
    t0 = time.perf_counter()
    local = rougekit.score(cands, refs, measures=MEASURES)
    local_seconds = time.perf_counter() - t0
    for m in MEASURES:
        assert on_spark.to_dict()[m]["f"] == local.to_dict()[m]["f"], m
    load = os.getloadavg()[0]
    print(f"pairs {args.pairs:,}, {args.partitions} Parquet files, Spark {spark.version} local[2], load {load:.2f}")
    print(f"rougekit.spark.score: {spark_seconds:.2f} s; rougekit.score (lists in memory): {local_seconds:.2f} s")
    print(f"spark / local: {spark_seconds / local_seconds:.2f}x (target: within 2x)")
    spark.stop()


if __name__ == "__main__":
    main()
