"""The matched words of the report's examples, from :func:`rougekit.explain` (never counted here).

Explaining costs a few milliseconds per pair and system, so a report explains a budget of
examples: the ones its list shows first (per measure the best and worst by the mean over
systems and the biggest differences between systems, as the page's buttons sort them, then
input order), taken in turn until the budget is spent; ``"all"`` explains every example.

Each explained example keeps the texts as the measures saw them (tokens before stemming, in
sentence units) and, per measure and system, the matched positions of the candidate and of each
reference (:func:`rougekit.explanation.views.marked`), written as gaps between sorted positions
in the blob's code characters (:func:`rougekit.report.html_pack.code`).
"""

from __future__ import annotations

import numpy as np

from rougekit.errors import OptionError
from rougekit.explanation import explain
from rougekit.explanation.views import marked
from rougekit.report.html_model import ReportData
from rougekit.report.html_pack import code

DEFAULT_BUDGET = 300  # examples explained by default (each for every system)


def budget_of(value) -> int | None:
    """``"all"`` -> None (every example), else a whole number >= 0."""
    if value is None or value == "all":
        return None
    try:
        n = int(value)
    except (TypeError, ValueError):
        raise OptionError(f"highlights must be a whole number or 'all', got {value!r}") from None
    if n < 0 or str(n) != str(value).strip():
        raise OptionError(f"highlights must be a whole number >= 0 or 'all', got {value!r}")
    return n


def select(data: ReportData, budget: int | None) -> list[int]:
    """The examples to explain, in input order (see the module docstring)."""
    n = data.size
    if budget is None or budget >= n:
        return list(range(n))
    orders = []
    for m in data.measures:
        if m in data.single:
            continue
        values = np.stack([data.main_values(s, m) for s in data.systems])
        mean = values.mean(axis=0)
        orders += [np.argsort(-mean, kind="stable"), np.argsort(mean, kind="stable")]
        if len(data.systems) > 1:
            orders.append(np.argsort(-(values.max(axis=0) - values.min(axis=0)), kind="stable"))
    orders.append(np.arange(n))
    chosen: set[int] = set()
    position = [0] * len(orders)
    while len(chosen) < budget:
        for k, order in enumerate(orders):
            while position[k] < n and int(order[position[k]]) in chosen:
                position[k] += 1
            if position[k] < n and len(chosen) < budget:
                chosen.add(int(order[position[k]]))
    return sorted(chosen)


def _shown(token: str) -> str:
    """A token as one display word (white space inside a custom tokenizer's token would split it)."""
    return "".join("\u2423" if ch.isspace() else ch for ch in token) or "\u2205"


def _side_text(side) -> tuple[str, list[int]]:
    """(the side's words as a text with sentences on lines, the offset of each sentence)."""
    units = side.sentence_words if side.sentence_words is not None else side.sentences
    offsets, at = [], 0
    for unit in units:
        offsets.append(at)
        at += len(unit)
    return "\n".join(" ".join(_shown(t) for t in unit) for unit in units), offsets


def _positions(hits: set, offsets: list[int]) -> str:
    """Matched positions (token indices or (sentence, index) pairs) as gaps in code characters."""
    flat = sorted(offsets[p[0]] + p[1] if isinstance(p, tuple) else p for p in hits)
    out, previous = [], -1
    for p in flat:
        out.append(code(p - previous - 1))
        previous = p
    return "".join(out)


def highlights(data: ReportData, options: dict, budget: int | None) -> dict | None:
    """The explained examples' texts (as plain texts, for the blob's vocabulary) and marks, or None
    when the report has no texts or the texts cannot be explained (token ids)."""
    if data.candidates is None or data.references is None or not data.explainable:
        return None
    measures = [m for m in data.measures if m not in data.single]
    if not measures:
        return None
    pairs = [p for p in select(data, budget) if data.references[p]]  # explain needs a reference
    ref_texts: list[list[str]] = []
    cand_texts: list[list[str]] = [[] for _ in data.systems]
    marks = {m: {"cand": [[] for _ in data.systems], "ref": [[] for _ in data.systems]} for m in measures}
    listed: set[str] = set()
    for p in pairs:
        refs = data.references[p]
        for s, system in enumerate(data.systems):
            e = explain(data.candidates[system.name][p], refs, measures=measures, **options)
            if s == 0:
                sides = [_side_text(r) for r in e.references]
                ref_texts.append([text for text, _ in sides])
            text, cand_offsets = _side_text(e.candidate)
            cand_texts[s].append(text)
            for m in measures:
                ex = e[m]
                if ex.matches is None:
                    marks[m]["cand"][s].append("")
                    marks[m]["ref"][s].append(["" for _ in refs])
                    continue
                listed.add(m)
                if ex.positions == "tokens" and not _joined_is_units(e):
                    raise OptionError(f"{m}: explain's joined tokens differ from its sentence units (pair {p + 1})")
                cand, ref_hits = marked(ex, len(e.references))
                marks[m]["cand"][s].append(_positions(cand, cand_offsets))
                marks[m]["ref"][s].append([_positions(h, off) for h, (_, off) in zip(ref_hits, sides)])
    return {
        "pairs": pairs,
        "ref_texts": ref_texts,
        "cand_texts": cand_texts,
        "marks": {data.measures.index(m): marks[m] for m in measures if m in listed},
    }


def _joined_is_units(e) -> bool:
    return all(side.tokens == [t for unit in side.sentences for t in unit] for side in (e.candidate, *e.references))
