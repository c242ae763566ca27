"""Hori et al.'s ACCY edit counts (rougekit.metrics.hori.edit_counts) on long summaries.

    python benchmarks/bench_accy.py [--tokens 20000] [--twin-tokens 1500]

Prints the best of 3 of ``edit_counts`` on two random summaries of ``--tokens`` words each (a
2,000-word vocabulary: few matches, so nothing is set aside as common prefix or suffix and the whole
table is filled), with the compiled kernel, and the same for ``--twin-tokens`` words with the
compiled kernel and with its pure-Python twin (``_core._edit_pure``), beside the cells per second.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from rougekit._core import _edit_pure, backend  # noqa: E402
from rougekit.metrics import hori  # noqa: E402


def best(function, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return min(times)


def summaries(tokens: int, seed: int) -> tuple[list[str], list[str]]:
    rnd = random.Random(seed)
    words = [f"w{k}" for k in range(2000)]
    return [rnd.choice(words) for _ in range(tokens)], [rnd.choice(words) for _ in range(tokens)]


def line(label: str, tokens: int, seconds: float) -> str:
    return f"{label:<28} {tokens:>7,} x {tokens:<7,} {seconds:8.3f} s  {tokens * tokens / seconds / 1e6:8.1f} M cells/s"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tokens", type=int, default=20_000)
    parser.add_argument("--twin-tokens", type=int, default=1_500)
    args = parser.parse_args()
    if backend.name() != "compiled":
        sys.exit("the compiled kernels are not built (python setup.py build_ext --inplace)")
    cand, ref = summaries(args.tokens, 1)
    print(line("compiled (_core._edit)", args.tokens, best(lambda: hori.edit_counts(cand, ref), 3)))
    cand, ref = summaries(args.twin_tokens, 2)
    print(line("compiled (_core._edit)", args.twin_tokens, best(lambda: hori.edit_counts(cand, ref), 3)))
    twin = best(lambda: _edit_pure.edit_counts(cand, ref), 1)
    print(line("pure twin (_core._edit_pure)", args.twin_tokens, twin))


if __name__ == "__main__":
    main()
