"""``rougekit report``: one self-contained HTML file of one or more systems over the same references.

It reads its inputs with the options of ``rougekit score`` (the same parser and readers), scores
them with :class:`rougekit.Scorer`, and writes :func:`rougekit.report.html.build`; or it reads a
result saved by ``rougekit score --format json --per-pair``.
"""

from __future__ import annotations

import argparse

from rougekit.cli import score
from rougekit.cli._options import input_files, refuse_output_over_input, write_output
from rougekit.cli._systems import each_system
from rougekit.errors import OptionError
from rougekit.report import html, html_explain, html_model, html_variants

EXAMPLES = r"""examples:
  # two systems, the same references: tables, intervals, ranks, significance, distributions, examples
  rougekit report -c a.txt -c b.txt -r ref.txt --stem --measures ROUGE-1,ROUGE-2,ROUGE-L -o report.html
  # JSONL with a field per system
  rougekit report --jsonl runs.jsonl --candidate-field base --candidate-field new --reference-field refs -o report.html
  # a saved result (no texts in it: tables, tests and distributions only)
  rougekit score -c a.txt -c b.txt -r ref.txt --format json --per-pair -o scores.json
  rougekit report --result scores.json -o report.html
  # with every implementation's numbers on these pairs, and the settings behind a paper's table
  rougekit report -c a.txt -r ref.txt --variants --variants-target R1=39.53,R2=17.28,RL=36.38 -o report.html
"""

_SCORE_ONLY = {"format": "text", "per_pair": False, "export_rouge155": None}  # options of score's output


def build_parser() -> argparse.ArgumentParser:
    parser = score.build_parser()
    parser.prog = "rougekit report"
    parser.description = (
        "One self-contained HTML report (no network): per measure R/P/F as `rougekit score` prints them with "
        "their intervals and the system ranks, pairwise significance between systems, distributions of the "
        "per-pair scores, and a sortable, filterable list of the examples. Inputs as for `rougekit score`."
    )
    parser.epilog = EXAMPLES
    for action in parser._actions:  # score's output options do not apply here
        if action.dest in _SCORE_ONLY:
            action.help = argparse.SUPPRESS
    rep = parser.add_argument_group("report")
    rep.add_argument(
        "--result",
        metavar="FILE",
        help="build the report from a result saved by `rougekit score --format json --per-pair` instead",
    )
    rep.add_argument(
        "--trials",
        type=int,
        default=html.DEFAULT_TRIALS,
        help=f"randomization trials / bootstrap resamples of the pairwise tests (default {html.DEFAULT_TRIALS}; "
        "--seed and --confidence apply to them too)",
    )
    rep.add_argument(
        "--highlights",
        default="all",
        metavar="N|all",
        help="examples whose matched words are marked (default all; N: per measure the best, the worst and the "
        "biggest differences first; 0: none)",
    )
    rep.add_argument("--title", default="rougekit report", help="the page's title")
    var = parser.add_argument_group("which ROUGE? (rougekit variants)")
    var.add_argument(
        "--variants",
        action="store_true",
        help="add, per system, every popular implementation's numbers on these pairs (the table of "
        "`rougekit variants`; its ROUGE-1..4 and ROUGE-L among --measures)",
    )
    var.add_argument("--variants-rows", metavar="NAMES", help="comma-separated row names (default: all)")
    var.add_argument(
        "--variants-target",
        metavar="SPEC",
        help="with --variants: the settings that print a reported table, e.g. R1=39.53,R2=17.28,RL=36.38",
    )
    var.add_argument("--variants-target-stat", default="f", choices=["f", "recall", "precision"], help="default: f")
    return parser


# what --result keeps of the command line: the output, the report's own options and the tests' seed/level
_WITH_RESULT = {"result", "output", "trials", "highlights", "title", "seed", "confidence", "quiet", "help"}
_WITH_RESULT |= {"variants", "variants_rows", "variants_target", "variants_target_stat"}  # refused in run


def _refuse_scoring_options(parser: argparse.ArgumentParser, args) -> None:
    """A saved result was scored already: a scoring or input option given with --result would do nothing."""
    for action in parser._actions:
        if action.dest in _WITH_RESULT or action.dest in _SCORE_ONLY:
            continue
        if getattr(args, action.dest, None) != action.default:
            flag = max(action.option_strings, key=len)
            raise OptionError(f"{flag} does not apply to --result: the saved result was scored with its own options")


def run(argv: list[str]) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    for dest, default in _SCORE_ONLY.items():
        if getattr(args, dest) != default:
            flag = "--" + dest.replace("_", "-")
            raise OptionError(f"{flag} belongs to `rougekit score`; the report is HTML (-o FILE)")
    if not args.output:
        raise OptionError("give the output file with -o FILE (or -o - for standard output)")
    refuse_output_over_input(args.output, [*input_files(args), args.result])
    budget = html_explain.budget_of(args.highlights)
    if (args.variants_target or args.variants_rows or args.variants_target_stat != "f") and not args.variants:
        raise OptionError("--variants-rows, --variants-target and --variants-target-stat go with --variants")
    if args.result and args.variants:
        raise OptionError("--variants needs the texts: give -c/-r, --jsonl, --parquet or --arrow instead of --result")
    if args.result:
        if args.candidates or args.jsonl or args.candidate_dir or args.parquet or args.arrow:
            raise OptionError(
                "--result replaces the inputs: give either --result or -c/--jsonl/--parquet/--arrow/--candidate-dir"
            )
        _refuse_scoring_options(parser, args)
        data = html_model.from_saved(args.result)
    else:
        score._check_stdin(args)
        systems, refs, ids = score._load(args)
        scorer = score._scorer(args)
        sources = score._load_sources(args, len(refs))
        results = {
            name: scorer.score(c, refs, ids=ids, sources=sources, jobs=args.jobs)
            for name, c in each_system(systems.items())
        }
        data = html_model.from_results(results, systems, refs)
    extra = _variants_sections(args, systems, refs) if args.variants else ()
    style = html_variants.STYLE if args.variants else ""
    text = html.build(
        data,
        trials=args.trials,
        seed=args.seed,
        confidence=args.confidence,
        title=args.title,
        highlights=budget,
        sections=extra,
        style=style,
    )
    write_output(args.output, text)
    return 0


def _variants_sections(args, systems: dict, refs) -> tuple:
    """One ``rougekit variants`` section per system (its table, and the target's matches), with what
    ``rougekit variants --format json`` prints for the same pairs and options (--seed, --sentence-sep)."""
    from rougekit.cli import variants as variants_cli
    from rougekit.variants.space import MEASURE_NAMES

    asked = [m.strip() for m in args.measures.split(",") if m.strip()]
    measures = [m for m in _canonical(asked) if m in MEASURE_NAMES]
    if not measures:
        raise OptionError(f"--variants compares {', '.join(MEASURE_NAMES)}; --measures names none of them")
    rows = [r.strip() for r in args.variants_rows.split(",") if r.strip()] if args.variants_rows else None
    out = []
    for k, (name, cands) in enumerate(systems.items()):
        result, data, _ = variants_cli.compute(
            cands,
            refs,
            measures,
            rows=rows,
            seed=args.seed,
            target=args.variants_target,
            target_stat=args.variants_target_stat,
            sentence_sep=args.sentence_sep,
        )
        out.append(
            html_variants.section(
                data,
                stat=args.variants_target_stat,
                system=name if len(systems) > 1 else None,
                anchor="variants" if k == 0 else f"variants-{k + 1}",
                skipped=list(result.skipped) + list(getattr(result.search, "left_out", None) or ()),
            )
        )
    return tuple(out)


def _canonical(names: list) -> list:
    from rougekit.measures import Measure

    out = []
    for name in names:
        try:
            out.append(Measure.parse(name).name)
        except Exception:  # noqa: BLE001 - the scorer names a bad measure itself
            continue
    return list(dict.fromkeys(out))
