"""The documented range of every numeric option, and the checks that give one clear error outside it.

Ranges (API keyword / `rougekit score` flag / `rougekit rouge155` flag):

* word and byte limits (``word_limit`` / ``--word-limit`` / ``-l``; ``byte_limit`` / ``-b``):
  0 (no limit) to :data:`MAX_LENGTH_LIMIT`;
* bootstrap resamples (``resamples`` / ``--resamples``): 2 to :data:`MAX_RESAMPLES`; ``rouge155 -r``
  keeps the script's minimum of 1;
* confidence level in percent (``confidence`` / ``--confidence``): above 0 and below 100;
  ``rouge155 -c`` keeps the script's 0 to 100;
* ROUGE-N order (``ROUGE-n``, ``-n``), the j of ``Ngram(i,j)`` and the n of ``PREC-n``: 1 to
  :data:`MAX_ORDER` (``-n 0`` asks for none);
* ROUGE-W weight (``ROUGE-W-w``, ``-w``): :data:`MIN_WEIGHT` to :data:`MAX_WEIGHT`. Below 1 the
  weighting rewards gaps and the scores exceed 1; above 5 the script's double weighting
  f(sum f(len)) = (sum len^w)^w leaves the range of a double for long references (and
  ROUGE-1.5.5 prints 0 or NaN). Inside it the compiled and pure paths agree;
* skip distance of ROUGE-S/SU (``ROUGE-S<d>``, ``-2``): 0 to :data:`MAX_SKIP`, or S*
  (``-2`` with a negative value, as in the script);
* seeds: 0 to 2**63 - 1;
* input size: the ROUGE-L union LCS and ROUGE-W keep a trace-back table of one bit per token
  pair of the longest reference sentence and the longest candidate sentence, at most
  :data:`MAX_TRACE_CELLS` (40,000 x 40,000 tokens: about 300 MB peak); beyond it scoring stops
  with an :class:`~rougekit.errors.InputError` naming the pair (docs/limits.md).

Error messages quote the value the user gave, cut to :data:`SHOWN` characters.
"""

from __future__ import annotations

import numbers

from rougekit.errors import OptionError

MAX_LENGTH_LIMIT = 2**31 - 1  # more words or bytes than any summary has
MAX_RESAMPLES = 100_000
MAX_ORDER = 100  # ROUGE-100 already needs 100 identical tokens in a row to count a hit
MIN_WEIGHT, MAX_WEIGHT = 1.0, 5.0  # (sum len^5)^5 <= n^25 stays finite for any n below 10^12 tokens
MAX_SKIP = 2**31 - 1  # a distance beyond any summary's length: the same counts as S*
MAX_SEED = 2**63 - 1
MAX_TRACE_CELLS = 1_600_000_000  # 40,000 x 40,000 tokens; one bit each: 200 MB
SHOWN = 60


def shown(value) -> str:
    """``repr(value)``, cut to :data:`SHOWN` characters: errors never echo a huge input back."""
    text = repr(value)
    if len(text) <= SHOWN:
        return text
    return text[: SHOWN - 4] + ("...'" if isinstance(value, str) else "...")


def whole(name: str, value, low: int, high: int) -> int:
    """``value`` itself when it is an int within [low, high] (bools and floats refused)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise OptionError(f"{name} must be a whole number, got {shown(value)}")
    if not low <= value <= high:
        raise OptionError(f"{name} must be within {low} and {high}, got {shown(value)}")
    return value


def seed(value, name: str = "seed") -> int | None:
    """A random seed: None (fresh entropy, where the caller allows it) or a whole number within 0 and
    :data:`MAX_SEED` (numpy integers too)."""
    if value is None:
        return None
    if isinstance(value, numbers.Integral) and not isinstance(value, bool):
        value = int(value)
    return whole(name, value, 0, MAX_SEED)


def samples(value, name: str = "samples", low: int = 1) -> int:
    """A number of resamples or permutations: a whole number within ``low`` and :data:`MAX_RESAMPLES`."""
    if isinstance(value, numbers.Integral) and not isinstance(value, bool):
        value = int(value)
    return whole(name, value, low, MAX_RESAMPLES)


def fraction(name: str, value, low: float, high: float, *, open_ends: bool = False) -> float:
    """``value`` as a float within [low, high] (or (low, high) with ``open_ends``); NaN refused."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise OptionError(f"{name} must be a number, got {shown(value)}")
    x = float(value)
    inside = low < x < high if open_ends else low <= x <= high
    if not inside:  # also NaN
        ends = f"above {low:g} and below {high:g}" if open_ends else f"within {low:g} and {high:g}"
        raise OptionError(f"{name} must be {ends}, got {shown(value)}")
    return x
