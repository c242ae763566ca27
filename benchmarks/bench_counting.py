"""The per-pair counting kernels alone (issue 28): CPU ns a pair of the id path on the Parquet pairs.

    PYTHONPATH=src python benchmarks/bench_counting.py --trees /tmp/base20,. [--pairs 100000] [--rounds 3]

The first ``--pairs`` rows of ``--parquet`` (default ``/tmp/pq28h/pairs-1000000.parquet``: ~60 tokens a
summary, one reference a pair) are tokenized once by rougekit's default tokenizer (``process.Encoder``,
no stemming) to int32 id arrays, cached in ``--cache``; the tokenizer is then out of the timing. Each
tree (``--trees``, comma-separated roots holding ``src/rougekit`` with its compiled extension) runs in
its own child process, the trees alternated round by round (A B A B); a child times
``rougekit.score(c, r, measures=..., bootstrap=None, jobs=1)`` on the id arrays for each measure set
(``--sets``), CPU of the calling thread (``time.thread_time``; jobs=1 scores on it), the median of
``--repeat`` calls after one warm-up, and checks every R/P/F of each set against the first tree's
(bit for bit). Prints ns a pair and the load average with each figure.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

SETS = {
    "1": ["ROUGE-1"],
    "2": ["ROUGE-2"],
    "L": ["ROUGE-L"],
    "12L": ["ROUGE-1", "ROUGE-2", "ROUGE-L"],
}


def _prepare(parquet: str, pairs: int, cache: Path) -> Path:
    if cache.exists():
        return cache
    import numpy as np
    import pyarrow.parquet as pq

    from rougekit.process.encode import Encoder

    table = pq.ParquetFile(parquet).read_row_groups([0]).slice(0, pairs)
    enc = Encoder("ROUGE-1")
    cand = enc.encode(table.column("prediction").to_pylist(), "candidates")
    ref = enc.encode(table.column("reference").to_pylist(), "references")
    tmp = cache.with_suffix(".tmp.npz")
    np.savez(tmp, cids=cand.ids, coff=cand.off, rids=ref.ids, roff=ref.off)
    os.replace(tmp, cache)
    return cache


def _child(cache: str, sets: list[str], repeat: int) -> None:
    import time

    import numpy as np

    import rougekit

    z = np.load(cache)
    cids, coff, rids, roff = z["cids"], z["coff"], z["rids"], z["roff"]
    cand = [cids[coff[i] : coff[i + 1]] for i in range(len(coff) - 1)]
    ref = [rids[roff[i] : roff[i + 1]] for i in range(len(roff) - 1)]
    out = {}
    for name in sets:
        ms = SETS[name]
        res = rougekit.score(cand, ref, measures=ms, bootstrap=None, jobs=1)  # warm-up
        h = hashlib.sha256()
        for m in ms:
            for f in ("recall", "precision", "f"):
                h.update(np.ascontiguousarray(res.values(m, f), dtype=np.float64).tobytes())
        times = []
        for _ in range(repeat):
            t0 = time.thread_time()
            rougekit.score(cand, ref, measures=ms, bootstrap=None, jobs=1)
            times.append(time.thread_time() - t0)
        out[name] = {"ns": statistics.median(times) / len(cand) * 1e9, "hash": h.hexdigest()[:16]}
    print(json.dumps(out))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--trees", default=".", help="comma-separated tree roots (each with src/rougekit)")
    ap.add_argument("--parquet", default="/tmp/pq28h/pairs-1000000.parquet")
    ap.add_argument("--pairs", type=int, default=100_000)
    ap.add_argument("--cache", default=None, help="the ids' .npz (default /tmp/bench_counting_<pairs>.npz)")
    ap.add_argument("--sets", default="12L,1,2,L", help="measure sets: " + ", ".join(SETS))
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    sets = args.sets.split(",")
    cache = Path(args.cache or f"/tmp/bench_counting_{args.pairs}.npz")
    if args.child:
        _child(str(cache), sets, args.repeat)
        return
    _prepare(args.parquet, args.pairs, cache)
    trees = [str(Path(t).resolve()) for t in args.trees.split(",")]
    first_hash: dict[str, str] = {}
    print(f"{args.pairs:,} pairs, CPU ns a pair (median of {args.repeat}, jobs=1, thread_time); rounds alternate trees")
    for rnd in range(args.rounds):
        for tree in trees:
            env = dict(os.environ, PYTHONPATH=os.path.join(tree, "src"))
            cmd = [sys.executable, __file__, "--child", "--cache", str(cache), "--sets", args.sets]
            cmd += ["--pairs", str(args.pairs), "--repeat", str(args.repeat)]
            res = json.loads(subprocess.run(cmd, env=env, check=True, capture_output=True, text=True).stdout)
            load = os.getloadavg()[0]
            cells = []
            for name in sets:
                same = first_hash.setdefault(name, res[name]["hash"]) == res[name]["hash"]
                cells.append(f"{name} {res[name]['ns']:7.0f}{'' if same else ' DIFFERS'}")
            print(f"round {rnd + 1} {Path(tree).name:>10}: " + "  ".join(cells) + f"   load {load:.2f}", flush=True)


if __name__ == "__main__":
    main()
