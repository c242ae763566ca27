"""The matched words of the report's examples, from :mod:`rougekit.explanation.batch` (never counted here).

Every example is highlighted by default: :func:`rougekit.explanation.batch.matched_positions`
computes, for all pairs and systems at once, the positions ``rougekit.explain`` marks for each
measure. The page shows the texts as given; a mark is a *run* of the text (the tokenizer's word
before stopwords and limits: for ``rouge155`` a run of ASCII letters and digits, which the page's
script finds itself; for other tokenizers the runs' places are in the blob, see
:func:`_run_codes`). The marks of one text for one measure are a bitmap over its runs, six runs a
character of :data:`BITS` (trailing zero characters dropped). ``highlights=N`` keeps a budget of
N examples (per measure the best, the worst and the biggest differences first, as the page's
buttons sort them, then input order).
"""

from __future__ import annotations

import re

import numpy as np

from rougekit.errors import OptionError
from rougekit.explanation.batch import matched_positions
from rougekit.report.html_model import ReportData
from rougekit.report.html_pack import code

DEFAULT_BUDGET = None  # every example
BITS = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-_"  # 6 bits a character
_BYTES = np.frombuffer(BITS.encode("ascii"), dtype=np.uint8)
_WORD = re.compile(r"\S+")


def budget_of(value) -> int | None:
    """``"all"`` -> None (every example), else a whole number >= 0."""
    if value is None or value == "all":
        return None
    try:
        n = int(value)
    except (TypeError, ValueError):
        raise OptionError(f"highlights must be a whole number or 'all', got {value!r}") from None
    if n < 0 or str(n) != str(value).strip():
        raise OptionError(f"highlights must be a whole number >= 0 or 'all', got {value!r}")
    return n


def select(data: ReportData, budget: int | None) -> list[int]:
    """The examples to highlight, in input order (see the module docstring)."""
    n = data.size
    if budget is None or budget >= n:
        return list(range(n))
    orders = []
    for m in data.measures:
        if m in data.single:
            continue
        values = np.stack([data.main_values(s, m) for s in data.systems])
        mean = values.mean(axis=0)
        orders += [np.argsort(-mean, kind="stable"), np.argsort(mean, kind="stable")]
        if len(data.systems) > 1:
            orders.append(np.argsort(-(values.max(axis=0) - values.min(axis=0)), kind="stable"))
    orders.append(np.arange(n))
    chosen: set[int] = set()
    position = [0] * len(orders)
    while len(chosen) < budget:
        for k, order in enumerate(orders):
            while position[k] < n and int(order[position[k]]) in chosen:
                position[k] += 1
            if position[k] < n and len(chosen) < budget:
                chosen.add(int(order[position[k]]))
    return sorted(chosen)


def bitmaps(marks: np.ndarray, at: np.ndarray, texts: np.ndarray, bm, space: str) -> list[str]:
    """Each region ``marks[at[r]:at[r + 1]]`` (0/1 per token of text ``texts[r]``) as a bitmap over
    the text's runs in :data:`BITS` characters, in one vectorised pass."""
    n = len(at) - 1
    lengths = np.diff(at)
    region = np.repeat(np.arange(n), lengths)
    local = np.arange(len(marks), dtype=np.int64) - np.repeat(at[:-1], lengths)
    token_at = bm.token_at[space]
    slot = bm.slots[space][token_at[texts[region]] + local].astype(np.int64)
    last = np.full(n, -1, dtype=np.int64)
    has = lengths > 0
    last[has] = slot[at[1:][has] - 1]  # runs rise along a text: its last token has the largest
    chars = np.where(last >= 0, last // 6 + 1, 0)
    char_at = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(chars, out=char_at[1:])
    on = (marks != 0) & (slot >= 0)
    where = char_at[region[on]] + slot[on] // 6
    value = np.bincount(where, weights=np.left_shift(1, slot[on] % 6), minlength=int(char_at[-1]))
    big = _BYTES[value.astype(np.int64)].tobytes().decode("ascii")
    zero = BITS[0]
    bounds = char_at.tolist()
    return [big[a:b].rstrip(zero) for a, b in zip(bounds, bounds[1:])]


def _utf16(word: str, k: int) -> int:
    """Offset ``k`` (code points) of ``word`` in UTF-16 code units, as the page's strings count."""
    return k if word.isascii() or max(word[:k], default="a") <= "\uffff" else len(word[:k].encode("utf-16-le")) // 2


def _run_codes(text: str, runs: list[list[int]] | None) -> str | None:
    """Where each run of ``text`` is among its display words (white-space separated, as
    :mod:`rougekit.report.html_pack` splits them): per run the word gap from the previous run's
    word, the start in the word and the length (UTF-16 units), as :func:`html_pack.code` characters."""
    if runs is None:
        return None
    words = [(m.start(), m.end()) for m in _WORD.finditer(text)]
    out, w, previous = [], 0, 0
    for a, b in runs:
        while w < len(words) and words[w][1] <= a:
            w += 1
        if w == len(words) or b > words[w][1] or a < words[w][0]:
            return None  # a run across white space: not drawn
        word = text[words[w][0] : words[w][1]]
        start = _utf16(word, a - words[w][0])
        out.append(code(w - previous) + code(start) + code(_utf16(word, b - words[w][0]) - start))
        previous = w
    return "".join(out)


def highlights(data: ReportData, options: dict, budget: int | None) -> dict | None:
    """The blob's ``hl`` part: which pairs, the runs (``"ascii"`` or per text), and per measure
    and system the bitmaps of each candidate and reference; None when the report has no texts,
    the texts cannot be explained (token ids) or no measure itemises its matches."""
    if data.candidates is None or data.references is None or not data.explainable:
        return None
    measures = [m for m in data.measures if m not in data.single]
    if not measures:
        return None
    pairs = [p for p in select(data, budget) if data.references[p]]  # explain needs a reference
    if not pairs:
        return None
    systems = len(data.systems)
    cands = [data.candidates[s.name][p] for s in data.systems for p in pairs]
    refs = [data.references[p] for p in pairs] * systems
    bm = matched_positions(cands, refs, measures, **options)
    if not bm.measures:
        return None
    n = len(pairs)
    per_ref = np.diff(bm.ref_off)[:n].tolist()
    marks = {}
    for name, mm in bm.measures.items():
        cand = bitmaps(mm.candidate, mm.cand_at, bm.candidate, bm, mm.space)
        ref = bitmaps(mm.reference, mm.ref_at, bm.reference, bm, mm.space)
        ref_at = bm.ref_off.tolist()
        marks[str(data.measures.index(name))] = {
            "cand": [cand[s * n : (s + 1) * n] for s in range(systems)],
            "ref": [
                [ref[ref_at[s * n + i] : ref_at[s * n + i] + per_ref[i]] for i in range(n)] for s in range(systems)
            ],
        }
    out: dict = {"pairs": None if len(pairs) == data.size else pairs, "marks": marks}
    if bm.tokenizer == "rouge155":
        out["runs"] = "ascii"
    else:
        where = [_run_codes(t, bm.runs(k)) for k, t in enumerate(bm.texts)]
        out["runs"] = {
            "refs": [[where[int(bm.reference[bm.ref_off[i] + k])] for k in range(per_ref[i])] for i in range(n)],
            "cands": [[where[int(bm.candidate[s * n + i])] for i in range(n)] for s in range(systems)],
        }
    return out
