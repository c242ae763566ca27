"""Cost of the dropped-letters check (rougekit.text.empty.count_rouge155) beside the scoring call it belongs to.

    python benchmarks/bench_letter_check.py [--pairs 100000]

The default tokenizer (ROUGE-1.5.5's) keeps ASCII letters and digits only; every call checks its
summaries for letters outside ASCII to warn (LettersDroppedWarning). All-ASCII texts pass
``str.isascii``; the others are searched. Prints the best of 5 of the check alone on synthetic
CNN/DM-sized pairs (all ASCII), with 1% and 100% of the candidates holding such a letter, and the
best of 3 of ``Scorer(["ROUGE-1", "ROUGE-2", "ROUGE-L"], bootstrap=None).score`` on the same pairs.
``--curly``: instead, the best of 5 of the whole ``rougekit.score`` call (ROUGE-1/2/L) on the pairs
with a curly apostrophe, curly double quotes and an em dash in every summary (English as scraped
news prints it: no letter outside ASCII), beside the same text with ASCII quotes and dashes.
"""

from __future__ import annotations

import argparse
import random
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


def curly(text: str, rnd: random.Random) -> str:
    """``text`` with a curly apostrophe, a phrase in curly double quotes and an em dash."""
    words = text.split(" ")
    words[rnd.randrange(len(words))] += "\u2019s"
    at = rnd.randrange(len(words) - 3)
    words[at] = "\u201c" + words[at]
    words[at + 2] += "\u201d"
    words[rnd.randrange(len(words))] += " \u2014"
    return " ".join(words)


_TO_ASCII = str.maketrans({"\u2019": "'", "\u201c": '"', "\u201d": '"', "\u2014": "--"})


def curly_quotes(cands: list[str], refs: list[list[str]], pairs: int) -> None:
    rnd = random.Random(0)
    cands = [curly(c, rnd) for c in cands]
    refs = [[curly(r, rnd) for r in rs] for rs in refs]
    plain_cands = [c.translate(_TO_ASCII) for c in cands]
    plain_refs = [[r.translate(_TO_ASCII) for r in rs] for rs in refs]
    options = {"measures": ["ROUGE-1", "ROUGE-2", "ROUGE-L"], "bootstrap": None}
    rougekit.score(cands[:1000], refs[:1000], **options)
    ascii_only = best(lambda: rougekit.score(plain_cands, plain_refs, **options), 5)
    with_quotes = best(lambda: rougekit.score(cands, refs, **options), 5)
    print(f"rougekit.score, {pairs:,} synthetic pairs, ROUGE-1/2/L")
    print(f"ASCII quotes and dashes: {ascii_only * 1e3:.0f} ms")
    print(f"curly quotes and a dash in every summary: {with_quotes * 1e3:.0f} ms ({with_quotes / ascii_only:.2f}x)")


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pairs", type=int, default=100_000)
    ap.add_argument("--curly", action="store_true", help="time rougekit.score on English with curly quotes")
    args = ap.parse_args(argv)
    corpus = corpora.synthetic(args.pairs, seed=0)
    cands, refs = corpus.candidates, corpus.references
    if args.curly:
        curly_quotes(cands, refs, args.pairs)
        return
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
