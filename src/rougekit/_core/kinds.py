"""The counting kinds: one table that the compiled engine (its Cython mirror ``kinds.pxi``), the
highlights (``batch_marks`` and its twin ``_explain.batch_marks``) and every measure family's
``kernel_spec`` dispatch on. The pure twins of the per-pair kernels (``_pure.py``) are one function
per kind, as the compiled per-pair entry points they mirror (``ngram_stats``, ``lcs_union_hits``, ...):
the family that says which kind it counts calls the kind's function.

A measure family says what its kernels count with one :class:`KernelSpec` (its kind, the n of
an n-gram or the skip distance, the weight of ROUGE-W, flags). ``tests/test_kinds.py`` holds
``kinds.pxi`` (the ``K_*`` and ``F_*`` enums of ``_core/_batch.pyx``) equal to this table.
"""

from __future__ import annotations

from enum import IntEnum
from typing import NamedTuple

__all__ = ["Kind", "KernelSpec", "ALL_UNIGRAMS", "FLAGS", "BATCH_KINDS", "JOINED", "NO_MARKS", "WITH_N", "counted"]


class Kind(IntEnum):
    """What a kernel counts (the codes are the compiled engine's)."""

    N = 0  # ROUGE-N: n-grams of the joined tokens, clipped (n)
    L = 1  # ROUGE-L: the script's union LCS of every reference sentence with the candidate's
    W = 2  # ROUGE-W: the union WLCS, runs weighted by f(k) = k ** weight
    S = 3  # ROUGE-S: skip-bigrams of the joined tokens (n: the skip distance, < 0 unlimited)
    SU = 4  # ROUGE-SU: skip-bigrams plus the unigram of every start position (-U)
    LSEQ = 5  # the LCS of the two whole token sequences (rouge-score's rougeL)
    ND = 6  # distinct n-grams found in both texts, once each (pltrdy rouge's sets)
    LD = 7  # distinct tokens on the union LCS, the roles swapped (pltrdy rouge's sets)


#: flag of an SU spec: the unigrams of every token, not the script's (every token but the last)
ALL_UNIGRAMS = 1

#: the flags by name (kinds.pxi: ``F_<name>``)
FLAGS = {"ALL_UNIGRAMS": ALL_UNIGRAMS}

#: kinds the compiled batch scorer counts (``_score_pair``): all of them
BATCH_KINDS = frozenset(Kind)

#: kinds whose units (and highlights) are positions of the joined tokens; the others are
#: positions of the sentence tokens
JOINED = frozenset({Kind.N, Kind.S, Kind.SU, Kind.LSEQ, Kind.ND})

#: kinds without highlights: their rows have no marks function (kinds.pxi's ``KIND_ROWS[k].marks``
#: and ``_pure.KIND_ROWS[k].marks``; ``batch_marks`` refuses them). Every other row marks the
#: positions of the units it counts.
NO_MARKS = frozenset({Kind.LSEQ})

#: kinds whose n is an n-gram's length, >= 1 (kinds.pxi: ``KINDS_WITH_N``)
WITH_N = frozenset({Kind.N, Kind.ND})


class KernelSpec(NamedTuple):
    """What one measure's kernels count: its kind, n (N, ND) or the skip distance (S, SU; < 0
    unlimited), ROUGE-W's weight, flags (``ALL_UNIGRAMS``)."""

    kind: Kind
    n: int = 0
    weight: float = 0.0
    flags: int = 0

    @property
    def space(self) -> str:
        """``"joined"`` (positions of the joined tokens) or ``"units"`` (of the sentence tokens)."""
        return "joined" if self.kind in JOINED else "units"

    @property
    def batch(self) -> tuple[int, int, float] | None:
        """(kind code, n, weight) for the compiled batch scorer, or None where it cannot count it."""
        if self.kind not in BATCH_KINDS or self.flags:
            return None
        return (int(self.kind), self.n, self.weight)


def counted(spec: KernelSpec) -> tuple[KernelSpec, ...]:
    """The rows one spec counts (kinds.pxi: ``_spec_measures``): its own, or with ``ALL_UNIGRAMS``
    ROUGE-S's skip-bigrams beside ROUGE-1's units (every token's unigram)."""
    if not spec.flags & ALL_UNIGRAMS:
        return (spec,)
    return (KernelSpec(Kind.S, spec.n), KernelSpec(Kind.N, 1))
