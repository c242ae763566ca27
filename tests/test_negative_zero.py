"""No -0.00000 in compare's text intervals and variants --explain shares (qa21a F6): a value that
rounds to zero prints +0.00000."""

from __future__ import annotations

import argparse
from fractions import Fraction

import rougekit
from rougekit.cli import compare
from rougekit.variants.factors import Decomposition, Share, table


def test_compare_text_prints_no_negative_zero():
    scored = {name: rougekit.score(["a b c"], ["a b d"], bootstrap=None) for name in ("a", "d")}
    row = dict(
        system="d",
        measure="ROUGE-2",
        baseline_mean=0.147224,
        system_mean=0.175001,
        delta=0.027777,
        p_randomization=0.075,
        p_bootstrap=0.062,
        delta_low=-7.5e-07,  # qa21a's interval end: a percentile a hair below zero
        delta_high=0.0569435,
    )
    args = argparse.Namespace(confidence=95.0, trials=3000, seed=0)
    text = compare._text(args, scored, [row], "sig")
    assert "[+0.00000, +0.05694]" in text and "-0.00000" not in text
    assert " +0.02778 " in text
    row.update(delta=-1e-17, delta_low=-0.00001, delta_high=1e-9)
    text = compare._text(args, scored, [row], "sig")
    assert "  +0.00000 " in text and "[-0.00001, +0.00000]" in text


def test_variants_explain_prints_no_negative_zero():
    tiny = Fraction(-1, 10**17)
    d = Decomposition(
        "ROUGE-1",
        "f",
        0.5,
        0.5,
        [Share("tokenizer", "rouge155", "rouge-score", tiny), Share("split", "newline", "none", -tiny)],
        "sequential",
    )
    text = table([d])
    assert "-0.00000" not in text
    assert "  tokenizer       +0.00000   rouge155 -> rouge-score" in text
    assert "(difference +0.00000, sequential)" in text


def test_the_html_reports_print_no_negative_zero():
    # review21c F3: rougekit report's significance table showed the same interval as compare's text
    from rougekit.report import html
    from rougekit.report.html_model import Comparison

    class Data:
        single: set = set()
        systems = [type("S", (), {"name": "base"})(), type("S", (), {"name": "new"})()]

    row = Comparison("ROUGE-2", 0, 1, 0.027777, 0.075, 0.062, -7.5e-07, 0.0569435)
    table = html._significance_table(Data, [row], "ROUGE-2", 95.0)
    assert "[+0.00000, +0.05694]" in table and "-0.00000" not in table
