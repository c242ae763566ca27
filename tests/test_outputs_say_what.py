"""Outputs say what they scored (pairs, systems) and the signature how (sentence split); issue 25."""

from __future__ import annotations

import csv
import io
import json
import warnings

import pytest
from _cli import run

import rougekit
from rougekit.errors import SentenceMarkerWarning
from rougekit.signature import Signature


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


# -- compare: every accepted flag works or is refused; the tests say what their p-values mean ----


@pytest.fixture
def two_systems(tmp_path):
    (tmp_path / "a.txt").write_text("police kill the gunman\nthe cat\nrain today\n")
    (tmp_path / "b.txt").write_text("police killed the gunman\nthe cat sat\nheavy rain today\n")
    (tmp_path / "r.txt").write_text("police killed the gunman\nthe cat sat\nheavy rain today\n")
    return ["compare", "-c", tmp_path / "a.txt", "-c", tmp_path / "b.txt", "-r", tmp_path / "r.txt"]


def test_compare_help_states_sidedness_null_and_the_default_trials():
    code, out, _ = run("compare", "--help")
    assert code == 0
    text = " ".join(out.split())
    assert "both two-sided" in text
    assert "H0: within each pair the two systems' scores are exchangeable" in text
    assert "H0: the mean per-pair difference is 0" in text
    assert "--trials (default 10000, as `rougekit report`)" in text
    assert "--per-pair" not in out and "rouge155" not in out.split("--format")[1].split("]")[0]


def test_compare_and_report_share_one_default_number_of_trials():
    from rougekit.cli.compare import build_compare_parser
    from rougekit.cli.report import build_parser as report_parser

    assert build_compare_parser().get_default("trials") == report_parser().get_default("trials") == 10000


@pytest.mark.parametrize(
    "flags, message",
    [
        (["--format", "rouge155"], "argument --format: invalid choice: 'rouge155'"),
        (["--per-pair"], "--per-pair belongs to `rougekit score`"),
        (["--bootstrap", "none"], "--bootstrap belongs to `rougekit score`"),
        (["--resamples", "10"], "--resamples belongs to `rougekit score`"),
    ],
)
def test_compare_refuses_what_it_cannot_do(two_systems, flags, message):
    code, out, err = run(*two_systems, *flags)
    assert code == 2 and out == "" and len(err.splitlines()) == 1 and message in err


def test_compare_text_names_the_test_and_what_it_scored(two_systems):
    code, out, _ = run(*two_systems, "--measures", "ROUGE-1", "--trials", "500", "--seed", "7")
    lines = out.splitlines()
    assert code == 0 and lines[0] == "scored: 2 systems, 3 pairs each"
    assert "p-values are two-sided; 500 trials each, seed 7; 95% bootstrap interval of delta" in lines
    assert "p (boot): paired bootstrap, H0: the mean per-pair difference (system - baseline) is 0" in lines
    assert "|test:ar+bootstrap|trials:500|test_seed:7|test_c:95|" in lines[-1]


@pytest.mark.parametrize("fmt", ["csv", "jsonl"])
def test_compare_csv_and_jsonl(two_systems, fmt):
    code, out, _ = run(*two_systems, "--measures", "ROUGE-1,ROUGE-2", "--trials", "200", "--format", fmt)
    assert code == 0
    rows = list(csv.DictReader(io.StringIO(out))) if fmt == "csv" else [json.loads(x) for x in out.splitlines()]
    assert [r["measure"] for r in rows] == ["ROUGE-1", "ROUGE-2"]
    # per-pair F of ROUGE-1: a = 0.75, 0.8, 0.8; b = 1, 1, 1
    assert float(rows[0]["delta"]) == pytest.approx(1 - (0.75 + 0.8 + 0.8) / 3)
    assert {k: str(rows[0][k]) for k in ("pairs", "sided", "trials", "seed")} == {
        "pairs": "3",
        "sided": "two-sided",
        "trials": "200",
        "seed": "0",
    }
    assert "|trials:200|" in rows[0]["signature"]


def test_compare_json_and_sources(two_systems, tmp_path):
    (tmp_path / "s.txt").write_text("police killed the gunman today\nthe cat sat there\nheavy rain today here\n")
    code, out, _ = run(*two_systems, "--measures", "ROUGE-1", "--trials", "100", "--format", "json")
    data = json.loads(out)
    assert data["scored"] == {"systems": 2, "pairs": {"a": 3, "b": 3}}
    assert data["test"]["sided"] == "two-sided" and data["test"]["trials"] == 100 and data["test"]["seed"] == 0
    # --sources was accepted and ignored before: SumACCY needs them
    code, out, err = run(*two_systems, "--measures", "SumACCY", "--sources", tmp_path / "s.txt", "--trials", "10")
    assert code == 0, err


# -- report --result: a malformed saved result is one line naming the file and what is missing ---


@pytest.fixture
def saved(files, tmp_path):
    out = tmp_path / "saved.json"
    code, _, _ = _score(files, "--measures", "ROUGE-1,ROUGE-L", "--format", "json", "--per-pair", "-o", out)
    assert code == 0
    return out


def _report(path, *extra):
    return run("report", "--result", path, "-o", path.with_suffix(".html"), *extra)


def test_report_result_missing_value(saved):
    data = json.loads(saved.read_text())
    del data["systems"]["b"]["ROUGE-L"]["f"]
    saved.write_text(json.dumps(data))
    code, _, err = _report(saved)
    assert code == 2
    assert err == f"rougekit report: error: {saved}: system 'b', ROUGE-L: the corpus values lack a number for f\n"


def test_report_result_nested_too_deeply(tmp_path):
    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000 + "]" * 100_000)
    code, _, err = _report(path)
    expected = f"{path}: not a JSON result of `rougekit score --format json` (nested too deeply)"
    assert code == 2 and err == f"rougekit report: error: {expected}\n"


def test_report_result_refuses_scoring_options(saved):
    code, _, err = _report(saved, "--stem")
    assert code == 2 and "--stem does not apply to --result" in err
    code, _, err = _report(saved, "--trials", "50")
    assert code == 0, err


# -- explain: ROUGE-W's counts are f(tokens), and it says so; text from the command line ---------


def test_explain_says_rouge_w_counts_are_weighted():
    # -w 2: the candidate's run a b c gives hits f(3) = 9; the reference count is f(f(4) + f(2)) = 20^2
    # (f per sentence, then on the sum); the candidate count is f(3) = 9
    e = rougekit.explain("a b c", "a b c d\ne f", measures=["ROUGE-W-2", "ROUGE-L"])
    w = e.to_dict()["measures"]["ROUGE-W-2"]
    assert (w["hits"], w["reference_count"], w["candidate_count"]) == (9.0, 400.0, 9.0)
    assert w["count_units"].startswith("weighted, f(k) = k^2: hits = sum of f(run length)")
    assert e.to_dict()["measures"]["ROUGE-L"]["count_units"] == "plain counts of the units counts_what names"
    text = str(e).splitlines()
    assert "ROUGE-W-2  R 0.15000  P 1.00000  F 0.26087  (in f(tokens): hits 9, reference 400, candidate 9)" in text
    assert any(line.startswith("  count units: weighted, f(k) = k^2: ") for line in text)
    paper = rougekit.explain("a b c", "a b c d\ne f", measures=["ROUGE-W-2"], wlcs="paper")
    assert paper["ROUGE-W-2"].reference_count == 36.0  # f(6 tokens)
    assert "hits = the weighted LCS, reference = f(its tokens)" in paper["ROUGE-W-2"].count_units


def test_explain_refuses_invalid_utf8_arguments_with_one_line():
    import os
    import subprocess
    import sys

    from _paths import subprocess_env

    bad = os.fsdecode(b"police kill \xff the gunman")
    for fmt in ("text", "json"):
        done = subprocess.run(
            [sys.executable, "-m", "rougekit", "explain", "-c", bad, "-r", "police killed the gunman", "--format", fmt],
            capture_output=True,
            env=subprocess_env(PYTHONIOENCODING="utf-8"),
        )
        assert done.returncode == 2 and done.stdout == b""
        assert done.stderr == b"rougekit explain: error: -c holds invalid UTF-8 (byte 0xff at character 13)\n"


def test_explain_names_a_lone_surrogate_as_score_does():
    with pytest.raises(rougekit.InputError, match="pair 1: candidate holds a lone surrogate"):
        rougekit.explain("\ud800 a", "a")


# -- other commands: a flag that would change nothing is refused --------------------------------


def test_explain_signature_records_the_sentence_marker():
    code, out, _ = run("explain", "-c", "a b <q> c", "-r", "a b c", "--sentence-sep", "<q>", "--format", "json")
    assert code == 0 and "|tok:rouge155|sent:<q>|" in json.loads(out)["signature"]


def test_protocol_text_options_with_other_formats_are_refused(tmp_path):
    path = tmp_path / "p.jsonl"
    rows = [{"system": f"s{k}", "instance": "1", "candidate": "a b", "references": ["a c"], "h": k} for k in range(3)]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    for flags in (["--intervals"], ["--digits", "5"]):
        code, out, err = run("protocol", "--dataset", "jsonl", path, "--format", "csv", "--quiet", *flags)
        assert code == 2 and out == "" and f"{flags[0]} applies to --format text" in err


@pytest.mark.parametrize(
    "flags", [["--samples", "10"], ["--seed", "3"], ["--resample", "systems"], ["--ci", "fisher", "--seed", "3"]]
)
def test_correlate_bootstrap_options_without_the_bootstrap_are_refused(tmp_path, flags):
    (tmp_path / "m.csv").write_text("system,instance,m\na,1,0.1\nb,1,0.5\nc,1,0.3\n")
    (tmp_path / "h.csv").write_text("system,instance,h\na,1,1\nb,1,3\nc,1,2\n")
    code, _, err = run("correlate", tmp_path / "m.csv", tmp_path / "h.csv", *flags)
    assert code == 2 and "applies to --ci bootstrap" in err
    code, _, err = run("correlate", tmp_path / "m.csv", tmp_path / "h.csv", "--ci", "bootstrap", *flags[-2:])
    assert code == 0, err


def test_a_candidate_file_given_twice_is_two_systems(files):
    """It was scored once and reported as one system, without a word."""
    code, out, _ = run(
        "score", "-c", files / "a.txt", "-c", files / "a.txt", "-r", files / "ref.txt", "--format", "json"
    )
    assert code == 0 and json.loads(out)["scored"] == {"systems": 2, "pairs": {"a": 3, "a'": 3}}


def test_marker_in_a_list_of_sentences_warns_and_token_ids_do_not():
    with pytest.warns(SentenceMarkerWarning, match="1 of 2 summaries hold the sentence marker '</s>'"):
        rougekit.score(["a b"], [[["a b </s>", "c"]]], measures=["ROUGE-1"], bootstrap=None)
    with warnings.catch_warnings():
        warnings.simplefilter("error", SentenceMarkerWarning)
        rougekit.score([[1, 2]], [[1, 3]], measures=["ROUGE-1"], bootstrap=None)
