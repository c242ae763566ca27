"""The explanation in a terminal, in colour, through ``rich`` (the ``rich`` extra)."""

from __future__ import annotations

from rougekit.explanation.model import Explanation
from rougekit.explanation.views import marked, match_line, numbers, pieces


def show(e: Explanation, force: bool = False) -> None:
    """Print ``e`` to standard output with matched tokens highlighted (``force``: colour even
    when it is not a terminal)."""
    from rich.console import Console
    from rich.text import Text

    console = Console(highlight=False, soft_wrap=True, force_terminal=True if force else None)
    console.print(Text("signature: " + e.signature, style="dim"))
    for name, m in e.measures.items():
        console.print()
        console.print(Text.assemble((name, "bold cyan"), "  ", numbers(m)))
        console.print(Text("  counts " + m.counts_what, style="dim"))
        if m.weighted:
            console.print(Text("  count units: " + m.count_units, style="dim"))
        if m.matches is None:
            continue
        cand, refs = marked(m, len(e.references))
        rows = [("candidate   ", pieces(e.candidate, m.positions, cand))]
        rows += [(f"reference {k + 1} ", pieces(e.references[k], m.positions, refs[k])) for k in m.used]
        for label, sentences in rows:
            line = Text()
            line.append("  " + label, style="bold")
            for s, sentence in enumerate(sentences):
                if s:
                    line.append(" / ", style="dim")
                for i, (token, hit) in enumerate(sentence):
                    if i:
                        line.append(" ")
                    line.append(token, style="bold black on yellow" if hit else None)
            console.print(line)
        for x in m.matches:
            console.print(Text("    " + match_line(x, m.weighted)))
        for x in m.clipped or []:
            console.print(Text("    clipped (token used up): " + match_line(x, False), style="dim"))
