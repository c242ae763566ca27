"""Scoring a Spark DataFrame in the executors (``pip install 'rougekit[spark]'``); see ``docs/spark.md``.

:func:`score` returns what ``rougekit.score`` returns on the collected data, number for number: the
executors' Python workers count each Arrow batch (``mapInArrow``) with the batch function the Dask
workers run (:func:`rougekit.dask.partition.score_partition`), and the driver merges the per-pair
statistics in the DataFrame's order into one result. :func:`per_pair` adds per-pair scores to the DataFrame as
new columns. :func:`cdist`, :func:`extract` and :func:`dedup` are :mod:`rougekit.process`'s, the blocks
scored in Spark tasks (the same matrix, matches and decisions).
"""

from rougekit.spark.matrix import cdist, dedup, extract
from rougekit.spark.scoring import per_pair, score

__all__ = ["score", "per_pair", "cdist", "extract", "dedup"]
