"""Lin & Hovy (2003): BLEU and Ngram(i,j), one value per pair; see docs/measures/bleu.md, ngram.md.

Computed by :mod:`rougekit.metrics.lin_hovy` on the processed tokens. The corpus BLEU is
computed from every pair's tokens (``corpus_needs_tokens``), not as a mean of pair values.
"""

from __future__ import annotations

import re

from rougekit import limits
from rougekit.errors import OptionError
from rougekit.limits import shown
from rougekit.measures.base import Family, Measure
from rougekit.measures.registry import register
from rougekit.metrics import lin_hovy


class Bleu(Family):
    kinds = ("BLEU",)
    pattern = re.compile(r"BLEU")
    examples = ("BLEU",)
    doc = "docs/measures/bleu.md"
    single_valued = True
    corpus_needs_tokens = True

    def from_match(self, match, name):
        return Measure("BLEU", n=4)

    def name(self, m):
        return "BLEU"

    def pair_value(self, m, candidate, references, source, options):
        return lin_hovy.sentence_bleu(candidate.tokens, [r.tokens for r in references]).score

    def counts_what(self, m):
        return "BLEU: clipped 1- to 4-gram precisions against all references, geometric mean, brevity penalty"

    def corpus_value(self, m, values, token_pairs):
        usable = [(c, r) for c, r in token_pairs if r]
        if not usable:
            return 0.0
        return lin_hovy.bleu([c for c, _ in usable], [r for _, r in usable]).score


class NgramCooccurrence(Family):
    kinds = ("NGRAM",)
    pattern = re.compile(r"NGRAM\(([0-9]+),([0-9]+)\)")
    examples = ("Ngram(1,4)",)
    doc = "docs/measures/ngram.md"
    single_valued = True

    def from_match(self, match, name):
        return Measure("NGRAM", n=int(match[1]), skip=int(match[2]))

    def check(self, m, given=None):
        i, j = m.n, m.skip
        if (
            not all(isinstance(x, int) and not isinstance(x, bool) for x in (i, j))
            or not 1 <= i <= j <= limits.MAX_ORDER
        ):
            raise OptionError(f"Ngram(i,j) needs 1 <= i <= j <= {limits.MAX_ORDER}, got {shown(given or m.name)}")

    def name(self, m):
        return f"Ngram({m.n},{m.skip})"

    def pair_value(self, m, candidate, references, source, options):
        return lin_hovy.ngram_score(candidate.tokens, [r.tokens for r in references], m.n, m.skip)

    def counts_what(self, m):
        return f"Lin & Hovy (2003) Ngram({m.n},{m.skip}): n-gram coverage of the references for n = {m.n}..{m.skip}"


register(Bleu())
register(NgramCooccurrence())
