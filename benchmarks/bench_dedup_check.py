#!/usr/bin/env python3
"""Issue 29's check: ``process.dedup``'s decisions against rouge-score itself on a random sample.

    python benchmarks/bench_dedup_check.py --n 1000000 --sample 200 --after 100000 [--cache DIR]

Runs ``process.dedup(texts, threshold=0.7)`` on the near corpus of ``bench_dedup.py`` (the same
``--cache``), then draws ``--sample`` texts j > ``--after`` (``random.Random(seed)``) and, for each,
decides it again with the real ``rouge_score`` package against every text rougekit kept before j:
kept iff no kept text scores above the threshold; else the best-scoring kept text (the first on
ties) and its F, compared with rougekit's match and score (exact float equality).

Scoring every (j, kept i < j) pair with rouge-score would take days at 1,000,000 texts, so a pair
is scored with rouge-score only when an upper bound computed without rougekit lets it pass: the
LCS of two token sequences is at most their multiset (bag-of-words) overlap, so rougeL's F is at
most 2 * overlap / (n + m). The overlap is counted here in numpy on rouge-score's own tokens
(``scorer._tokenizer``); a pair whose bound is at most the threshold minus 1e-9 cannot score above
the threshold, and cannot be a dropped text's best match. Every other pair goes to
``RougeScorer(["rougeL"]).score(new, kept)`` (the new text as the target, as the rule has it).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from dedup_corpus import near_duplicate_corpus  # noqa: E402

MARGIN = 1e-9


def load(n: int, seed: int, cache: str | None) -> list[str]:
    cached = Path(cache) / f"near-{n}-{seed}.json" if cache else None
    if cached is not None and cached.exists():
        return json.loads(cached.read_text(encoding="utf-8"))
    texts = near_duplicate_corpus(n, seed)
    if cached is not None:
        cached.parent.mkdir(parents=True, exist_ok=True)
        cached.write_text(json.dumps(texts), encoding="utf-8")
    return texts


def bag_index(toks: list[list[str]], rows: np.ndarray):
    """Token -> (row, count) postings of the texts ``rows`` (numpy arrays, sorted by token)."""
    vocab: dict[str, int] = {}
    tid, doc, cnt = [], [], []
    for r in rows.tolist():
        seen: dict[int, int] = {}
        for w in toks[r]:
            a = vocab.setdefault(w, len(vocab))
            seen[a] = seen.get(a, 0) + 1
        tid.extend(seen.keys())
        cnt.extend(seen.values())
        doc.extend([r] * len(seen))
    tid_a = np.asarray(tid, dtype=np.int64)
    order = np.argsort(tid_a, kind="stable")
    starts = np.searchsorted(tid_a[order], np.arange(len(vocab) + 1))
    return vocab, starts, np.asarray(doc, dtype=np.int64)[order], np.asarray(cnt, dtype=np.int32)[order]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=int, default=1_000_000)
    ap.add_argument("--sample", type=int, default=200)
    ap.add_argument("--after", type=int, default=100_000, help="sampled texts have an index above this")
    ap.add_argument("--threshold", type=float, default=0.7)
    ap.add_argument("--seed", type=int, default=0, help="the corpus's seed")
    ap.add_argument("--sample-seed", type=int, default=29)
    ap.add_argument("--cache", help="a directory keeping the corpus (as bench_dedup.py --cache)")
    args = ap.parse_args(argv)

    from rouge_score import rouge_scorer

    from rougekit import process

    t0 = time.perf_counter()
    texts = load(args.n, args.seed, args.cache)
    print(f"corpus: {len(texts):,} texts in {time.perf_counter() - t0:.1f} s", flush=True)
    t0, c0 = time.perf_counter(), time.process_time()
    result = process.dedup(texts, threshold=args.threshold)
    print(
        f"process.dedup: kept {len(result.kept):,} in {time.perf_counter() - t0:.1f} s "
        f"({time.process_time() - c0:.1f} s CPU)",
        flush=True,
    )
    kept_mask = np.zeros(len(texts), dtype=bool)
    kept_mask[result.kept] = True
    dropped = {d.index: (d.match, d.score) for d in result.dropped}

    rng = random.Random(args.sample_seed)
    sample = sorted(rng.sample(range(args.after + 1, len(texts)), args.sample))
    t0 = time.perf_counter()
    scorer = rouge_scorer.RougeScorer(["rougeL"], use_stemmer=False)
    last = sample[-1]
    kept_rows = np.flatnonzero(kept_mask[:last])
    toks: dict[int, list[str]] = {}
    for r in kept_rows.tolist() + sample:
        toks[r] = scorer._tokenizer.tokenize(texts[r])
    lens = np.zeros(last + 1, dtype=np.int64)
    for r, tk in toks.items():
        lens[r] = len(tk)
    vocab, starts, pdoc, pcnt = bag_index(toks, kept_rows)
    print(f"rouge-score tokens and the bag index of {len(kept_rows):,} kept texts: {time.perf_counter() - t0:.1f} s")

    t0 = time.perf_counter()
    acc = np.zeros(last + 1, dtype=np.int32)
    scored = mismatches = 0
    n_kept = n_dropped = 0
    for j in sample:
        acc[:] = 0
        counts: dict[str, int] = {}
        for w in toks[j]:
            counts[w] = counts.get(w, 0) + 1
        for w, c in counts.items():
            a = vocab.get(w)
            if a is None:
                continue
            lo, hi = starts[a], starts[a + 1]
            np.add.at(acc, pdoc[lo:hi], np.minimum(pcnt[lo:hi], c))
        n = len(toks[j])
        denom = lens[:j] + n
        bound = np.where(denom > 0, 2.0 * acc[:j] / np.maximum(denom, 1), 0.0)
        survivors = np.flatnonzero(kept_mask[:j] & (bound > args.threshold - MARGIN))
        best, match = -1.0, -1
        for i in survivors.tolist():
            f = scorer.score(texts[j], texts[i])["rougeL"].fmeasure
            scored += 1
            if f > best:  # survivors ascend: the first kept text wins ties
                best, match = f, i
        expect = None if best <= args.threshold or match < 0 else (match, best)
        got = dropped.get(j)
        if got is None and not kept_mask[j]:
            got = ("missing", None)
        if expect != got:
            mismatches += 1
            print(f"DIFFERENT at {j}: rouge-score {expect}, rougekit {got}", flush=True)
        if expect is None:
            n_kept += 1
        else:
            n_dropped += 1
    print(
        f"sample: {len(sample)} texts from {sample[0]:,} to {sample[-1]:,} (seed {args.sample_seed}); "
        f"{scored:,} pairs past the bag-overlap bound scored by rouge-score "
        f"({time.perf_counter() - t0:.1f} s); rouge-score keeps {n_kept}, drops {n_dropped}; "
        + ("same decisions, matches and scores" if mismatches == 0 else f"{mismatches} DIFFERENT"),
        flush=True,
    )
    return 1 if mismatches else 0


if __name__ == "__main__":
    raise SystemExit(main())
