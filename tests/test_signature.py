"""The signature: derived from the options, and every signature reads back (``parse(str(s)) == s``)."""

from __future__ import annotations

import contextlib
import dataclasses
import io
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rougekit
from rougekit.cli.main import main
from rougekit.engine.options import ScoringOptions
from rougekit.errors import OptionError
from rougekit.signature import Signature


def _field_strategy(f: dataclasses.Field):
    if f.type == "bool":
        return st.booleans()
    if f.type == "int":
        return st.integers(min_value=-(10**12), max_value=10**12)
    return st.text()  # any characters: "|", ":", "%", white space, control and non-ASCII characters


def _with_a_valid_fold(sig: Signature):
    """A fold only where the tokenizer folds (unicode, cjk), and then a known version: parse refuses others."""
    from rougekit.signature import FOLDS

    if sig.tokenizer in ("unicode", "cjk"):
        return st.sampled_from(sorted(FOLDS)).map(lambda v: dataclasses.replace(sig, fold=v))
    return st.just(dataclasses.replace(sig, fold=""))


_FIELDS = {f.name: _field_strategy(f) for f in dataclasses.fields(Signature)}
_FIELDS["tokenizer"] = st.one_of(st.sampled_from(["unicode", "cjk", "rouge155"]), st.text())
SIGNATURES = st.builds(Signature, **_FIELDS).flatmap(_with_a_valid_fold)


@settings(max_examples=300, deadline=None)
@given(SIGNATURES)
def test_every_signature_reads_back(sig):
    text = str(sig)
    assert "\n" not in text and text == text.strip() and text.startswith("rougekit|m:")
    assert Signature.parse(text) == sig


def _named(name: str):
    def tokenize(text):
        return text.split()

    tokenize.__name__ = name
    return tokenize


OPTIONS = (
    st.fixed_dictionaries(
        dict(
            measures=st.lists(
                st.sampled_from(
                    ["ROUGE-1", "ROUGE-2", "ROUGE-L", "ROUGE-W-1.2", "ROUGE-SU4", "ROUGE-S*", "BLEU", "ACCY"]
                ),
                min_size=1,
                max_size=4,
            ).map(tuple),
            tokenizer=st.one_of(st.sampled_from(["rouge155", "unicode", "cjk"]), st.text().map(_named)),
            stem=st.booleans(),
            stopwords=st.booleans(),
            word_limit=st.integers(0, 500),
            multi_ref=st.sampled_from(["sum", "best", "jackknife"]),
            alpha=st.floats(0, 1),
            average=st.sampled_from(["pairs", "tokens"]),
            su_unigrams=st.sampled_from(["rouge155", "all"]),
            wlcs=st.sampled_from(["rouge155", "paper"]),
            hori_units=st.sampled_from(["word", "sentence"]),
            bootstrap=st.sampled_from(["rouge155", "percentile", None]),
            resamples=st.integers(2, 100_000),
            confidence=st.floats(0, 100, exclude_min=True, exclude_max=True),
            seed=st.integers(0, 2**63 - 1),
        )
    )
    .filter(lambda o: not (o["average"] == "tokens" and o["multi_ref"] == "jackknife"))
    .map(lambda o: ScoringOptions.build(**o))
)  # (the token average is refused with the jackknife: it has no counts)


@settings(max_examples=300, deadline=None)
@given(OPTIONS)
def test_signature_of_any_options_reads_back_and_keeps_every_number(options):
    sig = Signature.from_options(options)
    back = Signature.parse(str(sig))
    assert back == sig
    assert back.measures == ",".join(m.name for m in options.measures)
    assert back.tokenizer == options.tokenizer_name and back.stem == options.stem and back.limit == options.limit
    assert float(back.alpha) == options.alpha and back.hori_units == options.hori_units
    if options.bootstrap:
        assert float(back.confidence) == options.confidence and back.resamples == options.resamples
    if options.bootstrap == "percentile":
        assert int(back.seed) == options.seed


def test_options_that_change_numbers_change_the_signature():
    base = ScoringOptions.build(["ROUGE-1", "ACCY"])  # multi_ref does nothing to ACCY alone (refs:none)
    changes = dict(
        tokenizer="unicode",
        stem=True,
        stopwords=True,
        word_limit=10,
        multi_ref="best",
        alpha=0.3,
        average="tokens",
        su_unigrams="all",
        wlcs="paper",
        hori_units="sentence",
        bootstrap="percentile",
        resamples=999,
        confidence=90.0,
    )
    seen = {str(Signature.from_options(base))}
    for name, value in changes.items():
        seen.add(str(Signature.from_options(dataclasses.replace(base, **{name: value}))))
    seen.add(str(Signature.from_options(dataclasses.replace(base, bootstrap="percentile", seed=3))))
    assert len(seen) == len(changes) + 2


def test_odd_tokenizer_name_is_escaped():
    sig = rougekit.Scorer(["ROUGE-1"], tokenizer=_named("a|b:c %d e\n")).signature
    assert "|tok:custom:a%7Cb:c%20%25d%20e%0A|" in str(sig)  # ":" needs no escape: the key ends at the first
    assert Signature.parse(str(sig)).tokenizer == "custom:a|b:c %d e\n"


def test_the_unicode_fold_is_signed_with_its_version():
    # the unicode and cjk tokenizers and a language preset fold the text (fold:2); rouge155 and a callable do not
    for options, field in (
        (dict(tokenizer="unicode"), "|tok:unicode|fold:2|sent:"),
        (dict(tokenizer="cjk"), "|tok:cjk|fold:2|sent:"),
        (dict(lang="ar"), "|lang:ar|tok:unicode|fold:2|sent:"),
        (dict(lang="zh"), "|lang:zh|tok:unicode|fold:2|seg:jieba-"),
    ):
        sig = rougekit.Scorer(["ROUGE-1"], **options).signature
        assert field in str(sig) and sig.fold == "2" and Signature.parse(str(sig)) == sig
    for tokenizer in ("rouge155", _named("split")):
        sig = rougekit.Scorer(["ROUGE-1"], tokenizer=tokenizer).signature
        assert "fold" not in str(sig) and sig.fold == "" and Signature.parse(str(sig)) == sig


def test_a_signature_from_before_the_fold_version_reads_as_the_old_fold():
    # printed before the fold had a version (up to main 331517e, whose fold had changed in steps that day):
    # tok:unicode alone reads as fold:1, "unversioned"
    old = (
        "rougekit|m:ROUGE-1|tok:unicode|sent:newline|stem:none|stop:no|limit:none|refs:sum|alpha:0.5"
        "|su:rouge155|w:rouge155|hori:word|avg:pairs|boot:none|r:0|c:none|seed:none|v:0.1.0"
    )
    sig = Signature.parse(old)
    assert sig.tokenizer == "unicode" and sig.fold == "1"
    assert str(sig) == old.replace("|tok:unicode|", "|tok:unicode|fold:1|")
    now = rougekit.Scorer(["ROUGE-1"], tokenizer="unicode", bootstrap=None).signature
    assert sig != now and dataclasses.replace(sig, fold="2") == now  # it differs from today's in the fold alone
    assert Signature.parse(old.replace("tok:unicode", "tok:rouge155")).fold == ""


def test_a_fold_that_is_no_known_version_is_refused():
    now = str(Signature.from_options(ScoringOptions.build(["ROUGE-1"], tokenizer="unicode")))
    for bad in ("fold:banana", "fold:9", "fold:"):
        with pytest.raises(OptionError, match="signature field fold must be one of 1, 2"):
            Signature.parse(now.replace("fold:2", bad))
    script = now.replace("tok:unicode", "tok:rouge155")  # a tokenizer that does not fold
    with pytest.raises(OptionError, match="fold must be given only with tok:unicode or tok:cjk"):
        Signature.parse(script)
    assert Signature.parse(script.replace("|fold:2", "")).fold == ""


def test_the_fold_that_version_2_names():
    # a change to what fold() writes must raise FOLD_VERSION (and this test's expectations with it)
    from rougekit.text.tokenizers import FOLD_VERSION, fold

    assert FOLD_VERSION == "2"
    # Turkish İ; Arabic harakat and tatweel; Hebrew cantillation (U+0591) dropped, a point (U+05BC) kept;
    # Persian's zero-width non-joiner; Arabic-Indic digits
    assert fold("İki كَتَـبَ \u05e9\u0591\u05bc می\u200cخواهم ١٢٣") == "iki كتب \u05e9\u05bc میخواهم 123"


@pytest.mark.parametrize(
    "bad", ["rouge|m:x", "rougekit|m:x|zz:1", "rougekit|m:x|stop:maybe", "rougekit|m:x|r:ten", "x"]
)
def test_bad_signatures_are_option_errors(bad):
    with pytest.raises(OptionError):
        Signature.parse(bad)


def _cli(*args):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main([str(a) for a in args]) == 0
    return out.getvalue()


def test_command_signatures_read_back(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a.txt").write_text("police kill the gunman\nthe cat sat\n")
    (tmp_path / "b.txt").write_text("police killed the gunman\nthe cat\n")
    (tmp_path / "ref.txt").write_text("police killed the gunman\nthe cat sat on the mat\n")
    out = json.loads(
        _cli("score", "-c", "a.txt", "-r", "ref.txt", "--stem", "--hori-units", "sentence", "--format", "json")
    )
    sig = Signature.parse(out["signature"])
    assert sig.stem and sig.hori_units == "sentence" and sig.measures == "ROUGE-1,ROUGE-2,ROUGE-L"
    out = json.loads(
        _cli("compare", "-c", "a.txt", "-c", "b.txt", "-r", "ref.txt", "--trials", "50", "--format", "json")
    )
    sig = Signature.parse(out["signature"])
    assert (sig.test, sig.trials, sig.test_seed, sig.test_confidence) == ("ar+bootstrap", 50, "0", "95")
    assert sig.bootstrap == "none" and sig.measures == "ROUGE-1,ROUGE-2,ROUGE-L"
