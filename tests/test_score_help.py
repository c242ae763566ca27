"""Issue 25, finding 14: ``help(rougekit.score)`` names every parameter (the docstring), and
docs/api.md reads as Markdown (an overview before the generated ``:::`` sections)."""

from __future__ import annotations

import inspect

from _paths import REPO

import rougekit


def test_help_of_score_names_every_option():
    doc = inspect.getdoc(rougekit.score)
    options = [p for p in inspect.signature(rougekit.Scorer.__init__).parameters if p != "self"]
    options += ["candidates", "references", "ids", "sources"]
    missing = [name for name in options if f"{name}:" not in doc and f"{name}," not in doc]
    assert missing == []
    assert "Returns:" in doc and "Raises:" in doc


def test_api_page_reads_without_the_site():
    text = (REPO / "docs" / "api.md").read_text(encoding="utf-8")
    prose = [line for line in text.splitlines() if line and not line.startswith(("#", ":::"))]
    assert len(prose) > 40  # an overview, not only directives
    for call in ("rougekit.score(", "rougekit.Scorer(", "rougekit.explain(", "rouge_reward(", "RougeResult"):
        assert call in text, call
    assert "::: rougekit.api.score" in text  # the generated reference stays for the site
