"""Hori et al. (2004): ACCY, NrstACCY, PREC-n, SumACCY, WSumACCY, one value per pair.

Computed by :mod:`rougekit.metrics.hori` on word units (or sentence units with
``hori_units="sentence"``); SumACCY and WSumACCY also need the source text. See
docs/measures/accy.md and its neighbours.
"""

from __future__ import annotations

import re

from rougekit import limits
from rougekit.errors import OptionError
from rougekit.limits import shown
from rougekit.measures.base import Family, Measure
from rougekit.measures.registry import register
from rougekit.metrics import hori

_NAMES = {"ACCY": "ACCY", "NRSTACCY": "NrstACCY", "SUMACCY": "SumACCY", "WSUMACCY": "WSumACCY"}


def _units(doc, options) -> list:
    if options is not None and options.hori_units == "sentence":
        return [tuple(u) for u in doc.sentences]
    return doc.tokens


class Hori(Family):
    kinds = ("ACCY", "NRSTACCY", "PREC", "SUMACCY", "WSUMACCY")
    pattern = re.compile(r"(ACCY|NRSTACCY|SUMACCY|WSUMACCY)|PREC-([0-9]+)")
    examples = ("ACCY", "NrstACCY", "PREC-1", "SumACCY", "WSumACCY")
    doc = "docs/measures/accy.md"
    single_valued = True

    def from_match(self, match, name):
        if match[1]:
            return Measure(match[1])
        return Measure("PREC", n=int(match[2]))

    def check(self, m, given=None):
        if m.kind == "PREC" and (not isinstance(m.n, int) or isinstance(m.n, bool) or not 1 <= m.n <= limits.MAX_ORDER):
            raise OptionError(f"PREC-n needs 1 <= n <= {limits.MAX_ORDER}, got {shown(given or m.n)}")

    def name(self, m):
        return f"PREC-{m.n}" if m.kind == "PREC" else _NAMES[m.kind]

    def counts_what(self, m):
        what = {
            "ACCY": "word accuracy (Len - Sub - Ins - Del) / Len against each reference, their mean",
            "NRSTACCY": "word accuracy against the nearest reference (minimum edit distance)",
            "PREC": f"the share of candidate {m.n}-grams found in any reference (a set, not clipped)",
            "SUMACCY": "word accuracy against the closest path of the network the references make in the source",
            "WSUMACCY": "SumACCY weighted by how many references support the path's arcs",
        }
        return f"Hori et al. (2004): {what[m.kind]}"

    def needs_source(self, m):
        return m.kind in ("SUMACCY", "WSUMACCY")

    def pair_value(self, m, candidate, references, source, options):
        c, rs = _units(candidate, options), [_units(r, options) for r in references]
        if m.kind == "ACCY":  # one value per reference; several references: their mean
            total = 0.0
            for r in rs:
                total += hori.accy(c, r)
            return total / len(rs)
        if m.kind == "NRSTACCY":
            return hori.nrst_accy(c, rs)
        if m.kind == "PREC":
            return hori.prec_n(c, rs, m.n)
        if source is None:
            raise OptionError(f"{m.name} needs the original text: pass sources= (one per candidate)")
        fn = hori.sum_accy if m.kind == "SUMACCY" else hori.wsum_accy
        return fn(c, rs, _units(source, options))


register(Hori())
