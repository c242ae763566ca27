"""The worked examples of docs/rouge155/*.md hold for rougekit.

Each expected value is the page's hand computation (written here as the fraction it comes from,
rounded as the script rounds) or, for bootstrap averages, the number ROUGE-1.5.5.pl printed for
the same input when the page was written. A summary's lines are its sentences.
"""

from __future__ import annotations

import contextlib
import io

import pytest

import rougekit
from rougekit.stats.perl_bootstrap import drand48_stream, interval_positions
from rougekit.text.rouge155 import clean, limit_joined, limit_sentences, lower_ascii, sentences_from_lines, tokenize
from rougekit.text.stemming import stem_token


def r5(x: float) -> float:
    return float("%7.5f" % x)


def f_of(r: float, p: float, alpha: float = 0.5) -> float:
    return r5(p * r / ((1 - alpha) * p + alpha * r)) if p and r else 0.0


def pair(candidate: str, references, measure: str, **options) -> dict:
    result = rougekit.score([candidate], [references], measures=[measure], bootstrap=None, **options)
    return result.per_pair()[0][measure]


def rp(candidate, references, measure, **options) -> tuple[float, float]:
    s = pair(candidate, references, measure, **options)
    return s["recall"], s["precision"]


# --- tokens.md ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, tokens",
    [
        ("The U.N.'s 2-day meeting cost $3.5m (approx.)", "the u n s 2 day meeting cost 3 5m approx"),
        ("naïve Zürich café", "na ve z rich caf"),
        ("e-mail &amp; co.", "e mail amp co"),
    ],
)
def test_tokens_table(text, tokens):
    assert tokenize(clean(lower_ascii(text.encode()))) == tokens.split()


def test_see_sentences_stop_at_the_first_tag_and_the_line_end():
    lines = [
        b'<a name="1">[1]</a> <a href="#1" id=1>A <b>bold</b> claim</a>\n',
        b'<a name="2">[2]</a> <a href="#2" id=2>wraps here\n',
        b"and continues</a>\n",
    ]
    sentences = sentences_from_lines(lines, "SEE")
    assert [tokenize(clean(x)) for x in sentences] == [["a"], ["wraps", "here"]]


def test_word_limit_counts_punctuation_fields():
    assert limit_joined([b"the cat sat .", b"it ran off quickly"], word_limit=5) == b"the cat sat . it"
    assert rp("The cat sat .\nIt ran off quickly", "the cat sat\nit ran", "ROUGE-L", word_limit=5) == (r5(4 / 5), 1.0)


def test_word_limit_leading_blanks_count_as_a_field():
    assert rp("  rain fell today", "rain fell", "ROUGE-1", word_limit=2) == (0.5, 1.0)
    assert rp("rain fell today", "rain fell", "ROUGE-1", word_limit=2) == (1.0, 1.0)


def test_byte_limit_unit_reader_bug():
    sentences = [b"aaaa bbbb", b"cccc dddd", b"eeee"]
    assert limit_joined(sentences, byte_limit=12) == b"aaaa bbbb ccc"
    assert limit_sentences(sentences, byte_limit=12) == sentences
    text = "aaaa bbbb\ncccc dddd\neeee"
    assert rp(text, text, "ROUGE-1", byte_limit=12) == (1.0, 1.0)
    assert rp(text, text, "ROUGE-L", byte_limit=12) == (r5(2 / 5), r5(2 / 3))


# --- stemming-stopwords.md ---------------------------------------------------------------


def test_stemming_examples():
    table = {"feet": "foot", "oxen": "ox", "mice": "mouse", "mouse": "mous", "sang": "sing", "data": "datum"}
    table |= {"indices": "index", "best": "well", "ran": "ran", "saw": "saw", "departmental": "depart"}
    table |= {"sentimental": "sentim", "accidental": "accid", "judgement": "judgem"}
    assert {w: stem_token(w) for w in table} == table


def test_stemming_and_stopword_pair():
    peer, model = "The oxen sang departmental songs about mice", "an ox sings department song about a mouse"
    assert rp(peer, model, "ROUGE-1", stem=True) == (r5(5 / 8), r5(5 / 7))
    assert rp(peer, model, "ROUGE-1", stem=True, stopwords=True) == (r5(4 / 5), r5(4 / 5))
    assert rp("the u.s. economy grew", "US economy grew", "ROUGE-1", stopwords=True) == (1.0, 1.0)


def recalls(listing, *flags: str) -> list[str]:
    """The R of every ``-d`` line of ``rougekit rouge155 FLAGS -d -z SPL LISTING``, in print order."""
    from rougekit.cli.main import main

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["rouge155", *flags, "-d", "-z", "SPL", str(listing)]) == 0
    return [line.split(" R:")[1][:7] for line in out.getvalue().splitlines() if " Eval " in line]


def test_models_only_stemming_flag(tmp_path):
    """-M stems the model for ROUGE-L/SU, not for ROUGE-N, then leaves stemming off."""
    text = tmp_path / "s.txt"
    text.write_text("running dogs\n")
    listing = tmp_path / "list.txt"
    listing.write_text(f"{text} {text}\n{text} {text}\n")  # the same pair as evaluations 1 and 2
    # ROUGE-1 (1, 2), ROUGE-L (1, 2), ROUGE-SU4 (1, 2)
    assert recalls(listing, "-n", "1", "-2", "4", "-u", "-M") == ["1.00000"] * 2 + ["0.00000"] * 4
    # ROUGE-1 (1, 2), ROUGE-L (1: peer read while -m was on; 2: after -M switched it off)
    assert recalls(listing, "-n", "1", "-m", "-M") == ["1.00000", "1.00000", "1.00000", "0.00000"]


# --- measures.md -------------------------------------------------------------------------


def test_rouge_n_crosses_sentences():
    assert rp("the cat sat\non the mat", "the cat\nsat on the mat", "ROUGE-2") == (1.0, 1.0)


def test_rouge_l_tie_break_union_and_clipping():
    assert rp("blue red\nred", "red blue", "ROUGE-L") == (0.5, r5(1 / 3))
    assert rp("blue red\nblue", "red blue", "ROUGE-L") == (1.0, r5(2 / 3))
    assert rp("rain", "rain fell\nrain stopped", "ROUGE-L") == (0.25, 1.0)
    s = pair("w1 w2 w6 w7 w8\nw1 w3 w8 w9 w5", "w1 w2 w3 w4 w5", "ROUGE-L")
    assert (s["recall"], s["precision"], s["f"]) == (0.8, 0.4, f_of(0.8, 0.4))


@pytest.mark.parametrize(
    "model, peer, hits, model_count, peer_count",
    [
        ("a b c d e", "a b x c d", 4**2, 25**2, 5**2),
        ("a b c d e", "a x b y c", 3**2, 25**2, 5**2),
        ("b\na b x c d", "a b c d", 1 + 3**2, (1 + 5**2) ** 2, 4**2),  # model count f(f(1) + f(5))
    ],
)
def test_rouge_w_examples(model, peer, hits, model_count, peer_count):
    """hits and counts as the page derives them with f(k) = k^2; R, P = f⁻¹ of the ratios."""
    s = pair(peer, model, "ROUGE-W-2")
    r, p = r5((hits / model_count) ** 0.5), r5((hits / peer_count) ** 0.5)
    assert (s["recall"], s["precision"], s["f"]) == (r, p, f_of(r, p))


def test_rouge_w_paper_values():
    assert pair("a b x c d", "a b c d e", "ROUGE-W-2", wlcs="paper")["recall"] == r5((8 / 25) ** 0.5)
    assert pair("a x b y c", "a b c d e", "ROUGE-W-2", wlcs="paper")["recall"] == r5((3 / 25) ** 0.5)


def test_rouge_w_empty_reference_is_an_input_error():
    with pytest.raises(rougekit.errors.InputError):
        pair("a b", "...", "ROUGE-W-1.2")


def test_skip_bigram_examples():
    assert rp("a c", "a b c d", "ROUGE-S1") == (r5(1 / 5), 1.0)
    assert rp("a d", "a b c d", "ROUGE-S1") == (0.0, 0.0)
    assert rp("mice chase cats", "cats chase mice", "ROUGE-S4") == (0.0, 0.0)
    assert rp("mice chase cats", "cats chase mice", "ROUGE-SU4") == (0.2, 0.2)
    assert rp("mice chase cats", "cats chase mice", "ROUGE-SU4", su_unigrams="all") == (0.5, 0.5)


# --- multiple-references.md, rounding-and-f.md ---------------------------------------------


def test_multiple_reference_rules():
    peer, refs = "the cat sat on the mat", ["the cat sat", "a cat was on the mat"]
    assert rp(peer, refs, "ROUGE-1") == (r5(7 / 9), r5(7 / 12))
    assert rp(peer, refs, "ROUGE-2") == (r5(4 / 7), r5(4 / 10))
    assert rp(peer, refs, "ROUGE-1", multi_ref="best") == (1.0, 0.5)
    assert rp(peer, refs, "ROUGE-2", multi_ref="best") == (1.0, 0.4)
    assert rp(peer, refs[:1] * 2, "ROUGE-1") == rp(peer, refs[:1], "ROUGE-1")
    assert pair(peer, refs, "ROUGE-1", multi_ref="jackknife")["recall"] == pytest.approx((r5(4 / 6) + 1) / 2)


def test_the_four_multi_reference_rules():
    peer, refs = "the cat sat on the mat", ["the cat sat", "the cat sat on the mat today"]
    f_ref1, f_ref2 = f_of(1.0, 0.5), f_of(r5(6 / 7), 1.0)
    expected = {
        "sum": (r5(9 / 10), r5(9 / 12), f_of(r5(9 / 10), r5(9 / 12))),
        "best": (1.0, 0.5, f_ref1),
        "max": (r5(6 / 7), 1.0, f_ref2),
        "jackknife": ((r5(6 / 7) + 1) / 2, (1 + 0.5) / 2, (f_ref2 + f_ref1) / 2),
    }
    for rule, values in expected.items():
        s = pair(peer, refs, "ROUGE-1", multi_ref=rule)
        assert (s["recall"], s["precision"], s["f"]) == pytest.approx(values), rule


def test_f_from_rounded_recall_and_alpha():
    s = pair("storm", "a storm hit the coast today", "ROUGE-1")
    assert (s["recall"], s["f"]) == (0.16667, 0.28572)  # 0.28571 from the exact 1/6
    for alpha, f in [(0, 0.5), (0.2, 0.55556), (0.5, 0.66667), (0.8, 0.83333), (1, 1.0)]:
        assert pair("storm hit", "a storm hit today", "ROUGE-1", alpha=alpha)["f"] == f


# --- bootstrap.md --------------------------------------------------------------------------

CANDIDATES = ["a b c d", "a b", "x y z"]
REFERENCES = ["a b c d", "a b c d e f", "a b c d e f g h"]


def test_drand48_values_and_hand_worked_resamples():
    assert drand48_stream(0, 3) == [0.170828036106, 0.749901980485, 0.096371655624]
    assert drand48_stream(1, 3) == [0.041630344772, 0.454492444729, 0.834817218167]
    assert [int(u * 3) for u in drand48_stream(0, 3)] == [0, 2, 0]
    assert [int(u * 3) for u in drand48_stream(1, 3)] == [0, 1, 2]


def test_interval_positions_table():
    assert interval_positions(1000, 95) == (25, 974, 0.0)
    assert interval_positions(100, 95) == (2, 96, 0.5)
    assert interval_positions(30, 95) == (0, 28, 0.25)
    lo, hi, frac = interval_positions(1, 95)
    assert (lo, hi) == (0, 0) and frac == pytest.approx(-0.025)


def test_printed_averages_of_the_three_pairs():
    result = rougekit.score(CANDIDATES, REFERENCES, measures=["ROUGE-1"]).to_dict()["ROUGE-1"]
    assert result["recall"] == pytest.approx((1 + 0.33333 + 0) / 3)
    printed = {k: r5(v) for k, v in result["rouge155_average"].items()}
    assert printed == {"recall": 0.44489, "precision": 0.66667, "f": 0.50033}  # ROUGE-1.5.5.pl, -n 1 -x
    tokens = rougekit.score(CANDIDATES, REFERENCES, measures=["ROUGE-1"], average="tokens").to_dict()["ROUGE-1"]
    assert tokens["recall"] == pytest.approx(6 / 18)
    assert {k: r5(v) for k, v in tokens["rouge155_average"].items()} == {
        "recall": 0.36758,
        "precision": 0.66115,
        "f": 0.46354,
    }  # ROUGE-1.5.5.pl, -n 1 -x -t 1


def test_printed_average_depends_on_the_order():
    backwards = rougekit.score(CANDIDATES[::-1], REFERENCES[::-1], measures=["ROUGE-1"], average="rouge155")
    assert r5(backwards.to_dict()["ROUGE-1"]["recall"]) == 0.44422  # ROUGE-1.5.5.pl on the list 3, 2, 1
    with_ids = rougekit.score(
        CANDIDATES[::-1], REFERENCES[::-1], measures=["ROUGE-1"], average="rouge155", ids=["3", "2", "1"]
    )
    assert r5(with_ids.to_dict()["ROUGE-1"]["recall"]) == 0.44489
