"""``--target``: which implementation and settings print a reported ROUGE table?

The target (``R1=39.53,R2=17.28,RL=36.38``: percent when a value is above 1, else fractions; F
unless ``stat`` says recall or precision) is matched at the precision it was reported with: a
setting matches when every value, rounded (or truncated) to the target's decimals, prints the
target. The rows are ranked first; then a bounded, deterministic grid is searched, in this order:

* tokenizer: ROUGE-1.5.5's, rouge-score's;
* stemmer: none, Porter (files2rouge's -m, rouge-score's), Porter + WordNet exceptions (-m);
* stopwords (-s) and length limits (``LIMITS``: none, -l 75, -l 100, -b 75, -b 275, -b 665), with
  ROUGE-1.5.5's tokenizer only (rouge-score has neither);
* ROUGE-L's sentences: none, lines, nltk's Punkt (when installed), files2rouge's " ." rule;
* several references: sum (-f A), best (-f B), max (rouge-score's), the paper's jackknife, and
  with rouge-score's tokenizer torchmetrics' accumulate="avg" (the mean over the references);
* aggregation: per-pair mean, token sums (-t 2's totals, divided), ROUGE-1.5.5's -a average of
  -t 0 and of -t 1 (over the pairs in input order, and in pyrouge's and files2rouge's file-name
  order), bootstrap median; float32 (torchmetrics) beside float64 for rouge-score's per-pair mean;
  no token sums for the rules over per-reference values (jackknife, avg);
* F's weight -p (``ALPHAS``: 0.5, 0.2, 0.8) with ROUGE-1.5.5's tokenizer and -f A or B, for F targets;
* printed value: rounded or truncated.

Counting is done once per counting choice (:class:`~rougekit.variants.space.Space`) and every
aggregation reuses it. The bootstrap aggregations and the extra sentence splits are only computed
where they can still match: a bootstrap average or median lies within ``BOOTSTRAP_SES`` standard
error of the plain mean (it is the mean or median of resample means; see ``BOOTSTRAP_SES``), and a choice whose
ROUGE-N values cannot match is not recounted for other ROUGE-L sentence splits.
"""

from __future__ import annotations

import math
import re
import time
from dataclasses import asdict, dataclass, field
from decimal import ROUND_DOWN, ROUND_HALF_EVEN, Decimal
from typing import Optional

import numpy as np

from rougekit.errors import OptionError
from rougekit.measures import Measure
from rougekit.variants.space import ALPHAS, Settings, Space, punkt_available

LIMITS = ((0, 0), (75, 0), (100, 0), (0, 75), (0, 275), (0, 665))  # (-l, -b)
# How far a bootstrap aggregate may be from the plain mean, in standard errors (SE) of the mean: the
# mean of 1,000 resample means lies about SE/sqrt(1000) = 0.03 SE from it; their median is further on
# small skewed sets (up to 0.26 SE measured over 3,000 sets of 2-11 pairs: 0/1 values, x**6, tenths),
# as the median of the resample means follows the skew (plus, for the script, its 5-decimal per-pair
# values: at most 5e-6, ``ROUNDING_SLACK``). One SE is about four times the largest gap measured.
BOOTSTRAP_SES = 1.0
ROUNDING_SLACK = 5e-6
STATS = {"f": 2, "recall": 0, "precision": 1}
_SHORT = {"R1": "ROUGE-1", "R2": "ROUGE-2", "R3": "ROUGE-3", "R4": "ROUGE-4", "RL": "ROUGE-L", "RLSUM": "ROUGE-L"}
_RS = {"ROUGE1": "ROUGE-1", "ROUGE2": "ROUGE-2", "ROUGE3": "ROUGE-3", "ROUGE4": "ROUGE-4", "ROUGEL": "ROUGE-L"}
_RS["ROUGELSUM"] = "ROUGE-L"
NEAREST = 5  # settings listed when none matches


@dataclass(frozen=True)
class Target:
    """Reported values: ``{measure: (text as given, value in its unit)}``, the unit's scale and the statistic."""

    values: dict
    scale: int  # 100 for percent, 1 for fractions
    stat: str

    def decimals(self, measure: str) -> int:
        text = self.values[measure][0]
        return len(text.split(".", 1)[1]) if "." in text else 0

    def printed(self, value: float, measure: str, mode: str) -> Decimal:
        """``value`` (a fraction) as the paper would print it: rounded or truncated to the target's decimals."""
        step = Decimal(1).scaleb(-self.decimals(measure))
        exact = Decimal(value) * self.scale
        return exact.quantize(step, rounding=ROUND_HALF_EVEN if mode == "round" else ROUND_DOWN)

    def distance(self, values: dict, mode: Optional[str] = None) -> float:
        """0.0 when every value prints as the target (with ``mode``, or either mode), else the largest
        absolute difference from a target, in the target's unit."""
        modes = (mode,) if mode else ("round", "truncate")
        for m in modes:
            if all(values[k] is not None and self.printed(values[k], k, m) == self.values[k][1] for k in self.values):
                return 0.0
        gaps = [
            abs(values[k] * self.scale - float(self.values[k][1])) if values[k] is not None else math.inf
            for k in self.values
        ]
        return max(gaps)

    def matching_mode(self, values: dict) -> Optional[str]:
        for m in ("round", "truncate"):
            if all(self.printed(values[k], k, m) == self.values[k][1] for k in self.values):
                return m
        return None


def parse_target(spec, stat: str = "f") -> Target:
    """``"R1=39.53,R2=17.28,RL=36.38"`` (or a dict) as a :class:`Target`; names as rougekit prints them,
    R1/RL, or rouge-score's rouge1/rougeLsum."""
    stat = {"r": "recall", "p": "precision", "fmeasure": "f", "f1": "f"}.get(str(stat).lower(), str(stat).lower())
    if stat not in STATS:
        raise OptionError(f"--target-stat must be f, recall or precision, not {stat!r}")
    if isinstance(spec, str):
        items = []
        for part in filter(None, (p.strip() for p in spec.split(","))):
            if "=" not in part:
                raise OptionError(f"--target: {part!r} is not NAME=VALUE (e.g. R1=39.53,R2=17.28,RL=36.38)")
            name, value = part.split("=", 1)
            items.append((name.strip(), value.strip()))
    else:
        items = [(str(k), str(v)) for k, v in dict(spec).items()]
    if not items:
        raise OptionError("--target: give at least one NAME=VALUE")
    parsed = {}
    for name, text in items:
        if not re.fullmatch(r"\d+(\.\d+)?", text):
            raise OptionError(f"--target: {name}={text!r} is not a number like 39.53 or 0.3953")
        parsed[_measure_name(name)] = (text, Decimal(text))
    percent = any(v > 1 for _, v in parsed.values())
    if any(v > 100 for _, v in parsed.values()):
        raise OptionError(
            "--target: a value above 100 is neither a percentage nor a fraction "
            "(percent when a value is above 1, fractions when every value is at most 1)"
        )
    return Target(parsed, 100 if percent else 1, stat)


def _measure_name(name: str) -> str:
    key = name.upper().replace("_", "").replace(" ", "")
    if key in _SHORT:
        return _SHORT[key]
    if key in _RS:
        return _RS[key]
    try:
        return Measure.parse(name).name
    except Exception:
        raise OptionError(f"--target: unknown measure {name!r} (R1, R2, RL, ROUGE-1, rouge1, rougeLsum ...)") from None


@dataclass
class Match:
    """A setting (or a row) and its values; ``distance`` 0 when it prints the target."""

    name: str
    settings: dict
    command: str
    scores: dict
    distance: float
    rounding: str = ""

    def to_dict(self) -> dict:
        return {k: v for k, v in asdict(self).items() if k != "rounding"}


@dataclass
class SearchReport:
    """What the search covered: settings evaluated, counting choices, the ones pruned, seconds."""

    evaluated: int = 0
    counted: int = 0
    pruned: int = 0
    seconds: float = 0.0
    matched: bool = False
    grid: int = 0  # the settings of the grid for this target, before pruning (:func:`grid_size`)
    ranking: list = field(default_factory=list)  # [(row name, distance)], best first
    left_out: list = field(default_factory=list)  # [(part of the grid, why)]: not searched on this machine


def grid_size(multi: bool, stat: str = "f", splits: tuple = ("newline", "none", "eos", "punkt")) -> int:
    """How many settings the search walks before pruning: with several references per pair or one,
    for a target of ``stat``, with these ROUGE-L sentence splits (just "newline" without ROUGE-L)."""
    total = 0
    for base in _grid(multi):
        for alpha in _alphas(base, stat):
            for aggregation, _ in _aggregations(base):
                float32 = base.tokenizer == "rouge-score" and aggregation == "mean"
                total += len(splits) * (2 if float32 else 1)
    return total


def _grid(multi_references: bool):
    """The counting choices (split "newline", aggregation "mean"), in the search order."""
    multi = ("sum", "best", "max", "jackknife") if multi_references else ("sum",)
    for stemmer in ("none", "porter", "porter+wordnet"):
        for stopwords in (False, True):
            for word_limit, byte_limit in LIMITS:
                for rule in multi:
                    yield Settings("rouge155", stemmer, stopwords, word_limit, byte_limit, "newline", rule)
    for stemmer in ("none", "porter"):
        for rule in ("max", "avg") if multi_references else ("max",):
            yield Settings("rouge-score", stemmer, split="newline", multi_ref=rule)


def _aggregations(base: Settings) -> list:
    """(aggregation, pairs' order) to try: the script's -t 0 and -t 1 averages also over pairs in
    file-name order (pyrouge's and files2rouge's <i>.txt files) with its tokenizer; no summed counts
    where the rule combines per-reference values (jackknife, avg)."""
    per_reference = base.multi_ref in ("jackknife", "avg")
    out = [("mean", "input")] + ([] if per_reference else [("tokens", "input")]) + [("rouge155-average", "input")]
    if base.tokenizer == "rouge155":
        out.append(("rouge155-average", "file-names"))
        if not per_reference:
            out += [("rouge155-token-average", "input"), ("rouge155-token-average", "file-names")]
    return out + [("bootstrap-median", "input")]


def _alphas(base: Settings, stat: str) -> tuple:
    """-p values to try: ROUGE-1.5.5's tokenizer, -f A or B, and only when the target is F."""
    if stat == "f" and base.tokenizer == "rouge155" and base.multi_ref in ("sum", "best"):
        return ALPHAS
    return (0.5,)


def _splits(with_l: bool, punkt: bool) -> tuple:
    if not with_l:
        return ("newline",)
    return ("newline", "none", "eos", *(("punkt",) if punkt else ()))


def _stat_values(space: Space, s: Settings, measures, stat: int) -> dict:
    return {m: space.value(s, m)[stat] for m in measures}


def _standard_errors(space: Space, s: Settings, measures, stat: int) -> dict:
    out = {}
    for m in measures:
        column = space.per_pair(s, m)[:, stat]
        out[m] = float(np.std(column) / math.sqrt(len(column))) if len(column) else 0.0
    return out


def _could_match(target: Target, means: dict, ses: dict, measures, slack: float) -> bool:
    """Whether values within ``slack`` standard errors of ``means`` could print the target."""
    for m in measures:
        unit = float(Decimal(1).scaleb(-target.decimals(m)))
        gap = abs(means[m] * target.scale - float(target.values[m][1]))
        if gap > unit + (slack * ses[m] + (ROUNDING_SLACK if slack else 0.0)) * target.scale:
            return False
    return True


def search(result, space: Space, target: Target, limit: Optional[int] = 10):
    """(matches in the search order, rows first -- at most ``limit``, None: all -- or the nearest
    settings when none matches; a :class:`SearchReport`)."""

    started = time.perf_counter()
    measures = list(target.values)
    for m in measures:
        if m not in space.measures:
            raise OptionError(f"--target names {m}, which is not among --measures ({', '.join(space.measures)})")
    stat = STATS[target.stat]
    report = SearchReport()
    found: list = []
    # the rows first: their own numbers (exact implementations, including the ones outside the grid)
    for row in result.rows:
        values = {m: row.scores[m][target.stat] for m in measures}
        d = target.distance(values)
        report.ranking.append((row.name, d))
        if d == 0.0:
            found.append(_match(row.name, row.settings, row.command, row.scores, values, target))
    report.ranking.sort(key=lambda x: x[1])
    punkt, why = punkt_available()
    splits = _splits("ROUGE-L" in measures, punkt)
    if "ROUGE-L" in measures and not punkt:
        report.left_out.append(("search:split=punkt", f"ROUGE-L on nltk's Punkt sentences not searched: {why}"))
    report.grid = grid_size(space.multi, target.stat, splits)
    near: list = []
    seen = {r.settings for r in result.rows if r.settings is not None and r.name in {m.name for m in found}}
    walk: list = []  # the settings to evaluate, in the search order (pruning needs no bootstrap value)
    for base in _grid(space.multi):
        report.counted += 1
        for alpha in _alphas(base, target.stat):
            walk += _search_counting(space, target, base.replace(alpha=alpha), measures, stat, splits, report)
    space.prepare(walk)  # every bootstrap aggregate of the walk from shared draws
    for s in walk:
        report.evaluated += 1
        values = _stat_values(space, s, measures, stat)
        d = target.distance(values)
        if d == 0.0 and s not in seen:
            found.append(_match(_name(s), s, _command(space, s), _scores(space, s), values, target))
        elif d > 0.0:
            near.append((d, report.evaluated, s))
    report.seconds = time.perf_counter() - started
    report.matched = bool(found)
    if found:
        return found[:limit] if limit else found, report
    near.sort(key=lambda x: (x[0], x[1]))
    nearest = [
        _match(_name(s), s, _command(space, s), _scores(space, s), None, target, d) for d, _, s in near[:NEAREST]
    ]
    return nearest, report


def _search_counting(space, target, base, measures, stat, splits, report) -> list:
    """The settings to evaluate for one counting choice (with one -p): every aggregation that can
    still match, ROUGE-L under every sentence split (the ones pruned are counted in ``report``)."""
    out = []
    with_l = "ROUGE-L" in measures
    n_measures = [m for m in measures if m != "ROUGE-L"]
    means = _stat_values(space, base, measures, stat)
    tokens = _stat_values(space, base.replace(aggregation="tokens"), measures, stat)
    ses = _standard_errors(space, base, measures, stat)
    # ROUGE-N does not depend on ROUGE-L's sentences: recount ROUGE-L under the other splits only
    # where ROUGE-N can match with some aggregation (a bootstrap one lies near the mean or the ratio)
    n_can_match = not n_measures or (
        _could_match(target, means, ses, n_measures, BOOTSTRAP_SES)
        or _could_match(target, tokens, ses, n_measures, BOOTSTRAP_SES)
    )
    for split in splits:
        counting = base.replace(split=split)
        if split != "newline":
            if not n_can_match:
                report.pruned += 1
                continue
            ses = {**ses, **_standard_errors(space, counting, ["ROUGE-L"], stat)} if with_l else ses
        for aggregation, order in _aggregations(base):
            torch_like = base.tokenizer == "rouge-score" and aggregation == "mean"
            precisions = ("float64", "float32") if torch_like else ("float64",)
            # a bootstrap average lies near what it resamples: the per-pair mean (-t 0, the median)
            # or the ratio of the summed counts (-t 1)
            centre = "tokens" if aggregation == "rouge155-token-average" else "mean"
            for precision in precisions:
                s = counting.replace(aggregation=aggregation, precision=precision, order=order)
                if aggregation in ("rouge155-average", "rouge155-token-average", "bootstrap-median") and not (
                    _could_match(
                        target,
                        _stat_values(space, counting.replace(aggregation=centre), measures, stat),
                        ses,
                        measures,
                        BOOTSTRAP_SES,
                    )
                ):
                    report.pruned += 1
                    continue
                out.append(s)
    return out


def _name(s: Settings) -> str:
    return "search:" + ",".join(f"{k}={v}" for k, v in s.describe().items() if v != getattr(Settings(), k))


def _scores(space: Space, s: Settings) -> dict:
    return {m: dict(zip(("recall", "precision", "f"), space.value(s, m))) for m in space.measures}


def _command(space: Space, s: Settings) -> str:
    return s.command(list(space.measures), space.references_per_pair)


def _match(name, settings: Optional[Settings], command, scores, values, target: Target, distance=0.0) -> Match:
    rounding = target.matching_mode(values) if values is not None else None
    described = settings.describe() if settings is not None else {"row": name}
    if rounding:
        described = {**described, "printed": rounding}
    return Match(name, described, command, scores, distance, rounding or "")
