#!/usr/bin/env python3
"""Issue 29's correctness targets for ``process.dedup`` at scale, checked without its prefix index.

    python benchmarks/bench_dedup_check.py --n 1000000 [--prefix 100000] [--sample 200] [--cache DIR]

On ``dedup_corpus.near_duplicate_corpus(n, seed)`` (see bench_dedup.py) at 0.7:

1. **Every text of the prefix** against the brute-force loop: text j is kept iff its rouge-score
   rougeL F against every text kept before it is at most the threshold, and a dropped text's match
   is the kept text with the best F (the first on ties). Each j is checked against the kept texts
   before it by the full matrix (``process.blocks.cdist_block``: every pair scored, no index, no
   bound but the length one; its F is rouge-score's, held to it in tests/test_process.py). As each
   decision depends only on those before it, all of them agreeing is the brute-force loop's outcome.
2. **A seeded random sample of later texts** against rouge-score itself: rouge-score's tokenizer on
   every text, then for each sampled j its token-bag overlap with every kept text before it (F is at
   most 2 overlap / (m + n): a kept text below that bound, minus a margin, cannot pass), and
   ``rouge_score.rouge_scorer._score_lcs`` on every other kept text. The decision, the match and
   the score (to the bit) must be rouge-score's.

Prints both results, the pairs scored and the times; exits 1 on any difference.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

import numpy as np  # noqa: E402
from dedup_corpus import near_duplicate_corpus  # noqa: E402

from rougekit import process  # noqa: E402
from rougekit.process.blocks import cdist_block, workers_count  # noqa: E402
from rougekit.process.encode import Encoder  # noqa: E402

BLOCK = 512  # new texts scored at once against the kept texts before them


def decisions(result, n: int) -> tuple[np.ndarray, np.ndarray]:
    """(match, score) of every text: match -1 for a kept text."""
    match = np.full(n, -1, dtype=np.int64)
    score = np.zeros(n, dtype=np.float64)
    for d in result.dropped:
        match[d.index], score[d.index] = d.match, d.score
    return match, score


def check_prefix(texts: list[str], match: np.ndarray, score: np.ndarray, prefix: int, t: float) -> tuple[int, int]:
    """(texts that differ, pairs scored) of the full-matrix check of the first ``prefix`` texts."""
    enc = Encoder("rougeL")
    encoded = enc.encode(texts[:prefix], "texts")
    kept = np.flatnonzero(match[:prefix] < 0)
    kept_texts = encoded.take(kept)  # in input order: those before j1 are its first ones
    workers = workers_count(-1)
    wrong = pairs = 0
    for j0 in range(0, prefix, BLOCK):
        j1 = min(prefix, j0 + BLOCK)
        count = int(np.searchsorted(kept, j1))
        before = kept[:count]
        if not count:
            wrong += int((match[j0:j1] >= 0).sum())
            continue
        f = cdist_block(kept_texts.slice(0, count), encoded.slice(j0, j1), stat="f", score_cutoff=t, workers=workers)
        pairs += f.size
        f[before[:, None] >= np.arange(j0, j1)[None, :]] = 0.0  # only the kept texts before each new one
        for k, j in enumerate(range(j0, j1)):
            column = f[:, k]
            best = int(np.argmax(column))  # the first on ties
            dropped = column[best] > t
            if dropped != (match[j] >= 0) or (dropped and (before[best] != match[j] or column[best] != score[j])):
                wrong += 1
    return wrong, pairs


def check_sample(texts: list[str], match: np.ndarray, score: np.ndarray, picks: list[int], t: float):
    """(texts that differ, pairs rouge-score scored) for the sampled texts, against rouge-score."""
    from rouge_score import rouge_scorer

    tokenize = rouge_scorer.RougeScorer(["rougeL"], use_stemmer=False)._tokenizer.tokenize
    last = max(picks) + 1
    vocab: dict[str, int] = {}
    rows, cols, counts, lengths, tokens = [], [], [], np.zeros(last, dtype=np.int64), []
    for i in range(last):
        toks = tokenize(texts[i])
        tokens.append(toks)
        lengths[i] = len(toks)
        bag: dict[int, int] = {}
        for tok in toks:
            key = vocab.setdefault(tok, len(vocab))
            bag[key] = bag.get(key, 0) + 1
        rows.extend([i] * len(bag))
        cols.extend(bag)
        counts.extend(bag.values())
    from scipy.sparse import csc_matrix

    bags = csc_matrix((np.array(counts, np.int32), (np.array(rows), np.array(cols))), shape=(last, len(vocab)))
    kept = match[:last] < 0
    wrong = scored = 0
    for j in picks:
        overlap = np.zeros(j, dtype=np.int64)
        mine: dict[int, int] = {}
        for tok in tokens[j]:
            mine[vocab[tok]] = mine.get(vocab[tok], 0) + 1
        for key, c in mine.items():
            lo, hi = bags.indptr[key], bags.indptr[key + 1]
            who, have = bags.indices[lo:hi], bags.data[lo:hi]
            earlier = who < j
            overlap[who[earlier]] += np.minimum(have[earlier], c)
        total = lengths[:j] + lengths[j]
        bound = np.divide(2.0 * overlap, total, out=np.zeros(j), where=total > 0)
        candidates = np.flatnonzero(kept[:j] & (bound > t - 1e-9))
        best, at = -1.0, -1
        for i in candidates.tolist():
            f = rouge_scorer._score_lcs(tokens[j], tokens[i]).fmeasure
            scored += 1
            if f > best:
                best, at = f, i
        dropped = best > t
        if dropped != (match[j] >= 0) or (dropped and (at != match[j] or best != score[j])):
            wrong += 1
    return wrong, scored


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=int, default=1_000_000, help="texts")
    ap.add_argument("--prefix", type=int, default=100_000, help="texts checked by the full matrix")
    ap.add_argument("--sample", type=int, default=200, help="later texts checked against rouge-score")
    ap.add_argument("--threshold", type=float, default=0.7)
    ap.add_argument("--seed", type=int, default=0, help="the corpus's seed (the sample's is seed + 1)")
    ap.add_argument("--cache", help="a directory keeping the corpus made (as bench_dedup.py's --cache)")
    args = ap.parse_args(argv)
    cached = Path(args.cache) / f"near-{args.n}-{args.seed}.json" if args.cache else None
    t0 = time.perf_counter()
    if cached is not None and cached.exists():
        texts = json.loads(cached.read_text(encoding="utf-8"))
    else:
        texts = near_duplicate_corpus(args.n, args.seed)
        if cached is not None:
            cached.parent.mkdir(parents=True, exist_ok=True)
            cached.write_text(json.dumps(texts), encoding="utf-8")
    print(f"corpus: {len(texts):,} texts in {time.perf_counter() - t0:.1f} s", flush=True)
    t0 = time.perf_counter()
    result = process.dedup(texts, threshold=args.threshold)
    print(f"process.dedup: kept {len(result.kept):,} in {time.perf_counter() - t0:.1f} s", flush=True)
    match, score = decisions(result, len(texts))
    prefix = min(args.prefix, len(texts))
    t0 = time.perf_counter()
    wrong_prefix, pairs = check_prefix(texts, match, score, prefix, args.threshold)
    print(
        f"prefix: the first {prefix:,} texts against the full matrix ({pairs:,} pairs): "
        f"{'same decisions' if not wrong_prefix else f'{wrong_prefix} DIFFERENT'} ({time.perf_counter() - t0:.1f} s)",
        flush=True,
    )
    later = range(prefix, len(texts))
    picks = sorted(random.Random(args.seed + 1).sample(later, min(args.sample, len(later))))
    wrong_sample = 0
    if picks:
        t0 = time.perf_counter()
        wrong_sample, scored = check_sample(texts, match, score, picks, args.threshold)
        print(
            f"sample: {len(picks)} texts after the prefix (from {picks[0]:,} to {picks[-1]:,}) against rouge-score "
            f"({scored:,} pairs past the bag-overlap bound): "
            f"{'same decisions, matches and scores' if not wrong_sample else f'{wrong_sample} DIFFERENT'} "
            f"({time.perf_counter() - t0:.1f} s)",
            flush=True,
        )
    return 1 if wrong_prefix or wrong_sample else 0


if __name__ == "__main__":
    raise SystemExit(main())
