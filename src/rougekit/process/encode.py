"""Texts to interned token ids, once, through the engine's tokenizers.

An :class:`Encoder` holds one vocabulary, so every text it encodes (queries and choices, or the
blocks of a long run) shares the same ids. ``measure="rougeL"`` is rouge-score's ``rougeL``: its
tokenizer (lower-case, ``[a-z0-9]+`` runs; ``stem=True`` is its ``use_stemmer``, NLTK's Porter)
unless ``tokenizer=`` asks for one of rougekit's. Any other measure is a rougekit measure
(``"ROUGE-L"``, ``"ROUGE-2"``, ...) and takes every option of :func:`rougekit.score`.

>>> enc = Encoder("rougeL")
>>> e = enc.encode(["The cat sat.", "the cat!"])
>>> e.lengths.tolist()
[3, 2]
"""

from __future__ import annotations

import warnings
from array import array
from dataclasses import dataclass

import numpy as np

from rougekit.api import Scorer, check_keywords
from rougekit.compat._tokenize import lowered_text, tokenize
from rougekit.engine.door import SEQUENCE_LCS, inputs, plan
from rougekit.errors import EmptyTokensWarning, InputError, OptionError, caller_stacklevel
from rougekit.measures import Measure
from rougekit.text.intern import Vocabulary

#: rouge-score's rougeL: the LCS of the whole token sequences, F = 2PR / (P + R)
ROUGE_SCORE_L = "rougeL"
_ROUGE_SCORE_OTHERS = ("rouge1", "rouge2", "rougeLsum")


@dataclass(frozen=True)
class Encoded:
    """Texts as token ids in CSR form: text ``i`` is ``ids[off[i]:off[i + 1]]``.

    ``sentences[i]`` is its number of sentences (rougekit measures), for the checks of the LCS path.
    """

    ids: np.ndarray  # int32
    off: np.ndarray  # int64, len(texts) + 1
    sentences: np.ndarray  # int32

    def __len__(self) -> int:
        return len(self.off) - 1

    @property
    def lengths(self) -> np.ndarray:
        return np.diff(self.off)

    @property
    def vocab(self) -> int:
        """One more than the largest id (0 when there is none)."""
        return int(self.ids.max()) + 1 if len(self.ids) else 0

    def text(self, i: int) -> np.ndarray:
        return self.ids[self.off[i] : self.off[i + 1]]

    def take(self, index) -> "Encoded":
        """The texts at ``index`` (in that order)."""
        index = np.asarray(index, dtype=np.int64)
        lengths = self.lengths[index]
        off = np.zeros(len(index) + 1, dtype=np.int64)
        np.cumsum(lengths, out=off[1:])
        pieces = [self.ids[self.off[i] : self.off[i + 1]] for i in index.tolist()]
        ids = np.concatenate(pieces).astype(np.int32, copy=False) if pieces else np.zeros(0, np.int32)
        return Encoded(ids, off, self.sentences[index])

    def slice(self, start: int, stop: int) -> "Encoded":
        """Texts ``start:stop`` (their ids are a view)."""
        off = self.off[start : stop + 1]
        return Encoded(self.ids[off[0] : off[-1]], off - off[0], self.sentences[start:stop])


def parse_measure(measure) -> str | Measure:
    """``"rougeL"`` (rouge-score's) or a rougekit :class:`Measure`; ``OptionError`` otherwise."""
    if isinstance(measure, Measure):
        return measure
    if not isinstance(measure, str):
        raise OptionError(f"measure must be a name such as 'rougeL' or 'ROUGE-L', got {measure!r}")
    if measure == ROUGE_SCORE_L:
        return ROUGE_SCORE_L
    if measure in _ROUGE_SCORE_OTHERS:
        raise OptionError(f"measure {measure!r}: of rouge-score's names only 'rougeL' is supported; use ROUGE-N")
    return Measure.parse(measure)


def measure_name(measure: str | Measure) -> str:
    return measure if isinstance(measure, str) else measure.name


def check_texts(texts, where: str) -> list:
    """The texts as a list: str (or a list of sentence strings for rougekit measures), none blank."""
    texts = inputs.summaries(texts, where)  # any container a list means (numpy, pandas, polars, ...)
    for i, text in enumerate(texts):
        if isinstance(text, str):
            blank = not text.strip()
        elif isinstance(text, (list, tuple)) and all(isinstance(s, str) for s in text):
            blank = not "".join(text).strip()
        else:
            hint = " (a missing value: drop those rows first; a text must not be blank)" * inputs.missing(text)
            raise TypeError(f"{where}[{i}]: expected a text (str), got {type(text).__name__}{hint}")
        if blank:
            raise InputError(f"{where}[{i}] is empty: give non-blank texts (remove or fill the empty ones)")
    return texts


# options of rougekit.score that do nothing here, refused by name (they were taken and ignored, silently):
# the intervals' (a pair's scorer has none) and ignore_ids (texts only, never token ids)
NOT_HERE = ("bootstrap", "resamples", "confidence", "seed", "ignore_ids")


class Encoder:
    """Tokenizes texts to interned ids for one measure and its options (one shared vocabulary)."""

    def __init__(self, measure="rougeL", **options):
        check_keywords(options, "rougekit.process.Encoder", named=("measure",), refused=NOT_HERE)
        self.measure = parse_measure(measure)
        self.options = dict(options)
        self._vocab = Vocabulary()
        self._batch = None
        self._scorer = None
        self._rouge_score = self.measure == ROUGE_SCORE_L and options.get("tokenizer") in (None, "rouge-score")
        self._wordless = [0, 0, ""]  # rougeL: texts with letters but no token, texts read, the first such
        if self._rouge_score:
            unknown = set(options) - {"stem", "tokenizer"}
            if unknown:  # (lang sets the tokenizer itself: only another measure takes it)
                key = sorted(unknown)[0]
                raise OptionError(
                    f"option {key!r} applies to rougekit's measures, not to rouge-score's rougeL (a-z and 0-9 "
                    "tokens): give measure='ROUGE-L' (or 'ROUGE-1', 'ROUGE-2', ...) with it"
                    + ("" if key == "lang" else ", or a rougekit tokenizer= for rougeL")
                )
            self.stem = bool(options.get("stem", False))
            self._batch = plan(
                [SEQUENCE_LCS], stem=self.stem, stemmer="nltk", lowercase="unicode", to_text=_rouge_score_text
            ).batch
        else:
            options = {k: v for k, v in options.items() if k != "tokenizer" or v != "rouge-score"}
            name = "ROUGE-L" if self.measure == ROUGE_SCORE_L else self.measure
            self._scorer = Scorer([name], bootstrap=None, **options)

    def warn_unread(self, texts: list) -> None:
        """Say once, with their counts, which of the texts a run scores the tokenizer cannot read (words
        with no token, letters dropped: :meth:`rougekit.Scorer.warn_unread`); the pair-by-pair scoring
        after it does not say it again (each call would count only its own pairs). Nothing for
        rouge-score's rougeL (its tokenizer, as the package reads text)."""
        if self._scorer is not None:
            self._scorer.warn_unread(texts, [[]] * len(texts), once=True)

    def say_wordless(self) -> None:
        """Say (once, for every text encoded so far) how many texts rouge-score's tokenizer (measure
        ``rougeL``: a-z and 0-9 only) left with no token though they hold letters: Chinese, Arabic, Russian
        ... score 0 against every text, so they are never found as near-duplicates."""
        wordless, read, example = self._wordless
        self._wordless = [0, 0, ""]
        if not wordless:
            return
        shown = example if len(example) <= 40 else example[:37] + "..."
        text = (
            f"{wordless} of {read} texts have letters but no tokens under rouge-score's tokenizer (measure 'rougeL' "
            f"keeps a-z and 0-9 only; e.g. {shown!r}), so they score 0 against every text"
        )
        warnings.warn(
            EmptyTokensWarning(
                f"{text}: use measure='ROUGE-L' with lang= (their language), or tokenizer='unicode'",
                f"{text}: use --measure ROUGE-L --lang LANG (their language)",
            ),
            stacklevel=caller_stacklevel(),
        )

    @property
    def scorer(self):
        """The :class:`rougekit.Scorer` of a rougekit measure (None for rouge-score's rougeL)."""
        return self._scorer

    def tokens(self, text) -> tuple[list[int], int]:
        """(ids, sentences) of one text."""
        if self._rouge_score:
            if isinstance(text, str) and not text.isascii():  # a lone surrogate (no UTF-8 form) is refused
                text.encode("utf-8", "surrogateescape")  # (an escaped byte is read, as from a file)
            ids = self._batch.tokens(text) if self._batch is not None else self._vocab.ids(tokenize(text, self.stem))
            self._wordless[1] += 1
            if not ids and isinstance(text, str) and not text.isascii() and any(ch.isalpha() for ch in text):
                self._wordless[0] += 1
                self._wordless[2] = self._wordless[2] or text
            return ids, 1
        doc = self._scorer.doc(text)
        return [t for s in doc.sentences for t in s], len(doc.sentences)

    def encode(self, texts, where: str = "texts") -> Encoded:
        """Encode a list of texts (``where`` names them in errors)."""
        texts = check_texts(texts, where)
        lengths = np.zeros(len(texts) + 1, dtype=np.int64)
        sentences = np.zeros(len(texts), dtype=np.int32)
        flat = array("i")  # 4 bytes an id (a list of Python ints held ~36, ~700 bytes a text at 1M texts)
        for i, text in enumerate(texts):
            if self._rouge_score and not isinstance(text, str):
                raise TypeError(f"{where}[{i}]: measure 'rougeL' (rouge-score's) takes a str, not a list of sentences")
            try:
                ids, sentences[i] = self.tokens(text)
            except UnicodeEncodeError:  # a lone surrogate not escaping a byte: no UTF-8 for it
                raise InputError(
                    f"{where}: text {i + 1} is not valid Unicode (a lone surrogate such as '\\ud800')"
                ) from None
            flat.extend(ids)
            lengths[i + 1] = len(ids)
        ids = np.frombuffer(flat, dtype=np.intc).astype(np.int32, copy=False) if flat else np.zeros(0, np.int32)
        return Encoded(ids, np.cumsum(lengths), sentences)


def _rouge_score_text(text) -> str:
    return lowered_text(text)


def rank_by_frequency(*encoded: Encoded, vocab: int | None = None) -> np.ndarray:
    """A token order for the prefix index: rarest first (ties by id), as int32 ranks per id."""
    vocab = max([vocab or 0] + [e.vocab for e in encoded])
    counts = np.zeros(vocab, dtype=np.int64)
    for e in encoded:
        counts += np.bincount(e.ids, minlength=vocab)[:vocab]
    order = np.argsort(counts, kind="stable")
    rank = np.empty(vocab, dtype=np.int32)
    rank[order] = np.arange(vocab, dtype=np.int32)
    return rank
