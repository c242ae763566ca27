"""``rougekit.explain`` of one CNN/DM-sized pair (a ~60-token summary against a ~50-token reference).

The pairs are the real CNN/DM pairs of ``corpora.real_pairs()`` (SummEval, REALSumm) whose
candidate has 50-70 words and reference 40-60, or synthetic ones of those sizes when the shared
data are missing. Each call is timed alone (after a warm-up); the table gives the median and the
90th percentile of the wall time over the pairs, and the median CPU time of the process (what a
call costs when other work on a loaded machine takes the cores away), with the default measures
(ROUGE-1, 2, L) and with eight measures. For comparison, the same pairs through the batch path
of the report's highlights (``rougekit.explanation.batch.matched_positions``, every pair in one
call): its time per pair.

Usage: ``python benchmarks/bench_explain.py [--pairs 200]``
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "src"))

import corpora  # noqa: E402

import rougekit  # noqa: E402

ALL = ["ROUGE-1", "ROUGE-2", "ROUGE-3", "ROUGE-L", "ROUGE-W-1.2", "ROUGE-S4", "ROUGE-SU4", "ROUGE-S*"]


def pairs(n: int) -> tuple[str, list[tuple[str, str]]]:
    real = corpora.real_pairs()
    out = []
    if real is not None:
        for cand, refs in zip(real.candidates, real.references):
            if 50 <= len(cand.split()) <= 70 and 40 <= len(refs[0].split()) <= 60:
                out.append((cand, refs[0]))
            if len(out) == n:
                return real.name, out
    synth = corpora.synthetic(4 * n)
    for cand, refs in zip(synth.candidates, synth.references):
        out.append((" ".join(cand.split()[:60]), " ".join(refs[0].split()[:50])))
    return "synthetic", out[:n]


def timed(pairs_: list[tuple[str, str]], measures: list[str]) -> tuple[list[float], list[float]]:
    """(wall times, CPU times) of one call per pair, in seconds."""
    for cand, ref in pairs_[:10]:  # warm-up: imports, stemmer tables
        rougekit.explain(cand, ref, measures, stem=True)
    wall, cpu = [], []
    for cand, ref in pairs_:
        start, start_cpu = time.perf_counter(), time.process_time()
        rougekit.explain(cand, ref, measures, stem=True).to_dict()
        wall.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    return wall, cpu


def report(n: int = 200) -> str:
    name, chosen = pairs(n)
    cw = statistics.mean(len(c.split()) for c, _ in chosen)
    rw = statistics.mean(len(r.split()) for _, r in chosen)
    lines = [
        f"### (x) explain of one pair: {len(chosen)} pairs of {name} (candidate {cw:.0f} words, reference {rw:.0f})",
        "",
        "| measures | median ms | p90 ms | median CPU ms |",
        "| --- | ---: | ---: | ---: |",
    ]
    for label, measures in (
        ("ROUGE-1, 2, L (default)", ["ROUGE-1", "ROUGE-2", "ROUGE-L"]),
        ("8: " + ",".join(ALL), ALL),
    ):
        wall, cpu = timed(chosen, measures)
        t = sorted(wall)
        cells = [statistics.median(t), t[int(0.9 * len(t))], statistics.median(cpu)]
        lines.append(f"| {label} | " + " | ".join(f"{1000 * x:.2f}" for x in cells) + " |")
    from rougekit.explanation.batch import matched_positions

    cands, refs = [c for c, _ in chosen], [r for _, r in chosen]
    for label, measures in (("ROUGE-1, 2, L", ["ROUGE-1", "ROUGE-2", "ROUGE-L"]), ("8 measures", ALL)):
        best = float("inf")
        for _ in range(3):
            start = time.perf_counter()
            matched_positions(cands, refs, measures, stem=True)
            best = min(best, time.perf_counter() - start)
        lines.append(f"| batch path, per pair: {label} | {1000 * best / len(chosen):.3f} | - | - |")
    lines += [
        "",
        "rougekit.explain(candidate, reference, measures, stem=True).to_dict(), one pair a call. "
        "Target (issue 16): a few milliseconds. Batch path: matched_positions over all the pairs in one "
        "call (best of 3), divided by the number of pairs.",
    ]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--pairs", type=int, default=200)
    print(report(ap.parse_args().pairs))
