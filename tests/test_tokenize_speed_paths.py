"""The batch engine's tokenizer (``_Engine._tokenize`` and its vocabulary table) on the cases its fast
paths treat apart, against the pure-Python twin (``Preprocessor.process``, ROUGE-1.5.5's tokens).

The engine's ids are its final (stopword-filtered, stemmed) tokens numbered in first-seen order, so
a fresh engine must give, for every text in turn, exactly the first-seen numbering of the twin's
final tokens: the same tokens, the same stems and stopwords, the same ids in the same order.  The
texts exercise: tokens of 1 to 40 bytes (the table keeps the first 16 bytes of a token in its slot,
the bytes of longer ones in an arena; the hash reads 8 bytes at a time), upper and lower case, tokens sharing
their first 8 (or 16) bytes, a token ending at the text's end (the 8-byte loads may not read past
it), bytes above 0x7F next to tokens, stopwords and stemmed words (``-s``/``-m``), and a
vocabulary that grows past the table's first size (a rehash).  Arrow columns are read from one
buffer, the next string right after a string's last byte: their numbers equal the str path's.
"""

from __future__ import annotations

import random
import string

import numpy as np
import pytest

from rougekit.text.tokenizers import Preprocessor

batch = pytest.importorskip("rougekit.engine.batch")
if not batch.AVAILABLE:  # pragma: no cover - depends on the build
    pytest.skip("rougekit._core._batch (compiled batch scorer) is not built", allow_module_level=True)

from rougekit.engine.batch import BatchScorer  # noqa: E402

ALNUM = string.ascii_letters + string.digits


def _engine(stem: bool, stopwords: bool):
    """A fresh engine (no type interned yet; BatchScorer's come from a pool) with BatchScorer's arguments."""
    from rougekit._core import _batch

    sc = BatchScorer(["ROUGE-1"], stem=stem, stopwords=stopwords, word_limit=0, byte_limit=0, mode="A", alpha=0.5)
    return _batch._Engine(*sc._args)


def _expected_ids(pre: Preprocessor, texts: list[str]) -> list[list[int]]:
    """The twin's final tokens of each text, numbered in first-seen order over all the texts."""
    first: dict[str, int] = {}
    return [[first.setdefault(t, len(first)) for t in pre.process(text)[0]] for text in texts]


def _assert_engine_equals_twin(texts: list[str], stem: bool, stopwords: bool, eng=None) -> int:
    eng = eng if eng is not None else _engine(stem, stopwords)
    pre = Preprocessor("rouge155", stem=stem, stopwords=stopwords)
    expected = _expected_ids(pre, texts)
    for text, exp in zip(texts, expected):
        toks, sents = eng.process(text)
        assert toks == exp, text
        assert [t for s in sents for t in s] == exp, text
    return eng.vocabulary_size


def _long_prefix_family() -> list[str]:
    """Tokens sharing their first 8 or 16 bytes, of 8, 9, 15, 16, 17 and 24 bytes, in several cases."""
    out = []
    for base in ("abcdefgh", "internat", "12345678"):
        for tail in ("", "i", "j", "ijklmnop", "ijklmnoq", "ijklmnopq", "ijklmnopr", "ijklmnopqrstuvwx", "ijklmno"):
            w = base + tail
            out += [w, w.upper(), w.capitalize(), w[:-1] + w[-1].upper()]
    return out


def _edge_texts() -> list[str]:
    fam = _long_prefix_family()
    texts = [
        " ".join(fam),
        "\n".join(reversed(fam)),
        # a token at the very end of the text, of each length around the 8- and 16-byte steps
        *(("x " + "q" * k) for k in (1, 7, 8, 9, 15, 16, 17, 23, 24, 25)),
        *(("Q" * k) for k in (1, 8, 9, 16, 17, 33)),
        # bytes above 0x7F next to tokens (they separate tokens), digits inside words
        "caf\u00e9abcdefghij\u00e9xyz na\u00efve \u00c9COLEinternationale \u6771\u4eacabcdefghijklmnopq\u6771",
        "abc123def456ghi789 A1B2C3D4E5F6G7H8 0000000000000000001 \u00e9" + "z" * 17 + "\u00e9",
        # stopwords and stemmed words, in several cases, short and long
        "The RUNNING runners ran; THE cats' Cats internationalization INTERNATIONALIZATIONS abilities",
        "is it an of and AND running Running runs accidentally ACCIDENTALLY relational conditionalities",
        # separators other than spaces, sentence lines
        "well-known\tco-operation\x0bfoo\rbar\x0cbaz\nqux--quux...corge_grault",
        "",
        "   ",
    ]
    rng = random.Random(20)
    for _ in range(300):
        words = []
        for _ in range(rng.randrange(1, 30)):
            k = rng.choice([1, 2, 3, 4, 7, 8, 9, 10, 15, 16, 17, 18, 24, 31, 40])
            words.append("".join(rng.choice(ALNUM) for _ in range(k)))
        seps = [rng.choice([" ", "  ", "\n", "-", "\u00e9", ".", " \u00a0"]) for _ in words]
        texts.append(
            "".join(w + s for w, s in zip(words, seps)).rstrip(" ")
            if rng.random() < 0.5
            else "".join(s + w for w, s in zip(words, seps))
        )
    return texts


@pytest.mark.parametrize("stem", [False, True])
@pytest.mark.parametrize("stopwords", [False, True])
def test_edge_case_tokens_get_the_twins_ids(stem, stopwords):
    _assert_engine_equals_twin(_edge_texts(), stem, stopwords)
    # the longer of two tokens sharing their first 8 or 16 bytes met first, in a fresh engine (the
    # shorter one must not be taken for it: a 16-byte token is not the 17-byte type it begins)
    _assert_engine_equals_twin(_edge_texts()[::-1], stem, stopwords)


@pytest.mark.parametrize("stem", [False, True])
def test_vocabulary_past_a_rehash_keeps_first_seen_ids(stem):
    """60,000 types (more than the first table holds: 65,536 slots, grown past half full, 32,768 types):
    every id stays through the rehashes, new ones in order."""
    rng = random.Random(5)
    words: set[str] = set()
    while len(words) < 60_000:
        k = rng.choice([1, 2, 3, 5, 6, 8, 9, 12, 16, 17, 20])
        w = "".join(rng.choice(string.ascii_lowercase + "0123") for _ in range(k))
        words.add(w + rng.choice(["", "", "ing", "s", "ed", "ation"]))
    words_l = sorted(words)
    rng.shuffle(words_l)
    texts = [" ".join(words_l[i : i + 100]) for i in range(0, len(words_l), 100)]
    # the same types again, cased differently and in another order (all found, none new)
    again = [w.upper() if i % 3 == 0 else w.capitalize() for i, w in enumerate(words_l)]
    rng.shuffle(again)
    texts += [" ".join(again[i : i + 100]) for i in range(0, len(again), 100)]
    assert _assert_engine_equals_twin(texts, stem, False) == len(words)


def test_a_reset_vocabulary_starts_afresh():
    """After reset_vocabulary (an engine kept between calls, grown past its first table), ids are
    numbered from 0 again in first-seen order, and no type interned before is found."""
    rng = random.Random(11)
    eng = _engine(False, False)
    words = sorted(
        {"".join(rng.choice(ALNUM) for _ in range(rng.choice([3, 8, 9, 16, 17, 30]))) for _ in range(40_000)}
    )
    eng.process(" ".join(words))
    assert eng.vocabulary_size > 32_768
    eng.reset_vocabulary()
    assert eng.vocabulary_size == 0
    assert _assert_engine_equals_twin(_edge_texts(), False, False, eng) > 0  # ids from 0 again (checked inside)


def test_arrow_strings_back_to_back_equal_the_str_path():
    """In an Arrow column a string's bytes are followed by the next string's: the tokenizer's 8-byte
    loads past a string's end must not join its last token with the next string's first."""
    pa = pytest.importorskip("pyarrow")
    from rougekit.engine import arrowcols

    fam = _long_prefix_family()
    rng = random.Random(9)
    cands, refs = [], []
    for _ in range(400):
        c = " ".join(rng.sample(fam, rng.randrange(1, 6)))
        r = " ".join(rng.sample(fam, rng.randrange(1, 6)))
        # the string ends inside what would be a longer token if the next one were read on
        cands.append(c + rng.choice(["", "", " x", "\u00e9"]))
        refs.append(r + rng.choice(["", "", "abcdefgh", "Q"]))
    sc = BatchScorer(
        ["ROUGE-1", "ROUGE-2", "ROUGE-L"], stem=False, stopwords=False, word_limit=0, byte_limit=0, mode="A", alpha=0.5
    )
    exp = sc.score_arrays(cands, [[r] for r in refs])
    got = np.zeros_like(exp)
    sc.score_arrow(arrowcols.column(pa.array(cands)), arrowcols.column(pa.array(refs)), got)
    assert np.array_equal(got, exp)
    assert exp[:, 0, 1].sum() > 0  # some hits: the comparison is not of empty counts


@pytest.mark.parametrize("width", [8, 16])
def test_a_prefix_is_not_the_longer_types_it_begins(width):
    """A token of 8 (16) bytes whose first 8 (16) bytes begin thousands of longer types met before it:
    wherever its probe lands among them, it is its own type (the table keys a type by its first 8 or
    16 bytes, its length only through a flag).  In each of 8 fresh engines (8 table layouts), one
    prefix and 30,000 of its longer extensions fill the table to nearly half, then the prefix comes."""
    rng = random.Random(width)
    for _ in range(8):
        prefix = "".join(rng.choice(string.ascii_lowercase) for _ in range(width))
        longer: set[str] = set()
        while len(longer) < 30_000:
            longer.add(prefix + "".join(rng.choice(string.ascii_lowercase) for _ in range(rng.randrange(1, 5))))
        words = sorted(longer)
        texts = [" ".join(words[i : i + 500]) for i in range(0, len(words), 500)]
        texts.append(f"{prefix} {prefix.upper()} {words[0]} {prefix}")
        assert _assert_engine_equals_twin(texts, False, False) == len(longer) + 1


def test_tokens_one_byte_apart_at_every_length_and_position():
    """For every length 1 to 40 and every position in it, a token and the one with that byte changed
    (and the same two in upper case) against the twin: the key of a token of at most 16 bytes is its
    two 8-byte words masked to its length (one mask per length, tokenize.pxi's rkb_kmask), so a mask
    one byte short merges tokens that differ in their last byte, one byte long keeps the next byte.
    Each token is followed by a letter past a separator, and also ends the text (the loads near its end)."""
    rng = random.Random(40)
    texts = []
    for n in range(1, 41):
        base = "".join(rng.choice(string.ascii_lowercase) for _ in range(n))
        words = [base]
        for k in range(n):
            words.append(base[:k] + ("z" if base[k] != "z" else "y") + base[k + 1 :])
        words += [w.upper() for w in words]
        texts.append(" ".join(words) + " q\u00e9x")
        texts += [f"a {w}" for w in words[: n + 1]]
    assert _assert_engine_equals_twin(texts, False, False) > 40 * 20
