"""``rougekit.score(...).per_pair()`` against rouge-score-rs ``score_batch``, measured in one run.

CNN/DM-sized synthetic pairs (``corpora.synthetic``), ROUGE-1/2/L with stemming; rouge-score-rs
scores rouge1/rouge2/rougeLsum with its stemmer. The tools run alternately, ``--repeat`` rounds,
and the best time of each is kept (the machine is shared, so ratios from one run are what count).

* ``score().per_pair()``: the everyday call with the default ``bootstrap="rouge155"``, then
  ``len`` and the first row of the per-pair view (what a user touches first);
* ``... list(per_pair())``: the same, every per-pair dict built;
* ``engine (bootstrap=None)``: ``rougekit.score`` alone;
* ``first to_dict()``: what the deferred ROUGE-1.5.5 bootstrap costs on first access.

Usage: ``python benchmarks/bench_result.py [--pairs 30000] [--repeat 3] [--jobs 2]``
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "src"))

import corpora  # noqa: E402

import rougekit  # noqa: E402

MEASURES = ["ROUGE-1", "ROUGE-2", "ROUGE-L"]


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pairs", type=int, default=30_000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--jobs", type=int, default=None, help="rougekit threads (default: every usable core)")
    args = ap.parse_args(argv)
    corpus = corpora.synthetic(args.pairs)
    cands, refs = corpus.candidates, corpus.references
    options = dict(measures=MEASURES, stem=True)
    if args.jobs:
        options["jobs"] = args.jobs

    def per_pair():
        view = rougekit.score(cands, refs, **options).per_pair()
        return len(view), view[0]

    def per_pair_all():
        return list(rougekit.score(cands, refs, **options).per_pair())

    def engine():
        return rougekit.score(cands, refs, bootstrap=None, **options)

    def first_to_dict():
        result = rougekit.score(cands, refs, **options)
        t = time.perf_counter()
        result.to_dict()
        return time.perf_counter() - t

    tools = {
        "rougekit score().per_pair()": per_pair,
        "rougekit score() list(per_pair())": per_pair_all,
        "rougekit engine (bootstrap=None)": engine,
    }
    try:
        from rouge_score_rs import RougeScorer
    except ImportError:
        print("rouge-score-rs is not installed: no ratios")
        base = None
    else:
        rs = RougeScorer(["rouge1", "rouge2", "rougeLsum"], use_stemmer=True)
        flat_refs = [r[0] for r in refs]

        def base():
            return rs.score_batch(flat_refs, cands)

        tools = {"rouge-score-rs score_batch": base, **tools}
    best = {name: float("inf") for name in tools}
    bootstrap_cost = float("inf")
    for fn in tools.values():  # warm-up: stem caches, imports
        fn()
    for _ in range(args.repeat):
        for name, fn in tools.items():
            t = time.perf_counter()
            fn()
            best[name] = min(best[name], time.perf_counter() - t)
        bootstrap_cost = min(bootstrap_cost, first_to_dict())
    print(f"{len(cands):,} synthetic pairs, {', '.join(MEASURES)}, stemming; best of {args.repeat}, alternated")
    ref_time = best.get("rouge-score-rs score_batch")
    for name, seconds in best.items():
        ratio = f"  {ref_time / seconds:5.2f}x rouge-score-rs" if ref_time else ""
        print(f"{name:<36} {seconds:7.3f} s{ratio}")
    print(f"{'first to_dict() (1.5.5 bootstrap)':<36} {bootstrap_cost:7.3f} s")


if __name__ == "__main__":
    main()
