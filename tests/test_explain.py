"""rougekit.explain on small pairs whose matches are worked out by hand (docs/rouge155/measures.md)."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

import pytest

import rougekit
from rougekit.errors import InputError, OptionError


def matches(e, name):
    return [(x["tokens"], x["count"], x["reference"]) for x in e.to_dict()["measures"][name]["matches"]]


def test_rouge_n_clipped_counts_and_positions():
    # candidate "the cat the cat sat" vs reference "the cat sat on the mat":
    # unigrams: the min(2,2)=2, cat min(2,1)=1, sat 1 -> 4 hits; bigrams: "the cat" min(2,1)=1, "cat sat" 1
    e = rougekit.explain("the cat the cat sat", "the cat sat on the mat", measures=["ROUGE-1", "ROUGE-2"])
    assert matches(e, "ROUGE-1") == [(["the"], 2, 0), (["cat"], 1, 0), (["sat"], 1, 0)]
    assert matches(e, "ROUGE-2") == [(["the", "cat"], 1, 0), (["cat", "sat"], 1, 0)]
    d = e.to_dict()["measures"]["ROUGE-2"]
    first = d["matches"][0]
    assert first["candidate_positions"] == [[0, 1], [2, 3]] and first["reference_positions"] == [[0, 1]]
    assert (d["hits"], d["reference_count"], d["candidate_count"]) == (2, 5, 4)
    assert d["positions"] == "tokens"


def test_union_lcs_of_the_paper():
    # Lin (2004) §3.2: reference w1 w2 w3 w4 w5, candidate sentences w1 w2 w6 w7 w8 / w1 w3 w8 w9 w5:
    # the first LCS is w1 w2, the second w1 w3 w5; their union w1 w2 w3 w5 -> 4 hits, R = 4/5, P = 4/10
    e = rougekit.explain("w1 w2 w6 w7 w8\nw1 w3 w8 w9 w5", "w1 w2 w3 w4 w5", measures=["ROUGE-L"])
    d = e.to_dict()["measures"]["ROUGE-L"]
    assert [x["tokens"][0] for x in d["matches"]] == ["w1", "w2", "w3", "w5"]
    assert [x["reference_positions"] for x in d["matches"]] == [[[[0, 0]]], [[[0, 1]]], [[[0, 2]]], [[[0, 4]]]]
    # w1 is on both LCSs (candidate sentence 1 token 1, sentence 2 token 1)
    assert d["matches"][0]["candidate_positions"] == [[[0, 0]], [[1, 0]]]
    assert d["matches"][3]["candidate_positions"] == [[[1, 4]]]
    assert (d["recall"], d["precision"]) == (0.8, 0.4)


def test_lcs_tie_break_and_clipping():
    # reference "red blue", candidate sentences "blue red" / "red": both LCS traces keep "red" (ties
    # go "up": the earlier reference token), so blue is never marked: 1 hit
    e = rougekit.explain("blue red\nred", "red blue", measures=["ROUGE-L"])
    assert matches(e, "ROUGE-L") == [(["red"], 1, 0)]
    # reference sentences "rain fell" / "rain stopped", candidate "rain": both traces mark rain, but the
    # candidate has one rain, so the second is clipped (listed, counting 0)
    d = rougekit.explain("rain", "rain fell\nrain stopped", measures=["ROUGE-L"]).to_dict()["measures"]["ROUGE-L"]
    assert [(x["tokens"], x["reference_positions"]) for x in d["matches"]] == [(["rain"], [[[0, 0]]])]
    assert [(x["tokens"], x["reference_positions"], x["count"]) for x in d["clipped"]] == [(["rain"], [[[1, 0]]], 0)]


def test_rouge_w_runs_as_the_script_walks_them():
    # docs/rouge155/measures.md: reference sentences "b" / "a b x c d", candidate "a b c d", -w 2:
    # "b" scores f(1) = 1 in the first sentence; in the second the clipped "b" neither scores nor ends
    # the run a . c d, which closes with f(3) = 9: hits 10
    e = rougekit.explain("a b c d", "b\na b x c d", measures=["ROUGE-W-2"])
    d = e.to_dict()["measures"]["ROUGE-W-2"]
    runs = [(x["tokens"], x["count"], x["weight"], x["reference_positions"]) for x in d["matches"]]
    assert runs == [(["b"], 1, 1.0, [[[0, 0]]]), (["a", "c", "d"], 3, 9.0, [[[1, 0], [1, 3], [1, 4]]])]
    assert d["hits"] == 10.0 and d["reference_count"] == 676.0
    assert (d["recall"], d["precision"]) == (0.12163, 0.79057)


def test_skip_bigrams_and_the_scripts_unigrams():
    # docs: reference "cats chase mice", candidate "mice chase cats", -2 4 -U: no skip-bigram in common;
    # SU adds the unigrams of every token but the last: cats chase / mice chase -> "chase" only
    e = rougekit.explain("mice chase cats", "cats chase mice", measures=["ROUGE-S4", "ROUGE-SU4"])
    assert matches(e, "ROUGE-S4") == []
    assert matches(e, "ROUGE-SU4") == [(["chase"], 1, 0)]
    # the paper's marker (every token a unigram): cats, chase and mice
    e = rougekit.explain("mice chase cats", "cats chase mice", measures=["ROUGE-SU4"], su_unigrams="all")
    assert sorted(t[0][0] for t in matches(e, "ROUGE-SU4")) == ["cats", "chase", "mice"]
    # reference "a b c d", -2 1: pairs ab ac bc bd cd; candidate "a c": the pair a..c, one token between
    d = rougekit.explain("a c", "a b c d", measures=["ROUGE-S1"]).to_dict()["measures"]["ROUGE-S1"]
    pair = {"count": 1, "tokens": ["a", "c"], "reference": 0}
    assert d["matches"] == [{**pair, "candidate_positions": [[0, 1]], "reference_positions": [[0, 2]]}]


def test_options_shape_the_tokens():
    e = rougekit.explain("The cats were running away.", ["Police shot the cat", "cats ran"], stem=True, stopwords=True)
    d = e.to_dict()
    assert d["candidate"]["tokens"] == ["cat", "run"]  # the, were, away: stopwords; Porter: cats -> cat
    assert d["candidate"]["words"] == ["cats", "running"]
    assert "stem:rouge155" in d["signature"] and "stop:yes" in d["signature"]
    e = rougekit.explain("one two three four", "one two", measures=["ROUGE-1"], word_limit=3)
    assert e.to_dict()["candidate"]["tokens"] == ["one", "two", "three"]


def test_spans_point_into_the_text_as_given():
    # rouge155 tokens: ASCII letter/digit runs, lowercased; "the", "are": stopwords; the hyphen splits;
    # "é" is a separator, so "café" gives the token "caf", characters 37-40 (after three spaces at 34-36)
    text = "The U.S. cats-and dogs\nare running   café"
    d = rougekit.explain(text, "cats run", measures=["ROUGE-1"], stem=True, stopwords=True).to_dict()["candidate"]
    assert d["tokens"] == ["cat", "dog", "run", "caf"]
    assert [text[s:e] for s, e in d["spans"]] == ["cats", "dogs", "running", "caf"]
    assert d["spans"][3] == [37, 40] and d["text"] == text
    # unicode tokens: NFKC and case folding of each run
    d = rougekit.explain("Die Katzen, schnell!", "Katze", measures=["ROUGE-1"], tokenizer="unicode").to_dict()
    assert d["candidate"]["spans"] == [[0, 3], [4, 10], [12, 19]]
    # a callable tokenizer: no spans
    assert (
        rougekit.explain("a b", "a", measures=["ROUGE-1"], tokenizer=str.split).to_dict()["candidate"]["spans"] is None
    )


def test_multi_reference_rules_keep_the_scripts_reference():
    refs = ["the cat", "the cat sat on the mat"]
    d = rougekit.explain("the cat sat", refs, measures=["ROUGE-1"], multi_ref="best").to_dict()["measures"]["ROUGE-1"]
    assert d["references_used"] == [0]  # recall 2/2 beats 3/6
    assert {x["reference"] for x in d["matches"]} == {0}
    d = rougekit.explain("the cat sat", refs, measures=["ROUGE-1"]).to_dict()["measures"]["ROUGE-1"]
    assert d["references_used"] == [0, 1] and d["hits"] == 5 and d["candidate_count"] == 3
    # the engine's counts: the script adds the candidate's count once per reference
    assert d["counts"] == {"reference_count": 8, "hits": 5, "candidate_count": 6}


def test_other_measures_say_what_they_count():
    e = rougekit.explain("the cat sat", "the cat sat down", measures=["BLEU", "ACCY", "PREC-1", "ROUGE-1"])
    d = e.to_dict()["measures"]
    assert d["BLEU"]["matches"] is None and "brevity penalty" in d["BLEU"]["counts_what"]
    assert d["ACCY"]["score"] == 0.75  # (4 - 1 deletion) / 4
    assert d["PREC-1"]["score"] == 1.0
    d = rougekit.explain("a b", "a b", measures=["ROUGE-W-1.2"], wlcs="paper").to_dict()["measures"]["ROUGE-W-1.2"]
    assert d["matches"] is None and d["f"] == 1.0


def test_views_escape_and_mark():
    e = rougekit.explain("<b>x</b> & y", "x & <i>y</i>", measures=["ROUGE-1"], tokenizer=str.split)
    html = e._repr_html_()
    assert "<b>x" not in html and "&lt;b&gt;x&lt;/b&gt;" in html and "<mark>" in html
    text = str(e)
    assert "ROUGE-1  R 0.33333  P 0.33333  F 0.33333" in text and "[&]" in text
    json.dumps(e.to_dict())


def test_bad_input():
    with pytest.raises(TypeError):
        rougekit.explain("a", 3)
    with pytest.raises(TypeError):
        rougekit.explain(["a", 1], "a")
    with pytest.raises(InputError):
        rougekit.explain("a", [])
    with pytest.raises(OptionError):
        rougekit.explain("a", "a", measures=["ROUGE-Q"])
    with pytest.raises(OptionError):
        rougekit.explain("a", "a", stem="yes please", multi_ref="most")


def test_docs_page_example_runs_as_shown():
    """docs/explain.md: its Python example prints the text block that follows it."""
    page = (Path(__file__).resolve().parents[1] / "docs" / "explain.md").read_text(encoding="utf-8")
    code = page.split("```python\n", 1)[1].split("```", 1)[0]
    shown = page.split("```text\n", 1)[1].split("```", 1)[0]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, "docs/explain.md", "exec"), {})
    assert out.getvalue() == shown
