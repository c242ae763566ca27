"""The option space the implementations span, and the corpus number of any point in it.

A :class:`Settings` names one choice per factor (the fixed order of ``FACTORS``). Its numbers come
from per-pair statistics counted by the engine's batch scorer (:func:`rougekit.engine.door.plan`,
the door every front end uses), with ROUGE-1.5.5's text handling (``tokenizer="rouge155"``) or
rouge-score's (``"rouge-score"``: its lower-casing, ``[^a-z0-9]`` clean-up and NLTK's Porter).
:class:`Space` keeps the per-pair statistics of every counting choice it has seen, so the choices
applied after counting (multi-reference rule aside: aggregation, float precision, printed
rounding) cost no recount: the search of :mod:`rougekit.variants.target` reuses them.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Iterable, Sequence

import numpy as np

from rougekit.compat import rouge_scorer
from rougekit.engine.door import available_cores, f_measure_array, plan, ratios, round5_array
from rougekit.errors import OptionError
from rougekit.measures import Measure
from rougekit.results import pair_sum

# the factors, in the order --explain switches them (rounding and float precision last)
FACTORS = ("tokenizer", "stemmer", "stopwords", "split", "multi_ref", "aggregation", "alpha", "rounding", "precision")
TOKENIZERS = ("rouge155", "rouge-score")
STEMMERS = ("none", "porter", "porter+wordnet")  # porter+wordnet: -m; porter: files2rouge's -m, rouge-score's
# ROUGE-L's sentences: none (one sequence), the lines, nltk's Punkt, files2rouge's (a new one after " .")
SPLITS = ("none", "newline", "punkt", "eos")
# avg: the mean of the per-reference values (torchmetrics' accumulate="avg"); jackknife: the paper's
MULTI_REF = ("sum", "best", "max", "jackknife", "avg")
# tokens: the counts summed, the ratios from them (-t 2's totals, divided by hand); rouge155-token-average:
# what -t 1 -a prints (the -r 1000 resamples' ratios of summed counts, averaged)
AGGREGATIONS = ("mean", "tokens", "rouge155-average", "rouge155-token-average", "bootstrap-median")
ALPHAS = (0.5, 0.2, 0.8)  # -p: F1, then F2 (recall weighted) and F0.5 (precision weighted)
ROUNDINGS = ("none", "round5")  # round5: the value as ROUGE-1.5.5 prints it (%.5f), read back
PRECISIONS = ("float64", "float32")
ORDERS = ("input", "file-names")  # the pairs' order in ROUGE-1.5.5's bootstrap
RESAMPLES = 1000  # ROUGE-1.5.5's -r 1000 and rouge-score's BootstrapAggregator n_samples
MEASURE_NAMES = ("ROUGE-1", "ROUGE-2", "ROUGE-3", "ROUGE-4", "ROUGE-L")


@dataclass(frozen=True)
class Settings:
    """One point of the option space (the ROUGE-1.5.5 flag each field mirrors in brackets).

    tokenizer    "rouge155" (the script's) or "rouge-score" (its tokenizer, NLTK's Porter when stemming)
    stemmer      "none", "porter" (Porter only: rouge-score's, files2rouge's -m with an empty
                 exception DB) or "porter+wordnet" (-m); rouge-score's tokenizer has no WordNet
                 exceptions, so there "porter+wordnet" stems as "porter"
    stopwords    remove the SMART stopwords (-s)
    word_limit, byte_limit   truncate every summary (-l, -b)
    split        ROUGE-L's sentences: "none" (the whole summary one sequence: rouge-score's rougeL),
                 "newline" (its lines: summary-level LCS, rougeLsum), "punkt" (nltk.sent_tokenize) or
                 "eos" (files2rouge's: the lines joined, a sentence ending after each " .")
    multi_ref    "sum" (-f A), "best" (-f B), "max" (best F, rouge-score's score_multi), "jackknife"
                 (the paper's leave-one-out mean of best scores) or "avg" (the mean of the per-reference
                 values: torchmetrics' accumulate="avg")
    aggregation  "mean" of per-pair values, "tokens" (Σhits/Σcounts: -t 2's totals divided by hand),
                 "rouge155-average" (the script's -a average over -r 1000 resamples, -t 0),
                 "rouge155-token-average" (what -t 1 -a prints: the resamples' ratios of summed
                 counts, averaged), "bootstrap-median" (rouge-score's BootstrapAggregator mid after
                 np.random.seed)
    alpha        F's weight of precision (-p): F = PR / ((1 - alpha) P + alpha R); ROUGE-1.5.5's
                 tokenizer only (rouge-score's F is F1)
    order        the pairs' order in the script's bootstrap (-a average): "input", or "file-names" (the
                 files <i>.txt sorted as strings, as pyrouge and files2rouge name and list them)
    rounding     "none" or "round5" (the 5 decimals ROUGE-1.5.5 prints, as pyrouge reads them back)
    precision    "float64" or "float32" (per-pair values and their mean in float32, as torchmetrics)
    """

    tokenizer: str = "rouge155"
    stemmer: str = "none"
    stopwords: bool = False
    word_limit: int = 0
    byte_limit: int = 0
    split: str = "newline"
    multi_ref: str = "sum"
    aggregation: str = "mean"
    rounding: str = "none"
    precision: str = "float64"
    order: str = "input"
    alpha: float = 0.5

    def __post_init__(self):
        if not 0.0 <= self.alpha <= 1.0:
            raise OptionError(f"alpha must be between 0 and 1, not {self.alpha!r}")
        for name, allowed in (
            ("tokenizer", TOKENIZERS),
            ("stemmer", STEMMERS),
            ("split", SPLITS),
            ("multi_ref", MULTI_REF),
            ("aggregation", AGGREGATIONS),
            ("rounding", ROUNDINGS),
            ("precision", PRECISIONS),
            ("order", ORDERS),
        ):
            if getattr(self, name) not in allowed:
                raise OptionError(f"{name} must be one of {', '.join(allowed)}, not {getattr(self, name)!r}")

    def replace(self, **changes) -> "Settings":
        return dataclasses.replace(self, **changes)

    def factor_value(self, factor: str):
        """The value of one of ``FACTORS`` (stopwords with the limits, aggregation with the pairs' order)."""
        if factor == "stopwords":
            return (self.stopwords, self.word_limit, self.byte_limit)
        if factor == "aggregation":
            return (self.aggregation, self.order)
        return getattr(self, factor)

    def with_factor(self, factor: str, value) -> "Settings":
        if factor == "stopwords":
            return self.replace(stopwords=value[0], word_limit=value[1], byte_limit=value[2])
        if factor == "aggregation":
            return self.replace(aggregation=value[0], order=value[1])
        return self.replace(**{factor: value})

    def describe(self) -> dict:
        """The settings as a JSON object."""
        return dataclasses.asdict(self)

    def command(self, measures: Sequence[str], references: int | None = 1) -> str:
        """A command that gives these numbers (rougekit's own where no package has the combination), on
        pairs of ``references`` references each (None: a varying number)."""
        from rougekit.variants.commands import command_of

        return command_of(self, measures, references)


def normalized_references(references: Iterable) -> list:
    """One list of reference strings per candidate (a bare string is one reference)."""
    out = []
    for i, refs in enumerate(references):
        if isinstance(refs, str):
            out.append([refs])
        elif isinstance(refs, (list, tuple)) and refs and all(isinstance(r, str) for r in refs):
            out.append(list(refs))
        else:
            raise OptionError(f"pair {i + 1}: references must be a string or a non-empty list of strings")
    return out


def check_measures(measures: Sequence[str]) -> tuple[str, ...]:
    """The measure names every implementation has: ROUGE-1 .. ROUGE-4 and ROUGE-L."""
    names = []
    for name in measures:
        canonical = Measure.parse(str(name)).name
        if canonical not in MEASURE_NAMES:
            raise OptionError(
                f"variants compares {', '.join(MEASURE_NAMES)} (what every implementation has), not {name!r}"
            )
        if canonical not in names:
            names.append(canonical)
    if not names:
        raise OptionError("give at least one measure")
    return tuple(names)


def punkt_lines(text: str) -> str:
    """The text's sentences by nltk's Punkt (``nltk.sent_tokenize`` of the lines joined), one per line.
    The callers check the model is there first (:func:`punkt_available`); nothing is downloaded: a
    missing model is nltk's LookupError."""
    import importlib

    nltk = importlib.import_module("nltk")  # untyped: read as Any
    return "\n".join(nltk.sent_tokenize(" ".join(text.split("\n"))))


def _joined(text: str) -> str:
    return " ".join(text.split("\n"))


def eos_lines(text: str) -> str:
    """files2rouge's sentences (its default ``--eos .``): the text on one line, a new one after each ``" ."``."""
    return " .\n".join(_joined(text).strip().split(" ."))


class Space:
    """Per-pair statistics of candidates against references, kept per counting choice.

    ``references``: one list of reference strings per candidate. ``seed`` seeds the
    bootstrap-median aggregation as ``np.random.seed(seed)`` seeds rouge-score's ``BootstrapAggregator``
    (numpy's global state is put back after the draws), the measures drawn in their order.
    """

    def __init__(
        self,
        candidates: Sequence[str],
        references: Iterable,
        measures: Sequence[str] = ("ROUGE-1", "ROUGE-2", "ROUGE-L"),
        seed: int = 0,
        jobs: int | None = None,
    ):
        self.candidates = list(candidates)
        self.references = normalized_references(references)
        if len(self.candidates) != len(self.references):
            raise OptionError(f"{len(self.candidates)} candidates but {len(self.references)} reference entries")
        if not self.candidates:
            raise OptionError("no pairs to score")
        self.measures = check_measures(measures)
        self.multi = any(len(r) != 1 for r in self.references)
        counts = set(map(len, self.references))
        self.references_per_pair = counts.pop() if len(counts) == 1 else None  # None: varying
        self.seed = seed
        self.jobs = jobs or available_cores()
        self._stats: dict = {}
        self._texts: dict = {}
        self._values: dict = {}
        self._single: Space | None = None
        self._weighted: dict = {}  # per-pair values under another -p
        self._draw_states: dict = {}  # numpy's global state at the draws of the measure at a position
        self._file_order: list | None = None  # file_name_order(n), once

    # -- counting ------------------------------------------------------------------------------
    def _split_texts(self, split: str) -> tuple[list, list]:
        if split == "newline":
            return self.candidates, self.references
        if split not in self._texts:
            change = {"none": _joined, "punkt": punkt_lines, "eos": eos_lines}[split]
            self._texts[split] = (
                [change(c) for c in self.candidates],
                [[change(r) for r in refs] for refs in self.references],
            )
        return self._texts[split]

    def share_split(self, split: str, texts: tuple) -> None:
        """Take the candidates and references already split as ``split`` (:func:`punkt_lines` of
        these very texts, by a row) instead of splitting them again."""
        self._texts.setdefault(split, texts)

    def _count_key(self, s: Settings, measure: str) -> tuple:
        stemmer = "porter" if s.tokenizer == "rouge-score" and s.stemmer != "none" else s.stemmer
        multi_ref = s.multi_ref if self.multi else "sum"  # one reference: every rule is the same
        split = s.split if measure == "ROUGE-L" else "newline"
        return (s.tokenizer, stemmer, s.stopwords, s.word_limit, s.byte_limit, multi_ref, split)

    def statistics(self, s: Settings, measure: str) -> np.ndarray:
        """n x 6 per-pair (model count, hits, peer count, R, P, F) of one measure under ``s``."""
        key = self._count_key(s, measure)
        if (key, measure) not in self._stats:
            self._count(key, [m for m in self.measures if self._count_key(s, m) == key])
        return self._stats[(key, measure)]

    def _count(self, key: tuple, names: list) -> None:
        tokenizer, stemmer, stopwords, word_limit, byte_limit, multi_ref, split = key
        if multi_ref in ("avg", "jackknife"):
            return self._count_per_reference(key, names)
        measures = [Measure.parse(n) for n in names]
        options: dict = dict(stem=stemmer != "none", stopwords=stopwords, word_limit=word_limit, byte_limit=byte_limit)
        options["multi_ref"] = multi_ref
        if tokenizer == "rouge-score":
            options.update(rouge_scorer.ENGINE_OPTIONS)
        else:
            options["stemmer"] = "rouge155-porter" if stemmer == "porter" else "rouge155"
        batch = plan(measures, **options)
        if not batch.compiled:
            raise OptionError("the compiled engine is needed to compare implementations (rougekit's _core modules)")
        candidates, references = self._split_texts(split)
        if tokenizer == "rouge-score":
            data = rouge_scorer.engine_counts(batch, candidates, references, self.jobs, "text")
        else:
            data = batch.score_arrays(candidates, references, self.jobs, "text")
        for j, name in enumerate(names):
            column = np.array(data[:, j, :])
            if tokenizer == "rouge-score":  # rouge-score's (R, P, F) from the counts
                precision, recall, f = rouge_scorer.prf_of_counts(column, name == "ROUGE-L")
                column[:, 3:] = np.stack([recall, precision, f], axis=1)
            self._stats[(key, name)] = column

    def _count_per_reference(self, key: tuple, names: list) -> None:
        """The rules over per-reference values: each reference counted alone (the pairs repeated,
        one reference each), then per pair the counts summed and R, P and F each combined:
        ``"avg"`` their mean (torchmetrics' accumulate="avg", in float64), ``"jackknife"`` the
        mean over the leave-one-out sets of the best (:func:`rougekit.scoring.jackknife`)."""
        candidates, references = self._split_texts("newline")
        sizes = np.array([len(r) for r in references])
        owner = np.repeat(np.arange(len(candidates)), sizes)
        if self._single is None:  # the pairs with one reference each
            self._single = Space(
                [candidates[i] for i in owner.tolist()],
                [[r] for refs in references for r in refs],
                self.measures,
                self.seed,
                self.jobs,
            )
        settings = Settings(key[0], key[1], key[2], key[3], key[4], key[6], "sum")
        starts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
        for name in names:
            column = self._single.statistics(settings, name)
            out = np.zeros((len(candidates), 6))
            for j in range(3):
                out[:, j] = np.bincount(owner, weights=column[:, j], minlength=len(candidates))
            for size in np.unique(sizes).tolist():  # the pairs with ``size`` references, as a matrix
                rows = np.nonzero(sizes == size)[0]
                block = column[starts[rows][:, None] + np.arange(size)[None, :], 3:]  # rows x size x 3
                out[rows, 3:] = _combined(block, key[5])
            self._stats[(key, name)] = out

    # -- the corpus number ---------------------------------------------------------------------
    def value(self, s: Settings, measure: str) -> tuple[float, float, float]:
        """(R, P, F) of the corpus under ``s``: aggregated, in ``s.precision``, rounded as ``s.rounding``."""
        key = (s.replace(rounding="none"), measure)  # rounding is applied last: the aggregate is shared
        if key not in self._values:
            self._values[key] = self._value(key[0], measure)
        out: tuple = self._values[key]
        if s.rounding == "round5":
            out = tuple(float(f"{v:.5f}") for v in out)
        return out

    def per_pair(self, s: Settings, measure: str) -> np.ndarray:
        """n x 3 per-pair (R, P, F) under ``s`` (F with ``s.alpha``: the script's, from the rounded
        R and P, rounded to 5 decimals)."""
        stats = self.statistics(s, measure)
        values = stats[:, 3:6]
        if s.alpha == 0.5:
            return values
        if s.tokenizer != "rouge155" or s.multi_ref in ("jackknife", "avg"):
            raise OptionError("alpha (-p) is ROUGE-1.5.5's: its tokenizer, with -f A or -f B")
        key = (self._count_key(s, measure), measure, s.alpha)
        if key not in self._weighted:
            f = round5_array(f_measure_array(values[:, 0], values[:, 1], s.alpha))
            self._weighted[key] = np.column_stack([values[:, 0], values[:, 1], f])
        return self._weighted[key]

    def prepare(self, settings: Iterable[Settings]) -> None:
        """Compute the bootstrap medians of all ``settings`` (the others are left for :meth:`value`) in
        one pass of draws per measure position: the per-pair values of every setting stacked side by
        side, each resample's means taken over all of them at once, the medians by one reduction.
        A column's mean adds the same drawn rows in the same order whatever sits beside it, so every
        value is the one :meth:`value` computes alone (the tests hold them equal to the bit)."""
        todo: dict = {}  # measure -> [(key, values)]
        perl: dict = {}  # the pairs' order -> [(key, values)] (ROUGE-1.5.5's -a average of -t 0)
        for s in settings:
            if s.aggregation not in ("bootstrap-median", "rouge155-average"):
                continue
            s = s.replace(rounding="none")
            for measure in self.measures:
                key = (s, measure)
                median = s.aggregation == "bootstrap-median"
                group = todo.setdefault(measure, []) if median else perl.setdefault(s.order, [])
                if key in self._values or any(key == k for k, _ in group):
                    continue
                group.append((key, self._aggregated_input(s, measure)))
        for order, items in perl.items():  # the script's draws do not depend on the columns either
            from rougekit.stats.perl_bootstrap import perl_bootstrap_columns

            stacked = np.concatenate([v for _, v in items], axis=1)
            if order == "file-names":
                stacked = stacked[self._file_name_order()]
            boots = perl_bootstrap_columns(np.ascontiguousarray(stacked), RESAMPLES, 95.0)
            for j, (key, _) in enumerate(items):
                out = tuple(float(b[0]) for b in boots[3 * j : 3 * j + 3])
                if key[0].precision == "float32":
                    out = tuple(float(np.float32(v)) for v in out)
                self._values[key] = out
        for measure, items in todo.items():
            stacked = np.ascontiguousarray(np.concatenate([v for _, v in items], axis=1))
            mids = self._bootstrap_mids(stacked, self.measures.index(measure))
            for j, (key, _) in enumerate(items):
                out = tuple(float(v) for v in mids[3 * j : 3 * j + 3])
                if key[0].precision == "float32":
                    out = tuple(float(np.float32(v)) for v in out)
                self._values[key] = out

    def _file_name_order(self) -> list:
        if self._file_order is None:
            self._file_order = file_name_order(len(self.candidates))
        return self._file_order

    def _aggregated_input(self, s: Settings, measure: str) -> np.ndarray:
        """n x 3 per-pair (R, P, F) as the aggregation reads them (through float32 for ``s.precision``)."""
        values = self.per_pair(s, measure)
        if s.precision == "float32":
            values = values.astype(np.float32).astype(np.float64)
        return values

    def _value(self, s: Settings, measure: str) -> tuple[float, float, float]:
        stats = self.statistics(s, measure)
        values = self._aggregated_input(s, measure)
        if s.aggregation == "mean":
            if s.precision == "float32":
                from rougekit.compat._torch_mean import float32_mean

                out = tuple(float(float32_mean(values[:, k].astype(np.float32))) for k in range(3))
            elif s.tokenizer == "rouge-score":
                # its users' numpy.mean of a list of per-pair values: each column alone (pairwise sums)
                out = tuple(float(np.mean(np.ascontiguousarray(values[:, k]))) for k in range(3))
            else:  # rougekit's corpus mean: the values added in pair order
                out = tuple(float(v / len(values)) for v in pair_sum(values))
        elif s.aggregation == "tokens":
            model, hits, peer = (float(np.sum(stats[:, k])) for k in range(3))
            out = tuple(float(v) for v in ratios(model, peer, hits, s.alpha))
        elif s.aggregation == "rouge155-token-average":
            from rougekit.stats.perl_bootstrap import perl_bootstrap

            counts = np.ascontiguousarray(stats[:, [0, 2, 1]])  # the script's (model, peer, hits)
            if s.order == "file-names":
                counts = counts[self._file_name_order()]
            out = tuple(float(v) for v in perl_bootstrap(counts, RESAMPLES, 95.0, 1, s.alpha).average)
        elif s.aggregation == "rouge155-average":
            from rougekit.stats.perl_bootstrap import perl_bootstrap_columns

            if s.order == "file-names":
                values = values[self._file_name_order()]
            boots = perl_bootstrap_columns(np.ascontiguousarray(values), RESAMPLES, 95.0)
            out = tuple(float(b[0]) for b in boots)
        else:
            mid = self._bootstrap_mids(np.ascontiguousarray(values), self.measures.index(measure))
            out = tuple(float(v) for v in mid)
        if s.precision == "float32":
            out = tuple(float(np.float32(v)) for v in out)
        return out  # type: ignore[return-value]

    def _bootstrap_mids(self, values: np.ndarray, position: int) -> np.ndarray:
        """The mids of rouge-score's ``BootstrapAggregator().aggregate()`` after ``np.random.seed(seed)``,
        one per column of ``values`` (n x k), for the measure at ``position``: the types before it (the
        rows' order) draw first. The columns share the draws (:func:`global_resample_means`)."""
        from rougekit.compat.scoring import global_seed

        n, width = values.shape
        with global_seed(self.seed):
            state = self._draw_states.get(position)
            if state is None:  # the draws of the types before, in blocks, once: numpy's state after them is kept
                draws, rows = position * RESAMPLES, max(1, (1 << 20) // n)
                for start in range(0, draws, rows):
                    np.random.randint(0, n, size=(min(rows, draws - start), n))
                self._draw_states[position] = np.random.get_state()
            else:
                np.random.set_state(state)
            means = resample_means(values, RESAMPLES, self.jobs)
            self._draw_states.setdefault(position + 1, np.random.get_state())  # where the next type starts
        delta = (1 - 0.95) / 2  # the aggregator's percentiles; the mid is the middle one
        return np.percentile(means, 100 * np.array([delta, 0.5, 1 - delta]), axis=0)[1]


def resample_means(values: np.ndarray, resamples: int, jobs: int = 1) -> np.ndarray:
    """``resamples x k`` means of ``values``' rows (n x k) drawn from numpy's global state, as
    :func:`rougekit.compat.scoring.global_resample_means` (rouge-score's draws, its row-by-row sums)
    draws and adds them: the draws here in the caller's thread, in blocks of rows (randint of k rows
    gives the rows of k calls), and the rows gathered and averaged on ``jobs`` threads (numpy lets
    the others run meanwhile). Each column's mean adds its drawn values in draw order whatever the
    other columns, so stacking several settings' columns changes no bit."""
    from concurrent.futures import ThreadPoolExecutor

    n, width = values.shape
    out = np.zeros((resamples, width))
    rows = max(1, (3 << 20) // (n * max(3, width)))  # about 2**20 gathered values per 3 columns

    def run(start: int, index: np.ndarray) -> None:
        out[start : start + len(index)] = np.mean(np.take(values, index, axis=0), axis=1)

    with ThreadPoolExecutor(max(1, jobs)) as pool:
        pending: list = []
        for start in range(0, resamples, rows):
            index = np.random.randint(0, n, size=(min(rows, resamples - start), n))
            pending.append(pool.submit(run, start, index))
            if len(pending) > max(1, jobs):  # at most one block waiting per thread
                pending.pop(0).result()
        for future in pending:
            future.result()
    return out


def _combined(block: np.ndarray, rule: str) -> np.ndarray:
    """Per pair (first axis) the per-reference values (second axis) of R, P, F combined by ``rule``,
    each added in reference order as :func:`rougekit.scoring.jackknife` adds them."""
    size = block.shape[1]
    if size == 1:
        return block[:, 0, :]
    if rule == "avg":
        parts = [block[:, k, :] for k in range(size)]
    else:  # jackknife: the best of the others, for each reference left out
        parts = [np.max(np.delete(block, k, axis=1), axis=1) for k in range(size)]
    total = np.zeros_like(parts[0])
    for part in parts:
        total = total + part
    return total / size


def file_name_order(n: int) -> list:
    """The pairs in the order of ROUGE-1.5.5's bootstrap when pyrouge or files2rouge write pair ``i``
    (from 0) as ``<prefix>.<i>.txt``: the files sorted as strings ("1." < "10" < "2.") become
    evaluations 1, 2, ..., and the script sorts those IDs as strings again."""
    files = sorted(range(n), key=lambda i: f"{i}.")
    return [files[k - 1] for k in sorted(range(1, n + 1), key=lambda k: f"{k}.")]


def exact(value: float) -> Fraction:
    """A float as the exact rational it is (NaN is refused: a difference must be a number)."""
    if math.isnan(value):
        raise OptionError("a value is NaN: no pairs, or an implementation gave no number")
    return Fraction(value)


def punkt_available() -> tuple[bool, str]:
    """(True, "") when nltk and its Punkt model are installed (nothing is downloaded), else (False, why)."""
    import importlib
    import importlib.util
    import sys

    if "nltk" not in sys.modules:  # importing nltk takes seconds: look for its model on disk first
        if importlib.util.find_spec("nltk") is None:
            return False, "needs nltk (pip install nltk)"
        if not _punkt_on_disk():
            return False, "needs nltk's punkt_tab model (python -m nltk.downloader punkt_tab)"
    nltk = importlib.import_module("nltk")

    try:
        nltk.data.find("tokenizers/punkt_tab")
    except LookupError:
        return False, "needs nltk's punkt_tab model (python -m nltk.downloader punkt_tab)"
    return True, ""


def _punkt_on_disk() -> bool:
    """Whether a ``tokenizers/punkt_tab`` folder is in one of the places nltk looks by default."""
    import os
    import sys

    roots = [p for p in os.environ.get("NLTK_DATA", "").split(os.pathsep) if p]
    roots += [os.path.expanduser("~/nltk_data"), "/usr/share/nltk_data", "/usr/local/share/nltk_data"]
    roots += ["/usr/lib/nltk_data", "/usr/local/lib/nltk_data"]
    roots += [os.path.join(sys.prefix, d) for d in ("nltk_data", "share/nltk_data", "lib/nltk_data")]
    for root in roots:
        if os.path.isdir(os.path.join(root, "tokenizers", "punkt_tab")) or os.path.isfile(
            os.path.join(root, "tokenizers", "punkt_tab.zip")
        ):
            return True
    return False
