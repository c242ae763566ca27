"""Basic Elements (``-3``): ``head|modifier|relation`` lines to counted keys, as ROUGE-1.5.5 does.

The modes are described in docs/rouge155/measures.md#rouge-be--3-mode.

>>> be_keys([b"Cat|nil|nil", b"cat|black|mod", b"cat|black|mod"], "HM")
{'cat|black': 2}
>>> be_keys([b"Cat|nil|nil", b"cat|black|mod"], "H")
{'cat': 1}
"""

from __future__ import annotations

import re
from typing import Callable

from rougekit.errors import InputError
from rougekit.text.rouge155 import lower_ascii, split_fields

_WORDISH = re.compile(r"[A-Za-z0-9]")
_BRACKETS = re.compile(r"(-LRB-|-RRB-|-LSB-|-RSB-|-LCB-|-RCB-)")


def _stem_words(phrase: str, stem: Callable[[str], str]) -> str:
    """The script's MorphStemMulti: stem each white-space separated word with a letter or digit."""
    words = [w.decode("latin-1") for w in split_fields(phrase.encode("latin-1"))]
    out = []
    for word in words:
        if word and _WORDISH.search(word) and not _BRACKETS.search(word):
            word = stem(word)
        out.append(word)
    return " ".join(out)


def _perl_split_bar(line: str) -> list[str]:
    fields = line.split("|")
    while fields and not fields[-1]:
        fields.pop()
    return fields


def be_keys(
    lines: list[bytes], mode: str, stem: Callable[[str], str] | None = None, source: str = "<input>"
) -> dict[str, int]:
    """Counted BE keys of one summary for a ``-3`` mode (H, HM, HMR, HM1, HMR1, HMR2)."""
    keys: dict[str, int] = {}
    for number, raw in enumerate(lines, start=1):
        be = lower_ascii(raw).decode("latin-1")
        fields = _perl_split_bar(be)
        if len(fields) != 3:  # the line itself is not quoted: the file may be any file a config names
            raise InputError(
                f"{source}, line {number}: a Basic Element must be HEAD|MODIFIER|RELATION, this line has "
                f"{len(fields)} field{'s' if len(fields) != 1 else ''}"
            )
        head, mod, rel = fields
        if stem is not None:
            if len(head) > 3:
                head = _stem_words(head, stem)
            if len(mod) > 3:
                mod = _stem_words(mod, stem)
        key = None
        if mode == "H" and mod == "nil":
            key = head
        elif mode == "HM" and mod != "nil":
            key = f"{head}|{mod}"
        elif mode == "HMR" and rel != "nil":
            key = f"{head}|{mod}|{rel}"
        elif mode == "HM1":
            key = f"{head}|{mod}"
        elif mode == "HMR1" and fields[1] != "nil":
            key = f"{head}|{mod}|{rel}"
        elif mode == "HMR2":
            key = f"{head}|{mod}|{rel}"
        if key is not None:
            keys[key] = keys.get(key, 0) + 1
    return keys
