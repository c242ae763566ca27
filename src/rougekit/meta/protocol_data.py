"""The protocol's datasets (:class:`ProtocolDataset`): SummEval, REALSumm and the generic JSONL
layout; see :mod:`rougekit.meta.protocol` and docs/protocol.md.
"""

from __future__ import annotations

import math
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Sequence

import numpy as np

from rougekit.errors import InputError, OptionError
from rougekit.io import reader


@dataclass
class ProtocolDataset:
    """Candidates, references and human scores on a system x instance grid.

    ``candidates[s][i]`` is a summary (lines = sentences) or None when missing;
    ``references[s][i]`` is the list of its references (first = the single reference);
    ``human[column]`` is a (systems x instances) float array, NaN = missing.
    """

    name: str
    systems: list[str]
    instances: list[str]
    candidates: list[list[str | None]]
    references: list[list[list[str]]]
    human: dict[str, np.ndarray]
    notes: list[str] = field(default_factory=list)

    @property
    def shape(self) -> tuple[int, int]:
        return len(self.systems), len(self.instances)

    def n_references(self) -> tuple[int, int]:
        """(fewest, most) references of a present cell."""
        counts = [
            len(self.references[s][i])
            for s in range(len(self.systems))
            for i in range(len(self.instances))
            if self.candidates[s][i] is not None
        ]
        return (min(counts), max(counts)) if counts else (0, 0)

    def subset(self, instances: int | None = None, systems: Sequence[str] | None = None) -> "ProtocolDataset":
        """The first ``instances`` instances and/or the named systems (in the given order)."""
        rows = list(range(len(self.systems)))
        if systems is not None:
            index = {s: k for k, s in enumerate(self.systems)}
            missing = [s for s in systems if s not in index]
            if missing:
                raise OptionError(f"unknown system(s) {', '.join(missing)} (dataset has {', '.join(self.systems)})")
            rows = [index[s] for s in systems]
        cols = list(range(len(self.instances) if instances is None else min(int(instances), len(self.instances))))
        return ProtocolDataset(
            self.name,
            [self.systems[r] for r in rows],
            [self.instances[c] for c in cols],
            [[self.candidates[r][c] for c in cols] for r in rows],
            [[self.references[r][c] for c in cols] for r in rows],
            {k: v[np.ix_(rows, cols)] for k, v in self.human.items()},
            list(self.notes),
        )


_SENT_END = re.compile(r"(?<=\s[.!?])\s+")


def split_tokenized(text: str) -> str:
    """Tokenised text to one sentence per line; a sentence ends after a ' . ', ' ! ' or ' ? '
    token."""
    text = " " + " ".join(str(text).split())
    return "\n".join(s.strip() for s in _SENT_END.split(text) if s.strip())


def _natural_key(name: str):
    return [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", name)]


def _read_jsonl(path: Path) -> list[reader.Record]:
    """The rows of a JSONL file (or a JSON array of objects, or column-shaped JSON), read by
    :mod:`rougekit.io.reader` (its limits, byte order marks and ``FILE, line N`` errors); each
    record's ``where`` names its row the same way for the loaders' own errors."""
    rows = reader.records(reader.read_text(str(path)), str(path)).rows
    if not rows:
        raise InputError(f"{path}: no rows")
    return rows


def _score_value(v, where: str) -> float:
    if v is None:
        return math.nan
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise InputError(f"{where}: a human score must be a number or null, got {v!r}")
    return float(v)


def load_summeval(path: str | os.PathLike) -> ProtocolDataset:
    """SummEval ``summeval.jsonl`` (or the directory holding it)."""
    path = Path(path)
    if path.is_dir():
        path = path / "summeval.jsonl"
    records = _read_jsonl(path)
    rows = [record.row for record in records]
    systems = sorted({s for r in rows for s in r.get("sys_summs", {})}, key=_natural_key)
    columns: list[str] = []
    for r in rows:
        for v in r.get("sys_summs", {}).values():
            for c in v.get("scores", {}):
                if c not in columns:
                    columns.append(c)
    columns.sort()
    sys_index = {s: k for k, s in enumerate(systems)}
    n_sys, n_inst = len(systems), len(rows)
    cands: list[list[str | None]] = [[None] * n_inst for _ in systems]
    refs: list[list[list[str]]] = [[[] for _ in range(n_inst)] for _ in systems]
    human = {c: np.full((n_sys, n_inst), np.nan) for c in columns}
    instances = []
    for i, (r, where) in enumerate((record.row, record.where) for record in records):
        if "sys_summs" not in r or not ("ref_summs" in r or "ref_summ" in r):
            raise InputError(f"{where}: expected SummEval fields doc_id, ref_summs, sys_summs")
        instances.append(str(r.get("doc_id", i + 1)))
        ref_list = r.get("ref_summs") or [r["ref_summ"]]
        ref_texts = [split_tokenized(t) for t in ref_list]
        for s, v in r["sys_summs"].items():
            k = sys_index[s]
            cands[k][i] = split_tokenized(v["sys_summ"])
            refs[k][i] = ref_texts
            for c, x in v.get("scores", {}).items():
                human[c][k, i] = _score_value(x, where)
    return ProtocolDataset("summeval", systems, instances, cands, refs, human)


_REALSUMM_FIELDS = ("subset", "system", "doc_id", "peer_sentences", "model_sentences")


def load_realsumm(path: str | os.PathLike) -> ProtocolDataset:
    """REALSumm: the data directory (or its ``parity/realsumm_rouge155_parity.jsonl``)."""
    path = Path(path)
    if path.is_dir():
        root = path
        parity = path / "parity" / "realsumm_rouge155_parity.jsonl"
    else:
        parity = path
        root = path.parent.parent
    scores_path = root / "scores" / "realsumm_summaries.jsonl"
    parity_records = _read_jsonl(parity)
    for record in parity_records:
        for key in _REALSUMM_FIELDS:
            if key not in record.row:
                raise InputError(f"{record.where}: missing field {key!r}")
    prow = [record.row for record in parity_records]
    human_of: dict[tuple, float] = {}
    if scores_path.exists():
        for record in _read_jsonl(scores_path):
            r = record.row
            key = (r.get("subset"), r.get("system"), str(r.get("doc_id")))
            human_of[key] = _score_value(r.get("scores", {}).get("litepyramid_recall"), record.where)
    else:
        raise InputError(f"{scores_path}: not found (REALSumm human scores)")
    systems = sorted({f"{r['subset']}/{r['system']}" for r in prow})
    instances = sorted({str(r["doc_id"]) for r in prow}, key=_natural_key)
    si = {s: k for k, s in enumerate(systems)}
    ii = {d: k for k, d in enumerate(instances)}
    cands: list[list[str | None]] = [[None] * len(instances) for _ in systems]
    refs: list[list[list[str]]] = [[[] for _ in instances] for _ in systems]
    human = np.full((len(systems), len(instances)), np.nan)
    for r in prow:
        s, i = si[f"{r['subset']}/{r['system']}"], ii[str(r["doc_id"])]
        cands[s][i] = "\n".join(r["peer_sentences"])
        refs[s][i] = ["\n".join(r["model_sentences"])]
        human[s, i] = human_of.get((r["subset"], r["system"], str(r["doc_id"])), math.nan)
    return ProtocolDataset(
        "realsumm",
        systems,
        instances,
        cands,
        refs,
        {"litepyramid_recall": human},
        [
            "each REALSumm system is scored against its own tokenisation of the "
            "single reference, so refs=one and refs=all coincide"
        ],
    )


_RESERVED = {"system", "instance", "candidate", "references", "human", "scores"}


def _as_text(x, where: str) -> str:
    if isinstance(x, str):
        return x
    if isinstance(x, list) and all(isinstance(t, str) for t in x):
        return "\n".join(x)
    raise InputError(f"{where}: a summary must be a string or a list of sentence strings")


def load_jsonl(path: str | os.PathLike) -> ProtocolDataset:
    """The generic layout (see the module docstring)."""
    path = Path(path)
    records = _read_jsonl(path)
    systems: list[str] = []
    instances: list[str] = []
    seen_s: dict[str, int] = {}
    seen_i: dict[str, int] = {}
    cells: dict[tuple[int, int], tuple[str, list[str], dict[str, float]]] = {}
    columns: list[str] = []
    for record in records:
        r, where = record.row, record.where
        for key in ("system", "instance", "candidate", "references"):
            if key not in r:
                raise InputError(f"{where}: missing field {key!r}")
        s, i = str(r["system"]), str(r["instance"])
        if s not in seen_s:
            seen_s[s] = len(systems)
            systems.append(s)
        if i not in seen_i:
            seen_i[i] = len(instances)
            instances.append(i)
        key = (seen_s[s], seen_i[i])
        if key in cells:
            raise InputError(f"{where}: a second row for system {s!r}, instance {i!r}")
        cand = _as_text(r["candidate"], where)
        ref_field = r["references"]
        ref_items = [ref_field] if isinstance(ref_field, str) else ref_field
        if not isinstance(ref_items, list) or not ref_items:
            raise InputError(f"{where}: references must be a string or a non-empty list")
        ref_texts = [_as_text(x, where) for x in ref_items]
        obj = r.get("human", r.get("scores"))
        if obj is not None:
            if not isinstance(obj, dict):
                raise InputError(f"{where}: 'human' must be an object of scores")
            scores = {str(k): _score_value(v, where) for k, v in obj.items()}
        else:
            scores = {
                k: _score_value(v, where)
                for k, v in r.items()
                if k not in _RESERVED and (v is None or (isinstance(v, (int, float)) and not isinstance(v, bool)))
            }
        for c in scores:
            if c not in columns:
                columns.append(c)
        cells[key] = (cand, ref_texts, scores)
    if not columns:
        raise InputError(f"{path}: no human score fields")
    cands: list[list[str | None]] = [[None] * len(instances) for _ in systems]
    refs: list[list[list[str]]] = [[[] for _ in instances] for _ in systems]
    human = {c: np.full((len(systems), len(instances)), np.nan) for c in columns}
    for (s, i), (cand, ref_texts, scores) in cells.items():
        cands[s][i] = cand
        refs[s][i] = ref_texts
        for c, v in scores.items():
            human[c][s, i] = v
    return ProtocolDataset(path.stem, systems, instances, cands, refs, human)


LOADERS = {"summeval": load_summeval, "realsumm": load_realsumm, "jsonl": load_jsonl}


def load_dataset(kind: str, path: str | os.PathLike) -> ProtocolDataset:
    """``kind`` is summeval, realsumm or jsonl."""
    key = str(kind).strip().lower()
    if key not in LOADERS:
        raise OptionError(f"unknown dataset kind {kind!r} (choose from {', '.join(LOADERS)})")
    if not Path(path).exists():
        raise InputError(f"{path}: no such file or directory")
    return LOADERS[key](path)
