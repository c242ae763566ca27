"""The protocol's table as text (Lin 2004's layout), CSV and JSON."""

from __future__ import annotations

import json
import math
from dataclasses import asdict

from rougekit.meta.protocol_result import ProtocolResult

_COEF_SHORT = {"pearson": "r", "spearman": "rho", "kendall": "tau"}
_VARIANT_LABEL = {"plain": "CASE", "stem": "STEM", "stop": "STOP", "stemstop": "STEM+STOP"}


def _refs_label(result: ProtocolResult, r: str) -> str:
    if r == "one":
        return "1 REF"
    n = result.n_references.get("all", 0)
    return f"{n} REFS" if n > 1 else "ALL REFS"


def _fmt(x: float, digits: int) -> str:
    return "nan" if x is None or math.isnan(x) else f"{x:.{digits}f}"


def format_text(result: ProtocolResult, *, digits: int = 3, intervals: bool = False, max_columns: int = 18) -> str:
    """Paper-style tables: rows = measures; columns = human x references x variant x coefficient.
    ``*`` marks the best of a column, ``+`` the values not significantly worse than it."""
    by_key = {(c.measure, c.human, c.refs, c.variant, c.coefficient): c for c in result.cells}
    columns = [
        (h, r, v, c) for h in result.humans for r in result.refs for v in result.variants for c in result.coefficients
    ]
    levels = [
        ("human", result.humans),
        ("refs", result.refs),
        ("variant", result.variants),
        ("coefficient", result.coefficients),
    ]
    if len(columns) > max_columns and len(result.humans) > 1:
        blocks = [[col for col in columns if col[0] == h] for h in result.humans]
    else:
        blocks = [columns]
    rule_text = {
        "overlap": "its 95% interval overlaps the best's",
        "paired": "paired bootstrap: the interval of (best - value) contains 0",
        "williams": "Williams' test does not find it worse",
    }[result.rule]
    lines = [
        f"{result.dataset}: {result.level}-level correlation of ROUGE {result.score} with human "
        f"scores ({len(result.systems)} systems, {result.n_instances} instances; multiple "
        f"references: {result.multi_ref})",
        f"{result.confidence:g}% bootstrap intervals: {result.samples} samples resampling "
        f"{result.resample}, seed {result.seed}. * = best in column; + = not significantly worse "
        f"than the best ({rule_text}).",
    ]
    for note in result.notes:
        lines.append(f"note: {note}")
    for block in blocks:
        lines.append("")
        header_rows = []
        constant = []
        for idx, (what, values) in enumerate(levels):
            present = []
            for col in block:
                if col[idx] not in present:
                    present.append(col[idx])
            labels = [_label(result, what, col[idx]) for col in block]
            if len(present) == 1:
                constant.append(labels[0])
            else:
                header_rows.append(labels)
        if constant:
            lines.append(" / ".join(constant))
        if not header_rows:
            header_rows.append([_label(result, "coefficient", col[3]) for col in block])
        body = []
        for m in result.measures:
            row = [m]
            for h, r, v, c in block:
                cell = by_key[(m, h, r, v, c)]
                mark = "*" if cell.best else ("+" if cell.not_worse else " ")
                text = _fmt(cell.value, digits) + mark
                if intervals:
                    text += f" [{_fmt(cell.low, digits)},{_fmt(cell.high, digits)}]"
                row.append(text)
            body.append(row)
        width0 = max(len("Measure"), *(len(b[0]) for b in body))
        widths = [max(len(b[j + 1]) for b in body) for j in range(len(block))]
        for hr in header_rows:
            widths = [max(w, len(x)) for w, x in zip(widths, hr)]
        for n_row, hr in enumerate(header_rows):
            # print a group label only where it changes (spanning columns)
            shown = []
            for j, x in enumerate(hr):
                is_last = n_row == len(header_rows) - 1
                shown.append(x if is_last or j == 0 or hr[j - 1] != x or _parent_changed(header_rows, n_row, j) else "")
            first = "Measure" if n_row == len(header_rows) - 1 else ""
            lines.append("  ".join([first.ljust(width0)] + [s.ljust(w) for s, w in zip(shown, widths)]).rstrip())
        for b in body:
            lines.append("  ".join([b[0].ljust(width0)] + [s.ljust(w) for s, w in zip(b[1:], widths)]).rstrip())
    return "\n".join(lines) + "\n"


def _parent_changed(header_rows: list[list[str]], n_row: int, j: int) -> bool:
    return any(header_rows[p][j] != header_rows[p][j - 1] for p in range(n_row))


def _label(result: ProtocolResult, what: str, value: str) -> str:
    if what == "refs":
        return _refs_label(result, value)
    if what == "variant":
        return _VARIANT_LABEL.get(value, value.upper())
    if what == "coefficient":
        return _COEF_SHORT.get(value, value)
    return value


CSV_FIELDS = (
    "measure",
    "variant",
    "refs",
    "human",
    "coefficient",
    "value",
    "low",
    "high",
    "best",
    "not_worse",
    "p_value",
)


def format_csv(result: ProtocolResult) -> str:
    import csv
    import io

    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(("dataset", "level", "score") + CSV_FIELDS)
    for c in result.cells:
        d = asdict(c)
        w.writerow(
            [result.dataset, result.level, result.score]
            + [
                (
                    ""
                    if d[k] is None or (isinstance(d[k], float) and math.isnan(d[k]))
                    else (
                        repr(float(d[k]))
                        if isinstance(d[k], float)
                        else (str(d[k]).lower() if isinstance(d[k], bool) else d[k])
                    )
                )
                for k in CSV_FIELDS
            ]
        )
    return buf.getvalue()


def format_json(result: ProtocolResult) -> str:
    return json.dumps(result.to_dict(), indent=1, allow_nan=False) + "\n"
