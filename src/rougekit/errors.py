"""Errors that the command line turns into a one-line message and exit code 2."""

from __future__ import annotations

import os
import sys
from types import FrameType

_PACKAGE = os.path.dirname(os.path.abspath(__file__)) + os.sep


def caller_stacklevel() -> int:
    """The ``stacklevel`` for a ``warnings.warn`` made by this function's caller that names the first
    frame outside rougekit (the user's file), whatever the number of rougekit frames between."""
    frame: FrameType | None = sys._getframe(1)  # the rougekit function that calls warn: level 1 of its warn
    level = 1
    while frame is not None and frame.f_code.co_filename.startswith(_PACKAGE):
        frame = frame.f_back
        level += 1
    return level


class RougeKitError(Exception):
    """Bad input or a bad option: shown to the user as one line, exit code 2."""


class InputError(RougeKitError):
    """A file, line or value that cannot be read."""


class OptionError(RougeKitError):
    """A command-line or keyword option with a bad value."""


class RougeKitWarning(UserWarning):
    """Numbers that are computed but probably not what was meant; the command line prints one line.

    ``cli`` is the same message naming the command-line flags instead of the keyword options.
    """

    def __init__(self, message: str, cli: str | None = None):
        super().__init__(message)
        self.cli = cli or message


class EmptyTokensWarning(RougeKitWarning):
    """Summaries with words in them that the tokenizer turned into no tokens (they score 0)."""


class StemmerWarning(RougeKitWarning):
    """``stem=True`` where no stemmer applies to the text's language."""


class LettersDroppedWarning(RougeKitWarning):
    """Summaries with letters outside ASCII under ROUGE-1.5.5's tokenizer, which keeps ASCII letters and
    digits only: their words are cut into fragments (German ``Straße`` becomes ``stra e``)."""


class UnsegmentedWordsWarning(RougeKitWarning):
    """Summaries in a script written without spaces between words (Chinese, Japanese, Thai, Lao, Khmer,
    Burmese) that the tokenizer does not cut into words: each run between spaces is one token, which
    rarely matches (they score near 0)."""


class PaddingWarning(RougeKitWarning):
    """Token ids given as a 2-d array whose rows end in runs of one id (padding), scored as tokens:
    ``ignore_ids=`` drops them."""


class SentenceMarkerWarning(RougeKitWarning):
    """Summaries holding a sentence marker such as ``<q>`` that was not split on (it is read as a word)."""


class BlankLinesWarning(RougeKitWarning):
    """Candidate summaries that are blank lines: they are scored (as 0), not dropped."""


class BlankReferencesWarning(BlankLinesWarning):
    """References that are blank: their pairs are scored (a blank reference has no words), not dropped.
    A class of its own: the command line says the first warning of each class, and a blank reference
    must not hide a blank candidate."""


class LineEndWarning(RougeKitWarning):
    """A file with ``\\n`` line ends that holds a lone carriage return inside a line: read as a space,
    not as a line end (a file of ``\\r`` line ends only is read as lines)."""


class IdleOptionWarning(RougeKitWarning):
    """An option given where it does nothing (``--seed`` with the script's bootstrap, ``--resamples``
    with no bootstrap): said, not silently ignored."""


class UnusedSourcesWarning(RougeKitWarning):
    """Original texts (sources) given, but no measure reads them (only SumACCY and WSumACCY do)."""
