"""``--explain A B``: why two implementations give different numbers on the same outputs.

Starting from row A's settings, the factors of :data:`rougekit.variants.space.FACTORS` are
switched to row B's one at a time, in that fixed order (tokenizer, stemmer, stopwords with the
length limits, ROUGE-L's sentence splitting, multi-reference rule, aggregation, printed rounding,
float precision); each factor's share is the change of the corpus number at its switch. With
``shapley=True`` each share is instead the average of that change over every order of the factors
that differ (Shapley values, over all 2^k subsets). A last share, ``implementation``, is what the
option space does not model (evaluate's own bootstrap draws, pyrouge's file order in the script's
bootstrap, torch's float32 sum order): row B's number minus its settings' value, less the same
for A. The shares are exact rationals (:class:`fractions.Fraction` of the floats), so they add up
to row B minus row A exactly.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import combinations
from typing import Optional, Sequence

import numpy as np

from rougekit.errors import OptionError
from rougekit.stats.paired import signed as _signed
from rougekit.variants.space import FACTORS, Settings, Space, exact

KEYS = ("recall", "precision", "f")
IMPLEMENTATION = "implementation"
TOP_PAIRS = 5


@dataclass
class Share:
    """One factor's part of the difference: its values in A and in B, and the change (exact)."""

    factor: str
    a: object
    b: object
    delta: Fraction

    def to_dict(self) -> dict:
        return {"factor": self.factor, "a": _shown(self.a), "b": _shown(self.b), "delta": float(self.delta)}


@dataclass
class Decomposition:
    """The difference B - A of one measure's statistic, in shares that add up to it exactly."""

    measure: str
    stat: str
    a: float
    b: float
    shares: list
    method: str  # "sequential" or "shapley"
    pairs: list = field(default_factory=list)  # the pairs that differ most (dicts)

    @property
    def total(self) -> Fraction:
        return exact(self.b) - exact(self.a)

    def to_dict(self) -> dict:
        return {
            "measure": self.measure,
            "stat": self.stat,
            "a": self.a,
            "b": self.b,
            "total": float(self.total),
            "method": self.method,
            "shares": [s.to_dict() for s in self.shares],
            "pairs": self.pairs,
        }


def _shown(value):
    if isinstance(value, tuple) and len(value) == 3:  # stopwords travel with the limits
        stop, words, nbytes = value
        text = "stopwords" if stop else "no stopwords"
        return text + (f", -l {words}" if words else "") + (f", -b {nbytes}" if nbytes else "")
    if isinstance(value, tuple):  # the aggregation, with the pairs' order in the script's bootstrap
        aggregation, order = value
        return aggregation + (" (pairs in file-name order)" if order == "file-names" else "")
    return value


def _settings(row) -> Settings:
    if row.settings is None:
        raise OptionError(
            f"--explain: row {row.name!r} ({row.package}) has its own text handling, outside the option space "
            "(explain compares rows built on ROUGE-1.5.5's or rouge-score's tokenizer)"
        )
    return row.settings


def decompose(
    result,
    space: Space,
    a: str,
    b: str,
    measures: Optional[Sequence[str]] = None,
    stat: str = "f",
    shapley: bool = False,
    top: int = TOP_PAIRS,
) -> list:
    """One :class:`Decomposition` per measure of row ``b`` minus row ``a`` (names of ``result.rows``)."""
    if stat not in KEYS:
        raise OptionError(f"stat must be one of {', '.join(KEYS)}, not {stat!r}")
    row_a, row_b = result.row(a), result.row(b)
    sa, sb = _settings(row_a), _settings(row_b)
    k = KEYS.index(stat)
    out = []
    for m in measures or space.measures:
        va, vb = row_a.scores[m][stat], row_b.scores[m][stat]
        if va is None or vb is None:
            missing = a if va is None else b
            raise OptionError(f"--explain: row {missing!r} gives no {stat} (evaluate prints F only)")

        def value(s: Settings, m=m) -> Fraction:
            return exact(space.value(s, m)[k])

        differing = [f for f in FACTORS if sa.factor_value(f) != sb.factor_value(f)]
        if not space.multi:  # one reference per pair: every multi-reference rule gives the same numbers
            differing = [f for f in differing if f != "multi_ref"]
        shares = _shapley(value, sa, sb, differing) if shapley else _sequential(value, sa, sb, differing)
        residual = (exact(vb) - value(sb)) - (exact(va) - value(sa))
        shares.append(Share(IMPLEMENTATION, row_a.name, row_b.name, residual))
        d = Decomposition(m, stat, va, vb, shares, "shapley" if shapley else "sequential")
        d.pairs = differing_pairs(space, sa, sb, m, k, top) if top else []
        out.append(d)
    return out


def _sequential(value, sa: Settings, sb: Settings, differing: list) -> list:
    shares, current = [], sa
    before = value(current)
    for f in differing:
        nxt = current.with_factor(f, sb.factor_value(f))
        after = value(nxt)
        shares.append(Share(f, sa.factor_value(f), sb.factor_value(f), after - before))
        current, before = nxt, after
    return shares


def _shapley(value, sa: Settings, sb: Settings, differing: list) -> list:
    k = len(differing)
    cache: dict = {}

    def v(subset: frozenset) -> Fraction:
        if subset not in cache:
            s = sa
            for f in differing:
                if f in subset:
                    s = s.with_factor(f, sb.factor_value(f))
            cache[subset] = value(s)
        return cache[subset]

    shares = []
    for f in differing:
        others = [g for g in differing if g != f]
        total = Fraction(0)
        for size in range(k):
            weight = Fraction(math.factorial(size) * math.factorial(k - size - 1), math.factorial(k))
            for subset in combinations(others, size):
                s = frozenset(subset)
                total += weight * (v(s | {f}) - v(s))
        shares.append(Share(f, sa.factor_value(f), sb.factor_value(f), total))
    return shares


def differing_pairs(space: Space, sa: Settings, sb: Settings, measure: str, k: int, top: int) -> list:
    """The ``top`` pairs whose per-pair value differs most between the two settings, with the tokens
    each side saw (:func:`rougekit.explain` with each setting's text handling)."""
    xa = space.statistics(sa, measure)[:, 3 + k]
    xb = space.statistics(sb, measure)[:, 3 + k]
    if sa.precision == "float32" or sb.precision == "float32":
        xa, xb = xa.astype(np.float32).astype(float), xb.astype(np.float32).astype(float)
    order = np.argsort(-np.abs(xb - xa), kind="stable")[:top]
    out = []
    for i in order.tolist():
        if abs(xb[i] - xa[i]) < 1e-12:  # the rest differ by rounding only
            break
        out.append(
            {
                "pair": i + 1,
                "a": float(xa[i]),
                "b": float(xb[i]),
                "a_tokens": _tokens(space, sa, i),
                "b_tokens": _tokens(space, sb, i),
            }
        )
    return out


def _tokens(space: Space, s: Settings, i: int) -> dict:
    """The candidate's and first reference's tokens under ``s``, as the Space counts them
    (rougekit.explain with the same tokenizer, stemmer, stopwords and limits)."""
    from rougekit.explanation import explain

    cand, refs = space.candidates[i], space.references[i]
    options: dict = dict(stopwords=s.stopwords, word_limit=s.word_limit, byte_limit=s.byte_limit)
    porter_only = s.tokenizer == "rouge155" and s.stemmer == "porter"
    if s.tokenizer == "rouge-score":
        from rougekit.compat._tokenize import tokenize

        stem = s.stemmer != "none"
        options["tokenizer"] = lambda text: tokenize(text, stem)
    else:
        options["stem"] = s.stemmer == "porter+wordnet"
    e = explain(cand, refs[:1], measures=["ROUGE-1"], **options).to_dict()
    out = {"candidate": e["candidate"]["tokens"], "reference": e["references"][0]["tokens"]}
    if porter_only:  # -m with an empty exception DB (files2rouge's): Porter on the tokens -m stems
        from rougekit.text.stemming import porter_stem155

        out = {k: [porter_stem155(t) if len(t) > 3 else t for t in v] for k, v in out.items()}
    return out


def table(decompositions: list) -> str:
    """The decompositions as text: one block per measure, a line per factor, the pairs that differ most."""
    lines = []
    for d in decompositions:
        lines.append(f"{d.measure} {d.stat}: {d.a:.5f} -> {d.b:.5f} (difference {_signed(d.total)}, {d.method})")
        for s in d.shares:
            a, b = _shown(s.a), _shown(s.b)
            lines.append(f"  {s.factor:<15} {_signed(s.delta)}   {a} -> {b}")
        lines.append(f"  {'sum':<15} {_signed(sum((s.delta for s in d.shares), Fraction(0)))}")
        if d.pairs:
            lines.append("  pairs that differ most:")
            for p in d.pairs:
                lines.append(f"    pair {p['pair']}: {p['a']:.5f} -> {p['b']:.5f}")
                lines.append(f"      A candidate: {' '.join(p['a_tokens']['candidate'])}")
                lines.append(f"      B candidate: {' '.join(p['b_tokens']['candidate'])}")
                lines.append(f"      A reference: {' '.join(p['a_tokens']['reference'])}")
                lines.append(f"      B reference: {' '.join(p['b_tokens']['reference'])}")
    return "\n".join(lines) + "\n"
