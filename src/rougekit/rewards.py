"""ROUGE as a reward for RL fine-tuning, in the shape TRL's trainers call reward functions.

TRL's ``GRPOTrainer`` (and ``RLOOTrainer``) call each reward function as
``reward(prompts=..., completions=..., completion_ids=..., **columns)``: ``completions`` holds one
entry per generated completion (a string, or for chat data a list of ``{"role", "content"}``
messages), ``completion_ids`` the generated token ids (lists of ints), and ``columns`` every other
column of the dataset as a list with one entry per completion (plus ``trainer_state``). It wants a
list of floats back, one per completion. :func:`rouge_reward` builds such a function:

>>> reward = rouge_reward("ROUGE-1", stat="recall")
>>> reward(["the cat sat"], reference=["the cat sat down"])
[0.75]
>>> chat = [[{"role": "assistant", "content": "the cat sat"}]]
>>> reward(completions=chat, reference=[["a dog", "the cat sat down"]])  # two references, summed (-f A)
[0.5]

Scoring goes through :class:`rougekit.Scorer` (built once per reward function, so references
processed once are reused), so a reward equals ``rougekit.score(...).values(measure, stat)`` on
the same texts with the same options.
"""

from __future__ import annotations

import re
from typing import Any, Sequence

from rougekit.api import Scorer, check_keywords
from rougekit.engine.door import inputs
from rougekit.errors import InputError, OptionError

__all__ = ["rouge_reward", "RougeReward", "message_text"]

_STATS = {"f": "f", "recall": "recall", "precision": "precision", "r": "recall", "p": "precision"}
_COMPLETION_FIELDS = ("completions", "completion_ids")


class RougeReward:
    """A reward function ``reward(completions, **dataset_columns) -> list[float]`` scoring each
    completion against the references in the dataset column ``reference_field``.

    Args:
        measure: one measure name (``"ROUGE-1"``, ``"ROUGE-L"``, ``"ROUGE-SU4"``, ``"ROUGE-W-1.2"``,
            ``"BLEU"``, ...). For several, make several reward functions (TRL weighs and sums them).
        stat: ``"f"``, ``"recall"`` or ``"precision"`` (``"r"``, ``"p"``), or ``"score"`` for a
            single-valued measure such as BLEU.
        reference_field: the dataset column holding each row's reference: a string, a list of
            strings (several references), chat messages, or token ids (a list of ints, or a list of
            them for several references).
        completion_field: ``"completions"`` (text or chat messages) or ``"completion_ids"`` (the
            generated token ids TRL passes; the references must then be token ids too).
        ignore_ids: token ids dropped from completions and references before scoring (with
            ``completion_field="completion_ids"``), e.g. the tokenizer's EOS and padding ids.
        name: the function's ``__name__`` (TRL logs rewards under it); default from the measure
            and stat, e.g. ``rouge_l_f``.
        **options: any option of :func:`rougekit.score` (``stem``, ``stopwords``, ``multi_ref``,
            ``alpha``, ``tokenizer``, ``word_limit``, ``jobs``, ...); ``bootstrap`` is ``None``
            unless given, since a reward needs no interval.
    """

    def __init__(
        self,
        measure: str = "ROUGE-L",
        stat: str = "f",
        reference_field: str = "reference",
        *,
        completion_field: str = "completions",
        ignore_ids: int | Sequence[int] = (),
        name: str | None = None,
        **options: Any,
    ):
        if not isinstance(measure, str):
            raise OptionError(
                f"measure must be one measure name such as 'ROUGE-L', got {measure!r}: "
                "make one reward function per measure (TRL sums them with reward_weights)"
            )
        if "measures" in options:
            raise OptionError("rouge_reward takes one measure= (a name), not measures=")
        check_keywords(
            options, "rouge_reward", named=("measure", "stat", "reference_field", "completion_field", "name")
        )
        if not isinstance(reference_field, str) or not reference_field:
            raise OptionError(f"reference_field must be a dataset column name, got {reference_field!r}")
        if completion_field not in _COMPLETION_FIELDS:
            raise OptionError(f"completion_field must be 'completions' or 'completion_ids', got {completion_field!r}")
        options.setdefault("bootstrap", None)
        self.scorer = Scorer([measure], ignore_ids=ignore_ids, **options)  # the scorer drops them
        if self.scorer.options.ignore_ids and completion_field != "completion_ids":
            raise OptionError("ignore_ids applies to token ids: use it with completion_field='completion_ids'")
        self.measure = self.scorer.measures[0]
        self.stat = _stat(stat, self.measure)
        self.reference_field = reference_field
        self.completion_field = completion_field
        self.ignore_ids = self.scorer.options.ignore_ids  # a sorted tuple of ints
        if completion_field == "completion_ids":
            self.scorer.score([[1]], [[1]])  # options that need text (stem=, stopwords=) fail now, not mid-training
        stat_name = {"recall": "r", "precision": "p"}.get(self.stat, self.stat)
        self.__name__ = name or re.sub(r"[^0-9a-z]+", "_", f"{self.measure.name}_{stat_name}".lower()).strip("_")

    def __repr__(self) -> str:
        return (
            f"rouge_reward({self.measure.name!r}, stat={self.stat!r}, reference_field={self.reference_field!r}, "
            f"completion_field={self.completion_field!r})  # {self.scorer.signature}"
        )

    def __call__(self, completions=None, *, completion_ids=None, **columns) -> list[float]:
        """One reward per completion. ``prompts``, ``trainer_state`` and columns other than the
        reference field are accepted and ignored."""
        if self.completion_field == "completion_ids":
            if completion_ids is None:
                raise InputError("reward: completion_field='completion_ids' but no completion_ids were passed")
            candidates = inputs.summaries(completion_ids, "completion_ids")
        else:
            if completions is None:
                raise InputError("reward: no completions were passed")
            if isinstance(completions, (str, bytes)):
                raise TypeError("completions must be a list with one completion each, not a string")
            completions = inputs.summaries(completions, "completions")  # any container a list means
            candidates = [_completion(c, k) for k, c in enumerate(completions)]
        references = self._references(columns, len(candidates))
        if not candidates:
            return []
        result = self.scorer.score(candidates, references)
        return result.values(self.measure.name, self.stat).tolist()

    def _references(self, columns: dict, count: int) -> list:
        field = self.reference_field
        if field not in columns:
            given = ", ".join(sorted(k for k in columns if k != "trainer_state")) or "none"
            raise InputError(
                f"reward: no dataset column {field!r} for the references (reference_field={field!r}); "
                f"columns passed: {given}"
            )
        column = columns[field]
        if isinstance(column, (str, bytes)):
            raise TypeError(f"column {field!r} must be a list with one entry per completion, not a string")
        column = inputs.summaries(column, f"column {field!r}")
        if len(column) != count:
            raise InputError(f"reward: {count} completions but {len(column)} entries in column {field!r}")
        if self.completion_field == "completion_ids":
            return column
        return [_reference_entry(r, k, field) for k, r in enumerate(column)]


rouge_reward = RougeReward  # the documented name: rouge_reward(...) builds a reward function


def _stat(stat: str, measure) -> str:
    if measure.single_valued:
        if stat not in ("score", "f"):
            raise OptionError(f"{measure.name} has one value per pair: use stat='score', not {stat!r}")
        return "score"
    if stat not in _STATS:
        raise OptionError(f"stat must be one of 'f', 'recall', 'precision' (or 'r', 'p'), got {stat!r}")
    return _STATS[stat]


def _is_messages(x) -> bool:
    return isinstance(x, dict) or (isinstance(x, (list, tuple)) and bool(x) and all(isinstance(m, dict) for m in x))


def message_text(messages, where: str = "completion") -> str:
    """The text of chat messages: the ``content`` of each assistant message (``role`` ``"assistant"``,
    or no ``role``), one after the other on separate lines. A content may be a string or a list of
    parts, whose ``{"type": "text", "text": ...}`` parts are kept (images and the like are not text);
    ``None`` (a turn of tool calls) is no text. An assistant message without a ``content`` key is an
    ``InputError`` naming ``where``.
    """
    if isinstance(messages, dict):
        messages = [messages]
    lines = []
    spoken = False
    for m in messages:
        if m.get("role", "assistant") != "assistant":
            continue
        spoken = True
        if "content" not in m:  # e.g. {"role": "assistant", "text": ...}: never an empty text (a silent 0)
            keys = ", ".join(map(str, m))
            raise InputError(f"{where}: the assistant message has no 'content' (its keys: {keys})")
        content = m["content"]
        if content is None:  # a turn of tool calls only: no text
            continue
        if isinstance(content, str):
            lines.append(content)
        elif isinstance(content, (list, tuple)):
            for part in content:
                if isinstance(part, dict) and part.get("type") == "text" and isinstance(part.get("text"), str):
                    lines.append(part["text"])
                elif isinstance(part, str):
                    lines.append(part)
        else:
            raise InputError(f"{where}: a message content must be a string or a list of parts, got {content!r}")
    if messages and not spoken:
        roles = ", ".join(sorted({str(m.get("role")) for m in messages}))
        raise InputError(f"{where}: the chat messages hold no assistant message (roles: {roles})")
    return "\n".join(lines)


def _completion(c, k: int):
    """A completion's text: a string (or a list of sentences) as it is, chat messages joined."""
    if _is_messages(c):
        return message_text(c, f"completion {k + 1}")
    return c


def _reference_entry(r, k: int, field: str):
    """One row's reference(s): a string, a list of them, chat messages, or a list of message lists.
    Rows are counted from 1, as completions are."""
    where = f"column {field!r}, row {k + 1}"
    if _is_messages(r):
        return message_text(r, where)
    if isinstance(r, (list, tuple)) and any(_is_messages(x) for x in r):
        return [message_text(x, where) if _is_messages(x) else x for x in r]
    return r
