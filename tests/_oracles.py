"""Small oracles the tests share: the textbook LCS length and the widest SIMD level this CPU has."""

from __future__ import annotations


def dp_lcs(a, b) -> int:
    """The textbook LCS table (no bit tricks)."""
    prev = [0] * (len(b) + 1)
    for x in a:
        cur = [0]
        for j, y in enumerate(b):
            cur.append(prev[j] + 1 if x == y else max(prev[j + 1], cur[j]))
        prev = cur
    return prev[-1]


def simd_level() -> int:
    """2 with AVX-512 (and popcnt), 1 with AVX2, else 0: what the engine's runtime dispatch picks here."""
    with open("/proc/cpuinfo") as f:
        flags = f.read().split()
    if "popcnt" not in flags:
        return 0
    return 2 if "avx512f" in flags else 1 if "avx2" in flags else 0
