"""The compiled NLTK-mode Porter stemmer (``_core/stemnltk.pxi``) against its Python twin.

``rougekit.compat._porter_nltk.stem`` is the definition; ``rougekit._core._stemnltk`` is a
small wrapper around the C-level ``snl_stem`` that the batch scorer includes.  Compared on
the word lists the other stemmer tests use, ~200k seeded random words biased toward the
suffixes the rules look at, and edge cases (short words, y's, digits, very long words);
nltk's own ``PorterStemmer`` is checked too when nltk is installed.
"""

from __future__ import annotations

import functools
import importlib.util
import itertools
import random
import re
from pathlib import Path

import pytest
from _paths import SHARED

from rougekit.compat import _porter_nltk

snl = pytest.importorskip("rougekit._core._stemnltk")

TESTS = Path(__file__).resolve().parent
REPO = TESTS.parent
DATA = SHARED / "data"
EXCEPTIONS = REPO / "src" / "rougekit" / "text" / "data" / "wordnet-2.0-exceptions.tsv"
PORTER_GOLDEN = TESTS / "goldens" / "porter_stems.tsv"

ALNUM = "abcdefghijklmnopqrstuvwxyz0123456789"

# Every suffix the rules of _porter_nltk.py look at, plus common inflections.
SUFFIXES = (
    "s",
    "es",
    "ies",
    "ied",
    "ed",
    "ing",
    "eed",
    "y",
    "ly",
    "ily",
    "ally",
    "alli",
    "ational",
    "tional",
    "enci",
    "anci",
    "izer",
    "bli",
    "entli",
    "eli",
    "ousli",
    "ization",
    "ation",
    "ator",
    "alism",
    "iveness",
    "fulness",
    "ousness",
    "aliti",
    "iviti",
    "biliti",
    "fulli",
    "logi",
    "logy",
    "icate",
    "ative",
    "alize",
    "iciti",
    "ical",
    "ful",
    "ness",
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
    "sion",
    "tion",
    "ion",
    "ou",
    "ism",
    "ate",
    "iti",
    "ous",
    "ive",
    "ize",
    "e",
    "ll",
    "sses",
    "ss",
    "at",
    "bl",
    "iz",
    "ying",
    "yed",
    "eing",
    "ated",
    "izing",
    "bled",
    "lled",
    "ssed",
    "zzed",
    "ttes",
)
# Letters for the random stems: vowels, y's, the double/c-v-c letters (l s z w x) and a digit.
STEM_ALPHABET = "aeiouyyylsztbcdgnrwxmphk1"

EXAMPLES = {
    "caresses": "caress",
    "ponies": "poni",
    "ties": "tie",
    "dying": "die",
    "skies": "sky",
    "happy": "happi",
    "enjoy": "enjoy",
    "spied": "spi",
    "died": "die",
    "generalization": "gener",
    "hopping": "hop",
    "filing": "file",
    "controll": "control",
    "news": "news",
    "archaeology": "archaeolog",
    "yyyy": "yyyi",
    "at": "at",
}


# --------------------------------------------------------------------------- word lists


def _load_compat_test_module():
    """tests/test_compat_rouge_scorer.py (its stemmer word list), or None if it won't load."""
    path = TESTS / "test_compat_rouge_scorer.py"
    try:
        spec = importlib.util.spec_from_file_location("_compat_scorer_words", path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module
    except Exception:  # pragma: no cover - optional source of words
        return None


@functools.lru_cache(maxsize=None)
def _existing_test_words() -> frozenset[str]:
    """The words the existing stemmer tests use (plus the irregular-forms pool)."""
    words: set[str] = set(EXAMPLES) | set(_porter_nltk._IRREGULAR) | set(_porter_nltk._IRREGULAR.values())
    module = _load_compat_test_module()
    if module is not None and hasattr(module, "_stemmer_words"):
        # shared data + WordNet exceptions + the built-in list + 25k synthetic words
        words.update(module._stemmer_words())
    else:  # pragma: no cover
        if EXCEPTIONS.is_file():
            words.update(re.findall(r"[a-z0-9]+", EXCEPTIONS.read_text("utf-8").lower()))
        if DATA.is_dir():
            for path in sorted(DATA.rglob("*.jsonl")):
                words.update(re.findall(r"[a-z0-9]+", path.read_text("utf-8", "ignore").lower()))
    if PORTER_GOLDEN.is_file():  # the ROUGE-1.5.5 stemmer's golden words (tests/test_stemmer.py)
        for line in PORTER_GOLDEN.read_text("ascii").splitlines():
            if not line.startswith("#"):
                words.add(line.split("\t")[0])
    return frozenset(words)


@functools.lru_cache(maxsize=None)
def _random_words(count: int = 200_000, seed: int = 20240601) -> tuple[str, ...]:
    """Seeded random [a-z0-9] words of length 0..20, mostly stem + suffix(es)."""
    rng = random.Random(seed)
    words = []
    for _ in range(count):
        kind = rng.random()
        if kind < 0.15:  # uniform over [a-z0-9]
            w = "".join(rng.choice(ALNUM) for _ in range(rng.randint(0, 20)))
        else:  # English-like: a random stem and one or two suffixes
            w = "".join(rng.choice(STEM_ALPHABET) for _ in range(rng.randint(0, 8)))
            w += rng.choice(SUFFIXES)
            if kind < 0.6:
                w += rng.choice(SUFFIXES)
            w = w[:20]
        words.append(w)
    return tuple(words)


def _edge_words() -> list[str]:
    words = ["".join(t) for k in range(4) for t in itertools.product(ALNUM, repeat=k)]  # all of length 0..3
    words += ["".join(t) for t in itertools.product("aeiyslzt1", repeat=4)]  # length 4: ies/sses/ied/eed...
    words += [
        "y",
        "yy",
        "yyy",
        "yyyy",
        "yyyyy",
        "yyyyyy",
        "ay",
        "ya",
        "yay",
        "sky",
        "syzygy",
        "yelled",
        "yying",
        "yyed",
        "ayyy",
        "ayyyy",
        "ayyying",
        "toyed",
        "buying",
        "boyhood",
        "enjoying",
        "yttrium",
        "ayes",
        "eyes",
        "ies",
        "sses",
        "ied",
        "eed",
        "ing",
        "ed",
        "s",
        "ss",
        "1990s",
        "2ed",
        "123ing",
        "a1ing",
        "1a1ed",
        "b2b",
        "mp3s",
        "4x4ing",
        "1st",
        "2nd",
        "3ies",
        "9ied",
        "abc123ational",
        "10ness",
        "0000",
        "12345678901234567890",
    ]
    long_words = [
        "a" * 5000,
        "y" * 5000,
        "ay" * 2500,
        "ya" * 2500,
        "b" * 5000,
        "1" * 5000,
        "x" * 4990 + "ational",
        "ab" * 2495 + "ing",
        "ba" * 2490 + "fulness",
        "yb" * 2495 + "alli",
        "e" * 4997 + "eed",
        "rel" * 1665 + "ies",
        "y" * 10_000 + "ing",
        "ab" * 5000 + "logi",
        "bot" * 3333 + "tion",
    ]
    rng = random.Random(5)
    long_words += ["".join(rng.choice(STEM_ALPHABET) for _ in range(5000)) + rng.choice(SUFFIXES) for _ in range(20)]
    return words + long_words


# --------------------------------------------------------------------------- helpers


def _mismatches(words, reference):
    compiled = snl.stem_many(list(words))
    return [(w, c, reference(w)) for w, c in zip(words, compiled) if c != reference(w)]


def _fmt(bad, total):
    shown = [(w[:40], c[:40], r[:40]) for w, c, r in bad[:10]]
    return f"{len(bad)} of {total} words differ (word, compiled, python), e.g. {shown}"


# --------------------------------------------------------------------------- tests


def test_examples():
    for word, expected in EXAMPLES.items():
        assert snl.stem(word) == expected, word
    assert snl.stem("Running") == _porter_nltk.stem("Running") == "run"


def test_existing_test_words():
    words = sorted(_existing_test_words())
    assert len(words) > 50_000
    bad = _mismatches(words, _porter_nltk.stem)
    assert not bad, _fmt(bad, len(words))


def test_random_suffix_biased_words():
    words = _random_words()
    assert len(words) == 200_000
    bad = _mismatches(words, _porter_nltk.stem)
    assert not bad, _fmt(bad, len(words))


def test_edge_cases():
    words = _edge_words()
    bad = _mismatches(words, _porter_nltk.stem)
    assert not bad, _fmt(bad, len(words))
    # the one-word entry point and the list entry point agree (stack vs heap buffers)
    for w in words[-40:] + ["", "a", "caresses", "x" * 300]:
        assert snl.stem(w) == _porter_nltk.stem(w)


def test_ascii_upper_case_is_lowered_like_the_python_twin():
    words = [
        "Running",
        "CARESSES",
        "SKIES",
        "Dying",
        "NEWS",
        "YyYy",
        "Generalization",
        "AT",
        "A1ING",
        "HoPPing",
        "Relational",
    ]
    for w in words:
        assert snl.stem(w) == _porter_nltk.stem(w), w


def test_rejects_non_ascii():
    with pytest.raises(UnicodeEncodeError):
        snl.stem("caf\u00e9s")
    with pytest.raises(TypeError):
        snl.stem(b"bytes")  # type: ignore[arg-type]


def test_matches_nltk_porter_on_a_sample():
    porter = pytest.importorskip("nltk.stem.porter")
    nltk_stem = porter.PorterStemmer().stem
    rng = random.Random(3)
    existing = sorted(_existing_test_words())
    words = (
        rng.sample(existing, 20_000)
        + rng.sample(list(_random_words()), 20_000)
        + [w for w in _edge_words() if len(w) <= 3 or len(w) > 1000]
    )
    bad = _mismatches(words, nltk_stem)
    assert not bad, _fmt(bad, len(words))
