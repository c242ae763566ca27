"""ROUGE-N (Lin 2004, eq. 1): clipped n-gram co-occurrence; see docs/rouge155/measures.md.

Kernel: ``rougekit._core.ngram_stats`` (compiled, with the pure twin ``_core._pure``); batch
kind N of the kind table (``rougekit._core.kinds``).
"""

from __future__ import annotations

import re

from rougekit import _core, limits
from rougekit._core import _explain
from rougekit._core.kinds import KernelSpec, Kind
from rougekit.errors import OptionError
from rougekit.limits import shown
from rougekit.measures.base import Family, Match, Measure
from rougekit.measures.counts import ratio_stats
from rougekit.measures.registry import register


class RougeN(Family):
    kinds = ("N",)
    pattern = re.compile(r"ROUGE-([0-9]+)")
    examples = ("ROUGE-1", "ROUGE-2", "ROUGE-3", "ROUGE-4")
    doc = "docs/rouge155/measures.md"

    def from_match(self, match, name):
        n = int(match[1])
        if n < 1:
            raise OptionError(f"unknown measure {name!r}: ROUGE-N needs N >= 1")
        return Measure("N", n=n)

    def name(self, m):
        return f"ROUGE-{m.n}"

    def check(self, m, given=None):
        if isinstance(m.n, bool) or not isinstance(m.n, int) or not 1 <= m.n <= limits.MAX_ORDER:
            raise OptionError(f"ROUGE-N needs 1 <= N <= {limits.MAX_ORDER}, got {shown(given or m.n)}")

    def kernel_spec(self, m, options=None):
        return KernelSpec(Kind.N, int(m.n)) if isinstance(m.n, int) and m.n >= 1 else None

    def reference_stats(self, m, peer, model, *, model_sentences=None, options=None):
        return ratio_stats(*_core.ngram_stats(peer.tokens, model.tokens, m.n))

    def explain_reference(self, m, peer, model, *, model_sentences=None, options=None):
        return [Match(c, g, ps, ms) for g, c, ps, ms in _explain.ngram_matches(peer.tokens, model.tokens, m.n)]

    def counts_what(self, m):
        return (
            f"{m.n}-grams of the joined tokens (across sentences), each clipped to "
            "min(count in reference, count in candidate)"
        )


register(RougeN())


def ngram_counts(peer, model, n: int) -> tuple[int, int, int]:
    """``(hits, model count, peer count)`` of the n-grams of two token-id sequences, nothing else.

    The ROUGE-N kernel without the per-call setup of :func:`rougekit.scoring.reference_stats`, for
    front ends that score one pair at a time (``1 <= n <= limits.MAX_ORDER`` is the caller's check).
    """
    return _core.ngram_stats(peer, model, n)
