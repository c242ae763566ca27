"""The Porter stemmer exactly as ROUGE-1.5.5 applies it for ``-m``.

ROUGE-1.5.5.pl carries Martin Porter's own Perl stemmer ("Release 1") with one change
by Chin-Yew Lin (CYL, 02/14/2004) to step 4: the suffix tests run one after another, so
several suffixes can come off (``accidental -> accid``, ``agreement -> agreem``).

Details that differ from textbook descriptions and are kept on purpose:

* the measure tests are regular expressions over the consonant sequence
  ``C = [^aeiou][^aeiouy]*`` and the vowel sequence ``V = [aeiouy][aeiou]*``;
* the "ends cvc" test (``*o``) is a whole-word test: ``^C v [^aeiouwxy]$``;
* step 2 has ``bli -> ble`` and ``logi -> log``;
* a leading ``y`` is upper-cased while stemming (so it counts as a consonant) and
  lower-cased again at the end;
* words shorter than 3 characters are returned unchanged.

Written from the algorithm's description (docs/rouge155/stemming-stopwords.md); checked against
the reference script's own stemmer by ``tests/goldens/porter_stems.tsv``.
"""

from __future__ import annotations

import re

__all__ = ["porter_stem"]

_C = "[^aeiou][^aeiouy]*"  # consonant sequence
_V = "[aeiouy][aeiou]*"  # vowel sequence

# Each test is a prefix match on the stem under test, as in the reference.
_m_gt0 = re.compile(f"(?:{_C})?{_V}{_C}").match  # m > 0
_m_eq1 = re.compile(f"(?:{_C})?{_V}{_C}(?:{_V})?\\Z").match  # m == 1
_m_gt1 = re.compile(f"(?:{_C})?{_V}{_C}{_V}{_C}").match  # m > 1
_has_vowel = re.compile(f"(?:{_C})?[aeiouy]").match  # *v*
_is_cvc = re.compile(f"{_C}[aeiouy][^aeiouwxy]\\Z").match  # whole word is C v c

_STEP2 = {
    "ational": "ate",
    "tional": "tion",
    "enci": "ence",
    "anci": "ance",
    "izer": "ize",
    "bli": "ble",
    "alli": "al",
    "entli": "ent",
    "eli": "e",
    "ousli": "ous",
    "ization": "ize",
    "ation": "ate",
    "ator": "ate",
    "alism": "al",
    "iveness": "ive",
    "fulness": "ful",
    "ousness": "ous",
    "aliti": "al",
    "iviti": "ive",
    "biliti": "ble",
    "logi": "log",
}
_STEP3 = {
    "icate": "ic",
    "ative": "",
    "alize": "al",
    "iciti": "ic",
    "ical": "ic",
    "ful": "",
    "ness": "",
}
# Step 4, first rule: the standard list without "ment" and "ent" (CYL 2004).
_STEP4 = dict.fromkeys(
    ("al", "ance", "ence", "er", "ic", "able", "ible", "ant", "ement", "ou", "ism", "ate", "iti", "ous", "ive", "ize"),
    "",
)


def _suffix_table(table: dict[str, str]) -> tuple[tuple[int, dict[str, str]], ...]:
    """Group a suffix table by length, longest first (= the regex's leftmost match)."""
    lengths = sorted({len(s) for s in table}, reverse=True)
    return tuple((n, {s: r for s, r in table.items() if len(s) == n}) for n in lengths)


_STEP2_BY_LEN = _suffix_table(_STEP2)
_STEP3_BY_LEN = _suffix_table(_STEP3)
_STEP4_BY_LEN = _suffix_table(_STEP4)


def _replace_suffix(w: str, groups, test) -> str:
    """Find the longest listed suffix of ``w``; replace it if ``test(stem)`` holds.

    Only the longest matching suffix is tried, as with the reference's alternation.
    """
    for n, table in groups:
        if len(w) >= n:
            repl = table.get(w[-n:])
            if repl is not None:
                stem = w[:-n]
                return stem + repl if test(stem) else w
    return w


def _step1(w: str) -> str:
    # 1a: plurals
    if w.endswith("sses") or w.endswith("ies"):
        w = w[:-2]
    elif w.endswith("s") and len(w) >= 2 and w[-2] != "s":
        w = w[:-1]
    # 1b: -eed, -ed, -ing
    if w.endswith("eed"):
        if _m_gt0(w[:-3]):
            w = w[:-1]
    else:
        n = 2 if w.endswith("ed") else 3 if w.endswith("ing") else 0
        if n and _has_vowel(w[:-n]):
            w = w[:-n]
            if w.endswith(("at", "bl", "iz")):
                w += "e"
            elif len(w) >= 2 and w[-1] == w[-2] and w[-1] not in "aeiouylsz":
                w = w[:-1]
            elif _is_cvc(w):
                w += "e"
    # 1c: y -> i
    if w.endswith("y") and _has_vowel(w[:-1]):
        w = w[:-1] + "i"
    return w


def _step4(w: str) -> str:
    w = _replace_suffix(w, _STEP4_BY_LEN, _m_gt1)
    if w.endswith("ment") and _m_gt1(w[:-4]):
        w = w[:-4]
    if w.endswith("ent"):
        if _m_gt1(w[:-3]):
            w = w[:-3]
    elif w.endswith(("sion", "tion")) and _m_gt1(w[:-3]):
        w = w[:-3]
    return w


def _step5(w: str) -> str:
    if w.endswith("e"):
        stem = w[:-1]
        if _m_gt1(stem) or (_m_eq1(stem) and not _is_cvc(stem)):
            w = stem
    if w.endswith("ll") and _m_gt1(w):
        w = w[:-1]
    return w


def porter_stem(word: str) -> str:
    """Stem one lower-case word the way ROUGE-1.5.5's ``stem`` subroutine does (``-m``)."""
    if len(word) < 3:
        return word
    leading_y = word[0] == "y"
    w = "Y" + word[1:] if leading_y else word
    w = _step1(w)
    w = _replace_suffix(w, _STEP2_BY_LEN, _m_gt0)
    w = _replace_suffix(w, _STEP3_BY_LEN, _m_gt0)
    w = _step4(w)
    w = _step5(w)
    if leading_y:
        w = w[:1].lower() + w[1:]
    return w
