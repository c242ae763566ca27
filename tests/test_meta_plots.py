"""Plots: files are written, and the rank plot puts each system at its hand-computed ranks."""

from __future__ import annotations

import contextlib
import io

import numpy as np
import pytest

pytest.importorskip("matplotlib", reason="matplotlib (the plot extra) is not installed")

from rougekit.cli.main import main  # noqa: E402
from rougekit.meta import plots  # noqa: E402


def test_rank_plot_positions(tmp_path, monkeypatch):
    seen = {}
    import matplotlib.axes

    real = matplotlib.axes.Axes.scatter

    def spy(self, x, y, *a, **k):
        seen["x"], seen["y"] = list(x), list(y)
        return real(self, x, y, *a, **k)

    monkeypatch.setattr(matplotlib.axes.Axes, "scatter", spy)
    metric = np.array([[0.1, 0.3], [0.5, 0.5], [0.2, np.nan]])  # system means 0.2, 0.5, 0.2
    human = np.array([[1.0, 3.0], [2.0, 2.0], [9.0, 1.0]])  # over valid cells: 2.0, 2.0, 9.0
    path = plots.rank_plot(metric, human, ["a", "b", "c"], str(tmp_path / "rank.png"))
    assert (tmp_path / "rank.png").stat().st_size > 1000 and path.endswith("rank.png")
    # human ranks (1 = best): c first; a and b tie for 2-3 -> 2.5 each
    assert seen["x"] == [2.5, 2.5, 1.0]
    # metric ranks: b first; a and c tie -> 2.5 each
    assert seen["y"] == [2.5, 1.0, 2.5]


def test_correlate_plot_option(tmp_path):
    (tmp_path / "m.csv").write_text("system,rouge\nA,0.1\nB,0.2\nC,0.3\n")
    (tmp_path / "h.csv").write_text("system,rel\nA,1\nB,3\nC,2\n")
    err = io.StringIO()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
        assert (
            main(["correlate", str(tmp_path / "m.csv"), str(tmp_path / "h.csv"), "--plot", str(tmp_path / "fig")]) == 0
        )
    assert (tmp_path / "fig-rouge-rel-scatter.png").exists() and (tmp_path / "fig-rouge-rel-rank.png").exists()
