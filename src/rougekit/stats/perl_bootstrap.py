"""The bootstrap of ROUGE-1.5.5.pl, reproduced exactly (its printed averages and intervals).

Resample ``s`` reseeds Perl's generator with ``srand(s)`` (a 48-bit linear congruential
generator, drand48), draws n indices into the instances sorted as strings, and averages the
drawn values (``-t 0``) or turns the summed counts into R, P, F (``-t 1``). The printed
average is the mean of the sorted resample values; the interval is read off the same sorted
values with the script's index arithmetic. All resamples run at once as numpy vectors in the
readable twin (:func:`resample_sums`); the compiled loop (``rougekit._core._bootstrap``) gives the
same sums, and :func:`perl_bootstrap` uses it without importing numpy. The procedure, with a
hand-worked start: docs/rouge155/bootstrap.md.

>>> drand48_stream(0, 3)
[0.170828036106, 0.749901980485, 0.096371655624]
"""

from __future__ import annotations

import threading
from array import array
from dataclasses import dataclass
from typing import TYPE_CHECKING

from rougekit.engine import backend
from rougekit.engine.cores import available_cores
from rougekit.engine.threads import on_threads
from rougekit.scoring import ratios, ratios_array

if TYPE_CHECKING:  # numpy is imported where it is used: rougekit rouge155 runs without it
    import numpy as np

_SCALE = 2.0**-48
_THREADED_DRAWS = 20_000_000  # draws (pairs x resamples) from which the resamples are split over threads
_BLOCK_DRAWS = 1 << 22  # draws per block of resamples (a few ms): Ctrl-C is seen between blocks
_LANES = 8  # resamples the compiled loop of codes runs at once (resample_sums_columns)
_CODED_ROWS = 20_000  # instances from which the compiled loop reads codes of the values (encode_rows)


def _seed_states(seeds: np.ndarray) -> np.ndarray:
    """Perl's ``srand(s)``: state = (s mod 2^32)·2^16 + 0x330E."""
    import numpy as np

    return ((seeds.astype(np.uint64) & np.uint64(0xFFFFFFFF)) << np.uint64(16)) + np.uint64(0x330E)


def _advance(states: np.ndarray) -> np.ndarray:
    import numpy as np

    # uint64 arithmetic wraps mod 2^64; the mask takes mod 2^48
    return (states * np.uint64(0x5DEECE66D) + np.uint64(0xB)) & np.uint64((1 << 48) - 1)


def drand48_stream(seed: int, count: int) -> list[float]:
    """The first ``count`` values of Perl's ``rand()`` after ``srand(seed)`` (rounded to 12 places)."""
    import numpy as np

    state = _seed_states(np.array([seed]))
    out = []
    for _ in range(count):
        state = _advance(state)
        out.append(round(float(state[0]) * _SCALE, 12))
    return out


@dataclass(frozen=True)
class BootstrapResult:
    """Printed average and interval bounds for R, P and F (unformatted floats)."""

    average: tuple[float, float, float]
    low: tuple[float, float, float]
    high: tuple[float, float, float]


def resample_sums(values: np.ndarray, resamples: int) -> np.ndarray:
    """Sums of the drawn rows for each resample (readable numpy twin of the compiled loop).

    All resamples advance together: step k draws the k-th index of every resample.
    """
    import numpy as np

    values = np.asarray(values, dtype=np.float64)
    n = values.shape[0]
    states = _seed_states(np.arange(resamples, dtype=np.uint64))
    sums = np.zeros((resamples, values.shape[1]), dtype=np.float64)
    for step in range(n):
        states = _advance(states)
        idx = np.floor(states.astype(np.float64) * _SCALE * n).astype(np.intp)
        if step == 0:
            sums = values[idx].copy()
        else:
            sums += values[idx]
    return sums


def _fast_sums(values: np.ndarray, resamples: int) -> np.ndarray:
    """The compiled loop's sums (the numpy twin without it); big runs split the resamples over threads.

    From :data:`_CODED_ROWS` instances the loop reads the values as codes of their distinct values
    (``encode_columns`` of the compiled module): 8 bytes a row, read at random, instead of 8 a value.
    Resample s reseeds with ``srand(s)`` whatever thread runs it, so the sums do not depend on the
    thread count."""
    import numpy as np

    module = backend.bootstrap_module()
    if module is None:
        return resample_sums(values, resamples)
    values = np.asarray(values, dtype=np.float64)
    width = values.shape[1]
    jobs = min(available_cores(), resamples) if values.shape[0] * resamples >= _THREADED_DRAWS else 1
    out = np.empty((resamples, width))
    coded = None
    if values.shape[0] >= _CODED_ROWS:  # a strided view read where it is (no copy of its columns)
        strided = values.flags.aligned and all(s % 8 == 0 for s in values.strides)
        coded = module.encode_columns(values if strided else np.ascontiguousarray(values))
    if coded is None:
        values = np.ascontiguousarray(values)
    block = max(1, _BLOCK_DRAWS // max(1, values.shape[0]))  # resamples between two looks at Ctrl-C
    if coded is not None:  # whole groups of 8: the compiled loop runs 8 resamples at a time (its LANES)
        block = -(-block // _LANES) * _LANES
    # blocks taken in turn (a thread slowed by others takes fewer), a group of codes after another: the
    # threads read one group's codes at a time (8 MB a million rows), which stay in the shared cache
    groups = range(len(coded)) if coded is not None else [None]
    tasks = iter([(g, start) for g in groups for start in range(0, resamples, block)])
    taking = threading.Lock()
    stopped: list = []
    errors: list = []

    def sums_of(group: int | None, start: int, count: int) -> None:
        if group is None:
            out[start : start + count] = np.frombuffer(
                module.resample_sums(values, count, start), dtype=np.float64
            ).reshape(count, width)
            return
        columns, *code = coded[group]
        sums = module.resample_sums_columns(*code, count, start)
        out[start : start + count, columns] = np.frombuffer(sums, dtype=np.float64).reshape(count, len(columns))

    def run(_k: int) -> None:
        # a block at a time: a Ctrl-C (raised in job 0, on this thread) or an error stops every job
        # before its next block
        try:
            while not stopped and not errors:
                with taking:
                    task = next(tasks, None)
                if task is None:
                    return
                group, start = task
                sums_of(group, start, min(block, resamples - start))
        except Exception as exc:  # noqa: BLE001 - re-raised below
            errors.append(exc)

    on_threads(run, jobs, stopped.append)
    if errors:
        raise errors[0]
    return out


def resample_values(values: np.ndarray, resamples: int, average: int = 0, alpha: float = 0.5) -> np.ndarray:
    """The ``resamples`` x 3k matrix of resample values, unsorted, exactly as the script computes them.

    ``values`` is n x 3k in the script's instance order, one triple of columns per measure: (R, P, F)
    for ``-t 0``; (model count, peer count, hits) for ``-t 1``. The measures share the draws.
    """
    import numpy as np

    values = np.asarray(values, dtype=np.float64)
    values = values.reshape(-1, values.shape[-1] if values.ndim == 2 else 3)
    n = values.shape[0]
    sums = _fast_sums(values, resamples)
    if average == 1:
        model, peer, hits = sums[:, 0::3], sums[:, 1::3], sums[:, 2::3]
        return np.stack(ratios_array(model, peer, hits, alpha), axis=2).reshape(resamples, -1)
    if n == 0:
        return np.zeros((resamples, values.shape[1]))
    return sums / n


def _perl_index(ranked: list[float], i: int) -> float:
    """Perl array read: an index past the end gives undef, i.e. 0."""
    return float(ranked[i]) if 0 <= i < len(ranked) else 0.0


def interval_positions(resamples: int, confidence: float) -> tuple[int, int, float]:
    """The script's (lower index, upper index, fraction) for a ``-c`` level."""
    delta = resamples * ((100 - confidence) / 2.0) / 100.0
    upper = int(resamples - delta - 1)
    lower = int(delta)
    frac = resamples - delta - 1 - upper
    return lower, upper, frac


def _summarize(columns: list[list[float]], resamples: int, confidence: float) -> BootstrapResult:
    """The script's average (ascending sequential sum) and interval of each column of resample values."""
    lower, upper, frac = interval_positions(resamples, confidence)
    avg, low, high = [], [], []
    for column in columns:
        ranked = sorted(column)
        total = 0.0
        for x in ranked:  # sequential sum in ascending order, as the script adds them
            total += x
        avg.append(total / len(ranked))
        lo_a, hi_a = _perl_index(ranked, lower), _perl_index(ranked, upper)
        low.append(lo_a + (_perl_index(ranked, lower + 1) - lo_a) * frac)
        high.append(hi_a + (_perl_index(ranked, upper + 1) - hi_a) * frac)
    return BootstrapResult(tuple(avg), tuple(low), tuple(high))


def perl_bootstrap_measures(
    values: np.ndarray, resamples: int = 1000, confidence: float = 95.0, average: int = 0, alpha: float = 0.5
) -> list[BootstrapResult]:
    """:func:`perl_bootstrap` of k measures at once, from one pass of draws: ``values`` is n x 3k
    (a triple of columns per measure, instances in the script's order). The same numbers as k
    calls, since the script reseeds every resample with ``srand(s)`` for every measure."""
    samples = resample_values(values, resamples, average, alpha)
    return [
        _summarize([samples[:, c].tolist() for c in range(j, j + 3)], resamples, confidence)
        for j in range(0, samples.shape[1], 3)
    ]


def perl_bootstrap_columns(
    values: np.ndarray, resamples: int = 1000, confidence: float = 95.0
) -> list[tuple[float, float, float]]:
    """(average, low, high) of each column of per-instance values (``-t 0``: R, P or F of any
    measures), from one pass of draws: the numbers :func:`perl_bootstrap_measures` gives for those
    columns, without drawing the others (only the F intervals are printed in a text report)."""
    samples = resample_values(values, resamples, 0)
    out = _summarize([samples[:, c].tolist() for c in range(samples.shape[1])], resamples, confidence)
    return list(zip(out.average, out.low, out.high))


def perl_bootstrap(
    values, resamples: int = 1000, confidence: float = 95.0, average: int = 0, alpha: float = 0.5
) -> BootstrapResult:
    """Average and interval as ROUGE-1.5.5 prints them (``-r``, ``-c``, ``-t``, ``-p``).

    ``values``: n (x, y, z) rows in the script's instance order, a list or an n x 3 array.
    With the compiled resampling loop no numpy is needed (``rougekit rouge155`` never imports
    it); without it, :func:`resample_values` (numpy) computes the same values.
    """
    module = backend.bootstrap_module()
    if module is None:  # no compiled loop: the numpy twin
        samples = resample_values(values, resamples, average, alpha)
        return _summarize([samples[:, c].tolist() for c in range(3)], resamples, confidence)
    triples = values.reshape(-1, 3).tolist() if hasattr(values, "reshape") else values
    n = len(triples)
    if n:
        flat = array("d", [x for row in triples for x in row])
        sums = module.resample_sums(memoryview(flat).cast("B").cast("d", (n, 3)), resamples)
    else:
        sums = array("d", bytes(24 * resamples))
    a, b, c = sums[0::3], sums[1::3], sums[2::3]
    if average == 1:  # summed counts (model, peer, hits) to R, P, F
        columns = [list(col) for col in zip(*(ratios(m, p, h, alpha) for m, p, h in zip(a, b, c)))]
    elif n == 0:
        columns = [[0.0] * resamples for _ in range(3)]
    else:
        columns = [[x / n for x in col] for col in (a, b, c)]
    return _summarize(columns, resamples, confidence)
