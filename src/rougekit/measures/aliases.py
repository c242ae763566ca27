"""Measure names of other packages and papers, and what each is in rougekit.

rougekit refuses these names rather than taking them as aliases: ``rougeL`` is not the same
number in rouge-score and in ROUGE-1.5.5 (one LCS over the whole text against the union LCS over
sentences), and none of them gives rouge-score's numbers here (its tokenizer, stemmer and
multi-reference rule differ). The error says which rougekit measure the name corresponds to and
what to write instead; valid rougekit names (``ROUGE-L``, ``rouge-l``, ``ROUGE-SU4`` ...) keep their
meaning and never come here. The table is in docs/faq.md ("Measure names from other packages").

>>> explain("rougeLsum").split(": ")[1].split(";")[0]
"in rougekit that is ROUGE-L (ROUGE-1.5.5's union LCS over the summary's sentences, its lines)"
>>> print(explain("R-1"))
R-1 is the usual shorthand of ROUGE-1; use ROUGE-1
>>> explain("BLEU-9") is None
True
"""

from __future__ import annotations

import re

_FORM = re.compile(
    r"(?:ROUGE|R)-?(?:(?P<n>[0-9]+)|(?P<lsum>L-?SUM)|(?P<l>L)|W-?(?P<w>[0-9]*\.?[0-9]+)?|(?P<s>SU|S)-?(?P<d>[0-9]+|\*))"
)
_ROUGE_SCORE_STYLE = re.compile(r"rouge(?:[0-9]+|L|Lsum)")  # rouge-score's, evaluate's and torchmetrics' keys
_COMPAT = "(rouge-score's own numbers: rougekit.compat.rouge_scorer)"


def explain(name: str) -> str | None:
    """What another package's or paper's measure name is in rougekit, or None when it is none of them."""
    text = name.strip()
    key = text.upper().replace("_", "-").replace(" ", "")
    if key in ("ROUGE-N", "ROUGEN", "R-N"):
        return f"{text} names a family: give the order, e.g. ROUGE-1, ROUGE-2"
    match = _FORM.fullmatch(key)
    if match is None:
        return None
    ours = _measure(match)
    if _ROUGE_SCORE_STYLE.fullmatch(text):
        if match["lsum"]:
            return (
                f"{text} is rouge-score's summary-level LCS (sentences split on newlines): in rougekit that is "
                f"ROUGE-L (ROUGE-1.5.5's union LCS over the summary's sentences, its lines); use ROUGE-L {_COMPAT}"
            )
        if match["l"]:
            return (
                f"{text} is rouge-score's LCS over the whole summary as one sequence: in rougekit that is ROUGE-L "
                "of a summary given as one line (with several lines, ROUGE-L is the script's union LCS over the "
                f"sentences, rouge-score's rougeLsum); use ROUGE-L {_COMPAT}"
            )
        return f"{text} is rouge-score's name of {ours}; use {ours} {_COMPAT}"
    if match["lsum"]:
        return (
            f"{text} is rouge-score's summary-level LCS: in rougekit that is ROUGE-L (ROUGE-1.5.5's union LCS over "
            f"the summary's sentences, its lines); use ROUGE-L {_COMPAT}"
        )
    if match["w"] is None and key.endswith("W"):
        return f"{text} is ROUGE-W without its weight (ROUGE-1.5.5 takes it with -w); use {ours} (the usual weight)"
    return f"{text} is the usual shorthand of {ours}; use {ours}"


def meant(name: str) -> str | None:
    """The rougekit measure name :func:`explain` tells to use for ``name`` (None for none or a family)."""
    match = _FORM.fullmatch(name.strip().upper().replace("_", "-").replace(" ", ""))
    return _measure(match) if match else None


def _measure(match: re.Match) -> str:
    if match["n"]:
        return f"ROUGE-{int(match['n'])}"
    if match["lsum"] or match["l"]:
        return "ROUGE-L"
    if match["s"]:
        return f"ROUGE-{match['s']}{match['d']}"
    return f"ROUGE-W-{match['w'] or '1.2'}"
