"""The protocol's result: one :class:`ProtocolCell` per correlation, gathered in :class:`ProtocolResult`."""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field

from rougekit.measures import Measure
from rougekit.stats.correlation import canonical_coefficient


@dataclass
class ProtocolCell:
    """One correlation of the table."""

    measure: str
    variant: str
    refs: str
    human: str
    coefficient: str
    value: float
    low: float
    high: float
    best: bool = False
    not_worse: bool = False
    p_value: float | None = None  # paired / williams rules: the test against the column's best

    @property
    def column(self) -> tuple[str, str, str, str]:
        return (self.human, self.variant, self.refs, self.coefficient)


@dataclass
class ProtocolResult:
    """All cells, with what produced them."""

    dataset: str
    systems: list[str]
    n_instances: int
    level: str
    score: str
    multi_ref: str
    measures: list[str]
    variants: list[str]
    refs: list[str]
    humans: list[str]
    coefficients: list[str]
    n_references: dict[str, int]
    confidence: float
    samples: int
    seed: int | None
    resample: str
    rule: str
    cells: list[ProtocolCell]
    timings: dict[str, float] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)

    def cell(self, measure: str, variant: str, refs: str, human: str, coefficient: str) -> ProtocolCell:
        coefficient = canonical_coefficient(coefficient)
        measure = Measure.parse(measure).name
        for c in self.cells:
            if (c.measure, c.variant, c.refs, c.human, c.coefficient) == (measure, variant, refs, human, coefficient):
                return c
        raise KeyError((measure, variant, refs, human, coefficient))

    def to_dict(self) -> dict:
        d = {k: v for k, v in asdict(self).items() if k != "cells"}
        d["n_systems"] = len(self.systems)
        d["cells"] = [{k: _json_num(v) for k, v in asdict(c).items()} for c in self.cells]
        return d


def _json_num(v):
    if isinstance(v, float) and math.isnan(v):
        return None
    return v
