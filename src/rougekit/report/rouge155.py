"""The ROUGE-1.5.5 text report, byte for byte (layout: docs/rouge155/rounding-and-f.md#how-the-numbers-are-printed)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Iterable

if TYPE_CHECKING:  # only for annotations: the report needs neither numpy nor the engine
    from rougekit.rouge155 import MeasureResult, PeerResult

RULE = "-" * 45
DOTS = "." * 45
_LEADING_DIGITS = re.compile(r"^([0-9]+)")


def perl_number(x) -> str:
    """How Perl prints a number: integers plainly, other values with 15 significant digits."""
    if isinstance(x, int):
        return str(x)
    return "%.15g" % x


def perl_int(x) -> str:
    """Perl's ``print int($x)``: an integer in full; a double below 2**64 truncated to one, else %.15g."""
    if isinstance(x, int):
        return str(x)
    return str(int(x)) if x < 2.0**64 else "%.15g" % float(int(x))


def average_lines(tag: str, average, low, high, confidence_text: str) -> list[str]:
    """The three ``Average_R/P/F`` lines of one measure (values in R, P, F order)."""
    return [
        f"{tag} Average_{letter}: {average[i]:7.5f} ({confidence_text}%-conf.int. {low[i]:7.5f} - {high[i]:7.5f})"
        for i, letter in enumerate("RPF")
    ]


def eval_line(tag: str, key: str, r: str, p: str, f: str) -> str:
    """One ``-d`` line: ``<peer> <TAG> Eval <evalID>.<peer> R:.. P:.. F:..``."""
    return f"{tag} Eval {key} R:{r} P:{p} F:{f}"


def by_eval_id(a: str, b: str) -> int:
    """The script's per-evaluation order: numeric on leading digits when both have them."""
    ma, mb = _LEADING_DIGITS.match(a), _LEADING_DIGITS.match(b)
    if ma and mb:
        x, y = int(ma.group(1)), int(mb.group(1))
        return (x > y) - (x < y)
    return (a > b) - (a < b)


def eval_id_key(key: str) -> tuple:
    """A sort key giving the order of :func:`by_eval_id` (ties keep their order in a stable sort).

    A key with leading digits compares by their value; any other key compares as a string, and
    as its first character is not a digit it falls wholly below or wholly above every key that
    starts with one, so "below the digits", "digits", "above the digits" are three blocks.
    """
    match = _LEADING_DIGITS.match(key)
    if match:
        return 1, int(match.group(1))
    return (0 if key < "0" else 2), key


def eval_order(keys: Iterable[str]) -> list[str]:
    """Per-evaluation keys in the order the script prints them (sorted as strings, then by :func:`by_eval_id`)."""
    return sorted(sorted(keys), key=eval_id_key)


class _Fixed5(dict):
    """``%7.5f`` of each value, formatted once: R, P and F repeat a lot (they are rounded to 5 decimals).

    Only for values that are never -0.0 (it would share its entry with 0.0): R, P and F are >= 0.
    """

    def __missing__(self, value: float) -> str:
        text = self[value] = f"{value:7.5f}"
        return text


def _head_lines(tag: str, result: MeasureResult, confidence_text: str, average: int) -> list[str]:
    """The aggregate lines of one measure: averages with intervals, or the -t 2 totals."""
    if average == 2:
        m, p, h = result.totals
        return [f"{tag} M_count: {perl_int(m)} P_count: {perl_int(p)} H_count: {perl_int(h)}"]
    b = result.bootstrap
    return average_lines(tag, b.average, b.low, b.high, confidence_text)


def _detail_lines(tag: str, instances: dict[str, tuple], order: list[str], average: int, fixed5: _Fixed5) -> list[str]:
    """The ``-d`` lines of one measure, the keys taken in ``order``."""
    if average == 0:  # R, P, F as %7.5f
        head = f"{tag} Eval "
        return [
            f"{head}{key} R:{fixed5[r]} P:{fixed5[p]} F:{fixed5[f]}" for key in order for r, p, f in (instances[key],)
        ]
    return [eval_line(tag, key, *map(perl_number, instances[key])) for key in order]


def format_report(
    results: list[PeerResult], confidence_text: str = "95", average: int = 0, details: bool = False
) -> str:
    """The script's stdout for these results (``-c`` as typed, ``-t``, ``-d``)."""
    lines: list[str] = []
    fixed5 = _Fixed5()  # shared by all measures
    keys, order = None, []  # the measures of a peer usually have the same evaluations: sort them once
    for peer in results:
        for result in peer.measures:
            tag = f"{peer.peer_id} {result.measure.name}"
            lines.append(RULE)
            lines.extend(_head_lines(tag, result, confidence_text, average))
            if details:
                if keys is None or result.instances.keys() != keys:
                    keys, order = result.instances.keys(), eval_order(result.instances)
                lines.append(DOTS)
                lines.extend(_detail_lines(tag, result.instances, order, average, fixed5))
    if lines:
        lines.append("")  # the final newline, without copying the joined text again
    return "\n".join(lines)
