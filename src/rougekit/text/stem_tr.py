"""The Turkish stemmer of XL-Sum's multilingual ROUGE (the ``TurkishStemmer`` 1.3 package's rules).

The XL-Sum scorer (``multilingual-rouge`` 0.0.1) stems Turkish with ``TurkishStemmer`` from
PyPI, a Python port of the elasticsearch Turkish stemmer: three suffix state machines
(nominal verb suffixes, noun suffixes, derivational suffixes) after Eryiğit and Adalı's
"An affix stripping morphological analyzer for Turkish" (2004), a last-consonant rule and a
choice among the candidate stems by their distance to an average stem length of four
letters (Can et al., "Information retrieval on Turkish texts", 2008). Re-implemented here
from that package's behaviour; its four word lists ship in ``data/`` (Apache-2.0, see
``data/PROVENANCE.md``).

How a word is stemmed (:func:`stemmer`):

* only words of the Turkish alphabet with at least two vowels, not in the protected list;
* each machine starts from its initial state with every suffix of that state the word ends
  with (in the suffix priority order), and works a FIFO queue of (state, next state, word,
  suffix) transitions: the suffix is removed when the word is not protected and either the
  suffix needs no vowel harmony, or the last two vowels harmonise, or the word is a harmony
  exception; a suffix with an optional letter (``-(y)Um``: ``y``) then drops that letter when
  the word ends with it and the letter before it is of the other kind (a vowel before a
  consonant letter, a consonant before a vowel), or else undoes the removal. A changed word
  that reaches a final state is a candidate stem: queued transitions between the same two
  states, and those marked, are dropped, and the new word's transitions are queued. A changed
  word that reaches a non-final state marks the queued transitions between the same two
  states and queues its own;
* the noun machine runs on the word and every nominal-verb candidate, the derivational
  machine on the word and every candidate so far;
* candidates (other than the word itself) with a vowel get the last-consonant rule (final
  ``b c d ğ`` become ``p ç t k`` unless the word is an exception); the candidate closest to
  four letters wins (the shorter on equal distance; an average-size exception first).

One difference: when two different candidates tie (same length, neither an exception), the
package's choice depends on Python's string hashing (``PYTHONHASHSEED``), so it can change
from one run to the next; this module takes the one that sorts first.
"""

from __future__ import annotations

import functools
from collections import deque
from importlib import resources
from typing import NamedTuple, Optional

__all__ = ["stemmer"]

ALPHABET = frozenset("abcçdefgğhıijklmnoöprsştuüvyz")
VOWELS = frozenset("üiıueöao")
CONSONANTS = frozenset("bcçdfgğhjklmnprsştvyz")
_ROUNDED, _AFTER_ROUNDED, _UNROUNDED = frozenset("oöuü"), frozenset("aeuü"), frozenset("iıea")
_FRONT, _BACK = frozenset("eiöü"), frozenset("ıuao")
_LAST_CONSONANT = {"b": "p", "c": "ç", "d": "t", "ğ": "k"}
AVERAGE_STEM_SIZE = 4


class Suffix(NamedTuple):
    name: str
    endings: tuple  # alternatives, all of one length
    optional: Optional[frozenset]  # the optional letter(s) before the suffix, if any
    harmony: bool  # removal needs vowel harmony


def _sfx(name: str, endings: str, optional: Optional[str] = None, harmony: bool = True) -> Suffix:
    return Suffix(name, tuple(endings.split()), frozenset(optional.split()) if optional else None, harmony)


# Nominal verb suffixes (the "-(y)" ones may follow a buffer y).
V_CASINA = _sfx("-cAsInA", "casına çasına cesine çesine")
V_SUNUZ = _sfx("-sUnUz", "sınız siniz sunuz sünüz")
V_MUS = _sfx("-(y)mUş", "muş miş müş mış", "y")
V_KEN = _sfx("-(y)ken", "ken", "y")
V_SUN = _sfx("-sUn", "sın sin sun sün")
V_LAR = _sfx("-lAr", "lar ler")
V_NUZ = _sfx("-nUz", "nız niz nuz nüz")
V_DUR = _sfx("-DUr", "tır tir tur tür dır dir dur dür")
V_UZ = _sfx("-(y)Uz", "ız iz uz üz", "y")
V_UM = _sfx("-(y)Um", "ım im um üm", "y")
V_DU = _sfx("-(y)DU", "dı di du dü tı ti tu tü", "y")
V_SA = _sfx("-(y)sA", "sa se", "y")
V_M = _sfx("-m", "m")
V_N = _sfx("-n", "n")
V_K = _sfx("-k", "k")

# Noun suffixes.
N_NDAN = _sfx("-nDAn", "ndan ntan nden nten")
N_LARI = _sfx("-lArI", "ları leri")
N_UMUZ = _sfx("-(U)mUz", "mız miz muz müz", "ı i u ü")
N_UNUZ = _sfx("-(U)nUz", "nız niz nuz nüz", "ı i u ü")
N_LAR = _sfx("-lAr", "lar ler")
N_NDA = _sfx("-nDA", "nta nte nda nde")
N_DAN = _sfx("-DAn", "dan tan den ten")
N_LA = _sfx("-(y)lA", "la le", "y")
N_NUN = _sfx("-(n)Un", "ın in un ün", "n")
N_NCA = _sfx("-(n)cA", "ca ce", "n")
N_UN = _sfx("-Un", "ın in un ün")
N_NU = _sfx("-nU", "nı ni nu nü")
N_NA = _sfx("-nA", "na ne")
N_DA = _sfx("-DA", "da de ta te")
N_KI = _sfx("-ki", "ki", None, harmony=False)
N_UM = _sfx("-(U)m", "m", "ı i u ü")
N_SU = _sfx("-(s)U", "ı i u ü", "s")
N_YU = _sfx("-(y)U", "ı i u ü", "y")
N_YA = _sfx("-(y)A", "a e", "y")

D_LU = _sfx("-lU", "lı li lu lü")


class State(NamedTuple):
    name: str
    final: bool
    moves: tuple  # (suffix, next state name) in priority order


def _machine(*states: State) -> dict:
    return {state.name: state for state in states}


NOMINAL_VERB = _machine(
    State(
        "A",
        False,
        (
            (V_CASINA, "H"), (V_SUNUZ, "B"), (V_MUS, "F"), (V_KEN, "F"), (V_SUN, "B"),
            (V_LAR, "C"), (V_NUZ, "D"), (V_DUR, "E"), (V_UZ, "B"), (V_UM, "B"),
            (V_DU, "F"), (V_SA, "F"), (V_M, "D"), (V_N, "D"), (V_K, "D"),
        ),
    ),
    State("B", True, ((V_MUS, "F"),)),
    State("C", True, ((V_DUR, "F"), (V_DU, "F"), (V_SA, "F"), (V_MUS, "F"))),
    State("D", False, ((V_DU, "F"), (V_SA, "F"))),
    State("E", True, ((V_UM, "G"), (V_SUN, "G"), (V_UZ, "G"), (V_SUNUZ, "G"), (V_LAR, "G"), (V_MUS, "F"))),
    State("F", True, ()),
    State("G", False, ((V_MUS, "F"),)),
    State("H", False, ((V_UM, "G"), (V_SUN, "G"), (V_UZ, "G"), (V_SUNUZ, "G"), (V_LAR, "G"), (V_MUS, "F"))),
)  # fmt: skip

_POSSESSIVE_TO = ((N_LAR, "L"), (N_UM, "H"), (N_UMUZ, "H"), (N_UN, "H"), (N_UNUZ, "H"))
NOUN = _machine(
    State(
        "A",
        True,
        (
            (N_NDAN, "C"), (N_LARI, "K"), (N_UMUZ, "H"), (N_UNUZ, "H"), (N_LAR, "L"), (N_NDA, "F"),
            (N_DAN, "G"), (N_LA, "E"), (N_NUN, "E"), (N_NCA, "M"), (N_UN, "H"), (N_NU, "C"),
            (N_NA, "F"), (N_DA, "B"), (N_KI, "D"), (N_UM, "H"), (N_SU, "H"), (N_YU, "B"), (N_YA, "B"),
        ),
    ),
    State("B", True, _POSSESSIVE_TO),
    State("C", False, ((N_SU, "H"), (N_LARI, "K"))),
    State("D", False, ((N_NUN, "E"), (N_DA, "B"), (N_NDA, "F"))),
    State("E", True, (*_POSSESSIVE_TO, (N_SU, "H"), (N_LARI, "K"), (N_KI, "D"))),
    State("F", False, ((N_SU, "H"), (N_LARI, "K"), (N_KI, "D"))),
    State("G", True, (*_POSSESSIVE_TO, (N_KI, "D"))),
    State("H", True, ((N_LAR, "L"),)),
    State("K", True, ()),
    State("L", True, ((N_KI, "D"),)),
    State("M", True, (*_POSSESSIVE_TO, (N_SU, "H"), (N_SU, "H"), (N_LARI, "K"))),
)  # fmt: skip

DERIVATIONAL = _machine(State("A", False, ((D_LU, "B"),)), State("B", True, ()))


@functools.lru_cache(maxsize=None)
def _word_list(name: str) -> frozenset[str]:
    text = resources.files("rougekit.text").joinpath("data", f"turkish-stemmer-{name}.txt").read_text(encoding="utf-8")
    return frozenset(line.strip() for line in text.splitlines(keepends=True))


def _vowels(word: str) -> str:
    return "".join(c for c in word if c in VOWELS)


def _harmonic(word: str) -> bool:
    """The last two vowels agree in frontness and roundness (True with fewer than two vowels)."""
    vowels = _vowels(word)
    if len(vowels) < 2:
        return True
    a, b = vowels[-2], vowels[-1]
    round_ok = (a in _UNROUNDED and b in _UNROUNDED) or (a in _ROUNDED and b in _AFTER_ROUNDED)
    front_ok = (a in _FRONT and b in _FRONT) or (a in _BACK and b in _BACK)
    return round_ok and front_ok


def _strip(word: str, suffix: Suffix) -> str:
    """One suffix removal, with the optional-letter rule; the word itself when nothing applies."""
    result = word
    if word not in _word_list("protected-words") and word.endswith(suffix.endings):
        if not suffix.harmony or _harmonic(word) or word in _word_list("vowel-harmony-exceptions"):
            result = word[: -len(suffix.endings[0])]
    if suffix.optional is not None and result[-1:] in suffix.optional:
        letter = result[-1]
        before = result[-2] if len(result) >= 2 else None
        valid = before is not None and (before in CONSONANTS if letter in VOWELS else before in VOWELS)
        result = result[:-1] if valid else word
    return result


class _Move:
    __slots__ = ("source", "target", "word", "suffix", "marked")

    def __init__(self, source: str, target: str, word: str, suffix: Suffix):
        self.source, self.target, self.word, self.suffix, self.marked = source, target, word, suffix, False


def _queue_moves(machine: dict, state: str, word: str, queue: deque) -> None:
    for suffix, target in machine[state].moves:
        if word.endswith(suffix.endings):
            queue.append(_Move(state, target, word, suffix))


def _run(machine: dict, word: str, stems: set) -> None:
    queue: deque = deque()
    _queue_moves(machine, "A", word, queue)
    while queue:
        move = queue.popleft()
        stem = _strip(move.word, move.suffix)
        if stem == move.word:
            continue
        same_edge = [m for m in queue if m.source == move.source and m.target == move.target]
        if machine[move.target].final:
            for m in [m for m in queue if (m.source == move.source and m.target == move.target) or m.marked]:
                queue.remove(m)
            stems.add(stem)
        else:
            for m in same_edge:
                m.marked = True
        _queue_moves(machine, move.target, stem, queue)


def _choose(stems: set, word: str) -> str:
    exceptions = _word_list("average-stem-size-exceptions")
    last_consonant_exceptions = _word_list("last-consonant-exceptions")
    finals = set()
    for stem in stems - {word}:
        if _vowels(stem):
            last = _LAST_CONSONANT.get(stem[-1:])
            finals.add(stem[:-1] + last if last and stem not in last_consonant_exceptions else stem)
    if not finals:
        return word

    def before(a: str, b: str) -> int:
        if a in exceptions:
            return -1
        if b in exceptions:
            return 1
        distance = abs(len(a) - AVERAGE_STEM_SIZE) - abs(len(b) - AVERAGE_STEM_SIZE)
        return distance if distance else len(a) - len(b)

    return sorted(sorted(finals), key=functools.cmp_to_key(before))[0]


@functools.lru_cache(maxsize=1 << 16)
def stemmer(word: str) -> str:
    """The stem of a (lower-case) Turkish ``word``; other words come back unchanged."""
    if not word or not set(word) <= ALPHABET or word in _word_list("protected-words") or len(_vowels(word)) < 2:
        return word
    stems: set = set()
    _run(NOMINAL_VERB, word, stems)
    for candidate in stems | {word}:
        _run(NOUN, candidate, stems)
    for candidate in stems | {word}:
        _run(DERIVATIONAL, candidate, stems)
    return _choose(stems, word)
