"""ROUGE-S and ROUGE-SU (Lin 2004, §5): skip-bigrams within a distance, SU adds unigrams.

``skip`` < 0 is S*/SU* (no distance limit). With ``su_unigrams="all"`` (the paper's
begin-of-sentence marker) every token's unigram counts, not the script's all-but-last; see
docs/rouge155/measures.md. Kernel: ``rougekit._core.skip_bigram_stats``; kinds S and SU of the kind table.
"""

from __future__ import annotations

import re

from rougekit import _core, limits
from rougekit._core import _explain
from rougekit._core.kinds import ALL_UNIGRAMS, KernelSpec, Kind
from rougekit.errors import OptionError
from rougekit.limits import shown
from rougekit.measures.base import Family, Match, Measure
from rougekit.measures.counts import ratio_stats
from rougekit.measures.registry import register


class SkipBigram(Family):
    kinds = ("S", "SU")
    pattern = re.compile(r"ROUGE-(SU|S)(\*|[0-9]+)")
    examples = ("ROUGE-S4", "ROUGE-SU4", "ROUGE-S*", "ROUGE-SU*")
    doc = "docs/rouge155/measures.md"

    def from_match(self, match, name):
        return Measure(match[1], skip=-1 if match[2] == "*" else int(match[2]))

    def name(self, m):
        return f"ROUGE-{m.kind}{'*' if m.skip < 0 else m.skip}"

    def check(self, m, given=None):
        if isinstance(m.skip, bool) or not isinstance(m.skip, int) or m.skip > limits.MAX_SKIP:
            raise OptionError(
                f"the ROUGE-S/SU skip distance must be within 0 and {limits.MAX_SKIP} (or * for any), "
                f"got {shown(given or m.skip)}"
            )

    def kernel_spec(self, m, options=None):
        if not isinstance(m.skip, int):
            return None
        every = m.kind == "SU" and options is not None and options.su_unigrams == "all"
        return KernelSpec(Kind.S if m.kind == "S" else Kind.SU, int(m.skip), flags=ALL_UNIGRAMS if every else 0)

    def reference_stats(self, m, peer, model, *, model_sentences=None, options=None):
        if m.kind == "SU" and options is not None and options.su_unigrams == "all":
            s_hits, s_model, s_peer = _core.skip_bigram_stats(peer.tokens, model.tokens, m.skip, False)
            u_hits, u_model, u_peer = _core.ngram_stats(peer.tokens, model.tokens, 1)
            return ratio_stats(s_hits + u_hits, s_model + u_model, s_peer + u_peer)
        return ratio_stats(*_core.skip_bigram_stats(peer.tokens, model.tokens, m.skip, m.kind == "SU"))

    def explain_reference(self, m, peer, model, *, model_sentences=None, options=None):
        if m.kind == "SU" and options is not None and options.su_unigrams == "all":
            found = _explain.skip_bigram_matches(peer.tokens, model.tokens, m.skip, False)
            found += _explain.ngram_matches(peer.tokens, model.tokens, 1)
        else:
            found = _explain.skip_bigram_matches(peer.tokens, model.tokens, m.skip, m.kind == "SU")
        return [Match(c, key, ps, ms) for key, c, ps, ms in found]

    def counts_what(self, m):
        reach = "any distance" if m.skip < 0 else f"at most {m.skip} tokens between them"
        text = f"skip-bigrams (ordered token pairs with {reach}) of the joined tokens, clipped"
        if m.kind == "SU":
            text += "; plus unigrams (ROUGE-1.5.5: every token but the summary's last)"
        return text


register(SkipBigram())
