"""Text and HTML views of an :class:`~rougekit.explanation.model.Explanation` (matched tokens marked)."""

from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the model's __str__ and _repr_html_ call these views
    from rougekit.explanation.model import Explanation, MeasureExplanation, Side


def marked(m: MeasureExplanation, n_references: int) -> tuple[set, list[set]]:
    """The matched positions of the candidate and of each reference for one measure: token
    indices, or (sentence, index) pairs when ``m.positions == "sentences"``."""
    cand: set = set()
    refs: list[set] = [set() for _ in range(n_references)]
    for x in m.matches or []:
        for occ in x["candidate_positions"]:
            cand.update(tuple(p) if isinstance(p, list) else p for p in occ)
        for occ in x["reference_positions"]:
            refs[x["reference"]].update(tuple(p) if isinstance(p, list) else p for p in occ)
    return cand, refs


def pieces(side: Side, positions: str, hits: set) -> list[list[tuple[str, bool]]]:
    """The summary as the measure saw it, as sentences of (token, matched) pieces: one
    "sentence" of joined tokens (ROUGE-N, S, SU), or the sentence units (ROUGE-L, W)."""
    if positions == "sentences":
        return [[(t, (s, j) in hits) for j, t in enumerate(sent)] for s, sent in enumerate(side.sentences)]
    return [[(t, i in hits) for i, t in enumerate(side.tokens)]]


def numbers(m: MeasureExplanation) -> str:
    if m.score is not None:
        return f"score {m.score:.5f}"
    counts = f"hits {_n(m.hits)}, reference {_n(m.reference_count)}, candidate {_n(m.candidate_count)}"
    if m.weighted:  # ROUGE-W: f(tokens), not tokens (the count units line says how)
        counts = "in f(tokens): " + counts
    return f"R {m.recall:.5f}  P {m.precision:.5f}  F {m.f:.5f}  ({counts})"


def _n(x) -> str:
    return f"{x:.5f}" if isinstance(x, float) and not x.is_integer() else f"{x:g}"


def _where(occurrences: list) -> str:
    def one(occ):
        return "-".join(f"{p[0] + 1}.{p[1] + 1}" if isinstance(p, list) else str(p + 1) for p in occ)

    return ", ".join(one(o) for o in occurrences) or "-"


def match_line(x: dict, weighted: bool) -> str:
    """One match in words: count (or run), tokens, where in the candidate and the reference."""
    head = f"run of {x['count']} (f = {x['weight']:.5f})" if weighted else f"{x['count']} x"
    where = f"candidate {_where(x['candidate_positions'])}; reference {x['reference'] + 1} at "
    return f"{head} {' '.join(x['tokens'])}   ({where}{_where(x['reference_positions'])})"


def text(e: Explanation) -> str:
    """A readable report: per measure its numbers, the texts with matched tokens in [brackets], the matches."""
    lines = ["candidate: " + " / ".join(" ".join(s) for s in e.candidate.sentences)]
    for k, r in enumerate(e.references):
        lines.append(f"reference {k + 1}: " + " / ".join(" ".join(s) for s in r.sentences))
    lines.append(f"signature: {e.signature}")
    lines.append("positions count from 1: token, or sentence.token")
    for name, m in e.measures.items():
        lines += ["", f"{name}  {numbers(m)}", f"  counts {m.counts_what}"]
        if m.weighted:
            lines.append(f"  count units: {m.count_units}")
        if m.matches is None:
            continue
        cand, refs = marked(m, len(e.references))
        lines.append("  candidate    " + _bracketed(pieces(e.candidate, m.positions, cand)))
        for k in m.used:
            lines.append(f"  reference {k + 1}  " + _bracketed(pieces(e.references[k], m.positions, refs[k])))
        for x in m.matches:
            lines.append("    " + match_line(x, m.weighted))
        for x in m.clipped or []:
            lines.append("    clipped (token used up): " + match_line(x, False))
    return "\n".join(lines)


def _bracketed(sentences) -> str:
    return " / ".join(" ".join(f"[{t}]" if hit else t for t, hit in s) for s in sentences)


_STYLE = (
    "<style>.rk-explain{font-family:sans-serif;font-size:13px}.rk-explain mark{background:#ffe08a;padding:0 1px}"
    ".rk-explain td,.rk-explain th{padding:2px 8px;text-align:left;vertical-align:top}"
    ".rk-explain .rk-m{color:#555}</style>"
)


def html(e: Explanation) -> str:
    """An HTML fragment for notebooks: one table per measure, matched tokens in <mark>; all text escaped."""
    out = [_STYLE, '<div class="rk-explain">', f"<div class=rk-m>{escape(e.signature)}</div>"]
    for name, m in e.measures.items():
        out.append(f"<h4>{escape(name)} <span class=rk-m>{escape(numbers(m))}</span></h4>")
        out.append(f"<div class=rk-m>counts {escape(m.counts_what)}</div>")
        if m.weighted:
            out.append(f"<div class=rk-m>count units: {escape(m.count_units)}</div>")
        if m.matches is None:
            continue
        cand, refs = marked(m, len(e.references))
        rows = [("candidate", pieces(e.candidate, m.positions, cand))]
        rows += [(f"reference {k + 1}", pieces(e.references[k], m.positions, refs[k])) for k in m.used]
        out.append("<table>")
        for label, sentences in rows:
            out.append(f"<tr><th>{escape(label)}</th><td>{_marked_html(sentences)}</td></tr>")
        out.append("</table><ul>")
        out += [f"<li>{escape(match_line(x, m.weighted))}</li>" for x in m.matches]
        out.append("</ul>")
    out.append("</div>")
    return "".join(out)


def _marked_html(sentences) -> str:
    return " / ".join(" ".join(f"<mark>{escape(t)}</mark>" if hit else escape(t) for t, hit in s) for s in sentences)
