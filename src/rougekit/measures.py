"""Measures as values with canonical names that parse and print.

>>> Measure.parse("rouge-su4")
Measure(kind='SU', n=None, weight=None, skip=4, be_mode=None, label=None)
>>> str(Measure.parse("ROUGE-W-1.2")), str(Measure.parse("ROUGE-S*")), str(Measure.rouge_n(2))
('ROUGE-W-1.2', 'ROUGE-S*', 'ROUGE-2')
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rougekit.errors import OptionError

KINDS = ("N", "L", "W", "S", "SU", "BE")
# measures of the other seed papers (Lin & Hovy 2003; Hori et al. 2004): one value per pair
SINGLE_VALUED = ("BLEU", "NGRAM", "ACCY", "NRSTACCY", "PREC", "SUMACCY", "WSUMACCY")
NEEDS_SOURCE = ("SUMACCY", "WSUMACCY")
_OTHER = re.compile(
    r"^(?:(?P<bleu>BLEU)|NGRAM\((?P<i>[0-9]+),(?P<j>[0-9]+)\)|(?P<accy>ACCY|NRSTACCY|SUMACCY|WSUMACCY)"
    r"|PREC-(?P<p>[0-9]+))$"
)
BE_MODES = ("H", "HM", "HMR", "HM1", "HMR1", "HMR2")
_NAME = re.compile(
    r"^ROUGE-(?:(?P<n>[0-9]+)|(?P<l>L)|W-(?P<w>[0-9]*\.?[0-9]+)|(?P<s>SU|S)(?P<d>\*|[0-9]+)"
    r"|BE-(?P<be>[A-Z0-9]+))$"
)


@dataclass(frozen=True)
class Measure:
    """One ROUGE measure. ``skip`` < 0 means no distance limit (S*/SU*).

    ``label`` overrides the printed name (the 1.5.5 report prints ``-w``/``-2`` as typed).
    """

    kind: str
    n: int | None = None
    weight: float | None = None
    skip: int | None = None
    be_mode: str | None = None
    label: str | None = None

    @classmethod
    def rouge_n(cls, n: int) -> "Measure":
        return cls("N", n=n)

    @property
    def single_valued(self) -> bool:
        """True for measures with one value per pair (BLEU, Ngram(i,j), ACCY, ...), not R/P/F."""
        return self.kind in SINGLE_VALUED

    @classmethod
    def parse(cls, name: str) -> "Measure":
        """Parse a canonical name such as ROUGE-1, ROUGE-L, ROUGE-W-1.2, ROUGE-SU4, ROUGE-S*,
        or BLEU, Ngram(1,4), ACCY, NrstACCY, PREC-2, SumACCY, WSumACCY."""
        text = name.strip().upper().replace(" ", "")
        other = _OTHER.match(text)
        if other:
            if other["bleu"]:
                return cls("BLEU", n=4)
            if other["i"]:
                i, j = int(other["i"]), int(other["j"])
                if not 1 <= i <= j:
                    raise OptionError(f"Ngram(i,j) needs 1 <= i <= j, got {name!r}")
                return cls("NGRAM", n=i, skip=j)
            if other["p"]:
                if int(other["p"]) < 1:
                    raise OptionError(f"PREC-n needs n >= 1, got {name!r}")
                return cls("PREC", n=int(other["p"]))
            return cls(other["accy"])
        match = _NAME.match(text)
        if not match:
            raise OptionError(f"unknown measure {name!r}{_suggest(name)}")
        if match["n"]:
            if int(match["n"]) < 1:
                raise OptionError(f"unknown measure {name!r}: ROUGE-N needs N >= 1")
            return cls("N", n=int(match["n"]))
        if match["l"]:
            return cls("L")
        if match["w"]:
            return cls("W", weight=float(match["w"]))
        if match["s"]:
            skip = -1 if match["d"] == "*" else int(match["d"])
            return cls(match["s"], skip=skip)
        mode = match["be"]
        if mode not in BE_MODES:
            raise OptionError(f"unknown Basic-Element mode {mode!r} (use {', '.join(BE_MODES)})")
        return cls("BE", be_mode=mode)

    @property
    def name(self) -> str:
        if self.label is not None:
            return self.label
        if self.kind == "N":
            return f"ROUGE-{self.n}"
        if self.kind == "L":
            return "ROUGE-L"
        if self.kind == "W":
            return f"ROUGE-W-{self.weight:g}"
        if self.kind in ("S", "SU"):
            return f"ROUGE-{self.kind}{'*' if self.skip < 0 else self.skip}"
        if self.kind == "BE":
            return f"ROUGE-BE-{self.be_mode}"
        return {
            "BLEU": "BLEU",
            "NGRAM": f"Ngram({self.n},{self.skip})",
            "ACCY": "ACCY",
            "NRSTACCY": "NrstACCY",
            "PREC": f"PREC-{self.n}",
            "SUMACCY": "SumACCY",
            "WSUMACCY": "WSumACCY",
        }[self.kind]

    def __str__(self) -> str:
        return self.name


def _suggest(name: str) -> str:
    known = [
        "ROUGE-1",
        "ROUGE-2",
        "ROUGE-3",
        "ROUGE-4",
        "ROUGE-L",
        "ROUGE-W-1.2",
        "ROUGE-S4",
        "ROUGE-SU4",
        "ROUGE-S*",
        "ROUGE-SU*",
        "ROUGE-BE-HM",
        "BLEU",
        "Ngram(1,4)",
        "ACCY",
        "NrstACCY",
        "PREC-1",
        "SumACCY",
        "WSumACCY",
    ]
    import difflib  # only for an error message: not imported on the fast path

    close = difflib.get_close_matches(name.upper(), known, n=1, cutoff=0.5)
    return f" (did you mean {close[0]}?)" if close else ""
