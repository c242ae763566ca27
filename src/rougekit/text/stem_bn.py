"""The Bengali rule-based stemmer of XL-Sum's multilingual ROUGE (Rafi Kamal's rules, 2014).

XL-Sum's scorer (``multilingual-rouge`` 0.0.1, ``BengaliStemmer``) stems Bengali with the
``RafiStemmer`` of the BanglaKit ``bengali-stemmer`` project and its ``common.rules`` file;
the package's wheel lacks that file (its stemmer raises ``FileNotFoundError``). rougekit ships
the file unchanged (``data/bengali-stemmer-rules.txt``, MIT; see ``data/PROVENANCE.md``) and
applies it as follows.

Reading the rules: every white-space character is removed from a line, then anything from
``#`` on; empty lines are dropped. ``{`` ... ``}`` enclose a group of suffixes, in file order;
lines outside a group are not suffixes. A line ``suffix->replacement`` (exactly one ``->``;
a line with more is dropped) gives the suffix a replacement when the replacement is not empty.

Stemming a word: the groups are tried in order; in each group, the first suffix the word ends
with is the only one looked at. With a replacement, the replacement's characters overwrite the
word from where the suffix starts, ``.`` keeping the word's own character, and the word ends
after them. Without one, the suffix is cut off, but only if what remains has at least one
character that is not a dependent vowel sign (া ি ী ে ু ূ ো). The next group then sees the
result. Characters are code points, as Python's ``len``.
"""

from __future__ import annotations

import functools
from importlib import resources

__all__ = ["stemmer", "Rules", "rules"]

#: dependent vowel signs: a remainder made only of these is too short to cut a suffix from
VOWEL_SIGNS = frozenset("\u09be\u09bf\u09c0\u09c7\u09c1\u09c2\u09cb")
RULES_FILE = "bengali-stemmer-rules.txt"


class Rules:
    """Suffix groups in file order, and the replacements of the suffixes that have one."""

    def __init__(self, text: str):
        lines = [line for line in map(_clean, text.splitlines()) if line is not None]
        self.replacements: dict[str, str] = {}
        for suffix, replacement in lines:
            if replacement:
                self.replacements[suffix] = replacement
        self.groups: list[tuple[str, ...]] = []
        group: list[str] | None = None
        for suffix, _ in lines:
            if group is None:
                if suffix == "{":
                    group = []
            elif suffix == "}":
                self.groups.append(tuple(group))
                group = None
            else:
                group.append(suffix)
        if group is not None:  # a group left open at the end of the file still counts
            self.groups.append(tuple(group))
        for suffix, replacement in self.replacements.items():
            if len(replacement) > len(suffix):
                raise ValueError(f"Bengali stemmer rule {suffix}->{replacement}: the replacement is longer")

    def stem(self, word: str) -> str:
        for group in self.groups:
            for suffix in group:
                if word.endswith(suffix):
                    start = len(word) - len(suffix)
                    replacement = self.replacements.get(suffix)
                    if replacement is not None:
                        kept = word[start : start + len(replacement)]
                        word = word[:start] + "".join(k if r == "." else r for r, k in zip(replacement, kept))
                    elif any(c not in VOWEL_SIGNS for c in word[:start]):
                        word = word[:start]
                    break
        return word


def _clean(line: str) -> tuple[str, str] | None:
    """(suffix, replacement) of a rules line, or None for a line that holds no rule."""
    line = "".join(line.split()).split("#", 1)[0]
    if not line:
        return None
    if "->" not in line:
        return line, ""
    parts = line.split("->")
    if len(parts) != 2:
        return None
    return parts[0], parts[1]


@functools.lru_cache(maxsize=1)
def rules() -> Rules:
    """The rules rougekit ships (read once)."""
    return Rules((resources.files("rougekit.text") / "data" / RULES_FILE).read_text(encoding="utf-8"))


def stemmer(word: str) -> str:
    """``word`` stemmed by XL-Sum's Bengali rules.

    >>> stemmer("করেছেন"), stemmer("আমাকে"), stemmer("করছ")
    ('কর', 'আমা', 'কর')
    """
    return rules().stem(word)
