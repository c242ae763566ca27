"""``rougekit variants --format html``: the implementations' table, the target's matches and the
``--explain A B`` decomposition as one self-contained page (the report's styles; no script, no network).

    page(data, pairs=N) -> str      # data: the JSON of ``rougekit variants --format json``
    section(data) -> str            # the same, as sections another page can hold

It reads the JSON form only (``VariantsResult.to_dict()`` with ``"explain"``), so the page shows
exactly the numbers ``--format json`` prints: every number's full value is in a ``data-value``
attribute, the text shows it to 5 decimals as the text table does. The decomposition is drawn as
a waterfall: one bar per factor, from the running total before its switch to the one after, so
the bars end at row B's number; the pairs that differ most list the tokens each side counted.
"""

from __future__ import annotations

from html import escape

from rougekit.stats.paired import signed

KEYS = ("recall", "precision", "f")
WIDTH = 560  # the waterfall's plotting width, in px
BAR = 18  # one factor's row height

STYLE = _STYLE = """
table.variants td.cmd { font: 12px ui-monospace, monospace; color: #333; max-width: 36em; word-break: break-all; }
table.variants td.none { color: #999; text-align: center; }
svg.waterfall { background: #fafbfc; border: 1px solid #e4e7ec; border-radius: 4px; }
svg.waterfall text { font-size: 11px; fill: #1d2330; }
svg.waterfall .up { fill: #3c9a5f; }
svg.waterfall .down { fill: #c0504d; }
svg.waterfall .zero { stroke: #999; }
svg.waterfall .end { fill: #5b8def; }
svg.waterfall .axis { stroke: #bbb; stroke-dasharray: 3 2; }
table.pairs td.tokens { font: 12px ui-monospace, monospace; }
table.pairs span.only { background: #ffe08a; border-radius: 2px; }
"""


def _num(value, digits: int = 5, signed: bool = False, attrs: str = "") -> str:
    """A number's cell: the full value in ``data-value``, the text to ``digits`` decimals; ``attrs``
    more attributes."""
    extra = f" {attrs}" if attrs else ""
    if value is None:
        return f'<td class="none" data-value=""{extra}>-</td>'
    text = f"{value:+.{digits}f}" if signed else f"{value:.{digits}f}"
    return f'<td class="num" data-value="{value!r}"{extra}>{text}</td>'


def _rows_table(rows: list, measures: list) -> str:
    head = '<tr><th rowspan="2">row</th><th rowspan="2">package</th><th rowspan="2">aggregation</th>'
    head += "".join(f'<th colspan="3">{escape(m)}</th>' for m in measures) + "</tr><tr>"
    head += "".join('<th class="num">R</th><th class="num">P</th><th class="num">F</th>' for _ in measures) + "</tr>"
    body = []
    for r in rows:
        cells = [
            f'<td class="name">{escape(r["name"])}</td>',
            f"<td>{escape(r['package'])} {escape(r['version'])}</td>",
            f"<td>{escape(r['aggregation'])}</td>",
        ]
        for m in measures:
            for k in KEYS:
                cells.append(_num(r["scores"][m][k], attrs=f'data-measure="{escape(m)}" data-key="{k}"'))
        body.append(f'<tr data-row="{escape(r["name"])}">{"".join(cells)}</tr>')
    commands = "".join(
        f'<tr data-row="{escape(r["name"])}"><td class="name">{escape(r["name"])}</td>'
        f'<td class="cmd">{escape(r["command"])}</td><td class="cmd">{escape(r["signature"])}</td></tr>'
        for r in rows
    )
    return (
        f'<table class="variants rows"><thead>{head}</thead><tbody>{"".join(body)}</tbody></table>'
        '<h3>Commands and signatures</h3><table class="variants commands"><thead><tr><th>row</th>'
        "<th>call or command that gives it</th><th>rougekit signature</th></tr></thead>"
        f"<tbody>{commands}</tbody></table>"
    )


def _matches_table(matches: list, measures: list, stat: str) -> str:
    if not matches:
        return '<p class="meta">No setting of the search space prints the target.</p>'
    head = '<tr><th>name</th><th class="num">distance</th>' + "".join(
        f'<th class="num">{escape(m)} {escape(stat)}</th>' for m in measures
    )
    head += "<th>command</th></tr>"
    body = []
    for m in matches:
        cells = [f'<td class="name">{escape(m["name"])}</td>', _num(m["distance"], 4)]
        for name in measures:
            cells.append(_num(m["scores"][name][stat], attrs=f'data-measure="{escape(name)}" data-key="{stat}"'))
        cells.append(f'<td class="cmd">{escape(m["command"])}</td>')
        body.append(f'<tr data-match="{escape(m["name"])}">{"".join(cells)}</tr>')
    return f'<table class="variants matches"><thead>{head}</thead><tbody>{"".join(body)}</tbody></table>'


def waterfall(d: dict) -> str:
    """One measure's decomposition as an inline SVG: A's number, a bar per factor (from the running
    total before its switch to the one after), B's number."""
    shares = d["shares"]
    running, points = d["a"], [d["a"]]
    for s in shares:
        running += s["delta"]
        points.append(running)
    lo, hi = min(points + [d["b"]]), max(points + [d["b"]])
    span = (hi - lo) or 1.0
    label_w, value_w = 150, 90
    height = BAR * (len(shares) + 2) + 30

    def x(v: float) -> float:
        return label_w + (v - lo) / span * WIDTH

    out = [
        f'<svg class="waterfall" xmlns="http://www.w3.org/2000/svg" width="{label_w + WIDTH + value_w}" '
        f'height="{height}" role="img" aria-label="{escape(d["measure"])} {escape(d["stat"])}: '
        f'B minus A by factor">'
    ]

    def end_bar(row: int, label: str, value: float) -> None:  # A's and B's numbers: a mark on the axis
        y = 8 + row * BAR
        out.append(
            f'<g class="total" data-label="{escape(label)}" data-value="{value!r}">'
            f'<text x="4" y="{y + 12}">{escape(label)}</text>'
            f'<rect class="end" x="{x(value) - 1.5:.2f}" y="{y + 1}" width="3" height="{BAR - 2}"/>'
            f'<text x="{label_w + WIDTH + 6}" y="{y + 12}">{value:.5f}</text></g>'
        )

    end_bar(0, "A", d["a"])
    before = d["a"]
    for i, s in enumerate(shares, start=1):
        after = before + s["delta"]
        y = 8 + i * BAR
        left, right = sorted((x(before), x(after)))
        cls = "up" if s["delta"] > 0 else "down" if s["delta"] < 0 else "zero"
        shape = (
            f'<line class="zero" x1="{left:.2f}" x2="{left:.2f}" y1="{y + 3}" y2="{y + BAR - 3}"/>'
            if s["delta"] == 0
            else f'<rect class="{cls}" x="{left:.2f}" y="{y + 3}" width="{max(right - left, 1):.2f}" '
            f'height="{BAR - 6}"/>'
        )
        title = f"{s['factor']}: {s['a']} -> {s['b']}"
        out.append(
            f'<g class="share" data-factor="{escape(s["factor"])}" data-delta="{s["delta"]!r}">'
            f"<title>{escape(title)}</title>"
            f'<text x="4" y="{y + 12}">{escape(s["factor"])}</text>{shape}'
            f'<text x="{label_w + WIDTH + 6}" y="{y + 12}">{signed(s["delta"])}</text></g>'
        )
        before = after
    end_bar(len(shares) + 1, "B", d["b"])
    bottom = height - 10
    for v in (d["a"], d["b"]):
        out.append(f'<line class="axis" x1="{x(v):.2f}" x2="{x(v):.2f}" y1="4" y2="{bottom - 10}"/>')
    out.append(
        f'<text class="tick" x="{label_w}" y="{bottom}">{lo:.5f}</text>'
        f'<text class="tick" x="{label_w + WIDTH}" y="{bottom}" text-anchor="end">{hi:.5f}</text></svg>'
    )
    return "".join(out)


def _shares_table(d: dict) -> str:
    rows = "".join(
        f'<tr data-factor="{escape(s["factor"])}"><td>{escape(s["factor"])}</td>{_num(s["delta"], 5, True)}'
        f"<td>{escape(str(s['a']))}</td><td>{escape(str(s['b']))}</td></tr>"
        for s in d["shares"]
    )
    total = (
        f'<tr class="best" data-factor="total"><td>total (B \u2212 A)</td>{_num(d["total"], 5, True)}'
        "<td></td><td></td></tr>"
    )
    return (
        '<table class="variants shares"><thead><tr><th>factor</th><th class="num">change</th><th>A</th><th>B</th>'
        f"</tr></thead><tbody>{rows}{total}</tbody></table>"
    )


def _tokens(mine: list, theirs: list) -> str:
    """Tokens as text, those the other side did not see marked."""
    other = set(theirs)
    return " ".join(f'<span class="only">{escape(t)}</span>' if t not in other else escape(t) for t in mine)


def _pairs_table(pairs: list) -> str:
    if not pairs:
        return '<p class="meta">No pair differs (beyond float rounding) between the two settings.</p>'
    body = []
    for p in pairs:
        a, b = p["a_tokens"], p["b_tokens"]
        body.append(
            f'<tr data-pair="{p["pair"]}"><td rowspan="4" class="num">{p["pair"]}</td>'
            + _num(p["a"], attrs='rowspan="4" data-side="a"')
            + _num(p["b"], attrs='rowspan="4" data-side="b"')
            + f'<th>A candidate</th><td class="tokens">{_tokens(a["candidate"], b["candidate"])}</td></tr>'
            f'<tr><th>B candidate</th><td class="tokens">{_tokens(b["candidate"], a["candidate"])}</td></tr>'
            f'<tr><th>A reference</th><td class="tokens">{_tokens(a["reference"], b["reference"])}</td></tr>'
            f'<tr><th>B reference</th><td class="tokens">{_tokens(b["reference"], a["reference"])}</td></tr>'
        )
    return (
        '<table class="variants pairs"><thead><tr><th class="num">pair</th><th class="num">A</th>'
        '<th class="num">B</th><th colspan="2">tokens each side counted (marked: not on the other side)</th>'
        f"</tr></thead><tbody>{''.join(body)}</tbody></table>"
    )


def explain_section(explain: list, a: str, b: str) -> str:
    """The ``--explain A B`` section: per measure the waterfall, the shares and the pairs."""
    out = [
        f'<section id="explain" data-a="{escape(a)}" data-b="{escape(b)}">'
        f"<h2>Why {escape(a)} (A) and {escape(b)} (B) differ</h2>",
        "<p class=\"meta\">The factors are switched from A's setting to B's one at a time (or averaged over "
        "every order with --shapley); each bar is the change of the corpus number at its switch, and the "
        "changes add up to B \u2212 A exactly. <em>implementation</em> is what the option space does not model.</p>",
    ]
    for d in explain:
        m = escape(d["measure"])
        out.append(
            f'<div class="decomposition" data-measure="{m}" data-stat="{escape(d["stat"])}" '
            f'data-method="{escape(d["method"])}">'
            f"<h3>{m} {escape(d['stat'])}: {d['a']:.5f} \u2192 {d['b']:.5f} "
            f"({signed(d['total'])}, {escape(d['method'])})</h3>"
            f"{waterfall(d)}{_shares_table(d)}<h4>Pairs that differ most</h4>{_pairs_table(d['pairs'])}</div>"
        )
    out.append("</section>")
    return "".join(out)


def section(
    data: dict,
    explain_rows: tuple | None = None,
    stat: str = "f",
    *,
    system: str | None = None,
    anchor: str = "variants",
    skipped: list | None = None,
) -> str:
    """The rows (and the matches, and the explanation when ``data`` has them) as HTML sections;
    ``stat``: the target's statistic (the matches' columns). In ``rougekit report``: ``system`` names
    the system the rows score (``data-system``), ``anchor`` is the section's id (one per system;
    its matches are ``<anchor>-target``), ``skipped`` the rows left out with why."""
    rows = data["rows"]
    measures = list(rows[0]["scores"]) if rows else []
    who = f' data-system="{escape(system)}"' if system is not None else ""
    heading = "Every implementation on these pairs" + (f": {escape(system)}" if system is not None else "")
    notes = "".join(f'<p class="meta note">row {escape(n)} left out: {escape(why)}</p>' for n, why in skipped or ())
    out = [
        f'<section id="{escape(anchor)}"{who}><h2>{heading}</h2>',
        '<p class="meta">Scores are fractions (recall, precision, F); each row is computed by rougekit\'s '
        "bit-identical reimplementation of the package version shown.</p>",
        notes,
        _rows_table(rows, measures) if rows else '<p class="meta">No row could be computed.</p>',
        "</section>",
    ]
    if "matches" in data:
        table = _matches_table(data["matches"], measures, stat)
        target = "target" if anchor == "variants" else f"{anchor}-target"
        heading = "<h2>Settings that print the target (or the nearest)</h2>"
        out.append(f'<section id="{escape(target)}"{who}>{heading}{table}</section>')
    if data.get("explain"):
        a, b = explain_rows or ("A", "B")
        out.append(explain_section(data["explain"], a, b))
    return "".join(out)


def page(
    data: dict,
    *,
    pairs: int,
    explain_rows: tuple | None = None,
    skipped: list | None = None,
    stat: str = "f",
    title: str = "rougekit variants",
) -> str:
    """The whole page: the report's styles and :func:`section`."""
    from rougekit.report.html import page_head

    notes = "".join(f'<p class="meta note">row {escape(n)} left out: {escape(why)}</p>' for n, why in skipped or ())
    return (
        page_head(title, _STYLE)
        + f'<h1>{escape(title)}</h1><p class="meta">{pairs} pairs; {len(data["rows"])} rows</p>{notes}\n'
        + section(data, explain_rows, stat)
        + "\n</body></html>\n"
    )
