"""ROUGE-L and ROUGE-W (Lin 2004, §3 and §4): the summary-level union LCS, and its weighted form.

ROUGE-L counts, for every reference sentence, the union of its LCS matches with each candidate
sentence, clipped by the token counts; ROUGE-W weighs consecutive runs with f(k) = k^w as the
script does (``wlcs="paper"``: the paper's equations 13-15 instead). See
docs/rouge155/measures.md. Kernels: ``rougekit._core.lcs_union_hits`` and ``wlcs_union_hits``;
kinds L and W of the kind table (``rougekit._core.kinds``).
"""

from __future__ import annotations

import re

from rougekit import _core, limits
from rougekit._core import _explain
from rougekit._core._pure import count_error
from rougekit._core.kinds import KernelSpec, Kind
from rougekit.errors import OptionError
from rougekit.limits import shown
from rougekit.measures.base import Family, Match, Measure
from rougekit.measures.counts import RefStats, round5, wlcs_paper_value
from rougekit.measures.registry import register


def _check_trace_size(peer_sentences, model_sentences) -> None:
    """Refuse a sentence pair whose trace-back table would exceed :data:`rougekit.limits.MAX_TRACE_CELLS`."""
    longest_peer = max(map(len, peer_sentences), default=0)
    longest_model = max(map(len, model_sentences), default=0)
    if longest_peer * longest_model > limits.MAX_TRACE_CELLS:
        raise count_error(-3, cells=limits.MAX_TRACE_CELLS, sizes=(longest_model, longest_peer))


class LongestCommonSubsequence(Family):
    kinds = ("L", "W")
    pattern = re.compile(r"ROUGE-(?:(L)|W-([0-9]*\.?[0-9]+))")
    examples = ("ROUGE-L", "ROUGE-W-1.2")
    doc = "docs/rouge155/measures.md"

    def from_match(self, match, name):
        return Measure("L") if match[1] else Measure("W", weight=float(match[2]))

    def name(self, m):
        return "ROUGE-L" if m.kind == "L" else f"ROUGE-W-{m.weight:g}"

    def check(self, m, given=None):
        """The weight's range: see :mod:`rougekit.limits` (below 1 scores exceed 1; above 5 the
        script's double weighting overflows a double for long references)."""
        if m.kind != "W":
            return
        w = m.weight
        if isinstance(w, bool) or not isinstance(w, (int, float)) or not limits.MIN_WEIGHT <= w <= limits.MAX_WEIGHT:
            raise OptionError(
                f"the ROUGE-W weight must be within {limits.MIN_WEIGHT:g} and {limits.MAX_WEIGHT:g}, "
                f"got {shown(given or w)}"
            )

    def integral_counts(self, m):
        return m.kind == "L"

    def f_exponent(self, m):
        return m.weight if m.kind == "W" else None

    def kernel_spec(self, m, options=None):
        if m.kind == "L":
            return KernelSpec(Kind.L)
        if options is not None and options.wlcs == "paper":
            return None  # the paper's WLCS value: no kernel counts it (nor itemises its runs)
        return KernelSpec(Kind.W, weight=float(m.weight)) if m.weight is not None and m.weight > 0 else None

    def reference_stats(self, m, peer, model, *, model_sentences=None, options=None):
        paper = m.kind == "W" and options is not None and options.wlcs == "paper"
        if not paper:
            _check_trace_size(peer.sentences, (model if m.kind == "L" else model_sentences or model).sentences)
        if m.kind == "L":
            hits = _core.lcs_union_hits(peer.sentences, model.sentences, peer.tokens, model.tokens)
            base = 0
            for sentence in model.sentences:
                base += len(sentence)
            return RefStats(hits, base, len(peer.tokens), hits / base if base > 0 else 0.0)
        weight = m.weight
        if paper:  # eq. 13-15 on the whole token sequences
            value = wlcs_paper_value(model.tokens, peer.tokens, weight)
            mcount, pcount = float(len(model.tokens)) ** weight, float(len(peer.tokens)) ** weight
            rank = round5((value / mcount) ** (1 / weight)) if mcount else 0.0
            return RefStats(value, mcount, pcount, rank)
        units = (model_sentences or model).sentences
        hits = _core.wlcs_union_hits(peer.sentences, units, peer.tokens, model.tokens, weight)
        base = 0.0
        for sentence in units:
            base += float(len(sentence)) ** weight
        if base == 0:
            raise count_error(-2)
        return RefStats(hits, base**weight, float(len(peer.tokens)) ** weight, (hits / base) ** (1 / weight))

    def explain_reference(self, m, peer, model, *, model_sentences=None, options=None):
        if m.kind == "L":
            hits, clipped = _explain.lcs_union_matches(peer.sentences, model.sentences, peer.tokens, model.tokens)
            out = [Match(1, (t,), tuple((p,) for p in al), (((r, j),),)) for r, j, t, al in hits]
            out += [Match(0, (t,), tuple((p,) for p in al), (((r, j),),), clipped=True) for r, j, t, al in clipped]
            return out
        if options is not None and options.wlcs == "paper":
            return None  # the paper's WLCS value has no run walk to itemise
        units = (model_sentences or model).sentences
        runs, _ = _explain.wlcs_union_runs(peer.sentences, units, peer.tokens, model.tokens, m.weight)
        out = []
        for r, run, value in runs:
            tokens = tuple(t for _, t, _ in run)
            candidate = tuple(sorted((p,) for _, _, al in run for p in al))
            out.append(Match(len(run), tokens, candidate, (tuple((r, j) for j, _, _ in run),), weight=value))
        return out

    def explain_positions(self, m):
        return "sentences"

    def counts_what(self, m):
        if m.kind == "L":
            return (
                "reference tokens on the union of the LCSs of each reference sentence with every candidate "
                "sentence (ties: earlier reference tokens), each type clipped by its count in both texts"
            )
        return (
            f"runs of consecutive union-WLCS reference tokens (as ROUGE-L, from the weighted table); "
            f"a run of k tokens adds f(k) = k^{m.weight:g}"
        )


register(LongestCommonSubsequence())


def lcs_hits(peer_sentences, model_sentences, peer_tokens, model_tokens) -> int:
    """ROUGE-L union-LCS hits of token-id sentences (the kernel, after the trace-size check), nothing else.

    For front ends that score one pair at a time; a whole sequence is one sentence (``[tokens]``).
    ``peer_tokens`` and ``model_tokens`` are the sentences' tokens joined (so no sentence pair is
    larger than their product, and the trace-size check runs only when that product is too large).
    """
    if len(peer_tokens) * len(model_tokens) > limits.MAX_TRACE_CELLS:
        _check_trace_size(peer_sentences, model_sentences)
    return _core.lcs_union_hits(peer_sentences, model_sentences, peer_tokens, model_tokens)
