"""Small oracles the tests share: the textbook LCS length and the widest SIMD level this CPU has."""

from __future__ import annotations

import platform
from pathlib import Path


def dp_lcs(a, b) -> int:
    """The textbook LCS table (no bit tricks)."""
    prev = [0] * (len(b) + 1)
    for x in a:
        cur = [0]
        for j, y in enumerate(b):
            cur.append(prev[j] + 1 if x == y else max(prev[j + 1], cur[j]))
        prev = cur
    return prev[-1]


def bits_lcs(a, b) -> int:
    """The LCS length by Allison and Dix's bit-vector recurrence on Python integers (one bit per element
    of ``a``): another way than :func:`dp_lcs` and than the engine's word rows, fast for thousands of
    tokens. The zeros of ``v`` below bit ``len(a)`` count the LCS."""
    match: dict = {}
    for i, x in enumerate(a):
        match[x] = match.get(x, 0) | (1 << i)
    ones = (1 << len(a)) - 1
    v = ones
    for y in b:
        u = v & match.get(y, 0)
        v = ((v + u) | (v - u)) & ones
    return len(a) - bin(v).count("1")


def simd_level() -> int:
    """2 with AVX-512 (and popcnt), 1 with AVX2, else 0: what the engine's runtime dispatch picks here."""
    with open("/proc/cpuinfo") as f:
        flags = f.read().split()
    if "popcnt" not in flags:
        return 0
    return 2 if "avx512f" in flags else 1 if "avx2" in flags else 0


def cpu_flags() -> set | None:
    """The CPU's feature flags on x86-64 Linux (/proc/cpuinfo), else None."""
    if platform.machine() not in ("x86_64", "AMD64") or not Path("/proc/cpuinfo").exists():
        return None
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("flags"):
            return set(line.split(":", 1)[1].split())
    return None
