"""The HTML report: one self-contained file (styles, script, plots and data inline; no network).

    build(data) -> str          # data: html_model.from_results(...) or html_model.from_saved(path)

Sections: a table per measure (R/P/F as the ``rougekit score`` table prints them, the intervals,
system ranks), pairwise significance between systems (approximate randomization and paired
bootstrap from :mod:`rougekit.stats.paired`), distributions of the per-pair values and of the
per-pair differences (inline SVG), and the list of examples (sortable and filterable by the
page's script, from one JSON blob, see :mod:`rougekit.report.html_pack`).
"""

from __future__ import annotations

import json
from dataclasses import replace
from html import escape
from importlib import resources

from rougekit import limits
from rougekit._version import __version__
from rougekit.errors import OptionError
from rougekit.report import html_explain, html_pack
from rougekit.report.formats import value_text
from rougekit.report.html_model import KEYS, Comparison, ReportData, ranks, significance
from rougekit.report.html_svg import histogram
from rougekit.signature import Signature, number
from rougekit.stats import paired
from rougekit.stats.paired import signed

DEFAULT_TRIALS = paired.DEFAULT_TRIALS  # randomization trials / bootstrap resamples, as `rougekit compare`


def asset(name: str) -> str:
    return (resources.files("rougekit.report") / "html_assets" / name).read_text(encoding="utf-8")


def page_head(title: str, style: str = "") -> str:
    """A page's start up to its ``<body>``: the report's styles, then ``style``."""
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f'<meta name="generator" content="rougekit {escape(__version__)}">'
        f"<title>{escape(title)}</title><style>{asset('report.css')}{style}</style></head>\n<body>\n"
    )


def _script_safe(text: str) -> str:
    """JavaScript that cannot end or confuse the ``<script>`` element it sits in."""
    return text.replace("</", "<\\/").replace("<!--", "<\\!--")


def _json_script_safe(blob: str) -> str:
    """JSON that cannot end or confuse its ``<script>`` element, and still parses: every ``<`` (only ever
    inside a string) as ``\\u003c`` (``<\\!--`` is no JSON escape: JSON.parse failed on a ``<!--`` in a text)."""
    return blob.replace("<", "\\u003c")


def signature_with_tests(signature: str, trials: int, seed: int, confidence: float) -> str:
    """The scores' signature with the pairwise tests' fields (as ``rougekit compare`` prints them)."""
    try:
        sig = Signature.parse(signature)
    except OptionError:
        return signature  # a saved result with a foreign signature: shown as it is
    return str(
        replace(sig, test="ar+bootstrap", trials=trials, test_seed=str(seed), test_confidence=number(confidence))
    )


def _score_table(data: ReportData, measure: str) -> str:
    level = data.level()
    single = measure in data.single
    rank = ranks(data, measure)
    head = ["rank", "system"]
    head += ["score"] if single else ["recall", "precision", "F"]
    with_iv = not single and any("interval" in s.corpus[measure] for s in data.systems)
    if with_iv:
        head += [f"{level:g}% interval of {k}" for k in ("R", "P", "F")]
    rows = []
    for s, r in zip(data.systems, rank):
        v = s.corpus[measure]
        cells = [f'<td class="rank">{r}</td>', f'<td class="system">{escape(s.name)}</td>']
        if single:
            cells.append(f'<td class="num" data-key="score">{value_text(v["score"])}</td>')
        else:
            cells += [f'<td class="num" data-key="{k}">{value_text(v[k])}</td>' for k in KEYS]
        if with_iv:
            for k in KEYS:
                iv = v.get("interval", {}).get(k)
                text = f"[{value_text(iv['low'])}, {value_text(iv['high'])}]" if iv else ""
                cells.append(f'<td class="iv" data-key="{k}-interval">{text}</td>')
        best = ' class="best"' if r == 1 and len(data.systems) > 1 else ""
        rows.append(f'<tr{best} data-system="{escape(s.name)}">{"".join(cells)}</tr>')
    header = "".join(
        f'<th class="{"num" if h in ("recall", "precision", "F", "score") else ""}">{h}</th>' for h in head
    )
    return (
        f'<table class="scores" data-measure="{escape(measure)}"><thead><tr>{header}</tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table>"
    )


def _significance_table(data: ReportData, tests: list[Comparison], measure: str, confidence: float) -> str:
    alpha = 1 - confidence / 100
    key = "score" if measure in data.single else "F"
    rows = []
    for t in tests:
        if t.measure != measure:
            continue
        a, b = data.systems[t.a].name, data.systems[t.b].name
        sig = max(t.p_randomization, t.p_bootstrap) < alpha
        verdict = (
            f'<td class="sig-yes">{escape(b if t.delta > 0 else a)} better</td>'
            if sig
            else '<td class="sig-no">no</td>'
        )
        rows.append(
            f'<tr data-a="{escape(a)}" data-b="{escape(b)}"><td>{escape(b)} \u2212 {escape(a)}</td>'
            f'<td class="num">{signed(t.delta)}</td><td class="num">{t.p_randomization:.4f}</td>'
            f'<td class="num">{t.p_bootstrap:.4f}</td>'
            f'<td class="iv">[{signed(t.low)}, {signed(t.high)}]</td>{verdict}</tr>'
        )
    return (
        f'<table class="significance" data-measure="{escape(measure)}"><thead><tr><th>pair</th>'
        f'<th class="num">mean \u0394{key}</th><th class="num">p (randomization)</th>'
        f'<th class="num">p (bootstrap)</th><th>{confidence:g}% interval of \u0394</th>'
        f"<th>significant at {alpha:g} (both tests)</th></tr></thead><tbody>{''.join(rows)}</tbody></table>"
    )


def _plots(data: ReportData, measure: str) -> str:
    key = "score" if measure in data.single else "F"
    lo = min(0.0, *(float(data.main_values(s, measure).min(initial=0.0)) for s in data.systems))
    hi = max(1.0, *(float(data.main_values(s, measure).max(initial=1.0)) for s in data.systems))
    out = ['<div class="plots">']
    for s in data.systems:
        out.append(histogram(data.main_values(s, measure), lo, hi, f"{s.name}: per-pair {measure} {key}"))
    out.append("</div>")
    if len(data.systems) > 1:
        out.append('<div class="plots">')
        span = max(abs(hi - lo), 1e-9)
        for i in range(len(data.systems)):
            for j in range(i + 1, len(data.systems)):
                a, b = data.systems[i], data.systems[j]
                diff = data.main_values(b, measure) - data.main_values(a, measure)
                title = f"{b.name} \u2212 {a.name}: per-pair \u0394{key}"
                out.append(histogram(diff, -span, span, title, css="diff"))
        out.append("</div>")
    return "".join(out)


def _examples_blob(data: ReportData, marks: dict | None) -> dict:
    """The list's data (:mod:`rougekit.report.html_pack`); ``marks`` from :func:`html_explain.highlights`."""
    blob: dict = {
        "final": html_pack.FINAL,
        "lead": html_pack.LEAD,
        "scale": html_pack.SCALE,
        "systems": [s.name for s in data.systems],
        "measures": data.measures,
        "single": [m in data.single for m in data.measures],
        "ids": data.ids,
        "values": {
            k: [[html_pack.scores(col) for col in s.values[m].T] for s in data.systems]
            for k, m in enumerate(data.measures)
        },
        "words": [],
        "refs": None,
        "cands": None,
    }
    # single-valued measures keep one column: recall and precision slots repeat it (never shown)
    for k, m in enumerate(data.measures):
        if m in data.single:
            blob["values"][k] = [cols * 3 for cols in blob["values"][k]]
    refs = data.references or []
    texts = [r for rs in refs for r in rs]
    for s in data.systems if data.candidates is not None else []:
        texts += data.candidates[s.name]
    blob["words"], encoded = html_pack.encode_all(texts)
    parts = iter(encoded)
    if data.references is not None:
        blob["refs"] = [[next(parts) for _ in rs] for rs in refs]
    if data.candidates is not None:
        blob["cands"] = [[next(parts) for _ in range(data.size)] for _ in data.systems]
    if marks is not None:
        blob["hl"] = marks
    return blob


_EXAMPLES = """<section id="examples"><h2>Examples</h2>
<div class="controls">
<label>measure <select class="measure"></select></label>
<input class="filter" type="search" placeholder="filter: instance or words (all must occur)">
<button class="preset" data-preset="best">best</button><button class="preset" data-preset="worst">worst</button>
{diff_button}
{ref_select}
<button class="prev">&larr;</button><span class="page"></span><button class="next">&rarr;</button>
<span class="count"></span></div>
<p class="meta">Click a column to sort (again to reverse). {hint}</p>
<table class="examples"><thead></thead><tbody></tbody></table>
<script type="application/json" id="rk-data">{blob}</script>
</section>"""


def _hint(data: ReportData, marks: dict | None, budget: int | None) -> str:
    if data.candidates is None:
        return "The texts are not in this report (built from saved scores)."
    if marks is None:
        why = "the report was built with no highlights" if budget == 0 else "the inputs are not text (token ids)"
        return f"Matched words are not highlighted: {why}."
    shown = data.size if marks["pairs"] is None else len(marks["pairs"])
    which = (
        "every example"
        if shown == data.size
        else (
            f"{shown} of {data.size} examples (per measure the best, the worst and the biggest differences first; "
            "--highlights all for every one)"
        )
    )
    return (
        f"Matched words of the chosen measure (the positions rougekit.explain marks) are highlighted in {which}: "
        "a word is marked where the measure counted it (before stemming; removed stopwords are never marked)."
    )


def build(
    data: ReportData,
    *,
    trials: int = DEFAULT_TRIALS,
    seed: int = 0,
    confidence: float = 95.0,
    title: str = "rougekit report",
    highlights: int | str | None = html_explain.DEFAULT_BUDGET,
    sections: tuple = (),
    style: str = "",
) -> str:
    """The report as one HTML document; ``highlights``: how many examples show their matched words
    (``"all"``: every one; see :mod:`rougekit.report.html_explain`). ``sections``: more HTML
    sections after the scores (``rougekit report --variants``), ``style``: their CSS."""
    budget = html_explain.budget_of(highlights)
    limits.whole("trials", trials, 1, limits.MAX_RESAMPLES)
    limits.whole("seed", seed, 0, limits.MAX_SEED)
    limits.fraction("confidence", confidence, 0, 100, open_ends=True)
    tests = significance(data, trials, seed, confidence) if len(data.systems) > 1 and data.size else []
    signature = signature_with_tests(data.signature, trials, seed, confidence) if tests else data.signature
    body = [
        f"<h1>{escape(title)}</h1>",
        f'<p class="meta">{len(data.systems)} system{"s" if len(data.systems) != 1 else ""}: '
        f"{escape(', '.join(s.name for s in data.systems))}; {data.size} pairs; corpus recall, precision, "
        f"F: {escape(data.average)}</p>",
        f'<p class="meta">signature: <code class="sig">{escape(signature)}</code></p>',
    ]
    if tests:
        body.append(
            f'<p class="meta">pairwise tests on per-pair values, both p-values {paired.SIDEDNESS}: approximate '
            f"randomization (H0: {escape(paired.NULL_HYPOTHESES['approximate-randomization'])}) and paired "
            f"bootstrap (H0: {escape(paired.NULL_HYPOTHESES['paired-bootstrap'])}), {trials} trials each, seed "
            f"{seed}, {confidence:g}% interval (rougekit.stats.paired)</p>"
        )
    body += [f'<p class="meta note">{escape(n)}</p>' for n in data.notes]
    body.append('<section id="scores"><h2>Scores</h2>')
    for m in data.measures:
        body.append(f"<h3>{escape(m)}</h3>{_score_table(data, m)}")
        if tests:
            body.append(_significance_table(data, tests, m, confidence))
            if m in data.single:  # the table's corpus score (BLEU: over the whole corpus) is not a mean of pairs
                body.append(
                    f'<p class="meta">{escape(m)}: the table gives the corpus score; Δ and its tests are '
                    "over per-pair scores (the mean of their differences), so Δ need not be the difference "
                    "of the table's scores</p>"
                )
    body.append("</section>")
    body += list(sections)
    if data.size:
        body.append('<section id="distributions"><h2>Distributions of per-pair values</h2>')
        body.append(
            '<p class="meta">Histograms; under each, a box of the quartiles and median with whiskers at the 5th '
            "and 95th percentiles; dashed: the mean. Second row: differences per pair between two systems.</p>"
        )
        for m in data.measures:
            body.append(f"<h3>{escape(m)}</h3>{_plots(data, m)}")
        body.append("</section>")
        marks = html_explain.highlights(data, data.explain_options, budget) if budget != 0 else None
        blob = json.dumps(_examples_blob(data, marks), ensure_ascii=False, separators=(",", ":"))
        body.append(
            _EXAMPLES.format(
                blob=_json_script_safe(blob),
                hint=escape(_hint(data, marks, budget)),
                ref_select='<label>matches in the references of <select class="refsys"></select></label>'
                if marks and len(data.systems) > 1
                else "",
                diff_button='<button class="preset" data-preset="diff">biggest difference</button>'
                if len(data.systems) > 1
                else "",
            )
        )
    return (
        page_head(title, style)
        + "\n".join(body)
        + f"\n<script>{_script_safe(asset('report.js'))}</script>\n</body></html>\n"
    )
