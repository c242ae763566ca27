"""The planner: which scoring path computes a set of options, decided once per scorer.

The compiled batch engine (``rougekit.engine.batch``) tokenizes, stems and counts in C; it is
used whenever the backend is compiled and it gives exactly the numbers of the readable path
for the options (see ``batch_supported``). Everything else goes through the readable path
(:mod:`rougekit.engine.readable` over the registry's kernels). Front ends reach it through
:func:`rougekit.engine.door.plan` and never look at the backend themselves.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable

from rougekit._core import inputs
from rougekit.engine import backend
from rougekit.engine.batch import SEQUENCE_LCS as SEQUENCE_LCS  # rouge-score's ``rougeL``
from rougekit.engine.batch import BatchScorer
from rougekit.engine.batch import kernel_spec as kernel_spec  # what the engine counts for a measure
from rougekit.engine.options import MULTI_REF

if TYPE_CHECKING:
    from rougekit.engine.options import ScoringOptions


def batch_scorer(
    measures,
    *,
    tokenizer="rouge155",
    stem: bool = False,
    stopwords: bool = False,
    word_limit: int = 0,
    byte_limit: int = 0,
    multi_ref: str = "sum",
    su_unigrams: str = "rouge155",
    wlcs: str = "rouge155",
    alpha: float = 0.5,
    stemmer: str = "rouge155",
    lowercase: str = "ascii",
    to_text: Callable | None = None,
) -> BatchScorer | None:
    """A compiled batch scorer for these measures and options, or None when the readable path must run.

    ``stemmer``/``lowercase``/``to_text`` select rouge-score's text handling for the compat
    scorer (``"nltk"``, ``"unicode"``); the defaults are ROUGE-1.5.5's.
    """
    batch = backend.batch_module()
    if batch is None or not measures:
        return None
    if not batch.batch_supported(
        measures,
        tokenizer=tokenizer,
        word_limit=word_limit,
        byte_limit=byte_limit,
        multi_ref=multi_ref,
        su_unigrams=su_unigrams,
        wlcs=wlcs,
    ):
        return None
    return batch.BatchScorer(
        list(measures),
        stem=stem,
        stopwords=stopwords,
        word_limit=word_limit,
        byte_limit=byte_limit,
        mode=MULTI_REF[multi_ref],
        alpha=alpha,
        stemmer=stemmer,
        lowercase=lowercase,
        to_text=to_text,
        su_unigrams=su_unigrams,
    )


@dataclass(frozen=True)
class Plan:
    """How the R/P/F measures of a set of options are computed.

    ``batch`` is the compiled batch scorer, or None for the readable path. ``feed`` says what it
    is given: ``"text"`` (it tokenizes, stems and limits in C: the rouge155 tokenizer) or
    ``"ids"`` (any other tokenizer: rougekit's Python preprocessor makes the tokens, with
    stemming, stopwords and the word limit, and the engine counts their interned ids).
    """

    batch: BatchScorer | None
    feed: str = "text"


def for_options(options: ScoringOptions) -> Plan:
    """The plan for the R/P/F measures of ``options``."""
    measures = [m for m in options.measures if not m.single_valued]
    common = dict(multi_ref=options.multi_ref, su_unigrams=options.su_unigrams, wlcs=options.wlcs, alpha=options.alpha)
    if isinstance(options.tokenizer, str) and options.tokenizer == "rouge155":
        text = batch_scorer(
            measures,
            stem=options.stem,
            stopwords=options.stopwords,
            word_limit=options.word_limit,
            byte_limit=options.byte_limit,
            to_text=inputs.plain_text,  # a call may leave its summaries to the engine's read (api.Scorer)
            **common,
        )
        return Plan(text, "text")
    return Plan(batch_scorer(measures, **common), "ids")
