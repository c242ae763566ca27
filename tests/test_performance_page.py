"""Issue 25, finding 14: the documentation's speed figures live in one table (docs/performance.md),
written from benchmarks/figures.json with each run's date, commit and machine; other pages link to
it instead of repeating (and contradicting) numbers."""

from __future__ import annotations

import importlib.util
import json
import re

from _paths import REPO

#: a speed figure written in prose: a rate, a time in ms, a ratio or a before/after time
FIGURE = re.compile(
    r"\b\d[\d,.]*\s?(?:ms|pairs/s|pairs a second)\b|\b\d+(?:\.\d+)?x (?:faster|rouge-score)|\b\d[\d,.]* times faster"
    r"|\d s instead of"
)


def _tool():
    spec = importlib.util.spec_from_file_location("performance_page", REPO / "tools" / "performance_page.py")
    page = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(page)
    return page


def test_the_figures_table_is_current():
    page = _tool()
    data = json.loads(page.FIGURES.read_text(encoding="utf-8"))
    text = page.PAGE.read_text(encoding="utf-8")
    assert page.page_with_table(text, data) == text, "run: python tools/performance_page.py"
    for run in data["runs"].values():  # every figure says when, where and how it was measured
        assert run["date"].startswith("2026-") and run["machine"] and run["command"]
    assert {f["run"] for f in data["figures"]} <= set(data["runs"])


def test_no_other_page_repeats_a_speed_figure():
    pages = [REPO / "README.md", *sorted((REPO / "docs").rglob("*.md"))]
    found = []
    for path in pages:
        if path.name == "performance.md":
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            if FIGURE.search(line):
                found.append(f"{path.relative_to(REPO)}:{number}: {line.strip()}")
    assert found == [], "link to docs/performance.md#figures instead:\n" + "\n".join(found)


def test_readme_faq_and_rewards_link_to_the_table():
    for name in ("README.md", "docs/faq.md", "docs/rewards.md"):
        assert "performance.md#figures" in (REPO / name).read_text(encoding="utf-8"), name


def _section(readme: str, name: str) -> str:
    """The text of the benchmarks/README.md section a run names: a heading that starts with
    ``name``, or (``"Earlier runs: (b) ..."``) a heading starting with the part before ``": "`` and,
    inside it, one starting with the rest; up to the next heading of the same or a higher level."""
    lines = readme.splitlines()
    headings = [(k, len(line) - len(line.lstrip("#")), line.lstrip("#").strip()) for k, line in enumerate(lines)]
    headings = [h for h in headings if h[1]]

    def body(start, level):
        end = next((k for k, lv, _ in headings if k > start and lv <= level), len(lines))
        return "\n".join(lines[start:end])

    for k, level, text in headings:
        if text.startswith(name):
            return body(k, level)
    outer, _, inner = name.partition(": ")
    for k, level, text in headings:
        if text.startswith(outer):
            found = _section(body(k, level).split("\n", 1)[1], inner) if inner else ""
            if found:
                return found
    return ""


def test_every_figure_is_written_as_its_recorded_run_prints_it():
    """Each number of a figure (rougekit, the peer, the ratio) appears, written the same way, in the
    section of benchmarks/README.md that holds its run's output: no recomputed ratio, no other run."""
    data = json.loads(_tool().FIGURES.read_text(encoding="utf-8"))
    readme = (REPO / "benchmarks" / "README.md").read_text(encoding="utf-8")
    wrong = []
    unrecorded = {f["id"] for f in data["figures"] if data["runs"][f["run"]]["section"].startswith("not recorded")}
    assert unrecorded <= {"letter-check"}  # its output is yet to be copied into benchmarks/README.md
    for figure in data["figures"]:
        if figure["id"] in unrecorded:
            continue
        section = _section(readme, data["runs"][figure["run"]]["section"])
        assert section, (figure["id"], data["runs"][figure["run"]]["section"])
        for field in ("rougekit", "peer", "ratio"):
            for number in re.findall(r"\d[\d,.]*\d|\d", figure[field]):
                if not re.search(rf"(?<![\d.,]){re.escape(number)}(?![\d]|[.,]\d)", section):
                    wrong.append(f"{figure['id']}.{field}: {number}")
    assert wrong == []
