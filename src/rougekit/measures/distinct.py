"""ROUGE-N and ROUGE-L over token *types* (sets), as the pltrdy ``rouge`` package counts them.

Not ROUGE-1.5.5: the pltrdy ``rouge`` package (1.0.1, ``exclusive=True``, its default) counts
sets, so repeated words and n-grams count once. See docs/measures/distinct.md.

* ``ROUGE-<n>-DISTINCT``: hits are the n-grams found in both texts, the counts the distinct
  n-grams of each (windows cross sentence boundaries). Kernel: ``ngram_stats(..., distinct=True)``.
* ``ROUGE-L-DISTINCT``: for every reference sentence and every candidate sentence one LCS is
  traced (a match goes diagonal; otherwise the reference token is dropped only when that keeps a
  strictly longer LCS, i.e. ties drop the candidate token); the hits are the distinct tokens of
  all the traced LCSs together, the counts the distinct tokens of each text.

>>> from rougekit.scoring import Doc, reference_stats
>>> cand = Doc([0, 1, 0], [[0, 1, 0]])          # the cat the
>>> ref = Doc([0, 1, 2, 1], [[0, 1], [2, 1]])    # the cat . sat cat
>>> reference_stats(Measure.parse("ROUGE-1-distinct"), cand, ref).hits
2
>>> s = reference_stats(Measure.parse("ROUGE-L-DISTINCT"), cand, ref)
>>> (s.hits, s.model_count, s.peer_count)
(2, 3, 2)
"""

from __future__ import annotations

import re

from rougekit import _core
from rougekit._core import _explain
from rougekit._core.kinds import KernelSpec, Kind
from rougekit.errors import OptionError
from rougekit.measures.base import Family, Match, Measure
from rougekit.measures.counts import ratio_stats
from rougekit.measures.registry import register


class DistinctTypes(Family):
    kinds = ("ND", "LD")
    pattern = re.compile(r"ROUGE-(?:([0-9]+)|(L))-DISTINCT")
    examples = ("ROUGE-1-DISTINCT", "ROUGE-2-DISTINCT", "ROUGE-L-DISTINCT")
    doc = "docs/measures/distinct.md"

    def from_match(self, match, name):
        if match[2]:
            return Measure("LD")
        n = int(match[1])
        if n < 1:
            raise OptionError(f"unknown measure {name!r}: ROUGE-N-DISTINCT needs N >= 1")
        return Measure("ND", n=n)

    def name(self, m):
        return "ROUGE-L-DISTINCT" if m.kind == "LD" else f"ROUGE-{m.n}-DISTINCT"

    def reference_stats(self, m, peer, model, *, model_sentences=None, options=None):
        if m.kind == "ND":
            return ratio_stats(*_core.ngram_stats(peer.tokens, model.tokens, m.n, True))
        # The union-LCS kernel with the roles swapped traces the same LCS as a reference-by-rows
        # DP whose ties drop the candidate token; its marks then fall on the candidate sentences.
        # Clipping tables holding each type once make every marked type one hit, once.
        peer_types = list(dict.fromkeys(peer.tokens))
        model_types = list(dict.fromkeys(model.tokens))
        hits = _core.lcs_union_hits(model.sentences, peer.sentences, model_types, peer_types)
        return ratio_stats(hits, len(model_types), len(peer_types))

    def explain_reference(self, m, peer, model, *, model_sentences=None, options=None):
        if m.kind == "ND":
            found = _explain.ngram_matches(peer.tokens, model.tokens, m.n, True)
            return [Match(c, g, ps, ms) for g, c, ps, ms in found]
        # the roles swapped as in reference_stats: the marks fall on the candidate's sentences
        peer_types = list(dict.fromkeys(peer.tokens))
        model_types = list(dict.fromkeys(model.tokens))
        hits, _ = _explain.lcs_union_matches(model.sentences, peer.sentences, model_types, peer_types)
        return [Match(1, (t,), (((r, j),),), tuple((p,) for p in al)) for r, j, t, al in hits]

    def explain_positions(self, m):
        return "sentences" if m.kind == "LD" else "tokens"

    def kernel_spec(self, m, options=None):
        return KernelSpec(Kind.ND, int(m.n)) if m.kind == "ND" else KernelSpec(Kind.LD)

    def counts_what(self, m):
        if m.kind == "ND":
            return f"distinct {m.n}-grams found in both texts, once each (not ROUGE-1.5.5: pltrdy rouge's sets)"
        return "distinct tokens on the LCSs of each reference sentence with each candidate sentence, once each"


register(DistinctTypes())
