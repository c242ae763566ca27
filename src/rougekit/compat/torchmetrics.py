"""Drop-in for torchmetrics 1.9.0's ROUGE (``torchmetrics.functional.text.rouge.rouge_score``, ``ROUGEScore``).

Switch by changing one import::

    # from torchmetrics.functional.text.rouge import rouge_score
    # from torchmetrics.text.rouge import ROUGEScore
    from rougekit.compat.torchmetrics import ROUGEScore, rouge_score

    rouge_score("My name is John", "Is your name John")["rouge1_fmeasure"]   # tensor(0.7500)

The values are torchmetrics' to the last bit: 0-d float32 tensors when torch can be imported,
Python floats of the same float32 values otherwise (torch is never needed). Per pair and
reference, precision, recall and F are computed in float64 as rouge-score computes them (its
tokens, its NLTK Porter stemmer on tokens longer than 3 characters; :mod:`rougekit.compat.rouge_scorer`)
and kept as float32; ``rougeLsum`` takes the sentences of ``nltk.sent_tokenize`` (Punkt), with
the union LCS. Several references: ``accumulate="best"`` keeps, per key, the reference with the
highest float32 F (the first on ties), ``"avg"`` the float32 mean over the references. The
result is the float32 mean over pairs, summed in torch's order
(:mod:`rougekit.compat._torch_mean`; torch itself when it is importable).

Input shapes as torchmetrics: a string prediction with a list of strings is one prediction with
several references; a list of predictions with a list of strings, one reference each; a string
target is one reference; else ``target`` is a sequence of sequences of references. ``rougeLsum``
needs nltk and its Punkt model (``punkt_tab``), as there: ``ModuleNotFoundError`` without nltk,
``OSError`` when Punkt is neither installed nor downloadable (torchmetrics' messages; like
torchmetrics, it asks nltk to download ``punkt_tab`` first). Where torchmetrics silently drops
input, this returns the very numbers it returns and warns once per call with a
:class:`DroppedInputWarning` naming what was left out: predictions and targets of different
lengths (only the first ``min`` pairs are scored), a prediction without references under
``avg`` (left out of the mean), an unknown ``accumulate`` in ``rouge_score`` (nothing is scored:
NaN everywhere), targets given as a tuple, numpy array or Series of strings (each string read as
one-character references, as torchmetrics reads it: pass a list).
"""

from __future__ import annotations

import importlib.util
import re

import numpy as np

from rougekit.compat import rouge_scorer
from rougekit.compat._dropped import DroppedInputWarning, warn_dropped
from rougekit.compat._porter_nltk import stem as _porter_stem
from rougekit.compat._torch_mean import float32_mean
from rougekit.text.intern import interner

__all__ = ["rouge_score", "ROUGEScore", "ALLOWED_ROUGE_KEYS", "ALLOWED_ACCUMULATE_VALUES", "DroppedInputWarning"]

#: the key names and what they count (compat's one rouge-type parser)
ALLOWED_ROUGE_KEYS: dict = {
    name: rouge_scorer.parse_type(name) for name in (*(f"rouge{n}" for n in range(1, 10)), "rougeL", "rougeLsum")
}
ALLOWED_ACCUMULATE_VALUES = ("avg", "best")
_TYPES = ("fmeasure", "precision", "recall")
_PUNKT_MISSING = (
    "`nltk` resource `punkt` is not available on a disk and cannot be downloaded as a machine is not "
    "connected to the internet."
)


class TextTypeError(TypeError, AttributeError):
    """A prediction or reference that is not a string (torchmetrics fails with an AttributeError)."""


def _warn_dropped(dropped: list, stacklevel: int) -> None:
    """One warning for everything a call left out, as torchmetrics would have (nothing when none)."""
    warn_dropped("torchmetrics 1.9.0", dropped, stacklevel + 1)


# ---------------------------------------------------------------------------------------- torch


def _torch():
    """The torch module, or None when it is not installed (looked up once)."""
    global _TORCH
    if _TORCH is False:
        _TORCH = importlib.import_module("torch") if importlib.util.find_spec("torch") else None
    return _TORCH


_TORCH = False


def _mean(values: np.ndarray):
    """torch's float32 mean of ``values``: a 0-d tensor with torch, else the same value as a float."""
    torch = _torch()
    if torch is None:
        return float(float32_mean(values))
    return torch.from_numpy(np.ascontiguousarray(values, dtype=np.float32)).mean()


def _mean_value(values: np.ndarray) -> np.float32:
    """The float32 mean as a number (for ``avg`` over references)."""
    mean = _mean(values)
    return np.float32(mean.item() if hasattr(mean, "item") else mean)


# ---------------------------------------------------------------------------------------- text


def _split_sentence(text: str) -> list[str]:
    """``nltk.sent_tokenize`` (Punkt), with torchmetrics' errors when nltk or its model is missing."""
    try:
        import nltk
    except ImportError:
        raise ModuleNotFoundError(
            "ROUGE-Lsum calculation requires that `nltk` is installed. Use `pip install nltk`."
        ) from None
    try:
        nltk.data.find("tokenizers/punkt_tab")
    except LookupError:
        try:  # as torchmetrics: ask nltk for it
            nltk.download("punkt_tab", quiet=True, force=False, halt_on_error=False, raise_on_error=True)
        except ValueError as err:
            raise OSError(_PUNKT_MISSING + " (install it with: python -m nltk.downloader punkt_tab)") from err
    return nltk.sent_tokenize(text)


class _Tokenizer:
    """torchmetrics' ``_normalize_and_tokenize_text`` with a user's normalizer and/or tokenizer."""

    def __init__(self, use_stemmer, normalizer, tokenizer):
        self.use_stemmer, self.normalizer, self.tokenizer = use_stemmer, normalizer, tokenizer

    def tokenize(self, text):
        if callable(self.normalizer):
            text = self.normalizer(text)
        else:
            text = re.sub(r"[^a-z0-9]+", " ", text.lower())
        tokens = self.tokenizer(text) if callable(self.tokenizer) else re.split(r"\s+", text)
        if self.use_stemmer:
            tokens = [_porter_stem(x) if len(x) > 3 else x for x in tokens]
        return [x for x in tokens if isinstance(x, str) and len(x) > 0]


# ---------------------------------------------------------------------------------------- scores


def _strings(target) -> bool:
    """A non-empty sized sequence (tuple, numpy array, Series) whose items are all strings."""
    try:
        return len(target) > 0 and all(isinstance(t, str) for t in target)
    except TypeError:
        return False


def _shaped(preds, target, dropped: list):
    """torchmetrics' input-shape rules: (predictions, references of each prediction).

    What torchmetrics leaves out is said in ``dropped`` (a list of messages).
    """
    if isinstance(target, list) and all(isinstance(tgt, str) for tgt in target):
        target = [target] if isinstance(preds, str) else [[tgt] for tgt in target]
    elif not isinstance(target, str) and _strings(target):
        kind = type(target).__name__
        dropped.append(
            f"the targets are a {kind} of strings, not a list: each string is read as a sequence of one-character "
            "references, so its words are not matched (pass a list: one reference each)"
        )
    if isinstance(preds, str):
        preds = [preds]
    if isinstance(target, str):
        target = [[target]]
    preds, target = list(preds), list(target)
    if len(preds) != len(target):  # torchmetrics zips them: the longer one is cut
        n = min(len(preds), len(target))
        longer = "predictions" if len(preds) > n else "targets"
        dropped.append(
            f"{len(preds)} predictions but {len(target)} targets: only the first {n} pairs are scored, "
            f"{longer} {n} to {max(len(preds), len(target)) - 1} (counted from 0) are not"
        )
        preds, target = preds[:n], target[:n]
    target = [list(refs) for refs in target]
    for i, (pred, refs) in enumerate(zip(preds, target)):
        for what, text in (("prediction", pred), *(("reference", r) for r in refs)):
            if not isinstance(text, str):
                raise TextTypeError(f"{what} of pair {i} is {type(text).__name__}, not a string")
    return preds, target


def _pair_scores(preds, target, keys, use_stemmer, normalizer, tokenizer) -> dict:
    """``{key: float64 array [pairs * refs, 3]}`` of (F, P, R), the references of each pair in a row."""
    custom = callable(normalizer) or callable(tokenizer)
    token_maker = _Tokenizer(use_stemmer, normalizer, tokenizer) if custom else None
    flat_preds = [pred for pred, refs in zip(preds, target) for _ in refs]
    flat_refs = [ref for refs in target for ref in refs]
    names = [f"rouge{k}" for k in keys if k != "Lsum"]
    out = {}
    if names:
        scorer = rouge_scorer.RougeScorer(names, use_stemmer=use_stemmer, tokenizer=token_maker)
        scores = scorer.score_batch(flat_refs, flat_preds)
        for key in keys:
            if key != "Lsum":
                column = [s[f"rouge{key}"] for s in scores]
                out[key] = np.array([(s.fmeasure, s.precision, s.recall) for s in column], dtype=np.float64)
    if "Lsum" in keys:
        out["Lsum"] = _lsum_scores(flat_preds, flat_refs, token_maker or rouge_scorer.DefaultTokenizer(use_stemmer))
    return out


def _lsum_scores(flat_preds, flat_refs, token_maker) -> np.ndarray:
    """rougeLsum per (prediction, reference): Punkt sentences, then rouge-score's summary-level LCS."""
    number = interner({}, skip_empty=False)
    sentences: dict = {}

    def ids(text):
        if text not in sentences:
            sents = [token_maker.tokenize(s) for s in _split_sentence(text)]
            sentences[text] = [number(s) for s in sents if s]
        return sentences[text]

    rows = []
    for pred, ref in zip(flat_preds, flat_refs):
        score = rouge_scorer.summary_lcs_score(ids(ref), ids(pred))
        rows.append((score.fmeasure, score.precision, score.recall))
    return np.array(rows, dtype=np.float64).reshape(len(rows), 3)


def _accumulated(preds, target, keys_values, accumulate, use_stemmer, normalizer, tokenizer, dropped) -> dict:
    """``{output name: float32 values}``: per pair (and per repeat of a repeated key) as torchmetrics lists them.

    Pairs torchmetrics leaves out (no reference under ``avg``; every pair under an unknown
    ``accumulate``) are left out here too and said in ``dropped``.
    """
    if accumulate not in ALLOWED_ACCUMULATE_VALUES and preds:
        dropped.append(f"all {len(preds)} pairs: unknown accumulate {accumulate!r} (every value is NaN)")
    empty = [i for i, refs in enumerate(target) if not refs]
    if accumulate == "avg" and empty:
        dropped.append(f"{len(empty)} predictions without references under accumulate='avg' (pairs {_listed(empty)})")
    unique = list(dict.fromkeys(keys_values))
    repeats = {k: keys_values.count(k) for k in unique}
    scores = _pair_scores(preds, target, unique, use_stemmer, normalizer, tokenizer) if preds else {}
    counts = [len(refs) for refs in target]
    starts = np.concatenate([[0], np.cumsum(counts)]).astype(int)
    output = {f"rouge{k}_{tp}": [] for k in keys_values for tp in _TYPES}
    for key in unique:
        values = scores[key].astype(np.float32) if preds else np.zeros((0, 3), np.float32)
        per_pair = []
        for i, count in enumerate(counts):
            rows = values[starts[i] : starts[i] + count]
            if count == 0 and accumulate == "best":
                raise IndexError(f"prediction {i} has no reference (torchmetrics: argmax of an empty tensor)")
            if accumulate == "best":
                per_pair.append(rows[int(np.argmax(rows[:, 0]))])
            elif accumulate == "avg" and count:  # the mean over the references, each listed once per repeat of the key
                repeated = np.repeat(rows, repeats[key], axis=0)
                per_pair.append(np.array([_mean_value(repeated[:, j]) for j in range(3)], dtype=np.float32))
        table = np.repeat(np.array(per_pair, dtype=np.float32).reshape(-1, 3), repeats[key], axis=0)
        for j, tp in enumerate(_TYPES):
            output[f"rouge{key}_{tp}"] = table[:, j]
    return output


def _listed(indices: list) -> str:
    """``0, 4, 9`` (the first ten, then ``...``)."""
    return ", ".join(map(str, indices[:10])) + (", ..." if len(indices) > 10 else "")


def _check_keys(rouge_keys, shown) -> list:
    if not isinstance(rouge_keys, tuple):
        rouge_keys = (rouge_keys,)
    for key in rouge_keys:
        if key not in ALLOWED_ROUGE_KEYS:
            raise ValueError(f"Got unknown rouge key {key}. Expected to be one of {shown}")
    return [ALLOWED_ROUGE_KEYS[key] for key in rouge_keys]


def _check_accumulate(accumulate) -> None:
    if accumulate not in ALLOWED_ACCUMULATE_VALUES:
        raise ValueError(
            f"Got unknown accumulate value {accumulate}. Expected to be one of {ALLOWED_ACCUMULATE_VALUES}"
        )


def rouge_score(
    preds,
    target,
    accumulate: str = "best",
    use_stemmer: bool = False,
    normalizer=None,
    tokenizer=None,
    rouge_keys=("rouge1", "rouge2", "rougeL", "rougeLsum"),
) -> dict:
    """torchmetrics' ``rouge_score``: ``{"rouge1_fmeasure": mean, "rouge1_precision": ..., ...}``.

    Keys: ``rouge1`` .. ``rouge9``, ``rougeL``, ``rougeLsum``; ``accumulate``: ``"best"`` or ``"avg"``.
    ``normalizer`` (str -> str) replaces lower-casing and the ``[^a-z0-9]`` clean-up,
    ``tokenizer`` (str -> tokens) the split on white space.
    """
    keys_values = _check_keys(rouge_keys, list(ALLOWED_ROUGE_KEYS))
    dropped: list = []
    preds, target = _shaped(preds, target, dropped)
    output = _accumulated(preds, target, keys_values, accumulate, use_stemmer, normalizer, tokenizer, dropped)
    _warn_dropped(dropped, stacklevel=2)
    return {name: _mean(values) for name, values in output.items()}


class ROUGEScore:
    """torchmetrics' ``ROUGEScore``: ``update(preds, target)``, ``compute()``, ``reset()``, and calling it.

    Calling (``forward``) adds the batch and returns the batch's own scores. Other keyword
    arguments of torchmetrics' ``Metric`` (distributed sync, devices) are accepted and ignored.
    """

    def __init__(
        self,
        use_stemmer: bool = False,
        normalizer=None,
        tokenizer=None,
        accumulate: str = "best",
        rouge_keys=("rouge1", "rouge2", "rougeL", "rougeLsum"),
        **kwargs,
    ):
        if "rougeLsum" in rouge_keys and importlib.util.find_spec("nltk") is None:
            raise ModuleNotFoundError(
                "Stemmer and/or `rougeLsum` requires that `nltk` is installed. Use `pip install nltk`."
            )
        self.rouge_keys_values = _check_keys(rouge_keys, ALLOWED_ROUGE_KEYS)
        _check_accumulate(accumulate)
        self.rouge_keys = rouge_keys if isinstance(rouge_keys, tuple) else (rouge_keys,)
        self.use_stemmer, self.normalizer, self.tokenizer, self.accumulate = (
            use_stemmer,
            normalizer,
            tokenizer,
            accumulate,
        )
        self.reset()

    def _batch(self, preds, target) -> dict:
        dropped: list = []
        preds, target = _shaped(preds, target, dropped)
        args = (self.accumulate, self.use_stemmer, self.normalizer, self.tokenizer, dropped)
        batch = _accumulated(preds, target, self.rouge_keys_values, *args)
        _warn_dropped(dropped, stacklevel=3)
        return batch

    def update(self, preds, target) -> None:
        """Add a batch of predictions and their references."""
        for name, values in self._batch(preds, target).items():
            self._state[name].append(values)

    def compute(self) -> dict:
        """The float32 means over every pair added since the last :meth:`reset` (NaN before any)."""
        return {name: _mean(np.concatenate(parts)) for name, parts in self._state.items()}

    def reset(self) -> None:
        """Forget the pairs added so far."""
        self._state = {f"rouge{k}_{tp}": [np.zeros(0, np.float32)] for k in self.rouge_keys_values for tp in _TYPES}

    def forward(self, preds, target) -> dict:
        """Add the batch and return its own scores (torchmetrics' ``metric(preds, target)``)."""
        batch = self._batch(preds, target)
        for name, values in batch.items():
            self._state[name].append(values)
        return {name: _mean(values) for name, values in batch.items()}

    __call__ = forward
