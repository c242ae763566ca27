"""The documentation holds together: links in docs/ resolve, and the code cites docs/ pages that exist.

* every relative Markdown link in ``docs/**/*.md`` and ``README.md`` points to an existing file,
  and its ``#anchor`` (if any) to a heading of that file (GitHub's heading ids);
* every ``docs/...`` path named in ``src/`` (.py, .pyx, .pxi), ``tests/``, ``tools/`` or ``benchmarks/``
  exists, anchors included;
* every repository path the pages name in backticks (``src/...``, ``tests/...``) exists;
* no code cites the team's shared spec or paper copies instead of ``docs/``.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
SOURCES = sorted(p for ext in ("*.py", "*.pyx", "*.pxi") for p in (ROOT / "src").rglob(ext))
# tests, tools and benchmarks may read ../shared data, but cite docs/ for behaviour too
CODE = SOURCES + sorted(p for d in ("tests", "tools", "benchmarks") for p in (ROOT / d).rglob("*.py"))

_LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
_FENCE = re.compile(r"^\s*(```|~~~)")
_HEADING = re.compile(r"^#{1,6}\s+(.*?)\s*#*\s*$")
_DOCS_PATH = re.compile(r"(?<![\w./-])(docs/[\w./-]*\w(?:#[\w-]+)?)")
_REPO_PATH = re.compile(r"`((?:src|tests|tools|benchmarks|docs)/[^`\s]*)`")
_SHARED_CITATION = re.compile(r"rouge-1\.5\.5-behaviour|shared/(?:docs|papers)")


def markdown_files() -> list[Path]:
    return sorted(DOCS.rglob("*.md")) + [ROOT / "README.md"]


def _prose_lines(text: str) -> list[tuple[int, str]]:
    """Lines outside fenced code blocks, numbered from 1."""
    out, fenced = [], False
    for number, line in enumerate(text.splitlines(), start=1):
        if _FENCE.match(line):
            fenced = not fenced
        elif not fenced:
            out.append((number, line))
    return out


def slug(heading: str) -> str:
    """GitHub's id for a Markdown heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link in a heading keeps its text
    text = re.sub(r"[^\w\- ]", "", text.lower())
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    """The heading ids of a Markdown file, with GitHub's -1, -2 suffixes for repeated headings."""
    seen: dict[str, int] = {}
    out = set()
    for _, line in _prose_lines(path.read_text(encoding="utf-8")):
        match = _HEADING.match(line)
        if not match:
            continue
        base = slug(match.group(1))
        count = seen.get(base, 0)
        seen[base] = count + 1
        out.add(base if count == 0 else f"{base}-{count}")
    return out


def broken_links(path: Path, root: Path = ROOT) -> list[str]:
    """Relative links of one Markdown file whose target file or anchor does not exist."""
    problems = []
    for number, line in _prose_lines(path.read_text(encoding="utf-8")):
        line = re.sub(r"`[^`]*`", "", line)  # inline code is not a link
        for target in _LINK.findall(line):
            if re.match(r"^[a-z][a-z0-9+.-]*:", target):  # http:, https:, mailto:
                continue
            file_part, _, anchor = target.partition("#")
            dest = (path.parent / file_part).resolve() if file_part else path
            where = f"{path.relative_to(root)}:{number}: {target}"
            if not dest.exists():
                problems.append(f"{where} (no such file)")
            elif anchor and dest.suffix == ".md" and anchor not in anchors(dest):
                problems.append(f"{where} (no heading with id {anchor!r})")
    return problems


def cited_docs(path: Path) -> list[tuple[int, str]]:
    """``docs/...`` paths named in one source file, with their line numbers."""
    out = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        out.extend((number, m) for m in _DOCS_PATH.findall(line))
    return out


def test_slug_matches_github_ids():
    assert slug("ROUGE-W (`-w w`)") == "rouge-w--w-w"
    assert slug("4. Length limits: `-l` words, `-b` bytes") == "4-length-limits--l-words--b-bytes"
    assert slug("Stemming: `-m`") == "stemming--m"


def test_the_link_checker_reports_broken_links(tmp_path):
    page = tmp_path / "page.md"
    (tmp_path / "other.md").write_text("# Other page\n\n## A section\n", encoding="utf-8")
    page.write_text(
        "# Page\n[ok](other.md#a-section) [self](#page) [web](https://example.org/x)\n"
        "[gone](missing.md) [bad anchor](other.md#no-such-section)\n"
        "```\n[in a code block](nowhere.md)\n```\n",
        encoding="utf-8",
    )
    assert broken_links(page, root=tmp_path) == [
        "page.md:3: missing.md (no such file)",
        "page.md:3: other.md#no-such-section (no heading with id 'no-such-section')",
    ]


def test_docs_index_lists_every_page():
    index = (DOCS / "README.md").read_text(encoding="utf-8")
    linked = {(DOCS / t.partition("#")[0]).resolve() for t in _LINK.findall(index)}
    pages = {p.resolve() for p in DOCS.rglob("*.md") if p.name != "README.md"}
    assert sorted(str(p.relative_to(DOCS)) for p in pages - linked) == []


@pytest.mark.parametrize("path", markdown_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_relative_links_resolve(path):
    assert broken_links(path) == []


def named_paths(path: Path) -> list[tuple[int, str]]:
    """Repository paths a Markdown page names in backticks (placeholders such as ``<family>`` left out)."""
    return [
        (number, m)
        for number, line in _prose_lines(path.read_text(encoding="utf-8"))
        for m in _REPO_PATH.findall(line)
        if not re.search(r"[<>*]|\.\.\.", m)
    ]


@pytest.mark.parametrize("path", markdown_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_paths_named_in_docs_exist(path):
    missing = [f"{path.relative_to(ROOT)}:{n}: {p}" for n, p in named_paths(path) if not (ROOT / p).exists()]
    assert missing == []


def test_sources_cite_existing_docs():
    missing = []
    cited = 0
    for path in CODE:
        for number, target in cited_docs(path):
            cited += 1
            file_part, _, anchor = target.partition("#")
            dest = ROOT / file_part.rstrip(".")
            where = f"{path.relative_to(ROOT)}:{number}: {target}"
            if not dest.exists():
                missing.append(f"{where} (no such file)")
            elif anchor and anchor not in anchors(dest):
                missing.append(f"{where} (no heading with id {anchor!r})")
    assert cited > 0, "no source file cites docs/ any more: the behaviour pages are unreferenced"
    assert missing == []


def test_sources_do_not_cite_the_shared_spec():
    offending = [
        f"{path.relative_to(ROOT)}:{number}"
        for path in CODE
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if _SHARED_CITATION.search(line)
    ]
    assert offending == [], "cite docs/rouge155/*.md (or the paper by author and year) instead"
