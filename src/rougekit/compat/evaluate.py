"""Drop-in for the "rouge" module of Hugging Face ``evaluate`` 0.4.6 (``evaluate.load("rouge")``).

Switch by changing one import::

    # import evaluate
    from rougekit.compat import evaluate

    rouge = evaluate.load("rouge")
    rouge.compute(predictions=["the cat sat"], references=["the cat sat down"])
    # {'rouge1': np.float64(0.857...), 'rouge2': ..., 'rougeL': ..., 'rougeLsum': ...}

``compute(predictions=..., references=..., rouge_types=None, use_aggregator=True,
use_stemmer=False, tokenizer=None)`` returns what evaluate returns, bit for bit: the per-pair
F-measures of rouge-score 0.1.2 (:mod:`rougekit.compat.rouge_scorer`; a list of references per
prediction takes the best F per type, a ``tokenizer`` callable replaces the default tokenizer and
then ``use_stemmer`` has no effect), as lists without the aggregator, or with it the median of
1,000 bootstrap means (rouge-score's ``BootstrapAggregator``), drawn as evaluate draws them:
``load`` keeps a seed taken from numpy's global random state at that moment (or its ``seed=``),
and each ``compute`` seeds numpy's global generator with it, draws as rouge-score draws
(``np.random.choice`` per resample, score types in ``rouge_types`` order) and puts the global
state back. So after ``numpy.random.seed(s)``, ``load`` then ``compute`` give evaluate's very
numbers, and ``compute`` gives the same numbers each time it is called.

These are not ROUGE-1.5.5's numbers (see docs/migrating/evaluate.md): rouge-score tokenizes and
stems differently, and the aggregate is a bootstrap median of F, not the script's average.
"""

from __future__ import annotations

import numpy as np

from rougekit.compat import rouge_scorer, scoring

__all__ = ["load", "Rouge", "ROUGE_TYPES", "per_pair_scores"]

ROUGE_TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
N_SAMPLES = 1000  # rouge-score's BootstrapAggregator defaults
CONFIDENCE = 0.95


def load(path: str = "rouge", *, seed=None, **_ignored) -> Rouge:
    """``evaluate.load("rouge")``: the module object; other names are a ``ValueError``.

    ``seed`` as evaluate's: the numpy seed of every ``compute`` (default: from numpy's global
    state now). Other keyword arguments of ``evaluate.load`` (cache folders, ...) are ignored.
    """
    name = str(path).rstrip("/").rsplit("/", 1)[-1].removesuffix(".py")
    if name != "rouge":
        raise ValueError(f"rougekit.compat.evaluate only provides the 'rouge' module, not {path!r}")
    return Rouge(seed=seed)


class _Tokenizer:
    """A callable wrapped with the ``tokenize`` method rouge-score calls (as evaluate does)."""

    def __init__(self, function):
        self.function = function

    def tokenize(self, text):
        return self.function(text)


class Rouge:
    """The loaded "rouge" module: :meth:`compute` as evaluate 0.4.6's."""

    name = "rouge"

    def __init__(self, seed=None):
        if seed is None:  # as evaluate's EvaluationModule: the current key word of numpy's state
            _, key, pos, *_ = np.random.get_state()
            seed = key[pos] if pos < 624 else key[0]
        self.seed = seed

    def compute(
        self,
        *,
        predictions=None,
        references=None,
        rouge_types=None,
        use_aggregator=True,
        use_stemmer=False,
        tokenizer=None,
    ):
        """ROUGE F-measures: ``{type: float}`` with the aggregator, ``{type: [float per pair]}`` without."""
        scores = per_pair_scores(predictions, references, rouge_types, use_stemmer, tokenizer)
        if not use_aggregator:
            return {key: [score[key].fmeasure for score in scores] for key in scores[0]}
        return _bootstrap_mid_f(scores, self.seed)


def per_pair_scores(predictions, references, rouge_types=None, use_stemmer=False, tokenizer=None) -> list:
    """The per-pair scores behind :meth:`Rouge.compute`: ``[{type: Score(precision, recall, fmeasure)}]``,
    one dict per prediction, after evaluate's input checks (and with its errors).

    Each is rouge-score 0.1.2's :class:`~rougekit.compat.rouge_scorer.RougeScorer` score (reference
    first inside), the best F per type over a row of several references; ``rouge_types`` defaults to
    :data:`ROUGE_TYPES`; a ``tokenizer`` callable replaces the default tokenizer (``use_stemmer`` has
    then no effect). ``compute(use_aggregator=False)`` is the ``fmeasure`` of these; with the
    aggregator, their bootstrap median.

    >>> (first,) = per_pair_scores(["the cat sat"], [["a cat sat", "the cat"]], rouge_types=["rouge1"])
    >>> first["rouge1"].fmeasure
    0.8
    """
    predictions, references, multi_ref = _checked(predictions, references)
    if rouge_types is None:
        rouge_types = list(ROUGE_TYPES)
    if tokenizer is not None:
        tokenizer = _Tokenizer(tokenizer)
    scorer = rouge_scorer.RougeScorer(rouge_types=rouge_types, use_stemmer=use_stemmer, tokenizer=tokenizer)
    if multi_ref:
        return [scorer.score_multi(ref, pred) for ref, pred in zip(references, predictions)]
    return scorer.score_batch(references, predictions)


def _is_row(value) -> bool:
    """Whether ``value`` is a row of several references as evaluate's features read one: a list, a
    tuple, a 1-D numpy array or a Series (anything with ``tolist``, not a string)."""
    if isinstance(value, (list, tuple)):
        return True
    if isinstance(value, np.ndarray):
        return value.ndim == 1
    return not isinstance(value, (str, bytes)) and hasattr(value, "tolist") and hasattr(value, "__len__")


def _checked(predictions, references):
    """The inputs as evaluate's features accept them, with its errors: evaluate infers the features
    from the first item of each list, so an empty list is an IndexError (before any length check) and
    one input left out a TypeError; lists of different lengths or items of the wrong type a ValueError.
    The first item is read by index as evaluate reads it: a pandas Series without the label 0 is
    pandas' KeyError, a generator a TypeError, an empty array the array's IndexError. Rows of several
    references may be lists, tuples, numpy arrays or Series (a 2-D array is rows), as evaluate's
    ``Sequence`` feature reads them."""
    if predictions is None and references is None:
        raise ValueError("Evaluation module inputs are missing: give both predictions and references")
    inputs = {"predictions": predictions, "references": references}
    for name, value in inputs.items():
        # evaluate reads the first item of predictions, then of references, before comparing lengths
        kind = type(value).__name__
        if value is not None and not isinstance(value, (list, tuple)):
            value[0]  # by index, as evaluate does: an array's, a Series', a generator's own error
        if value is not None:
            value = inputs[name] = list(value)
        if not value:
            others = [f"{k} {'is None' if v is None else 'empty'}" for k, v in inputs.items() if k != name and not v]
            also = f"; {others[0]} too" if others else ""
            if value is None:
                raise TypeError(f"'NoneType' object is not subscriptable: {name} is None (give a list){also}")
            raise IndexError(f"{kind} index out of range: {name} empty (nothing to score){also}")
    predictions, references = inputs["predictions"], inputs["references"]
    if len(predictions) != len(references):
        raise ValueError(
            f"Mismatch in the number of predictions ({len(predictions)}) and references ({len(references)})"
        )
    multi_ref = _is_row(references[0])
    for i, (pred, ref) in enumerate(zip(predictions, references)):
        refs = ref if multi_ref else [ref]
        if not isinstance(pred, str) or (multi_ref and not _is_row(ref)) or not all(isinstance(r, str) for r in refs):
            raise ValueError(
                "Predictions and/or references don't match the expected format: each prediction a string, "
                "each reference a string or (in every row) a list of strings; "
                f"row {i}: {type(pred).__name__}, {type(ref).__name__}"
            )
    if multi_ref:
        references = [[str(r) for r in ref] for ref in references]
    return predictions, references, multi_ref


def _bootstrap_mid_f(scores: list, seed) -> dict:
    """The ``mid.fmeasure`` of rouge-score's ``BootstrapAggregator`` of the per-pair ``scores`` (types in
    their order) under evaluate's temporary seed: numpy's global state is put back after the draws."""
    aggregator = scoring.BootstrapAggregator(confidence_interval=CONFIDENCE, n_samples=N_SAMPLES)
    for score in scores:
        aggregator.add_scores(score)
    with scoring.global_seed(seed):
        return {score_type: value.mid.fmeasure for score_type, value in aggregator.aggregate().items()}
