"""``rougekit report --variants``: the report holds, per system, the table (and the target's matches)
that ``rougekit variants --format json`` prints for the same pairs, read back from the page with
``html.parser`` (every number from its cell's ``data-value``, to the bit). The chromium case is in
test_variants_browser.py.
"""

from __future__ import annotations

import json

import pytest
from _cli import run
from _texts import pairs
from test_variants_html import KEYS, _same, parse

ROWS = "rouge155-m,rouge-score,rouge-score-lsum-stem,evaluate"
TARGET = "R1=40.00,R2=10.00,RL=30.00"


def _write(path, texts):
    path.write_text("\n".join(" ".join(t.split("\n")) for t in texts) + "\n", encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    folder = tmp_path_factory.mktemp("report-variants")
    cands, refs = pairs(23, 30)
    other, _ = pairs(31, 30)
    a, b, r = _write(folder / "a.txt", cands), _write(folder / "b.txt", other), _write(folder / "r.txt", refs)
    code, _, err = run(
        "report", "-c", a, "-c", b, "-r", r, "--variants", "--variants-rows", ROWS,
        "--variants-target", TARGET, "--highlights", "0", "-o", folder / "report.html",
    )  # fmt: skip
    assert code == 0, err
    expected = {}
    for system, path in (("a", a), ("b", b)):
        code, out, err = run(
            "variants", "-c", path, "-r", r, "--rows", ROWS, "--target", TARGET, "--format", "json"
        )  # fmt: skip
        assert code == 0, err
        expected[system] = json.loads(out)
    return expected, (folder / "report.html").read_text(encoding="utf-8")


def test_each_systems_table_is_what_variants_prints(report):
    expected, page = report
    p = parse(page)
    for system, data in expected.items():
        cells = {
            (c["data-row"], c["data-measure"], c["data-key"]): (c["data-value"], text)
            for c, text in p.cells
            if c.get("data-system") == system and "data-row" in c and "data-measure" in c
        }
        assert len(cells) == len(ROWS.split(",")) * 3 * 3
        for row in data["rows"]:
            for m, stats in row["scores"].items():
                for k in KEYS:
                    _same(*cells.pop((row["name"], m, k)), stats[k])
        assert not cells
    # the two systems' numbers differ (each section scores its own candidates)
    assert expected["a"]["rows"][0]["scores"] != expected["b"]["rows"][0]["scores"]


def test_each_systems_matches_are_what_variants_prints(report):
    expected, page = report
    p = parse(page)
    for system, data in expected.items():
        shown = [
            (c["data-match"], c.get("data-measure"), c["data-value"], t)
            for c, t in p.cells
            if c.get("data-system") == system and "data-match" in c
        ]
        assert list(dict.fromkeys(n for n, *_ in shown)) == [m["name"] for m in data["matches"]]
        for m in data["matches"]:
            mine = [(measure, v, t) for name, measure, v, t in shown if name == m["name"]]
            assert float(mine[0][1]) == m["distance"]
            for measure, value, text in mine[1:]:
                _same(value, text, m["scores"][measure]["f"])
    assert 'id="variants"' in page and 'id="variants-2-target"' in page


def test_the_report_has_no_variants_unless_asked(tmp_path):
    cands, refs = pairs(3, 6)
    a, r = _write(tmp_path / "a.txt", cands), _write(tmp_path / "r.txt", refs)
    code, out, err = run("report", "-c", a, "-r", r, "-o", "-")
    assert code == 0, err
    assert 'id="variants"' not in out and "table.variants" not in out


@pytest.mark.parametrize(
    "extra, message",
    [
        (["--variants-target", TARGET], "go with --variants"),
        (["--variants", "--measures", "ROUGE-SU4"], "--measures names none of them"),
        (["--variants", "--variants-rows", "nope"], "unknown row 'nope'"),
    ],
)
def test_variants_option_errors_are_one_line(tmp_path, extra, message):
    cands, refs = pairs(3, 6)
    a, r = _write(tmp_path / "a.txt", cands), _write(tmp_path / "r.txt", refs)
    code, _, err = run("report", "-c", a, "-r", r, *extra, "-o", tmp_path / "x.html")
    assert code == 2 and message in err.splitlines()[-1], err
    assert not (tmp_path / "x.html").exists()


def test_variants_refuses_a_saved_result(tmp_path):
    cands, refs = pairs(3, 6)
    a, r = _write(tmp_path / "a.txt", cands), _write(tmp_path / "r.txt", refs)
    code, _, err = run("score", "-c", a, "-r", r, "--format", "json", "--per-pair", "-o", tmp_path / "s.json")
    assert code == 0, err
    code, _, err = run("report", "--result", tmp_path / "s.json", "--variants", "-o", tmp_path / "x.html")
    assert code == 2 and "--variants needs the texts" in err.splitlines()[-1], err
