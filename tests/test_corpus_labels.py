"""score's text output says what each corpus number is (qa21a F9): BLEU's is corpus BLEU, Ngram/ACCY's a
mean of per-pair scores under every --average; compare says its BLEU is a mean of sentence BLEU."""

from __future__ import annotations

import contextlib
import io

import pytest

from rougekit.cli.main import main

CANDS = "a b c d e\nx y z w v q\n"
REFS = "a b c d e\nx y z w k q\n"
# corpus BLEU by hand: clipped matches / candidate n-grams over both pairs, n = 1..4, equal lengths (BP 1)
CORPUS_BLEU = (10 / 11 * 7 / 9 * 5 / 7 * 3 / 5) ** 0.25


def _run(tmp_path, *argv):
    (tmp_path / "c.txt").write_text(CANDS)
    (tmp_path / "c2.txt").write_text("a b c d e\nx y z w k k\n")
    (tmp_path / "r.txt").write_text(REFS)
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        argv = [a.format(d=tmp_path) for a in argv]
        assert main(argv) == 0
    return out.getvalue().splitlines()


def test_bleu_is_labelled_corpus_bleu(tmp_path):
    lines = _run(tmp_path, "score", "-c", "{d}/c.txt", "-r", "{d}/r.txt", "--measures", "BLEU,ROUGE-1,Ngram(1,2),ACCY")
    assert lines[1:4] == [
        "corpus recall, precision, f: mean of per-pair scores",
        "corpus score of BLEU: corpus BLEU (every pair's clipped n-gram counts and lengths summed, "
        "not a mean of per-pair BLEU)",
        "corpus score of Ngram(1,2), ACCY: mean of per-pair scores",
    ]
    bleu = next(line for line in lines if line.startswith("c  ") and " BLEU " in line)
    assert float(bleu.split()[-1]) == pytest.approx(CORPUS_BLEU, abs=5e-6)


def test_tokens_average_labels_the_means(tmp_path):
    argv = [
        "score",
        "-c",
        "{d}/c.txt",
        "-r",
        "{d}/r.txt",
        "--measures",
        "ROUGE-1,Ngram(1,2),ACCY",
        "--average",
        "tokens",
    ]
    lines = _run(tmp_path, *argv, "--bootstrap", "none")
    assert lines[1:3] == [
        "corpus recall, precision, f: ratio of summed counts (ROUGE-1.5.5 -t 1)",
        "corpus score of Ngram(1,2), ACCY: mean of per-pair scores",
    ]


def test_single_valued_only_has_no_rpf_header(tmp_path):
    lines = _run(tmp_path, "score", "-c", "{d}/c.txt", "-r", "{d}/r.txt", "--measures", "BLEU", "--bootstrap", "none")
    assert not any(line.startswith("corpus recall, precision, f") for line in lines)


def test_compare_says_its_bleu_is_a_mean_of_sentence_bleu(tmp_path):
    argv = ["compare", "-c", "{d}/c.txt", "-c", "{d}/c2.txt", "-r", "{d}/r.txt", "--measures", "BLEU,ROUGE-1"]
    lines = _run(tmp_path, *argv, "--trials", "100", "-q")
    assert "BLEU: baseline and system are means of per-pair BLEU, not the corpus BLEU `rougekit score` prints" in lines
    assert not any(line.startswith("ROUGE-1: baseline") for line in lines)


def test_json_outputs_say_what_a_single_valued_corpus_score_is(tmp_path):
    # review21c F6: a BLEU run's JSON said only "average": "mean of per-pair scores", and the value is corpus BLEU
    import json

    from _cli import run

    text = tmp_path / "c.txt"
    text.write_text("the cat sat on the mat\n")
    code, out, _ = run(
        "score", "-c", text, "-r", text, "--measures", "BLEU,ROUGE-1", "--bootstrap", "none", "--format", "json"
    )
    assert code == 0
    said = json.loads(out)
    assert said["average"] == "mean of per-pair scores"  # ROUGE-1's
    assert said["corpus_score"]["BLEU"].startswith("corpus BLEU")
    code, out, _ = run(
        "score", "-c", text, "-r", text, "--measures", "ROUGE-1", "--bootstrap", "none", "--format", "jsonl"
    )
    assert "corpus_score" not in json.loads(out)
