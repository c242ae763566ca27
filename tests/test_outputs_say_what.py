"""Outputs say what they scored (pairs, systems) and the signature how (sentence split); issue 25."""

from __future__ import annotations

import contextlib
import csv
import io
import json
import warnings

import pytest

import rougekit
from rougekit.cli.main import main
from rougekit.errors import SentenceMarkerWarning
from rougekit.signature import Signature


def run(*argv):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main([*map(str, argv)])
    return code, out.getvalue(), err.getvalue()


@pytest.fixture
def files(tmp_path):
    (tmp_path / "a.txt").write_text("police kill the gunman\nthe cat sat\nhello world\n")
    (tmp_path / "b.txt").write_text("the gunman police killed\na dog ran\nhello\n")
    (tmp_path / "ref.txt").write_text("police killed the gunman\nthe cat sat on the mat\nhello world\n")
    # CNN/DailyMail's <q> between sentences
    (tmp_path / "q.txt").write_text("the cat sat <q> on the mat\nhello world <q> again\n")
    (tmp_path / "qref.txt").write_text("the cat sat <q> on a mat\nhello there world\n")
    return tmp_path


def _score(files, *extra):
    return run("score", "-c", files / "a.txt", "-c", files / "b.txt", "-r", files / "ref.txt", *extra)


@pytest.mark.parametrize("boot", ["none", "rouge155"])  # none: the streamed path keeps no per-pair row
def test_text_header_says_systems_and_pairs(files, boot):
    code, out, _ = _score(files, "--measures", "ROUGE-1", "--bootstrap", boot)
    assert code == 0
    assert out.splitlines()[0] == "scored: 2 systems, 3 pairs each"


def test_json_jsonl_csv_say_pairs(files):
    _, out, _ = _score(files, "--measures", "ROUGE-1", "--format", "json")
    assert json.loads(out)["scored"] == {"systems": 2, "pairs": {"a": 3, "b": 3}}
    _, out, _ = _score(files, "--measures", "ROUGE-1", "--format", "jsonl", "--bootstrap", "none")
    assert [(row["system"], row["pairs"]) for row in map(json.loads, out.splitlines())] == [("a", 3), ("b", 3)]
    _, out, _ = _score(files, "--measures", "ROUGE-1,ROUGE-L", "--format", "csv")
    assert [(row["system"], row["measure"], row["pairs"]) for row in csv.DictReader(io.StringIO(out))] == [
        ("a", "ROUGE-1", "3"),
        ("a", "ROUGE-L", "3"),
        ("b", "ROUGE-1", "3"),
        ("b", "ROUGE-L", "3"),
    ]


def test_one_system_one_pair_header(files):
    (files / "one.txt").write_text("hello world\n")
    code, out, _ = run("score", "-c", files / "one.txt", "-r", files / "one.txt", "--measures", "ROUGE-1")
    assert code == 0 and out.splitlines()[0] == "scored: 1 system, 1 pair"


def test_result_counts_its_pairs_kept_or_not():
    cands, refs = ["a b", "c d", "e f"], ["a b", "c", "x"]
    kept = rougekit.Scorer(["ROUGE-1"], bootstrap=None).score(cands, refs)
    flat = rougekit.Scorer(["ROUGE-1"], bootstrap=None).score_stream(zip(cands, refs), keep_pairs=False)
    assert (len(kept), kept.total_pairs) == (3, 3)
    assert (len(flat), flat.total_pairs) == (0, 3)
    assert repr(flat).startswith("<RougeResult of 3 pairs:")
    assert str(kept).splitlines()[1] == "corpus R/P/F of 3 pairs: mean of per-pair scores"


# -- the sentence split is in the signature ------------------------------------------------------


def test_sentence_separator_changes_the_signature(files):
    """Without the separator '<q>' is the word 'q' (a hit in pair 1) and the pair is one sentence."""
    args = ["score", "-c", files / "q.txt", "-r", files / "qref.txt", "--measures", "ROUGE-1", "--format", "json"]
    _, plain, _ = run(*args, "--bootstrap", "none")
    _, split, _ = run(*args, "--bootstrap", "none", "--sentence-sep", "<q>")
    plain, split = json.loads(plain), json.loads(split)
    assert plain["signature"] != split["signature"]
    assert Signature.parse(plain["signature"]).sentences == "newline"
    assert Signature.parse(split["signature"]).sentences == "<q>"
    assert "|tok:rouge155|sent:<q>|stem:none|" in split["signature"]
    # pair 1: 6 of 7 candidate words with q (R 6/7, P 6/7), 5 of 6 without; pair 2: R 2/3, P 1 or 2/3
    assert plain["systems"]["q"]["ROUGE-1"]["recall"] == pytest.approx((6 / 7 + 2 / 3) / 2, abs=1e-5)
    assert split["systems"]["q"]["ROUGE-1"]["recall"] == pytest.approx((5 / 6 + 2 / 3) / 2, abs=1e-5)


def test_signature_without_sentence_field_reads_as_newline():
    old = "rougekit|m:ROUGE-1|tok:rouge155|stem:none|stop:no|limit:none|refs:sum|alpha:0.5|su:rouge155|w:rouge155"
    assert Signature.parse(old).sentences == "newline"
    assert Signature.parse(str(Signature("ROUGE-1", sentences="<q>"))).sentences == "<q>"


def test_marker_not_split_on_warns_once_naming_the_option(files):
    code, _, err = run("score", "-c", files / "q.txt", "-r", files / "qref.txt", "--measures", "ROUGE-1")
    assert code == 0
    assert err.splitlines() == [
        "rougekit score: warning: 3 of 4 summaries hold the sentence marker '<q>', which is scored as a word and "
        "does not split sentences: pass --sentence-sep '<q>'"
    ]
    code, _, err = run(
        "score", "-c", files / "q.txt", "-r", files / "qref.txt", "--measures", "ROUGE-1", "--sentence-sep", "<q>"
    )
    assert code == 0 and err == ""


@pytest.mark.parametrize("marker", ["<q>", "<t>", "</s>", "<n>"])
def test_marker_warning_in_python(marker):
    with pytest.warns(SentenceMarkerWarning, match=f"1 of 2 summaries hold the sentence marker '{marker}'"):
        rougekit.score([f"a b {marker} c"], ["a b c"], measures=["ROUGE-1"], bootstrap=None)
    with warnings.catch_warnings():
        warnings.simplefilter("error", SentenceMarkerWarning)
        rougekit.score([["a b", "c"]], ["a b c"], measures=["ROUGE-1"], bootstrap=None)  # split: no warning
