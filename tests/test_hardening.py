"""Issue 17 (hardening): odd and hostile input gets a number or one clear error, never a traceback.

Each test here failed before its fix. CLI errors: exit code 2 and exactly one line on stderr.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from _cli import run
from _paths import subprocess_env

from rougekit.api import Scorer, score
from rougekit.cli.main import MESSAGE_LIMIT, SUBCOMMANDS
from rougekit.errors import InputError, OptionError
from rougekit.measures import Measure, split_measure_list


def one_line_error(result, *words):
    code, out, err = result
    assert code == 2, (code, out, err)
    assert err.count("\n") == 1 and "Traceback" not in err, err
    for w in words:
        assert w in err, err
    return err


@pytest.fixture
def files(tmp_path):
    (tmp_path / "c.txt").write_text("police kill the gunman\nthe cat sat\n")
    (tmp_path / "r.txt").write_text("police killed the gunman\nthe cat sat on the mat\n")
    return tmp_path


# -- item 4: output paths, patterns, surrogates, nesting, Ctrl-C ----------------------------------


@pytest.mark.parametrize("command", ["score", "compare"])
def test_output_to_a_directory_or_a_missing_directory(files, command):
    cands = ["-c", files / "c.txt"] + (["-c", files / "r.txt"] if command == "compare" else [])
    err = one_line_error(run(command, *cands, "-r", files / "r.txt", "-o", files), "cannot write", "directory")
    assert str(files) in err
    missing = files / "nope" / "out.txt"
    one_line_error(run(command, *cands, "-r", files / "r.txt", "-o", missing), str(missing), "does not exist")


def test_compare_writes_to_output_file(files):
    out = files / "cmp.txt"
    code, stdout, _ = run("compare", "-c", files / "c.txt", "-c", files / "r.txt", "-r", files / "r.txt", "-o", out)
    assert code == 0 and stdout == ""
    assert out.read_text().splitlines()[-1].startswith("signature: rougekit|m:ROUGE-1,ROUGE-2,ROUGE-L|")


def test_correlate_plot_into_a_missing_directory(tmp_path):
    pytest.importorskip("matplotlib", reason="plots need the plot extra")
    table = tmp_path / "t.csv"
    table.write_text("system,instance,m,h\nA,1,0.1,1\nA,2,0.2,2\nB,1,0.5,3\nB,2,0.4,4\nC,1,0.9,5\nC,2,0.8,4\n")
    prefix = tmp_path / "nope" / "plot"
    err = one_line_error(
        run("correlate", table, table, "--metric-columns", "m", "--human-columns", "h", "--plot", prefix),
        "cannot write plot",
    )
    assert str(prefix) in err


def test_invalid_reference_pattern(files):
    (files / "sys").mkdir()
    (files / "sys" / "d1.txt").write_text("a b\n")
    one_line_error(
        run(
            "score",
            "--candidate-dir",
            files / "sys",
            "--candidate-pattern",
            r"d(\d+)\.txt",
            "--reference-dir",
            files,
            "--reference-pattern",
            "[#ID#",
        ),
        "bad reference pattern",
    )


def test_lone_surrogate_in_api_input_is_an_input_error():
    for fast in (True, False):
        scorer = Scorer(["ROUGE-1", "ROUGE-L", "ROUGE-SU4"], fast=fast, bootstrap=None)
        with pytest.raises(InputError, match="pair 2: candidate holds a lone surrogate"):
            scorer.score(["a b", "a \ud800 b"], [["a"], ["a b"]])
        with pytest.raises(InputError, match="pair 1: a reference holds a lone surrogate"):
            scorer.score(["a b"], [["x", "a \udfff b"]])
        # a surrogate escaping a byte (surrogateescape) is that byte, as when read from a file
        assert scorer.score(["a \udcff b"], [["a b"]]).to_dict()["ROUGE-1"]["recall"] == 1.0


def test_lone_surrogate_in_jsonl(files):
    (files / "s.jsonl").write_text('{"c": "a \\ud800 b", "r": "a b"}\n')
    one_line_error(
        run("score", "--jsonl", files / "s.jsonl", "--candidate-field", "c", "--reference-field", "r"),
        "line 1",
        "lone surrogate",
    )


def test_undecodable_file_name_as_system_name(files):
    name = os.fsdecode(b"sys\xff.txt")
    (files / name).write_text("police kill the gunman\nthe cat sat\n")
    out = files / "out.txt"
    code, _, err = run("score", "-c", files / name, "-r", files / "r.txt", "--bootstrap", "none", "-o", out)
    assert code == 0, err
    assert "sys\ufffd" in out.read_text(encoding="utf-8")


@pytest.mark.parametrize("reader", ["score", "correlate", "protocol"])
def test_deeply_nested_jsonl(tmp_path, reader):
    deep = tmp_path / "deep.jsonl"
    deep.write_text('{"c": ' + "[" * 100_000 + "\n")
    if reader == "score":
        argv = ["score", "--jsonl", deep, "--candidate-field", "c", "--reference-field", "r"]
    elif reader == "correlate":
        argv = ["correlate", deep, deep]
    else:
        argv = ["protocol", "--dataset", "jsonl", deep]
    one_line_error(run(*argv), "deep.jsonl, line 1", "nested too deeply")  # one error format for every reader


def test_protocol_jsonl_not_utf8(tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_bytes(b'{"system": "A"}\n{"system": "\xff"}\n')
    one_line_error(run("protocol", "--dataset", "jsonl", bad), "bad.jsonl, line 2: invalid UTF-8")


@pytest.mark.parametrize("command", sorted(SUBCOMMANDS))
def test_ctrl_c_is_a_quiet_exit_130(monkeypatch, command):
    import importlib

    def interrupted(argv):
        raise KeyboardInterrupt

    monkeypatch.setattr(importlib.import_module(SUBCOMMANDS[command]), "run", interrupted)
    code, out, err = run(command)
    assert code == 130 and out == "" and "Traceback" not in err


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs a named pipe to block the command on")
def test_ctrl_c_in_a_real_process(tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    (tmp_path / "r.txt").write_text("a\n")
    env = subprocess_env()  # the rougekit under test (src/ or the installed one)
    proc = subprocess.Popen(
        [sys.executable, "-m", "rougekit", "score", "-c", str(fifo), "-r", str(tmp_path / "r.txt")],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
        # SIGINT's default action in the command, as in a terminal: started from a process that
        # ignores SIGINT (a background job, a pytest-xdist worker of one) it would inherit SIG_IGN
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    # opening the pipe for writing succeeds once the command has opened it for reading
    deadline = time.monotonic() + 60
    while True:
        try:
            fd = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
            break
        except OSError:
            assert time.monotonic() < deadline and proc.poll() is None
            time.sleep(0.05)
    try:
        time.sleep(0.2)  # now blocked reading the pipe
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=60)
    finally:
        os.close(fd)
    assert proc.returncode == 130 and b"Traceback" not in err, err


# -- item 6: Basic Elements read only SIMPLE files and never quote them ---------------------------


def _be_config(tmp_path, fmt: str) -> Path:
    (tmp_path / "secret").write_text("k7q:x:0:0:private-words\n")
    (tmp_path / "m.be").write_text("cat|black|mod\n")
    xml = (
        f'<ROUGE-EVAL><EVAL ID="1"><PEER-ROOT>{tmp_path}</PEER-ROOT><MODEL-ROOT>{tmp_path}</MODEL-ROOT>'
        f'<INPUT-FORMAT TYPE="{fmt}"/><PEERS><P ID="x">secret</P></PEERS><MODELS><M ID="a">m.be</M></MODELS>'
        "</EVAL></ROUGE-EVAL>"
    )
    (tmp_path / "c.xml").write_text(xml)
    return tmp_path / "c.xml"


def test_basic_elements_error_does_not_quote_the_file(tmp_path):
    err = one_line_error(run("rouge155", "-3", "HM", "-a", _be_config(tmp_path, "SIMPLE")), "line 1", "1 field")
    assert "k7q" not in err and "private" not in err


@pytest.mark.parametrize("fmt", ["SEE", "ISI"])
def test_basic_elements_open_only_simple_files(tmp_path, monkeypatch, fmt):
    from rougekit.text import rouge155 as text

    opened = []
    real = text.read_bytes
    monkeypatch.setattr(text, "read_bytes", lambda path, *a: opened.append(path) or real(path, *a))
    code, _, err = run("rouge155", "-3", "HM", "-a", _be_config(tmp_path, fmt))
    assert opened == []
    if fmt == "SEE":
        one_line_error((code, "", err), "unknown input format 'SEE' for Basic Elements")
    else:
        assert code == 0, err


# -- item 8: compat score_batch raises as rouge-score's score does --------------------------------


@pytest.mark.parametrize("types", [["rouge1"], ["rougeL"], ["rougeLsum"], ["rouge2", "rougeL", "rougeLsum"]])
@pytest.mark.parametrize("target", [["a b", "c"], ("a b",), [], None, 5])
def test_compat_score_batch_rejects_non_text_targets_like_rouge_score(types, target):
    rs = pytest.importorskip("rouge_score.rouge_scorer", reason="rouge-score is the reference here")
    from rougekit.compat.rouge_scorer import RougeScorer

    with pytest.raises(Exception) as expected:
        rs.RougeScorer(types, use_stemmer=True).score(target, "a b c")
    with pytest.raises(type(expected.value)) as got:
        RougeScorer(types, use_stemmer=True).score_batch(["x", target], ["y", "a b c"])
    assert str(got.value) == str(expected.value)


# -- item 2: degenerate bootstrap settings ---------------------------------------------------------


@pytest.mark.parametrize(
    "options, words",
    [
        ({"resamples": 1}, "resamples must be within 2 and 100000, got 1"),
        ({"resamples": 10**12}, "resamples must be within 2 and 100000"),
        ({"resamples": 2.5}, "resamples must be a whole number"),
        ({"confidence": 0}, "confidence must be above 0 and below 100, got 0"),
        ({"confidence": 100}, "confidence must be above 0 and below 100, got 100"),
        ({"confidence": float("nan")}, "confidence must be above 0 and below 100, got nan"),
        ({"seed": -1}, "seed must be within 0 and"),
        ({"word_limit": 2**40}, "word_limit must be within 0 and 2147483647"),
        ({"byte_limit": True}, "byte_limit must be a whole number"),
    ],
)
def test_api_statistics_and_numeric_options(options, words):
    with pytest.raises(OptionError) as exc:
        Scorer(["ROUGE-1"], **options)
    assert words in str(exc.value)


def test_api_bootstrap_none_ignores_resamples():
    assert score(["a b"], [["a b"]], measures=["ROUGE-1"], bootstrap=None, resamples=1).to_dict()["ROUGE-1"]["f"] == 1


@pytest.mark.parametrize(
    "flags, words",
    [
        (["--resamples", "1"], "resamples must be within 2 and 100000, got 1"),
        (["--confidence", "100"], "confidence must be above 0 and below 100, got 100.0"),
        (["--confidence", "0"], "confidence must be above 0 and below 100, got 0.0"),
        (["--bootstrap", "percentile", "--seed", "-1"], "seed must be within 0 and"),
        (["--word-limit", "99999999999999999999999"], "word_limit must be within 0 and 2147483647"),
    ],
)
def test_score_cli_statistics_and_numeric_options(files, flags, words):
    one_line_error(run("score", "-c", files / "c.txt", "-r", files / "r.txt", *flags), words)


# -- item 3: rouge155 numeric options --------------------------------------------------------------


@pytest.fixture
def config(tmp_path):
    (tmp_path / "p.spl").write_text("police kill the gunman\n")
    (tmp_path / "m.spl").write_text("police killed the gunman\n")
    xml = (
        f'<ROUGE-EVAL><EVAL ID="1"><PEER-ROOT>{tmp_path}</PEER-ROOT><MODEL-ROOT>{tmp_path}</MODEL-ROOT>'
        '<INPUT-FORMAT TYPE="SPL"/><PEERS><P ID="x">p.spl</P></PEERS><MODELS><M ID="a">m.spl</M></MODELS>'
        "</EVAL></ROUGE-EVAL>"
    )
    (tmp_path / "c.xml").write_text(xml)
    return tmp_path / "c.xml"


@pytest.mark.parametrize(
    "flag, value, words",
    [
        ("-n", "99999999999999", "option -n must be within 0 and 100"),
        ("-n", "1e400", "option -n must be within 0 and 100"),
        ("-n", "9" * 100_000, "option -n must be within 0 and 100"),
        ("-2", "99999999999999999999", "option -2 must be within"),
        ("-2", "4000000000", "option -2 must be within"),
        ("-r", "99999999999999999999", "option -r must be within 1 and 100000"),
        ("-l", "99999999999999999999", "option -l must be within 0 and 2147483647"),
        ("-b", "1e400", "option -b must be within 0 and 2147483647"),
        ("-l", "2.5", "option -l takes a whole number"),
    ],
)
def test_rouge155_numeric_ranges(config, flag, value, words):
    started = time.monotonic()
    err = one_line_error(run("rouge155", flag, value, "-a", config), words)
    assert len(err) < 200  # never the whole value back
    assert time.monotonic() - started < 10


def test_rouge155_any_negative_skip_is_s_star(config):
    code, out, _ = run("rouge155", "-2", "-99999999999999999999", "-x", "-a", config)
    ref_code, ref_out, _ = run("rouge155", "-2", "-1", "-x", "-a", config)
    assert code == ref_code == 0 and out == ref_out and "ROUGE-S*" in out


def test_error_messages_are_one_bounded_line(files):
    huge = "ROUGE-" + "x" * 1_000_000
    err = one_line_error(run("score", "-c", files / "c.txt", "-r", files / "r.txt", "--measures", huge))
    assert len(err) < MESSAGE_LIMIT + 100
    err = one_line_error(run("score", "-c", files / "c.txt", "-r", files / "r.txt", "--jobs", "1\n2"))
    assert "\\n" in err


# -- item 10: empty inputs, pooled systems, uneven files -------------------------------------------


def test_empty_input_files(files):
    (files / "empty.txt").write_text("")
    one_line_error(run("score", "-c", files / "empty.txt", "-r", files / "empty.txt"), "empty.txt is empty")
    one_line_error(
        run("compare", "-c", files / "empty.txt", "-c", files / "empty.txt", "-r", files / "empty.txt"), "is empty"
    )
    (files / "e.jsonl").write_text("\n\n")
    one_line_error(
        run("score", "--jsonl", files / "e.jsonl", "--candidate-field", "c", "--reference-field", "r"), "no rows"
    )


def test_more_candidate_lines_than_references(files):
    (files / "c3.txt").write_text("a\nb\nc\n")
    one_line_error(run("score", "-c", files / "c3.txt", "-r", files / "r.txt"), "r.txt has 2 lines", "c3.txt has 3")


def test_folder_pattern_pooling_two_systems(files):
    sys_dir, ref_dir = files / "sys", files / "ref"
    sys_dir.mkdir()
    ref_dir.mkdir()
    (sys_dir / "doc.1.A.txt").write_text("the cat\n")
    (sys_dir / "doc.1.B.txt").write_text("a dog\n")
    (ref_dir / "doc.1.txt").write_text("the cat sat\n")
    one_line_error(
        run(
            "score",
            "--candidate-dir",
            sys_dir,
            "--candidate-pattern",
            r"doc\.(\d+)\..*\.txt",
            "--reference-dir",
            ref_dir,
            "--reference-pattern",
            r"doc\.#ID#\.txt",
        ),
        "doc.1.A.txt and doc.1.B.txt",
        "same summary ID '1'",
    )


# -- item 1: the ROUGE-W weight has one range, checked everywhere ----------------------------------


@pytest.mark.parametrize("name", ["ROUGE-W-0", "ROUGE-W-0.5", "ROUGE-W-5.01", "ROUGE-W-13", "ROUGE-W-30"])
def test_rouge_w_weight_outside_its_range(name):
    with pytest.raises(OptionError, match=r"ROUGE-W weight must be within 1 and 5"):
        Scorer([name])


def test_rouge_w_weight_of_a_measure_built_directly():
    with pytest.raises(OptionError, match="ROUGE-W weight must be within 1 and 5"):
        Scorer([Measure("W", weight=30.0)])


@pytest.mark.parametrize("weight", ["0.5", "13", "1e400"])
def test_rouge155_w_outside_its_range(config, weight):
    one_line_error(run("rouge155", "-w", weight, "-a", config), "option -w", "within 1 and 5")


@pytest.mark.parametrize("weight", ["1", "1.2", "2", "3.5", "5"])
def test_rouge_w_inside_the_range_paths_agree_and_identity_stays_below_one(weight):
    text = "the cat sat on the mat\nand the dog ran off with it\n" + " ".join(["word"] * 300)
    rows = []
    for fast in (True, False):
        rows.append(score([text], [[text]], measures=[f"ROUGE-W-{weight}"], bootstrap=None, fast=fast).per_pair()[0])
    (fast_row,), (slow_row,) = rows[0].values(), rows[1].values()
    assert fast_row == pytest.approx(slow_row, abs=1e-9)
    # the script's double weighting: R = (sum len^w / (sum len^w)^w)^(1/w), by hand for 3 sentences
    lengths = [6, 7, 300]
    w = float(weight)
    total = sum(n**w for n in lengths)
    assert fast_row["recall"] == pytest.approx((total / total**w) ** (1 / w), abs=1e-5)
    assert fast_row["precision"] == pytest.approx((total / 313**w) ** (1 / w), abs=1e-5)
    assert 0 <= fast_row["recall"] <= 1 and 0 <= fast_row["precision"] <= 1  # (near 0 for w >= 3.5: as the script)


# -- item 3: measure orders ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name, words",
    [
        ("ROUGE-99999999999", "ROUGE-N needs 1 <= N <= 100"),
        ("ROUGE-" + "9" * 5000, "ROUGE-N needs 1 <= N <= 100"),
        ("ROUGE-S99999999999", "skip distance must be within 0 and 2147483647"),
        ("ROUGE-SU99999999999999999999", "skip distance must be within 0 and 2147483647"),
        ("Ngram(1,99999999999)", "Ngram(i,j) needs 1 <= i <= j <= 100"),
        ("PREC-99999999999", "PREC-n needs 1 <= n <= 100"),
    ],
)
def test_measure_orders_have_a_range(name, words):
    with pytest.raises(OptionError) as exc:
        Scorer([name])
    assert words in str(exc.value) and len(str(exc.value)) < 200


def test_measure_order_in_the_cli(files):
    one_line_error(
        run("score", "-c", files / "c.txt", "-r", files / "r.txt", "--measures", "ROUGE-99999999999"), "ROUGE-N needs"
    )


# -- item 5: one parser for measure lists ----------------------------------------------------------


def test_split_measure_list():
    assert split_measure_list("ROUGE-1, Ngram(1,4) ,ROUGE-L,,") == ["ROUGE-1", "Ngram(1,4)", "ROUGE-L"]
    assert split_measure_list("Ngram( 1 , 4 ),BLEU") == ["Ngram( 1 , 4 )", "BLEU"]
    for bad in ("Ngram(1,4", "ROUGE-1)", ""):
        with pytest.raises(OptionError):
            split_measure_list(bad)


@pytest.mark.parametrize("command", ["score", "compare"])
def test_measure_list_with_a_comma_inside_parentheses(files, command):
    cands = ["-c", files / "c.txt"] + (["-c", files / "r.txt"] if command == "compare" else [])
    code, out, err = run(command, *cands, "-r", files / "r.txt", "--measures", "Ngram(1,4),ROUGE-1", "--format", "json")
    assert code == 0, err
    assert "Ngram(1,4)" in out and "ROUGE-1" in out


# -- item 3: the statistics options of compare, correlate and protocol -------------------------------


@pytest.mark.parametrize(
    "flags, words",
    [
        (["--seed", "-1"], "--seed must be within 0 and"),
        (["--trials", "0"], "--trials must be within 2 and 100000"),
        (["--trials", "99999999999"], "--trials must be within 2 and 100000"),
        (["--confidence", "100"], "--confidence must be above 0 and below 100"),
    ],
)
def test_compare_statistics_options(files, flags, words):
    started = time.monotonic()
    one_line_error(run("compare", "-c", files / "c.txt", "-c", files / "r.txt", "-r", files / "r.txt", *flags), words)
    assert time.monotonic() - started < 10


@pytest.fixture
def table(tmp_path):
    path = tmp_path / "t.csv"
    path.write_text("system,instance,m,h\nA,1,0.1,1\nA,2,0.2,2\nB,1,0.5,3\nB,2,0.4,4\nC,1,0.9,5\nC,2,0.8,4\n")
    return path


@pytest.mark.parametrize(
    "flags, words",
    [
        (["--seed", "-1"], "--seed must be within 0 and"),
        (["--samples", "99999999999"], "--samples must be within 1 and 100000"),
    ],
)
def test_correlate_statistics_options(table, flags, words):
    argv = ["correlate", table, table, "--metric-columns", "m", "--human-columns", "h", "--ci", "bootstrap", *flags]
    one_line_error(run(*argv), words)


def test_paired_tests_check_their_options():
    from rougekit.stats.paired import approximate_randomization, paired_bootstrap

    with pytest.raises(OptionError, match="trials must be within 1 and 100000"):
        paired_bootstrap([0.1, 0.2], [0.2, 0.3], trials=0)
    with pytest.raises(OptionError, match="seed must be within 0 and"):
        approximate_randomization([0.1, 0.2], [0.2, 0.3], seed=-1)
    with pytest.raises(OptionError, match="confidence must be above 0 and below 100"):
        paired_bootstrap([0.1, 0.2], [0.2, 0.3], confidence=0)


def test_paired_bootstrap_in_blocks_draws_the_same_resamples():
    """Drawn block by block (bounded memory for many pairs), the resamples are numpy's single draw."""
    import numpy as np

    from rougekit.stats.paired import paired_bootstrap

    rng = np.random.default_rng(3)
    a, b = rng.random(50), rng.random(50)
    got = paired_bootstrap(a, b, trials=2500, seed=7, confidence=90)
    idx = np.random.default_rng(7).integers(0, 50, size=(2500, 50))
    deltas = (b - a)[idx].mean(axis=1)
    observed = float(np.mean(b - a))
    p = (1 + int(np.sum(np.abs(deltas - observed) >= abs(observed) - 1e-12))) / 2501
    lo, hi = np.percentile(deltas, [5, 95])
    assert (got.p_value, got.low, got.high) == (p, float(lo), float(hi))


def test_protocol_with_single_valued_measures(tmp_path):
    """Found by the CLI fuzz: Ngram(i,j), ACCY, ... in the protocol grid raised AttributeError."""
    rows = []
    for s, cand in enumerate(["the cat sat on the mat", "a cat sat", "the dog ran off", "cat mat"]):
        for i, ref in enumerate(["the cat sat on the mat", "a dog ran off quickly"]):
            human = {"coh": [4, 3, 2, 1][s] + i / 10}
            rows.append({"system": f"s{s}", "instance": str(i), "candidate": cand, "references": [ref], "human": human})
    path = tmp_path / "d.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    code, out, err = run(
        "protocol",
        path,
        "--dataset",
        "jsonl",
        "--measures",
        "Ngram(1,4),NrstACCY,ROUGE-1",
        "--samples",
        "20",
        "--format",
        "json",
        "--quiet",
        "--variants",
        "plain",
        "--refs",
        "all",
        "--coefficient",
        "pearson",
    )
    assert code == 0, err
    assert "Ngram(1,4)" in out and "NrstACCY" in out


def test_correlate_checks_fisher_level_before_writing_plots(table, tmp_path):
    """Found by the CLI fuzz (seed 1): --ci fisher with --level summary failed after the plots were written."""
    pytest.importorskip("matplotlib", reason="plots need the plot extra")
    prefix = tmp_path / "p"
    argv = ["correlate", table, table, "--metric-columns", "m", "--human-columns", "h"]
    err = one_line_error(run(*argv, "--level", "summary", "--ci", "fisher", "--plot", prefix), "Fisher intervals")
    assert "wrote" not in err and not list(tmp_path.glob("p-*.png"))


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full (a device that is always full)")
def test_streamed_per_pair_output_on_a_full_device(files):
    """Found by the CLI fuzz (seed 1): --per-pair rows streamed to a full disk raised OSError (and the
    clean-up would have removed the output path even when it is a device)."""
    argv = ["score", "-c", files / "c.txt", "-r", files / "r.txt", "--per-pair", "--format", "csv", "-o", "/dev/full"]
    one_line_error(run(*argv, "--bootstrap", "none"), "cannot write output /dev/full")
    assert os.path.exists("/dev/full")


def test_no_pairs_have_no_corpus_score():
    """Issue 17 item 10: the mean of no pairs is undefined, never a zero score; issue 25 item 9: nor a
    NaN result, an InputError (one line) from every way of scoring."""
    import rougekit
    from rougekit.errors import InputError

    scorer = rougekit.Scorer(measures=["ROUGE-1"], bootstrap=None)
    calls = [
        lambda: rougekit.score([], [], measures=["ROUGE-1", "ROUGE-L"]),
        lambda: scorer.score([], []),
        lambda: scorer.score(iter(()), ()),
        lambda: scorer.score_stream([]),
        lambda: scorer.score_stream([], keep_pairs=False),
        lambda: scorer.result(scorer.statistics([], [])[0]),
    ]
    for call in calls:
        with pytest.raises(InputError, match="^no pairs to score: candidates and references are empty") as e:
            call()
        assert "\n" not in str(e.value)


@pytest.mark.parametrize("bad", [-1, 2**63, 1.5, "7", True])
def test_meta_functions_check_their_seed(bad):
    """Issue 17: the meta-evaluation functions refuse a seed outside 0..2**63-1 with an OptionError."""
    import numpy as np

    from rougekit.errors import OptionError
    from rougekit.meta.significance import pairwise_tests
    from rougekit.stats.inference import bootstrap_distribution
    from rougekit.stats.resampling import draws

    S = np.arange(12, dtype=float).reshape(3, 4)
    with pytest.raises(OptionError, match="seed"):
        pairwise_tests(S, test="bootstrap", paired=True, samples=10, seed=bad)
    with pytest.raises(OptionError, match="seed"):
        draws(3, 4, "both", 5, bad)
    with pytest.raises(OptionError, match="seed"):
        bootstrap_distribution(S, S, seed=bad, samples=10)


@pytest.mark.parametrize("bad", [0, -3, 10**9, 2.5])
def test_meta_functions_check_their_sample_count(bad):
    import numpy as np

    from rougekit.errors import OptionError
    from rougekit.meta.significance import pairwise_tests
    from rougekit.stats.resampling import draws

    S = np.arange(12, dtype=float).reshape(3, 4)
    with pytest.raises(OptionError, match="samples"):
        pairwise_tests(S, test="bootstrap", paired=True, samples=bad, seed=1)
    with pytest.raises(OptionError, match="samples"):
        draws(3, 4, "both", bad, 1)


def test_numpy_integers_are_valid_seeds_and_counts():
    import numpy as np

    from rougekit.stats.resampling import draws

    rows, cols = draws(3, 4, "both", np.int64(5), np.int64(7))
    again_rows, again_cols = draws(3, 4, "both", 5, 7)
    assert (rows == again_rows).all() and (cols == again_cols).all() and rows.shape == (5, 3)


@pytest.mark.parametrize(
    "empty",
    [[], (), "numpy", "ids"],
)
def test_a_pair_with_an_empty_list_of_references_is_refused(empty):
    """A pair whose references are an empty list was scored 0 against nothing, with no warning (the
    CLI's readers, rougekit.dask and rougekit.spark already refused it): now one InputError naming it."""
    import numpy as np

    from rougekit import rewards

    cands, refs = ["a b", "x y", "c d"], [["a c"], empty, "c d"]
    if empty == "numpy":
        refs[1] = np.array([], dtype=str)
    if empty == "ids":
        cands, refs = [[1, 2], [3], [4]], [[1, 3], [], [4]]
    message = r"^pair 2: no reference \(an empty list\): give each pair at least one reference$"
    for call in (
        lambda: score(cands, refs, measures=["ROUGE-1"]),
        lambda: Scorer(["ROUGE-L"]).statistics(cands, refs),
        lambda: rewards.rouge_reward(completion_field="completion_ids" if empty == "ids" else "completions")(
            **({"completion_ids": cands} if empty == "ids" else {"completions": cands}), reference=refs
        ),
    ):
        with pytest.raises(InputError, match=message):
            call()


def test_sigterm_stops_as_ctrl_c_and_removes_the_partial_output(tmp_path):
    """SIGTERM (timeout, kill, Slurm, Kubernetes) left a partial -o file ending on a whole row; now it
    stops as Ctrl-C does: the file removed, no traceback, exit code 143 (128 + SIGTERM)."""
    lines = "".join(f"the cat sat on the mat number {k}\n" for k in range(400_000))
    (tmp_path / "c.txt").write_text(lines)
    (tmp_path / "r.txt").write_text(lines)
    out = tmp_path / "out.csv"
    argv = ["score", "-c", "c.txt", "-r", "r.txt", "--per-pair", "--format", "csv", "-o", str(out)]
    proc = subprocess.Popen(
        [sys.executable, "-m", "rougekit", *argv],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=subprocess_env(),
    )
    deadline = time.monotonic() + 120
    # the first chunk's rows are written (to a file beside out.csv, moved onto it at the end)
    while not any(p.stat().st_size > 0 for p in tmp_path.glob(".out.csv.*.rougekit-partial")):
        assert proc.poll() is None and time.monotonic() < deadline, proc.stderr.read() if proc.poll() else ""
        time.sleep(0.01)
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 143 and b"Traceback" not in err, err
    assert not out.exists() and not list(tmp_path.glob(".out.csv*"))
