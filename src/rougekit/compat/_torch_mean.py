"""``torch.tensor(values).mean()`` of float32 values on the CPU, bit for bit, without torch.

torch's CPU mean is its float32 sum divided by the count (in float32). The sum (ATen's
``cascade_sum`` in ``SumKernel.cpp``) accumulates in float32, in this order:

* a contiguous row of at least ``lanes`` values is read as ``n // lanes`` SIMD vectors of
  ``lanes`` = 8 floats (``Vectorized<float>``; 8 also where torch reports AVX-512); the vectors
  are summed lane by lane by ``row_sum`` (below); the ``n % lanes`` values left over are added one by one to a scalar
  starting at 0, and then the lanes of the vector sum, in lane order;
* a shorter row is summed by ``row_sum`` over single values.

``row_sum`` takes its items four at a time (four accumulators, ``multi_row_sum``): groups of
``2**level_power`` rows go into level 0 and carry into levels 1-3 (a cascade that keeps the
partial sums of similar size); the items past the last whole group of four go into accumulator
0, then accumulators 1, 2 and 3 are added to accumulator 0. ``level_power`` is
``max(4, ceil(log2(rows)) // 4)``.

Checked against torch 2.13.0 (CPU) on every size up to 300 and on 511-10,000 values
(tests/test_compat_torchmetrics.py holds it to recorded torch sums). Above ``PARALLEL_ABOVE``
values torch may sum chunks on several threads, which this does not emulate.
"""

from __future__ import annotations

import numpy as np

__all__ = ["float32_mean", "float32_sum", "LANES", "PARALLEL_ABOVE"]

_LEVELS = 4
_ILP = 4
#: floats per vector in the sum kernel (8, measured with torch 2.13.0 on an AVX-512 CPU as well)
LANES = 8
#: above this many values (ATen's GRAIN_SIZE) torch may split the sum over threads: not emulated
PARALLEL_ABOVE = 32768


def _ceil_log2(x: int) -> int:
    return 1 if x <= 2 else (x - 1).bit_length()


def _multi_row_sum(block: np.ndarray) -> np.ndarray:
    """``block[rows, 4, width]`` summed over rows by ATen's cascade: ``[4, width]`` float32."""
    size = block.shape[0]
    level_power = max(4, _ceil_log2(size) // _LEVELS)
    level_step = 1 << level_power
    level_mask = level_step - 1
    acc = np.zeros((_LEVELS, *block.shape[1:]), dtype=np.float32)
    i = 0
    while i + level_step <= size:
        for row in block[i : i + level_step]:
            acc[0] += row
        i += level_step
        for j in range(1, _LEVELS):
            acc[j] += acc[j - 1]
            acc[j - 1] = 0
            if i & (level_mask << (j * level_power)):
                break
    for row in block[i:]:
        acc[0] += row
    for j in range(1, _LEVELS):
        acc[0] += acc[j]
    return acc[0]


def _row_sum(items: np.ndarray) -> np.ndarray:
    """ATen's ``row_sum`` over ``items[n, width]`` (items are values or vectors): ``[width]``."""
    size_ilp = items.shape[0] // _ILP
    partial = _multi_row_sum(items[: size_ilp * _ILP].reshape(size_ilp, _ILP, *items.shape[1:]))
    for item in items[size_ilp * _ILP :]:
        partial[0] += item
    for k in range(1, _ILP):
        partial[0] += partial[k]
    return partial[0]


def float32_sum(values, lanes: int = LANES) -> np.float32:
    """``torch.tensor(values, dtype=torch.float32).sum()`` on the CPU."""
    values = np.ascontiguousarray(values, dtype=np.float32)
    n = values.shape[0]
    if n < lanes:
        return np.float32(_row_sum(values.reshape(n, 1))[0])
    vectors = n // lanes
    vector_sum = _row_sum(values[: vectors * lanes].reshape(vectors, lanes))
    total = np.float32(0)
    for value in values[vectors * lanes :]:
        total = np.float32(total + value)
    for value in vector_sum:
        total = np.float32(total + value)
    return total


def float32_mean(values, lanes: int = LANES) -> np.float32:
    """``torch.tensor(values, dtype=torch.float32).mean()`` on the CPU (NaN for no values)."""
    n = len(values)
    with np.errstate(invalid="ignore"):  # no values: 0 / 0, the CPU's own NaN (sign bit set on x86), as torch
        return np.float32(np.float32(float32_sum(values, lanes) if n else 0) / np.float32(n))
