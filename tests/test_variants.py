"""``rougekit.variants``: each row equals the package it names.

The real packages installed for the tests (rouge-score 0.1.2, pltrdy's rouge 1.0.1,
multilingual-rouge, pyrouge driving the reference ROUGE-1.5.5.pl, the reference script itself)
are run on the same pairs; evaluate, torchmetrics and files2rouge rows are held to the goldens
recorded from those packages (tests/goldens/*).
"""

from __future__ import annotations

import contextlib
import io
import json
import re
import struct
from pathlib import Path

import numpy as np
import pytest
from _texts import pairs
from reference_rouge import reference_available, run_reference

from rougekit.cli.main import main
from rougekit.errors import InputError
from rougekit.variants import Space, variants

GOLDENS = Path(__file__).parent / "goldens"
PUNKT = GOLDENS / "torchmetrics" / "nltk_data"
KEYS = ("recall", "precision", "f")
MEASURES = ("ROUGE-1", "ROUGE-2", "ROUGE-L")
TYPES = {"ROUGE-1": "rouge1", "ROUGE-2": "rouge2"}

rouge_score = pytest.importorskip("rouge_score.rouge_scorer", reason="rouge-score 0.1.2 is installed for the tests")
nltk = pytest.importorskip("nltk", reason="nltk is installed for the tests")


@pytest.fixture
def punkt(monkeypatch):
    """nltk's Punkt reading the test model (no download)."""
    monkeypatch.setattr(nltk.data, "path", [str(PUNKT)])


def lines_pairs(seed: int, n: int):
    """Pairs from tests/_texts.py with some texts on several lines (sentences for rougeLsum and 1.5.5's LCS)."""
    cands, refs = pairs(seed, n)
    return [c.replace(". ", ".\n", 1) for c in cands], refs


def real_rouge_score(cands, refs, types, stem, stat):
    scorer = rouge_score.RougeScorer(list(types), use_stemmer=stem)
    per_pair = [scorer.score(r, c) for c, r in zip(cands, refs)]
    field = {"recall": "recall", "precision": "precision", "f": "fmeasure"}[stat]
    return {t: float(np.mean([getattr(s[t], field) for s in per_pair])) for t in types}, per_pair


@pytest.mark.parametrize("seed", [1, 2])
@pytest.mark.parametrize(
    "name, stem, lsum",
    [
        ("rouge-score", False, False),
        ("rouge-score-stem", True, False),
        ("rouge-score-lsum", False, True),
        ("rouge-score-lsum-stem", True, True),
    ],
)
def test_rouge_score_rows_are_rouge_score(seed, name, stem, lsum):
    cands, refs = lines_pairs(seed, 60)
    row = variants(cands, refs, rows=[name]).row(name)
    types = ["rouge1", "rouge2", "rougeLsum" if lsum else "rougeL"]
    for stat in KEYS:
        theirs, _ = real_rouge_score(cands, refs, types, stem, stat)
        assert [row.scores[m][stat] for m in MEASURES] == [theirs[t] for t in types]


def test_rouge_score_lsum_differs_from_rougel_on_lines():
    # the two rows really are different computations on texts with several lines
    cands, refs = lines_pairs(3, 40)
    r = variants(cands, refs, rows=["rouge-score", "rouge-score-lsum"])
    assert r.row("rouge-score").scores["ROUGE-L"]["f"] != r.row("rouge-score-lsum").scores["ROUGE-L"]["f"]
    assert r.row("rouge-score").scores["ROUGE-1"] == r.row("rouge-score-lsum").scores["ROUGE-1"]


def test_punkt_row_is_rouge_score_on_nltk_sentences(punkt):
    cands, refs = lines_pairs(4, 40)
    row = variants(cands, refs, rows=["rouge-score-lsum-punkt-stem"]).row("rouge-score-lsum-punkt-stem")

    def split(t):
        return "\n".join(nltk.sent_tokenize(" ".join(t.split("\n"))))

    theirs, _ = real_rouge_score([split(c) for c in cands], [split(r) for r in refs], ["rougeLsum"], True, "f")
    assert row.scores["ROUGE-L"]["f"] == theirs["rougeLsum"]


def test_bootstrap_row_is_rouge_scores_aggregator_after_numpy_seed():
    # the row is rouge-score's own BootstrapAggregator after np.random.seed(seed), bit for bit
    from rouge_score import scoring as rs_scoring

    cands, refs = lines_pairs(5, 50)
    r = variants(cands, refs, rows=["rouge-score-stem-bootstrap"], seed=7)
    row = r.row("rouge-score-stem-bootstrap")
    _, per_pair = real_rouge_score(cands, refs, ["rouge1", "rouge2", "rougeL"], True, "f")
    agg = rs_scoring.BootstrapAggregator()
    for s in per_pair:
        agg.add_scores(s)
    np.random.seed(7)
    mids = agg.aggregate()
    for m, t in zip(MEASURES, ("rouge1", "rouge2", "rougeL")):
        want = mids[t].mid
        assert [row.scores[m][k] for k in KEYS] == [want.recall, want.precision, want.fmeasure]
        # the option space's point of the row draws the same numbers
        assert Space(cands, refs, MEASURES, seed=7).value(row.settings, m) == (
            want.recall,
            want.precision,
            want.fmeasure,
        )
    assert "np.random.seed(7)" in row.command.replace("numpy.", "np.")
    # and it is a median of resample means, not the plain mean
    mean = variants(cands, refs, rows=["rouge-score-stem"]).row("rouge-score-stem")
    assert row.scores["ROUGE-1"]["f"] != mean.scores["ROUGE-1"]["f"]


def test_multi_reference_rows_take_the_best_f_as_rouge_score():
    cands, refs = pairs(6, 30, refs_per=3)
    row = variants(cands, refs, rows=["rouge-score-stem"]).row("rouge-score-stem")
    scorer = rouge_score.RougeScorer(["rouge1", "rouge2", "rougeL"], use_stemmer=True)
    per_pair = [scorer.score_multi(r, c) for c, r in zip(cands, refs)]
    assert row.scores["ROUGE-2"]["f"] == float(np.mean([s["rouge2"].fmeasure for s in per_pair]))


def test_pltrdy_row_is_rouge():
    rouge = pytest.importorskip("rouge", reason="pltrdy's rouge 1.0.1 is installed for the tests")
    cands, refs = pairs(7, 50)
    row = variants(cands, refs, rows=["rouge"]).row("rouge")
    theirs = rouge.Rouge().get_scores(cands, refs, avg=True)
    for m, key in zip(MEASURES, ("rouge-1", "rouge-2", "rouge-l")):
        assert [row.scores[m][k] for k in KEYS] == [theirs[key][k] for k in "rpf"]


def test_pltrdy_failure_is_reported_not_zeroed():
    # rouge 1.0.1 raises on an empty hypothesis: the row is left out, with the package's reason
    r = variants(["", "a b"], ["a b", "a b"], rows=["rouge", "rouge-score"])
    assert [row.name for row in r.rows] == ["rouge-score"]
    assert r.skipped[0][0] == "rouge" and "Hypothesis is empty" in r.skipped[0][1]


def test_multilingual_row_is_xlsums_scorer():
    ml = pytest.importorskip("multilingual_rouge.rouge_scorer", reason="multilingual-rouge is not installed")
    from multilingual_rouge import scoring as ml_scoring

    cands, refs = pairs(8, 40)
    row = variants(cands, refs, rows=["multilingual-rouge"], seed=3).row("multilingual-rouge")
    scorer = ml.RougeScorer(["rouge1", "rouge2", "rougeL"], use_stemmer=True)
    agg = ml_scoring.BootstrapAggregator()
    for c, r in zip(cands, refs):
        agg.add_scores(scorer.score(r, c))
    np.random.seed(3)
    mids = agg.aggregate()
    assert [row.scores[m]["f"] for m in MEASURES] == [mids[t].mid.fmeasure for t in ("rouge1", "rouge2", "rougeL")]


# ----------------------------------------------------------------------------- goldens


def _evaluate_seed(np_seed: int) -> int:
    """The seed evaluate's load() takes from numpy's global state after numpy.random.seed(np_seed)."""
    state = np.random.get_state()
    np.random.seed(np_seed)
    _, key, pos, *_ = np.random.get_state()
    np.random.set_state(state)
    return int(key[pos] if pos < 624 else key[0])


@pytest.mark.parametrize("case_name", ["default_seed0", "default_seed1234", "multi_ref_seed5"])
def test_evaluate_rows_are_the_recorded_evaluate(case_name):
    cases = json.loads((GOLDENS / "evaluate" / "cases.json").read_text(encoding="utf-8"))["cases"]
    case = next(c for c in cases if c["name"] == case_name)
    seed = _evaluate_seed(case["np_seed"])
    r = variants(case["predictions"], case["references"], rows=["evaluate", "evaluate-lsum"], seed=seed)
    golden = case["result"]
    for name, l_type in (("evaluate", "rougeL"), ("evaluate-lsum", "rougeLsum")):
        row = r.row(name)
        assert row.scores["ROUGE-1"]["f"] == golden["rouge1"]["value"]
        assert row.scores["ROUGE-2"]["f"] == golden["rouge2"]["value"]
        assert row.scores["ROUGE-L"]["f"] == golden[l_type]["value"]
        assert row.scores["ROUGE-1"]["recall"] is None  # evaluate prints F only


def _bits(value: float) -> int:
    return struct.unpack("<I", struct.pack("<f", value))[0]


@pytest.mark.parametrize("case_name", ["pairs_100", "pairs_1000", "multi_best_200"])
def test_torchmetrics_rows_are_the_recorded_torchmetrics(case_name, punkt):
    cases = json.loads((GOLDENS / "torchmetrics" / "cases.json").read_text(encoding="utf-8"))["cases"]
    case = next(c for c in cases if c["name"] == case_name)
    assert case["kwargs"] == {}  # the defaults: what the row runs
    preds, target = pairs(*case["inputs"]["generated"])
    r = variants(preds, target, rows=["torchmetrics", "torchmetrics-lsum"])
    golden = case["result"]
    for name, l_type in (("torchmetrics", "rougeL"), ("torchmetrics-lsum", "rougeLsum")):
        row = r.row(name)
        for m, t in (("ROUGE-1", "rouge1"), ("ROUGE-2", "rouge2"), ("ROUGE-L", l_type)):
            for k, tk in zip(KEYS, ("recall", "precision", "fmeasure")):
                assert _bits(row.scores[m][k]) == golden[f"{t}_{tk}"]["bits"], (name, m, k)


def test_files2rouge_row_is_the_recorded_files2rouge():
    folder = GOLDENS / "files2rouge" / "default"
    case = json.loads((folder / "case.json").read_text(encoding="utf-8"))
    assert case["argv"] == ["references.txt", "summaries.txt"]
    refs = (folder / "references.txt").read_text(encoding="utf-8").splitlines()
    cands = (folder / "summaries.txt").read_text(encoding="utf-8").splitlines()
    row = variants(cands, refs, rows=["files2rouge"]).row("files2rouge")
    printed = {}
    for line in case["stdout"].splitlines():
        m = re.match(r"1 (ROUGE-\S+) Average_([RPF]): (\S+) ", line)
        if m:
            printed[(m.group(1), {"R": "recall", "P": "precision", "F": "f"}[m.group(2)])] = float(m.group(3))
    assert printed and {(m, k): row.scores[m][k] for m in MEASURES for k in KEYS} == printed


# ----------------------------------------------------------------------------- the reference script

_AVAILABLE, _WHY = reference_available()
needs_perl = pytest.mark.skipif(not _AVAILABLE, reason=_WHY)
_LINE = re.compile(r"^(\S+) (ROUGE-\S+) Average_([RPF]): (\S+) ")


def _script_numbers(stdout: str) -> dict:
    out = {}
    for line in stdout.splitlines():
        m = _LINE.match(line)
        if m:
            out[(m.group(2), {"R": "recall", "P": "precision", "F": "f"}[m.group(3)])] = m.group(4)
    return out


@needs_perl
@pytest.mark.parametrize("name, flags", [("rouge155-m", ["--stem"]), ("rouge155", [])])
def test_rouge155_rows_are_what_the_script_prints(tmp_path, name, flags):
    cands, refs = lines_pairs(9, 25)
    (tmp_path / "c.txt").write_text("\n".join(c.replace("\n", "<q>") for c in cands) + "\n", encoding="utf-8")
    (tmp_path / "r.txt").write_text("\n".join(r.replace("\n", "<q>") for r in refs) + "\n", encoding="utf-8")
    export = tmp_path / "run"
    with contextlib.redirect_stdout(io.StringIO()):
        code = main(
            ["score", "-c", str(tmp_path / "c.txt"), "-r", str(tmp_path / "r.txt"), "--sentence-sep", "<q>"]
            + flags
            + ["--average", "rouge155", "--export-rouge155", str(export)]
        )
    assert code == 0
    args = (export / "command.txt").read_text().split()
    rc, stdout, stderr = run_reference(args, cwd=export)
    assert rc == 0, stderr.decode()
    script = _script_numbers(stdout.decode())
    row = variants(cands, refs, rows=[name]).row(name)
    assert script and {key: f"{row.scores[key[0]][key[1]]:.5f}" for key in script} == script
    assert ("-m" in args) == bool(flags)


@needs_perl
def test_pyrouge_row_is_pyrouge(tmp_path, monkeypatch):
    pyrouge = pytest.importorskip("pyrouge", reason="pyrouge 0.1.3 is installed for the tests")
    import logging
    import tempfile

    from reference_rouge import data_dir, perl_path, script_path

    home = tmp_path / "rouge_home"
    home.mkdir()
    wrapper = home / "ROUGE-1.5.5.pl"
    wrapper.write_text(f'#!/bin/sh\nexec "{perl_path()}" "{script_path()}" "$@"\n')
    wrapper.chmod(0o755)
    (home / "data").symlink_to(data_dir())
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    logging.getLogger("global").setLevel(logging.WARNING)
    cands, refs = lines_pairs(10, 12)
    system, model = tmp_path / "system", tmp_path / "model"
    system.mkdir()
    model.mkdir()
    for i, (c, r) in enumerate(zip(cands, refs)):
        (system / f"system.{i}.txt").write_text(c, encoding="utf-8")
        (model / f"model.A.{i}.txt").write_text(r, encoding="utf-8")
    real = pyrouge.Rouge155(str(home))
    real.system_dir, real.model_dir = str(system), str(model)
    real.system_filename_pattern = r"system.(\d+).txt"
    real.model_filename_pattern = "model.[A-Z].#ID#.txt"
    theirs = real.output_to_dict(real.convert_and_evaluate())
    row = variants(cands, refs, rows=["pyrouge"]).row("pyrouge")
    for m in MEASURES:
        key = m.lower().replace("-", "_")
        assert [row.scores[m][k] for k in KEYS] == [theirs[f"{key}_{s}"] for s in ("recall", "precision", "f_score")]


# ----------------------------------------------------------------------------- the command


def run_cli(*argv):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["variants", *map(str, argv)])
    return code, out.getvalue(), err.getvalue()


def one_line_pairs(seed: int, n: int):
    cands, refs = pairs(seed, n)
    return [" ".join(c.split("\n")) for c in cands], [" ".join(r.split("\n")) for r in refs]


def test_json_is_the_issues_format(tmp_path):
    cands, refs = one_line_pairs(11, 20)
    (tmp_path / "c.txt").write_text("\n".join(cands) + "\n")
    (tmp_path / "r.txt").write_text("\n".join(refs) + "\n")
    code, out, err = run_cli(
        "-c", tmp_path / "c.txt", "-r", tmp_path / "r.txt", "--format", "json", "--rows", "rouge155-m,rouge-score-stem"
    )
    assert code == 0, err
    data = json.loads(out)
    assert list(data) == ["rows"]
    row = data["rows"][1]
    assert list(row) == ["name", "package", "version", "command", "aggregation", "signature", "scores"]
    assert row["name"] == "rouge-score-stem" and row["package"] == "rouge-score" and row["version"] == "0.1.2"
    assert list(row["scores"]) == list(MEASURES) and list(row["scores"]["ROUGE-1"]) == list(KEYS)
    theirs, _ = real_rouge_score(cands, refs, ["rouge1"], True, "f")
    assert row["scores"]["ROUGE-1"]["f"] == theirs["rouge1"]
    assert "20 pairs" in err


def test_jsonl_input_and_errors(tmp_path):
    cands, refs = pairs(12, 5)
    path = tmp_path / "d.jsonl"
    path.write_text("".join(json.dumps({"pred": c, "refs": [r]}) + "\n" for c, r in zip(cands, refs)))
    code, out, err = run_cli(
        "--jsonl",
        path,
        "--candidate-field",
        "pred",
        "--reference-field",
        "refs",
        "--rows",
        "rouge-score",
        "--format",
        "json",
    )
    assert code == 0, err
    theirs, _ = real_rouge_score(cands, refs, ["rouge2"], False, "recall")
    assert json.loads(out)["rows"][0]["scores"]["ROUGE-2"]["recall"] == theirs["rouge2"]
    code, _, err = run_cli("--jsonl", path, "--candidate-field", "pred", "--reference-field", "refs", "--rows", "nope")
    assert code == 2 and err.count("\n") == 1 and "unknown row 'nope'" in err
    code, _, err = run_cli(
        "--jsonl", path, "--candidate-field", "pred", "--reference-field", "refs", "--measures", "ROUGE-SU4"
    )
    assert code == 2 and "not 'ROUGE-SU4'" in err
    code, _, err = run_cli(
        "--jsonl", path, "--candidate-field", "pred", "--reference-field", "refs", "--explain", "rouge", "rouge-score"
    )
    assert code == 2 and "its own text handling" in err and err.count("\n") == 1


def test_signature_records_the_seed_of_bootstrap_rows():
    cands, refs = pairs(9, 20)
    names = ["rouge-score-stem-bootstrap", "evaluate", "multilingual-rouge", "rouge-score"]
    for seed in (0, 7):
        r = variants(cands, refs, rows=names, seed=seed)
        for row in r.rows:
            fields = row.signature.split("|")
            want = f"seed:{seed}" if row.aggregation == "bootstrap-median" else "seed:none"
            assert want in fields, (row.name, row.signature)


def test_space_reads_lone_surrogates_as_rouge_score_does():
    # rouge-score reads a surrogate as a separator; the option space's rouge-score counting did not
    # (a bare UnicodeEncodeError from the compiled engine)
    from rougekit.variants import Settings

    cands, refs = ["the cat sat\udfff on mat", "a b\ud83d"], ["the cat\ud800sat on the mat", "a b c"]
    scorer = rouge_score.RougeScorer(["rouge1", "rougeL"])
    real = [scorer.score(r, c) for c, r in zip(cands, refs)]
    space = Space(cands, refs, ["ROUGE-1", "ROUGE-L"])
    s = Settings(tokenizer="rouge-score", split="none", multi_ref="max")
    for m, t in (("ROUGE-1", "rouge1"), ("ROUGE-L", "rougeL")):
        want = tuple(float(np.mean([getattr(x[t], k) for x in real])) for k in ("recall", "precision", "fmeasure"))
        assert space.value(s, m) == want


@pytest.mark.parametrize(
    ("candidates", "references", "error", "message"),
    [
        ([None], ["a b"], TypeError, "pair 1: candidate: expected text"),  # was: every row "skipped"
        ({"a b": 1}, ["a b"], TypeError, "its keys would be read"),  # was: the keys scored
        (["a\ud800 b"], ["a b"], InputError, "pair 1: candidate holds a lone surrogate"),
        (["a b"], [[]], InputError, "pair 1: no reference"),
    ],
)
def test_inputs_are_checked_once_with_rougekits_one_line_errors(candidates, references, error, message):
    with pytest.raises(error, match=message):
        variants(candidates, references, measures=["ROUGE-1"])


def test_a_summary_given_as_sentences_is_its_lines():
    r = variants([["the cat sat", "on the mat"]], [["the cat was on the mat"]], rows=["rouge-score-lsum"])
    want = variants(["the cat sat\non the mat"], ["the cat was on the mat"], rows=["rouge-score-lsum"])
    assert r.rows[0].scores == want.rows[0].scores


def test_a_printed_command_reads_every_reference(tmp_path, monkeypatch):
    # two references per pair: the command names both files and prints the option space's number
    import shlex

    from rougekit.variants import Settings

    cands = ["the cat sat on the mat", "a dog ran"]
    refs = [["the cat was on the mat", "a cat sat"], ["a dog ran fast", "the dog runs"]]
    monkeypatch.chdir(tmp_path)
    (tmp_path / "candidates.txt").write_text("\n".join(cands) + "\n")
    (tmp_path / "references.txt").write_text("\n".join(r[0] for r in refs) + "\n")  # the first alone
    for k in (1, 2):
        (tmp_path / f"references{k}.txt").write_text("\n".join(r[k - 1] for r in refs) + "\n")
    space = Space(cands, refs, ["ROUGE-1"])
    command = Settings().command(["ROUGE-1"], space.references_per_pair)
    words = shlex.split(command)
    assert words[:2] == ["rougekit", "score"]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main([*words[1:], "--format", "json"]) == 0
    printed = json.loads(out.getvalue())["systems"]["candidates"]["ROUGE-1"]
    assert printed["recall"] == pytest.approx(space.value(Settings(), "ROUGE-1")[0], abs=5e-7)
    assert printed["recall"] == 0.674605  # (4/7 + 7/9) / 2 at the script's 5 decimals per pair
