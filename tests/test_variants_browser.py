"""``rougekit variants --format html`` in headless chromium: the page loads without a JavaScript
or console error, and the browser's DOM holds the JSON's numbers (the bars of ``--explain`` drawn
with a width, one per factor).

CI installs chromium (.ci/run); elsewhere the test skips when it is missing.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _chromium import Browser, find_chromium  # noqa: E402
from test_variants_html import outputs, run_cli  # noqa: E402,F401

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(
        find_chromium() is None, reason="chromium is not installed (apt-get install chromium; CI installs it)"
    ),
]


def test_variants_page_loads_in_chromium_without_errors(outputs, tmp_path):  # noqa: F811
    data, page_text = outputs
    path = tmp_path / "variants.html"
    path.write_text(page_text, encoding="utf-8")
    with Browser(width=1280, height=1000) as b:
        page = b.open(path.as_uri())
        assert page.evaluate("document.readyState") == "complete"
        shown = page.evaluate(
            "Array.from(document.querySelectorAll('table.rows td[data-key]'))"
            ".map(e => [e.closest('tr').dataset.row, e.dataset.measure, e.dataset.key, e.dataset.value])"
        )
        expected = [
            [r["name"], m, k, "" if v is None else repr(v)]
            for r in data["rows"]
            for m, stats in r["scores"].items()
            for k, v in stats.items()
        ]
        assert shown == expected
        for d in data["explain"]:
            q = json.dumps(f'.decomposition[data-measure="{d["measure"]}"] g.share')
            bars = page.evaluate(
                f"Array.from(document.querySelectorAll({q})).map(g => [g.dataset.factor, "
                "g.querySelector('rect, line').getBoundingClientRect().height > 0])"
            )
            assert bars == [[s["factor"], True] for s in d["shares"]]
        page.screenshot(str(tmp_path / "variants.png"), full_page=True)
        assert page.errors == []


def test_variants_page_of_a_single_row_loads_too(tmp_path):
    (tmp_path / "c.txt").write_text("the cat sat on the mat\n")
    (tmp_path / "r.txt").write_text("the cat was on the mat\n")
    code, _, err = run_cli(
        "-c",
        tmp_path / "c.txt",
        "-r",
        tmp_path / "r.txt",
        "--rows",
        "rouge-score",
        "--format",
        "html",
        "-o",
        tmp_path / "one.html",
    )
    assert code == 0, err
    with Browser() as b:
        page = b.open((tmp_path / "one.html").as_uri())
        f = page.evaluate("document.querySelector('td[data-key=f][data-measure=\"ROUGE-1\"]').textContent")
        assert f == "0.83333"  # 5 of 6 unigrams each way
        assert page.errors == []


def test_report_with_variants_loads_in_chromium_without_errors(tmp_path):
    """``rougekit report --variants``: the report's own script runs beside the variants tables (no
    console error) and the DOM's cells hold ``rougekit variants --format json``'s numbers."""
    from _texts import pairs
    from test_variants_report import ROWS, TARGET, _write
    from test_variants_report import run as run_main

    cands, refs = pairs(23, 30)
    a, r = _write(tmp_path / "a.txt", cands), _write(tmp_path / "r.txt", refs)
    code, _, err = run_main(
        "report", "-c", a, "-r", r, "--variants", "--variants-rows", ROWS, "--variants-target", TARGET,
        "-o", tmp_path / "report.html",
    )  # fmt: skip
    assert code == 0, err
    code, out, err = run_main("variants", "-c", a, "-r", r, "--rows", ROWS, "--target", TARGET, "--format", "json")
    assert code == 0, err
    data = json.loads(out)
    with Browser(width=1280, height=1000) as b:
        page = b.open((tmp_path / "report.html").as_uri())
        assert page.evaluate("document.readyState") == "complete"
        shown = page.evaluate(
            "Array.from(document.querySelectorAll('#variants table.rows td[data-key]'))"
            ".map(e => [e.closest('tr').dataset.row, e.dataset.measure, e.dataset.key, e.dataset.value])"
        )
        expected = [
            [r["name"], m, k, "" if v is None else repr(v)]
            for r in data["rows"]
            for m, stats in r["scores"].items()
            for k, v in stats.items()
        ]
        assert shown == expected
        assert page.evaluate("document.querySelectorAll('#target [data-match]').length") > 0
        page.screenshot(str(tmp_path / "report.png"), full_page=True)
        assert page.errors == []
