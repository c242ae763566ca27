"""A measure named twice is scored once, where it first appears (qa21b F18): the CLI printed it twice,
its per-pair CSV had duplicate columns `rougekit correlate` then refused, the signature said m:ROUGE-1,ROUGE-1."""

from __future__ import annotations

import contextlib
import io

import rougekit
from rougekit.cli.main import main


def test_api_scores_a_repeated_measure_once():
    r = rougekit.score(
        ["the cat sat"], ["the cat is here"], measures=["ROUGE-1", "rouge-2", "rouge-1", "Ngram(1,2)", "ngram(1, 2)"]
    )
    assert [m.name for m in r.measures] == ["ROUGE-1", "ROUGE-2", "Ngram(1,2)"]
    assert r.data.shape[1] == 3
    assert "|m:ROUGE-1,ROUGE-2,Ngram(1,2)|" in str(r.signature)
    # 2 of 3 candidate unigrams, 2 of 4 reference unigrams
    assert r.corpus("ROUGE-1")["recall"] == 0.5 and r.corpus("ROUGE-1")["precision"] == 0.66667  # 2/3, five decimals


def test_cli_csv_has_each_column_once(tmp_path):
    (tmp_path / "c.txt").write_text("the cat sat\n")
    (tmp_path / "r.txt").write_text("the cat is here\n")
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        argv = ["score", "-c", str(tmp_path / "c.txt"), "-r", str(tmp_path / "r.txt")]
        assert main([*argv, "--measures", "ROUGE-1,rouge-1,ROUGE-1", "--per-pair", "--format", "csv", "-q"]) == 0
    assert out.getvalue().splitlines() == [
        "system,instance,ROUGE-1_recall,ROUGE-1_precision,ROUGE-1_f",
        "c,1,0.5,0.66667,0.57143",
    ]
