"""Reports of API results: text table, JSON, JSONL, CSV, and the ROUGE-1.5.5 layout.

Every report says which corpus number it gives (:data:`AVERAGE_LABELS`) and how many systems
and pairs it scored (the text header's ``scored:`` line, JSON's ``scored``, the ``pairs`` of each
JSONL or CSV row of a system); the ROUGE-1.5.5 layout stays the script's, byte for byte. Per-pair rows of the
CSV and JSONL reports are keyed by ``system`` and ``instance``, one row per summary, with a
column per measure and value (``ROUGE-1_f``; JSONL nests ``{"ROUGE-1": {"f": ...}}``, which
flattens to the same names): ``rougekit correlate`` reads them as they are.
"""

from __future__ import annotations

import csv
import functools
import io
import json

from rougekit.io.rouge155_export import eval_ids
from rougekit.report.rouge155 import DOTS, RULE, average_lines, by_eval_id, eval_line
from rougekit.results import AVERAGE_NAMES, RougeResult

KEYS = ("recall", "precision", "f")

AVERAGE_LABELS = AVERAGE_NAMES  # what the corpus recall/precision/f of each `average` setting are


def value_text(value: float) -> str:
    """A corpus or per-pair value as the text table prints it (5 decimals); the HTML report uses it too."""
    return f"{value:.5f}"


def average_label(result: RougeResult) -> str:
    return AVERAGE_LABELS.get(result.average, result.average)


def pair_counts(results: dict[str, RougeResult]) -> dict[str, int]:
    """How many pairs each system's result scored."""
    return {name: r.total_pairs for name, r in results.items()}


def scored_line(results: dict[str, RougeResult]) -> str:
    """What a report scored, as its text header says it: ``scored: 2 systems, 100 pairs each``."""
    counts = pair_counts(results)
    systems = f"{len(counts)} system" + ("s" if len(counts) != 1 else "")
    if len(set(counts.values())) == 1:
        n = next(iter(counts.values()))
        return f"scored: {systems}, {n} pair{'s' if n != 1 else ''}{' each' if len(counts) > 1 else ''}"
    return f"scored: {systems}: " + ", ".join(f"{name} {n} pairs" for name, n in counts.items())


def pair_rows(results: dict[str, RougeResult]) -> list[dict]:
    """One row per system and summary: ``{"system", "instance", measure: {"recall", "precision", "f"} or
    {"score"}}``."""
    rows = []
    for name, r in results.items():
        for i, p in zip(r.ids, r.per_pair()):
            rows.append({"system": name, "instance": i, **p})
    return rows


def pair_columns(measures) -> tuple[list[int], list[str]]:
    """The per-pair columns (after ``system`` and ``instance``): each one's flat index into a pair's
    measures x 6 values (as ``RougeResult.data``) and its name, ``ROUGE-1_recall``... or the name of
    a single-valued measure."""
    cells: list[int] = []
    names: list[str] = []
    for j, m in enumerate(measures):
        if m.single_valued:
            cells.append(6 * j + 5)
            names.append(m.name)
        else:
            cells += [6 * j + 3, 6 * j + 4, 6 * j + 5]
            names += [f"{m.name}_{k}" for k in KEYS]
    return cells, names


class PairRowWriter:
    """The per-pair rows of ``to_csv``/``to_jsonl`` (``per_pair``), written chunk by chunk while
    scoring, so that no row is kept: the same text, for any number of pairs in flat memory."""

    FORMATS = ("csv", "jsonl")

    def __init__(self, handle, fmt: str, measures):
        self.handle, self.fmt, self.measures = handle, fmt, list(measures)
        self._cells, names = pair_columns(self.measures)
        if fmt == "csv":
            self._csv = csv.writer(handle, lineterminator="\n")
            self._csv.writerow(["system", "instance", *names])

    def write(self, system: str, first: int, data, ids: list[str] | None = None) -> None:
        """The rows of ``data`` (n x measures x 6, as ``RougeResult.data``): instances ``ids``, or
        ``first``, ``first + 1``, ... without them."""
        names = ids if ids is not None else [str(first + k) for k in range(len(data))]
        if self.fmt == "csv":
            self._write_csv(system, names, data.reshape(len(data), -1)[:, self._cells])
            return
        values = data.reshape(len(data), -1)[:, self._cells].tolist()
        lines = []
        for name, row in zip(names, values):
            out: dict = {"system": system, "instance": name}
            cells = iter(row)
            for m in self.measures:
                out[m.name] = {"score": next(cells)} if m.single_valued else dict(zip(KEYS, cells))
            lines.append(json.dumps(out, ensure_ascii=False) + "\n")
        self.handle.write("".join(lines))

    def _write_csv(self, system: str, names: list[str], values) -> None:
        """The csv rows, as ``csv.writer`` writes them: each distinct value formatted once (a column
        holds a few thousand distinct ratios), the system's and instances' fields quoted by ``csv``."""
        import numpy as np

        if np.signbit(values).any() or any(map(_needs_quotes, names)):  # -0.0 and 0.0: one value to np.unique
            self._csv.writerows([system, name, *row] for name, row in zip(names, values.tolist()))
            return
        distinct, where = np.unique(values, return_inverse=True)
        shown = np.array([repr(x) for x in distinct.tolist()], dtype=object)
        head = io.StringIO()
        csv.writer(head, lineterminator="\n").writerow([system, ""])  # "system," quoted as csv quotes it
        prefix = head.getvalue()[:-1]
        lines = [
            f"{prefix}{name},{','.join(row)}\n" for name, row in zip(names, shown[where.reshape(values.shape)].tolist())
        ]
        self.handle.write("".join(lines))


def _needs_quotes(field: str) -> bool:
    """Whether ``csv.writer`` (the excel dialect, minimal quoting) quotes this field of a longer row."""
    return any(c in field for c in ',"\r\n')


def to_json(results: dict[str, RougeResult], per_pair: bool = False) -> str:
    """``{"signature", "average", "scored": {"systems": count, "pairs": {system: count}}, "systems":
    {system: {measure: {...}}}, "per_pair"?}``."""
    first = next(iter(results.values()))
    out: dict = {
        "signature": str(first.signature),
        "average": average_label(first),  # of the recall, precision and f measures
        **_single_valued_json(first.measures),
        "scored": {"systems": len(results), "pairs": pair_counts(results)},
        "systems": {name: r.to_dict() for name, r in results.items()},
    }
    if per_pair:
        out["per_pair"] = {
            name: [dict(instance=i, **p) for i, p in zip(r.ids, r.per_pair())] for name, r in results.items()
        }
    return json.dumps(out, indent=2, ensure_ascii=False) + "\n"


def to_jsonl(results: dict[str, RougeResult], per_pair: bool = False) -> str:
    """One JSON object a line: per system (``{"system", measure: {...}, "average", "pairs", "signature"}``),
    or with ``per_pair`` per summary (``{"system", "instance", measure: {...}}``)."""
    if per_pair:
        rows = pair_rows(results)
    else:
        rows = [
            {
                "system": name,
                **r.to_dict(),
                "average": average_label(r),
                **_single_valued_json(r.measures),
                "pairs": r.total_pairs,
                "signature": str(r.signature),
            }
            for name, r in results.items()
        ]
    return "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows)


def to_csv(results: dict[str, RougeResult], per_pair: bool = False) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    if per_pair:
        first = next(iter(results.values()))
        columns = []
        for m in first.measures:
            columns += [m.name] if m.single_valued else [f"{m.name}_{k}" for k in KEYS]
        writer.writerow(["system", "instance", *columns])
        for row in pair_rows(results):
            cells = []
            for m in first.measures:
                v = row[m.name]
                cells += [v["score"]] if m.single_valued else [v[k] for k in KEYS]
            writer.writerow([row["system"], row["instance"], *cells])
        return buffer.getvalue()
    writer.writerow(
        [
            "system",
            "measure",
            "recall",
            "precision",
            "f",
            "score",
            "average",
            "recall_low",
            "recall_high",
            "precision_low",
            "precision_high",
            "f_low",
            "f_high",
            "pairs",
            "signature",
        ]
    )
    for name, r in results.items():
        for measure, v in r.to_dict().items():
            iv = v.get("interval", {})
            bounds = []
            for k in KEYS:
                bounds += [iv[k]["low"], iv[k]["high"]] if k in iv else ["", ""]
            writer.writerow(
                [
                    name,
                    measure,
                    v.get("recall", ""),
                    v.get("precision", ""),
                    v.get("f", ""),
                    v.get("score", ""),
                    "" if "score" in v else average_label(r),
                    *bounds,
                    r.total_pairs,
                    str(r.signature),
                ]
            )
    return buffer.getvalue()


def _single_valued_json(measures) -> dict:
    """``{"corpus_score": {measure: what its corpus score is}}`` for the single-valued measures (BLEU:
    corpus BLEU, not the "average" of the others), or nothing when there are none."""
    said = {m.name: m.corpus_what for m in measures if m.single_valued}
    return {"corpus_score": said} if said else {}


def _single_valued_lines(measures) -> list[str]:
    """What the corpus score of each single-valued measure is (corpus BLEU, a mean of per-pair scores
    under every --average): one header line per kind of value."""
    said: dict[str, list[str]] = {}
    for m in measures:
        if m.single_valued:
            said.setdefault(m.corpus_what, []).append(m.name)
    return [f"corpus score of {', '.join(names)}: {what}" for what, names in said.items()]


def to_text(results: dict[str, RougeResult], per_pair: bool = False) -> str:
    first = next(iter(results.values()))
    lines = []
    width = max([len("system")] + [len(n) for n in results])
    header = f"{'system':<{width}}  {'measure':<12} {'recall':>8} {'precision':>9} {'f':>8}"
    level = None
    for r in results.values():  # only the f intervals are printed: only they are resampled
        for m in r.measures:
            iv = r.interval(m.name, "f") if not m.single_valued else None
            if iv is not None:
                level = iv.level
                break
        if level is not None:
            break
    if level is not None:
        header += f"   {level:g}% interval of f"
    lines.append(scored_line(results))
    if any(not m.single_valued for m in first.measures):
        lines.append(f"corpus recall, precision, f: {average_label(first)}")
    lines += _single_valued_lines(first.measures)
    lines.append(header)
    for name, r in results.items():
        for m in r.measures:
            measure, v = m.name, r.corpus(m.name)
            if "score" in v:
                lines.append(f"{name:<{width}}  {measure:<12} {'score':>8} {value_text(v['score']):>9}")
                continue
            rec, prec, f = (value_text(v[k]) for k in KEYS)
            line = f"{name:<{width}}  {measure:<12} {rec:>8} {prec:>9} {f:>8}"
            iv = r.interval(measure, "f")
            if iv is not None:
                line += f"   [{value_text(iv.low)}, {value_text(iv.high)}]"
            lines.append(line)
        if per_pair:
            for i, p in zip(r.ids, r.per_pair()):
                i = i if i.isprintable() else i.encode("unicode_escape").decode("ascii")  # one line a row
                for measure, s in p.items():
                    if "score" in s:
                        lines.append(f"{name:<{width}}  {measure:<12} {'score':>8} {s['score']:9.5f}   instance {i}")
                        continue
                    lines.append(
                        f"{name:<{width}}  {measure:<12} {s['recall']:8.5f} {s['precision']:9.5f} "
                        f"{s['f']:8.5f}   instance {i}"
                    )
    lines.append(f"signature: {first.signature}")
    return "\n".join(lines) + "\n"


#: the script's order of its measures' blocks (-n, L, -w, -2, -U/-u, -3); other kinds follow
_SCRIPT_KINDS = ("N", "L", "W", "S", "SU", "BE")


def _script_order(m) -> tuple:
    rank = _SCRIPT_KINDS.index(m.kind) if m.kind in _SCRIPT_KINDS else len(_SCRIPT_KINDS)
    return (rank, m.n or 0) if m.kind == "N" else (rank, 0)


def to_rouge155(results: dict[str, RougeResult], per_pair: bool = False) -> str:
    """The ROUGE-1.5.5 stdout layout (needs the script's bootstrap: ``bootstrap='rouge155'``), the
    measures' blocks in the script's order (ROUGE-N by N, L, W, S, SU, BE) whatever ``measures=`` says."""
    lines = []
    for name, r in results.items():
        for m in sorted(r.measures, key=_script_order):
            if m.single_valued:
                continue  # not part of the ROUGE-1.5.5 layout
            lines.append(RULE)
            avg, iv = r.rouge155_averages.get(m.name), r.intervals.get(m.name)
            level = f"{iv['f'].level:g}" if iv else "95"
            mean = avg or r.corpus(m.name)
            values = [mean[k] for k in KEYS]
            lows = [iv[k].low for k in KEYS] if iv else values
            highs = [iv[k].high for k in KEYS] if iv else values
            lines.extend(average_lines(f"{name} {m.name}", values, lows, highs, level))
            if per_pair:
                lines.append(DOTS)
                ids = eval_ids(r.id_list, len(r))
                for k in sorted(range(len(ids)), key=functools.cmp_to_key(lambda a, b: by_eval_id(ids[a], ids[b]))):
                    i, s = ids[k], r.pairs[k][m.name]
                    lines.append(
                        eval_line(
                            f"{name} {m.name}", f"{i}.{name}", *(f"{v:7.5f}" for v in (s.recall, s.precision, s.f))
                        )
                    )
    return "\n".join(lines) + "\n"


WRITERS = {"text": to_text, "json": to_json, "jsonl": to_jsonl, "csv": to_csv, "rouge155": to_rouge155}
