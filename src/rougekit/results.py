"""Results of scoring a corpus, stored as arrays so that millions of pairs stay small.

``data[i, j]`` holds pair i, measure j: (reference count, hits, candidate count, recall,
precision, f). A single-valued measure (BLEU, ACCY, ...) keeps its value in the last three
columns and NaN counts.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from rougekit.measures import Measure
from rougekit.scoring import PairScore
from rougekit.signature import Signature

MODEL, HITS, PEER, R, P, F = range(6)
KEYS = ("recall", "precision", "f")
# what the corpus recall/precision/f are for each ``average``
AVERAGE_NAMES = {
    "pairs": "mean of per-pair scores",
    "tokens": "ratio of summed counts (ROUGE-1.5.5 -t 1)",
    "rouge155": "ROUGE-1.5.5.pl's bootstrap average (-t 0)",
}


@dataclass(frozen=True)
class Interval:
    """A confidence interval with how it was obtained."""

    low: float
    high: float
    level: float
    method: str
    resamples: int
    seed: int | None

    def to_dict(self) -> dict:
        return {
            "low": self.low,
            "high": self.high,
            "level": self.level,
            "method": self.method,
            "resamples": self.resamples,
            "seed": self.seed,
        }


@dataclass(frozen=True)
class ValueScore:
    """A single-valued measure's value for one pair (BLEU, Ngram(i,j), ACCY, ...)."""

    score: float


def _count(x: float, integral: bool):
    return int(x) if integral else float(x)


class _Pairs:
    """A lazy, read-only list of ``{measure name: PairScore | ValueScore}``, one per pair."""

    def __init__(self, result: "RougeResult"):
        self._r = result

    def __len__(self) -> int:
        return self._r.data.shape[0]

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(len(self)))]
        row = self._r.data[i]
        out: dict[str, ValueScore | PairScore] = {}
        for j, m in enumerate(self._r.measures):
            v = row[j]
            if m.single_valued:
                out[m.name] = ValueScore(float(v[F]))
            else:
                whole = m.integral_counts
                out[m.name] = PairScore(
                    _count(v[MODEL], whole),
                    _count(v[HITS], whole),
                    _count(v[PEER], whole),
                    float(v[R]),
                    float(v[P]),
                    float(v[F]),
                )
        return out

    def __iter__(self):
        for i in range(len(self)):
            yield self[i]


@dataclass
class RougeResult:
    """Scores of a corpus: per pair (input order) and aggregated, with the signature."""

    measures: list[Measure]
    data: np.ndarray
    signature: Signature
    average: str = "pairs"
    alpha: float = 0.5
    id_list: list[str] | None = None
    intervals: dict[str, dict[str, Interval]] = field(default_factory=dict)
    rouge155_averages: dict[str, dict[str, float]] = field(default_factory=dict)
    corpus_values: dict[str, float] = field(default_factory=dict)
    totals: np.ndarray | None = None  # aggregate-only results: per measure, the column sums
    total_pairs: int = 0

    @property
    def ids(self) -> list[str]:
        """Pair IDs: as given, or "1", "2", ... in input order."""
        if self.id_list is None:
            return [str(i) for i in range(1, self.data.shape[0] + 1)]
        return self.id_list

    @property
    def pairs(self) -> _Pairs:
        return _Pairs(self)

    def __len__(self) -> int:
        return self.data.shape[0]

    def column(self, name: str) -> np.ndarray:
        """The n x 6 array of one measure."""
        for j, m in enumerate(self.measures):
            if m.name == name:
                return self.data[:, j, :]
        raise KeyError(name)

    def corpus(self, name: str) -> dict[str, float]:
        """Corpus-level R/P/F: mean of the per-pair values, Σhits/Σcounts with average='tokens', or
        the script's bootstrap average with average='rouge155'.

        Single-valued measures give ``{"score"}``: corpus BLEU for BLEU, else the mean per pair.
        """
        if name in self.corpus_values:
            return {"score": self.corpus_values[name]}
        if self.average == "rouge155" and name in self.rouge155_averages:
            return dict(self.rouge155_averages[name])
        if self.totals is not None:
            return self._corpus_from_totals(name, self.totals)
        col = self.column(name)
        n = col.shape[0]
        if n == 0:
            return {"recall": 0.0, "precision": 0.0, "f": 0.0}
        if self.average == "tokens":
            m, pc, h = (float(np.sum(col[:, k])) for k in (MODEL, PEER, HITS))
            rec = h / m if m > 0 else 0.0
            prec = h / pc if pc > 0 else 0.0
            denom = (1 - self.alpha) * prec + self.alpha * rec
            return {"recall": rec, "precision": prec, "f": rec * prec / denom if denom > 0 else 0.0}
        return {k: float(np.mean(col[:, c])) for k, c in zip(KEYS, (R, P, F))}

    def _corpus_from_totals(self, name: str, totals: np.ndarray) -> dict[str, float]:
        j = [m.name for m in self.measures].index(name)
        t, n = totals[j], self.total_pairs
        if n == 0:
            return {"recall": 0.0, "precision": 0.0, "f": 0.0}
        if self.average == "tokens":
            rec = t[HITS] / t[MODEL] if t[MODEL] > 0 else 0.0
            prec = t[HITS] / t[PEER] if t[PEER] > 0 else 0.0
            denom = (1 - self.alpha) * prec + self.alpha * rec
            f = float(rec * prec / denom) if denom > 0 else 0.0
            return {"recall": float(rec), "precision": float(prec), "f": f}
        return {k: float(t[c] / n) for k, c in zip(KEYS, (R, P, F))}

    def to_dict(self) -> dict[str, dict]:
        """``{measure: {"recall", "precision", "f", "interval"?, "rouge155_average"?}}`` or ``{"score"}``."""
        out = {}
        for m in self.measures:
            entry: dict = dict(self.corpus(m.name))
            if m.name in self.intervals:
                entry["interval"] = {k: v.to_dict() for k, v in self.intervals[m.name].items()}
            if m.name in self.rouge155_averages:
                entry["rouge155_average"] = dict(self.rouge155_averages[m.name])
            out[m.name] = entry
        return out

    def per_pair(self) -> list[dict[str, dict[str, float]]]:
        """One ``{measure: {"recall", "precision", "f"}}`` (or ``{"score"}``) per candidate, in input order."""
        out = []
        for row in self.data.tolist():
            entry = {}
            for m, v in zip(self.measures, row):
                entry[m.name] = {"score": v[F]} if m.single_valued else {"recall": v[R], "precision": v[P], "f": v[F]}
            out.append(entry)
        return out

    def counts(self) -> list[dict[str, dict[str, float]]]:
        """Raw sufficient statistics per pair (R/P/F measures): reference count, hits, candidate count."""
        return [
            {
                name: {"reference_count": s.model_count, "hits": s.hits, "candidate_count": s.peer_count}
                for name, s in p.items()
                if isinstance(s, PairScore)
            }
            for p in self.pairs
        ]

    def rows(self) -> list[dict]:
        """Long-format rows (one per pair and measure, keyed by ``instance``), ready for ``pandas.DataFrame``.

        Counts come in one order everywhere: reference count, hits, candidate count."""
        out = []
        for i, p in zip(self.ids, self.pairs):
            for name, s in p.items():
                if isinstance(s, ValueScore):
                    out.append(
                        {
                            "instance": i,
                            "measure": name,
                            "recall": None,
                            "precision": None,
                            "f": None,
                            "score": s.score,
                            "reference_count": None,
                            "hits": None,
                            "candidate_count": None,
                        }
                    )
                else:
                    out.append(
                        {
                            "instance": i,
                            "measure": name,
                            "recall": s.recall,
                            "precision": s.precision,
                            "f": s.f,
                            "score": None,
                            "reference_count": s.model_count,
                            "hits": s.hits,
                            "candidate_count": s.peer_count,
                        }
                    )
        return out

    def __str__(self) -> str:
        lines = [str(self.signature), f"corpus R/P/F: {AVERAGE_NAMES.get(self.average, self.average)}"]
        for name, v in self.to_dict().items():
            if "score" in v:
                lines.append(f"{name:12s} {v['score']:.5f}")
            else:
                lines.append(f"{name:12s} R {v['recall']:.5f}  P {v['precision']:.5f}  F {v['f']:.5f}")
        return "\n".join(lines)
