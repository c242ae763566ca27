"""The ROUGE-1.5.5 text report, byte for byte."""
from __future__ import annotations

import functools
import re

from rougekit.rouge155 import MeasureResult, PeerResult

RULE = "-" * 45
DOTS = "." * 45
_LEADING_DIGITS = re.compile(r"^([0-9]+)")


def perl_number(x) -> str:
    """How Perl prints a number: integers plainly, other values with 15 significant digits."""
    if isinstance(x, int):
        return str(x)
    return "%.15g" % x


def average_lines(tag: str, average, low, high, confidence_text: str) -> list[str]:
    """The three ``Average_R/P/F`` lines of one measure (values in R, P, F order)."""
    return [f"{tag} Average_{letter}: {average[i]:7.5f} ({confidence_text}%-conf.int. {low[i]:7.5f} - {high[i]:7.5f})"
            for i, letter in enumerate("RPF")]


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


def _lines_for(peer_id: str, result: MeasureResult, confidence_text: str, average: int, details: bool) -> list[str]:
    tag = f"{peer_id} {result.measure.name}"
    lines = [RULE]
    if average == 2:
        m, p, h = result.totals
        lines.append(f"{tag} M_count: {int(m)} P_count: {int(p)} H_count: {int(h)}")
    else:
        b = result.bootstrap
        lines.extend(average_lines(tag, b.average, b.low, b.high, confidence_text))
    if details:
        lines.append(DOTS)
        keys = sorted(sorted(result.instances), key=functools.cmp_to_key(by_eval_id))
        for key in keys:
            fmt = (lambda v: f"{v:7.5f}") if average == 0 else perl_number
            lines.append(eval_line(tag, key, *(fmt(v) for v in result.instances[key])))
    return lines


def format_report(results: list[PeerResult], confidence_text: str = "95", average: int = 0,
                  details: bool = False) -> str:
    """The script's stdout for these results (``-c`` as typed, ``-t``, ``-d``)."""
    lines: list[str] = []
    for peer in results:
        for result in peer.measures:
            lines.extend(_lines_for(peer.peer_id, result, confidence_text, average, details))
    return "".join(line + "\n" for line in lines)
