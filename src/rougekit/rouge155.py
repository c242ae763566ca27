"""The ROUGE-1.5.5 evaluation run: configuration in, per-evaluation scores and bootstrap out.

This is the engine behind ``rougekit rouge155``. It walks peers, measures and evaluations in
the script's order (that order matters only for the script's ``-M`` flag handling) and keeps
every processed summary in a cache, so each file is read and tokenized once per setting.
``-M``: docs/rouge155/stemming-stopwords.md; ``-f``/``-t``: docs/rouge155/multiple-references.md.
"""

from __future__ import annotations

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
        return MeasureResult(measure, instances)

    def _aggregate(self, result: MeasureResult) -> None:
        """The -t 2 totals or the bootstrap (no side effects, so it may run in any thread)."""
        s = self.settings
        instances = result.instances
        ordered = sorted(instances)  # the bootstrap sees the instances sorted as strings
        if s.average == 2:
            totals = [0, 0, 0]
            for key in ordered:
                for i in range(3):
                    totals[i] += instances[key][i]
            result.totals = tuple(totals)
        else:
            triples = [instances[key] for key in ordered]
            result.bootstrap = perl_bootstrap(triples, s.resamples, s.confidence, s.average, s.alpha)

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
