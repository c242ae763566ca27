"""``--target``: the search finds the settings that produced a table, and says when none does.

Round trip: numbers are computed here from known settings on random data (each setting's value
through :class:`rougekit.variants.space.Space`, whose points the row tests tie to the packages),
printed as a paper prints them (rounded or truncated, in percent or fractions), and the search must
list those settings among the matches.
"""

from __future__ import annotations

import contextlib
import io
import math
from decimal import ROUND_DOWN, ROUND_HALF_EVEN, Decimal

import pytest
from _texts import pairs
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rougekit.cli.main import main
from rougekit.errors import OptionError
from rougekit.variants import variants
from rougekit.variants.space import Settings, Space
from rougekit.variants.target import parse_target

MEASURES = ("ROUGE-1", "ROUGE-2", "ROUGE-L")


def printed(value: float, scale: int, decimals: int, mode: str) -> str:
    step = Decimal(1).scaleb(-decimals)
    q = (Decimal(value) * scale).quantize(step, rounding=ROUND_HALF_EVEN if mode == "round" else ROUND_DOWN)
    return str(q)


@st.composite
def grid_settings(draw, multi: bool):
    tokenizer = draw(st.sampled_from(["rouge155", "rouge-score"]))
    if tokenizer == "rouge155":
        stemmer = draw(st.sampled_from(["none", "porter", "porter+wordnet"]))
        stopwords = draw(st.booleans())
        word_limit, byte_limit = draw(st.sampled_from([(0, 0), (75, 0), (100, 0), (0, 75), (0, 275), (0, 665)]))
        multi_ref = draw(st.sampled_from(["sum", "best", "max", "jackknife"])) if multi else "sum"
    else:
        stemmer = draw(st.sampled_from(["none", "porter"]))
        stopwords, word_limit, byte_limit = False, 0, 0
        multi_ref = draw(st.sampled_from(["max", "avg"])) if multi else "max"
    split = draw(st.sampled_from(["newline", "none", "eos"]))
    aggregations = ["mean", "rouge155-average", "bootstrap-median"]
    if multi_ref not in ("jackknife", "avg"):  # per-reference values: no summed counts
        aggregations += ["tokens"] + (["rouge155-token-average"] if tokenizer == "rouge155" else [])
    aggregation = draw(st.sampled_from(aggregations))
    script_average = aggregation in ("rouge155-average", "rouge155-token-average")
    order = "file-names" if tokenizer == "rouge155" and script_average and draw(st.booleans()) else "input"
    precision = "float32" if tokenizer == "rouge-score" and aggregation == "mean" and draw(st.booleans()) else "float64"
    # -p: with the script's tokenizer and -f A or B (the test sets it back to 0.5 when the target is not F)
    alpha = draw(st.sampled_from([0.5, 0.2, 0.8])) if tokenizer == "rouge155" and multi_ref in ("sum", "best") else 0.5
    return Settings(
        tokenizer,
        stemmer,
        stopwords,
        word_limit,
        byte_limit,
        split,
        multi_ref,
        aggregation,
        "none",
        precision,
        order,
        alpha,
    )


@st.composite
def cases(draw):
    refs_per = draw(st.sampled_from([0, 0, 2]))
    return draw(st.integers(0, 10_000)), refs_per, draw(grid_settings(refs_per > 1))


@pytest.mark.timeout(900)  # 15 searches of the whole grid (2-3 minutes on a loaded 2-core machine)
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    case=cases(),
    stat=st.sampled_from(["f", "recall", "precision"]),
    unit=st.sampled_from([(100, 2), (100, 1), (1, 4)]),
    mode=st.sampled_from(["round", "truncate"]),
    measures=st.sampled_from([MEASURES, ("ROUGE-1", "ROUGE-2"), ("ROUGE-L",)]),
)
def test_round_trip_finds_the_settings(case, stat, unit, mode, measures):
    seed, refs_per, s = case
    if "ROUGE-L" not in measures:  # ROUGE-L's sentences change nothing then: the search keeps the lines
        s = s.replace(split="newline")
    if stat != "f":  # -p weighs F only: the search tries it for F targets
        s = s.replace(alpha=0.5)
    cands, refs = pairs(seed, 14, refs_per)
    k = ("recall", "precision", "f").index(stat)
    space = Space(cands, refs, MEASURES)
    scale, decimals = unit
    values = {m: space.value(s, m)[k] for m in measures}
    if scale == 100 and all(v * 100 <= 1 for v in values.values()):
        return  # a percent table of values all below 1 reads as fractions: not a paper's table
    target = ",".join(f"{m}={printed(v, scale, decimals, mode)}" for m, v in values.items())
    result = variants(cands, refs, MEASURES, rows=[], target=target, target_stat=stat, max_matches=None, space=space)
    assert result.search.matched, target
    found = [{k2: v for k2, v in m.settings.items() if k2 != "printed"} for m in result.matches]
    assert s.describe() in found, (target, s)
    assert all(m.distance == 0.0 for m in result.matches)


def test_a_rows_numbers_are_matched_by_that_row():
    cands, refs = pairs(3, 30)
    row = variants(cands, refs, rows=["rouge-score-stem"]).row("rouge-score-stem")
    target = ",".join(f"{m}={row.scores[m]['f'] * 100:.2f}" for m in MEASURES)
    result = variants(cands, refs, target=target, rows=["rouge155", "rouge-score-stem", "rouge-score"])
    assert result.matches[0].name == "rouge-score-stem"
    assert result.matches[0].distance == 0.0
    assert result.search.ranking[0] == ("rouge-score-stem", 0.0)
    assert result.to_dict()["matches"][0]["name"] == "rouge-score-stem"


def test_no_match_lists_the_nearest_with_their_distance():
    cands, refs = pairs(4, 20)
    result = variants(cands, refs, rows=["rouge155-m"], target="R1=99.99,R2=0.01,RL=50.00")
    assert not result.search.matched
    distances = [m.distance for m in result.matches]
    assert distances and all(d > 0 for d in distances) and distances == sorted(distances)
    # the distance is the largest gap to a target, in percent
    best = result.matches[0]
    gaps = [abs(best.scores["ROUGE-1"]["f"] * 100 - 99.99), abs(best.scores["ROUGE-2"]["f"] * 100 - 0.01)]
    gaps.append(abs(best.scores["ROUGE-L"]["f"] * 100 - 50.0))
    assert math.isclose(best.distance, max(gaps), rel_tol=1e-12)


def test_target_parsing():
    t = parse_target("R1=39.53, R2=17.28,RL=36.38")
    assert t.scale == 100 and list(t.values) == list(MEASURES) and t.decimals("ROUGE-1") == 2
    t = parse_target("rouge1=0.3953,rougeLsum=0.3638", "recall")
    assert t.scale == 1 and list(t.values) == ["ROUGE-1", "ROUGE-L"] and t.stat == "recall"
    assert str(t.printed(0.39534, "ROUGE-1", "round")) == "0.3953"
    assert str(t.printed(0.39539, "ROUGE-1", "truncate")) == "0.3953"
    assert str(t.printed(0.39539, "ROUGE-1", "round")) == "0.3954"
    for bad in ("R1", "R1=abc", "R1=139", "RX=3", ""):
        with pytest.raises(OptionError):
            parse_target(bad)


def test_cli_target(tmp_path):
    cands, refs = pairs(5, 12)
    (tmp_path / "c.txt").write_text("\n".join(" ".join(c.split("\n")) for c in cands) + "\n")
    (tmp_path / "r.txt").write_text("\n".join(" ".join(r.split("\n")) for r in refs) + "\n")
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        code = main(["variants", "-c", str(tmp_path / "c.txt"), "-r", str(tmp_path / "r.txt"),
                     "--rows", "rouge155", "--target", "R1=99.99"])  # fmt: skip
    assert code == 0
    text = out.getvalue()
    assert "no setting prints the target" in text and "searched " in text and "counting choices" in text


def test_the_target_says_how_its_unit_was_read():
    # every value at most 1: fractions, and the output says why (R1=0.9 alone is not 0.9%)
    from rougekit.cli.variants import _target_text
    from rougekit.variants import variants

    cands, refs = ["the cat sat on the mat"], ["the cat was on the mat"]
    out = _target_text(variants(cands, refs, measures=["ROUGE-1"], rows=["rouge-score"], target="R1=0.9"))
    assert out.splitlines()[0] == "target (f, fractions: every value is at most 1): ROUGE-1=0.9"
    out = _target_text(variants(cands, refs, measures=["ROUGE-1"], rows=["rouge-score"], target="R1=83.33"))
    assert out.splitlines()[0] == "target (f, percent: a value is above 1): ROUGE-1=83.33"
    with pytest.raises(OptionError, match="fractions when every value is at most 1"):
        parse_target("R1=120")
