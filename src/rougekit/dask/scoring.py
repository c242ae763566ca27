"""``rougekit.dask.score``: a Dask DataFrame or Bag scored in the workers, merged into one result."""

from __future__ import annotations

import numpy as np

from rougekit.api import DEFAULT_MEASURES, Scorer, check_keywords
from rougekit.dask.partition import Columns, PartitionStats, relay_warnings, score_partition
from rougekit.errors import OptionError
from rougekit.results import RougeResult


def score(
    collection,
    candidates="prediction",
    references="reference",
    *,
    measures=DEFAULT_MEASURES,
    ids=None,
    sources=None,
    **options,
) -> RougeResult:
    """Score a Dask DataFrame or Bag partition by partition in the workers; the same result as
    ``rougekit.score`` on the gathered data (per pair, corpus, intervals, signature).

    ``candidates``, ``references``, ``ids`` and ``sources`` name columns (or a Bag's record fields):
    a references cell is one reference or a list of them, or give a list of columns, one reference
    each. A Bag may also hold ``(candidate, references)`` tuples. Every other option is
    ``rougekit.score``'s; ``jobs`` (threads of the compiled engine in each task) defaults to 1, as
    Dask runs one task per worker thread. Runs on the current Dask scheduler: the ``distributed``
    client made last (``Client("tcp://scheduler:8786")``), else Dask's local threads.
    """
    check_keywords(options, "rougekit.dask.score", named=("candidates", "references", "measures", "ids", "sources"))
    dask = _dask()
    worker_options = {"jobs": 1, **options}
    driver = Scorer(measures, **worker_options)  # every option checked before any work is sent
    columns = Columns.build(candidates, references, ids, sources)
    parts = _partitions(collection, columns)
    tasks = [
        dask.delayed(score_partition)(
            part, columns, measures, f"partition {k + 1}", dask_strings=True, **worker_options
        )
        for k, part in enumerate(parts)
    ]
    done: list[PartitionStats] = list(dask.compute(*tasks))
    data = np.concatenate([d.data for d in done]) if done else np.zeros((0, len(driver.measures), 6))
    token_pairs = [pair for d in done for pair in d.token_pairs]
    pair_ids = None if ids is None else [i for d in done for i in (d.ids or [])]
    relay_warnings([d.warnings for d in done])
    return driver.result(data, pair_ids, token_pairs)


def _partitions(collection, columns: Columns) -> list:
    """One delayed object per partition, in order: pandas frames with just the columns read, or lists."""
    import dask.bag as db

    if isinstance(collection, db.Bag):
        return list(collection.to_delayed())
    dd = _dataframe()
    if dd is not None and isinstance(collection, dd.DataFrame):
        have = list(collection.columns)
        for name in columns.names:
            if name not in have:
                raise OptionError(f"no column {name!r} in the DataFrame (columns: {', '.join(map(str, have))})")
        for name in (n for n in columns.names if n != columns.ids):
            if collection[name].dtype.kind in "biufcmM":  # numbers, booleans, dates: no text in them
                raise TypeError(f"column {name!r} holds {collection[name].dtype}, not text")
        return list(collection[columns.names].to_delayed())
    raise TypeError(
        f"rougekit.dask.score takes a dask DataFrame or Bag, got {type(collection).__name__} "
        "(lists of texts go to rougekit.score)"
    )


def _dask():
    try:
        import dask
    except ImportError:
        raise ImportError("rougekit.dask needs dask: pip install 'rougekit[dask]'") from None
    return dask


def _dataframe():
    try:
        import dask.dataframe as dd
    except ImportError:  # dask without its dataframe extra: only Bags
        return None
    return dd
