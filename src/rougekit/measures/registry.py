"""The measure registry: every family of measures, registered once; names parse through it.

>>> parse("rouge-su4").name, parse("ROUGE-W-1.2").name, parse("Ngram(1,4)").name
('ROUGE-SU4', 'ROUGE-W-1.2', 'Ngram(1,4)')
>>> sorted(f.__class__.__name__ for f in families())[:3]
['BasicElements', 'Bleu', 'DistinctTypes']
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from rougekit.errors import OptionError
from rougekit.limits import shown
from rougekit.measures import aliases

if TYPE_CHECKING:  # the classes call the registry (Measure.parse, Measure.family)
    from rougekit.measures.base import Family, Measure

_SHORTENED = re.compile(r"[0-9]{19,}")  # a number longer than any range: parsed as 10^19 - 1
_FAMILIES: list[Family] = []
_BY_KIND: dict[str, Family] = {}


def register(family: Family) -> Family:
    """Add a family; its kinds must be new."""
    for kind in family.kinds:
        if kind in _BY_KIND:
            raise ValueError(f"measure kind {kind!r} registered twice")
        _BY_KIND[kind] = family
    _FAMILIES.append(family)
    return family


def families() -> tuple[Family, ...]:
    return tuple(_FAMILIES)


def family_of(kind: str) -> Family:
    try:
        return _BY_KIND[kind]
    except KeyError:
        raise OptionError(f"unknown measure kind {kind!r}") from None


def parse(name: str) -> Measure:
    """The measure a name denotes; OptionError (with a suggestion) when no family knows it."""
    if not isinstance(name, str):
        raise OptionError(f"a measure name must be a string, got {type(name).__name__}")
    text = name.strip().upper().replace(" ", "")
    for family in _FAMILIES:
        match = family.pattern.fullmatch(text)
        if match:
            numbers = [g for g in match.groups() if g and g[0].isdigit()]
            if any(len(g) > 18 for g in numbers):  # beyond every range (and int() of 4300+ digits fails)
                measure = family.from_match(family.pattern.fullmatch(_SHORTENED.sub("9" * 19, text)), name)
            else:
                measure = family.from_match(match, name)
            family.check(measure, name)
            return measure
    alias = aliases.explain(name) if len(name) <= 100 else None
    if alias:
        ours = aliases.meant(name)
        if ours is not None:  # the name to use must be one rougekit takes (not ROUGE-0, not ROUGE-W-0.5)
            try:
                parse(ours)
            except OptionError as e:
                raise OptionError(f"unknown measure {shown(name)}: it would be {ours}, refused too ({e})") from None
        raise OptionError(f"unknown measure {shown(name)}: {alias}")
    raise OptionError(f"unknown measure {shown(name)}{_suggest(name)}")


def split_measure_list(text: str) -> list[str]:
    """Measure names from a comma-separated list; commas inside parentheses (``Ngram(1,4)``)
    stay in the name. Empty items are skipped; unbalanced parentheses are an OptionError.

    >>> split_measure_list("ROUGE-1, Ngram(1,4),ROUGE-L")
    ['ROUGE-1', 'Ngram(1,4)', 'ROUGE-L']
    """
    names, current, depth = [], [], 0
    for char in text:
        if char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
            if depth < 0:
                raise OptionError(f"unbalanced ')' in the measure list {shown(text)}")
        if char == "," and depth == 0:
            names.append("".join(current).strip())
            current = []
        else:
            current.append(char)
    if depth:
        raise OptionError(f"unbalanced '(' in the measure list {shown(text)}")
    names.append("".join(current).strip())
    names = [n for n in names if n]
    if not names:
        raise OptionError("an empty measure list")
    return names


def examples() -> list[str]:
    return [e for f in _FAMILIES for e in f.examples]


def _suggest(name: str) -> str:
    import difflib  # only for an error message: not imported on the fast path

    if len(name) > 100:
        return ""
    close = difflib.get_close_matches(name.upper(), examples(), n=1, cutoff=0.5)
    return f" (did you mean {close[0]}?)" if close else ""
