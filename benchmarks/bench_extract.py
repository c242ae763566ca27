"""`rougekit extract` with a score cutoff (issue 29 item 4): queries against many choices, every pair
scored (the full matrix) or only the pairs the prefix index lets through (process.nearest).

    python benchmarks/bench_extract.py [--queries 2000] [--choices 200000] [--cutoff 0.7] [--limit 5]

The texts are ``dedup_corpus.near_duplicate_corpus`` (real CNN/DM sentences, splices, edits and
repeats; ROUGEKIT_SHARED must hold the shared data): the choices are its first ``--choices`` texts,
the queries ``--queries`` texts drawn (seeded) from the rest. Prints the CPU and wall time of the
matches (the texts already tokenized; rouge-score's rougeL F, no stemming) both ways, and whether
the two give the same matches (choice indices and F, every query).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from dedup_corpus import near_duplicate_corpus  # noqa: E402

from rougekit.process import nearest  # noqa: E402
from rougekit.process.blocks import cdist_block, workers_count  # noqa: E402
from rougekit.process.encode import Encoder  # noqa: E402
from rougekit.process.topk import row_order  # noqa: E402


def timed(job):
    wall, cpu = time.perf_counter(), time.process_time()
    out = job()
    return out, time.perf_counter() - wall, time.process_time() - cpu


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--queries", type=int, default=2000)
    ap.add_argument("--choices", type=int, default=200_000)
    ap.add_argument("--cutoff", type=float, default=0.7)
    ap.add_argument("--limit", type=int, default=5)
    ap.add_argument("--block", type=int, default=256, help="queries per full-matrix block (as the command)")
    args = ap.parse_args(argv)
    corpus = near_duplicate_corpus(args.choices + 5 * args.queries, seed=3)
    choices = corpus[: args.choices]
    queries = random.Random(4).sample(corpus[args.choices :], args.queries)
    enc = Encoder("rougeL")
    c, q = enc.encode(choices, "choices"), enc.encode(queries, "queries")

    def full():
        out = []
        for s in range(0, len(q), args.block):
            block = q.slice(s, min(len(q), s + args.block))
            scores = cdist_block(block, c, stat="f", score_cutoff=args.cutoff, workers=workers_count(-1))
            for row in scores:
                order = row_order(row, args.limit, args.cutoff)
                out.append((order, row[order]))
        return out

    def indexed():
        near = nearest.Nearest(q, c, args.cutoff, workers=-1)
        return near.best(0, len(q), args.limit)

    a, wall_a, cpu_a = timed(full)
    b, wall_b, cpu_b = timed(indexed)
    same = all(x[0].tolist() == y[0].tolist() and x[1].tolist() == y[1].tolist() for x, y in zip(a, b))
    found = sum(len(x[0]) for x in b)
    shape = f"{args.queries:,} queries x {args.choices:,} choices, cutoff {args.cutoff}, limit {args.limit}"
    print(f"{shape}: {found:,} matches")
    print(f"full matrix: {wall_a:8.2f} s wall {cpu_a:8.2f} s CPU")
    print(f"prefix index: {wall_b:7.2f} s wall {cpu_b:8.2f} s CPU ({cpu_a / max(cpu_b, 1e-9):.1f}x less CPU)")
    print(f"same matches: {same}")
    return 0 if same else 1


if __name__ == "__main__":
    raise SystemExit(main())
