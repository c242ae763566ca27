"""Which ROUGE was it? Every popular implementation's numbers on the same pairs, side by side.

>>> r = variants(["the cat sat on the mat"], ["the cat was on the mat"], measures=["ROUGE-1"], rows=["rouge-score"])
>>> r.rows[0].scores["ROUGE-1"]["f"]
0.8333333333333334

:func:`variants` computes one :class:`~rougekit.variants.rows.Row` per implementation (through
the rougekit path bit-identical to it), and with ``target=`` ranks them and searches the option
space for settings that reproduce a reported number (:mod:`rougekit.variants.target`).
:func:`rougekit.variants.factors.decompose` explains the difference between two rows.
"""

from __future__ import annotations

import sys
import types
from dataclasses import dataclass, field
from typing import Iterable, Optional, Sequence

from rougekit.engine.door import inputs
from rougekit.errors import InputError, OptionError
from rougekit.variants.rows import Row, signature_of, specs
from rougekit.variants.space import Settings, Space, check_measures, punkt_available

__all__ = ["variants", "VariantsResult", "Row", "Settings", "Space"]


@dataclass
class VariantsResult:
    """The rows, the rows that could not be computed (with why), and the target's matches."""

    rows: list
    skipped: list = field(default_factory=list)  # [(name, reason)]
    matches: Optional[list] = None  # [target.Match], best first, when a target was given
    pairs: int = 0
    measures: tuple = ()
    target: Optional[object] = None
    search: Optional[object] = None  # what the search covered (target.SearchReport)

    def row(self, name: str) -> Row:
        for r in self.rows:
            if r.name == name:
                return r
        raise OptionError(f"no row {name!r} (rows: {', '.join(r.name for r in self.rows)})")

    def to_dict(self) -> dict:
        """``{"rows": [...], "matches": [...]}`` (matches only with a target), scores as fractions;
        ``"skipped": [{"name", "reason"}]`` when a row, or a part of the search (``search:...``),
        could not be computed here (never a row of zeros or a silently smaller search)."""
        out: dict = {"rows": [r.to_dict() for r in self.rows]}
        if self.matches is not None:
            out["matches"] = [m.to_dict() for m in self.matches]
        left_out = list(self.skipped) + list(getattr(self.search, "left_out", None) or ())
        if left_out:
            out["skipped"] = [{"name": name, "reason": why} for name, why in left_out]
        return out


def variants(
    candidates: Sequence[str],
    references: Iterable,
    measures: Sequence[str] = ("ROUGE-1", "ROUGE-2", "ROUGE-L"),
    *,
    rows: Optional[Sequence[str]] = None,
    lang: Optional[str] = None,
    seed: int = 0,
    target=None,
    target_stat: str = "f",
    space: Optional[Space] = None,
    max_matches: Optional[int] = 10,
) -> VariantsResult:
    """Every implementation's corpus R/P/F on these pairs (candidates first, references second).

    ``rows`` picks rows by name (default: all); ``lang`` is XL-Sum's language for the
    multilingual-rouge row; ``seed`` seeds the bootstrap medians (evaluate's ``load(seed=)``,
    rouge-score's aggregator). ``target`` (``"R1=39.53,R2=17.28,RL=36.38"`` or a dict) ranks the
    rows and searches the option space for the settings that print those numbers
    (:func:`rougekit.variants.target.search`), listing at most ``max_matches`` (None: all).
    """
    candidates, refs = _texts(candidates, references)
    names = check_measures(measures)
    all_specs = specs(names, lang=lang, seed=seed)
    known = [s.name for s in all_specs]
    for name in rows or ():
        if name not in known:
            raise OptionError(f"unknown row {name!r} (rows: {', '.join(known)})")
    multi = any(len(r) != 1 for r in refs)
    punkt_ok, punkt_why = punkt_available()
    result_rows, skipped = [], []
    cache: dict = {}  # what two rows share, computed once for these pairs (evaluate's one call, draws)
    cache["planned"] = {
        spec.name
        for spec in all_specs
        if (rows is None or spec.name in rows)
        and not (spec.single_reference and multi)
        and not (spec.needs_punkt and not punkt_ok)
    }
    for spec in all_specs:
        if rows is not None and spec.name not in rows:
            continue
        if spec.single_reference and multi:
            skipped.append((spec.name, f"{spec.package} takes one reference per pair"))
            continue
        if spec.needs_punkt and not punkt_ok:
            skipped.append((spec.name, punkt_why))
            continue
        try:
            scores = spec.compute(candidates, refs, names, seed=seed, lang=lang, cache=cache)
        except PACKAGE_ERRORS as exc:  # the package itself fails on these inputs: say so, never a row of zeros
            skipped.append((spec.name, f"{spec.package} {spec.version} fails: {type(exc).__name__}: {exc}"))
            continue
        signature = signature_of(names, spec.settings, seed, **spec.signature_fields)
        result_rows.append(
            Row(spec.name, spec.package, spec.version, spec.command, spec.aggregation, signature, scores, spec.settings)
        )
    result = VariantsResult(result_rows, skipped, pairs=len(candidates), measures=names)
    if target is not None:
        from rougekit.variants import target as target_module

        goal = target_module.parse_target(target, target_stat)
        space = space or Space(candidates, refs, names, seed=seed)
        if "punkt" in cache and space.candidates == candidates and space.references == refs:
            space.share_split("punkt", cache["punkt"])  # the rows' Punkt sentences, split once
        result.target = goal
        result.matches, result.search = target_module.search(result, space, goal, max_matches)
    return result


# what the replaced packages raise on inputs they cannot score (pltrdy's "Hypothesis is empty", an
# empty text's division, ...); rougekit's own errors (RougeKitError) are not among them and propagate
PACKAGE_ERRORS = (ArithmeticError, LookupError, TypeError, ValueError, AttributeError, RecursionError)


def _texts(candidates, references) -> tuple[list, list]:
    """The pairs as texts, read as :func:`rougekit.score` reads them (a summary given as a list of
    sentences is its lines), or its one-line TypeError / InputError: (candidates, references per pair)."""
    candidates = inputs.summaries(candidates, "candidates", "candidate")
    kind, references = inputs.normalize(candidates, references)
    if len(candidates) != len(references):
        raise OptionError(f"{len(candidates)} candidates but {len(references)} reference entries")
    if not candidates:
        raise InputError("no pairs to score")
    if kind != "text":
        raise InputError("variants compares texts (every implementation reads text), not token ids")
    cands = [_text(c, f"pair {k + 1}: candidate") for k, c in enumerate(candidates)]
    refs = []
    for k, pair in enumerate(references):  # inputs.normalize refused a pair with no reference
        refs.append([_text(r, f"pair {k + 1}: reference {j + 1}") for j, r in enumerate(pair)])
    for text in (*cands, *(r for pair in refs for r in pair)):
        if not text.isascii():
            try:
                text.encode("utf-8", "surrogateescape")
            except UnicodeEncodeError:
                raise InputError(inputs.lone_surrogate(cands, refs, None, 1)) from None
    return cands, refs


def _text(summary, where: str) -> str:
    if isinstance(summary, str):
        return summary
    if isinstance(summary, (list, tuple)) and all(isinstance(s, str) for s in summary):
        return "\n".join(summary)
    raise TypeError(f"{where}: expected text (a str or a list of str sentences), got {summary!r:.60}")


class _CallableModule(types.ModuleType):
    """This package, callable as :func:`variants`: ``rougekit.variants`` names both the function
    (exported by ``rougekit``) and this package, and whichever of them Python binds, the call works."""

    def __call__(self, *args, **kwargs) -> VariantsResult:
        return variants(*args, **kwargs)


sys.modules[__name__].__class__ = _CallableModule
