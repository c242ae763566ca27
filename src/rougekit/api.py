"""The Python API: ``rougekit.score(candidates, references, ...)`` and the reusable ``Scorer``.

Candidates come first, references second. Defaults reproduce ROUGE-1.5.5: the per-pair numbers
equal ``rougekit rouge155 -d`` on the same texts.

>>> r = score(["police kill the gunman"], [["police killed the gunman"]], measures=["ROUGE-1", "ROUGE-L"])
>>> r.per_pair()[0]["ROUGE-1"]["recall"]
0.75
>>> r.to_dict()["ROUGE-L"]["f"]
0.75
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Sequence

import numpy as np

from rougekit.errors import OptionError
from rougekit.measures import NEEDS_SOURCE, Measure
from rougekit.metrics import hori, lin_hovy
from rougekit.scoring import (Doc, PairScore, combine, final_scores, jackknife, paper_wlcs_score,
                              reference_stats)
from rougekit.signature import Signature
from rougekit.stats.perl_bootstrap import perl_bootstrap
from rougekit.text.intern import Vocabulary
from rougekit.text.tokenizers import Preprocessor, Tokenizer

DEFAULT_MEASURES = ("ROUGE-1", "ROUGE-2", "ROUGE-L")
MULTI_REF = {"sum": "A", "best": "B", "jackknife": "J"}


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
        return {"low": self.low, "high": self.high, "level": self.level, "method": self.method,
                "resamples": self.resamples, "seed": self.seed}


@dataclass(frozen=True)
class ValueScore:
    """A single-valued measure's value for one pair (BLEU, Ngram(i,j), ACCY, ...)."""

    score: float


@dataclass
class RougeResult:
    """Scores of a corpus: per pair (input order) and aggregated, with the signature."""

    measures: list[Measure]
    ids: list[str]
    pairs: list[dict[str, PairScore]]
    signature: Signature
    average: str = "pairs"
    intervals: dict[str, dict[str, Interval]] = field(default_factory=dict)
    rouge155_averages: dict[str, dict[str, float]] = field(default_factory=dict)
    corpus_values: dict[str, float] = field(default_factory=dict)

    def corpus(self, name: str) -> dict[str, float]:
        """Corpus-level R/P/F: mean of the per-pair values, or Σhits/Σcounts with average='tokens'.

        Single-valued measures give ``{"score"}``: corpus BLEU for BLEU, else the mean per pair.
        """
        if name in self.corpus_values:
            return {"score": self.corpus_values[name]}
        rows = [p[name] for p in self.pairs]
        if not rows:
            return {"recall": 0.0, "precision": 0.0, "f": 0.0}
        if self.average == "tokens":
            m = sum(r.model_count for r in rows)
            pc = sum(r.peer_count for r in rows)
            h = sum(r.hits for r in rows)
            rec = h / m if m > 0 else 0.0
            prec = h / pc if pc > 0 else 0.0
            alpha = float(self.signature.alpha)
            denom = (1 - alpha) * prec + alpha * rec
            return {"recall": rec, "precision": prec, "f": rec * prec / denom if denom > 0 else 0.0}
        n = len(rows)
        return {"recall": sum(r.recall for r in rows) / n, "precision": sum(r.precision for r in rows) / n,
                "f": sum(r.f for r in rows) / n}

    def to_dict(self) -> dict[str, dict]:
        """``{measure: {"recall", "precision", "f", "interval"?, "rouge155_average"?}}``."""
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
        return [{name: _values(s) for name, s in p.items()} for p in self.pairs]

    def counts(self) -> list[dict[str, dict[str, float]]]:
        """Raw sufficient statistics per pair: hits, reference count, candidate count (R/P/F measures)."""
        return [{name: {"hits": s.hits, "reference_count": s.model_count, "candidate_count": s.peer_count}
                 for name, s in p.items() if isinstance(s, PairScore)} for p in self.pairs]

    def rows(self) -> list[dict]:
        """Long-format rows (one per pair and measure), ready for ``pandas.DataFrame``."""
        out = []
        for i, p in zip(self.ids, self.pairs):
            for name, s in p.items():
                if isinstance(s, ValueScore):
                    out.append({"id": i, "measure": name, "recall": None, "precision": None, "f": None,
                                "score": s.score, "hits": None, "reference_count": None, "candidate_count": None})
                else:
                    out.append({"id": i, "measure": name, "recall": s.recall, "precision": s.precision, "f": s.f,
                                "score": None, "hits": s.hits, "reference_count": s.model_count,
                                "candidate_count": s.peer_count})
        return out

    def __str__(self) -> str:
        lines = [str(self.signature)]
        for name, v in self.to_dict().items():
            if "score" in v:
                lines.append(f"{name:12s} {v['score']:.5f}")
            else:
                lines.append(f"{name:12s} R {v['recall']:.5f}  P {v['precision']:.5f}  F {v['f']:.5f}")
        return "\n".join(lines)


def _values(s) -> dict[str, float]:
    if isinstance(s, ValueScore):
        return {"score": s.score}
    return {"recall": s.recall, "precision": s.precision, "f": s.f}


def _as_measures(measures) -> list[Measure]:
    if isinstance(measures, (str, Measure)):
        measures = [measures]
    out = [m if isinstance(m, Measure) else Measure.parse(m) for m in measures]
    if not out:
        raise OptionError("give at least one measure")
    return out


class Scorer:
    """Scores candidates against references; processed references are cached for reuse.

    Options (the ROUGE-1.5.5 flag each mirrors):
      measures     names such as ROUGE-1, ROUGE-L, ROUGE-W-1.2, ROUGE-SU4, ROUGE-S* (-n, -w, -2, -u)
      stem         WordNet exceptions + the script's Porter (-m)
      stopwords    remove the SMART stopwords (-s)
      word_limit, byte_limit   truncate every summary (-l, -b)
      multi_ref    "sum" (-f A), "best" (-f B) or "jackknife" (the paper; not in the script)
      alpha        F weight (-p)
      average      "pairs" (-t 0) or "tokens" (-t 1)
      tokenizer    "rouge155" (exact), "unicode", "cjk" or a callable
      su_unigrams  "rouge155" (every token but the summary's last) or "all" (the paper's marker)
      wlcs         "rouge155" (the script's ROUGE-W) or "paper" (equations 13-15)
      bootstrap    "rouge155" (the script's seeded resampling, -r/-c), "percentile", or None
      resamples, confidence, seed   bootstrap settings (seed for the percentile bootstrap)
      hori_units   units of ACCY/NrstACCY/PREC-n/SumACCY/WSumACCY: "word" or "sentence"
    """

    def __init__(self, measures=DEFAULT_MEASURES, *, stem: bool = False, stopwords: bool = False,
                 word_limit: int = 0, byte_limit: int = 0, multi_ref: str = "sum", alpha: float = 0.5,
                 average: str = "pairs", tokenizer: Tokenizer = "rouge155", su_unigrams: str = "rouge155",
                 wlcs: str = "rouge155", bootstrap: str | None = "rouge155", resamples: int = 1000,
                 confidence: float = 95.0, seed: int = 0, hori_units: str = "word"):
        self.measures = _as_measures(measures)
        if multi_ref not in MULTI_REF:
            raise OptionError(f"multi_ref must be one of {', '.join(MULTI_REF)}, got {multi_ref!r}")
        if not 0 <= alpha <= 1:
            raise OptionError(f"alpha must be within 0 and 1, got {alpha!r}")
        if average not in ("pairs", "tokens"):
            raise OptionError(f"average must be 'pairs' or 'tokens', got {average!r}")
        if su_unigrams not in ("rouge155", "all"):
            raise OptionError(f"su_unigrams must be 'rouge155' or 'all', got {su_unigrams!r}")
        if wlcs not in ("rouge155", "paper"):
            raise OptionError(f"wlcs must be 'rouge155' or 'paper', got {wlcs!r}")
        if bootstrap not in ("rouge155", "percentile", None):
            raise OptionError(f"bootstrap must be 'rouge155', 'percentile' or None, got {bootstrap!r}")
        if bootstrap and (resamples < 1 or not 0 <= confidence <= 100):
            raise OptionError("resamples must be >= 1 and confidence within 0 and 100")
        if hori_units not in ("word", "sentence"):
            raise OptionError(f"hori_units must be 'word' or 'sentence', got {hori_units!r}")
        self.hori_units = hori_units
        self.pre = Preprocessor(tokenizer, stem, stopwords, word_limit, byte_limit)
        self.multi_ref, self.alpha, self.average = multi_ref, float(alpha), average
        self.su_unigrams, self.wlcs = su_unigrams, wlcs
        self.bootstrap, self.resamples, self.confidence, self.seed = bootstrap, resamples, confidence, seed
        self.vocab = Vocabulary()
        self._cache: dict[str, Doc] = {}
        limit = f"words:{word_limit}" if word_limit else (f"bytes:{byte_limit}" if byte_limit else "none")
        self.signature = Signature(
            measures=",".join(m.name for m in self.measures), tokenizer=self.pre.name, stem=stem,
            stopwords=stopwords, limit=limit, multi_ref=multi_ref, alpha=f"{alpha:g}",
            su_unigrams=su_unigrams, wlcs=wlcs, average=average, bootstrap=str(bootstrap).lower(),
            resamples=resamples if bootstrap else 0, confidence=f"{confidence:g}",
            seed=str(seed) if bootstrap == "percentile" else "none")

    # -- processing ---------------------------------------------------------------------------
    def doc(self, summary: str | Sequence[str], cache: bool = False) -> Doc:
        key = summary if isinstance(summary, str) else "\n".join(summary)
        if cache and key in self._cache:
            return self._cache[key]
        tokens, units = self.pre.process(key)
        d = Doc(self.vocab.ids(tokens), [self.vocab.ids(u) for u in units])
        if cache:
            self._cache[key] = d
        return d

    def score_one(self, candidate: Doc, references: list[Doc], source: Doc | None = None) -> dict[str, PairScore]:
        """All measures for one candidate against its processed references."""
        out = {}
        mode = MULTI_REF[self.multi_ref]
        for m in self.measures:
            if m.single_valued:
                out[m.name] = ValueScore(self._single(m, candidate, references, source))
                continue
            if not references:
                out[m.name] = final_scores(0, 0, 0, self.alpha)
                continue
            if m.kind == "W" and self.wlcs == "paper":
                per_ref = [paper_wlcs_score(m, candidate, r, self.alpha) for r in references]
                out[m.name] = self._merge(per_ref, mode, m)
                continue
            stats = [self._stats(m, candidate, r) for r in references]
            if mode == "J":
                singles = [final_scores(s.model_count, s.hits, s.peer_count, self.alpha, _w(m)) for s in stats]
                total = combine(stats, "A")
                rec, prec, f = jackknife(singles)
                out[m.name] = PairScore(total[0], total[1], total[2], rec, prec, f)
            else:
                mcount, hits, pcount = combine(stats, mode)
                out[m.name] = final_scores(mcount, hits, pcount, self.alpha, _w(m))
        return out

    def _units(self, doc: Doc) -> list:
        return [tuple(u) for u in doc.sentences] if self.hori_units == "sentence" else doc.tokens

    def _single(self, m: Measure, cand: Doc, refs: list[Doc], source: Doc | None) -> float:
        """Measures of Lin & Hovy (2003) and Hori et al. (2004) on the processed tokens."""
        if not refs:
            return 0.0
        if m.kind == "BLEU":
            return lin_hovy.sentence_bleu(cand.tokens, [r.tokens for r in refs]).score
        if m.kind == "NGRAM":
            return lin_hovy.ngram_score(cand.tokens, [r.tokens for r in refs], m.n, m.skip)
        c, rs = self._units(cand), [self._units(r) for r in refs]
        if m.kind == "ACCY":  # one value per reference; several references: their mean
            total = 0.0
            for r in rs:
                total += hori.accy(c, r)
            return total / len(rs)
        if m.kind == "NRSTACCY":
            return hori.nrst_accy(c, rs)
        if m.kind == "PREC":
            return hori.prec_n(c, rs, m.n)
        if source is None:
            raise OptionError(f"{m.name} needs the original text: pass sources= (one per candidate)")
        fn = hori.sum_accy if m.kind == "SUMACCY" else hori.wsum_accy
        return fn(c, rs, self._units(source))

    def _merge(self, per_ref: list[PairScore], mode: str, m: Measure) -> PairScore:
        if mode == "J":
            rec, prec, f = jackknife(per_ref)
            return PairScore(per_ref[0].model_count, per_ref[0].hits, per_ref[0].peer_count, rec, prec, f)
        if mode == "B":
            return max(per_ref, key=lambda s: s.recall)
        mcount = sum(s.model_count for s in per_ref)
        hits = sum(s.hits for s in per_ref)
        pcount = sum(s.peer_count for s in per_ref)
        return final_scores(mcount, hits, pcount, self.alpha, m.weight)

    def _stats(self, m: Measure, cand: Doc, ref: Doc):
        if m.kind == "SU" and self.su_unigrams == "all":
            s = reference_stats(Measure("S", skip=m.skip), cand, ref)
            u = reference_stats(Measure.rouge_n(1), cand, ref)
            hits, mc = s.hits + u.hits, s.model_count + u.model_count
            from rougekit.scoring import RefStats, _round5

            return RefStats(hits, mc, s.peer_count + u.peer_count, _round5(hits / mc) if mc else 0.0)
        return reference_stats(m, cand, ref)

    # -- corpus -------------------------------------------------------------------------------
    def score(self, candidates: Iterable[str], references: Iterable, ids: Sequence[str] | None = None,
              sources: Iterable[str] | None = None) -> RougeResult:
        """Score each candidate against its references (one string or a list of strings each).

        ``sources`` (the original texts, one per candidate) are needed by SumACCY and WSumACCY.
        """
        candidates = list(candidates)
        references = list(references)
        if len(candidates) != len(references):
            raise OptionError(f"{len(candidates)} candidates but {len(references)} reference entries")
        source_list = list(sources) if sources is not None else None
        if source_list is not None and len(source_list) != len(candidates):
            raise OptionError(f"{len(candidates)} candidates but {len(source_list)} sources")
        if source_list is None and any(m.kind in NEEDS_SOURCE for m in self.measures):
            raise OptionError("SumACCY and WSumACCY need the original texts: pass sources=")
        pairs = []
        all_refs = []
        for k, (cand, refs) in enumerate(zip(candidates, references)):
            ref_list = [refs] if isinstance(refs, str) else list(refs)
            ref_docs = [self.doc(r, cache=True) for r in ref_list]
            src = self.doc(source_list[k], cache=True) if source_list is not None else None
            cand_doc = self.doc(cand)
            pairs.append(self.score_one(cand_doc, ref_docs, src))
            if any(m.kind == "BLEU" for m in self.measures):
                all_refs.append((cand_doc.tokens, [r.tokens for r in ref_docs]))
        ids = [str(i) for i in (ids if ids is not None else range(1, len(pairs) + 1))]
        if len(ids) != len(pairs):
            raise OptionError(f"{len(ids)} ids for {len(pairs)} candidates")
        result = RougeResult(self.measures, ids, pairs, self.signature, self.average)
        for m in self.measures:
            if m.kind == "BLEU":
                usable = [(c, r) for c, r in all_refs if r]
                result.corpus_values[m.name] = (lin_hovy.bleu([c for c, _ in usable], [r for _, r in usable]).score
                                                if usable else 0.0)
            elif m.single_valued:
                values = [p[m.name].score for p in pairs]
                result.corpus_values[m.name] = sum(values) / len(values) if values else 0.0
        if self.bootstrap and pairs:
            self._add_intervals(result)
        return result

    def _add_intervals(self, result: RougeResult) -> None:
        level = float(self.confidence)
        tokens = self.average == "tokens"
        for m in self.measures:
            if m.single_valued:
                continue  # intervals are given for R/P/F measures
            rows = [p[m.name] for p in result.pairs]
            if tokens:
                values = np.array([[r.model_count, r.peer_count, r.hits] for r in rows], dtype=float)
            else:
                values = np.array([[r.recall, r.precision, r.f] for r in rows], dtype=float)
            if self.bootstrap == "rouge155":
                order = sorted(range(len(rows)), key=lambda i: result.ids[i])
                b = perl_bootstrap(values[order], self.resamples, level, 1 if tokens else 0, self.alpha)
                result.intervals[m.name] = {k: Interval(b.low[i], b.high[i], level, "rouge155", self.resamples, None)
                                            for i, k in enumerate(("recall", "precision", "f"))}
                result.rouge155_averages[m.name] = dict(zip(("recall", "precision", "f"), b.average))
            else:
                result.intervals[m.name] = _percentile(values, tokens, self.alpha, self.resamples, level, self.seed)


def _w(m: Measure):
    return m.weight if m.kind == "W" else None


def _percentile(values: np.ndarray, tokens: bool, alpha: float, resamples: int, level: float, seed: int):
    """A standard percentile bootstrap over pairs (numpy Generator seeded with ``seed``)."""
    rng = np.random.default_rng(seed)
    n = len(values)
    idx = rng.integers(0, n, size=(resamples, n))
    sums = values[idx].sum(axis=1)
    if tokens:
        m, p, h = sums[:, 0], sums[:, 1], sums[:, 2]
        rec = np.divide(h, m, out=np.zeros_like(h), where=m > 0)
        prec = np.divide(h, p, out=np.zeros_like(h), where=p > 0)
        denom = (1 - alpha) * prec + alpha * rec
        f = np.divide(rec * prec, denom, out=np.zeros_like(h), where=denom > 0)
        stats = np.stack([rec, prec, f], axis=1)
    else:
        stats = sums / n
    lo, hi = np.percentile(stats, [(100 - level) / 2, 100 - (100 - level) / 2], axis=0)
    return {k: Interval(float(lo[i]), float(hi[i]), level, "percentile", resamples, seed)
            for i, k in enumerate(("recall", "precision", "f"))}


def score(candidates: Iterable[str], references: Iterable, *, measures=DEFAULT_MEASURES,
          ids: Sequence[str] | None = None, sources: Iterable[str] | None = None, **options) -> RougeResult:
    """Score candidates (first) against references (second); see :class:`Scorer` for options."""
    return Scorer(measures, **options).score(candidates, references, ids=ids, sources=sources)
