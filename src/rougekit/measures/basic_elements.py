"""ROUGE-BE (Basic Elements, the script's -3 modes): clipped matches of head/modifier/relation keys.

The keys of each summary are read by :mod:`rougekit.text.basic_elements`; see
docs/rouge155/measures.md. Pure Python (counting is a dictionary intersection).
"""

from __future__ import annotations

import re

from rougekit.errors import OptionError
from rougekit.measures.base import Family, Match, Measure
from rougekit.measures.counts import ratio_stats
from rougekit.measures.registry import register

BE_MODES = ("H", "HM", "HMR", "HM1", "HMR1", "HMR2")


class BasicElements(Family):
    kinds = ("BE",)
    pattern = re.compile(r"ROUGE-BE-([A-Z0-9]+)")
    examples = ("ROUGE-BE-HM",)
    doc = "docs/rouge155/measures.md"
    needs_text = True

    def from_match(self, match, name):
        if match[1] not in BE_MODES:
            raise OptionError(f"unknown Basic-Element mode {match[1]!r} (use {', '.join(BE_MODES)})")
        return Measure("BE", be_mode=match[1])

    def name(self, m):
        return f"ROUGE-BE-{m.be_mode}"

    def reference_stats(self, m, peer, model, *, model_sentences=None, options=None):
        mkeys, pkeys = model.be_keys or {}, peer.be_keys or {}
        hits = sum(min(count, pkeys[key]) for key, count in mkeys.items() if key in pkeys)
        return ratio_stats(hits, sum(mkeys.values()), sum(pkeys.values()))

    def explain_reference(self, m, peer, model, *, model_sentences=None, options=None):
        mkeys, pkeys = model.be_keys or {}, peer.be_keys or {}
        return [Match(min(c, pkeys[k]), (k,), (), ()) for k, c in mkeys.items() if k in pkeys]

    def explain_positions(self, m):
        return "none"

    def counts_what(self, m):
        return f"Basic-Element keys ({m.be_mode}: head|modifier|relation parts), each clipped as in ROUGE-N"


register(BasicElements())
