#!/usr/bin/env python3
"""CPU time of ``rougekit.score`` on one column of candidates and one of references, per container (issue 28).

    PYTHONPATH=src python benchmarks/bench_columns.py [--pairs 200000] [--rounds 2]

The pairs are the synthetic CNN/DM-sized summaries of scenario (e) (benchmarks/corpora.py), one
reference each. Each container (a Python list, a pyarrow array, a polars Series, a pandas Series of
``str``/``string[pyarrow]`` dtype, a ``datasets`` column ``ds[...]`` and ``ds.with_format("arrow")[...]``,
a numpy StringDType array) holds the same texts; ``rougekit.score(c, r, measures=ROUGE-1/2/L,
bootstrap=None)`` is timed with ``time.process_time`` (CPU of all threads), rounds alternated.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import corpora  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--pairs", type=int, default=200_000)
    ap.add_argument("--rounds", type=int, default=2)
    args = ap.parse_args()
    cands: list[str] = []
    refs: list[str] = []
    for part in corpora.iter_synthetic(args.pairs, 3):
        cands += [c.replace("\n", " ") for c in part.candidates]
        refs += [r[0].replace("\n", " ") for r in part.references]
    import datasets
    import numpy as np
    import pandas as pd
    import polars as pl
    import pyarrow as pa

    import rougekit

    ds = datasets.Dataset.from_dict({"prediction": cands, "reference": refs})
    dsa = ds.with_format("arrow")
    sdt = np.dtypes.StringDType()
    containers = {
        "list of str": lambda: (cands, refs),
        "pyarrow string array": lambda: (pa.array(cands), pa.array(refs)),
        "polars Series": lambda: (pl.Series(cands), pl.Series(refs)),
        "pandas Series (str[pyarrow])": lambda: (
            pd.Series(cands, dtype="string[pyarrow]"),
            pd.Series(refs, dtype="string[pyarrow]"),
        ),
        'datasets ds["col"]': lambda: (ds["prediction"], ds["reference"]),
        'datasets with_format("arrow")': lambda: (dsa["prediction"], dsa["reference"]),
        "numpy StringDType": lambda: (np.array(cands, dtype=sdt), np.array(refs, dtype=sdt)),
    }
    measures = ["ROUGE-1", "ROUGE-2", "ROUGE-L"]
    times: dict[str, list[float]] = {k: [] for k in containers}
    for _ in range(args.rounds):
        for name, make in containers.items():
            c, r = make()
            t = time.process_time()
            rougekit.score(c, r, measures=measures, bootstrap=None)
            times[name].append(time.process_time() - t)
    load = os.getloadavg()[0]
    print(f"{args.pairs} pairs, ROUGE-1/2/L, bootstrap None, load {load:.1f}; CPU s (min of {args.rounds})")
    for name, ts in times.items():
        print(f"| {name} | {min(ts):.2f} |")


if __name__ == "__main__":
    main()
