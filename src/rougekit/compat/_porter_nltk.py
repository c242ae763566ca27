"""The Porter stemmer as NLTK's ``PorterStemmer()`` runs it by default (``NLTK_EXTENSIONS``).

rouge-score 0.1.2 stems with ``nltk.stem.porter.PorterStemmer()``, whose default mode
is M. F. Porter's 1980 suffix-stripping algorithm plus a handful of refinements
(Porter's own later fixes and a few from NLTK contributors).  This is a
from-scratch implementation of that variant, written from the algorithm's
description; it does not import nltk.  It is *not* the stemmer of
ROUGE-1.5.5.pl (that one lives in :mod:`rougekit.text.porter`); the two differ
on many words (``"dying"``, ``"happy"``, ``"generalli"`` ...).

Summary of the variant (``m`` is Porter's measure, the number of vowel-consonant
runs ``VC`` of a stem; ``y`` is a vowel when it follows a consonant, and a
consonant at the start of a word or after a vowel):

* lower-case the word; a small table of irregular forms maps some words directly
  (``skies -> sky``, ``dying -> die``, ``news -> news``, ``innings -> inning`` ...);
  words of at most two characters are returned as they are;
* 1a: ``sses -> ss``, four-letter ``?ies -> ?ie``, ``ies -> i``, ``ss -> ss``, ``s ->``;
* 1b: ``ied -> ie`` for four-letter words, else ``ied -> i`` (and 1b stops there);
  ``eed -> ee`` if ``m > 0``; ``ed`` / ``ing`` removed if what remains has a
  vowel, then ``at/bl/iz`` get an ``e`` back, a double consonant other than
  ``l/s/z`` is undoubled, or ``e`` is added when ``m == 1`` and the stem ends
  consonant-vowel-consonant (the last not ``w/x/y``; a two-letter
  vowel-consonant stem also counts);
* 1c: final ``y -> i`` when it follows a consonant and is not the second letter;
* 2: ``alli -> al`` first (then step 2 again), then the usual ``ational -> ate``
  ... table with ``bli -> ble``, ``fulli -> ful`` and ``logi -> log`` (its
  condition is measured on the stem that keeps the ``l``);
* 3, 4: Porter's tables (``m > 0`` and ``m > 1``; ``ion`` needs a preceding ``s`` or ``t``);
* 5a: drop a final ``e`` if ``m > 1``, or if ``m == 1`` and not consonant-vowel-consonant;
* 5b: ``ll -> l`` if the word without its last letter has ``m > 1``.

In every rule table the *first* rule whose suffix matches decides: if its
condition fails the word is left unchanged by that step.

:func:`stem` caches its results by word type.
"""

from __future__ import annotations

__all__ = ["PorterStemmer", "stem"]

_VOWELS = frozenset("aeiou")

# Irregular forms looked up before any rule.
_IRREGULAR: dict[str, str] = {}
for _base, _forms in (
    ("sky", ("sky", "skies")),
    ("die", ("dying",)),
    ("lie", ("lying",)),
    ("tie", ("tying",)),
    ("news", ("news",)),
    ("inning", ("innings", "inning")),
    ("outing", ("outings", "outing")),
    ("canning", ("cannings", "canning")),
    ("howe", ("howe",)),
    ("proceed", ("proceed",)),
    ("exceed", ("exceed",)),
    ("succeed", ("succeed",)),
):
    for _form in _forms:
        _IRREGULAR[_form] = _base
del _base, _forms, _form


# --------------------------------------------------------------------------- predicates


def _consonants(word: str) -> list[bool]:
    """``True`` at each consonant position of ``word``.

    A letter is a vowel if it is one of ``aeiou``, or a ``y`` that follows a
    consonant; everything else (including digits) is a consonant.
    """
    flags: list[bool] = []
    prev = False  # value for "before the word": a leading y is a consonant
    for i, ch in enumerate(word):
        if ch in _VOWELS:
            cur = False
        elif ch == "y":
            cur = True if i == 0 else not prev
        else:
            cur = True
        flags.append(cur)
        prev = cur
    return flags


def _measure(word: str) -> int:
    """Porter's ``m``: the number of vowel-to-consonant transitions in ``word``."""
    m = 0
    prev_vowel = False
    for cons in _consonants(word):
        if cons and prev_vowel:
            m += 1
        prev_vowel = not cons
    return m


def _has_vowel(word: str) -> bool:
    return not all(_consonants(word))


def _ends_double_consonant(word: str) -> bool:
    return len(word) >= 2 and word[-1] == word[-2] and _consonants(word)[-1]


def _ends_cvc(word: str) -> bool:
    """Condition ``*o``: ends consonant-vowel-consonant with the last letter not w, x or y.

    NLTK's variant also accepts a two-letter word made of a vowel then a consonant.
    """
    n = len(word)
    if n >= 3:
        c = _consonants(word)
        return c[-3] and not c[-2] and c[-1] and word[-1] not in "wxy"
    if n == 2:
        c = _consonants(word)
        return (not c[0]) and c[1]
    return False


# --------------------------------------------------------------------------- rule tables

# (suffix, replacement) pairs; the condition is m(stem) > 0 unless noted.
_STEP2 = (
    ("ational", "ate"),
    ("tional", "tion"),
    ("enci", "ence"),
    ("anci", "ance"),
    ("izer", "ize"),
    ("bli", "ble"),
    ("alli", "al"),
    ("entli", "ent"),
    ("eli", "e"),
    ("ousli", "ous"),
    ("ization", "ize"),
    ("ation", "ate"),
    ("ator", "ate"),
    ("alism", "al"),
    ("iveness", "ive"),
    ("fulness", "ful"),
    ("ousness", "ous"),
    ("aliti", "al"),
    ("iviti", "ive"),
    ("biliti", "ble"),
    ("fulli", "ful"),
    ("logi", "log"),  # condition measured on the word minus "ogi" (keeps the 'l')
)

_STEP3 = (
    ("icate", "ic"),
    ("ative", ""),
    ("alize", "al"),
    ("iciti", "ic"),
    ("ical", "ic"),
    ("ful", ""),
    ("ness", ""),
)

# Removed when m(stem) > 1; "ion" also needs the stem to end in s or t.
_STEP4 = (
    "al",
    "ance",
    "ence",
    "er",
    "ic",
    "able",
    "ible",
    "ant",
    "ement",
    "ment",
    "ent",
    "ion",
    "ou",
    "ism",
    "ate",
    "iti",
    "ous",
    "ive",
    "ize",
)


# --------------------------------------------------------------------------- steps


def _step1a(w: str) -> str:
    if w.endswith("ies") and len(w) == 4:
        return w[:-1]  # "ties" -> "tie"
    if w.endswith("sses"):
        return w[:-2]
    if w.endswith("ies"):
        return w[:-2]
    if w.endswith("ss"):
        return w
    if w.endswith("s"):
        return w[:-1]
    return w


def _step1b(w: str) -> str:
    if w.endswith("ied"):
        return w[:-1] if len(w) == 4 else w[:-2]  # "died" -> "die", "spied" -> "spi"
    if w.endswith("eed"):
        return w[:-1] if _measure(w[:-3]) > 0 else w
    if w.endswith("ed") and _has_vowel(w[:-2]):
        s = w[:-2]
    elif w.endswith("ing") and _has_vowel(w[:-3]):
        s = w[:-3]
    else:
        return w
    # Tidy-up of the stem left by "ed" / "ing".
    if s.endswith(("at", "bl", "iz")):
        return s + "e"
    if _ends_double_consonant(s):
        return s if s[-1] in "lsz" else s[:-1]
    if _measure(s) == 1 and _ends_cvc(s):
        return s + "e"
    return s


def _step1c(w: str) -> str:
    if w.endswith("y"):
        s = w[:-1]
        if len(s) > 1 and _consonants(s)[-1]:
            return s + "i"
    return w


def _step2(w: str) -> str:
    if w.endswith("alli") and _measure(w[:-4]) > 0:
        return _step2(w[:-2])  # "...alli" -> "...al", then step 2 once more
    for suffix, repl in _STEP2:
        if w.endswith(suffix):
            if suffix == "logi":
                ok = _measure(w[:-3]) > 0
            else:
                ok = _measure(w[: -len(suffix)]) > 0
            return w[: -len(suffix)] + repl if ok else w
    return w


def _step3(w: str) -> str:
    for suffix, repl in _STEP3:
        if w.endswith(suffix):
            s = w[: -len(suffix)]
            return s + repl if _measure(s) > 0 else w
    return w


def _step4(w: str) -> str:
    for suffix in _STEP4:
        if w.endswith(suffix):
            s = w[: -len(suffix)]
            ok = _measure(s) > 1
            if ok and suffix == "ion":
                ok = s[-1] in "st"
            return s if ok else w
    return w


def _step5a(w: str) -> str:
    if w.endswith("e"):
        s = w[:-1]
        m = _measure(s)
        if m > 1 or (m == 1 and not _ends_cvc(s)):
            return s
    return w


def _step5b(w: str) -> str:
    if w.endswith("ll") and _measure(w[:-1]) > 1:
        return w[:-1]
    return w


def _stem_uncached(word: str) -> str:
    w = word.lower()
    irregular = _IRREGULAR.get(w)
    if irregular is not None:
        return irregular
    if len(word) <= 2:
        return w
    w = _step1a(w)
    w = _step1b(w)
    w = _step1c(w)
    w = _step2(w)
    w = _step3(w)
    w = _step4(w)
    w = _step5a(w)
    w = _step5b(w)
    return w


_CACHE: dict[str, str] = {}
CACHE_MAX = 1 << 20


def stem(word: str) -> str:
    """Stem ``word`` (lower-cased first) as NLTK's default ``PorterStemmer().stem`` does.

    Results are cached by word type (the cache is cleared if it grows past about
    a million entries).
    """
    out = _CACHE.get(word)
    if out is None:
        out = _stem_uncached(word)
        if len(_CACHE) >= CACHE_MAX:
            _CACHE.clear()
        _CACHE[word] = out
    return out


class PorterStemmer:
    """Object form of :func:`stem`, for code that expects a ``.stem(word)`` method."""

    def stem(self, word: str) -> str:
        return stem(word)

    def __repr__(self) -> str:
        return "<rougekit.compat PorterStemmer (NLTK_EXTENSIONS)>"
