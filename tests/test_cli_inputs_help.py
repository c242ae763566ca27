"""Inputs as people write them (JSON references, standard input/output, bare strings) and help that teaches."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from _cli import run
from _paths import subprocess_env

import rougekit


def run_process(*argv, stdin: bytes = b""):
    env = subprocess_env()  # the rougekit under test (src/ or the installed one)
    proc = subprocess.run(
        [sys.executable, "-m", "rougekit", *map(str, argv)], input=stdin, capture_output=True, env=env, timeout=120
    )
    return proc.returncode, proc.stdout.decode(), proc.stderr.decode()


def _per_pair(path, *options):
    code, out, err = run(
        "score", "--jsonl", path, "--candidate-field", "pred", "--reference-field", "refs", "--measures", "ROUGE-1",
        "--format", "json", "--per-pair", "--bootstrap", "none", *options,
    )  # fmt: skip
    assert code == 0, err
    return [p["ROUGE-1"] for p in json.loads(out)["per_pair"]["pred"]]


def test_jsonl_list_of_strings_is_several_references(tmp_path):
    path = tmp_path / "d.jsonl"
    path.write_text(json.dumps({"pred": "the cat sat", "refs": ["the cat sat", "a dog ran off"]}) + "\n")
    # -f A over two references: hits 3 + 0 of 3 + 4 reference unigrams; P = 3 / (3 + 3)
    assert _per_pair(path)[0] == {"recall": round(3 / 7, 5), "precision": 0.5, "f": 0.46154}
    assert _per_pair(path)[0] == rougekit.score(["the cat sat"], [["the cat sat", "a dog ran off"]], measures=[
        "ROUGE-1"], bootstrap=None).per_pair()[0]["ROUGE-1"]  # fmt: skip


def test_jsonl_list_of_lists_is_several_references_as_sentences_and_sentence_sep(tmp_path):
    path = tmp_path / "d.jsonl"
    rows = [
        {"pred": "police kill<q>the gunman", "refs": [["police killed", "the gunman"], ["a dog"]]},
        {"pred": "x", "refs": "police killed the gunman"},
    ]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    with_sep = _per_pair(path, "--sentence-sep", "<q>")
    # two references (4 + 2 unigrams), "police", "the", "gunman" match the first: R = 3/6
    assert with_sep[0]["recall"] == 0.5
    assert with_sep[1]["recall"] == 0.0
    expected = rougekit.score(
        ["police kill\nthe gunman"], [["police killed\nthe gunman", "a dog"]], measures=["ROUGE-1"], bootstrap=None
    )
    assert with_sep[0] == expected.per_pair()[0]["ROUGE-1"]


def test_json_list_of_objects_and_bad_reference_field(tmp_path):
    path = tmp_path / "d.json"
    path.write_text(json.dumps([{"pred": "the cat", "refs": ["the cat sat"]}, {"pred": "a", "refs": []}]))
    code, _, err = run("score", "--json", path, "--candidate-field", "pred", "--reference-field", "refs")
    assert code == 2 and err.count("\n") == 1
    assert "d.json, item 2: field 'refs' must be a string (one reference) or a non-empty list" in err


def test_bare_strings_are_a_type_error():
    with pytest.raises(TypeError, match="candidates must be a list of candidate summaries"):
        rougekit.score("the cat sat", ["the cat sat"])
    with pytest.raises(TypeError, match="references must be a list with one entry per candidate"):
        rougekit.score(["the cat sat"], "the cat sat")
    with pytest.raises(TypeError, match="pairs must be"):
        rougekit.Scorer().score_stream("the cat sat")


def test_dash_reads_standard_input_and_writes_standard_output(tmp_path):
    (tmp_path / "ref.txt").write_text("police killed the gunman\nthe cat sat on the mat\n")
    code, out, err = run_process(
        "score", "-c", "-", "-r", tmp_path / "ref.txt", "--measures", "ROUGE-1", "--bootstrap", "none",
        "--format", "csv", "--per-pair", "-o", "-", stdin=b"police kill the gunman\nthe cat sat\n",
    )  # fmt: skip
    assert code == 0, err
    assert out.splitlines()[1:] == ["stdin,1,0.75,0.75,0.75", "stdin,2,0.5,1.0,0.66667"]
    assert not (Path.cwd() / "-").exists()
    code, out, err = run_process(
        "score", "--jsonl", "-", "--candidate-field", "p", "--reference-field", "r", "--measures", "ROUGE-1",
        "--format", "jsonl", stdin=b'{"p": "the cat", "r": ["the cat sat", "the cat"]}\n',
    )  # fmt: skip
    assert code == 0, err
    assert json.loads(out)["ROUGE-1"]["recall"] == 0.8  # 4 of 5 reference unigrams
    code, _, err = run("score", "-c", "-", "-r", "-")
    assert code == 2 and err == "rougekit score: error: standard input (-) can be read only once\n"


def test_top_level_help_lists_commands_with_examples():
    code, out, _ = run("--help")
    assert code == 0
    for name in ("score", "rouge155", "compare", "correlate", "protocol"):
        assert f"\n  {name} " in out and f"e.g. rougekit {name} " in out
    code, out, _ = run("--version")
    assert (code, out) == (0, f"rougekit {rougekit.__version__}\n")


@pytest.mark.parametrize("command", ["score", "rouge155", "compare", "correlate", "protocol"])
def test_every_command_help_works_with_examples(command):
    code, out, err = run(command, "--help")
    assert code == 0 and err == ""
    assert "examples:" in out and f"rougekit {command} " in out.split("examples:")[1]


def test_rouge155_help_says_its_flags_follow_the_script():
    code, out, _ = run("rouge155", "--help")
    assert code == 0
    assert "The flags follow ROUGE-1.5.5.pl" in out and "-c is the confidence" in out
    for flag in ("-a", "-n N", "-m", "-s", "-f A|B", "-r R", "-c C", "-2 D", "-z F"):
        assert flag in out
    code, out, _ = run("score", "--help")
    assert "in `rougekit rouge155` they are the script's" in " ".join(out.split())


@pytest.mark.parametrize("fmt", ["csv", "jsonl"])
def test_per_pair_output_pipes_into_correlate(fmt):
    # score's per-pair rows (system, instance, ROUGE-1_f, ...) are read as they are by correlate
    example = Path(__file__).resolve().parents[1] / "examples" / "correlate"
    systems = [x for name in ("sysA", "sysB", "sysC") for x in ("-c", example / f"{name}.txt")]
    code, scores, err = run_process(
        "score", *systems, "-r", example / "ref.txt", "--measures", "ROUGE-1", "--bootstrap", "none",
        "--format", fmt, "--per-pair",
    )  # fmt: skip
    assert code == 0, err
    code, out, err = run_process(
        "correlate", "-", example / "human.csv", "--level", "summary", "--coefficient", "pearson",
        "--metric-columns", "ROUGE-1_f", "--format", "json", stdin=scores.encode(),
    )  # fmt: skip
    assert code == 0 and err == "", err
    # by hand: per instance, Pearson over the three systems of per-pair F and relevance, averaged
    human = {}
    for line in (example / "human.csv").read_text().splitlines()[1:]:
        system, instance, value = line.split(",")
        human[(system, instance)] = float(value)
    r = rougekit.score
    refs = (example / "ref.txt").read_text().splitlines()
    f = {
        (s, str(k + 1)): p["ROUGE-1"]["f"]
        for s in ("sysA", "sysB", "sysC")
        for k, p in enumerate(
            r((example / f"{s}.txt").read_text().splitlines(), refs, measures=["ROUGE-1"], bootstrap=None).per_pair()
        )
    }
    import numpy as np

    rs = []
    for inst in ("1", "2", "3", "4"):
        x = [f[(s, inst)] for s in ("sysA", "sysB", "sysC")]
        y = [human[(s, inst)] for s in ("sysA", "sysB", "sysC")]
        if np.std(x) > 0 and np.std(y) > 0:
            rs.append(np.corrcoef(x, y)[0, 1])
    assert json.loads(out)["ROUGE-1_f"]["relevance"]["pearson"] == pytest.approx(np.mean(rs), abs=1e-12)


def test_multi_ref_max_from_the_command_line(tmp_path):
    # "the cat sat" vs "the cat sat on the mat" (R 3/6, P 3/3, F 2/3) and vs "a cat" (R 1/2, P 1/3, F 0.4):
    # max keeps the first reference's numbers, sum would pool the counts (R 4/8, P 4/6)
    (tmp_path / "c.txt").write_text("the cat sat\n")
    (tmp_path / "r1.txt").write_text("the cat sat on the mat\n")
    (tmp_path / "r2.txt").write_text("a cat\n")
    files = ["-c", tmp_path / "c.txt", "-r", tmp_path / "r1.txt", "-r", tmp_path / "r2.txt", "--measures", "ROUGE-1"]
    code, out, err = run("score", *files, "--multi-ref", "max", "--format", "json", "--per-pair")
    assert code == 0, err
    data = json.loads(out)
    assert data["per_pair"]["c"][0]["ROUGE-1"] == {"recall": 0.5, "precision": 1.0, "f": 0.66667}
    assert "|refs:max|" in data["signature"]
    code, out, _ = run("score", *files, "--multi-ref", "sum", "--format", "json", "--per-pair")
    assert json.loads(out)["per_pair"]["c"][0]["ROUGE-1"]["precision"] == round(4 / 6, 5)
