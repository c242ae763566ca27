"""The pairs of many queries and many choices at or above a score cutoff, through the prefix index.

rouge-score's rougeL F only (``stat="f"``, a cutoff above 0): F is symmetric in the two texts, so
each query is probed as a new text against the choices indexed before it, with the bounds of
:class:`~rougekit.process.blocks.PrefixIndex` (length, position, signature; the LCS on survivors
only). The pairs found are exactly those the full matrix has at or above the cutoff; the others
are never scored, so the work grows with the matches, not with queries x choices.

>>> from rougekit.process.encode import Encoder
>>> enc = Encoder("rougeL")
>>> q = enc.encode(["the cat sat on the mat", "dogs bark"])
>>> c = enc.encode(["a cat sat on the mat", "the dogs bark loudly", "the cat sat on the mat"])
>>> near = Nearest(q, c, 0.5)
>>> [(m.tolist(), s.round(4).tolist()) for m, s in near.best(0, 2, limit=2)]
[([2, 0], [1.0, 0.8333]), ([1], [0.6667])]
"""

from __future__ import annotations

import numpy as np

from rougekit.engine.door import run_tasks

from .blocks import PrefixIndex, check_threshold, workers_count
from .encode import Encoded

#: the full matrix is scored instead below this many pairs or queries (building the index costs
#: about as much as scoring one query against every choice)
MIN_PAIRS = 1 << 22
MIN_QUERIES = 16
_QUERIES_PER_TASK = 64


def worth_it(queries: int, choices: int, stat: str, score_cutoff: float | None) -> bool:
    """Whether the index is the faster way to the pairs at or above ``score_cutoff`` (same values)."""
    return (
        stat == "f"
        and score_cutoff is not None
        and score_cutoff > 0
        and queries >= MIN_QUERIES
        and queries * choices >= MIN_PAIRS
    )


def _joined(first: Encoded, then: Encoded) -> Encoded:
    """The texts of ``first`` then those of ``then`` in one CSR array."""
    ids = np.concatenate([first.ids[first.off[0] : first.off[-1]], then.ids[then.off[0] : then.off[-1]]])
    off = np.concatenate([first.off - first.off[0], (then.off[1:] - then.off[0]) + (first.off[-1] - first.off[0])])
    return Encoded(np.ascontiguousarray(ids, np.int32), off.astype(np.int64), np.zeros(len(off) - 1, dtype=np.int64))


class Nearest:
    """The choices of each query with rouge-score's rougeL F at or above ``score_cutoff`` (> 0).

    Every query (candidate) and choice (reference) is given at once: the index holds both, the
    choices as the earlier, searchable side, so each query meets every choice and no other query.
    """

    def __init__(self, queries: Encoded, choices: Encoded, score_cutoff: float, *, workers: int = 1) -> None:
        cutoff = check_threshold(score_cutoff, "score_cutoff")
        if not cutoff > 0:
            raise ValueError("Nearest needs a score cutoff above 0 (every pair scores at least 0)")
        self.nq, self.nc = len(queries), len(choices)
        self.workers = workers_count(workers)
        # F >= cutoff is F > the double just below it: the index's rule is "above the threshold"
        self._index = PrefixIndex(_joined(choices, queries), float(np.nextafter(cutoff, -np.inf)), probes_from=self.nc)

    def pairs(self, start: int, stop: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(query, choice, F) of the pairs at or above the cutoff of queries ``start:stop``, by query
        then choice."""
        if not 0 <= start <= stop <= self.nq:
            raise ValueError(f"queries {start}:{stop} outside the {self.nq} queries")
        kernel = self._index.kernel  # built here, before any thread probes it
        tasks = [(k, j, min(stop, j + _QUERIES_PER_TASK)) for k, j in enumerate(range(start, stop, _QUERIES_PER_TASK))]
        found: list = [None] * len(tasks)

        def job(k: int, j0: int, j1: int) -> None:
            found[k] = kernel.pairs(self.nc + j0, self.nc + j1)

        run_tasks(tasks, self.workers, job)
        if not found:
            empty = np.zeros(0, dtype=np.int64)
            return empty, empty, np.zeros(0, dtype=np.float64)
        new, old, f = (np.concatenate(part) for part in zip(*found))
        return new - self.nc, old, f

    def best(self, start: int, stop: int, limit: int | None) -> list[tuple[np.ndarray, np.ndarray]]:
        """Per query of ``start:stop``: (choice indices, F) of its best ``limit`` (None: all), best
        first, the lower choice index on ties (the order of :func:`rougekit.process.extract`)."""
        query, choice, f = self.pairs(start, stop)
        order = np.lexsort((choice, -f, query))
        query, choice, f = query[order], choice[order], f[order]
        bounds = np.searchsorted(query, np.arange(start, stop + 1))
        out = []
        for a, b in zip(bounds[:-1].tolist(), bounds[1:].tolist()):
            b = b if limit is None else min(b, a + limit)
            out.append((choice[a:b], f[a:b]))
        return out

    def fill(self, out: np.ndarray) -> np.ndarray:
        """``out`` (queries x choices, zeros) with the F of every pair at or above the cutoff."""
        query, choice, f = self.pairs(0, self.nq)
        out[query, choice] = f
        return out
