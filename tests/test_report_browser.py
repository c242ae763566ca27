"""The HTML report in a real browser: Debian's chromium, headless.

* ``--dump-dom`` (the DOM after the page's script ran) holds the numbers `rougekit score` prints
  for the same inputs, and the first page of examples the script drew;
* ``--screenshot`` draws the page (a PNG of the requested size);
* through the DevTools protocol (tests/_chromium.py, a pipe to chromium): no JavaScript error,
  clicking a column sorts the examples in the order the per-pair scores of
  `rougekit score --per-pair --format csv` give, typing in the filter keeps exactly the examples
  whose texts hold the words, and the pages step forward.

CI installs chromium (.ci/run); elsewhere the tests skip when it is missing.
"""

from __future__ import annotations

import csv
import io
import json
import random
import re
import struct
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _chromium import Browser, find_chromium, run_cli  # noqa: E402
from test_report_html import cli, parse, score_table  # noqa: E402

# a browser is not a Python package: these run with pytest -m browser (CI installs chromium and runs them)
pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(
        find_chromium() is None, reason="chromium is not installed (apt-get install chromium; CI installs it)"
    ),
]

PAIRS = 60
PAGE = 25  # rows per page of the report's script
WORDS = "storm police council moon water city schools budget road bank gunman night river".split()
FILLER = "the a of on in at to and was is".split()
MEASURES = "ROUGE-1,ROUGE-2,ROUGE-L"


def _line(rng: random.Random) -> str:
    words = [rng.choice(WORDS if rng.random() < 0.4 else FILLER) for _ in range(rng.randint(3, 12))]
    return " ".join(words)


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    folder = tmp_path_factory.mktemp("browser")
    rng = random.Random(7)
    refs = [_line(rng) for _ in range(PAIRS)]
    systems = {name: [_line(rng) for _ in range(PAIRS)] for name in ("base", "new")}
    (folder / "ref.txt").write_text("\n".join(refs) + "\n")
    for name, lines in systems.items():
        (folder / f"{name}.txt").write_text("\n".join(lines) + "\n")
    args = ["-c", "base.txt", "-c", "new.txt", "-r", "ref.txt", "--measures", MEASURES]
    done = cli("report", *args, "-o", "report.html", cwd=folder)
    assert done.returncode == 0, done.stderr
    score = cli("score", *args, cwd=folder)
    per_pair = cli("score", *args, "--per-pair", "--format", "csv", cwd=folder)
    assert score.returncode == 0 and per_pair.returncode == 0
    rows = list(csv.DictReader(io.StringIO(per_pair.stdout)))
    f = {name: [float(r["ROUGE-1_f"]) for r in rows if r["system"] == name] for name in systems}
    return {"folder": folder, "refs": refs, "systems": systems, "score": score.stdout, "f": f}


def _ids_by(keys: list[float], descending: bool) -> list[str]:
    """Instance ids sorted as the page sorts: by value, ties in input order."""
    order = sorted(range(len(keys)), key=lambda i: (-keys[i] if descending else keys[i], i))
    return [str(i + 1) for i in order]


def test_dump_dom_holds_score_numbers_and_drawn_rows(corpus):
    page = corpus["folder"] / "report.html"
    done = run_cli(["--dump-dom", page.as_uri()])
    assert done.returncode == 0, done.stderr[-2000:]
    dom = done.stdout.decode("utf-8")
    tables = parse(dom)
    expected = score_table(corpus["score"])
    for measure in MEASURES.split(","):
        rows = tables.find("scores", measure)
        for row in rows[1:]:
            assert row[2:5] == expected[row[1], measure][:3]
            assert row[7] == expected[row[1], measure][3]
    examples = [t for t in tables.tables if t["attrs"].get("class") == "examples"][0]["rows"]
    header, drawn = examples[0], [r for r in examples[1:] if len(r) == len(examples[0])]
    assert header[:3] == ["instance \u25b2", "base", "new"]
    assert [r[0] for r in drawn] == [str(i) for i in range(1, PAGE + 1)]  # drawn by the script, input order
    assert [r[1] for r in drawn] == [f"{v:.5f}" for v in corpus["f"]["base"][:PAGE]]


def test_screenshot(corpus, tmp_path):
    shot = tmp_path / "report.png"
    page = corpus["folder"] / "report.html"
    done = run_cli([f"--screenshot={shot}", "--window-size=1200,900", page.as_uri()])
    assert done.returncode == 0, done.stderr[-2000:]
    data = shot.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    assert (width, height) == (1200, 900)
    assert len(data) > 20000  # tables, plots and text: not a blank page


def _page_ids(page) -> list[str]:
    return page.evaluate("Array.from(document.querySelectorAll('table.examples tr.row td.id')).map(e => e.textContent)")


def _after(page, action) -> None:
    """Run an action and wait until the script has drawn the list again."""
    before = page.evaluate("document.getElementById('examples').getAttribute('data-rendered')")
    page.evaluate("document.getElementById('examples').setAttribute('data-rendered', 'old')")
    action()
    page.wait_for("document.getElementById('examples').getAttribute('data-rendered') !== 'old'")
    assert before


def test_sort_filter_and_pages_through_devtools(corpus, tmp_path):
    f_base, f_new = corpus["f"]["base"], corpus["f"]["new"]
    with Browser(width=1280, height=1000) as b:
        page = b.open((corpus["folder"] / "report.html").as_uri())
        page.wait_for("document.querySelectorAll('table.examples tr.row').length > 0")
        assert _page_ids(page) == [str(i) for i in range(1, PAGE + 1)]

        _after(page, lambda: page.click("th[data-col=s0]"))  # base's ROUGE-1 F, best first
        assert _page_ids(page) == _ids_by(f_base, True)[:PAGE]
        _after(page, lambda: page.click("th[data-col=s0]"))  # again: worst first
        assert _page_ids(page) == _ids_by(f_base, False)[:PAGE]
        _after(page, lambda: page.click("th[data-col=d0_1]"))  # new - base, biggest gain first
        diffs = [round(b - a, 5) for a, b in zip(f_base, f_new)]
        assert _page_ids(page) == _ids_by(diffs, True)[:PAGE]
        _after(page, lambda: page.click("button.next"))
        assert _page_ids(page) == _ids_by(diffs, True)[PAGE : 2 * PAGE]
        assert "rows 26\u201350 of 60" in page.evaluate("document.querySelector('#examples .count').textContent")

        word = "moon"
        holds = [
            str(i + 1)
            for i in range(PAIRS)
            if any(word in t for t in (corpus["refs"][i], *(s[i] for s in corpus["systems"].values())))
        ]
        assert 0 < len(holds) < PAIRS
        _after(page, lambda: page.type("input.filter", word))
        shown = _page_ids(page)
        assert shown == [i for i in _ids_by(diffs, True) if i in holds][:PAGE]
        assert f"of {len(holds)} (filtered from {PAIRS})" in page.evaluate(
            "document.querySelector('#examples .count').textContent"
        )
        # every shown example holds the word, and it is drawn in its texts
        texts = page.evaluate(
            "Array.from(document.querySelectorAll('table.examples tr.texts')).map(e => e.textContent)"
        )
        assert len(texts) == len(shown) and all(word in t for t in texts)

        page.screenshot(str(tmp_path / "sorted.png"))
        assert page.errors == []


def _tokens(text: str) -> list[str]:
    """ROUGE-1.5.5's tokens of plain English text, by hand: lower case, non-alphanumerics are spaces."""
    return re.sub(r"[^a-z0-9]", " ", text.lower()).split()


def _matched(cand: list[str], ref: list[str], n: int) -> list[bool]:
    """Which candidate tokens lie in an n-gram that the reference has too (every occurrence)."""
    grams = {tuple(ref[i : i + n]) for i in range(len(ref) - n + 1)}
    marked = [False] * len(cand)
    for i in range(len(cand) - n + 1):
        if tuple(cand[i : i + n]) in grams:
            for j in range(i, i + n):
                marked[j] = True
    return marked


# per drawn example: its pair, then per text (reference(s), then each system) the text as drawn and
# the [start, end] of each <mark> in it (sentences joined by line breaks)
_DRAWN = (
    "Array.from(document.querySelectorAll('table.examples tr.row')).map(row => [+row.getAttribute('data-pair'),"
    " Array.from(row.nextElementSibling.querySelectorAll('.text')).map(t => { var text = '', marks = [];"
    " t.querySelectorAll('.sent').forEach((s, i) => { if (i) text += '\\n'; s.childNodes.forEach(x => {"
    " if (x.nodeName === 'MARK') marks.push([text.length, text.length + x.textContent.length]);"
    " text += x.textContent; }); }); return [text, marks]; })])"
)
_RUN = re.compile(r"[A-Za-z0-9]+")


def _drawn_runs(text: str, marks: list) -> list[tuple[str, bool]]:
    """The runs of ASCII letters and digits of a drawn text, each with whether a <mark> is exactly it."""
    exact = {tuple(m) for m in marks}
    runs = [(m.group().lower(), (m.start(), m.end()) in exact) for m in _RUN.finditer(text)]
    assert sum(marked for _, marked in runs) == len(marks), "a mark that is not one whole run"
    return runs


def _choose(page, measure: int, refsys: int) -> None:
    page.evaluate(
        f"(function(){{var m=document.querySelector('select.measure'); m.value='{measure}';"
        "m.dispatchEvent(new Event('change'));"
        f"var r=document.querySelector('select.refsys'); if (r) {{ r.value='{refsys}';"
        "r.dispatchEvent(new Event('change')); }})()"
    )


def test_highlights_are_the_matched_words(tmp_path):
    """Every example of examples/correlate (one reference each, no stemming): the page marks exactly the
    candidate words in a unigram / bigram the reference has, and the reference words in one the
    candidate has, worked out here from the texts."""
    folder = Path(__file__).resolve().parents[1] / "examples" / "correlate"
    out = tmp_path / "report.html"
    args = ["-c", "sysA.txt", "-c", "sysB.txt", "-c", "sysC.txt", "-r", "ref.txt", "--measures", "ROUGE-1,ROUGE-2"]
    done = cli("report", *args, "-o", str(out), cwd=folder)
    assert done.returncode == 0, done.stderr
    refs = [_tokens(x) for x in (folder / "ref.txt").read_text().splitlines()]
    systems = [[_tokens(x) for x in (folder / f"{s}.txt").read_text().splitlines()] for s in ("sysA", "sysB", "sysC")]
    with Browser() as b:
        page = b.open(out.as_uri())
        page.wait_for("document.querySelectorAll('table.examples tr.texts').length === 4")
        for measure, n in ((0, 1), (1, 2)):
            for refsys in range(3):
                _choose(page, measure, refsys)
                shown = page.evaluate(_DRAWN)
                assert [p for p, _ in shown] == [0, 1, 2, 3]
                for p, texts in shown:  # [reference, sysA, sysB, sysC]
                    ref = refs[p]
                    runs = _drawn_runs(*texts[0])
                    assert [w for w, _ in runs] == ref
                    assert [m for _, m in runs] == _matched(ref, systems[refsys][p], n)
                    for s in range(3):
                        cand = systems[s][p]
                        runs = _drawn_runs(*texts[1 + s])
                        assert [w for w, _ in runs] == cand
                        assert [m for _, m in runs] == _matched(cand, ref, n), (measure, p, s)
        assert page.errors == []


def _explained_runs(text: str, side, hits: set, positions: str, runs: bool = True) -> list:
    """Which runs of ASCII letters and digits of ``text`` hold a token that ``rougekit.explain``
    marked (through the side's spans); with ``runs=False`` the marked tokens' spans, in order."""
    if positions == "sentences":
        offsets, at = [], 0
        for sentence in side.sentences:
            offsets.append(at)
            at += len(sentence)
        hits = {offsets[s] + j for s, j in hits}
    if not runs:
        return sorted(side.spans[i] for i in hits)
    starts = {side.spans[i][0] for i in hits}
    return [m.start() in starts for m in _RUN.finditer(text)]


def test_highlights_on_a_later_page_are_explains(tmp_path):
    """Every example is highlighted: on the third page of a 60-pair report (seeded English-like texts,
    stemming, stopwords removed, two references per pair), the marks of each measure for each system
    are exactly the runs holding the tokens rougekit.explain marks for that pair."""
    from _texts import summary

    import rougekit
    from rougekit.explanation.views import marked

    rng = random.Random(11)
    refs = [[summary(rng) + " Storms.", summary(rng)] for _ in range(PAIRS)]  # ROUGE-W needs a token
    systems = {name: [summary(rng) for _ in range(PAIRS)] for name in ("base", "new")}
    rows = [{"id": str(i), "base": systems["base"][i], "new": systems["new"][i], "refs": refs[i]} for i in range(PAIRS)]
    (tmp_path / "runs.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    measures = ["ROUGE-1", "ROUGE-2", "ROUGE-L", "ROUGE-SU4", "ROUGE-W-1.2"]
    args = ["--jsonl", "runs.jsonl", "--candidate-field", "base", "--candidate-field", "new"]
    args += ["--reference-field", "refs", "--measures", ",".join(measures), "--stem", "--stopwords"]
    done = cli("report", *args, "-o", "report.html", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    with Browser() as b:
        page = b.open((tmp_path / "report.html").as_uri())
        page.wait_for("document.querySelectorAll('table.examples tr.texts').length === 25")
        page.click("button.next")
        page.click("button.next")
        page.wait_for("document.querySelector('.page').textContent === 'page 3 of 3'")
        checked = 0
        for measure, name in enumerate(measures):
            for refsys, system in enumerate(systems):
                _choose(page, measure, refsys)
                shown = page.evaluate(_DRAWN)
                assert [p for p, _ in shown] == list(range(50, 60))
                for p, texts in shown:
                    cand_texts = [systems[s][p] for s in systems]
                    for k, ref in enumerate(refs[p]):  # a reference: the matches of the chosen system
                        e = rougekit.explain(systems[system][p], refs[p], measures=[name], stem=True, stopwords=True)
                        want = _explained_runs(ref, e.references[k], marked(e[name], 2)[1][k], e[name].positions)
                        assert [m for _, m in _drawn_runs(*texts[k])] == want, (name, p, k)
                    for s, cand in enumerate(cand_texts):
                        e = rougekit.explain(cand, refs[p], measures=[name], stem=True, stopwords=True)
                        want = _explained_runs(cand, e.candidate, marked(e[name], 2)[0], e[name].positions)
                        assert [m for _, m in _drawn_runs(*texts[2 + s])] == want, (name, p, s)
                        checked += sum(want)
        assert checked > 500  # the candidates share enough words for many marks (714 here)
        assert page.errors == []


def test_highlights_in_unbroken_chinese_text(tmp_path):
    """lang="zh": jieba's words are marked inside the unbroken text as given (the runs' places are in
    the page), exactly where rougekit.explain's spans put the matched tokens, for ROUGE-1 and ROUGE-L."""
    pytest.importorskip("jieba", reason="lang=zh needs jieba (the zh extra)")
    import rougekit
    from rougekit.explanation.views import marked

    pairs = json.loads((Path(__file__).parent / "data" / "multilingual_pairs.json").read_text(encoding="utf-8"))
    pairs = pairs["chinese"]
    rows = [{"cand": cand, "ref": ref} for ref, cand in pairs]
    (tmp_path / "zh.jsonl").write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows))
    args = ["--jsonl", "zh.jsonl", "--candidate-field", "cand", "--reference-field", "ref", "--lang", "zh"]
    done = cli("report", *args, "--measures", "ROUGE-1,ROUGE-L", "-o", "report.html", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    marks = (
        "Array.from(document.querySelectorAll('table.examples tr.row')).map(row => [+row.getAttribute('data-pair'),"
        " Array.from(row.nextElementSibling.querySelectorAll('.text')).map(t =>"
        " Array.from(t.querySelectorAll('mark')).map(m => m.textContent))])"
    )
    with Browser() as b:
        page = b.open((tmp_path / "report.html").as_uri())
        page.wait_for(f"document.querySelectorAll('table.examples tr.texts').length === {len(pairs)}")
        total = 0
        for measure, name in enumerate(["ROUGE-1", "ROUGE-L"]):
            _choose(page, measure, 0)
            for p, (ref_marks, cand_marks) in page.evaluate(marks):
                ref, cand = pairs[p]
                e = rougekit.explain(cand, ref, measures=[name], lang="zh")
                hits_c, hits_r = marked(e[name], 1)
                for side, hits, drawn in ((e.references[0], hits_r[0], ref_marks), (e.candidate, hits_c, cand_marks)):
                    flat = _explained_runs(side.text, side, hits, e[name].positions, runs=False)
                    assert drawn == [side.text[a:b] for a, b in flat], (name, p)
                    total += len(drawn)
        assert total > 60
        assert page.errors == []
