"""The ROUGE-1.5.5 evaluation run: configuration in, per-evaluation scores and bootstrap out.

This is the engine behind ``rougekit rouge155``. It walks peers, measures and evaluations in
the script's order (that order matters only for the script's ``-M`` flag handling) and keeps
every processed summary in a cache, so each file is read and tokenized once per setting.
``-M``: docs/rouge155/stemming-stopwords.md; ``-f``/``-t``: docs/rouge155/multiple-references.md.
"""

from __future__ import annotations

import copy
import math
import os
import sys
from dataclasses import dataclass, field
from typing import Callable

from rougekit.engine.door import Doc, PairScore, available_cores, plan, run_tasks, score_pair
from rougekit.errors import InputError
from rougekit.io.reader import read_bytes
from rougekit.io.rouge155_config import Config, Evaluation
from rougekit.measures import Measure
from rougekit.stats.perl_bootstrap import BootstrapResult, perl_bootstrap
from rougekit.text import rouge155 as text
from rougekit.text import stemming
from rougekit.text.basic_elements import be_keys
from rougekit.text.intern import Vocabulary
from rougekit.text.rouge155 import limit_joined
from rougekit.text.stopwords import load_smart_stopwords

_SENTENCE_FORMATS = text.SENTENCE_FORMATS  # the formats the batch path reads too

# -- Perl's numbers, for the ROUGE-W counts that -t 1 / -t 2 print ------------------------------------
# Perl holds a number as an integer (IV, "IOK"), a double (NV, "NOK") or a double also cached as an
# exact integer (both), and prints it in full when IOK, else with %.15g. ROUGE-W's counts are sums of
# powers (wlcsWeight: $r**$w), so which kind the script holds decides "10000000000000000" or "1e+16".
# The values are rougekit's own; _PerlNumber only follows the kind, through Perl 5's ``**`` and ``+``.
_NV_EXACT = 2.0**53  # a whole double below this is cached as an integer when Perl's + needs one
_IV_MIN, _IV_MAX, _UV_MAX = -(2**63), 2**63 - 1, 2**64 - 1
_DRAND_SCALE = 2.0**-48  # drand48's state to [0, 1)


@dataclass
class _PerlNumber:
    iv: int | None = None  # the integer (IOK)
    nv: float | None = None  # the double (NOK)
    tried: bool = False  # IOKp: a double already found not to be an exact integer
    unsigned: bool = False  # IsUV: that double was 2**63 or more

    def __float__(self) -> float:
        return self.nv if self.nv is not None else float(self.iv)

    def please(self) -> bool:
        """SvIV_please: a whole double below 2**53 is also cached as an integer (in place)."""
        if self.iv is None and self.nv is not None and not self.tried:
            if self.nv.is_integer() and abs(self.nv) < _NV_EXACT:
                self.iv = int(self.nv)
            else:
                self.tried, self.unsigned = True, self.nv >= 2.0**63
        return self.iv is not None

    def is_uv(self) -> bool:
        return self.unsigned or (self.iv is not None and self.iv > _IV_MAX)

    def plain(self) -> int | float:
        """As printed: an int when Perl holds an integer, else the double."""
        return self.iv if self.iv is not None else self.nv


def _perl_add(a: _PerlNumber, b: _PerlNumber) -> _PerlNumber:
    """Perl 5's ``a + b`` (pp_add): integers when both are (or are whole doubles that fit an IV, added
    without caching), else doubles; a double meeting an integer is cached as one first (in place)."""
    if not a.is_uv() and not b.is_uv():
        if a.iv is not None and b.iv is not None and _IV_MIN <= a.iv + b.iv <= _IV_MAX:
            return _PerlNumber(iv=a.iv + b.iv)
        if a.nv is not None and b.nv is not None and (a.iv is None or b.iv is None):
            if all(x.is_integer() and -(2.0**63) <= x < 2.0**63 for x in (a.nv, b.nv)):
                if all(-(2**62) <= int(x) < 2**62 for x in (a.nv, b.nv)):  # else Perl takes the long way
                    return _PerlNumber(iv=int(a.nv) + int(b.nv))
            else:
                return _PerlNumber(nv=a.nv + b.nv)
    if b.please() and a.please() and _IV_MIN <= a.iv + b.iv <= _UV_MAX:
        return _PerlNumber(iv=a.iv + b.iv)
    return _PerlNumber(nv=float(a) + float(b))


def _perl_pow(base: _PerlNumber, weight: float, whole: bool) -> _PerlNumber:
    """Perl 5's ``base ** weight``: for an integer weight and base, an exact integer when the base is
    not a power of two (those are squared as doubles) and its bits times the power fit 64; else C's pow."""
    if whole and base.please() and base.iv >= 0:
        b, power = base.iv, int(weight)
        if b & (b - 1) == 0:  # 0, 1, 2, 4, ...
            return _PerlNumber(nv=float(b) ** power)
        if b.bit_length() * power <= 64:
            return _PerlNumber(iv=b**power)
    return _PerlNumber(nv=pow(float(base), float(weight)))


def _whole_weight(label: str | None, weight: float) -> bool:
    """Whether Perl holds the typed -w as an integer: digits ("4", "+4"), or an exponent form of an
    integer ("4e0", "0.4e1"); "4.0" (a decimal point without exponent) is a double."""
    typed = (label or "").rpartition("ROUGE-W-")[2].strip()
    if not float(weight).is_integer():
        return False
    return typed.lstrip("+").isdigit() or "e" in typed.lower()


@dataclass(frozen=True)
class Settings:
    """Options of a run, each named after what it does; the comment gives the script's flag."""

    measures: tuple[Measure, ...]
    mode: str = "A"  # -f: 'B' = best reference, anything else = sum over references
    alpha: float = 0.5  # -p
    stem: bool = False  # -m
    stem_models_only: bool = False  # -M
    stopwords: bool = False  # -s
    word_limit: int = 0  # -l
    byte_limit: int = 0  # -b
    average: int = 0  # -t
    resamples: int = 1000  # -r
    confidence: float = 95.0  # -c
    stem_exceptions: bool = True  # -m looks up WordNet exceptions (False: an empty DB, as files2rouge's)


@dataclass
class MeasureResult:
    """One measure for one peer: per-evaluation triples and the aggregate."""

    measure: Measure
    instances: dict[str, tuple]  # "<evalID>.<peerID>" -> (R, P, F) or (model, peer, hits)
    bootstrap: BootstrapResult | None = None
    totals: tuple[float, float, float] | None = None  # -t 2: summed counts


@dataclass
class PeerResult:
    peer_id: str
    measures: list[MeasureResult] = field(default_factory=list)


class _Summaries:
    """Reads and processes summary files once per (path, format, stemming) and caches them."""

    def __init__(self, settings: Settings, warn: Callable[[str], None], read_sentences: Callable | None = None):
        self.settings = settings
        self.warn = warn
        self.read_sentences = read_sentences
        self.vocab = Vocabulary()
        self.stopwords = load_smart_stopwords() if settings.stopwords else None
        self.stem_name = "morph_stem" if settings.stem_exceptions else "porter_stem155"
        self._raw: dict[tuple[str, str], list[bytes]] = {}
        self._spl: dict[str, str] = {}
        self._docs: dict[tuple[str, str, bool], Doc] = {}
        self._be: dict[tuple[str, str, bool, str], Doc] = {}

    def sentences(self, path: str, fmt: str) -> list[bytes]:
        """The raw lowercased sentences of a file, read once."""
        key = (path, fmt.upper())
        if key not in self._raw:
            self._raw[key] = (self.read_sentences or text.read_sentences)(path, fmt)
        return self._raw[key]

    def spl_text(self, path: str) -> str:
        """An SPL file as the batch path reads it: the file itself, read once.

        The batch tokenizer lowercases and takes the non-empty lines as the sentences, which is
        exactly what :func:`rougekit.text.rouge155.sentences_from_lines` does for SPL.
        """
        cached = self._spl.get(path)
        if cached is None:
            if self.read_sentences is not None:  # the sentences it gives, one per line
                cached = self._spl[path] = b"\n".join(self.sentences(path, "SPL")).decode("utf-8", "surrogateescape")
            else:
                cached = self._spl[path] = read_bytes(path).decode("utf-8", "surrogateescape")
        return cached

    def doc(self, path: str, fmt: str | None, stem: bool) -> Doc:
        key = (path, (fmt or "").upper(), stem)
        cached = self._docs.get(key)
        if cached is not None:
            return cached

        if fmt is None or fmt.upper() not in text.SENTENCE_FORMATS:
            raise InputError(f"{path}: unknown input format {fmt!r} for this measure (use SEE, SPL or ISI)")
        s = self.settings
        sentences = self.sentences(path, fmt)
        tokens, units = text.summary_tokens(
            sentences, s.word_limit, s.byte_limit, self.stopwords, getattr(stemming, self.stem_name) if stem else None
        )
        if tokens is None:
            self.warn(f"readText: {path} -> empty text")
            tokens = []
        ids = self.vocab.ids
        doc = Doc(ids(tokens), [ids(u) for u in units])
        self._docs[key] = doc
        return doc

    def be_doc(self, path: str, fmt: str | None, stem: bool, mode: str) -> Doc:
        key = (path, (fmt or "").upper(), stem, mode)
        if key not in self._be:
            lines = text.read_be_lines(path, fmt or "")
            if not lines:
                self.warn(f"readBE: {path} -> empty text")
            self._be[key] = Doc([], [], be_keys(lines, mode, getattr(stemming, self.stem_name) if stem else None, path))
        return self._be[key]


class Rouge155Run:
    """Score every peer of a configuration as ROUGE-1.5.5.pl does."""

    def __init__(
        self,
        config: Config,
        settings: Settings,
        warn: Callable[[str], None] | None = None,
        read_sentences: Callable[[str, str], list[bytes]] | None = None,
    ):
        """``read_sentences(path, fmt)`` replaces reading a SEE/SPL/ISI summary file (default:
        :func:`rougekit.text.rouge155.read_sentences`), e.g. to score texts converted in memory."""
        self.config = config
        self.settings = settings
        self.warn = warn or (lambda msg: print(msg, file=sys.stderr))
        self.summaries = _Summaries(settings, self.warn, read_sentences)
        self._stem_on = settings.stem  # the script's global stemming switch, which -M flips
        self._known_missing: set[tuple[str, str]] = set()
        # (peer ID, measure name) -> {eval ID: instance}, from the batch path
        self._precomputed: dict[tuple[str, str], dict[str, tuple]] = {}
        self._lengths: dict[tuple[str, str], tuple[int, list[int]]] = {}  # ROUGE-W's -t 1/2 counts
        self._batch_scorer = None

    # -- the compiled batch path: all evaluations of a peer at once -------------------------
    def _batch(self):
        """A BatchScorer for the word-based measures when the options allow it exactly, else None."""
        s = self.settings
        if self._batch_scorer is not None:
            return self._batch_scorer or None
        self._batch_scorer = False
        measures = [m for m in s.measures if m.kernel_spec is not None and m.kernel_spec.batch is not None]
        if s.stem_models_only:  # -M stems the models only: the batch engine treats both sides alike
            return None
        if any((ev.input_format or "").upper() not in _SENTENCE_FORMATS for ev in self.config.evaluations):
            return None
        self._batch_scorer = (
            plan(
                measures,
                stem=s.stem,
                stopwords=s.stopwords,
                word_limit=s.word_limit,
                byte_limit=s.byte_limit,
                multi_ref="best" if s.mode == "B" else "sum",
                alpha=s.alpha,
                stemmer="rouge155" if s.stem_exceptions else "rouge155-porter",
            ).batch
            or False
        )
        return self._batch_scorer or None

    def _summary_text(self, path: str, fmt: str) -> str | None:
        """A summary as the batch path reads it (lines = sentences), or None if that would not be exact."""
        s = self.settings
        if not (s.word_limit or s.byte_limit) and fmt.upper() == "SPL":
            return self.summaries.spl_text(path)
        sentences = self.summaries.sentences(path, fmt)
        if s.word_limit or s.byte_limit:
            if any(b"\n" in x for x in sentences):
                return None  # a SEE sentence keeping its newline: -b counts that byte

            if limit_joined(sentences, s.word_limit, s.byte_limit) is None:
                self.warn(f"readText: {path} -> empty text")
        return b"\n".join(sentences).decode("utf-8", "surrogateescape")

    def _check_models(self, ev: Evaluation, model_paths: list[str]) -> None:
        """The script's check that every model file exists (before it reads any summary)."""
        if self.summaries.read_sentences is not None:  # summaries given in memory: no files to look for
            return
        for path in model_paths:
            if not os.path.exists(path):
                raise InputError(f"cannot find model summary {path} (evaluation {ev.eval_id})")

    def _precompute(self, peer_id: str) -> None:
        """Score every evaluation of ``peer_id`` for the word-based measures in one batch call."""
        batch = self._batch()
        if batch is None:
            return
        s = self.settings
        limits = bool(s.word_limit or s.byte_limit)
        summary_text, spl_text = self._summary_text, self.summaries.spl_text
        evals, cands, refs = [], [], []
        for ev in self.config.evaluations:
            if peer_id not in ev.peers:
                continue
            model_paths = ev.model_paths()
            if limits:  # reading may warn: the script looks for the models first
                self._check_models(ev, model_paths)
            fmt = ev.input_format
            try:
                if not limits and fmt.upper() == "SPL":  # the common case, read directly
                    cand = spl_text(ev.peer_path(peer_id))
                    models = [spl_text(path) for path in model_paths]
                else:
                    cand = summary_text(ev.peer_path(peer_id), fmt)
                    models = [summary_text(path, fmt) for path in model_paths]
            except InputError:  # a missing model is reported first, as the script looks for them first
                self._check_models(ev, model_paths)
                raise
            if cand is None or None in models:
                return  # fall back to the readable path for this peer
            evals.append(ev)
            cands.append(cand)
            refs.append(models)
        if not evals:
            return
        # per pair and measure: (model count, hits, peer count, R, P, F)
        data = batch.score_rows(cands, refs, jobs=available_cores()).tolist()
        eval_ids = [ev.eval_id for ev in evals]
        for j, m in enumerate(batch.measures):
            if s.average in (1, 2):  # (model count, peer count, hits): whole numbers but for ROUGE-W
                whole = int if m.integral_counts else float
                rows = [(whole(pair[j][0]), whole(pair[j][2]), whole(pair[j][1])) for pair in data]
            else:
                rows = [tuple(pair[j][3:6]) for pair in data]
            self._precomputed[(peer_id, m.name)] = dict(zip(eval_ids, rows))

    # -- one evaluation ------------------------------------------------------------------
    def _score_eval(self, measure: Measure, ev: Evaluation, peer_id: str) -> PairScore | None:
        if peer_id not in ev.peers:
            if (ev.eval_id, peer_id) not in self._known_missing:
                self._known_missing.add((ev.eval_id, peer_id))
                self.warn(
                    f"*ROUGE Warning: test instance for peer {peer_id} does not exist for evaluation {ev.eval_id}"
                )
            return None
        peer_path = ev.peer_path(peer_id)
        model_paths = ev.model_paths()
        self._check_models(ev, model_paths)
        s, fmt = self.settings, ev.input_format
        only_models = s.stem_models_only
        if measure.kind == "BE":
            peer = self.summaries.be_doc(peer_path, fmt, self._stem_on, measure.be_mode)
            models = []
            for path in model_paths:
                models.append(self.summaries.be_doc(path, fmt, True if only_models else self._stem_on, measure.be_mode))
                if only_models:  # -M only: plain -m keeps stemming on for the run's later models
                    self._flip_after_models_only()
            return score_pair(measure, peer, models, mode=s.mode, alpha=s.alpha)
        peer = self.summaries.doc(peer_path, fmt, self._stem_on)
        models, units = [], []
        for path in model_paths:
            if measure.kind == "N" or not only_models:
                models.append(self.summaries.doc(path, fmt, self._stem_on))
                units.append(None)
            elif measure.kind == "W":
                units.append(self.summaries.doc(path, fmt, self._stem_on))  # sentences: not stemmed by -M
                models.append(self.summaries.doc(path, fmt, True))  # unigram table: stemmed
                self._flip_after_models_only()
            else:  # S/SU and L: the model is processed with stemming on
                models.append(self.summaries.doc(path, fmt, True))
                units.append(None)
                self._flip_after_models_only()
        return score_pair(
            measure, peer, models, mode=s.mode, alpha=s.alpha, model_sentences=units if measure.kind == "W" else None
        )

    def _flip_after_models_only(self) -> None:
        """-M sets the script's stemming switch on for a model and then *off*, also undoing -m."""
        self._stem_on = False

    # -- one measure for one peer ----------------------------------------------------------
    def _collect(self, measure: Measure, peer_id: str) -> MeasureResult:
        """The per-evaluation scores, in the script's evaluation order (warnings included)."""
        counts = self.settings.average in (1, 2)
        done = self._precomputed.get((peer_id, measure.name), {})
        instances: dict[str, tuple] = {}
        evals: dict[str, Evaluation] = {}
        for ev in self.config.evaluations:
            value = done.get(ev.eval_id)
            if value is None:
                pair = self._score_eval(measure, ev, peer_id)
                if pair is None:
                    continue
                if counts:
                    value = (pair.model_count, pair.peer_count, pair.hits)
                else:
                    value = (pair.recall, pair.precision, pair.f)
            key = f"{ev.eval_id}.{peer_id}"
            if key not in instances:  # the script keeps the first score of a repeated key
                instances[key] = value
                evals[key] = ev
        # ROUGE-W's counts as Perl's numbers: only needed once one reaches 10**15 (below, both kinds
        # print the same digits; then all take part, as they meet in the totals)
        if counts and measure.kind == "W" and any(max(v) >= 1e15 for v in instances.values()):
            for key, value in instances.items():
                instances[key] = self._perl_w_counts(measure, evals[key], peer_id, value)
        return MeasureResult(measure, instances)

    def _perl_w_counts(self, measure: Measure, ev: Evaluation, peer_id: str, value: tuple) -> tuple:
        """ROUGE-W's (model, peer, hit) counts as the numbers Perl holds, for -t 1/2's printing: the
        model count is (sum of sentence length**w)**w, summed over the models (-f A) or the best one's
        (-f B), the peer count token count**w. Only the kind changes (and, above 2**53, the last digits:
        Perl's integers are exact); counts that are not rougekit's own are left as they were."""
        if not all(isinstance(v, float) for v in value):
            return value
        s, fmt = self.settings, ev.input_format
        if fmt is None or fmt.upper() not in text.SENTENCE_FORMATS:
            return value
        weight, whole = float(measure.weight), _whole_weight(measure.label, measure.weight)

        def lengths(path: str) -> tuple[int, list[int]]:
            key = (path, fmt.upper())
            if key not in self._lengths:
                sentences = self.summaries.sentences(path, fmt)
                tokens, units = text.summary_tokens(sentences, s.word_limit, s.byte_limit, self.summaries.stopwords)
                self._lengths[key] = len(tokens or ()), [len(u) for u in units]
            return self._lengths[key]

        peer_count = _perl_pow(_PerlNumber(iv=lengths(ev.peer_path(peer_id))[0]), weight, whole)
        model_counts = []
        for path in ev.model_paths():
            base = _PerlNumber(iv=0)
            for n in lengths(path)[1]:
                base = _perl_add(base, _perl_pow(_PerlNumber(iv=n), weight, whole))
            model_counts.append(_perl_pow(base, weight, whole))
        model, hits = value[0], value[2]
        if s.mode == "B":  # the best model's counts, assigned (a double stays a double)
            new_model = min(model_counts, key=lambda c: abs(float(c) - model))  # the first of equals
            new_peer = peer_count
        else:
            new_model, new_peer = _PerlNumber(iv=0), _PerlNumber(iv=0)
            for c in model_counts:
                new_model, new_peer = _perl_add(new_model, c), _perl_add(new_peer, peer_count)
        # the hits: a sum of powers of run lengths, whole (an integer to Perl) below 2**53 when w is
        new_hits = _PerlNumber(iv=int(hits)) if hits.is_integer() and hits < _NV_EXACT else _PerlNumber(nv=hits)
        new = (new_model, new_peer, new_hits)
        if any(abs(float(a) - b) > 1e-12 * abs(b) for a, b in zip(new, value)):
            return value  # the same counts (up to the doubles' rounding above 2**53), or left as they were
        return new

    def _aggregate(self, result: MeasureResult) -> None:
        """The -t 2 totals or the bootstrap (no side effects, so it may run in any thread)."""
        s = self.settings
        instances = result.instances
        ordered = sorted(instances)  # the bootstrap sees the instances sorted as strings
        if s.average == 2:
            if result.measure.kind == "W":  # Perl's sums, which also cache doubles as integers
                result.totals = self._perl_totals(instances, ordered)
            else:
                totals = [0, 0, 0]
                for key in ordered:
                    for i in range(3):
                        totals[i] += instances[key][i]
                result.totals = tuple(totals)
        else:
            triples = [instances[key] for key in ordered]
            if result.measure.kind == "W" and s.average == 1:
                self._perl_totals(instances, ordered, s.resamples)
                triples = [tuple(map(float, t)) for t in triples]  # the same values, as before
            result.bootstrap = perl_bootstrap(triples, s.resamples, s.confidence, s.average, s.alpha)

    @staticmethod
    def _perl_resampling(rows: list[list[_PerlNumber]], resamples: int) -> None:
        """The additions of the script's bootstrap (-t 1), for the integers they cache in the
        instances: resample s reseeds Perl's drand48 with s, copies the first drawn row, adds the others."""
        n = len(rows)
        waiting = [v for row in rows for v in row if v.iv is None and v.nv.is_integer() and 1e15 <= v.nv < _NV_EXACT]
        for seed in range(resamples):
            if all(v.iv is not None for v in waiting):
                return  # nothing left that the sums could change
            state = ((seed & 0xFFFFFFFF) << 16) + 0x330E
            sample = None
            for _ in range(n):
                state = (state * 0x5DEECE66D + 0xB) & ((1 << 48) - 1)
                row = rows[math.floor(float(state) * _DRAND_SCALE * n)]
                if sample is None:
                    sample = [copy.copy(v) for v in row]
                else:
                    sample = [_perl_add(a, b) for a, b in zip(sample, row)]

    @staticmethod
    def _perl_totals(instances: dict[str, tuple], ordered: list[str], resamples: int = 0) -> tuple:
        """The script's -t 1/2 totals of ROUGE-W's counts (computeAverages: sorted keys, from 0), then
        (-t 1) its bootstrap's sums: their additions cache some doubles as integers, which then print
        in full. The instances become plain numbers (an int where Perl holds an integer); the totals
        are returned."""
        rows = [
            [
                v if isinstance(v, _PerlNumber) else _PerlNumber(iv=v) if isinstance(v, int) else _PerlNumber(nv=v)
                for v in instances[key]
            ]
            for key in ordered
        ]
        totals = [_PerlNumber(iv=0)] * 3
        for row in rows:
            totals = [_perl_add(t, v) for t, v in zip(totals, row)]
        # the bootstrap's additions matter only to a whole double of 16 digits below 2**53 not yet cached
        if resamples and any(v.iv is None and v.nv.is_integer() and 1e15 <= v.nv < _NV_EXACT for r in rows for v in r):
            Rouge155Run._perl_resampling(rows, resamples)
        for key, row in zip(ordered, rows):
            instances[key] = tuple(v.plain() for v in row)
        return tuple(t.plain() for t in totals)

    def run(self, peer_ids: list[str]) -> list[PeerResult]:
        """All measures for each peer, in the script's order; the aggregates come last: the -t 2
        totals, or one bootstrap per result on the engine's threads, one per core (the resampling
        loop runs without the GIL; Ctrl-C stops them as it stops batch scoring)."""
        results = []
        for peer_id in peer_ids:
            self._precompute(peer_id)
            peer_result = PeerResult(peer_id)
            for measure in self.settings.measures:
                peer_result.measures.append(self._collect(measure, peer_id))
            results.append(peer_result)
        aggregates = [(m,) for peer_result in results for m in peer_result.measures]
        run_tasks(aggregates, 1 if self.settings.average == 2 else available_cores(), self._aggregate)
        return results
