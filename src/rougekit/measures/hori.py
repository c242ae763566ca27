"""Accuracy-based measures for extractive summaries, after Hori, Hirao & Isozaki (2004).

Source: Chiori Hori, Tsutomu Hirao and Hideki Isozaki, "Evaluation Measures Considering
Sentence Concatenation for Automatic Summarization by Sentence or Word Extraction",
ACL 2004 Text Summarization Branches Out workshop. Formulas, choices and worked examples:
docs/measures/ (accy.md, nrstaccy.md, prec-n.md, sumaccy.md, wsumaccy.md, kappa.md).

The measures work on sequences of hashable *units*: words for summarization by word
extraction, sentence ids for summarization by sentence extraction.  Units are compared
by equality.  The paper counts "a component occurring in a different location in the
original [as] a different component"; sentence ids satisfy this by construction, and at
word level you can pass ``(position, word)`` pairs to get the same effect.

* :func:`accy` -- eq. (1), accuracy ``(Len - (Sub + Ins + Del)) / Len`` from a minimum
  edit distance alignment (:func:`edit_counts` gives the parts).
* :func:`nrst_accy` -- NrstACCY: accuracy against the closest reference.
* :func:`prec_n` -- n-gram precision, eqs. (2)-(3).
* :func:`sum_accy` -- SumACCY: accuracy against the closest path of the network merged
  from all references (Fig. 1), found by dynamic programming (edit distance against a
  DAG), see :class:`SummaryNetwork`.
* :func:`wsum_accy` -- WSumACCY, eqs. (4)-(5): SumACCY weighted by the reliability of
  the target path relative to the most reliable path.
* :func:`kappa` -- the agreement statistic of the appendix, eqs. (A-1)-(A-5).

Accuracies are returned as fractions (the paper's percentages divided by 100); they
can be negative when the candidate has many insertions.

The registry family ``Hori`` (ACCY, NrstACCY, PREC-n, SumACCY, WSumACCY, one value per
pair) is at the end; it works on word units, or sentence units with ``hori_units="sentence"``.
``rougekit.metrics.hori`` is the same functions under their documented older path.
"""

from __future__ import annotations

import math
import re
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass

from rougekit import limits
from rougekit._core import _edit_pure, backend
from rougekit._sums import sum_in_order
from rougekit.errors import InputError, OptionError
from rougekit.limits import shown
from rougekit.measures.base import Family, Measure
from rougekit.measures.registry import register

__all__ = [
    "EditCounts",
    "NetworkMatch",
    "SummaryNetwork",
    "accy",
    "edit_counts",
    "kappa",
    "nrst_accy",
    "prec_n",
    "sum_accy",
    "wsum_accy",
]

Units = Sequence[Hashable]

_START = -1  # node id of <s>; </s> is len(source)


# --------------------------------------------------------------------------- ACCY, eq. (1)


def _accuracy(distance: int, length: int) -> float:
    """``(Len - errors) / Len``; for ``Len = 0``: 1.0 if no errors else 0.0 (a convention)."""
    if length == 0:
        return 1.0 if distance == 0 else 0.0
    return (length - distance) / length


@dataclass(frozen=True)
class EditCounts:
    """Parts of eq. (1): substitutions, insertions, deletions and ``Len`` (reference length).

    Insertions are candidate units absent from the reference, deletions are reference
    units missing from the candidate.
    """

    substitutions: int
    insertions: int
    deletions: int
    length: int

    @property
    def errors(self) -> int:
        """``Sub + Ins + Del`` (the edit distance)."""
        return self.substitutions + self.insertions + self.deletions

    @property
    def accuracy(self) -> float:
        """``(Len - (Sub + Ins + Del)) / Len``, eq. (1) as a fraction."""
        return _accuracy(self.errors, self.length)


def _interned(*sides: list) -> list[list[int]] | None:
    """Each side as a list of int ids, equal units one id; None when a unit cannot be interned
    (unhashable, or unequal to itself like NaN, which ``==`` matches with nothing)."""
    ids: dict[Hashable, int] = {}
    out = []
    for units in sides:
        side = []
        for unit in units:
            try:
                if unit != unit:
                    return None
                side.append(ids.setdefault(unit, len(ids)))
            except (TypeError, ValueError):
                return None
        out.append(side)
    return out


def _trimmed(cand: list[int], ref: list[int]) -> tuple[list[int], list[int]]:
    """Both sides without their common prefix and suffix: some alignment with the fewest errors,
    and among those the fewest substitutions, matches them, so the counts do not change."""
    limit = min(len(cand), len(ref))
    start = 0
    while start < limit and cand[start] == ref[start]:
        start += 1
    end = 0
    while end < limit - start and cand[-1 - end] == ref[-1 - end]:
        end += 1
    return cand[start : len(cand) - end], ref[start : len(ref) - end]


def edit_counts(candidate: Units, reference: Units) -> EditCounts:
    """Substitutions, insertions and deletions of a minimum edit distance alignment.

    Unit costs (Levenshtein).  Among alignments with the minimum number of errors the one
    with the fewest substitutions is reported (so ``a b`` vs ``b c`` counts one deletion
    and one insertion rather than two substitutions); the total, and so ACCY, does not
    depend on this tie-break.

    Time ``O(m * n)`` after the common prefix and suffix are set aside (some optimal
    alignment matches them, so the counts are exact), memory ``O(n)``: the units are
    interned to ints and counted by the compiled kernel ``_core._edit`` (or its twin).

    >>> edit_counts("cherry blossoms bloom in spring".split(),
    ...             "The cherry blossoms in Japan".split())
    EditCounts(substitutions=1, insertions=1, deletions=1, length=5)
    """
    cand, ref = list(candidate), list(reference)
    interned = _interned(cand, ref)
    if interned is None:  # compared by == as they are, in the readable twin
        s, i, d = _edit_pure.edit_counts(cand, ref)
    else:
        s, i, d = backend.edit_module().edit_counts(*_trimmed(*interned))
    n = len(ref)
    return EditCounts(substitutions=s, insertions=i, deletions=d, length=n)


def accy(candidate: Units, reference: Units) -> float:
    """Accuracy ACCY, Hori et al. (2004) eq. (1), as a fraction.

    .. math::

        ACCY = \\frac{Len - (Sub + Ins + Del)}{Len}

    where ``Sub``, ``Ins``, ``Del`` come from a minimum edit distance alignment of the
    candidate to the reference and ``Len`` is the number of units of the reference.
    Works for words and for sentence ids alike.  Convention for an empty reference:
    1.0 if the candidate is empty too, else 0.0.

    >>> accy("cherry blossoms bloom in spring".split(),
    ...      "beautiful cherry bloom in spring".split())  # 1 del + 1 ins: (5-2)/5
    0.6
    >>> accy([1, 2, 3], [1, 2, 4])  # sentence ids: one substitution
    0.6666666666666666
    """
    return edit_counts(candidate, reference).accuracy


def _distance(candidate: Units, reference: Units) -> int:
    """The edit distance (unit costs), through the same kernel as :func:`edit_counts`."""
    return edit_counts(candidate, reference).errors


def nrst_accy(candidate: Units, references: Iterable[Units]) -> float:
    """NrstACCY (Hori et al. 2004, §2.1): ACCY against the closest reference.

    The closest reference is the one at minimum edit distance from the candidate; ties
    go to the reference giving the higher accuracy (the longer one).  This equals ACCY
    (eq. 1) computed against that reference.

    >>> refs = ["The cherry blossoms in Japan".split(),
    ...         "beautiful cherry bloom in spring".split()]
    >>> nrst_accy("cherry blossoms bloom in spring".split(), refs)  # distances 3, 2
    0.6
    """
    best: tuple[int, float] | None = None
    for ref in references:
        ref = list(ref)
        d = _distance(candidate, ref)
        key = (d, -_accuracy(d, len(ref)))
        if best is None or key < best:
            best = key
    if best is None:
        raise InputError("nrst_accy needs at least one reference")
    return -best[1]


# --------------------------------------------------------------------------- PREC_n, eqs. (2)-(3)


def prec_n(candidate: Units, references: Iterable[Units], n: int) -> float:
    """n-gram precision ``p_n``, Hori et al. (2004) eqs. (2)-(3).

    .. math::

        p_n = \\frac{\\sum_{m=n}^{M} \\delta(v_{m-n+1}, \\dots, v_m)}{M - n + 1},\\qquad
        \\delta(u_n) = 1 \\text{ if } u_n \\in U_n \\text{ else } 0

    ``v_1..v_M`` is the candidate and ``U_n`` the *set* of n-grams occurring in any of
    the references: membership, not clipped counts.  When the candidate is shorter than
    ``n`` (``M - n + 1 <= 0``) the result is ``0.0``.

    >>> refs = ["The cherry blossoms in Japan".split(),
    ...         "beautiful cherry bloom in spring".split()]
    >>> prec_n("cherry blossoms bloom in spring".split(), refs, 2)  # 3 of 4 bigrams
    0.75
    """
    if n < 1:
        raise OptionError(f"n must be >= 1, got {n}")
    cand = list(candidate)
    grams: set[tuple] = set()
    for ref in references:
        ref = list(ref)
        grams.update(tuple(ref[k : k + n]) for k in range(len(ref) - n + 1))
    count = len(cand) - n + 1
    if count <= 0:
        return 0.0
    hits = sum(tuple(cand[k : k + n]) in grams for k in range(count))
    return hits / count


# --------------------------------------------------------------------------- network


def _not_an_extract(token: int, tokens: int) -> str:
    return (
        f"reference token {token} of {tokens} is not in the source after the ones before it: SumACCY and "
        "WSumACCY need each reference to be an extract of its source (its tokens in the source's order)"
    )


def _align(units: Units, source: Sequence[Hashable], how: str) -> list[int]:
    """Positions of ``units`` as a subsequence of ``source`` (leftmost or rightmost)."""
    units = list(units)
    if how == "leftmost":
        out: list[int] = []
        k = 0
        for i, u in enumerate(units):
            while k < len(source) and source[k] != u:
                k += 1
            if k == len(source):
                raise InputError(_not_an_extract(i + 1, len(units)))
            out.append(k)
            k += 1
        return out
    if how == "rightmost":
        try:
            rev = _align(units[::-1], list(source)[::-1], "leftmost")
        except InputError:  # the same reference: the same first token that cannot follow, read from the left
            return _align(units, source, "leftmost")
        return [len(source) - 1 - p for p in reversed(rev)]
    raise OptionError(f"unknown alignment {how!r}")


@dataclass(frozen=True)
class NetworkMatch:
    """The target path chosen in a :class:`SummaryNetwork` for a candidate.

    ``positions``: source positions on the path (``<s>``/``</s>`` excluded); ``units``:
    their units; ``distance``: edit distance to the candidate; ``accuracy``: eq. (1)
    against the path (= SumACCY); ``reliability``: ``P(v_1..v_M | R)`` of eq. (5).
    """

    positions: tuple[int, ...]
    units: tuple[Hashable, ...]
    distance: int
    accuracy: float
    reliability: float


class SummaryNetwork:
    """The network merging extractive references (Hori et al. 2004, §2.3, Fig. 1).

    Nodes are the positions of the source (the original document or sentence), in source
    order, plus ``<s>`` and ``</s>``.  Each reference, located in the source as a
    subsequence ``p_1 < ... < p_M``, contributes the arcs ``<s> -> p_1``,
    ``p_k -> p_{k+1}`` and ``p_M -> </s>``: only the concatenations that some human made
    are arcs, so a path may switch between references where they share a node.  Arc
    ``count`` is the number of references having that arc (``C(x, y | R)`` of eq. 5);
    ``n_references`` is ``H_R``.

    A path from ``<s>`` to ``</s>`` is a summary "that could be extracted from the
    network".  All arcs go forward in the source, so the network is a DAG.

    ``alignment`` says how a reference given as units is located in the source when a
    unit occurs more than once there (a repeated word): ``"leftmost"`` (default, greedy
    earliest match) or ``"rightmost"``; with ``"positions"`` the references are given
    directly as increasing 0-based source positions.

    ``boundary_arcs`` says whether the arcs from ``<s>`` and into ``</s>`` count in the
    reliability of eq. (5); the paper's product runs over ``m = 2..M`` (word-to-word
    connections only), which is the default ``False``.

    >>> src = "The beautiful cherry blossoms in Japan bloom in spring".split()
    >>> refs = ["cherry blossoms in Japan bloom".split(),
    ...         "beautiful cherry bloom in spring".split()]
    >>> net = SummaryNetwork(refs, src)
    >>> net.accepts("cherry bloom in spring".split())
    True
    """

    def __init__(
        self,
        references: Iterable[Units],
        source: Units,
        *,
        alignment: str = "leftmost",
        boundary_arcs: bool = False,
    ) -> None:
        self.source: tuple[Hashable, ...] = tuple(source)
        self.boundary_arcs = bool(boundary_arcs)
        n = len(self.source)
        self.end = n
        counts: dict[tuple[int, int], int] = {}
        paths: list[tuple[int, ...]] = []
        for ref in references:
            if alignment == "positions":
                pos = [int(p) for p in ref]
                if any(not 0 <= p < n for p in pos) or any(a >= b for a, b in zip(pos, pos[1:])):
                    raise InputError(f"bad source positions {pos!r}")
            else:
                pos = _align(ref, self.source, alignment)
            paths.append(tuple(pos))
            chain = [_START, *pos, n]
            for arc in zip(chain, chain[1:]):
                counts[arc] = counts.get(arc, 0) + 1
        if not paths:
            raise InputError("a summary network needs at least one reference")
        self.reference_positions: tuple[tuple[int, ...], ...] = tuple(paths)
        self.n_references: int = len(paths)
        self.arcs: dict[tuple[int, int], int] = counts
        self._out: dict[int, list[tuple[int, float]]] = {}
        for (u, v), c in sorted(counts.items()):
            self._out.setdefault(u, []).append((v, math.log(c / self.n_references)))

    # weights of arcs that enter the reliability product
    def _arc_log(self, u: int, v: int, lw: float) -> float:
        if self.boundary_arcs or (u != _START and v != self.end):
            return lw
        return 0.0

    def _n_factors(self, length: int) -> int:
        return length + 1 if self.boundary_arcs else max(length - 1, 0)

    def _reliability(self, logsum: float, length: int) -> float:
        k = self._n_factors(length)
        return math.exp(logsum / k) if k else 1.0

    def accepts(self, units: Units) -> bool:
        """Whether some path of the network spells exactly ``units``."""
        return self.best_path(units).distance == 0

    def best_path(self, candidate: Units) -> NetworkMatch:
        """The target answer for ``candidate``: the closest path, by dynamic programming.

        Edit distance against the DAG.  State ``(node, j)``: a path from ``<s>`` to
        ``node`` aligned to the first ``j`` candidate units.  Entering a node either
        matches/substitutes the next candidate unit or deletes the node's unit; candidate
        units may be inserted at any node.  The cost is the triple ``(distance, -length,
        -log reliability)``, compared lexicographically; all three parts add up along a
        path, so the DP is exact.  Hence the chosen path has the minimum edit distance;
        among those, the most units (for a fixed distance that is the highest accuracy;
        at distance 0 the length is the candidate's anyway); among those, the highest
        eq. (5) reliability (for a fixed length a monotone function of the log-sum).
        Time ``O(|arcs| * |candidate|)``.
        """
        cand = list(candidate)
        m = len(cand)
        src = self.source
        end = self.end
        # best[node][j] = (dist, -length, -logsum, back); back = (prev_node, prev_j)
        best: dict[int, list[tuple | None]] = {_START: [None] * (m + 1)}
        best[_START][0] = (0, 0, 0.0, None)

        def relax(node: int, j: int, cost: tuple, back: tuple) -> None:
            row = best.get(node)
            if row is None:
                row = best[node] = [None] * (m + 1)
            old = row[j]
            if old is None or cost < old[:3]:
                row[j] = (*cost, back)

        for u in [_START, *range(end)]:
            row = best.get(u)
            if row is None:
                continue
            # insertions of candidate units while staying at u, in increasing j
            for j in range(m):
                if row[j] is not None:
                    d, negl, negs, _ = row[j]
                    relax(u, j + 1, (d + 1, negl, negs), (u, j))
            for v, lw in self._out.get(u, ()):
                lw = self._arc_log(u, v, lw)
                if v == end:
                    if row[m] is not None:
                        d, negl, negs, _ = row[m]
                        relax(end, m, (d, negl, negs - lw), (u, m))
                    continue
                unit = src[v]
                for j in range(m + 1):
                    if row[j] is None:
                        continue
                    d, negl, negs, _ = row[j]
                    relax(v, j, (d + 1, negl - 1, negs - lw), (u, j))  # node unit deleted
                    if j < m:
                        cost = (d + (cand[j] != unit), negl - 1, negs - lw)
                        relax(v, j + 1, cost, (u, j))

        final = best[end][m] if end in best else None
        if final is None:  # cannot happen: every reference spells a complete path
            raise InputError("the network has no complete path")
        d_final, negl, neg_final, back = final
        positions: list[int] = []
        node = end
        while back is not None:
            pnode, pj = back
            if node != end and pnode != node:
                positions.append(node)
            node = pnode
            back = best[node][pj][3]
        positions.reverse()
        L = len(positions)
        assert L == -negl
        return NetworkMatch(
            positions=tuple(positions),
            units=tuple(src[p] for p in positions),
            distance=d_final,
            accuracy=_accuracy(d_final, L),
            reliability=self._reliability(-neg_final, L),
        )

    def max_reliability(self) -> float:
        """``P(v^_1..v^_M^ | R)``: the highest eq. (5) reliability of any complete path.

        Eq. (5) is a geometric mean, so it is maximized per path length: a DP over
        ``(node, L)`` keeps the maximum log-product of arc ratios, then the best
        ``exp(logsum / #factors)`` over ``L`` is taken.
        """
        end = self.end
        best: dict[int, dict[int, float]] = {_START: {0: 0.0}}
        for u in [_START, *range(end)]:
            table = best.get(u)
            if not table:
                continue
            for v, lw in self._out.get(u, ()):
                lw = self._arc_log(u, v, lw)
                dst = best.setdefault(v, {})
                for L, s in table.items():
                    L2 = L if v == end else L + 1
                    if s + lw > dst.get(L2, -math.inf):
                        dst[L2] = s + lw
        return max(self._reliability(s, L) for L, s in best[end].items())


# --------------------------------------------------------------------------- SumACCY, WSumACCY


def sum_accy(
    candidate: Units,
    references: Iterable[Units],
    source: Units,
    *,
    alignment: str = "leftmost",
) -> float:
    """Summarization accuracy SumACCY (Hori et al. 2004, §2.3, Fig. 1).

    The references are merged into a network over the units of the source (see
    :class:`SummaryNetwork`); the path closest to the candidate (minimum edit distance,
    ties to the longer path, i.e. the higher accuracy) is the target answer, and
    SumACCY is ACCY (eq. 1) of the candidate against it.  Computed by dynamic
    programming over the DAG, not by enumerating paths.

    Table 1 / Fig. 1: "cherry blossoms bloom in spring" is in no reference, but the
    network accepts it, so its SumACCY is 1.0.

    >>> src = "The beautiful cherry blossoms in Japan bloom in spring".split()
    >>> refs = [s.split() for s in ["The cherry blossoms in Japan",
    ...     "cherry blossoms in Japan bloom", "beautiful cherry bloom in spring",
    ...     "beautiful cherry blossoms in spring", "The beautiful cherry blossoms bloom"]]
    >>> sum_accy("cherry blossoms bloom in spring".split(), refs, src)
    1.0
    """
    return SummaryNetwork(references, source, alignment=alignment).best_path(candidate).accuracy


def wsum_accy(
    candidate: Units,
    references: Iterable[Units],
    source: Units,
    *,
    alignment: str = "leftmost",
    boundary_arcs: bool = False,
) -> float:
    """Weighted summarization accuracy WSumACCY, Hori et al. (2004) eqs. (4)-(5).

    .. math::

        WSumACCY = \\frac{\\hat P(v_1 \\dots v_M | R)}
                        {\\hat P(\\hat v_1 \\dots \\hat v_{\\hat M} | R)} \\cdot SumACCY, \\qquad
        \\hat P(v_1 \\dots v_M | R) = \\Big(\\prod_{m=2}^{M}
                   \\frac{C(v_{m-1}, v_m | R)}{H_R}\\Big)^{\\frac{1}{M-1}}

    ``v_1..v_M`` is the SumACCY target path (ties between equally close, equally accurate
    paths go to the more reliable one), ``v^`` the most reliable path of the network,
    ``C(x, y|R)`` the number of references with the arc ``x -> y`` and ``H_R`` the
    number of references.  A path with no factor (one unit, or empty, when
    ``boundary_arcs`` is False) has reliability 1 (empty product).  With
    ``boundary_arcs=True`` the ``<s>`` and ``</s>`` arcs are factors too (``M + 1`` of
    them).

    >>> src = [1, 2, 3, 4, 5, 6]                 # sentence ids of the original
    >>> refs = [[1, 2, 4], [2, 3, 5], [1, 3, 5]]
    >>> round(wsum_accy([1, 2, 3, 5], refs, src), 4)  # (2/27)**(1/3) / (2/9)**(1/2)
    0.8909
    """
    net = SummaryNetwork(references, source, alignment=alignment, boundary_arcs=boundary_arcs)
    match = net.best_path(candidate)
    return match.reliability * match.accuracy / net.max_reliability()


# --------------------------------------------------------------------------- kappa, appendix


def kappa(extractions: Sequence[Iterable[Hashable]], n_units: int) -> float:
    """Agreement among extractive references, Hori et al. (2004) appendix, eqs. (A-1)-(A-5).

    .. math::

        \\kappa = \\frac{P(A) - P(E)}{1 - P(E)},\\quad
        P(A) = \\frac{1}{N}\\sum_{i=1}^{N} S_i,\\quad
        S_i = \\sum_{j=1}^{m} \\frac{\\binom{n_{ij}}{2}}{\\binom{k}{2}},\\quad
        P(E) = \\sum_{j=1}^{m} p_j^2,\\quad
        p_j = \\sum_{i=1}^{N} \\frac{n_{ij}}{N k}

    ``extractions`` holds one collection of selected units per subject (``k`` subjects);
    ``n_units`` is ``N``, the number of units of the original (sentences or words), each
    one a trial with ``m = 2`` classes, extract / not extract; ``n_ij`` is the number of
    subjects putting unit ``i`` in class ``j``.  Units nobody selected count as
    "not extract" for every subject.  When ``P(E) = 1`` (all subjects select all units,
    or none) kappa is 0/0 and is defined as 1.0 (perfect agreement).

    >>> round(kappa([{0, 1}, {0, 2}, {0, 1}], 4), 6)  # P(A) = 2/3, P(E) = 1/2
    0.333333
    """
    sets = [frozenset(e) for e in extractions]
    k = len(sets)
    if k < 2:
        raise InputError("kappa needs at least two subjects")
    selected: dict[Hashable, int] = {}
    for s in sets:
        for u in s:
            selected[u] = selected.get(u, 0) + 1
    if len(selected) > n_units:
        raise InputError(f"{len(selected)} distinct units selected but n_units={n_units}")
    if n_units < 1:
        raise InputError("n_units must be >= 1")
    pairs = k * (k - 1) / 2
    counts = list(selected.values()) + [0] * (n_units - len(selected))
    p_a = sum_in_order((c * (c - 1) / 2 + (k - c) * (k - c - 1) / 2) / pairs for c in counts) / n_units
    p_yes = sum(counts) / (n_units * k)
    p_e = p_yes**2 + (1.0 - p_yes) ** 2
    if p_e >= 1.0:
        return 1.0
    return (p_a - p_e) / (1.0 - p_e)


# -------------------------------------------------------------------------- the registry family

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

    def references_rule(self, m):
        return {
            "ACCY": "the mean of its value against each reference",
            "NRSTACCY": "the nearest reference",
            "PREC": "n-grams found in any reference",
            "SUMACCY": "the network all references make",
            "WSUMACCY": "the network all references make",
        }[m.kind]

    def pair_value(self, m, candidate, references, source, options):
        c, rs = _units(candidate, options), [_units(r, options) for r in references]
        if m.kind == "ACCY":  # one value per reference; several references: their mean
            total = 0.0
            for r in rs:
                total += accy(c, r)
            return total / len(rs)
        if m.kind == "NRSTACCY":
            return nrst_accy(c, rs)
        if m.kind == "PREC":
            return prec_n(c, rs, m.n)
        if source is None:
            raise OptionError(f"{m.name} needs the original text: pass sources= (one per candidate)")
        fn = sum_accy if m.kind == "SUMACCY" else wsum_accy
        return fn(c, rs, _units(source, options))


register(Hori())
