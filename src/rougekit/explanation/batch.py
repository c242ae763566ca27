"""Matched positions of many pairs at once: what a page needs to highlight every example.

:func:`matched_positions` processes each distinct text once (the compiled engine's tokenizer when
the scores come from it, else the scorer's preprocessor), then runs, per measure, the registry's
highlights kernel (on :meth:`rougekit.measures.base.Family.kernel_spec`: the batch engine's
``batch_marks``, marks.pxi, or its pure twin in ``_core._explain``) over every (candidate, reference) entry. Per pair it
keeps the references the multi-reference rule uses (the engine's own choice: the plan's
``chosen``), so the marked positions are those of ``explain``'s matches and the hits are the engine's.

Positions are token indices: of the joined tokens for ROUGE-N/S/SU (``space == "joined"``), of
the flattened sentence units for ROUGE-L/W (``"units"``). :attr:`BatchMarks.slots` maps them to
the tokenizer's runs of the text (:mod:`rougekit.explanation.surface`), whose character spans
are :attr:`BatchMarks.runs`.
"""

from __future__ import annotations

from array import array
from dataclasses import dataclass
from typing import Sequence

import numpy as np

from rougekit.api import Scorer
from rougekit.engine.door import check_trace_size, plan
from rougekit.errors import InputError
from rougekit.explanation.build import DEFAULT_MEASURES
from rougekit.explanation.surface import ascii_run_count, run_spans, slots_of


@dataclass(frozen=True)
class MeasureMarks:
    """One measure over all pairs. ``hits[p]``: summed over the used references (the engine's
    count). ``candidate[cand_at[p]:cand_at[p + 1]]``: 0/1 per position of pair ``p``'s candidate;
    ``reference[ref_at[e]:ref_at[e + 1]]``: the same for entry ``e`` (all zero for a reference
    the rule does not use). ``used[e]``: the entry's reference counts."""

    name: str
    space: str
    hits: np.ndarray
    cand_at: np.ndarray
    candidate: np.ndarray
    ref_at: np.ndarray
    reference: np.ndarray
    used: np.ndarray

    def candidate_positions(self, p: int) -> list[int]:
        return np.flatnonzero(self.candidate[self.cand_at[p] : self.cand_at[p + 1]]).tolist()

    def reference_positions(self, e: int) -> list[int]:
        return np.flatnonzero(self.reference[self.ref_at[e] : self.ref_at[e + 1]]).tolist()


@dataclass
class BatchMarks:
    """The texts (distinct, as given: sentences on lines), which pair uses which (``candidate[p]``,
    and ``reference[ref_off[p]:ref_off[p + 1]]`` for its entries), and per measure its marks.

    ``slots[space][token_at[space][t]:token_at[space][t + 1]]``: the run of each token of text
    ``t`` in that space (int32; -1 when ``aligned[space][t]`` is False: its tokens could not be
    aligned with the text); :meth:`runs` gives the character spans of a text's runs."""

    texts: list[str]
    candidate: np.ndarray
    ref_off: np.ndarray
    reference: np.ndarray
    measures: dict[str, MeasureMarks]
    token_at: dict[str, np.ndarray]
    slots: dict[str, np.ndarray]
    aligned: dict[str, np.ndarray]
    tokenizer: object = None

    def runs(self, t: int) -> list[list[int]] | None:
        """``[start, end]`` of each run of text ``t`` (None for a tokenizer whose runs are unknown)."""
        return run_spans(self.texts[t], self.tokenizer)

    def spans(self, t: int, space: str) -> list[list[int]] | None:
        """``[start, end]`` of each token of text ``t`` in ``space``, or None."""
        if not self.aligned[space][t]:
            return None
        runs = self.runs(t)
        at = self.token_at[space]
        return [runs[k] for k in self.slots[space][at[t] : at[t + 1]].tolist()]


class _Texts:
    """The distinct texts, processed, in CSR arrays (the kernel's input)."""

    def __init__(self, scorer):
        self.scorer = scorer
        self.index: dict[str, int] = {}
        self.texts: list[str] = []
        self.joined: list[list[int]] = []
        self.units: list[list[list[int]]] = []
        self.toks, self.utoks = array("i"), array("i")
        self.tok_len, self.sent_len, self.text_sents = array("q"), array("q"), array("q")
        plan = scorer._plan
        self.engine = plan.batch if plan.batch is not None and plan.feed == "text" else None

    def add(self, summary) -> int:
        text = summary if isinstance(summary, str) else "\n".join(summary)
        k = self.index.get(text)
        if k is None:
            k = self.index[text] = len(self.texts)
            self.texts.append(text)
            if self.engine is not None:
                joined, units = self.engine.process(text)
            else:
                d = self.scorer.doc(text)
                joined, units = d.tokens, d.sentences
            self.joined.append(joined)
            self.units.append(units)
            self.toks.extend(joined)
            self.tok_len.append(len(joined))
            for u in units:
                self.utoks.extend(u)
                self.sent_len.append(len(u))
            self.text_sents.append(len(units))
        return k

    def arrays(self):
        def offsets(lengths):
            out = np.zeros(len(lengths) + 1, dtype=np.int64)
            np.cumsum(np.frombuffer(lengths, dtype=np.int64), out=out[1:])
            return out

        toks = np.frombuffer(self.toks, dtype=np.int32) if self.toks else np.zeros(0, dtype=np.int32)
        utoks = np.frombuffer(self.utoks, dtype=np.int32) if self.utoks else np.zeros(0, dtype=np.int32)
        return toks, offsets(self.tok_len), utoks, offsets(self.sent_len), offsets(self.text_sents)


def matched_positions(candidates: Sequence, references: Sequence, measures=DEFAULT_MEASURES, **options) -> BatchMarks:
    """The matched positions of every (candidate, references) pair for each measure, as
    :func:`rougekit.explain` would mark them, computed for all pairs at once.

    ``candidates``: one summary per pair; ``references``: per pair one reference or a list of
    them; ``options``: those of :func:`rougekit.explain` / :func:`rougekit.score`."""
    options.setdefault("bootstrap", None)
    scorer = Scorer(measures, **options)
    if len(candidates) != len(references):
        raise InputError(f"{len(candidates)} candidates for {len(references)} reference entries")
    texts = _Texts(scorer)
    cand = np.array([texts.add(c) for c in candidates], dtype=np.int32)
    counts, refs = [], []
    for entry in references:
        entry = [entry] if isinstance(entry, str) else list(entry)
        counts.append(len(entry))
        refs += [texts.add(r) for r in entry]
    ref_off = np.zeros(len(counts) + 1, dtype=np.int64)
    np.cumsum(counts, out=ref_off[1:])
    ref = np.array(refs, dtype=np.int32)
    peer = np.repeat(cand, counts).astype(np.int32)
    arrays = texts.arrays()
    _, tok_off, _, sent_off, text_sents = arrays
    lengths = {"joined": np.diff(tok_off), "units": sent_off[text_sents[1:]] - sent_off[text_sents[:-1]]}

    engine = plan()
    out: dict[str, MeasureMarks] = {}
    for m in scorer.measures:
        spec = None if m.single_valued else m.family.kernel_spec(m, scorer.options)
        if spec is None:
            continue
        space = spec.space
        if space == "units":
            _check_trace(m, texts, cand, ref)
        size = lengths[space]
        peer_at = np.zeros(len(peer) + 1, dtype=np.int64)
        np.cumsum(size[peer], out=peer_at[1:])
        model_at = np.zeros(len(ref) + 1, dtype=np.int64)
        np.cumsum(size[ref], out=model_at[1:])
        hits = np.zeros(len(ref), dtype=np.float64)
        peer_marks = np.zeros(int(peer_at[-1]), dtype=np.uint8)
        model_marks = np.zeros(int(model_at[-1]), dtype=np.uint8)
        engine.marks(
            spec.kind,
            spec.n,
            spec.flags,
            spec.weight,
            *arrays,
            peer,
            ref,
            peer_at,
            model_at,
            hits,
            peer_marks,
            model_marks,
        )
        used = _used_entries(engine, spec, scorer.options, arrays, cand, ref_off, ref)
        out[m.name] = _gather(
            m.name, space, hits, used, cand, ref_off, size, peer_at, peer_marks, model_at, model_marks
        )
    at = {"joined": tok_off, "units": sent_off[text_sents]}
    slots, aligned = _surface(scorer.pre, texts, at, {mm.space for mm in out.values()})
    return BatchMarks(
        texts.texts,
        cand.astype(np.int64),
        ref_off,
        ref.astype(np.int64),
        out,
        {space: at[space] for space in slots},
        slots,
        aligned,
        getattr(scorer.pre, "tokenizer", None),
    )


def _check_trace(m, texts: _Texts, cand, ref) -> None:
    longest = [max((len(s) for s in u), default=0) for u in texts.units]
    worst_peer = max((longest[c] for c in cand.tolist()), default=0)
    worst_model = max((longest[r] for r in ref.tolist()), default=0)
    check_trace_size([[0] * worst_peer], [[0] * worst_model])


def _used_entries(engine, spec, options, arrays, cand, ref_off, ref) -> np.ndarray:
    """Which entries the multi-reference rule keeps: all of them with ``sum``; with ``best``/``max``
    the one of each pair with several references that the engine chooses (``engine.chosen``, the
    plan's: the counts and the rule of the scores themselves)."""
    used = np.ones(len(ref), dtype=bool)
    if options.mode not in ("B", "M"):
        return used
    counts = np.diff(ref_off)
    many = np.flatnonzero(counts > 1)
    if not len(many):
        return used
    sizes = counts[many]
    sub_off = np.zeros(len(many) + 1, dtype=np.int64)
    np.cumsum(sizes, out=sub_off[1:])
    entries = np.repeat(ref_off[:-1][many], sizes) + np.arange(int(sub_off[-1])) - np.repeat(sub_off[:-1], sizes)
    chosen = np.full(len(many), -1, dtype=np.int32)
    mode_b, mode_max = options.mode == "B", options.mode == "M"
    engine.chosen(
        spec.kind,
        spec.n,
        spec.flags,
        spec.weight,
        *arrays,
        cand[many],
        sub_off,
        ref[entries],
        mode_b,
        mode_max,
        options.alpha,
        chosen,
    )
    used[entries] = False
    used[ref_off[:-1][many] + chosen] = True
    return used


def _gather(name, space, hits, used, cand, ref_off, size, peer_at, peer_marks, model_at, model_marks) -> MeasureMarks:
    """Per pair: the hits and the candidate marks of the used entries (OR-ed); unused entries cleared."""
    n = len(cand)
    counts = np.diff(ref_off)
    kept = np.where(used, hits, 0.0)
    pair_hits = np.zeros(n, dtype=np.float64)
    for k in range(int(counts.max(initial=0))):  # sequential sums in reference order (scoring.combine)
        has = counts > k
        pair_hits[has] += kept[ref_off[:-1][has] + k]
    cand_at = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(size[cand], out=cand_at[1:])
    first = ref_off[:-1]
    if bool(used.all()) and bool((counts == 1).all()):
        candidate = peer_marks  # one used reference per pair: its marks are the pair's
    else:
        candidate = np.zeros(int(cand_at[-1]), dtype=np.uint8)
        for e in np.flatnonzero(used).tolist():
            p = int(np.searchsorted(first, e, side="right")) - 1
            while counts[p] == 0:  # pairs without references own no entry
                p -= 1
            candidate[cand_at[p] : cand_at[p + 1]] |= peer_marks[peer_at[e] : peer_at[e + 1]]
        for e in np.flatnonzero(~used).tolist():
            model_marks[model_at[e] : model_at[e + 1]] = 0
    return MeasureMarks(name, space, pair_hits, cand_at, candidate, model_at, model_marks, used)


def _surface(pre, texts: _Texts, at: dict, needed: set) -> tuple[dict, dict]:
    """Per space: the run of every token (flat, as the space's positions; -1 where its text is
    not aligned) and which texts are aligned."""
    slots: dict[str, np.ndarray] = {}
    aligned: dict[str, np.ndarray] = {}
    tokenizer = getattr(pre, "tokenizer", None)
    if tokenizer == "rouge155" and not pre.stopwords:  # the tokens are the first runs (slots_of)
        count = np.fromiter((ascii_run_count(t) for t in texts.texts), dtype=np.int64, count=len(texts.texts))
        for space in sorted(needed):
            lengths = np.diff(at[space])
            ok = lengths <= count
            flat = np.arange(at[space][-1], dtype=np.int64) - np.repeat(at[space][:-1], lengths)
            flat[~np.repeat(ok, lengths)] = -1
            slots[space], aligned[space] = flat.astype(np.int32), ok
        return slots, aligned
    for space in sorted(needed):
        flat = np.full(int(at[space][-1]), -1, dtype=np.int32)
        ok = np.zeros(len(texts.texts), dtype=bool)
        for t, text in enumerate(texts.texts):
            a, b = int(at[space][t]), int(at[space][t + 1])
            found = slots_of(pre, text, b - a, space)
            if found is not None:
                flat[a:b] = found
                ok[t] = True
        slots[space], aligned[space] = flat, ok
    return slots, aligned
