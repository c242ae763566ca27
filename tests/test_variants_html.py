"""``rougekit variants --format html``: the page holds the numbers ``--format json`` prints.

The page is parsed with the standard library's ``html.parser``; every number is read back from
its cell's ``data-value`` (and its text, the value to 5 decimals) and compared with the JSON of
the same command. The browser case (chromium loads the page without an error) is in
test_variants_browser.py.
"""

from __future__ import annotations

import contextlib
import io
import json
from fractions import Fraction
from html.parser import HTMLParser

import pytest
from _texts import pairs

from rougekit.cli.main import main

KEYS = ("recall", "precision", "f")
ROWS = "rouge155-m,rouge155,rouge-score,rouge-score-stem,evaluate"


def run_cli(*argv):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["variants", *map(str, argv)])
    return code, out.getvalue(), err.getvalue()


class Page(HTMLParser):
    """The elements with a ``data-*`` attribute, with their ancestors' data attributes and text."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack: list = []  # (tag, attrs)
        self.cells: list = []  # (context: merged data-* of the ancestors and the cell, text)
        self.tags: list = []  # every (tag, attrs)
        self._open: list = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        self.tags.append((tag, attrs))
        if tag in ("br", "meta"):
            return
        self.stack.append((tag, attrs))
        self._open.append([])

    def handle_startendtag(self, tag, attrs):  # <rect .../>, <line .../>
        attrs = dict(attrs)
        self.tags.append((tag, attrs))
        self.cells.append((self._context({**attrs, "tag": tag}), ""))

    def handle_endtag(self, tag):
        while self.stack:
            t, attrs = self.stack.pop()
            text = "".join(self._open.pop())
            if self._open:
                self._open[-1].append(text)
            if "data-value" in attrs or "data-delta" in attrs:
                self.cells.append((self._context({**attrs, "tag": t}), text))
            if t == tag:
                return

    def handle_data(self, data):
        if self._open:
            self._open[-1].append(data)

    def _context(self, attrs):
        out: dict = {}
        for _, a in self.stack:
            out.update({k: v for k, v in a.items() if k.startswith("data-") or k in ("class", "id")})
        out.update(attrs)
        return out


def parse(text: str) -> Page:
    p = Page()
    p.feed(text)
    p.close()
    return p


@pytest.fixture(scope="module")
def outputs(tmp_path_factory):
    folder = tmp_path_factory.mktemp("variants-html")
    cands, refs = pairs(23, 30)
    (folder / "c.txt").write_text("\n".join(" ".join(c.split("\n")) for c in cands) + "\n")
    (folder / "r.txt").write_text("\n".join(" ".join(r.split("\n")) for r in refs) + "\n")
    args = ["-c", folder / "c.txt", "-r", folder / "r.txt", "--rows", ROWS]
    args += ["--explain", "rouge155", "rouge-score-stem", "--target", "R1=40.00,R2=10.00,RL=30.00"]
    code, out, err = run_cli(*args, "--format", "json")
    assert code == 0, err
    code, _, err = run_cli(*args, "--format", "html", "-o", folder / "page.html")
    assert code == 0, err
    return json.loads(out), (folder / "page.html").read_text(encoding="utf-8")


def _same(cell_value: str, text: str, value) -> None:
    if value is None:
        assert cell_value == "" and text == "-"
        return
    assert float(cell_value) == value  # the full value, to the last bit
    assert text.strip() in (f"{value:.5f}", f"{value:+.5f}")


def test_the_rows_table_holds_the_json_numbers(outputs):
    data, page = outputs
    p = parse(page)
    cells = {
        (c["data-row"], c["data-measure"], c["data-key"]): (c["data-value"], text)
        for c, text in p.cells
        if "data-row" in c and "data-measure" in c
    }
    assert len(data["rows"]) == len(ROWS.split(","))
    seen = 0
    for row in data["rows"]:
        for m, stats in row["scores"].items():
            for k in KEYS:
                value, text = cells[(row["name"], m, k)]
                _same(value, text, stats[k])
                seen += 1
    assert seen == len(ROWS.split(",")) * 3 * 3
    assert 'data-value=""' in page  # evaluate prints F only: its R and P cells are empty, never 0
    for row in data["rows"]:  # each row's command and signature are on the page, as printed
        assert _escaped(row["command"]) in page and _escaped(row["signature"]) in page


def _escaped(text: str) -> str:
    from html import escape

    return escape(text)


def test_the_matches_are_the_jsons(outputs):
    data, page = outputs
    p = parse(page)
    shown = [(c["data-match"], c.get("data-measure"), c["data-value"], t) for c, t in p.cells if "data-match" in c]
    names = list(dict.fromkeys(name for name, *_ in shown))
    assert names == [m["name"] for m in data["matches"]] and names
    for m in data["matches"]:
        mine = [(measure, v, t) for name, measure, v, t in shown if name == m["name"]]
        assert float(mine[0][1]) == m["distance"]  # the first number is the distance
        for measure, value, text in mine[1:]:
            _same(value, text, m["scores"][measure]["f"])


def test_the_bars_add_up_to_the_difference_and_equal_the_json(outputs):
    data, page = outputs
    p = parse(page)
    assert [d["measure"] for d in data["explain"]] == ["ROUGE-1", "ROUGE-2", "ROUGE-L"]
    for d in data["explain"]:
        bars = [
            c for c, _ in p.cells if c.get("data-measure") == d["measure"] and c.get("tag") == "g" and "data-delta" in c
        ]
        assert [c["data-factor"] for c in bars] == [s["factor"] for s in d["shares"]]
        deltas = [float(c["data-delta"]) for c in bars]
        assert deltas == [s["delta"] for s in d["shares"]]
        # the shares as exact rationals add up to B - A (the JSON's floats round each one)
        total = Fraction(d["b"]) - Fraction(d["a"])
        assert abs(sum(map(Fraction, deltas)) - total) <= Fraction(len(deltas), 10**15)
        ends = {
            c["data-label"]: float(c["data-value"])
            for c, _ in p.cells
            if c.get("data-measure") == d["measure"] and "data-label" in c
        }
        assert ends == {"A": d["a"], "B": d["b"]}
        table = {
            c["data-factor"]: (c["data-value"], t)
            for c, t in p.cells
            if c.get("data-measure") == d["measure"] and c.get("tag") == "td" and "data-factor" in c
        }
        for s in d["shares"]:
            _same(*table[s["factor"]], s["delta"])
        _same(*table["total"], d["total"])
        # each bar is drawn from the running total before its switch to the one after
        rects = [c for c, _ in p.cells if c.get("data-measure") == d["measure"] and c.get("tag") in ("rect", "line")]
        assert rects, "the waterfall draws its bars"


def test_the_pairs_that_differ_most_show_each_sides_tokens(outputs):
    data, page = outputs
    p = parse(page)
    d = data["explain"][0]
    assert d["pairs"], "stemming changes some pair on these texts"
    shown = {}
    for c, text in p.cells:
        if c.get("data-measure") == d["measure"] and "data-pair" in c and "data-side" in c:
            shown[(int(c["data-pair"]), c["data-side"])] = (c["data-value"], text)
    for pair in d["pairs"]:
        _same(*shown[(pair["pair"], "a")], pair["a"])
        _same(*shown[(pair["pair"], "b")], pair["b"])
        for side in ("a_tokens", "b_tokens"):
            for who in ("candidate", "reference"):
                assert " ".join(_escaped(t) for t in pair[side][who]) in _plain_tokens(page)


def _plain_tokens(page: str) -> str:
    """The page with the marks around tokens taken away."""
    return page.replace('<span class="only">', "").replace("</span>", "")


def test_the_page_is_self_contained(outputs):
    _, page = outputs
    p = parse(page)
    for tag, attrs in p.tags:
        for key in ("src", "href"):
            assert key not in attrs, (tag, attrs)
    assert "<script" not in page and "http://" not in page.replace("http://www.w3.org/2000/svg", "")
    assert "https://" not in page


def test_html_without_explain_or_target(tmp_path):
    cands, refs = pairs(5, 8)
    (tmp_path / "c.txt").write_text("\n".join(" ".join(c.split("\n")) for c in cands) + "\n")
    (tmp_path / "r.txt").write_text("\n".join(" ".join(r.split("\n")) for r in refs) + "\n")
    code, out, err = run_cli(
        "-c", tmp_path / "c.txt", "-r", tmp_path / "r.txt", "--rows", "rouge-score", "--format", "html"
    )
    assert code == 0, err
    assert out.startswith("<!DOCTYPE html>") and 'id="explain"' not in out and 'id="target"' not in out
    assert "8 pairs" in out
    code, _, err = run_cli("-c", tmp_path / "c.txt", "-r", tmp_path / "r.txt", "--format", "html", "-o", tmp_path)
    last = err.splitlines()[-1]
    assert code == 2 and "cannot write" in last and str(tmp_path) in last
