"""Sentence markers left in the text: ``<q>`` (CNN/DailyMail as See et al. 2017 release it),
``<t>``, ``</s>`` and ``<n>`` mark sentence breaks inside one line. Not split on, a marker is
read as a word (``<q>`` becomes the token ``q``, which matches in every summary that holds it)
and sentence-level measures (ROUGE-L's union LCS, ROUGE-Lsum) see one sentence.
:class:`MarkerTally` counts the summaries holding one over a scoring call and warns once,
naming the option that splits on it.

>>> found = MarkerTally()
>>> found.add(["a <q> b", "c"], [["a"], ["b <q> c"]])
>>> found.summaries, found.total, found.marker
(2, 4, '<q>')
"""

from __future__ import annotations

import itertools
import warnings
from dataclasses import dataclass

from rougekit.errors import SentenceMarkerWarning

#: markers that split sentences in the datasets people score, looked for in this order
MARKERS = ("<q>", "<t>", "</s>", "<n>")


def marker_in(text: str) -> str | None:
    """The first of :data:`MARKERS` that ``text`` holds (None for none)."""
    if "<" not in text:  # the common case: one scan in C
        return None
    for marker in MARKERS:
        if marker in text:
            return marker
    return None


@dataclass
class MarkerTally:
    """Summaries holding a sentence marker, over one call; the first marker seen is named."""

    summaries: int = 0
    total: int = 0
    marker: str = ""

    def add(
        self, candidates: list, references: list[list], engine_marked: int | None = None, summaries: int | None = None
    ) -> None:
        """Count the text summaries of one chunk (a summary may be a list of sentences; token ids are skipped).

        ``engine_marked``: the engine's count of these texts that hold a ``<`` (None: unknown); 0 means
        none can hold a marker, so the texts are not read again. ``summaries``: their number, when the
        caller counted it."""
        if engine_marked == 0:
            self.total += len(candidates) + sum(map(len, references)) if summaries is None else summaries
            return
        try:  # all strings, the common case: scans in C of the chunk joined (no marker holds a line break)
            clean = "<" not in "\n".join(candidates) and "<" not in "\n".join(map("\n".join, references))
        except TypeError:  # a summary given as a list of sentences (or token ids): one at a time
            clean = False
        if clean:
            self.total += len(candidates) + sum(map(len, references))
            return
        for summary in itertools.chain(candidates, itertools.chain.from_iterable(references)):
            self.total += 1
            if isinstance(summary, str):
                found = marker_in(summary)
            elif isinstance(summary, (list, tuple)) and all(isinstance(s, str) for s in summary):
                found = next(filter(None, map(marker_in, summary)), None)
            else:
                continue
            if found:
                self.summaries += 1
                self.marker = self.marker or found

    def warn(self, stacklevel: int = 3) -> None:
        """One warning if a summary held a marker: how many did, and how to split on it."""
        if not self.summaries:
            return
        m = self.marker
        head = (
            f"{self.summaries} of {self.total} summaries hold the sentence marker {m!r}, which is scored as a "
            f"word and does not split sentences: "
        )
        warnings.warn(
            SentenceMarkerWarning(
                head + f"split on it (text.replace({m!r}, '\\n'), or give each summary as a list of sentences)",
                head + f"pass --sentence-sep '{m}'",
            ),
            stacklevel=stacklevel,
        )
