"""The Lin (2004) protocol: rougekit.meta.protocol and `rougekit protocol`."""

from __future__ import annotations

import csv
import io
import json
import math
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from _paths import SHARED, shared_missing

from rougekit.api import score
from rougekit.cli.main import main
from rougekit.errors import InputError, OptionError
from rougekit.meta.bootstrap import bootstrap_ci
from rougekit.meta.protocol import (
    DEFAULT_MEASURES,
    ProtocolCell,
    ProtocolDataset,
    _mark,
    format_csv,
    format_json,
    format_text,
    load_dataset,
    load_jsonl,
    run_protocol,
    score_grid,
    split_tokenized,
)

stats = pytest.importorskip("scipy.stats")

SUMMEVAL = SHARED / "data" / "summeval"
REALSUMM = SHARED / "data" / "realsumm"

# ----------------------------------------------------------------------------- a tiny dataset

SYSTEMS = ["good", "fair", "poor", "bad"]
INSTANCES = ["d1", "d2", "d3"]
REFS = {
    "d1": ["the cat sat on the mat\nit was happy", "a cat was sitting on the mat"],
    "d2": ["police killed the gunman\nthe town was relieved", "the gunman was shot by police"],
    "d3": ["stocks rose sharply on monday\ninvestors cheered", "markets climbed on monday"],
}
CANDS = {
    "good": {
        "d1": "the cat sat on the mat\nit was very happy",
        "d2": "police killed the gunman\nthe town is relieved",
        "d3": "stocks rose sharply monday\ninvestors cheered the news",
    },
    "fair": {"d1": "a cat sat on a mat", "d2": "the police shot a gunman", "d3": "markets rose on monday"},
    "poor": {"d1": "the dog ran in the park", "d2": "a gunman was seen in town", "d3": "monday was a day"},
    "bad": {"d1": "weather is nice today", "d2": "sports results follow", "d3": "the cat sat on the mat"},
}
HUMAN = {  # relevance-like: good > fair > poor > bad, with some noise per instance
    "relevance": [[5.0, 4.5, 4.0], [3.5, 4.0, 3.0], [2.0, 2.5, 2.5], [1.0, 1.5, 2.0]],
    "fluency": [[4.0, 4.0, 3.5], [4.5, 3.0, 4.0], [3.0, 3.5, 2.0], [3.5, 2.0, 3.0]],
}


def tiny() -> ProtocolDataset:
    return ProtocolDataset(
        "tiny",
        list(SYSTEMS),
        list(INSTANCES),
        [[CANDS[s][i] for i in INSTANCES] for s in SYSTEMS],
        [[list(REFS[i]) for i in INSTANCES] for _ in SYSTEMS],
        {k: np.array(v, dtype=float) for k, v in HUMAN.items()},
    )


def write_jsonl(path: Path, drop: tuple[str, str] | None = None, null: tuple | None = None):
    with open(path, "w", encoding="utf-8") as fh:
        for si, s in enumerate(SYSTEMS):
            for ii, i in enumerate(INSTANCES):
                if drop == (s, i):
                    continue
                human = {k: HUMAN[k][si][ii] for k in HUMAN}
                if null and null[:2] == (s, i):
                    human[null[2]] = None
                fh.write(
                    json.dumps(
                        {"system": s, "instance": i, "candidate": CANDS[s][i], "references": REFS[i], "human": human}
                    )
                    + "\n"
                )


# ----------------------------------------------------------------------------- scoring


def test_score_grid_equals_rougekit_score():
    data = tiny()
    grid = score_grid(data, ["ROUGE-1", "ROUGE-L", "ROUGE-SU4"], ["plain", "stem"], ["one", "all"])
    cands = [CANDS[s][i] for s in SYSTEMS for i in INSTANCES]
    for variant, opts in (("plain", {}), ("stem", {"stem": True})):
        for refs, entries in (
            ("one", [REFS[i][0] for s in SYSTEMS for i in INSTANCES]),
            ("all", [REFS[i] for s in SYSTEMS for i in INSTANCES]),
        ):
            r = score(cands, entries, measures=["ROUGE-1", "ROUGE-L", "ROUGE-SU4"], bootstrap=None, **opts)
            arr = grid[(variant, refs)]
            assert arr.shape == (3, 4, 3, 3)
            for k, name in enumerate(["ROUGE-1", "ROUGE-L", "ROUGE-SU4"]):
                got = arr[k, :, :, 0].ravel()
                want = [p[name]["recall"] for p in r.per_pair()]
                assert got.tolist() == want
                assert arr[k, :, :, 2].ravel().tolist() == [p[name]["f"] for p in r.per_pair()]


def test_split_tokenized():
    assert split_tokenized("A b . C d ! E ? F") == "A b .\nC d !\nE ?\nF"
    assert split_tokenized("no end") == "no end"
    assert split_tokenized("U.S. says . ok") == "U.S. says .\nok"


# ----------------------------------------------------------------------------- correlations


def _scipy(coef, x, y):
    if coef == "pearson":
        return stats.pearsonr(x, y)[0]
    if coef == "spearman":
        return stats.spearmanr(x, y)[0]
    return stats.kendalltau(x, y)[0]


@pytest.mark.parametrize("level", ["system", "summary"])
def test_correlations_match_scipy_and_bootstrap_ci(level):
    data = tiny()
    res = run_protocol(
        data,
        measures=["ROUGE-1", "ROUGE-2", "ROUGE-L"],
        variants=["plain", "stop"],
        refs=["one", "all"],
        level=level,
        samples=100,
        seed=3,
    )
    grid = score_grid(data, ["ROUGE-1", "ROUGE-2", "ROUGE-L"], ["plain", "stop"], ["one", "all"])
    assert len(res.cells) == 3 * 2 * 2 * 2 * 3
    for cell in res.cells:
        k = ["ROUGE-1", "ROUGE-2", "ROUGE-L"].index(cell.measure)
        X = grid[(cell.variant, cell.refs)][k, :, :, 0]
        Y = data.human[cell.human]
        if level == "system":
            want = _scipy(cell.coefficient, X.mean(axis=1), Y.mean(axis=1))
        else:
            per = [_scipy(cell.coefficient, X[:, j], Y[:, j]) for j in range(X.shape[1])]
            per = [p for p in per if not math.isnan(p)]
            want = sum(per) / len(per) if per else math.nan
        if math.isnan(want):
            assert math.isnan(cell.value)
        else:
            assert cell.value == pytest.approx(want, abs=1e-12)
        ci = bootstrap_ci(X, Y, level, cell.coefficient, resample_unit="systems", samples=100, seed=3)
        assert cell.low == pytest.approx(ci.low, abs=1e-9, nan_ok=True)
        assert cell.high == pytest.approx(ci.high, abs=1e-9, nan_ok=True)


def test_hand_computed_system_level_kendall():
    data = tiny()
    res = run_protocol(
        data,
        measures=["ROUGE-1"],
        variants=["plain"],
        refs=["all"],
        humans=["relevance"],
        coefficients=["kendall", "pearson"],
        samples=50,
    )
    grid = score_grid(data, ["ROUGE-1"], ["plain"], ["all"])
    x = grid[("plain", "all")][0, :, :, 0].mean(axis=1)
    y = np.array(HUMAN["relevance"]).mean(axis=1)
    # concordant minus discordant pairs over the 6 pairs of 4 systems, no ties
    s = sum(np.sign(x[a] - x[b]) * np.sign(y[a] - y[b]) for a in range(4) for b in range(a + 1, 4))
    assert res.cell("ROUGE-1", "plain", "all", "relevance", "kendall").value == pytest.approx(s / 6)
    xm, ym = x - x.mean(), y - y.mean()
    r = (xm * ym).sum() / math.sqrt((xm * xm).sum() * (ym * ym).sum())
    assert res.cell("rouge-1", "plain", "all", "relevance", "r").value == pytest.approx(r)


@pytest.mark.parametrize("resample", ["instances", "both"])
def test_other_resampling_units_match_bootstrap_ci(resample):
    data = tiny()
    res = run_protocol(
        data, measures=["ROUGE-1", "ROUGE-SU4"], variants=["stem"], refs=["all"], samples=100, seed=1, resample=resample
    )
    grid = score_grid(data, ["ROUGE-1", "ROUGE-SU4"], ["stem"], ["all"])
    for cell in res.cells:
        X = grid[("stem", "all")][["ROUGE-1", "ROUGE-SU4"].index(cell.measure), :, :, 0]
        ci = bootstrap_ci(
            X, data.human[cell.human], "system", cell.coefficient, resample_unit=resample, samples=100, seed=1
        )
        assert (cell.low, cell.high) == pytest.approx((ci.low, ci.high), abs=1e-9)


def test_missing_cells_fall_back_to_the_library(tmp_path):
    path = tmp_path / "d.jsonl"
    write_jsonl(path, drop=("poor", "d2"), null=("good", "d3", "fluency"))
    data = load_jsonl(path)
    assert data.systems == SYSTEMS and data.instances == INSTANCES
    assert data.candidates[2][1] is None and math.isnan(data.human["relevance"][2, 1])
    assert math.isnan(data.human["fluency"][0, 2]) and data.human["relevance"][0, 2] == 4.0
    res = run_protocol(data, measures=["ROUGE-1"], variants=["plain"], refs=["all"], samples=80)
    grid = score_grid(data, ["ROUGE-1"], ["plain"], ["all"])
    X = grid[("plain", "all")][0, :, :, 0]
    assert math.isnan(X[2, 1])
    for cell in res.cells:
        ci = bootstrap_ci(
            X, data.human[cell.human], "system", cell.coefficient, resample_unit="systems", samples=80, seed=0
        )
        assert cell.value == pytest.approx(ci.value)
        assert (cell.low, cell.high) == pytest.approx((ci.low, ci.high))


# ----------------------------------------------------------------------------- marking


def _cells(values, intervals):
    return [
        ProtocolCell(f"ROUGE-{k + 1}", "plain", "all", "h", "pearson", v, lo, hi)
        for k, (v, (lo, hi)) in enumerate(zip(values, intervals))
    ]


def test_overlap_rule_marks_by_hand():
    cells = _cells(
        [0.90, 0.80, 0.50, math.nan, 0.90 - 1e-12],
        [(0.70, 0.95), (0.72, 0.85), (0.30, 0.69), (math.nan, math.nan), (0.6, 0.7)],
    )
    _mark(cells, {}, {}, None, "overlap", 0.95, "system")
    assert [c.best for c in cells] == [True, False, False, False, False]
    # 0.85 >= 0.70 overlaps; 0.69 < 0.70 does not; 0.70 touches the best's low end
    assert [c.not_worse for c in cells] == [True, True, False, False, True]


def test_ties_for_best_are_all_marked():
    cells = _cells([0.5, 0.5, 0.1], [(0.4, 0.6), (0.3, 0.7), (0.0, 0.2)])
    _mark(cells, {}, {}, None, "overlap", 0.95, "system")
    assert [c.best for c in cells] == [True, True, False]
    assert [c.not_worse for c in cells] == [True, True, False]


def test_paired_rule_by_hand():
    cells = _cells([0.9, 0.8, 0.7], [(0, 1)] * 3)
    rng = np.random.default_rng(0)
    base = rng.normal(0.9, 0.05, 400)
    dists = {
        ("ROUGE-1", "plain", "all", "h", "pearson"): base,
        # noisy copy: the difference straddles 0 -> not significantly worse
        ("ROUGE-2", "plain", "all", "h", "pearson"): base - 0.1 + rng.normal(0, 0.2, 400),
        # always 0.2 lower on the same resamples -> significantly worse
        ("ROUGE-3", "plain", "all", "h", "pearson"): base - 0.2,
    }
    _mark(cells, dists, {}, None, "paired", 0.95, "system")
    assert [c.not_worse for c in cells] == [True, True, False]
    assert cells[2].p_value == 0.0 and 0.0 < cells[1].p_value < 1.0


def test_run_protocol_marks_follow_the_rule():
    data = tiny()
    res = run_protocol(
        data,
        measures=["ROUGE-1", "ROUGE-2", "ROUGE-3", "ROUGE-L"],
        variants=["plain"],
        refs=["one", "all"],
        samples=200,
    )
    columns = {}
    for c in res.cells:
        columns.setdefault(c.column, []).append(c)
    assert len(columns) == 2 * 2 * 3
    for group in columns.values():
        valid = [c for c in group if not math.isnan(c.value)]
        top = max(c.value for c in valid)
        best = [c for c in valid if c.value == top]
        assert all(c.best for c in best) and sum(c.best for c in group) == len(best)
        for c in valid:
            assert c.not_worse == (c.best or c.high >= best[0].low)


def test_williams_rule():
    data = tiny()
    res = run_protocol(
        data,
        measures=["ROUGE-1", "ROUGE-2", "ROUGE-L"],
        variants=["plain"],
        refs=["all"],
        coefficients=["pearson"],
        samples=50,
        rule="williams",
    )
    for c in res.cells:
        if not c.best:
            assert c.p_value is not None and c.not_worse == (c.p_value >= 0.05)
    with pytest.raises(OptionError):
        run_protocol(data, measures=["ROUGE-1"], level="summary", rule="williams", samples=10)


# ----------------------------------------------------------------------------- output and CLI


def test_formats():
    res = run_protocol(tiny(), measures=["ROUGE-1", "ROUGE-2"], variants=["plain", "stem"], refs=["all"], samples=50)
    text = format_text(res)
    assert "ROUGE-1" in text and "2 REFS" in text and "STEM" in text and "tau" in text
    assert "*" in text
    payload = json.loads(format_json(res))
    assert payload["n_systems"] == 4 and payload["rule"] == "overlap"
    assert len(payload["cells"]) == 2 * 2 * 2 * 3
    rows = list(csv.DictReader(io.StringIO(format_csv(res))))
    assert len(rows) == len(payload["cells"])
    assert {r["best"] for r in rows} <= {"true", "false"}


def test_cli_jsonl(tmp_path, capsys):
    path = tmp_path / "d.jsonl"
    write_jsonl(path)
    rc = main(
        [
            "protocol",
            "--dataset",
            "jsonl",
            str(path),
            "--measures",
            "ROUGE-1,ROUGE-L",
            "--variants",
            "plain",
            "--refs",
            "all",
            "--coefficient",
            "kendall",
            "--samples",
            "100",
            "--format",
            "json",
            "--quiet",
        ]
    )
    assert rc == 0
    payload = json.loads(capsys.readouterr().out)
    assert payload["humans"] == ["relevance", "fluency"]
    assert {c["measure"] for c in payload["cells"]} == {"ROUGE-1", "ROUGE-L"}
    rc = main(
        [
            "protocol",
            "--dataset",
            "jsonl",
            str(path),
            "--measures",
            "ROUGE-1",
            "--variants",
            "plain",
            "--refs",
            "one",
            "--samples",
            "20",
            "--human",
            "fluency",
        ]
    )
    out, err = capsys.readouterr()
    assert rc == 0 and "fluency" in out and "1 REF" in out and "scoring" in err


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--variants", "lemma"], "unknown variant"),
        (["--refs", "two"], "unknown reference setting"),
        (["--human", "nope"], "unknown human score"),
        (["--measures", "ROUGE-X"], "unknown measure"),
        (["--coefficient", "kendall_c"], "supports pearson"),
        (["--samples", "0"], "--samples"),
    ],
)
def test_cli_errors(tmp_path, capsys, argv, message):
    path = tmp_path / "d.jsonl"
    write_jsonl(path)
    rc = main(["protocol", "--dataset", "jsonl", str(path)] + argv)
    err = capsys.readouterr().err
    assert rc == 2 and message in err and len(err.strip().splitlines()) == 1


def test_bad_inputs(tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"system": "a", "instance": "1", "candidate": "x"}\n')
    with pytest.raises(InputError, match="references"):
        load_jsonl(bad)
    bad.write_text("not json\n")
    with pytest.raises(InputError, match="not valid JSON"):
        load_jsonl(bad)
    with pytest.raises(InputError, match="no such file"):
        load_dataset("jsonl", tmp_path / "missing.jsonl")
    with pytest.raises(OptionError):
        load_dataset("duc", bad)


def test_default_grid():
    assert len(DEFAULT_MEASURES) == 19
    assert {"ROUGE-9", "ROUGE-W-1.2", "ROUGE-S1", "ROUGE-S*", "ROUGE-SU9", "ROUGE-SU*"} <= set(DEFAULT_MEASURES)


# ----------------------------------------------------------------------------- real data


def _exact_means(M) -> np.ndarray:
    """Row means of decimals of 5 places or thirds, in exact arithmetic, then rounded once."""
    rows = [[Fraction(float(v)).limit_denominator(300000) for v in row] for row in M]
    return np.array([float(sum(row) / len(row)) for row in rows])


@pytest.mark.skipif(not (SUMMEVAL / "summeval.jsonl").exists(), reason=shared_missing(SUMMEVAL / "summeval.jsonl"))
def test_summeval_subset_against_rouge155_goldens():
    data = load_dataset("summeval", SUMMEVAL / "summeval.jsonl")
    assert data.shape == (16, 100) and data.n_references() == (11, 11)
    assert sorted(data.human) == ["coherence", "consistency", "fluency", "relevance"]
    sub = data.subset(instances=12)
    res = run_protocol(
        sub,
        measures=["ROUGE-1", "ROUGE-2", "ROUGE-L"],
        variants=["stem"],
        refs=["all"],
        coefficients=["kendall", "pearson"],
        samples=200,
    )
    # configA goldens: ROUGE-1.5.5 -m -f A with all 11 references (the stem/all setting)
    gold = {}
    with open(SUMMEVAL / "rouge155_goldens" / "configA_per_summary.jsonl") as fh:
        for line in fh:
            r = json.loads(line)
            gold[(r["system"], r["doc_id"])] = r["scores"]
    for cell in res.cells:
        X = np.array([[gold[(s, i)][cell.measure]["R"] for i in sub.instances] for s in sub.systems])
        Y = sub.human[cell.human]
        # means in exact arithmetic: R to 5 decimals, human scores in thirds (3 annotators), so tied
        # systems tie (float means ordered them by rounding noise: qa21b F8)
        want = _scipy(cell.coefficient, _exact_means(X), _exact_means(Y))
        assert cell.value == pytest.approx(want, abs=1e-12)
        assert cell.low <= cell.value + 1e-9 or math.isnan(cell.low)
    assert sum(c.best for c in res.cells) >= 8  # one or more per (human, coefficient) column


@pytest.mark.skipif(
    not (REALSUMM / "parity" / "realsumm_rouge155_parity.jsonl").exists(),
    reason=shared_missing(REALSUMM / "parity" / "realsumm_rouge155_parity.jsonl"),
)
def test_realsumm_loads_and_matches_rouge155():
    data = load_dataset("realsumm", REALSUMM)
    assert data.shape == (25, 100) and list(data.human) == ["litepyramid_recall"]
    assert data.systems[0].startswith("abs/")
    sub = data.subset(instances=4)
    grid = score_grid(sub, ["ROUGE-1", "ROUGE-2"], ["stem"], ["one", "all"])
    assert grid[("stem", "all")] is grid[("stem", "one")]  # one reference: the same scores
    rerun = {}
    with open(REALSUMM / "parity" / "realsumm_rouge155_parity.jsonl") as fh:
        for line in fh:
            r = json.loads(line)
            rerun[(f"{r['subset']}/{r['system']}", str(r["doc_id"]))] = r["rouge155_rerun"]
    for s, name in enumerate(sub.systems):
        for i, doc in enumerate(sub.instances):
            for k, m in enumerate(["ROUGE-1", "ROUGE-2"]):
                assert grid[("stem", "one")][k, s, i, 0] == rerun[(name, doc)][m]["R"]
