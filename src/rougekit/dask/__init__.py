"""Scoring on a Dask cluster (``pip install 'rougekit[dask]'``); see ``docs/dask.md``.

:func:`score` takes a Dask DataFrame or Bag and returns what ``rougekit.score`` returns on the
gathered data, number for number; the counting runs in the workers
(:func:`~rougekit.dask.partition.score_partition`, the same batch function :mod:`rougekit.spark` runs
on Arrow batches and a Spark ``mapInPandas`` recipe calls through
:func:`~rougekit.dask.partition.statistics_frame`).
:func:`cdist`, :func:`extract` and :func:`dedup` are :mod:`rougekit.process`'s, over blocks of the matrix.
"""

from rougekit.dask.matrix import cdist, dedup, extract
from rougekit.dask.partition import result_from_frame, score_partition, spark_schema, statistics_frame
from rougekit.dask.scoring import score

__all__ = [
    "score",
    "cdist",
    "extract",
    "dedup",
    "score_partition",
    "statistics_frame",
    "result_from_frame",
    "spark_schema",
]
