#!/usr/bin/env python3
"""Benchmarks of rougekit.process (issue 15): dedup and cdist against rouge-score-rs on the same pairs.

    python benchmarks/bench_process.py [--dedup 100000] [--cdist 1000x100000] [--sample 200000]

(i)  dedup of N distinct English sentences (10-40 words) at threshold 0.7 with rouge-score's rougeL
     (no stemming). rouge-score-rs has no dedup: the brute-force greedy loop scores each new sentence
     against every sentence kept before it, so its time is estimated as (pairs that loop scores,
     counted from rougekit's decisions) x (rouge-score-rs's time per pair, measured with score_batch
     on all cores over a seeded sample of those pairs).
(ii) cdist of Q x C sentences, rougeL F: rougekit.process.cdist (float32, all cores) against
     rouge-score-rs score_batch on a sample of the same pairs, scaled to Q x C.

Sentences: every distinct ASCII sentence of 10-40 words in the shared data's summaries and
source articles (SummEval, REALSumm, Newsroom, DialSummEval; about 37,000), then seeded splices
(the first words of one real sentence and the last words of another, 10-40 words) up to N, all
distinct, shuffled with the seed. Run in-process; the time of each rougekit call includes its
tokenization. Measure on a quiet machine: the load average is printed with the numbers.
"""

from __future__ import annotations

import argparse
import glob
import os
import random
import re
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
# the shared data folder: $ROUGEKIT_SHARED/data, else ../shared/data beside the checkout
SHARED = Path(os.environ.get("ROUGEKIT_SHARED") or HERE.parents[1] / "shared") / "data"


def real_sentences(base: Path = SHARED) -> list[str]:
    """Distinct ASCII sentences of 10-40 words from the shared data files (in file order)."""
    found: dict[str, None] = {}
    for path in sorted(glob.glob(str(base / "**" / "*"), recursive=True)):
        if not (os.path.isfile(path) and path.endswith((".txt", ".jsonl")) and os.path.getsize(path) > 100_000):
            continue
        text = Path(path).read_text(encoding="utf-8", errors="replace")
        for s in re.split(r"(?<=[.!?])\s+|\n|\\n", text):
            s = s.strip()
            if 10 <= len(s.split()) <= 40 and s.isascii():
                found.setdefault(s, None)
    return list(found)


def sentences(n: int, seed: int = 0) -> list[str]:
    """``n`` distinct sentences: the real ones, then seeded splices of two real ones, shuffled."""
    real = real_sentences()
    if not real:
        raise SystemExit(f"no sentences found under {SHARED} (the shared data folder)")
    rng = random.Random(seed)
    out = dict.fromkeys(real[:n])
    words = [s.split() for s in real]
    while len(out) < n:
        a, b = rng.choice(words), rng.choice(words)
        s = " ".join(a[: rng.randint(5, len(a) - 3)] + b[rng.randint(3, len(b) - 5) :])
        if 10 <= len(s.split()) <= 40:
            out.setdefault(s, None)
    texts = list(out)
    rng.shuffle(texts)
    return texts


def rs_seconds_per_pair(targets: list[str], predictions: list[str]) -> float:
    """rouge-score-rs score_batch (rougeL, all cores) time per pair."""
    from rouge_score_rs import rouge_scorer

    scorer = rouge_scorer.RougeScorer(["rougeL"])
    scorer.score_batch(targets[:100], predictions[:100])  # warm-up
    t0 = time.perf_counter()
    scorer.score_batch(targets, predictions)
    return (time.perf_counter() - t0) / len(targets)


def load() -> str:
    return "load average %.2f, %.2f, %.2f" % os.getloadavg()


def bench_dedup(n: int, sample: int, seed: int = 0) -> str:
    from rougekit import process

    texts = sentences(n, seed)
    before = load()
    t0 = time.perf_counter()
    result = process.dedup(texts, threshold=0.7)
    ours = time.perf_counter() - t0
    kept = np.zeros(n, dtype=bool)
    kept[result.kept] = True
    kept_before = np.concatenate([[0], np.cumsum(kept)[:-1]])  # texts kept before each text
    pairs = int(kept_before.sum())
    rng = np.random.default_rng(seed)
    kept_idx = np.flatnonzero(kept)
    news = rng.choice(np.arange(1, n), size=sample, p=kept_before[1:] / pairs)  # a pair drawn uniformly
    olds = [int(kept_idx[rng.integers(0, kept_before[i])]) for i in news.tolist()]
    per_pair = rs_seconds_per_pair([texts[i] for i in news.tolist()], [texts[k] for k in olds])
    theirs = per_pair * pairs
    return "\n".join(
        [
            f"(i) dedup of {n:,} sentences at 0.7 (rougeL F, no stemming), {os.cpu_count()} cores; {before}",
            f"  rougekit.process.dedup: {ours:.1f} s (kept {len(result.kept):,}, dropped {len(result.dropped):,}; "
            f"LCS computed for {result.lcs_computed:,} pairs)",
            f"  brute-force greedy loop: {pairs:,} pairs; rouge-score-rs score_batch {per_pair * 1e9:.0f} ns/pair "
            f"(sample of {sample:,}) -> {theirs:,.0f} s estimated",
            f"  ratio: {theirs / ours:,.0f}x (target >= 500x, and under 200 s); after: {load()}",
        ]
    )


def bench_cdist(nq: int, nc: int, sample: int, seed: int = 1) -> str:
    from rougekit import process

    texts = sentences(nq + nc, seed)
    queries, choices = texts[:nq], texts[nq:]
    before = load()
    t0 = time.perf_counter()
    matrix = process.cdist(queries, choices, measure="rougeL", workers=-1, dtype=np.float32)
    ours = time.perf_counter() - t0
    rng = np.random.default_rng(seed)
    qi, ci = rng.integers(0, nq, sample).tolist(), rng.integers(0, nc, sample).tolist()
    per_pair = rs_seconds_per_pair([choices[j] for j in ci], [queries[i] for i in qi])
    theirs = per_pair * nq * nc
    return "\n".join(
        [
            f"(ii) cdist {nq:,} x {nc:,} sentences, rougeL F (float32), {os.cpu_count()} cores; {before}",
            f"  rougekit.process.cdist: {ours:.1f} s ({nq * nc / ours / 1e6:.1f} M pairs/s, mean F "
            f"{float(matrix.mean()):.4f})",
            f"  rouge-score-rs score_batch: {per_pair * 1e9:.0f} ns/pair (sample of {sample:,}) -> {theirs:,.0f} s "
            "estimated for the same pairs",
            f"  ratio: {theirs / ours:.1f}x (target >= 5x); after: {load()}",
        ]
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--dedup", type=int, default=100_000, help="sentences to deduplicate (0: skip)")
    ap.add_argument("--cdist", default="1000x100000", help="QxC sentences for cdist ('0': skip)")
    ap.add_argument("--sample", type=int, default=200_000, help="pairs timed with rouge-score-rs")
    args = ap.parse_args(argv)
    if args.dedup:
        print(bench_dedup(args.dedup, args.sample), flush=True)
    if args.cdist != "0":
        nq, nc = (int(x) for x in args.cdist.lower().split("x"))
        print(bench_cdist(nq, nc, args.sample), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
