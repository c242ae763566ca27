"""The compiled ROUGE-1.5.5 stemmer (``_core/stem155.pxi``) against the Python definition.

``rougekit.text.porter.porter_stem`` and ``rougekit.text.stemming.morph_stem`` are the
reference; the compiled twins must agree on every word.
"""

from __future__ import annotations

import itertools
import random
from pathlib import Path

import pytest

c = pytest.importorskip("rougekit._core._stem155")

from rougekit.text import porter as P  # noqa: E402
from rougekit.text.porter import porter_stem  # noqa: E402
from rougekit.text.stemming import load_exceptions, morph_stem  # noqa: E402

c.use_exceptions(load_exceptions())  # _core takes the table from above, imports nothing of text
py_morph = morph_stem.__wrapped__  # uncached: no sharing with other tests
GOLDEN = Path(__file__).resolve().parent / "goldens" / "porter_stems.tsv"


def _mismatches(words, fast, slow):
    bad = [(w, fast(w), slow(w)) for w in words if fast(w) != slow(w)]
    return bad[:20], len(bad)


def _check(words, fast, slow):
    shown, count = _mismatches(words, fast, slow)
    assert count == 0, f"{count} mismatches, e.g. {shown}"


def _golden_words() -> list[str]:
    with open(GOLDEN, encoding="ascii") as fh:
        rows = [line.rstrip("\n").split("\t") for line in fh if not line.startswith("#")]
    return [w for w, _ in rows]


# ------------------------------------------------------------------ hand-written


@pytest.mark.parametrize(
    "word, stem",
    [
        ("accidental", "accid"),  # CYL step 4: several suffixes come off
        ("agreement", "agreem"),
        ("caresses", "caress"),
        ("ponies", "poni"),
        ("hopping", "hop"),
        ("filing", "file"),  # cvc -> +e
        ("agreed", "agre"),
        ("happy", "happi"),
        ("sensibility", "sensibl"),  # biliti -> ble
        ("archaeology", "archaeolog"),  # logi -> log
        ("yelling", "yell"),  # leading y: a consonant while stemming
        ("yyy", "yyi"),
        ("ab", "ab"),  # shorter than 3: unchanged
        ("ies", "i"),
    ],
)
def test_porter_examples(word, stem):
    assert porter_stem(word) == stem
    assert c.porter_stem(word) == stem


def test_morph_examples():
    assert c.morph_stem("geese") == "goose" == py_morph("geese")
    assert c.morph_stem("GEESE") == "goose" == py_morph("GEESE")  # ASCII lower-casing
    assert c.morph_stem("running") == "run"
    assert c.morph_stem("Yelling") == py_morph("Yelling") == "yell"


# ------------------------------------------------------------------ golden words


def test_golden_words_porter_and_morph():
    words = _golden_words()
    assert len(words) > 30000
    _check(words, c.porter_stem, porter_stem)
    _check(words, c.morph_stem, py_morph)
    assert c.stem_many(words) == [py_morph(w) for w in words]


def test_exception_keys():
    table = load_exceptions()
    keys = list(table)
    assert len(keys) > 5000
    _check(keys, c.morph_stem, py_morph)
    assert all(c.morph_stem(k) == table[k] for k in keys)
    assert c.stem_many(keys) == [table[k] for k in keys]
    # the same keys upper-cased are found too; with a character changed they are not
    _check([k.upper() for k in keys[::7]], c.morph_stem, py_morph)
    _check([k + "q" for k in keys[::3]] + [k[:-1] for k in keys[::3]], c.morph_stem, py_morph)


# ------------------------------------------------------------------ the regular expressions


def test_pattern_tests_exhaustive():
    """Each measure regex of porter.py, on every word over a class-covering alphabet."""
    alphabet = "aeyYbwx"  # vowel, vowel, y, upper-case Y, consonant, w, x
    ref = (P._has_vowel, P._m_gt0, P._m_eq1, P._m_gt1, P._is_cvc)
    count = 0
    for n in range(0, 7):
        for t in itertools.product(alphabet, repeat=n):
            w = "".join(t)
            want = tuple(bool(f(w)) for f in ref)
            assert c._measures(w) == want, w
            count += 1
    assert count == sum(7**n for n in range(7))


def test_porter_exhaustive_short_words():
    alphabet = "aeioyslntbdwz"
    words = ["".join(t) for n in range(0, 5) for t in itertools.product(alphabet, repeat=n)]
    _check(words, c.porter_stem, porter_stem)


# ------------------------------------------------------------------ random words

_SUFFIXES = sorted(
    set(P._STEP2)
    | set(P._STEP2.values())
    | set(P._STEP3)
    | set(P._STEP3.values())
    | set(P._STEP4)
    | {
        "s",
        "es",
        "ies",
        "sses",
        "ss",
        "ed",
        "eed",
        "ing",
        "y",
        "ly",
        "ment",
        "ement",
        "ent",
        "sion",
        "tion",
        "e",
        "ll",
        "at",
        "bl",
        "iz",
        "ness",
        "ful",
        "ize",
        "ization",
        "ational",
        "ous",
        "ousness",
        "er",
        "ers",
        "ings",
        "ally",
        "ied",
        "ying",
    }
    - {""}
)
_CONS = "bcdfghjklmnpqrstvwxzy"
_VOWS = "aeiouy"


def _random_words(seed: int, count: int) -> list[str]:
    rng = random.Random(seed)
    words = []
    for _ in range(count):
        kind = rng.random()
        if kind < 0.15:  # uniform noise over [a-z0-9]
            n = rng.randint(0, 20)
            w = "".join(rng.choice("abcdefghijklmnopqrstuvwxyz0123456789") for _ in range(n))
        else:  # English-like: alternating consonant/vowel runs + 1..3 suffixes
            parts = []
            for i in range(rng.randint(0, 4)):
                pool = _CONS if (i + rng.randint(0, 1)) % 2 else _VOWS
                parts.append("".join(rng.choice(pool) for _ in range(rng.randint(1, 2))))
            if rng.random() < 0.15:
                parts.insert(0, "y")
            if rng.random() < 0.05:
                parts.append(rng.choice("0123456789"))
            for _ in range(rng.choice((1, 1, 1, 2, 2, 3))):
                parts.append(rng.choice(_SUFFIXES))
            w = "".join(parts)[:20]
        words.append(w)
    return words


def test_random_words():
    words = _random_words(20240607, 200_000)  # ~164k distinct
    distinct = sorted(set(words))
    _check(distinct, c.porter_stem, porter_stem)
    assert c.stem_many(distinct) == [py_morph(w) for w in distinct]


# ------------------------------------------------------------------ edge cases


def test_edge_words():
    words = [
        "",
        "a",
        "y",
        "yy",
        "yyy",
        "yyyy",
        "ys",
        "yes",
        "yies",
        "ying",
        "yed",
        "yyed",
        "yeed",
        "yyeed",
        "sss",
        "ss",
        "s",
        "eed",
        "ing",
        "ed",
        "0",
        "00",
        "000",
        "1ing",
        "a1b2c3",
        "123ies",
        "9sses",
        "yay",
        "yayy",
        "boy",
        "boys",
        "toyed",
        "played",
        "sayings",
        "yellowly",
        "eyeballs",
        "by",
        "byy",
        "xyz",
        "yxy",
        "bey",
        "beyy",
        "tallness",
        "fall",
        "falll",
        "mall",
        "yll",
        "entment",
        "ement",
        "ment",
        "ment1",
        "y" * 50,
        "ab" * 30,
        "ing" * 10,
        "yies" * 5,
        "ation" * 4,
    ]
    words += ["".join(t) for n in range(4) for t in itertools.product("ay0s", repeat=n)]
    _check(words, c.porter_stem, porter_stem)
    _check(words, c.morph_stem, py_morph)
    assert c.stem_many(words) == [py_morph(w) for w in words]


@pytest.mark.parametrize("n", [63, 64, 65, 5000, 10_000])
def test_long_words(n):
    rng = random.Random(n)
    base = "".join(rng.choice("abcdefghilmnoprstuy") for _ in range(n - 8))
    words = [base + s for s in ("ational", "izations", "ement", "ies", "ing", "y", "al", "s")]
    words.append("y" + base[: n - 1])
    words.append(("al" * n)[:n])
    for w in words:
        assert c.porter_stem(w) == porter_stem(w)
        assert c.morph_stem(w) == py_morph(w)
    assert c.stem_many(words) == [py_morph(w) for w in words]


# ------------------------------------------------------------------ output-buffer protocol


def test_morph_small_capacity():
    """s155_morph returns -k when cap < k and succeeds with cap >= k."""
    words = ["geese", "running", "generalizations", "abc", "x" * 100, "caresses" * 10 + "ing"] + list(
        load_exceptions()
    )[:300]
    for w in words:
        want = py_morph(w)
        for cap in range(0, len(w) + 3):
            r, text = c.morph_stem_cap(w, cap)
            if r >= 0:
                assert text == want and r == len(want) <= cap
            else:
                assert -r > cap
                r2, text2 = c.morph_stem_cap(w, -r)
                assert r2 == len(want) and text2 == want
