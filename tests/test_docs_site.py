"""The documentation site (mkdocs.yml, docs/) holds together, and its examples run.

* every page under ``docs/`` is in the ``nav`` of ``mkdocs.yml``, and every nav entry exists;
* the generated part of ``docs/cli.md`` is what ``rougekit COMMAND --help`` prints today
  (``tools/cli_page.py`` rewrites it);
* every code block of every page runs: ``python`` blocks are executed (each on its own, in a
  folder holding a copy of the repository's ``examples/`` and ``../shared`` beside it);
  ``console`` blocks run each ``$ rougekit ...`` line through ``python -m rougekit`` and compare
  its standard output with the lines that follow (a line ``...`` matches any lines, ``...``
  inside a line any text); ``bash``/``sh`` blocks run their ``rougekit`` commands (and ``cd``).

A block that cannot run here says so in an HTML comment on the line before it (invisible on the
site):

* ``<!-- docs-test: skip REASON -->``: never run (placeholder file names, a trainer, ...);
* ``<!-- docs-test: needs shared -->``: runs when the shared data folder is there, else skips;
* ``<!-- docs-test: needs module NAME [NAME...] -->``: runs when those modules import, else skips.

A ``bash`` or ``console`` block with any other command (``pip``, pipes, ``cat``) must be marked.
The site itself is built by ``.ci/run`` (``mkdocs build --strict``).
"""

from __future__ import annotations

import importlib.util
import os
import re
import shlex
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from _paths import REPO, SHARED, shared_missing, subprocess_env

import rougekit

DOCS = REPO / "docs"
PAGES = sorted(DOCS.rglob("*.md"))
RUNNABLE = {"python", "py", "console", "bash", "sh", "shell"}
_MARK = re.compile(r"^<!--\s*docs-test:\s*(.*?)\s*-->\s*$")
_FENCE = re.compile(r"^(\s*)(```+|~~~+)\s*([\w+-]*)")


@dataclass
class Block:
    page: Path
    line: int  # line of the opening fence, from 1
    language: str
    code: str
    mark: str  # the docs-test comment's text, or ""

    @property
    def id(self) -> str:
        return f"{self.page.relative_to(DOCS)}:{self.line}"


def blocks(page: Path) -> list[Block]:
    """The fenced code blocks of a page, with the docs-test mark on the line before each."""
    out: list[Block] = []
    lines = page.read_text(encoding="utf-8").splitlines()
    i = 0
    while i < len(lines):
        m = _FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        indent, fence, language = m.group(1), m.group(2), m.group(3).lower()
        j = i + 1
        while j < len(lines) and not lines[j].strip().startswith(fence):
            j += 1
        body = [x[len(indent) :] if x.startswith(indent) else x for x in lines[i + 1 : j]]
        before = lines[i - 1].strip() if i else ""
        mark = _MARK.match(before)
        out.append(Block(page, i + 1, language, "\n".join(body) + "\n", mark.group(1) if mark else ""))
        i = j + 1
    return out


ALL_BLOCKS = [b for page in PAGES for b in blocks(page) if b.language in RUNNABLE]


def nav_pages() -> list[str]:
    """The pages named in the nav of mkdocs.yml (read as text: the file has python/ YAML tags)."""
    text = (REPO / "mkdocs.yml").read_text(encoding="utf-8")
    nav = text.split("\nnav:\n", 1)[1]
    nav = re.split(r"\n(?=\S)", nav, maxsplit=1)[0]  # up to the next top-level key
    return re.findall(r"^\s*-\s*(?:[^\n]*?:\s+)?([\w./-]+\.md)\s*$", nav, re.M)


def test_every_page_is_in_the_nav():
    pages = {str(p.relative_to(DOCS)) for p in PAGES}
    nav = nav_pages()
    assert sorted(pages - set(nav)) == [], "add these pages to the nav of mkdocs.yml (and link them in docs/README.md)"
    assert sorted(set(nav) - pages) == [], "the nav of mkdocs.yml names pages that do not exist"
    assert len(nav) == len(set(nav)), "a page is in the nav twice"


def test_no_link_leaves_the_site():
    """mkdocs build --strict fails on a relative link to a file outside docs/ (it is not a page of the
    site): name such files in backticks (`src/...`, `benchmarks/README.md`) instead."""
    link = re.compile(r"\[[^\]]*\]\(([^)\s#]+)[^)]*\)")
    leaving = []
    for page in PAGES:
        for number, line in enumerate(page.read_text(encoding="utf-8").splitlines(), start=1):
            for target in link.findall(re.sub(r"`[^`]*`", "", line)):
                if re.match(r"^[a-z][a-z0-9+.-]*:", target):
                    continue
                dest = (page.parent / target).resolve()
                if DOCS.resolve() not in dest.parents:
                    leaving.append(f"{page.relative_to(DOCS)}:{number}: {target}")
    assert leaving == []


def test_nav_reader_reads_titles_and_bare_entries():
    assert len(nav_pages()) > 20
    assert "README.md" in nav_pages() and "rouge155/tokens.md" in nav_pages()


def _cli_page():
    spec = importlib.util.spec_from_file_location("cli_page", REPO / "tools" / "cli_page.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_cli_page_is_current():
    cli_page = _cli_page()
    text = (DOCS / "cli.md").read_text(encoding="utf-8")
    made_with = cli_page.python_of(text)
    if made_with != cli_page.python_version():  # argparse lays out help differently from one Python to the next
        pytest.skip(f"docs/cli.md was generated with Python {made_with}, this is {cli_page.python_version()}")
    assert cli_page.page_with_help(text) == text, (
        "docs/cli.md no longer shows what the command line prints: run PYTHONPATH=src python tools/cli_page.py"
    )


def test_cli_page_leaves_sys_path_alone():
    """tools/cli_page.py put the checkout's src first on sys.path for good: processes a later test
    started (Dask workers) imported it, without compiled modules, instead of the installed rougekit."""
    before = list(sys.path)
    cli_page = _cli_page()
    assert cli_page.commands()
    assert sys.path == before
    assert cli_page.rougekit_folder() == str(Path(rougekit.__file__).resolve().parents[1])


def test_cli_page_has_every_command():
    from rougekit.cli.main import SUBCOMMANDS

    text = (DOCS / "cli.md").read_text(encoding="utf-8")
    assert [c for c in SUBCOMMANDS if f"## `rougekit {c}`" not in text] == []


def test_marks_are_understood():
    problems = []
    for page in PAGES:
        for b in blocks(page):
            if b.mark and not re.fullmatch(r"skip \S.*|needs shared|needs module( [\w.]+)+", b.mark):
                problems.append(f"{b.id}: unknown mark {b.mark!r}")
    assert problems == []


def test_some_blocks_run():
    assert sum(1 for b in ALL_BLOCKS if not b.mark.startswith("skip")) >= 15


# --- running the blocks ---------------------------------------------------------------------


@pytest.fixture
def workdir(tmp_path, monkeypatch):
    """A folder holding a copy of examples/, with the shared folder beside it as ../shared."""
    root = tmp_path / "repo"
    shutil.copytree(REPO / "examples", root / "examples")
    if SHARED.is_dir():
        (tmp_path / "shared").symlink_to(SHARED, target_is_directory=True)
    monkeypatch.chdir(root)
    return root


def _needs(mark: str) -> None:
    """Skip (with the reason) when what a marked block needs is not here."""
    if mark.startswith("skip"):
        pytest.skip(f"not run: {mark[4:].strip()}")  # never reached: such blocks are not collected
    if mark == "needs shared" and not SHARED.is_dir():
        pytest.skip(shared_missing(SHARED))
    if mark.startswith("needs module"):
        for name in mark.split()[2:]:
            if importlib.util.find_spec(name) is None:
                pytest.skip(f"needs the module {name} (pip install '.[test]')")


def matches(expected: list[str], actual: str) -> bool:
    """Does the output match the expected lines? ``...`` alone matches any lines, inside a line any text."""
    parts = []
    for line in expected:
        if line.strip() == "...":
            parts.append(r"(?:[^\n]*\n)*?")
        else:
            parts.append(".*".join(re.escape(x) for x in line.rstrip().split("...")) + r"[ \t]*\n")
    text = "".join(x.rstrip() + "\n" for x in actual.splitlines())
    return re.fullmatch("".join(parts), text) is not None


def test_output_matching():
    assert matches(["a", "...", "d"], "a\nb\nc\nd\n")
    assert matches(["a", "...", "b"], "a\nb\n")
    assert matches(["signature: ..."], "signature: rougekit|m:ROUGE-1\n")
    assert not matches(["a", "c"], "a\nb\nc\n")
    assert not matches(["a"], "a\nb\n")


def commands(block: Block) -> list[tuple[str, list[str]]]:
    """(command, expected output lines) of a console or shell block; continuation lines joined."""
    lines = block.code.splitlines()
    console = block.language == "console"
    out: list[tuple[str, list[str]]] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        if console and not line.startswith("$ "):
            if out:
                out[-1][1].append(line)
            i += 1
            continue
        command = line[2:] if console else line
        while command.endswith("\\") and i + 1 < len(lines):
            i += 1
            command = command[:-1] + " " + lines[i].strip()
        i += 1
        if command.strip() and not command.lstrip().startswith("#"):
            out.append((command.strip(), []))
    return out


def run_command(command: str, where: str) -> str:
    """Run one ``rougekit ...`` command through ``python -m rougekit``; return its standard output."""
    args = shlex.split(command, comments=True)
    if args[0] != "rougekit" or any(a in ("|", ">", "<", "&&", ";") for a in args):
        pytest.fail(f"{where}: `{command}` is not a plain rougekit command: mark the block (docs-test: skip REASON)")
    env = subprocess_env(COLUMNS="80")
    done = subprocess.run(
        [sys.executable, "-m", "rougekit", *args[1:]], capture_output=True, text=True, env=env, timeout=600
    )
    assert done.returncode == 0, (
        f"{where}: `{command}` exited with {done.returncode}: {done.stderr.strip()[-500:]} "
        "(a block that cannot run here needs a mark: see the docstring of tests/test_docs_site.py)"
    )
    return done.stdout


@pytest.mark.parametrize("block", [b for b in ALL_BLOCKS if not b.mark.startswith("skip")], ids=lambda b: b.id)
def test_block_runs(block, workdir):
    _needs(block.mark)
    where = block.id
    if block.language in ("python", "py"):
        code = compile(block.code, f"docs/{where}", "exec")
        try:
            exec(code, {"__name__": "__docs__"})
        except Exception as exc:
            hint = "a block that cannot run here needs a mark: see the docstring of tests/test_docs_site.py"
            raise AssertionError(f"docs/{where} failed: {type(exc).__name__}: {exc} ({hint})") from exc
        return
    cwd = Path.cwd()
    for command, expected in commands(block):
        if command.startswith("cd "):
            cwd = (cwd / command[3:].strip()).resolve()
            os.chdir(cwd)
            continue
        output = run_command(command, where)
        if expected:
            assert matches(expected, output), f"{where}: `{command}` printed:\n{output}"
