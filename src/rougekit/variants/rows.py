"""One row per ROUGE implementation as people run it, each computed by the rougekit path that is
bit-identical to that package (``rougekit.api`` for ROUGE-1.5.5.pl, ``rougekit.compat`` for the others).

Each row says the package and version it reproduces, the exact call or command, how the corpus
number is aggregated, and the point of :mod:`rougekit.variants.space` it stands for (None for
pltrdy's ``rouge`` and XL-Sum's scorer, whose text handling is their own).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Optional, Sequence

import numpy as np

from rougekit.errors import InputError
from rougekit.signature import Signature
from rougekit.variants.commands import perl_options, rouge_score_types
from rougekit.variants.space import Settings

KEYS = ("recall", "precision", "f")
Scores = dict  # {measure: {"recall": float | None, "precision": ..., "f": ...}}


@dataclass(frozen=True)
class Row:
    """One implementation's corpus numbers on the given pairs."""

    name: str
    package: str
    version: str
    command: str
    aggregation: str  # mean | tokens | rouge155-average | bootstrap-median
    signature: str
    scores: Scores
    settings: Optional[Settings] = None  # its point in the option space (None: its own text handling)

    def to_dict(self) -> dict:
        keys = ("name", "package", "version", "command", "aggregation", "signature", "scores")
        return {k: getattr(self, k) for k in keys}


@dataclass(frozen=True)
class Spec:
    """How to compute a row: its description and a function of (candidates, references, measures)."""

    name: str
    package: str
    version: str
    command: str
    aggregation: str
    settings: Optional[Settings]
    compute: Callable[..., Scores]
    single_reference: bool = False  # the package takes one reference per pair
    needs_punkt: bool = False
    signature_fields: dict = field(default_factory=dict)


def _prf(recall, precision, f) -> dict:
    return {"recall": _num(recall), "precision": _num(precision), "f": _num(f)}


def _num(x):
    return None if x is None else float(x)


def signature_of(measures: Sequence[str], s: Optional[Settings], seed: int = 0, **fields) -> str:
    """rougekit's signature of a row: the option space's fields, or the package's own text handling;
    ``seed`` (numpy's global seed of the draws) is recorded where the numbers depend on it."""
    limit = "none"
    values: dict = dict(measures=",".join(measures), bootstrap="none")
    if s is not None:
        if s.word_limit:
            limit = f"words:{s.word_limit}"
        elif s.byte_limit:
            limit = f"bytes:{s.byte_limit}"
        stemmer = {"none": "none", "porter": "porter", "porter+wordnet": "rouge155"}[s.stemmer]
        if s.tokenizer == "rouge-score" and s.stemmer != "none":
            stemmer = "nltk-porter"
        average = {"mean": "pairs", "tokens": "tokens", "rouge155-average": "rouge155"}.get(s.aggregation)
        values.update(
            tokenizer=s.tokenizer,
            stemmer=stemmer,
            stopwords=s.stopwords,
            limit=limit,
            multi_ref=s.multi_ref,
            average=average or s.aggregation,
        )
        if s.aggregation in ("rouge155-average", "bootstrap-median"):
            values["bootstrap"] = "rouge155" if s.aggregation == "rouge155-average" else "percentile"
        if s.split != "newline":
            values["segmenter"] = f"lcs-sentences-{s.split}"
    values.update(fields)
    if values.get("average") == "bootstrap-median":  # the draws of np.random.seed(seed)
        values["seed"] = str(seed)
    return str(Signature(**values))


# ------------------------------------------------------------------------------ ROUGE-1.5.5.pl


def _api_rows(stem: bool) -> Callable[..., Scores]:
    def compute(candidates, references, measures, **_):
        from rougekit.api import Scorer

        scorer = Scorer(measures, stem=stem, average="rouge155", multi_ref="sum")
        result = scorer.score(candidates, references)
        return {m: _prf(*(result.corpus(m)[k] for k in KEYS)) for m in measures}

    return compute


def _pyrouge(candidates, references, measures, **_):
    """pyrouge 0.1.3's ``convert_and_evaluate`` with its default arguments on folders named as its README
    names them (``system.<i>.txt``, ``model.<A>.<i>.txt``): its evaluations, in its order (the file names
    sorted), each file converted to its SEE HTML, run by :func:`rougekit.compat.pyrouge.run_script`
    in memory (pyrouge's own file handling costs minutes on 35k pairs)."""
    from rougekit.compat.pyrouge import DEFAULT_ROUGE_ARGS, Rouge155, run_script
    from rougekit.io.rouge155_config import Config, Evaluation
    from rougekit.text.rouge155 import sentences_from_lines

    sentences: dict = {}

    def see(path: str, text: str) -> None:
        html = Rouge155.convert_text_to_rouge_format(text).encode("utf-8").split(b"\n")
        sentences[path] = [line + b"\n" for line in html[:-1]] + [html[-1]]

    evaluations: list = []
    for name in sorted(f"system.{i}.txt" for i in range(len(candidates))):
        i = int(name.split(".")[1])
        see(f"system/{name}", candidates[i])
        model_ids = [chr(65 + k) for k in range(len(references[i]))]
        for k, ref in zip(model_ids, references[i]):
            see(f"model/model.{k}.{i}.txt", ref)
        evaluation = Evaluation(
            eval_id=str(len(evaluations) + 1),
            input_format="SEE",
            peer_root="system",
            model_root="model",
            peers={"1": name},
            model_ids=model_ids,
        )
        evaluation.model_files = {k: f"model.{k}.{i}.txt" for k in model_ids}
        evaluations.append(evaluation)
    options = ["-e", "data", *DEFAULT_ROUGE_ARGS.split()]
    output = run_script(
        Config(evaluations, ["1"]), "1", options, lambda path, fmt: sentences_from_lines(sentences[path], fmt)
    )
    scores = Rouge155().output_to_dict(output)
    return {m: _from_output(scores, m) for m in measures}


def _from_output(scores: dict, measure: str) -> dict:
    key = measure.lower().replace("-", "_")
    return _prf(scores[f"{key}_recall"], scores[f"{key}_precision"], scores[f"{key}_f_score"])


def _files2rouge(candidates, references, measures, **_):
    """files2rouge 2.1.0's defaults on a references file and a summaries file, one summary per line."""
    from rougekit.compat import files2rouge
    from rougekit.compat.pyrouge import Rouge155

    orders = [int(m[6:]) for m in measures if m != "ROUGE-L"] or [1]
    options = files2rouge.rouge_arguments(None, max(orders), "ROUGE-L" not in measures)
    lines = [" ".join(r[0].split("\n")) for r in references], [" ".join(c.split("\n")) for c in candidates]
    try:
        texts, _ignored = files2rouge.split_lines(*lines, paths=("reference", "candidate"))
    except InputError as exc:  # files2rouge itself stops on an empty line: its row says so, the table goes on
        raise ValueError(
            f"{str(exc).split('. Use ')[0].replace(': Empty', ': empty')} (files2rouge stops on it; "
            "`rougekit files2rouge --ignore_empty_summary/--ignore_empty_reference` drops such pairs)"
        ) from None
    scores = Rouge155().output_to_dict(files2rouge.evaluate(texts, options))
    return {m: _from_output(scores, m) for m in measures}


# ------------------------------------------------------------------------------ rouge-score family


def _rouge_score(stem: bool, lsum: bool, punkt: bool = False, bootstrap: bool = False):
    def compute(candidates, references, measures, seed=0, cache=None, lang=None, **_):
        from rougekit.compat import rouge_scorer

        types = rouge_score_types(measures, "newline" if lsum else "none")
        if punkt:
            candidates, references = _punkt(candidates, references, cache)
        scorer = rouge_scorer.RougeScorer(types, use_stemmer=stem)
        scores = _per_pair(scorer, candidates, references)
        if bootstrap:
            if cache is not None and "multilingual-rouge" in cache.get("planned", ()):
                # XL-Sum's row draws the same resamples (numpy's global seed, the same types in the
                # same order): both rows' per-pair values are resampled by one set of draws
                try:
                    theirs = _multilingual_scores(candidates, references, measures, lang)
                except PACKAGE_ERRORS:
                    theirs = None  # its row says why when it comes
                if theirs is not None:
                    mine, cache[("multilingual-mids", seed)] = _seeded_mids_together([scores, theirs], seed)
                    return _prf_of_mids(mine, measures, types)
            return _prf_of_mids(_seeded_mids_together([scores], seed)[0], measures, types)
        fields = ("recall", "precision", "fmeasure")
        return {
            m: _prf(*(np.mean([getattr(s[t], k) for s in scores]) for k in fields)) for m, t in zip(measures, types)
        }

    return compute


def _per_pair(scorer, candidates, references) -> list:
    if all(len(refs) == 1 for refs in references):
        return scorer.score_batch([refs[0] for refs in references], candidates)
    return [scorer.score_multi(refs, cand) for cand, refs in zip(candidates, references)]


def _punkt(candidates, references, cache=None):
    """The texts on nltk's Punkt sentences, split once per run (``cache["punkt"]``: the --target
    search's ROUGE-L on Punkt sentences reads the same texts)."""
    from rougekit.variants.space import punkt_lines

    if cache is not None and "punkt" in cache:
        return cache["punkt"]
    out = [punkt_lines(c) for c in candidates], [[punkt_lines(r) for r in refs] for refs in references]
    if cache is not None:
        cache["punkt"] = out
    return out


def _evaluate(lsum: bool):
    def compute(candidates, references, measures, seed=0, cache=None, **_):
        types = rouge_score_types(measures, "newline" if lsum else "none")
        refs = [r[0] for r in references] if all(len(r) == 1 for r in references) else references
        # the bootstrap draws of each type follow those of the types before it: evaluate's own list,
        # which has rougeL and rougeLsum both: one call gives the two rows (``cache``: the same pairs)
        key = ("evaluate", tuple(measures), seed)
        result = (cache or {}).get(key)
        if result is None:
            result = _evaluate_compute(candidates, refs, evaluate_types(measures), seed)
            if cache is not None:
                cache[key] = result
        return {m: _prf(None, None, result[t]) for m, t in zip(measures, types)}

    return compute


def _evaluate_compute(candidates, references, types: list, seed: int) -> dict:
    """``evaluate.load("rouge", seed=seed).compute(predictions=candidates, references=references,
    rouge_types=types)`` as :mod:`rougekit.compat.evaluate` computes it (its input checks, rouge-score's
    per-pair scores unstemmed), the aggregator's draws taken by the shared threaded pass
    (:func:`_seeded_mids_together`: the same draws, the same bits; the row tests hold it to the
    recorded evaluate)."""
    from rougekit.compat import evaluate

    scores = evaluate.per_pair_scores(candidates, references, types)
    assert (evaluate.N_SAMPLES, evaluate.CONFIDENCE) == (1000, 0.95)  # the aggregator's defaults, as below
    mids = _seeded_mids_together([scores], seed)[0]
    return {t: mids[t]["fmeasure"] for t in types}


def evaluate_types(measures: Sequence[str]) -> list:
    """evaluate's default ``rouge_types`` (rouge1, rouge2, rougeL, rougeLsum), with any higher ROUGE-N
    asked for inserted before rougeL (then the call names them: ``rouge_types=[...]``)."""
    orders = sorted({1, 2, *(int(m[6:]) for m in measures if m != "ROUGE-L")})
    return [f"rouge{n}" for n in orders] + ["rougeL", "rougeLsum"]


def _evaluate_call(measures: Sequence[str], seed: int) -> str:
    types = evaluate_types(measures)
    named = "" if types == ["rouge1", "rouge2", "rougeL", "rougeLsum"] else f", rouge_types={types!r}"
    return f"evaluate.load('rouge', seed={seed}).compute(predictions=candidates, references=references{named})"


def _torchmetrics(lsum: bool):
    def compute(candidates, references, measures, **_):
        from rougekit.compat import torchmetrics

        types = rouge_score_types(measures, "punkt" if lsum else "none")
        result = torchmetrics.rouge_score(candidates, [list(r) for r in references], rouge_keys=tuple(types))
        return {
            m: _prf(*(float(result[f"{t}_{k}"]) for k in ("recall", "precision", "fmeasure")))
            for m, t in zip(measures, types)
        }

    return compute


def _pltrdy(candidates, references, measures, **_):
    from rougekit.compat.rouge import Rouge

    names = {m: "rouge-l" if m == "ROUGE-L" else f"rouge-{m[6:]}" for m in measures}
    result = Rouge(metrics=list(names.values())).get_scores(candidates, [r[0] for r in references], avg=True)
    return {m: _prf(result[n]["r"], result[n]["p"], result[n]["f"]) for m, n in names.items()}


def _multilingual_scores(candidates, references, measures, lang) -> list:
    from rougekit.compat import multilingual_rouge

    scorer = multilingual_rouge.RougeScorer(rouge_score_types(measures, "none"), use_stemmer=True, lang=lang)
    return [scorer.score(refs[0], cand) for cand, refs in zip(candidates, references)]


def _multilingual(candidates, references, measures, seed=0, lang=None, cache=None, **_):
    types = rouge_score_types(measures, "none")
    done = (cache or {}).get(("multilingual-mids", seed))
    if done is not None:  # resampled with rouge-score's bootstrap row (the same draws)
        return _prf_of_mids(done, measures, types)
    scores = _multilingual_scores(candidates, references, measures, lang)
    return _prf_of_mids(_seeded_mids_together([scores], seed)[0], measures, types)


# what the replaced packages raise on inputs they cannot score (as rougekit.variants.PACKAGE_ERRORS)
PACKAGE_ERRORS = (ArithmeticError, LookupError, TypeError, ValueError, AttributeError, RecursionError)


def _seeded_mids_together(score_lists: list, seed: int) -> list:
    """For each list of per-pair scores (of the same pairs, the same types in the same order), the
    mid of rouge-score's ``BootstrapAggregator().aggregate()`` after ``np.random.seed(seed)`` as
    that list alone gets it: the draws depend on the seed, the number of pairs and the types'
    order only, so they are drawn once per type and the lists' columns resampled side by side
    (numpy's mean along the pairs adds each column in the same order whatever columns sit beside
    it; the row tests hold each row to the package). ``[{type: (precision, recall, fmeasure)}]``."""
    from rougekit.compat import scoring
    from rougekit.engine.door import available_cores
    from rougekit.variants.space import resample_means  # global_resample_means's draws, on threads

    types = list(score_lists[0][0])
    aggregator = scoring.BootstrapAggregator()
    delta = (1 - aggregator._confidence_interval) / 2
    q = 100 * np.array([delta, 0.5, 1 - delta])
    out: list = [{} for _ in score_lists]
    with scoring.global_seed(seed):
        for t in types:
            matrix = np.hstack([np.vstack(tuple(s[t] for s in scores)) for scores in score_lists])
            means = resample_means(np.ascontiguousarray(matrix), aggregator._n_samples, available_cores())
            mid = np.percentile(means, q, axis=0)[1]
            for k, scores in enumerate(score_lists):
                out[k][t] = dict(zip(scores[0][t]._fields, mid[3 * k : 3 * k + 3]))
    return out


def _prf_of_mids(mids: dict, measures, types) -> Scores:
    return {m: _prf(mids[t]["recall"], mids[t]["precision"], mids[t]["fmeasure"]) for m, t in zip(measures, types)}


# ------------------------------------------------------------------------------ the list


def specs(measures: Sequence[str], lang: Optional[str] = None, seed: int = 0) -> list[Spec]:
    """The rows, in the order the table prints them."""
    rs = rouge_score_types(measures, "none")
    lsum = rouge_score_types(measures, "newline")
    perl_m = perl_options(measures, Settings(stemmer="porter+wordnet"))
    perl = perl_options(measures, Settings())
    mean = "; mean over the pairs of each score (numpy.mean)"
    boot = (
        "agg = scoring.BootstrapAggregator(); [agg.add_scores(s) for s in scores]; "
        f"numpy.random.seed({seed}); agg.aggregate()[t].mid"
    )
    per_pair = "scores = [scorer.score(ref, cand) for cand, ref in zip(candidates, references)]"
    base = Settings(tokenizer="rouge155", split="newline", multi_ref="sum", aggregation="rouge155-average")
    rsb = Settings(tokenizer="rouge-score", split="none", multi_ref="max", aggregation="mean")
    out = [
        Spec(
            "rouge155-m",
            "ROUGE-1.5.5.pl",
            "1.5.5",
            f"ROUGE-1.5.5.pl {perl_m} config.xml  (= rougekit score --stem --average rouge155)",
            "rouge155-average",
            base.replace(stemmer="porter+wordnet"),
            _api_rows(True),
        ),
        Spec(
            "rouge155",
            "ROUGE-1.5.5.pl",
            "1.5.5",
            f"ROUGE-1.5.5.pl {perl} config.xml  (= rougekit score --average rouge155)",
            "rouge155-average",
            base,
            _api_rows(False),
        ),
        Spec(
            "pyrouge",
            "pyrouge",
            "0.1.3",
            "r = Rouge155(); r.system_dir, r.model_dir = 'system', 'model'; "
            "r.system_filename_pattern = r'system.(\\d+).txt'; r.model_filename_pattern = 'model.[A-Z].#ID#.txt'; "
            "r.output_to_dict(r.convert_and_evaluate())  "
            "(runs ROUGE-1.5.5.pl -c 95 -2 -1 -U -r 1000 -n 4 -w 1.2 -a -m)",
            "rouge155-average",
            base.replace(stemmer="porter+wordnet", rounding="round5", order="file-names"),
            _pyrouge,
        ),
        Spec(
            "files2rouge",
            "files2rouge",
            "2.1.0",
            "files2rouge references.txt summaries.txt  (runs ROUGE-1.5.5.pl -c 95 -r 1000 -n 2 -a -m, "
            "Porter without WordNet exceptions, a sentence ending after each ' .')",
            "rouge155-average",
            base.replace(stemmer="porter", split="eos", rounding="round5", order="file-names"),
            _files2rouge,
            single_reference=True,
        ),
        Spec(
            "rouge-score",
            "rouge-score",
            "0.1.2",
            f"scorer = rouge_scorer.RougeScorer({rs!r}); {per_pair}{mean}",
            "mean",
            rsb,
            _rouge_score(False, False),
        ),
        Spec(
            "rouge-score-stem",
            "rouge-score",
            "0.1.2",
            f"scorer = rouge_scorer.RougeScorer({rs!r}, use_stemmer=True); {per_pair}{mean}",
            "mean",
            rsb.replace(stemmer="porter"),
            _rouge_score(True, False),
        ),
        Spec(
            "rouge-score-lsum",
            "rouge-score",
            "0.1.2",
            f"scorer = rouge_scorer.RougeScorer({lsum!r}); {per_pair}{mean}  (sentences: the texts' lines)",
            "mean",
            rsb.replace(split="newline"),
            _rouge_score(False, True),
        ),
        Spec(
            "rouge-score-lsum-stem",
            "rouge-score",
            "0.1.2",
            f"scorer = rouge_scorer.RougeScorer({lsum!r}, use_stemmer=True); {per_pair}{mean}  (sentences: the lines)",
            "mean",
            rsb.replace(stemmer="porter", split="newline"),
            _rouge_score(True, True),
        ),
        Spec(
            "rouge-score-lsum-punkt-stem",
            "rouge-score",
            "0.1.2",
            "texts = ['\\n'.join(nltk.sent_tokenize(t)) for t in texts]  (as Hugging Face's run_summarization.py); "
            f"scorer = rouge_scorer.RougeScorer({lsum!r}, use_stemmer=True); {per_pair}{mean}",
            "mean",
            rsb.replace(stemmer="porter", split="punkt"),
            _rouge_score(True, True, punkt=True),
            needs_punkt=True,
        ),
        Spec(
            "rouge-score-stem-bootstrap",
            "rouge-score",
            "0.1.2",
            f"scorer = rouge_scorer.RougeScorer({rs!r}, use_stemmer=True); {per_pair}; {boot}",
            "bootstrap-median",
            rsb.replace(stemmer="porter", aggregation="bootstrap-median"),
            _rouge_score(True, False, bootstrap=True),
        ),
        Spec(
            "evaluate",
            "evaluate",
            "0.4.6",
            f"{_evaluate_call(measures, seed)}['rougeL']  (F only)",
            "bootstrap-median",
            rsb.replace(aggregation="bootstrap-median"),
            _evaluate(False),
        ),
        Spec(
            "evaluate-lsum",
            "evaluate",
            "0.4.6",
            f"{_evaluate_call(measures, seed)}['rougeLsum']  (F only; sentences: the lines)",
            "bootstrap-median",
            rsb.replace(split="newline", aggregation="bootstrap-median"),
            _evaluate(True),
        ),
        Spec(
            "torchmetrics",
            "torchmetrics",
            "1.9.0",
            "torchmetrics.functional.text.rouge.rouge_score(candidates, references)  "
            "(accumulate='best', float32; rougeL)",
            "mean",
            rsb.replace(precision="float32"),
            _torchmetrics(False),
        ),
        Spec(
            "torchmetrics-lsum",
            "torchmetrics",
            "1.9.0",
            "torchmetrics.functional.text.rouge.rouge_score(candidates, references)  "
            "(accumulate='best', float32; rougeLsum on nltk.sent_tokenize sentences)",
            "mean",
            rsb.replace(split="punkt", precision="float32"),
            _torchmetrics(True),
            needs_punkt=True,
        ),
        Spec(
            "rouge",
            "rouge",
            "1.0.1",
            "Rouge().get_scores(candidates, references, avg=True)  (pltrdy; sentences split on '.')",
            "mean",
            None,
            _pltrdy,
            single_reference=True,
            signature_fields=dict(tokenizer="pltrdy-rouge", average="pairs"),
        ),
        Spec(
            "multilingual-rouge",
            "multilingual-rouge",
            "0.0.1",
            f"scorer = rouge_scorer.RougeScorer({rs!r}, use_stemmer=True, lang={lang!r}); "
            f"scores = [scorer.score(refs[0], cand) ...]; {boot}  (XL-Sum's scorer)",
            "bootstrap-median",
            None,
            _multilingual,
            single_reference=True,
            signature_fields=dict(
                tokenizer=f"multilingual-rouge:{lang or 'default'}",
                stemmer="multilingual-rouge",
                average="bootstrap-median",
                bootstrap="percentile",
            ),
        ),
    ]
    return out
