"""``cdist``, ``extract``, ``extract_one`` and ``dedup``: ROUGE over all pairs of two lists of texts.

Fast path: ``measure="rougeL"`` (rouge-score's rougeL) on the compiled LCS kernels with exact
pruning, and ``"ROUGE-L"`` when every text is one sentence (the LCS kernels give the hits, the
engine's formula the rounded R/P/F). Any other measure or text is scored pair by pair through
:class:`rougekit.Scorer` (the same numbers as :func:`rougekit.score`, no pruning).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, NamedTuple

import numpy as np

from rougekit.api import check_keywords
from rougekit.engine.door import final_scores, inputs
from rougekit.errors import OptionError

from . import nearest
from .blocks import STATS, Greedy, cdist_block, check_threshold, greedy_from_pairs, workers_count
from .encode import NOT_HERE, ROUGE_SCORE_L, Encoded, Encoder, check_texts, measure_name, rank_by_frequency

_FEED_BLOCK = 1024  # texts per Greedy.feed call (the progress bar's step)
_ROUGE155_STATS = ("f", "precision", "recall")


def _is_sequence_lcs(encoder: Encoder, *encoded: Encoded) -> bool:
    """ROUGE-L of rougekit on one-sentence texts: its hits are the plain LCS (the union of one LCS)."""
    m = encoder.measure
    return m != ROUGE_SCORE_L and m.kind == "L" and all(int(e.sentences.max(initial=0)) <= 1 for e in encoded)


def _rouge155_from_hits(hits: np.ndarray, q_len: np.ndarray, c_len: np.ndarray, stat: str, alpha: float) -> np.ndarray:
    """ROUGE-L R/P/F of LCS ``hits`` (query = candidate, choice = reference), as :func:`rougekit.score`
    rounds them: each distinct (hits, candidate length, reference length) through ``final_scores``."""
    lq = np.broadcast_to(q_len[:, None], hits.shape).astype(np.int64)
    lc = np.broadcast_to(c_len[None, :], hits.shape).astype(np.int64)
    big = int(max(lq.max(initial=0), lc.max(initial=0))) + 1
    keys = (hits.astype(np.int64) * big + lq) * big + lc
    uniq, inverse = np.unique(keys, return_inverse=True)
    values = np.empty(len(uniq), dtype=np.float64)
    for k, key in enumerate(uniq.tolist()):
        h, rest = divmod(key, big * big)
        peer, model = divmod(rest, big)
        values[k] = getattr(final_scores(model, h, peer, alpha), stat)
    return values[inverse].reshape(hits.shape)


_SET_HERE = NOT_HERE
_CDIST_KEYWORDS = ("measure", "stat", "workers", "dtype")  # extract's options handed on to cdist


def cdist(
    queries,
    choices,
    *,
    measure="ROUGE-L",
    stat: str = "f",
    score_cutoff: float | None = None,
    workers: int = -1,
    dtype=np.float32,
    **options,
) -> np.ndarray:
    """A ``len(queries) x len(choices)`` matrix of ``measure``'s ``stat`` (each query a candidate,
    each choice its reference), 0 below ``score_cutoff`` (pairs that cannot reach it are skipped).

    ``measure``: ``"rougeL"`` (rouge-score's, bit for bit) or any rougekit measure (``"ROUGE-L"``,
    ``"ROUGE-2"``, ... equal to :func:`rougekit.score` per pair, bit for bit in float64); ``stat``:
    ``"f"``, ``"recall"`` or ``"precision"``; ``options``: those of :func:`rougekit.score`.
    ``workers``: threads (-1: every core).

    >>> cdist(["the cat sat"], ["the cat sat down", "a dog"], measure="rougeL", dtype="float64").round(4).tolist()
    [[0.8571, 0.0]]
    """
    check_keywords(options, "rougekit.process.cdist", named=(*_CDIST_KEYWORDS, "score_cutoff"), refused=_SET_HERE)
    if stat not in _ROUGE155_STATS:
        raise OptionError(f"stat must be one of {', '.join(_ROUGE155_STATS)}, got {stat!r}")
    if score_cutoff is not None:
        check_threshold(score_cutoff, "score_cutoff")
    float_dtype(dtype)
    encoder = Encoder(measure, **options)
    queries, choices = check_texts(queries, "queries"), check_texts(choices, "choices")
    encoder.warn_unread(queries + choices)
    q, c = encoder.encode(queries, "queries"), encoder.encode(choices, "choices")
    encoder.say_wordless()
    return matrix(encoder, queries, choices, q, c, stat=stat, score_cutoff=score_cutoff, dtype=dtype, workers=workers)


def float_dtype(dtype) -> np.dtype:
    """``dtype`` of a score matrix: a float type (an integer, bool or str matrix would cut every score
    silently: F 0.667 as 0, or True)."""
    try:
        found = np.dtype(dtype)
    except TypeError:
        raise OptionError(f"dtype must be a float type (float32 or float64), got {dtype!r}") from None
    if found.kind != "f":
        raise OptionError(f"dtype must be a float type (float32 or float64), got {found}: scores are fractions")
    return found


def matrix(
    encoder: Encoder, queries: list, choices: list, q: Encoded, c: Encoded, *, stat, score_cutoff, dtype, workers
) -> np.ndarray:
    """:func:`cdist` of texts already encoded by ``encoder`` (``queries``/``choices``: the texts, for
    the measures scored pair by pair)."""
    workers = workers_count(workers)
    vocab = max(q.vocab, c.vocab)
    if encoder.measure == ROUGE_SCORE_L:
        if nearest.worth_it(len(q), len(c), stat, score_cutoff):  # the same values, only the pairs above scored
            out = np.zeros((len(q), len(c)), dtype=np.dtype(dtype))
            return nearest.Nearest(q, c, score_cutoff, workers=workers).fill(out)
        return cdist_block(q, c, stat=stat, score_cutoff=score_cutoff, dtype=dtype, workers=workers, vocab=vocab)
    out = np.zeros((len(q), len(c)), dtype=np.dtype(dtype))
    if _is_sequence_lcs(encoder, q, c):
        alpha = float(encoder.options.get("alpha", 0.5))
        step = max(1, 1_000_000 // max(1, len(c)))
        for r0 in range(0, len(q), step):
            block = q.slice(r0, min(len(q), r0 + step))
            hits = cdist_block(block, c, stat="hits", workers=workers, vocab=vocab)
            out[r0 : r0 + len(block)] = _rouge155_from_hits(hits, block.lengths, c.lengths, stat, alpha)
    else:
        out[:] = _pairwise(encoder, queries, choices, stat)
    if score_cutoff is not None:
        out[out < score_cutoff] = 0
    return out


def _pairwise(encoder: Encoder, queries: list, choices: list, stat: str) -> np.ndarray:
    """Every pair through the engine (rougekit.score's numbers), one query row at a time."""
    name = encoder.scorer.measures[0].name
    rows = [encoder.scorer.score([q] * len(choices), choices).values(name, stat) for q in queries]
    return np.array(rows, dtype=np.float64).reshape(len(queries), len(choices))


class Match(NamedTuple):
    """One result of :func:`extract`: the choice, its score and its index in the choices."""

    choice: Any  # the item of the choices given (a str, or a list of sentence strings)
    score: float
    index: int


def check_limit(limit) -> int | None:
    """``limit`` (a positive integer or None: every match) or an :class:`OptionError`."""
    if limit is not None and (isinstance(limit, bool) or not isinstance(limit, (int, np.integer)) or limit < 1):
        raise OptionError(f"limit must be a positive integer or None, got {limit!r}")
    return None if limit is None else int(limit)  # a numpy integer (from arithmetic on a count) too


def row_order(row: np.ndarray, limit: int | None, score_cutoff: float | None) -> np.ndarray:
    """Positions in ``row`` of its best ``limit`` values, best first, the lower position on ties."""
    order = np.lexsort((np.arange(len(row)), -row))
    if score_cutoff is not None:
        order = order[row[order] >= score_cutoff]
    return order if limit is None else order[:limit]


def extract(query, choices, *, limit: int | None = 5, score_cutoff: float | None = None, **options) -> list[Match]:
    """The best ``limit`` choices for ``query`` (all with ``None``), best first, lower index first on
    ties, none below ``score_cutoff``; options as :func:`cdist` (default measure ``"ROUGE-L"``).

    >>> extract("the cat sat", ["a dog", "the cat sat down", "the cat"], measure="rougeL", limit=2)
    [Match(choice='the cat sat down', score=0.8571428571428571, index=1), Match(choice='the cat', score=0.8, index=2)]
    """
    check_keywords(
        options, "rougekit.process.extract", named=("limit", "score_cutoff"), also=_CDIST_KEYWORDS, refused=_SET_HERE
    )
    check_limit(limit)
    if not isinstance(query, str):
        raise TypeError(f"query must be a text (str), got {type(query).__name__}")
    choices = inputs.summaries(choices, "choices")
    options.setdefault("dtype", np.float64)
    row = cdist([query], choices, score_cutoff=score_cutoff, **options)[0].astype(np.float64)
    return [Match(choices[i], float(row[i]), int(i)) for i in row_order(row, limit, score_cutoff).tolist()]


def extract_one(query, choices, *, score_cutoff: float | None = None, **options) -> Match | None:
    """The best choice for ``query`` (the first on ties), or None when none reaches ``score_cutoff``."""
    check_keywords(
        options,
        "rougekit.process.extract_one",
        named=("score_cutoff",),
        also=_CDIST_KEYWORDS,
        refused=(*_SET_HERE, "limit"),  # one match: no limit
    )
    best = extract(query, choices, limit=1, score_cutoff=score_cutoff, **options)
    return best[0] if best else None


class Dropped(NamedTuple):
    """A text the rule dropped: its index, the kept text it matched best (first on ties), that score."""

    index: int
    match: int
    score: float


@dataclass(frozen=True)
class DedupResult:
    """What :func:`dedup` kept and dropped, in input order."""

    kept: list[int]
    dropped: list[Dropped]
    threshold: float
    measure: str
    lcs_computed: int | None = field(default=None, compare=False)  # pairs that reached the LCS (fast path)

    def __len__(self) -> int:
        return len(self.kept) + len(self.dropped)


def dedup_threshold(threshold: float, keep: str) -> float:
    """The checked ``threshold`` of a dedup call; ``keep`` must be ``"first"`` (an :class:`OptionError`)."""
    threshold = check_threshold(threshold)
    if keep != "first":
        raise OptionError(f"keep must be 'first' (the Self-Instruct rule), got {keep!r}")
    return threshold


def dedup_from_pairs(n: int, found: list, threshold: float, measure: str) -> DedupResult:
    """The rule's :class:`DedupResult` for ``n`` texts from the pairs above ``threshold`` found block by
    block: ``found`` holds (new, old, score) arrays per block (:func:`greedy_from_pairs`)."""
    new = np.concatenate([f[0] for f in found]) if found else np.zeros(0, np.int64)
    old = np.concatenate([f[1] for f in found]) if found else np.zeros(0, np.int64)
    score = np.concatenate([f[2] for f in found]) if found else np.zeros(0)
    return dedup_decided(greedy_from_pairs(n, new, old, score, threshold), threshold, measure)


def dedup_decided(decisions: tuple, threshold: float, measure: str) -> DedupResult:
    """The :class:`DedupResult` of (kept mask, match, score) arrays (:meth:`InOrder.result`)."""
    kept_mask, match, best = decisions
    kept = np.flatnonzero(kept_mask).tolist()
    dropped = [Dropped(int(i), int(match[i]), float(best[i])) for i in np.flatnonzero(~kept_mask).tolist()]
    return DedupResult(kept, dropped, threshold, measure)


def dedup(
    texts,
    *,
    threshold: float = 0.7,
    measure="rougeL",
    keep: str = "first",
    progress: bool = False,
    workers: int = -1,
    **options,
) -> DedupResult:
    """Near-duplicate filtering by the Self-Instruct rule, in input order.

    A text is kept iff its score against every text kept before it is at most ``threshold``;
    ``.dropped`` gives each dropped text's best-matching kept text (the first on ties) and score.
    The default is exactly the rule of Self-Instruct / Alpaca: rouge-score's ``rougeL`` F, no
    stemming (the new text as the target, each kept one as the prediction). Other measures are
    rougekit's with :func:`rougekit.score`'s options. ``progress`` shows a tqdm bar on stderr
    (when tqdm is installed). ``workers``: threads searching the kept texts for rougeL (-1: every
    core); the decisions are the same for any number.

    >>> r = dedup(["the cat sat on the mat", "the cat sat on a mat", "dogs bark"])
    >>> r.kept, r.dropped
    ([0, 2], [Dropped(index=1, match=0, score=0.8333333333333334)])
    """
    check_keywords(
        options,
        "rougekit.process.dedup",
        named=("threshold", "measure", "keep", "progress", "workers"),
        refused=_SET_HERE,
    )
    threshold = dedup_threshold(threshold, keep)
    encoder = Encoder(measure, **options)
    name = measure_name(encoder.measure)
    if encoder.measure != ROUGE_SCORE_L:
        texts = check_texts(texts, "texts")
        encoder.warn_unread(texts)
        return _dedup_pairwise(encoder, texts, threshold, name, progress)
    encoded = encoder.encode(texts)
    encoder.say_wordless()
    greedy = Greedy(threshold, rank_by_frequency(encoded), workers=workers)
    kept: list[int] = []
    dropped: list[Dropped] = []
    bar = _progress_bar(len(encoded), progress)
    for start in range(0, len(encoded), _FEED_BLOCK):
        block = encoded.slice(start, min(len(encoded), start + _FEED_BLOCK))
        keep_mask, match, score = greedy.feed(block)
        for i in range(len(block)):
            if keep_mask[i]:
                kept.append(start + i)
            else:
                dropped.append(Dropped(start + i, int(match[i]), float(score[i])))
        if bar is not None:
            bar.update(len(block))
    if bar is not None:
        bar.close()
    return DedupResult(kept, dropped, threshold, name, greedy.lcs_computed)


def _dedup_pairwise(encoder: Encoder, texts: list, threshold: float, name: str, progress: bool) -> DedupResult:
    """The rule with every (new, kept) pair scored by the engine: the new text as the reference."""
    scorer = encoder.scorer
    mname = scorer.measures[0].name
    kept: list[int] = []
    dropped: list[Dropped] = []
    bar = _progress_bar(len(texts), progress)
    for i, text in enumerate(texts):
        if kept:
            scores = scorer.score([texts[k] for k in kept], [text] * len(kept)).values(mname, "f")
            best = int(np.argmax(scores))  # the first of the highest
            if scores[best] > threshold:
                dropped.append(Dropped(i, kept[best], float(scores[best])))
                if bar is not None:
                    bar.update(1)
                continue
        kept.append(i)
        if bar is not None:
            bar.update(1)
    if bar is not None:
        bar.close()
    return DedupResult(kept, dropped, threshold, name)


def _progress_bar(total: int, wanted: bool):
    """A tqdm bar on stderr, or None (not wanted, or tqdm not installed)."""
    if not wanted:
        return None
    try:
        from tqdm import tqdm
    except ImportError:
        return None
    return tqdm(total=total, unit="text", desc="dedup", leave=False)


__all__ = ["cdist", "extract", "extract_one", "dedup", "DedupResult", "Dropped", "Match", "STATS"]
