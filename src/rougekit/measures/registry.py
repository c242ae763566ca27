"""The measure registry: every family of measures, registered once; names parse through it.

>>> parse("rouge-su4").name, parse("ROUGE-W-1.2").name, parse("Ngram(1,4)").name
('ROUGE-SU4', 'ROUGE-W-1.2', 'Ngram(1,4)')
>>> sorted(f.__class__.__name__ for f in families())[:3]
['BasicElements', 'Bleu', 'DistinctTypes']
"""

from __future__ import annotations

from rougekit.errors import OptionError
from rougekit.measures.base import Family, Measure

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
            return family.from_match(match, name)
    raise OptionError(f"unknown measure {name!r}{_suggest(name)}")


def examples() -> list[str]:
    return [e for f in _FAMILIES for e in f.examples]


def _suggest(name: str) -> str:
    import difflib  # only for an error message: not imported on the fast path

    close = difflib.get_close_matches(name.upper(), examples(), n=1, cutoff=0.5)
    return f" (did you mean {close[0]}?)" if close else ""
