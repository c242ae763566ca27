"""Plots of metric against human scores (the ``plot`` extra: matplotlib, imported when used).

- :func:`scatter_by_system`: per-system means of a metric against per-system human means.
- :func:`rank_plot`: Lin & Hovy (2003) Figure 2 style: each system's rank by the human scores
  against its rank by the metric (a perfect metric puts every system on the diagonal).
"""

from __future__ import annotations

import numpy as np

from rougekit.errors import InputError, OptionError
from rougekit.meta.correlation import rankdata, system_means


def _pyplot():
    try:
        import matplotlib
    except ImportError:
        raise OptionError("plots need matplotlib: pip install 'rougekit[plot]'") from None
    matplotlib.use("Agg")  # files only; never needs a display
    import matplotlib.pyplot as plt

    return plt


def _kept(metric, human, systems):
    X = np.atleast_2d(np.asarray(metric, dtype=float).T).T
    Y = np.atleast_2d(np.asarray(human, dtype=float).T).T
    keep = (~(np.isnan(X) | np.isnan(Y))).sum(axis=1) > 0
    return [s for s, k in zip(systems, keep) if k]


def _system_points(metric, human, systems):
    """pyplot, the per-system means of both matrices and the systems with a valid cell."""
    x, y = system_means(metric, human)
    return _pyplot(), x, y, _kept(metric, human, systems)


def _labelled_points(plt, fig, ax, x, y, names, xlabel: str, ylabel: str, path: str) -> str:
    """Draw the points with their system names and save the figure."""
    ax.scatter(x, y)
    for name, a, b in zip(names, x, y):
        ax.annotate(str(name), (a, b), fontsize=7, xytext=(3, 3), textcoords="offset points")
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    fig.tight_layout()
    try:
        fig.savefig(path, dpi=120)
    except OSError as exc:  # a folder, a missing folder, no permission: one line naming the file
        raise InputError(f"cannot write plot {path}: {exc.strerror or type(exc).__name__}") from None
    finally:
        plt.close(fig)
    return path


def scatter_by_system(
    metric, human, systems: list[str], path: str, *, metric_name: str = "metric", human_name: str = "human"
) -> str:
    """Scatter of per-system means (system × instance matrices, NaN = missing), saved to ``path``."""
    plt, x, y, systems = _system_points(metric, human, systems)
    fig, ax = plt.subplots(figsize=(5, 4))
    return _labelled_points(
        plt, fig, ax, x, y, systems, f"{metric_name} (system mean)", f"{human_name} (system mean)", path
    )


def rank_plot(
    metric, human, systems: list[str], path: str, *, metric_name: str = "metric", human_name: str = "human"
) -> str:
    """Ranks of the systems (1 = best) by human scores against ranks by the metric, saved to ``path``."""
    plt, x, y, systems = _system_points(metric, human, systems)
    n = len(x)
    metric_rank = n + 1 - rankdata(np.asarray(x))
    human_rank = n + 1 - rankdata(np.asarray(y))
    fig, ax = plt.subplots(figsize=(5, 5))
    ax.plot([1, n], [1, n], color="grey", linewidth=0.8)
    return _labelled_points(
        plt, fig, ax, human_rank, metric_rank, systems, f"rank by {human_name}", f"rank by {metric_name}", path
    )
