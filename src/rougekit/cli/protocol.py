"""`rougekit protocol --dataset KIND PATH`: the Lin (2004) §6 meta-evaluation in one command.

Scores a grid of ROUGE measures x {plain, stem, stop} x {one reference, all references} on a
dataset with human judgments and correlates each with each human score column (system level by
default; Pearson, Spearman, Kendall) with seeded bootstrap intervals; per column the best value is
marked ``*`` and the values not significantly worse than it ``+``. See
:mod:`rougekit.meta.protocol` and docs/protocol.md.

Example (SummEval, system-level Kendall tau of ROUGE-1/2/L with the four expert scores)::

    rougekit protocol --dataset summeval ../shared/data/summeval/summeval.jsonl \\
        --measures ROUGE-1,ROUGE-2,ROUGE-L --coefficient kendall --variants stem --refs all
"""

from __future__ import annotations

import argparse
import sys

from rougekit import limits
from rougekit.cli._options import comma_list, command_parser, multi_ref_choices, multi_ref_help, write_output
from rougekit.errors import OptionError
from rougekit.measures import split_measure_list
from rougekit.meta.bootstrap import RESAMPLE_UNITS
from rougekit.meta.protocol import (
    DEFAULT_MEASURES,
    DEFAULT_VARIANTS,
    LOADERS,
    REFS,
    RULES,
    SCORES,
    VARIANTS,
    format_csv,
    format_json,
    format_text,
    load_dataset,
    run_protocol,
)

PROG = "rougekit protocol"


def _build_parser() -> argparse.ArgumentParser:
    p = command_parser(
        prog=PROG,
        description="Correlate a grid of ROUGE variants with human judgments (Lin 2004, section 6).",
        epilog="""examples:
  rougekit protocol --dataset summeval summeval.jsonl --human relevance --coefficient pearson,kendall
  rougekit protocol --dataset summeval summeval.jsonl --measures ROUGE-1,ROUGE-2,ROUGE-L --variants stem --refs all
  rougekit protocol --dataset jsonl judged.jsonl --level summary --format csv -o table.csv
""",
    )
    p.add_argument(
        "path",
        metavar="PATH",
        help="summeval: summeval.jsonl; realsumm: the REALSumm data directory; jsonl: "
        "one row per (system, instance), see docs/protocol.md",
    )
    p.add_argument("--dataset", required=True, choices=tuple(LOADERS), help="layout of PATH")
    p.add_argument("--human", default=None, help="comma-separated human score columns (default: all of the dataset's)")
    p.add_argument(
        "--level", default="system", choices=("system", "summary"), help="correlation level (default: system)"
    )
    p.add_argument(
        "--coefficient",
        default="pearson,spearman,kendall",
        help="comma-separated: pearson, spearman, kendall (default: all three)",
    )
    p.add_argument(
        "--measures",
        default=None,
        help="comma-separated ROUGE measures (default: ROUGE-1..9, L, W-1.2, S1/S4/S9/S*, SU1/SU4/SU9/SU*)",
    )
    p.add_argument(
        "--variants",
        default=",".join(DEFAULT_VARIANTS),
        help="comma-separated preprocessing: plain (as is), stem (Porter), stop "
        "(stopwords removed), stemstop (default: plain,stem,stop)",
    )
    p.add_argument(
        "--refs", default="one,all", help="comma-separated: one (the first reference), all (default: one,all)"
    )
    p.add_argument(
        "--score",
        default="recall",
        choices=SCORES,
        help="which ROUGE number is correlated (default: recall, as in Lin 2004)",
    )
    p.add_argument(
        "--multi-ref",
        default="sum",
        choices=multi_ref_choices(),
        help=multi_ref_help() + " (default: sum)",
    )
    p.add_argument("--format", default="text", choices=("text", "json", "csv"), help="output format (default: text)")
    p.add_argument("--output", "-o", default=None, help="write to this file (default: stdout)")
    p.add_argument("--intervals", action="store_true", help="text: show the intervals too")
    p.add_argument("--digits", type=int, default=3, help="text: decimals (default: 3)")
    p.add_argument("--seed", type=int, default=0, help="bootstrap seed (default: 0)")
    p.add_argument("--samples", type=int, default=1000, help="bootstrap samples (default: 1000)")
    p.add_argument("--confidence", type=float, default=95.0, help="interval level in percent (default: 95)")
    p.add_argument("--resample", default="systems", choices=RESAMPLE_UNITS, help="bootstrap unit (default: systems)")
    p.add_argument(
        "--rule",
        default="overlap",
        choices=RULES,
        help="'not significantly worse than the best': overlap (intervals overlap, "
        "default), paired (paired bootstrap), williams (Williams' test)",
    )
    p.add_argument("--instances", type=int, default=None, help="use only the first N instances (quick runs)")
    p.add_argument("--systems", default=None, help="comma-separated systems to keep")
    p.add_argument("--jobs", type=int, default=1, help="processes for scoring, one setting each (default: 1)")
    p.add_argument("--quiet", action="store_true", help="no timing line on stderr")
    return p


def run(argv: list[str]) -> int:
    args = _build_parser().parse_args(argv)
    limits.whole("--samples", args.samples, 1, limits.MAX_RESAMPLES)
    limits.whole("--seed", args.seed, 0, limits.MAX_SEED)
    if not 1.0 <= args.confidence < 100.0:
        raise OptionError(f"--confidence is a percentage between 1 and 100, got {args.confidence:g}")
    if args.jobs < 1:
        raise OptionError(f"--jobs must be positive, got {args.jobs}")
    if args.instances is not None and args.instances < 1:
        raise OptionError(f"--instances must be positive, got {args.instances}")
    if args.digits < 0 or args.digits > 10:
        raise OptionError(f"--digits must be within 0 and 10, got {args.digits}")
    if args.format != "text" and (args.intervals or args.digits != 3):
        flag = "--intervals" if args.intervals else "--digits"
        raise OptionError(f"{flag} applies to --format text (json and csv hold every value and interval in full)")
    variants = comma_list(args.variants, "variant")
    for v in variants:
        if v.lower() not in VARIANTS:
            raise OptionError(f"unknown variant {v!r} (choose from {', '.join(VARIANTS)})")
    refs = comma_list(args.refs, "reference setting")
    for r in refs:
        if r.lower() not in REFS:
            raise OptionError(f"unknown reference setting {r!r} (choose from one, all)")

    data = load_dataset(args.dataset, args.path)
    if args.instances is not None or args.systems is not None:
        data = data.subset(args.instances, comma_list(args.systems, "system"))
    result = run_protocol(
        data,
        measures=split_measure_list(args.measures) if args.measures is not None else DEFAULT_MEASURES,
        variants=variants,
        refs=refs,
        humans=comma_list(args.human, "human column"),
        level=args.level,
        coefficients=comma_list(args.coefficient, "coefficient"),
        score=args.score,
        multi_ref=args.multi_ref,
        samples=args.samples,
        seed=args.seed,
        confidence=args.confidence,
        resample=args.resample,
        rule=args.rule,
        jobs=args.jobs,
    )

    if args.format == "json":
        text = format_json(result)
    elif args.format == "csv":
        text = format_csv(result)
    else:
        text = format_text(result, digits=args.digits, intervals=args.intervals)
    write_output(args.output, text)
    if not args.quiet:
        t = result.timings
        n_settings = len({(c.variant, c.refs) for c in result.cells})
        print(
            f"{PROG}: {len(result.systems)} systems x {result.n_instances} instances, "
            f"{len(result.measures)} measures x {n_settings} settings: scoring "
            f"{t.get('scoring', 0):.1f} s, correlations {t.get('correlations', 0):.1f} s, "
            f"total {t.get('total', 0):.1f} s",
            file=sys.stderr,
        )
    return 0
