#!/usr/bin/env python3
"""Near-duplicate filtering at scale (issue 29): ``rougekit.process.dedup`` at 0.7 on N texts.

    python benchmarks/bench_dedup.py --n 100000 [--threshold 0.7] [--seed 0] [--check 0] [--corpus near]

The corpus is ``dedup_corpus.near_duplicate_corpus(n, seed)`` (real sentences, splices,
paraphrase-like edits, exact and near repeats; see that module), or with ``--corpus distinct``
``bench_process.sentences(n, seed)`` (the distinct real sentences, then distinct splices of two:
the corpus of issue 29's first measurements). Prints, for the one timed
``process.dedup`` call (rouge-score's rougeL F, no stemming; its time includes tokenization):
the time, kept/dropped, the kept texts a new text met through the prefix index, the candidate
pairs per text (those the positional bound left, checked by length and bag overlap), the pairs
whose LCS was computed per text, and the peak resident memory of the
process (``ru_maxrss``, corpus included; the RSS before the call is printed too).

The decisions' digest (sha256 of the kept indices and every dropped (index, match, score)) is
printed: equal digests on two commits or worker counts mean equal decisions on every text.

``--check K``: the decisions of the first K texts are compared with the brute-force greedy
loop on rouge-score itself (every new text against every kept one; slow, K of a few thousand).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import resource
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from dedup_corpus import near_duplicate_corpus  # noqa: E402


def rss_mb() -> float:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def brute_force(texts: list[str], threshold: float) -> tuple[list[int], list[tuple[int, int, float]]]:
    from rouge_score import rouge_scorer

    scorer = rouge_scorer.RougeScorer(["rougeL"], use_stemmer=False)
    toks = [scorer._tokenizer.tokenize(t) for t in texts]
    kept: list[int] = []
    dropped: list[tuple[int, int, float]] = []
    for i, x in enumerate(toks):
        best, match = -1.0, -1
        for k in kept:
            f = rouge_scorer._score_lcs(x, toks[k]).fmeasure
            if f > best:
                best, match = f, k
        if kept and best > threshold:
            dropped.append((i, match, best))
        else:
            kept.append(i)
    return kept, dropped


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=int, default=100_000, help="texts")
    ap.add_argument("--threshold", type=float, default=0.7)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--corpus", choices=("near", "distinct"), default="near", help="which corpus (see above)")
    ap.add_argument("--check", type=int, default=0, help="compare the first K decisions with the brute force")
    ap.add_argument("--cache", help="a directory keeping the corpus made (JSON), read back by later runs")
    ap.add_argument("--workers", type=int, help="process.dedup's threads (default: its own, every core)")
    args = ap.parse_args(argv)

    import rougekit
    from rougekit import process
    from rougekit.process import core

    met: list = []
    base = core.Greedy

    class Counting(base):  # type: ignore[misc, valid-type]
        def __init__(self, *a, **k):
            super().__init__(*a, **k)
            met.append(self)

    core.Greedy = Counting  # to read the candidate count of the call's Greedy
    t0 = time.perf_counter()
    cached = Path(args.cache) / f"{args.corpus}-{args.n}-{args.seed}.json" if args.cache else None
    if cached is not None and cached.exists():
        texts = json.loads(cached.read_text(encoding="utf-8"))
    elif args.corpus == "near":
        texts = near_duplicate_corpus(args.n, args.seed)
    else:
        from bench_process import sentences

        texts = sentences(args.n, args.seed)
    if cached is not None and not cached.exists():
        cached.parent.mkdir(parents=True, exist_ok=True)
        cached.write_text(json.dumps(texts), encoding="utf-8")
    made = time.perf_counter() - t0
    words = sum(len(t.split()) for t in texts) / max(1, len(texts))
    print(f"rougekit {rougekit.__file__} backend {rougekit._core.BACKEND}", flush=True)
    print(
        f"corpus {args.corpus}: {len(texts):,} texts (seed {args.seed}, {words:.1f} words a text, "
        f"{len(set(texts)):,} distinct) "
        f"made in {made:.1f} s; RSS {rss_mb():.0f} MB; load average {os.getloadavg()[0]:.2f}",
        flush=True,
    )
    t0, c0 = time.perf_counter(), time.process_time()
    threads = {} if args.workers is None else {"workers": args.workers}
    result = process.dedup(texts, threshold=args.threshold, **threads)
    took, cpu = time.perf_counter() - t0, time.process_time() - c0
    state = met[-1]._state if met else None
    met = getattr(state, "pairs_met", 0)
    cands = getattr(state, "pairs_cand", met)  # before the positional filter, every pair met
    lcs = result.lcs_computed or 0
    n = max(1, len(texts))
    print(
        f"dedup at {args.threshold} on {args.workers or 'default'} workers: {took:.1f} s "
        f"({cpu:.1f} s of CPU, the figure to compare on a busy machine); "
        f"kept {len(result.kept):,}, dropped {len(result.dropped):,}; "
        f"met in the index {met / n:.2f} a text; candidates {cands / n:.2f} a text ({cands:,}); "
        f"LCS computed {lcs / n:.2f} a text ({lcs:,}); "
        f"peak RSS {peak_mb():.0f} MB; load average {os.getloadavg()[0]:.2f}",
        flush=True,
    )
    if hasattr(state, "index_memory"):
        held, slots, nbytes = state.index_memory
        kept = max(1, len(result.kept))
        print(
            f"index: {held:,} entries ({held / kept:.1f} a kept text, {slots:,} allocated), "
            f"{nbytes / 2**20:.0f} MB with the kept tokens ({nbytes / kept:.0f} bytes a kept text, "
            f"{nbytes / n:.0f} a text)",
            flush=True,
        )
    # every decision in one digest: two runs (another commit, another number of workers) compared at a glance
    digest = hashlib.sha256(repr((result.kept, [tuple(d) for d in result.dropped])).encode()).hexdigest()[:16]
    print(f"decisions digest {digest} (sha256 of the kept indices and the dropped (index, match, score))", flush=True)
    if args.check:
        k = min(args.check, len(texts))
        expected = brute_force(texts[:k], args.threshold)
        got_kept = [i for i in result.kept if i < k]
        got_dropped = [(d.index, d.match, d.score) for d in result.dropped if d.index < k]
        same = (got_kept, got_dropped) == expected
        print(f"brute force on the first {k:,} texts: {'same decisions' if same else 'DIFFERENT'}", flush=True)
        if not same:
            return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
