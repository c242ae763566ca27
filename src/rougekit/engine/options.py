"""Every option that changes a number, in one checked, immutable object.

Front ends build a :class:`ScoringOptions`; the planner picks the scoring path from it and the
signature is derived from it. The comment after each field names the ROUGE-1.5.5 flag it mirrors.

>>> o = ScoringOptions.build(["ROUGE-1", "rouge-l"], stem=True)
>>> [m.name for m in o.measures], o.stem, o.multi_ref
(['ROUGE-1', 'ROUGE-L'], True, 'sum')
"""

from __future__ import annotations

import operator
from dataclasses import dataclass
from typing import Callable, Union

from rougekit import limits
from rougekit._core.inputs import MAX_ID
from rougekit.errors import OptionError
from rougekit.measures import Measure
from rougekit.text.tokenizers import tokenizer_name

#: multi-reference rules and the script's -f letter each mirrors ("J": the paper's jackknife; "M":
#: the best F over the references, as rouge-score's score_multi, not in the script)
MULTI_REF = {"sum": "A", "best": "B", "max": "M", "jackknife": "J"}
TOKENIZERS = ("rouge155", "unicode", "cjk")
Tokenizer = Union[str, Callable[[str], list]]


def as_measures(measures) -> tuple[Measure, ...]:
    """Measures from names or :class:`Measure` values (one name or a sequence); at least one."""
    if isinstance(measures, (str, Measure)):
        measures = [measures]
    out = tuple(m if isinstance(m, Measure) else Measure.parse(m) for m in measures)
    for m in out:
        m.family.check(m)  # a Measure built directly: the same ranges as a parsed name
    # a measure named twice (ROUGE-1,rouge-1) is scored once, where it first appears
    first: dict[str, Measure] = {}
    for m in out:
        first.setdefault(m.name, m)
    out = tuple(first.values())
    if not out:
        raise OptionError("give at least one measure")
    return out


def _choice(name: str, value, allowed) -> None:
    if value not in allowed:
        shown = ", ".join(repr(a) if a is None else str(a) for a in allowed)
        raise OptionError(f"{name} must be one of {shown}, got {value!r}")


def token_ids_option(value) -> tuple[int, ...]:
    """``ignore_ids`` as a sorted tuple of distinct ints: None (none), one int, or a collection of ints
    (a list, set, tuple, 1-d integer array or tensor), each a token id from 0 to 2**31-1 (``OptionError``)."""
    if value is None:
        return ()
    if _token_id(value) is not None:
        value = (value,)
    elif isinstance(value, (str, bytes)) or not hasattr(value, "__iter__"):
        raise OptionError(f"ignore_ids must be a token id (an int) or a collection of them, got {value!r:.60}")
    out = set()
    for v in value:
        i = _token_id(v)
        if i is None:
            raise OptionError(f"ignore_ids must hold token ids (ints), got {v!r:.60}")
        if not 0 <= i <= MAX_ID:
            raise OptionError(f"ignore_ids: token id {i} is out of range (0 to 2**31-1)")
        out.add(i)
    return tuple(sorted(out))


def _token_id(v) -> int | None:
    """An int, an integer scalar (numpy's, a 0-d integer tensor) as an int; None for anything else (a bool too)."""
    if isinstance(v, (bool, str, bytes)) or type(v).__name__ == "bool_":
        return None
    try:
        return operator.index(v)
    except TypeError:
        return None


@dataclass(frozen=True)
class ScoringOptions:
    """What to compute. Use :meth:`build` to create one from user input (it checks every value)."""

    measures: tuple[Measure, ...]
    stem: bool = False  # -m: WordNet exceptions + the script's Porter
    stopwords: bool = False  # -s: drop the SMART stopwords
    word_limit: int = 0  # -l
    byte_limit: int = 0  # -b
    multi_ref: str = "sum"  # -f A (sum), -f B (best); max: best F (score_multi); jackknife: the paper
    alpha: float = 0.5  # -p
    average: str = "pairs"  # mean of per-pair scores, -t 1 (tokens), or the script's -t 0 bootstrap (rouge155)
    tokenizer: Tokenizer = "rouge155"  # the script's tokens, or unicode / cjk / a callable
    su_unigrams: str = "rouge155"  # ROUGE-SU unigrams: the script's, or "all" (the paper's marker)
    wlcs: str = "rouge155"  # ROUGE-W: the script's, or "paper" (Lin 2004, eq. 13-15)
    bootstrap: str | None = "rouge155"  # -r/-c: the script's seeded bootstrap, "percentile" or None
    resamples: int = 1000  # -r
    confidence: float = 95.0  # -c
    seed: int = 0  # the percentile bootstrap's seed
    hori_units: str = "word"  # units of Hori et al.'s measures: "word" or "sentence"
    lang: str | None = None  # a language preset (ISO 639-1 code): tokenizer, segmenter, stemmer, stopwords
    ignore_ids: tuple[int, ...] = ()  # token ids dropped from every token-id summary (padding, EOS), sorted

    @classmethod
    def build(cls, measures, **options) -> "ScoringOptions":
        """Check and normalise user options (names, ranges, combinations); raises OptionError.

        ``lang`` (a code or XL-Sum name) becomes its ISO code and sets the tokenizer of its preset;
        ``tokenizer=None`` is ROUGE-1.5.5's unless a language says otherwise.
        """
        lang, tokenizer = options.get("lang"), options.get("tokenizer")
        if lang is not None:
            from rougekit.text import presets

            if tokenizer is not None:
                raise OptionError("give lang= or tokenizer=, not both (a language preset sets the tokenizer)")
            found = presets.preset(lang)
            presets.check(found.code, options.get("stem", False), options.get("stopwords", False))
            options.update(lang=found.code, tokenizer=found.tokenizer, stem=bool(options.get("stem")) and found.stems)
        elif tokenizer is None:
            options["tokenizer"] = "rouge155"
        if "ignore_ids" in options:
            options["ignore_ids"] = token_ids_option(options["ignore_ids"])
        made = cls(as_measures(measures), **options)
        made.check()
        return made

    def check(self) -> None:
        for m in self.measures:
            if m.kind == "BE":  # its keys are read from BE files by rouge155 only: elsewhere it would score 0
                raise OptionError(
                    f"{m.name} is scored only by `rougekit rouge155 -3 {m.be_mode}` (Basic Elements are read from "
                    "files of HEAD|MODIFIER|RELATION lines), not from summaries' text"
                )
        _choice("multi_ref", self.multi_ref, tuple(MULTI_REF))
        _choice("average", self.average, ("pairs", "tokens", "rouge155"))
        if self.average == "rouge155" and self.bootstrap != "rouge155":
            raise OptionError("average='rouge155' needs bootstrap='rouge155' (the script's resampling)")
        if self.average == "tokens" and self.multi_ref == "jackknife":
            # the jackknife is a mean of per-reference-set scores: it has no counts to sum (they would be -f A's)
            raise OptionError(
                "average='tokens' (-t 1) sums each pair's counts, and multi_ref='jackknife' has none (it averages "
                "scores): use average='pairs' or 'rouge155' with the jackknife, or multi_ref='sum' with tokens"
            )
        _choice("su_unigrams", self.su_unigrams, ("rouge155", "all"))
        _choice("wlcs", self.wlcs, ("rouge155", "paper"))
        _choice("bootstrap", self.bootstrap, ("rouge155", "percentile", None))
        _choice("hori_units", self.hori_units, ("word", "sentence"))
        if isinstance(self.tokenizer, str):
            _choice("tokenizer", self.tokenizer, TOKENIZERS)
        elif not callable(self.tokenizer):
            raise OptionError(f"tokenizer must be one of {', '.join(TOKENIZERS)} or a callable")
        if not 0 <= self.alpha <= 1:
            raise OptionError(f"alpha must be within 0 and 1, got {self.alpha!r}")
        if self.word_limit and self.byte_limit:
            raise OptionError("give word_limit or byte_limit, not both (as ROUGE-1.5.5's -l and -b)")
        limits.whole("word_limit", self.word_limit, 0, limits.MAX_LENGTH_LIMIT)
        limits.whole("byte_limit", self.byte_limit, 0, limits.MAX_LENGTH_LIMIT)
        if self.byte_limit and self.tokenizer != "rouge155":
            raise OptionError("byte_limit is defined only for the rouge155 tokenizer")
        if self.bootstrap:  # a single resample or a 0 % / 100 % level would give a degenerate interval
            limits.whole("resamples", self.resamples, 2, limits.MAX_RESAMPLES)
            limits.fraction("confidence", self.confidence, 0, 100, open_ends=True)
        limits.whole("seed", self.seed, 0, limits.MAX_SEED)
        if self.ignore_ids != token_ids_option(self.ignore_ids):
            raise OptionError("ignore_ids must be a sorted tuple of distinct token ids (use ScoringOptions.build)")

    @property
    def mode(self) -> str:
        """The multi-reference rule as the script's -f letter (``J`` for the jackknife)."""
        return MULTI_REF[self.multi_ref]

    @property
    def tokenizer_name(self) -> str:
        return tokenizer_name(self.tokenizer)

    @property
    def limit(self) -> str:
        """``none``, ``words:N`` or ``bytes:N`` (as the signature writes it)."""
        if self.word_limit:
            return f"words:{self.word_limit}"
        return f"bytes:{self.byte_limit}" if self.byte_limit else "none"
