"""The measures of Lin & Hovy (2003) and Hori et al. (2004) through the API and `rougekit score`."""

from __future__ import annotations

import contextlib
import io
import json
import math

import pytest

import rougekit
from rougekit.cli.main import main
from rougekit.errors import OptionError

SOURCE = "The beautiful cherry blossoms in Japan bloom in spring"
REFS = [
    "The cherry blossoms in Japan",
    "cherry blossoms in Japan bloom",
    "beautiful cherry bloom in spring",
    "beautiful cherry blossoms in spring",
    "The beautiful cherry blossoms bloom",
]
NEW = "cherry blossoms bloom in spring"  # in no single reference, but accepted by their network


def test_cherry_blossom_network_through_the_api():
    r = rougekit.score(
        [NEW], [REFS], sources=[SOURCE], measures=["SumACCY", "NrstACCY", "ACCY", "PREC-3"], bootstrap=None
    )
    pp = r.per_pair()[0]
    assert pp["SumACCY"] == {"score": 1.0}
    # closest reference: "beautiful cherry bloom in spring" (1 deletion, 1 insertion) -> (5 - 2) / 5
    assert pp["NrstACCY"]["score"] == pytest.approx(0.6)
    # ACCY per reference 0.4, 0.4, 0.6, 0.6, 0.2 (Hori Table 1), averaged over the references
    assert pp["ACCY"]["score"] == pytest.approx((0.4 + 0.4 + 0.6 + 0.6 + 0.2) / 5)
    # trigrams of NEW: "cherry blossoms bloom" (in E), "blossoms bloom in" (nowhere), "bloom in spring" (C)
    assert pp["PREC-3"]["score"] == pytest.approx(2 / 3)


def test_bleu_sentence_and_corpus():
    r = rougekit.score(
        ["the cat sat on the mat", "the cat"],
        [["the cat sat on a mat"], ["the cat sat"]],
        measures=["BLEU", "ROUGE-1"],
        bootstrap=None,
    )
    # pair 1: p1..p4 = 5/6, 3/5, 2/4, 1/3, same length -> (1/12) ** (1/4)
    assert r.per_pair()[0]["BLEU"]["score"] == pytest.approx((1 / 12) ** 0.25)
    # corpus: clipped counts summed: p1 = 7/8, p2 = 4/6, p3 = 2/4, p4 = 1/2 is 1/3 ... computed below
    p = [(5 + 2) / (6 + 2), (3 + 1) / (5 + 1), 2 / 4, 1 / 3]
    bp = math.exp(1 - (6 + 3) / (6 + 2))
    assert r.to_dict()["BLEU"]["score"] == pytest.approx(bp * math.prod(p) ** 0.25)
    assert "recall" in r.to_dict()["ROUGE-1"]


def test_sentence_units():
    sentences = [f"sentence number {w} here" for w in ("one", "two", "three", "four", "five", "six")]
    pick = lambda ids: "\n".join(sentences[i - 1] for i in ids)  # noqa: E731
    refs = [pick([1, 2, 4]), pick([2, 3, 5]), pick([1, 3, 5])]
    r = rougekit.score(
        [pick([1, 2, 3, 5]), pick([1, 2, 4, 6])],
        [refs, refs],
        sources=["\n".join(sentences)] * 2,
        measures=["SumACCY"],
        hori_units="sentence",
        bootstrap=None,
    )
    assert r.per_pair()[0]["SumACCY"]["score"] == 1.0
    assert r.per_pair()[1]["SumACCY"]["score"] == pytest.approx(2 / 3)


def test_sources_required():
    with pytest.raises(OptionError, match="sources"):
        rougekit.score([NEW], [REFS], measures=["SumACCY"])


def test_cli_measures_bleu_sumaccy(tmp_path):
    (tmp_path / "c.txt").write_text(NEW + "\n")
    for i, ref in enumerate(REFS):
        (tmp_path / f"r{i}.txt").write_text(ref + "\n")
    (tmp_path / "s.txt").write_text(SOURCE + "\n")
    argv = [
        "score",
        "-c",
        str(tmp_path / "c.txt"),
        "--sources",
        str(tmp_path / "s.txt"),
        "--measures",
        "BLEU,SumACCY",
        "--format",
        "json",
        "--per-pair",
    ]
    for i in range(len(REFS)):
        argv += ["-r", str(tmp_path / f"r{i}.txt")]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(argv) == 0
    data = json.loads(out.getvalue())
    assert data["per_pair"]["c"][0]["SumACCY"] == {"score": 1.0}
    # no reference holds a 4-gram of NEW ("cherry blossoms bloom in", "blossoms bloom in spring"): p4 = 0
    assert data["systems"]["c"]["BLEU"]["score"] == 0.0
    assert data["per_pair"]["c"][0]["BLEU"] == {"score": 0.0}


def test_stream_with_sources_equals_score():
    """score_stream of (candidate, references, source) triples gives score()'s per-pair values."""
    scorer = rougekit.Scorer(["SumACCY", "NrstACCY", "ROUGE-1"], bootstrap=None)
    cands, refs, srcs = [NEW, REFS[0], "blossoms"], [REFS, REFS[1:], REFS[:1]], [SOURCE] * 3
    direct = scorer.score(cands, refs, sources=srcs).per_pair()
    streamed = scorer.score_stream(zip(cands, refs, srcs), chunk_size=2).per_pair()
    assert streamed == direct
    with pytest.raises(OptionError, match="source"):
        scorer.score_stream(zip(cands, refs))
    with pytest.raises(OptionError, match="source"):
        scorer.score_stream([(NEW, REFS, SOURCE), (NEW, REFS)], chunk_size=5)


def test_cli_sources_file_must_align(tmp_path):
    (tmp_path / "c.txt").write_text(NEW + "\n" + NEW + "\n")
    (tmp_path / "r.txt").write_text(REFS[0] + "\n" + REFS[1] + "\n")
    (tmp_path / "s.txt").write_text(SOURCE + "\n")
    argv = [
        "score",
        "-c",
        str(tmp_path / "c.txt"),
        "-r",
        str(tmp_path / "r.txt"),
        "--sources",
        str(tmp_path / "s.txt"),
        "--measures",
        "SumACCY",
        "-q",
    ]
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        assert main(argv) == 2
    assert "s.txt has 1 lines but" in err.getvalue() and "c.txt has 2" in err.getvalue()
