"""`rougekit correlate METRICS HUMAN`: correlation of metric scores with human judgments.

Both files are CSV or JSONL tables with a ``system`` column, an optional ``instance`` column and
score columns (see :mod:`rougekit.meta.tables`). Every metric column is correlated with every
human column at one level (system, summary or global) with one or more coefficients, optionally
with a bootstrap or Fisher-z confidence interval.

JSON output: ``{metric column: {human column: {coefficient: value}}}``, where value is a number
(``null`` if undefined) or, with ``--ci``, ``{"value", "low", "high", "level", "method", ...}``
(``level`` is the confidence in percent; bootstrap adds ``resample``, ``samples``, ``seed`` and
``n_valid``, Fisher adds ``n``).
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import math
import sys
from pathlib import Path

from rougekit import limits
from rougekit.cli._options import add_repeated, comma_list, command_parser
from rougekit.errors import OptionError
from rougekit.meta.bootstrap import RESAMPLE_UNITS, correlation_ci
from rougekit.meta.correlation import LEVELS, canonical_coefficient, correlate, why_undefined
from rougekit.meta.tables import align_tables, read_table

PROG = "rougekit correlate"
EXAMPLES = """examples:
  # per-summary ROUGE from `rougekit score` (rows keyed by system and instance) against human scores
  rougekit score -c a.txt -c b.txt -r ref.txt --format csv --per-pair -o scores.csv
  rougekit correlate scores.csv human.csv --level summary --coefficient kendall
  # system level with 95% bootstrap intervals, JSON output
  rougekit correlate metrics.csv human.csv --level system --ci bootstrap --format json
"""


def _build_parser() -> argparse.ArgumentParser:
    p = command_parser(
        prog=PROG,
        description="Correlate metric scores with human judgments (system, summary or global level).",
        epilog=EXAMPLES,
    )
    p.add_argument(
        "metrics",
        metavar="METRICS",
        help="metric scores: CSV, JSON or Parquet/Arrow (score --per-pair --format parquet; by its first bytes) "
        "('-': standard input, CSV or JSON)",
    )
    p.add_argument(
        "human",
        metavar="HUMAN",
        help="human scores: CSV, JSON (JSONL, an array of objects, or columns) or Parquet/Arrow",
    )
    p.add_argument(
        "--level",
        default="system",
        choices=LEVELS,
        help="system: correlate per-system means; summary: per instance across systems, "
        "averaged; global: all cells (default: system)",
    )
    p.add_argument(
        "--coefficient",
        default="pearson,spearman,kendall",
        help="comma-separated: pearson, spearman, kendall (tau-b), kendall_c (default: pearson,spearman,kendall)",
    )
    p.add_argument("--format", default="text", choices=("json", "csv", "text"), help="output format (default: text)")
    p.add_argument(
        "--ci", default="none", choices=("bootstrap", "fisher", "none"), help="confidence interval (default: none)"
    )
    p.add_argument("--resample", default="both", choices=RESAMPLE_UNITS, help="bootstrap unit (default: both)")
    p.add_argument("--samples", type=int, default=1000, help="bootstrap samples (default: 1000)")
    p.add_argument("--seed", type=int, default=0, help="bootstrap seed (default: 0)")
    p.add_argument("--confidence", type=float, default=95.0, help="confidence level in percent (default: 95)")
    p.add_argument("--metric-columns", default=None, help="comma-separated metric columns (default: all score columns)")
    p.add_argument("--human-columns", default=None, help="comma-separated human columns (default: all score columns)")
    p.add_argument("--system-column", default="system", help="system column name (default: system)")
    p.add_argument(
        "--instance-column", default="instance", help="instance column name, used when present (default: instance)"
    )
    p.add_argument(
        "--plot",
        default=None,
        metavar="PREFIX",
        help="also write PREFIX-<metric>-<human>-scatter.png and -rank.png (needs matplotlib)",
    )
    add_repeated(
        p,
        "--where",
        metavar="COLUMN=VALUE",
        help="keep only rows whose COLUMN equals VALUE, in both files (repeatable)",
    )
    return p


def _parse_where(items: list[str]) -> dict[str, str]:
    out = {}
    for item in items:
        if "=" not in item:
            raise OptionError(f"--where needs COLUMN=VALUE, got {item!r}")
        key, value = item.split("=", 1)
        out[key.strip()] = value.strip()
    return out


def _num(v: float) -> float | None:
    return None if v is None or (isinstance(v, float) and math.isnan(v)) else float(v)


def _fmt(v, digits: int = 4) -> str:
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return "nan"
    return f"{v:.{digits}f}"


def _safe(name: str) -> str:
    return "".join(c if c.isalnum() or c in "-_." else "_" for c in name)


def run(argv: list[str]) -> int:
    args = _build_parser().parse_args(argv)

    coefficients = []
    for name in comma_list(args.coefficient, "--coefficient") or []:
        c = canonical_coefficient(name)
        if c not in coefficients:
            coefficients.append(c)
    limits.whole("--samples", args.samples, 1, limits.MAX_RESAMPLES)
    limits.whole("--seed", args.seed, 0, limits.MAX_SEED)
    if not 0.0 < args.confidence < 100.0:
        raise OptionError(f"--confidence must be between 0 and 100, got {args.confidence:g}")
    if args.confidence < 1.0:
        raise OptionError(f"--confidence is a percentage (e.g. 95), got {args.confidence:g}")
    bootstrap_only = {"--resample": args.resample != "both", "--samples": args.samples != 1000, "--seed": args.seed}
    given = [flag for flag, changed in bootstrap_only.items() if changed]
    if given and args.ci != "bootstrap":  # accepted and ignored before
        raise OptionError(f"{given[0]} applies to --ci bootstrap (the intervals are {args.ci})")
    if args.confidence != 95.0 and args.ci == "none":
        raise OptionError("--confidence applies to --ci bootstrap or fisher (no interval is computed)")
    if args.ci == "fisher" and args.level == "summary":  # checked before any file is read or plot written
        raise OptionError("Fisher intervals need one n: use --level system or global, or --ci bootstrap")
    where = _parse_where(args.where)

    metric_cols = comma_list(args.metric_columns, "--metric-columns")
    human_cols = comma_list(args.human_columns, "--human-columns")
    same_file = Path(args.metrics).resolve() == Path(args.human).resolve()
    common = dict(system_column=args.system_column, instance_column=args.instance_column, where=where)
    human = read_table(args.human, columns=human_cols, **common)
    if same_file and metric_cols is None and human_cols is not None:
        # one file holding both: the metric columns are the others
        metric_cols = [c for c in read_table(args.metrics, **common).columns if c not in human_cols]
        if not metric_cols:
            raise OptionError(f"{args.metrics}: no metric columns besides the human columns")
    metrics = read_table(args.metrics, columns=metric_cols, **common)
    aligned = align_tables(metrics, human)
    if args.plot:
        from rougekit.meta.plots import rank_plot, scatter_by_system

        for mcol in metrics.columns:
            for hcol in human.columns:
                stem = f"{args.plot}-{_safe(mcol)}-{_safe(hcol)}"
                names = dict(metric_name=mcol, human_name=hcol)
                scatter_by_system(
                    aligned.metric[mcol], aligned.human[hcol], aligned.systems, f"{stem}-scatter.png", **names
                )
                rank_plot(aligned.metric[mcol], aligned.human[hcol], aligned.systems, f"{stem}-rank.png", **names)
                print(f"{PROG}: wrote {stem}-scatter.png and {stem}-rank.png", file=sys.stderr)

    results: dict[str, dict[str, dict]] = {}
    undefined: list[str] = []  # why a system-level correlation is nan, said with the notes
    for mcol in metrics.columns:
        for hcol in human.columns:
            X = aligned.metric[mcol]
            Y = aligned.human[hcol]
            why = why_undefined(X, Y) if args.level == "system" else None
            if why:
                undefined.append(f"{mcol} against {hcol}: {why}")
            row = results.setdefault(mcol, {}).setdefault(hcol, {})
            for coef in coefficients:
                if args.ci == "none":
                    row[coef] = {"value": correlate(X, Y, args.level, coef)}
                else:
                    ci = correlation_ci(
                        X,
                        Y,
                        args.level,
                        coef,
                        method=args.ci,
                        resample_unit=args.resample,
                        samples=args.samples,
                        seed=args.seed,
                        confidence=args.confidence,
                    )
                    d = ci.to_dict()
                    d.pop("coefficient", None)
                    d.pop("correlation_level", None)
                    row[coef] = d

    for line in [*aligned.report(), *undefined]:  # after every step that can fail: an error is a failed run's only line
        print(f"{PROG}: note: {line}", file=sys.stderr)
    out = sys.stdout
    flat = [(m, h, c, v) for m, mv in results.items() for h, hv in mv.items() for c, v in hv.items()]
    if args.format == "json":
        payload = {
            m: {
                h: {
                    c: (
                        _num(v["value"])
                        if args.ci == "none"
                        else {k: (_num(x) if isinstance(x, float) else x) for k, x in v.items()}
                    )
                    for c, v in hv.items()
                }
                for h, hv in mv.items()
            }
            for m, mv in results.items()
        }
        json.dump(payload, out, indent=2, allow_nan=False)
        out.write("\n")
    elif args.format == "csv":
        buf = io.StringIO()
        writer = csv.writer(buf, lineterminator="\n")
        header = ["metric", "human", "level", "coefficient", "value"]
        if args.ci != "none":
            header += ["low", "high", "confidence", "method"]
        writer.writerow(header)
        for m, h, c, v in flat:
            cells = [m, h, args.level, c, _csv_num(v["value"])]
            if args.ci != "none":
                cells += [_csv_num(v["low"]), _csv_num(v["high"]), f"{v['level']:g}", v["method"]]
            writer.writerow(cells)
        out.write(buf.getvalue())
    else:
        n_sys = len(aligned.systems)
        n_inst = len(aligned.instances) if aligned.instances is not None else 1
        title = f"{args.level}-level correlation ({n_sys} systems, {n_inst} instances)"
        if args.ci == "bootstrap":
            title += (
                f"; {args.confidence:g}% bootstrap CI, resampling {args.resample}, "
                f"{args.samples} samples, seed {args.seed}"
            )
        elif args.ci == "fisher":
            title += f"; {args.confidence:g}% Fisher-z CI"
        rows = []
        for m, h, c, v in flat:
            r = [m, h, c, _fmt(v["value"])]
            if args.ci != "none":
                r.append(f"[{_fmt(v['low'])}, {_fmt(v['high'])}]")
            rows.append(r)
        head = ["metric", "human", "coefficient", "value"] + (["interval"] if args.ci != "none" else [])
        widths = [max(len(head[k]), *(len(r[k]) for r in rows)) for k in range(len(head))]
        out.write(title + "\n")
        out.write("  ".join(h.ljust(w) for h, w in zip(head, widths)).rstrip() + "\n")
        for r in rows:
            out.write("  ".join(x.ljust(w) for x, w in zip(r, widths)).rstrip() + "\n")
    return 0


def _csv_num(v) -> str:
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return ""
    return repr(float(v))
