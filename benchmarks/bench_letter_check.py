"""Cost of the dropped-letters check (rougekit.text.empty.count_rouge155) beside the scoring call it belongs to.

    python benchmarks/bench_letter_check.py [--pairs 100000]

The default tokenizer (ROUGE-1.5.5's) keeps ASCII letters and digits only; every call checks its
summaries for letters outside ASCII to warn (LettersDroppedWarning). All-ASCII texts pass
``str.isascii``; the others are searched. Prints the best of 5 of the check alone on synthetic
CNN/DM-sized pairs (all ASCII), with 1% and 100% of the candidates holding such a letter, and the
best of 3 of ``Scorer(["ROUGE-1", "ROUGE-2", "ROUGE-L"], bootstrap=None).score`` on the same pairs.
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
from rougekit.text import empty  # noqa: E402


def best(function, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return min(times)


def check(candidates, references) -> int:
    tally = empty.Tally("rouge155")
    empty.count_rouge155(candidates, references, tally)
    return tally.cut


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pairs", type=int, default=100_000)
    args = ap.parse_args(argv)
    corpus = corpora.synthetic(args.pairs, seed=0)
    cands, refs = corpus.candidates, corpus.references
    summaries = len(cands) + sum(map(len, refs))
    alone = best(lambda: check(cands, refs), 5)
    scorer = rougekit.Scorer(["ROUGE-1", "ROUGE-2", "ROUGE-L"], bootstrap=None)
    scorer.score(cands[:1000], refs[:1000])
    scoring = best(lambda: scorer.score(cands, refs), 3)
    some = [c + (" Zürich" if i % 100 == 0 else "") for i, c in enumerate(cands)]
    every = [c.replace("e", "ä") for c in cands]
    print(f"{args.pairs:,} synthetic pairs, {summaries:,} summaries")
    print(f"check, all ASCII: {alone * 1e3:.1f} ms ({100 * alone / scoring:.1f}% of scoring: {scoring * 1e3:.0f} ms)")
    print(f"check, 1% of candidates non-ASCII: {best(lambda: check(some, refs), 5) * 1e3:.1f} ms")
    print(f"check, every candidate non-ASCII: {best(lambda: check(every, refs), 3) * 1e3:.1f} ms")


if __name__ == "__main__":
    main()
