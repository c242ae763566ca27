"""A compact string naming every choice that changes the numbers (in the manner of sacrebleu).

>>> s = Signature(measures="ROUGE-1,ROUGE-L", stem=True)
>>> str(s)
'rougekit|m:ROUGE-1,ROUGE-L|tok:rouge155|stem:yes|stop:no|limit:none|refs:sum|alpha:0.5|su:rouge155|w:rouge155|avg:pairs|boot:rouge155|r:1000|c:95|seed:none|v:0.1.0'
>>> Signature.parse(str(s)) == s
True
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from rougekit import __version__
from rougekit.errors import OptionError

_KEYS = {
    "measures": "m",
    "tokenizer": "tok",
    "stem": "stem",
    "stopwords": "stop",
    "limit": "limit",
    "multi_ref": "refs",
    "alpha": "alpha",
    "su_unigrams": "su",
    "wlcs": "w",
    "average": "avg",
    "bootstrap": "boot",
    "resamples": "r",
    "confidence": "c",
    "seed": "seed",
    "version": "v",
}
_BOOLS = ("stem", "stopwords")


@dataclass(frozen=True)
class Signature:
    measures: str
    tokenizer: str = "rouge155"
    stem: bool = False
    stopwords: bool = False
    limit: str = "none"  # none | words:N | bytes:N
    multi_ref: str = "sum"
    alpha: str = "0.5"
    su_unigrams: str = "rouge155"
    wlcs: str = "rouge155"
    average: str = "pairs"
    bootstrap: str = "rouge155"
    resamples: int = 1000
    confidence: str = "95"
    seed: str = "none"
    version: str = __version__

    def __str__(self) -> str:
        parts = ["rougekit"]
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name in _BOOLS:
                value = "yes" if value else "no"
            parts.append(f"{_KEYS[f.name]}:{value}")
        return "|".join(parts)

    @classmethod
    def parse(cls, text: str) -> "Signature":
        """Read a signature string back (inverse of ``str``)."""
        parts = text.strip().split("|")
        if not parts or parts[0] != "rougekit":
            raise OptionError(f"not a rougekit signature: {text!r}")
        by_key = {v: k for k, v in _KEYS.items()}
        values: dict[str, Any] = {}
        for part in parts[1:]:
            key, sep, value = part.partition(":")
            if not sep or key not in by_key:
                raise OptionError(f"bad signature field {part!r}")
            name = by_key[key]
            if name in _BOOLS:
                values[name] = value == "yes"
            elif name == "resamples":
                values[name] = int(value)
            else:
                values[name] = value
        if "measures" not in values:
            raise OptionError("signature has no measures field (m:...)")
        return cls(**values)
