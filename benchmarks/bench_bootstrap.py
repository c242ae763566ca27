"""ns per draw of the script's bootstrap kernel (issue 28): the scalar loop and the eight-resample lanes.

The values are F scores of ``--pairs`` synthetic pairs, ratios of small counts like a real run's
(a few thousand distinct values a column): candidate and reference lengths 5-60 tokens, hits up
to the shorter one. Both kernels run on the same codes in one process, alternating (A B A B),
one thread; the figure is CPU time (``time.process_time``) per draw, with the load average.

    PYTHONPATH=src python benchmarks/bench_bootstrap.py --pairs 1000000 --resamples 64 --rounds 3
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np

from rougekit._core import _bootstrap as compiled


def f_values(pairs: int, columns: int, seed: int = 0) -> np.ndarray:
    """``pairs`` x ``columns`` F values 2h / (c + r) of small counts (h hits of c and r tokens)."""
    rng = np.random.default_rng(seed)
    out = np.empty((pairs, columns))
    for j in range(columns):
        c = rng.integers(5, 61, pairs)
        r = rng.integers(5, 61, pairs)
        h = np.floor(rng.random(pairs) * (np.minimum(c, r) + 1))
        out[:, j] = 2 * h / (c + r)
    return out


def per_draw(codes: list, pairs: int, resamples: int, lanes: bool, ahead: int = 0) -> tuple[float, list[np.ndarray]]:
    """CPU ns per draw of one run over every group, and the sums."""
    compiled._lanes(lanes, ahead)
    start = time.process_time()
    sums = [np.frombuffer(compiled.resample_sums_columns(*code, resamples, 0)) for _, *code in codes]
    return (time.process_time() - start) * 1e9 / (pairs * resamples), sums


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=1_000_000)
    parser.add_argument("--columns", type=int, default=3, help="3: the F of ROUGE-1/2/L (the text report)")
    parser.add_argument("--resamples", type=int, default=64)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--ahead", default="6", help="lanes: steps of 8 draws prefetched ahead, e.g. 4,8,16")
    parser.add_argument("--values", help="a .npy of pairs x columns values (e.g. the F columns of a real run)")
    args = parser.parse_args()
    values = np.ascontiguousarray(np.load(args.values)) if args.values else f_values(args.pairs, args.columns)
    args.pairs, args.columns = values.shape
    codes = compiled.encode_columns(values)
    distinct = [len(np.unique(values[:, j])) for j in range(args.columns)]
    print(
        f"{args.pairs} pairs x {args.columns} columns ({distinct} distinct), {len(codes)} group(s), "
        f"{args.resamples} resamples, lanes (AVX-512) available: {compiled.LANES}"
    )
    for k in range(args.rounds):
        kernels = [("scalar", False, 0)] + [
            (f"lanes{a}", True, int(a)) for a in args.ahead.split(",") if compiled.LANES
        ]
        for name, lanes, ahead in kernels:
            ns, sums = per_draw(codes, args.pairs, args.resamples, lanes, ahead)
            if k == 0 and name == "scalar":
                reference = sums
            same = all(np.array_equal(a.view(np.uint64), b.view(np.uint64)) for a, b in zip(sums, reference))
            print(
                f"round {k} {name:8s} {ns:6.3f} ns/draw (CPU, 1 thread) same bits: {same} load {os.getloadavg()[0]:.2f}"
            )
    compiled._lanes(compiled.LANES, compiled._AHEAD)


if __name__ == "__main__":
    main()
