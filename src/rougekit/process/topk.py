"""The best matches of each query, found block by block: a block's own best, then merged.

The order is :func:`rougekit.process.extract`'s: higher score first, the lower choice index on ties,
none below ``score_cutoff``. The best ``limit`` of the whole row are among the best ``limit`` of
each block of choices, so merging the blocks' bests gives the single-process answer exactly; the
distributed ``extract`` of ``rougekit.dask`` and ``rougekit.spark`` run on this.
"""

from __future__ import annotations

import numpy as np

from rougekit.process.core import Match, check_limit, row_order

__all__ = ["check_limit", "row_order", "block_best", "merged_matches"]


def block_best(scores: np.ndarray, c0: int, limit: int | None, score_cutoff: float | None) -> list:
    """Per query row of a block whose first choice is ``c0``: (choice indices, scores) of its best."""
    best = []
    for row in scores:
        order = row_order(row, limit, score_cutoff)
        best.append((order.astype(np.int64) + c0, row[order].astype(np.float64)))
    return best


def merge_best(parts: list, limit: int | None) -> tuple[np.ndarray, np.ndarray]:
    """One query's best over every block of choices: ``parts`` are its (indices, scores) per block."""
    index = np.concatenate([p[0] for p in parts]) if parts else np.zeros(0, np.int64)
    score = np.concatenate([p[1] for p in parts]) if parts else np.zeros(0)
    order = np.lexsort((index, -score))
    if limit is not None:
        order = order[:limit]
    return index[order], score[order]


def merged_matches(choices: list, n_queries: int, blocks, limit: int | None) -> list[list[Match]]:
    """Every query's matches from its blocks' bests: ``blocks`` yields (first query row, first choice,
    :func:`block_best` of that block), in any order."""
    parts: list[list] = [[] for _ in range(n_queries)]
    for r0, _, best in sorted(blocks, key=lambda block: (block[0], block[1])):
        for k, found in enumerate(best):
            parts[r0 + k].append(found)
    matches = []
    for found in parts:
        index, score = merge_best(found, limit)
        matches.append([Match(choices[i], float(s), int(i)) for i, s in zip(index.tolist(), score.tolist())])
    return matches
