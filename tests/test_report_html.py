"""`rougekit report` / `RougeResult.to_html`: the numbers in the page are those of `rougekit score`
and `rougekit compare` for the same inputs (run as separate commands and parsed from their own
output), the page is self-contained, and bad input is one line with exit code 2.

The browser tests (headless chromium, DevTools protocol) are in test_report_browser.py.
"""

from __future__ import annotations

import csv
import io
import json
import re
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest
from _paths import subprocess_env

import rougekit
from rougekit.report import html_pack

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples" / "correlate"
SYSTEMS = ["sysA", "sysB", "sysC"]


def cli(*args, cwd=EXAMPLES) -> subprocess.CompletedProcess:
    env = subprocess_env()
    return subprocess.run(
        [sys.executable, "-m", "rougekit", *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=300
    )


class Tables(HTMLParser):
    """Every <table> of a page: its attributes and its rows of cell texts."""

    def __init__(self):
        super().__init__()
        self.tables: list[dict] = []
        self._row: list[str] | None = None
        self._cell: list[str] | None = None
        self.scripts: list[dict] = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "table":
            self.tables.append({"attrs": attrs, "rows": []})
        elif tag == "tr" and self.tables:
            self._row = []
        elif tag in ("td", "th") and self._row is not None:
            self._cell = []
        elif tag in ("script", "link", "img", "iframe"):
            self.scripts.append({"tag": tag, **attrs})

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self._cell is not None:
            self._row.append("".join(self._cell).strip())
            self._cell = None
        elif tag == "tr" and self._row is not None:
            self.tables[-1]["rows"].append(self._row)
            self._row = None

    def handle_data(self, data):
        if self._cell is not None:
            self._cell.append(data)

    def find(self, cls: str, measure: str) -> list[list[str]]:
        for t in self.tables:
            if t["attrs"].get("class") == cls and t["attrs"].get("data-measure") == measure:
                return t["rows"]
        raise KeyError((cls, measure))


def parse(page: str) -> Tables:
    t = Tables()
    t.feed(page)
    return t


def score_table(stdout: str) -> dict[tuple[str, str], list[str]]:
    """(system, measure) -> [recall, precision, f, "[low, high]"] as `rougekit score` prints them."""
    out = {}
    for line in stdout.splitlines():
        m = re.match(r"(\S+)\s+(ROUGE-\S+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+(\[[^]]+\])?", line)
        if m:
            out[m[1], m[2]] = [m[3], m[4], m[5], m[6]]
    return out


@pytest.fixture(scope="module")
def report_page(tmp_path_factory):
    out = tmp_path_factory.mktemp("report") / "report.html"
    args = ["-c", "sysA.txt", "-c", "sysB.txt", "-c", "sysC.txt", "-r", "ref.txt", "--stem"]
    args += ["--measures", "ROUGE-1,ROUGE-2,ROUGE-L,ROUGE-SU4"]
    done = cli("report", *args, "-o", str(out))
    assert done.returncode == 0, done.stderr
    score = cli("score", *args)
    assert score.returncode == 0, score.stderr
    return out.read_text(encoding="utf-8"), score.stdout, args


def test_tables_hold_the_numbers_of_rougekit_score(report_page):
    page, score_out, _ = report_page
    expected = score_table(score_out)
    assert len(expected) == 12
    tables = parse(page)
    for measure in ("ROUGE-1", "ROUGE-2", "ROUGE-L", "ROUGE-SU4"):
        rows = tables.find("scores", measure)
        assert rows[0][:5] == ["rank", "system", "recall", "precision", "F"]
        assert rows[0][7] == "95% interval of F"
        assert [r[1] for r in rows[1:]] == SYSTEMS
        for row in rows[1:]:
            r, p, f, iv = expected[row[1], measure]
            assert row[2:5] == [r, p, f]
            assert row[7] == iv  # the 1.5.5 interval of F, as score prints it
        # ranks: 1 = the highest F as printed, worked out here from score's numbers
        fs = {s: float(expected[s, measure][2]) for s in SYSTEMS}
        for row in rows[1:]:
            assert int(row[0]) == 1 + sum(v > fs[row[1]] for v in fs.values())


def test_significance_matches_rougekit_compare(report_page):
    page, _, args = report_page
    tables = parse(page)
    for base, other in (("sysA", "sysB"), ("sysA", "sysC"), ("sysB", "sysC")):
        done = cli(
            "compare",
            "-c",
            f"{base}.txt",
            "-c",
            f"{other}.txt",
            "-r",
            "ref.txt",
            "--stem",
            "--measures",
            "ROUGE-1,ROUGE-2,ROUGE-L,ROUGE-SU4",
            "--seed",
            "0",
            "--format",
            "json",
        )  # compare's default number of trials, the report's (one default for both: issue 25)
        assert done.returncode == 0, done.stderr
        for row in json.loads(done.stdout)["comparisons"]:
            rows = tables.find("significance", row["measure"])
            mine = [r for r in rows if r[0] == f"{other} \u2212 {base}"]
            assert len(mine) == 1
            cells = mine[0]
            assert cells[1] == f"{row['delta']:+.5f}"
            assert cells[2] == f"{row['p_randomization']:.4f}"
            assert cells[3] == f"{row['p_bootstrap']:.4f}"
            assert cells[4] == f"[{row['delta_low']:+.5f}, {row['delta_high']:+.5f}]"


def test_self_contained(report_page):
    page, _, _ = report_page
    tables = parse(page)
    for el in tables.scripts:  # every script inline: no src, no stylesheet links, no images, no frames
        assert el["tag"] == "script" and "src" not in el, el
    assert "http://" not in page and "https://" not in page
    assert "@import" not in page and "url(" not in page


def test_examples_blob_holds_the_texts_and_per_pair_scores(report_page):
    page, _, args = report_page
    blob = json.loads(re.search(r'<script type="application/json" id="rk-data">(.*?)</script>', page, re.S)[1])
    refs = (EXAMPLES / "ref.txt").read_text().splitlines()
    assert [[" ".join(html_pack.decode(r, blob["words"])) for r in rs] for rs in blob["refs"]] == [[r] for r in refs]
    for s, name in enumerate(SYSTEMS):
        lines = (EXAMPLES / f"{name}.txt").read_text().splitlines()
        assert [" ".join(html_pack.decode(c, blob["words"])) for c in blob["cands"][s]] == lines
    # per-pair values: those `rougekit score --per-pair --format csv` writes, in units of 1e-5
    done = cli("score", *args, "--per-pair", "--format", "csv")
    rows = list(csv.DictReader(io.StringIO(done.stdout)))
    for k, measure in enumerate(blob["measures"]):
        for s, name in enumerate(SYSTEMS):
            mine = [r for r in rows if r["system"] == name]
            for j, key in enumerate(("recall", "precision", "f")):
                assert blob["values"][str(k)][s][j] == [round(float(r[f"{measure}_{key}"]) * 1e5) for r in mine]


def test_saved_result_gives_the_same_tables(tmp_path, report_page):
    page, _, args = report_page
    saved = tmp_path / "scores.json"
    assert cli("score", *args, "--format", "json", "--per-pair", "-o", str(saved)).returncode == 0
    out = tmp_path / "saved.html"
    done = cli("report", "--result", str(saved), "-o", str(out))
    assert done.returncode == 0, done.stderr
    a, b = parse(page), parse(out.read_text(encoding="utf-8"))
    for measure in ("ROUGE-1", "ROUGE-2", "ROUGE-L", "ROUGE-SU4"):
        assert a.find("scores", measure) == b.find("scores", measure)
        assert a.find("significance", measure) == b.find("significance", measure)


def test_jsonl_input_and_stdout(tmp_path):
    rows = [
        {"a": "the cat sat on the mat", "b": "a cat on a mat", "refs": ["the cat sat on the mat", "a cat sat"]},
        {"a": "police kill the gunman", "b": "the gunman was shot", "refs": "police killed the gunman"},
    ]
    data = tmp_path / "runs.jsonl"
    data.write_text("".join(json.dumps(r) + "\n" for r in rows))
    args = ["--jsonl", str(data), "--candidate-field", "a", "--candidate-field", "b", "--reference-field", "refs"]
    done = cli("report", *args, "-o", "-")
    assert done.returncode == 0, done.stderr
    score = score_table(cli("score", *args).stdout)
    rows = parse(done.stdout).find("scores", "ROUGE-1")
    assert [r[2:5] for r in rows[1:]] == [score[s, "ROUGE-1"][:3] for s in ("a", "b")]


def test_to_html_api(tmp_path):
    cands = ["police kill the gunman", "the cat sat"]
    other = ["police killed him", "a cat sat on a mat"]
    refs = [["police killed the gunman", "the gunman was shot"], "the cat sat on the mat"]
    measures = ["ROUGE-1", "ROUGE-L"]
    a = rougekit.score(cands, refs, measures=measures)
    b = rougekit.score(other, refs, measures=measures)
    path = tmp_path / "r.html"
    written = a.to_html(path, name="A", others={"B": b}, candidates={"A": cands, "B": other}, references=refs)
    assert written is None  # issue 25 item 13: the page is in the file, not echoed back
    page = path.read_text(encoding="utf-8")
    assert page == a.to_html(name="A", others={"B": b}, candidates={"A": cands, "B": other}, references=refs)
    rows = parse(page).find("scores", "ROUGE-1")
    # per-pair ROUGE-1 of A worked by hand (no stemming: "kill" does not match "killed"). Pair 1,
    # two references summed (-f A): hits 3 (police, the, gunman) + 2 (the, gunman), reference
    # unigrams 4 + 4, candidate unigrams counted once per reference 4 + 4: R = P = F = 5/8.
    # Pair 2: hits 3 of 6 reference and 3 candidate unigrams: R 0.5, P 1, F 2/3 rounded to 0.66667
    # (the script rounds per-pair values to 5 decimals). The corpus numbers are their means.
    r = (0.625 + 0.5) / 2
    p = (0.625 + 1.0) / 2
    f = (0.625 + 0.66667) / 2
    assert rows[1][1:5] == ["A", f"{r:.5f}", f"{p:.5f}", f"{f:.5f}"]
    with pytest.raises(rougekit.OptionError):
        a.to_html(others={"B": b}, candidates=cands, references=refs)
    with pytest.raises(rougekit.OptionError):
        a.to_html(others={"B": rougekit.score(other[:1], refs[:1], measures=measures)})
    with pytest.raises(TypeError):
        a.to_html(colour="red")


@pytest.mark.parametrize(
    "args, message",
    [
        (["-c", "sysA.txt", "-r", "ref.txt"], "give the output file with -o"),
        (["-c", "sysA.txt", "-r", "ref.txt", "--format", "json", "-o", "x.html"], "--format belongs to"),
        (["-c", "sysA.txt", "-r", "ref.txt", "--per-pair", "-o", "x.html"], "--per-pair belongs to"),
        (["-c", "missing.txt", "-r", "ref.txt", "-o", "x.html"], "missing.txt"),
        (["--result", "missing.json", "-o", "x.html"], "missing.json"),
        (["--result", "ref.txt", "-o", "x.html"], "not a JSON result"),
        (["--result", "ref.txt", "-c", "sysA.txt", "-o", "x.html"], "--result replaces the inputs"),
        (["-c", "sysA.txt", "-r", "ref.txt", "--trials", "0", "-o", "x.html"], "trials"),
        (["-c", "sysA.txt", "-r", "ref.txt", "--highlights", "some", "-o", "x.html"], "highlights must be"),
        (["-c", "sysA.txt", "-r", "ref.txt", "--highlights", "-3", "-o", "x.html"], "highlights must be"),
        (["-c", "sysA.txt", "-r", "ref.txt", "-o", "/nonexistent/x.html"], "/nonexistent/x.html"),
    ],
)
def test_errors_are_one_line_exit_2(tmp_path, args, message):
    for name in ("sysA.txt", "ref.txt"):
        (tmp_path / name).write_text((EXAMPLES / name).read_text())
    done = cli("report", *args, cwd=tmp_path)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and message in done.stderr, done.stderr
    assert not (tmp_path / "x.html").exists()


def test_saved_result_without_per_pair(tmp_path):
    saved = tmp_path / "s.json"
    assert cli("score", "-c", "sysA.txt", "-r", "ref.txt", "--format", "json", "-o", str(saved)).returncode == 0
    done = cli("report", "--result", str(saved), "-o", str(tmp_path / "x.html"))
    assert done.returncode == 2 and "--per-pair" in done.stderr


def test_pack_round_trip():
    texts = [
        ["the", "</script>", "<!--", "\\", '"', "é", html_pack.BREAK, "x"],
        ["the"] * 5 + [str(i) for i in range(3000)],
    ]
    words, encoded = html_pack.encode_all([" ".join(t) for t in texts] + ["", "the"])
    assert len(encoded) == 4
    for text, code in zip(texts, encoded):
        assert html_pack.decode(code, words) == text  # BREAK joined in is a line break: a sentence break
        assert not set(code) - set(html_pack.FINAL + html_pack.LEAD)
    assert encoded[2:] == ["", html_pack.FINAL[0]]  # an empty text; the most frequent word: one character
    # sentences: the non-empty lines; the marks used while splitting are shown as U+FFFD
    words, encoded = html_pack.encode_all(["a  b\n\n c\n", "x\x01y \x02"])
    assert [html_pack.decode(e, words) for e in encoded] == [["a", "b", html_pack.BREAK, "c"], ["x\ufffdy", "\ufffd"]]


def blob_of(page: str) -> dict:
    return json.loads(re.search(r'<script type="application/json" id="rk-data">(.*?)</script>', page, re.S)[1])


def test_highlight_budget_takes_the_best_and_worst_first(tmp_path):
    args = ["-c", "sysA.txt", "-c", "sysB.txt", "-c", "sysC.txt", "-r", "ref.txt"]
    rows = list(csv.DictReader(io.StringIO(cli("score", *args, "--per-pair", "--format", "csv").stdout)))
    mean = [sum(float(r["ROUGE-1_f"]) for r in rows if r["instance"] == str(i)) / 3 for i in range(1, 5)]
    best = max(range(4), key=lambda i: (mean[i], -i))
    worst = min(range(4), key=lambda i: (mean[i], i))
    out = tmp_path / "r.html"
    assert cli("report", *args, "--highlights", "2", "-o", str(out)).returncode == 0
    hl = blob_of(out.read_text(encoding="utf-8"))["hl"]
    assert hl["pairs"] == sorted({best, worst}) and best != worst
    assert sorted(hl["marks"]) == ["0", "1", "2"]  # ROUGE-1, ROUGE-2, ROUGE-L
    for m in hl["marks"].values():  # per system, one bitmap per highlighted candidate, one per reference
        assert len(m["cand"]) == 3 and all(len(c) == 2 for c in m["cand"])
        assert all(len(r) == 2 and all(len(x) == 1 for x in r) for r in m["ref"])
    assert hl["runs"] == "ascii"
    assert cli("report", *args, "--highlights", "0", "-o", str(out)).returncode == 0
    page = out.read_text(encoding="utf-8")
    assert "hl" not in blob_of(page) and "no highlights" in page
    for every in ([], ["--highlights", "all"]):  # the default: every example
        assert cli("report", *args, *every, "-o", str(out)).returncode == 0
        assert blob_of(out.read_text(encoding="utf-8"))["hl"]["pairs"] is None


def test_token_ids_have_no_highlights():
    ids = [[1, 2, 3], [4, 5]]
    refs = [[1, 2, 4], [4, 5, 6]]
    r = rougekit.score(ids, refs, measures=["ROUGE-1"], bootstrap=None)
    page = r.to_html(candidates=ids, references=refs)
    blob = blob_of(page)
    assert "hl" not in blob and "the inputs are not text (token ids)" in page
    assert [" ".join(html_pack.decode(c, blob["words"])) for c in blob["cands"][0]] == ["1 2 3", "4 5"]


def test_saved_result_with_a_byte_order_mark(tmp_path):
    """A saved result re-written by an editor that adds a UTF-8 byte order mark reads as the result
    (the shared reader's rule; before, strict UTF-8 decoding refused it)."""
    saved = tmp_path / "s.json"
    args = ("score", "-c", "sysA.txt", "-r", "ref.txt", "--format", "json", "--per-pair", "-o", str(saved))
    assert cli(*args).returncode == 0
    plain = cli("report", "--result", str(saved), "-o", str(tmp_path / "plain.html"))
    saved.write_bytes(b"\xef\xbb\xbf" + saved.read_bytes())
    marked = cli("report", "--result", str(saved), "-o", str(tmp_path / "marked.html"))
    assert plain.returncode == 0 and marked.returncode == 0, marked.stderr
    assert (tmp_path / "marked.html").read_bytes() == (tmp_path / "plain.html").read_bytes()


def test_the_examples_json_parses_whatever_the_texts_hold(tmp_path):
    """'<!--' in a summary was written as '<\\!--' inside the page's JSON (not a JSON escape: JSON.parse
    failed and the examples never showed). Every '<' is now \\u003c there: the blob parses, and holds the text."""
    import re

    import rougekit

    refs = ["the cat sat on the mat", "police killed the gunman"]
    cands = ["the cat <!-- sat", "police </script> kill the gunman"]
    page = tmp_path / "r.html"
    rougekit.score(cands, refs).to_html(str(page), name="base", candidates={"base": cands}, references=refs)
    html = page.read_text(encoding="utf-8")
    blob = re.search(r'<script type="application/json" id="rk-data">(.*?)</script>', html, re.S).group(1)
    assert "<" not in blob
    data = json.loads(blob)
    assert "<!--" in json.dumps(data, ensure_ascii=False) and "</script>" in json.dumps(data, ensure_ascii=False)


def test_to_html_refuses_texts_other_than_the_scored_ones():
    """The examples show each pair's texts beside its numbers: other texts (a shuffled or filtered list)
    showed 'totally' with ROUGE-1 P 1.0 beside a reference it shares no word with (qa20b F9)."""
    import rougekit
    from rougekit.errors import OptionError

    refs = ["the cat sat on the mat", "police killed the gunman", "a b c"]
    cands = ["the cat", "police kill", "a b"]
    result = rougekit.score(cands, refs, measures=["ROUGE-1", "ROUGE-L", "BLEU"], stem=True)
    assert "<html" in result.to_html(None, name="a", candidates={"a": cands}, references=refs)
    shuffled = [cands[1], cands[0], cands[2]]
    with pytest.raises(OptionError, match=r"system 'a': the texts given are not the ones scored \(2 pairs .* pair 1\)"):
        result.to_html(None, name="a", candidates={"a": shuffled}, references=refs)


def test_a_single_valued_measure_says_its_delta_is_over_pairs():
    """BLEU's table gives corpus BLEU and Δ the mean of per-pair differences: side by side they looked
    contradictory (qa20b F10); a note under its tests says which is which."""
    import rougekit

    refs = ["the cat sat on the mat", "police killed the gunman", "a dog ran in the park"]
    base = rougekit.score(["the cat", "police kill the gunman", "a dog ran"], refs, measures=["ROUGE-1", "BLEU"])
    new = rougekit.score(["the cat sat", "police killed", "dogs ran in a park"], refs, measures=["ROUGE-1", "BLEU"])
    page = base.to_html(None, name="base", others={"new": new})
    assert page.count("the table gives the corpus score; \u0394 and its tests are over per-pair scores") == 1
    assert "BLEU: the table gives the corpus score" in page


def test_to_html_takes_the_texts_as_iterators():
    # the texts are read twice (the examples, and the check that they are the scored ones): a generator
    # was empty the second time (a numpy broadcast error, review of session 21)
    cands = ["the cat sat", "a dog ran"]
    refs = ["the cat sat on the mat", "a dog ran far"]
    result = rougekit.score(cands, refs)
    given = result.to_html(candidates=iter(cands), references=(r for r in refs))
    assert given == result.to_html(candidates=cands, references=refs)
