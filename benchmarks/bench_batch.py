"""Micro-benchmark of the compiled batch scorer (``rougekit.engine.batch.BatchScorer``).

CNN/DM-sized synthetic pairs (reference ~55 words in 4 sentences, candidate ~60 words; see
``corpora.synthetic``), ROUGE-1 + ROUGE-2 + ROUGE-L with stemming (``-m``), one reference per
candidate. Prints pairs/s for

* ``cold``: a fresh BatchScorer (every token type seen for the first time goes through the
  Python stemmer once);
* ``fresh jobs=1`` / ``fresh jobs=2``: a new BatchScorer each time (new engines: every type is
  interned and mapped again, every reference tokenized), the process-wide stem cache warm;
* ``warm jobs=1`` / ``warm jobs=2``: the same scorer again, reference cache cleared first
  (so every reference is tokenized again; only the vocabulary/stems are reused);
* ``cached refs``: references already in the cache (a second system against the same
  references; the cache holds 100,000 references per job, so keep ``--pairs`` <= 100,000 for
  jobs=1);
* ``slow path``: ``Preprocessor.process`` + ``scoring.score_pair`` per pair (on a subset).

Usage: ``python benchmarks/bench_batch.py [--pairs 100000] [--slow-pairs 3000] [--repeat 3]``
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

from rougekit.measures import Measure  # noqa: E402
from rougekit.scoring import Doc, score_pair  # noqa: E402
from rougekit.text.tokenizers import Preprocessor  # noqa: E402

MEASURES = ("ROUGE-1", "ROUGE-2", "ROUGE-L")


def _rate(n: int, seconds: float) -> str:
    return f"{n / seconds:>12,.0f} pairs/s  ({seconds * 1e6 / n:6.2f} us/pair)"


def slow_path(cands, refs, measures) -> float:
    pre = Preprocessor("rouge155", stem=True)
    vocab: dict[str, int] = {}

    def doc(text):
        toks, units = pre.process(text)
        ids = lambda xs: [vocab.setdefault(x, len(vocab)) for x in xs]  # noqa: E731
        return Doc(ids(toks), [ids(u) for u in units])

    t = time.perf_counter()
    for c, rs in zip(cands, refs):
        peer = doc(c)
        models = [doc(r) for r in rs]
        for m in measures:
            score_pair(m, peer, models, mode="A", alpha=0.5)
    return time.perf_counter() - t


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pairs", type=int, default=100_000)
    ap.add_argument("--slow-pairs", type=int, default=3_000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)

    from rougekit.engine.batch import AVAILABLE, BatchScorer

    measures = [Measure.parse(x) for x in MEASURES]
    corpus = corpora.synthetic(args.pairs, seed=args.seed)
    cands, refs = corpus.candidates, corpus.references
    n = len(cands)
    cw, rw = corpus.words()
    print(
        f"{n:,} synthetic pairs (candidate {cw:.1f} words, reference {rw:.1f} words), "
        f"{' + '.join(MEASURES)}, stemming on"
    )

    if AVAILABLE:

        def fresh():
            return BatchScorer(measures, stem=True, stopwords=False, word_limit=0, byte_limit=0, mode="A", alpha=0.5)

        scorer = fresh()
        t = time.perf_counter()
        scorer.score_arrays(cands, refs, jobs=2)
        print(f"batch cold  (new scorer),     jobs=2 : {_rate(n, time.perf_counter() - t)}")
        for jobs in (1, 2):
            best = float("inf")
            for _ in range(args.repeat):
                other = fresh()
                t = time.perf_counter()
                other.score_arrays(cands, refs, jobs=jobs)
                best = min(best, time.perf_counter() - t)
                del other
            print(f"batch fresh (new scorer),     jobs={jobs} : {_rate(n, best)}")
        scorer.score_arrays(cands, refs, jobs=1)  # every job's engine has seen the vocabulary
        for jobs in (1, 2):
            best = float("inf")
            for _ in range(args.repeat):
                for engine in scorer._engines:
                    engine.clear_cache()
                t = time.perf_counter()
                scorer.score_arrays(cands, refs, jobs=jobs)
                best = min(best, time.perf_counter() - t)
            print(f"batch warm  (refs tokenized), jobs={jobs} : {_rate(n, best)}")
        for jobs in (1, 2):
            scorer.score_arrays(cands, refs, jobs=jobs)
            best = float("inf")
            for _ in range(args.repeat):
                t = time.perf_counter()
                scorer.score_arrays(cands, refs, jobs=jobs)
                best = min(best, time.perf_counter() - t)
            print(f"batch cached refs,            jobs={jobs} : {_rate(n, best)}")
    else:
        print("rougekit._core._batch is not built: batch numbers skipped")

    k = min(args.slow_pairs, n)
    seconds = slow_path(cands[:k], refs[:k], measures)
    print(f"slow path (Preprocessor + score_pair), {k:,} pairs : {_rate(k, seconds)}")


if __name__ == "__main__":
    main()
