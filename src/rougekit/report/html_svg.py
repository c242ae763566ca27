"""Inline SVG plots of the HTML report: a histogram of per-pair values with a box plot under it.

Drawn here from the numbers (numpy), so the page needs no plotting library and shows the
plots with scripts off. The box spans the quartiles with the median; the whiskers reach the
5th and 95th percentiles; the dashed line is the mean.
"""

from __future__ import annotations

from html import escape

import numpy as np

WIDTH, HEIGHT = 260, 130
LEFT, RIGHT, TOP = 30, 8, 18
PLOT_H = 70  # bars
BOX_Y = TOP + PLOT_H + 8  # box plot band
BOX_H = 10
AXIS_Y = BOX_Y + BOX_H + 6


def _x(value: float, lo: float, hi: float) -> float:
    return LEFT + (value - lo) / (hi - lo) * (WIDTH - LEFT - RIGHT)


def _num(x: float) -> str:
    return f"{x:.1f}".rstrip("0").rstrip(".")


def histogram(values: np.ndarray, lo: float, hi: float, title: str, bins: int = 20, css: str = "bar") -> str:
    """An SVG histogram of ``values`` over [lo, hi] in ``bins`` equal bins, with a box plot and the mean."""
    values = np.asarray(values, dtype=np.float64)
    values = values[np.isfinite(values)]
    counts, edges = np.histogram(np.clip(values, lo, hi), bins=bins, range=(lo, hi))
    top = max(int(counts.max()) if counts.size else 0, 1)
    parts = [
        f'<svg class="hist" viewBox="0 0 {WIDTH} {HEIGHT}" width="{WIDTH}" height="{HEIGHT}" role="img">',
        f"<title>{escape(title)}</title>",
        f'<text x="{LEFT}" y="12" class="t">{escape(title)}</text>',
    ]
    for count, a, b in zip(counts.tolist(), edges[:-1], edges[1:]):
        if not count:
            continue
        h = PLOT_H * count / top
        x0, x1 = _x(a, lo, hi), _x(b, lo, hi)
        parts.append(
            f'<rect class="{css}" x="{_num(x0)}" y="{_num(TOP + PLOT_H - h)}" width="{_num(max(x1 - x0 - 1, 0.5))}" '
            f'height="{_num(h)}"><title>{a:.2f} to {b:.2f}: {count}</title></rect>'
        )
    base = TOP + PLOT_H
    parts.append(f'<line class="axis" x1="{LEFT}" y1="{base}" x2="{WIDTH - RIGHT}" y2="{base}"/>')
    parts.append(f'<text x="{LEFT - 3}" y="{TOP + 8}" class="n">{top}</text>')
    if values.size:
        p5, q1, med, q3, p95 = np.percentile(values, [5, 25, 50, 75, 95]).tolist()
        mean = float(values.mean())
        mid = BOX_Y + BOX_H / 2
        xs = {k: _num(_x(v, lo, hi)) for k, v in (("p5", p5), ("q1", q1), ("med", med), ("q3", q3), ("p95", p95))}
        parts.append(
            f'<g class="box"><title>5%: {p5:.3f}, quartiles: {q1:.3f} / {med:.3f} / {q3:.3f}, 95%: {p95:.3f}</title>'
            f'<line x1="{xs["p5"]}" y1="{mid}" x2="{xs["q1"]}" y2="{mid}"/>'
            f'<line x1="{xs["q3"]}" y1="{mid}" x2="{xs["p95"]}" y2="{mid}"/>'
            f'<rect x="{xs["q1"]}" y="{BOX_Y}" width="{_num(max(_x(q3, lo, hi) - _x(q1, lo, hi), 0.5))}" '
            f'height="{BOX_H}"/>'
            f'<line x1="{xs["med"]}" y1="{BOX_Y}" x2="{xs["med"]}" y2="{BOX_Y + BOX_H}"/></g>'
        )
        xm = _num(_x(min(max(mean, lo), hi), lo, hi))
        parts.append(
            f'<line class="mean" x1="{xm}" y1="{TOP}" x2="{xm}" y2="{BOX_Y + BOX_H}">'
            f"<title>mean {mean:.5f}</title></line>"
        )
    for tick in (lo, (lo + hi) / 2, hi):
        x = _num(_x(tick, lo, hi))
        parts.append(f'<text x="{x}" y="{AXIS_Y + 8}" class="tick">{tick:g}</text>')
    parts.append("</svg>")
    return "".join(parts)
