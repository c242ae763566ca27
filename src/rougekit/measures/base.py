"""A measure is a value (:class:`Measure`); what it does lives in its family (:class:`Family`).

Each family is one entry of the registry (:mod:`rougekit.measures.registry`): how its names
parse and print, the sufficient statistics it counts (through its compiled kernel or the
pure-Python twin), what the batch engine needs to run it, and where it is documented.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, ClassVar

from rougekit._core.kinds import KernelSpec
from rougekit._sums import mean_in_order
from rougekit.measures.counts import Doc, RefStats
from rougekit.measures.registry import family_of, parse


@dataclass(frozen=True)
class Measure:
    """One measure. ``skip`` < 0 means no distance limit (S*/SU*).

    ``label`` overrides the printed name (the 1.5.5 report prints ``-w``/``-2`` as typed).
    """

    kind: str
    n: int | None = None
    weight: float | None = None
    skip: int | None = None
    be_mode: str | None = None
    label: str | None = None

    @classmethod
    def rouge_n(cls, n: int) -> "Measure":
        return cls("N", n=n)

    @classmethod
    def parse(cls, name: str) -> "Measure":
        """Parse a name such as ROUGE-1, ROUGE-L, ROUGE-W-1.2, ROUGE-SU4, ROUGE-S*, ROUGE-BE-HM,
        BLEU, Ngram(1,4), ACCY, NrstACCY, PREC-2, SumACCY, WSumACCY (case and spaces ignored)."""
        return parse(name)

    @property
    def family(self) -> "Family":
        """The registry entry that computes this measure."""
        return family_of(self.kind)

    @property
    def name(self) -> str:
        """The canonical name, as rougekit prints it."""
        return self.label if self.label is not None else self.family.name(self)

    @property
    def single_valued(self) -> bool:
        """True for measures with one value per pair (BLEU, Ngram(i,j), ACCY, ...), not R/P/F."""
        return self.family.single_valued

    @staticmethod
    def idle_multi_ref(measures, multi_ref: str) -> str | None:
        """The warning for a ``multi_ref`` some of ``measures`` ignore (:func:`idle_multi_ref`)."""
        return idle_multi_ref(measures, multi_ref)

    @property
    def corpus_what(self) -> str:
        """What the corpus value of a single-valued measure is (``"mean of per-pair scores"``, corpus BLEU)."""
        return self.family.corpus_what(self)

    @property
    def references_rule(self) -> str:
        """How the measure pools several references when ``multi_ref`` does not apply to it (BLEU,
        Ngram(i,j), the Hori measures); ``""`` for the measures the rule applies to (ROUGE)."""
        return self.family.references_rule(self)

    @property
    def needs_source(self) -> bool:
        """True when the measure needs the original text of each pair (SumACCY, WSumACCY)."""
        return self.family.needs_source(self)

    @property
    def integral_counts(self) -> bool:
        """True when hits and counts are whole numbers (all R/P/F measures but ROUGE-W)."""
        return self.family.integral_counts(self)

    @property
    def f_exponent(self) -> float | None:
        """ROUGE-W's weight: R and P are ratios passed through f⁻¹(x) = x^(1/w); None elsewhere."""
        return self.family.f_exponent(self)

    @property
    def kernel_spec(self) -> KernelSpec | None:
        """What its kernels count (a row of the kind table, ``rougekit._core.kinds``), or None."""
        return self.family.kernel_spec(self)

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True)
class Match:
    """One counted unit of a candidate against one reference, as :func:`rougekit.explain` shows it.

    ``count``: the clipped count (ROUGE-N, S, SU), 1 (ROUGE-L: one reference token), or the run
    length k (ROUGE-W, whose hits add ``weight`` = f(k)). ``tokens``: the unit's token ids.
    ``candidate``/``reference``: its occurrences, each a tuple of positions: indices into the
    joined tokens (N, S, SU), or (sentence, index) pairs into the sentence units (L, W).
    ``clipped``: ROUGE-L/W positions the LCS marked but the unigram tables refused (count 0).
    """

    count: int
    tokens: tuple
    candidate: tuple
    reference: tuple
    weight: float | None = None
    clipped: bool = False


class Family:
    """How one family of measures parses, prints and counts. Subclasses fill in what applies."""

    #: Measure.kind values this family owns
    kinds: ClassVar[tuple[str, ...]] = ()
    #: full-match pattern over the upper-cased name without spaces
    pattern: ClassVar[re.Pattern]
    #: names shown in "did you mean" suggestions and help
    examples: ClassVar[tuple[str, ...]] = ()
    #: the page of docs/ that defines the family
    doc: ClassVar[str] = ""
    #: one value per pair (stored as ``score``) instead of R/P/F from counts
    single_valued: ClassVar[bool] = False
    #: the corpus value needs every pair's tokens (corpus BLEU), not only per-pair values
    corpus_needs_tokens: ClassVar[bool] = False
    #: the units are read from the text itself (Basic Elements), so token ids cannot be scored
    needs_text: ClassVar[bool] = False

    def from_match(self, match: re.Match, name: str) -> Measure:
        raise NotImplementedError

    def name(self, m: Measure) -> str:
        raise NotImplementedError

    def check(self, m: Measure, given: str | None = None) -> None:
        """Refuse a measure outside its documented range (:mod:`rougekit.limits`) with an
        OptionError quoting ``given`` (the name the user typed) or the measure's own name."""

    def needs_source(self, m: Measure) -> bool:
        return False

    def references_rule(self, m: Measure) -> str:
        """How ``m`` pools several references when ``multi_ref`` does nothing to it ("" when it applies)."""
        return ""

    def integral_counts(self, m: Measure) -> bool:
        return True

    def f_exponent(self, m: Measure) -> float | None:
        return None

    def kernel_spec(self, m: Measure, options: Any = None) -> KernelSpec | None:
        """What the measure's kernels count: its kind in the kind table (``rougekit._core.kinds``),
        n or the skip distance, the weight, flags; the compiled batch scorer, the per-pair kernels,
        the highlights (``batch_marks``) and the twins all dispatch on it. ``options`` (the
        scorer's) can change it (``su_unigrams="all"``) or rule it out (ROUGE-W's paper value).
        None: nothing in the kind table counts it."""
        return None

    def reference_stats(
        self, m: Measure, peer: Doc, model: Doc, *, model_sentences: Doc | None = None, options: Any = None
    ) -> RefStats:
        """Sufficient statistics of a candidate against one reference (R/P/F families)."""
        raise NotImplementedError(f"{m.name} has no per-reference statistics")

    def explain_reference(
        self, m: Measure, peer: Doc, model: Doc, *, model_sentences: Doc | None = None, options: Any = None
    ) -> list[Match] | None:
        """The matches behind :meth:`reference_stats`' hits (their counts add up to it; for
        ROUGE-W their weights do), from the position twins in ``rougekit._core._explain``; None
        where the family does not itemise them (it says what it counts in :meth:`counts_what`)."""
        return None

    def counts_what(self, m: Measure) -> str:
        """One sentence: what the measure counts (shown by ``rougekit explain``)."""
        return ""

    def explain_positions(self, m: Measure) -> str:
        """What the positions of :meth:`explain_reference`'s matches index: ``"tokens"`` (the
        joined tokens), ``"sentences"`` ((sentence, index) pairs) or ``"none"``."""
        return "tokens"

    def pair_value(self, m: Measure, candidate: Doc, references: list[Doc], source: Doc | None, options: Any) -> float:
        """The one value of a pair (single-valued families)."""
        raise NotImplementedError(f"{m.name} is scored from counts")

    def corpus_value(self, m: Measure, values: list[float], token_pairs: list) -> float:
        """The corpus value of a single-valued measure: by default the mean per pair."""
        return mean_in_order(values, 0.0)

    def corpus_what(self, m: Measure) -> str:
        """What :meth:`corpus_value` is, as a report's header says it (under every ``average``)."""
        return "mean of per-pair scores"


def idle_multi_ref(measures, multi_ref: str) -> str | None:
    """The warning for a ``multi_ref`` other than the default that some of ``measures`` ignore (they pool
    their references by their own definition: BLEU, Ngram(i,j), the Hori measures), naming them and their
    rule; None when it applies to every measure or is the default ``"sum"``."""
    if multi_ref == "sum":
        return None
    idle = [(m.name, m.references_rule) for m in measures if m.references_rule]
    if not idle:
        return None
    which = ", ".join(f"{name} ({rule})" for name, rule in idle)
    rest = "it applies to the ROUGE measures only" if len(idle) < len(measures) else "no measure here takes it"
    return (
        f"multi_ref={multi_ref!r} (--multi-ref {multi_ref}) does nothing to {which}: they pool their "
        f"references by their own definition; {rest}"
    )
