"""``rougekit report``: one self-contained HTML file of one or more systems over the same references.

It reads its inputs with the options of ``rougekit score`` (the same parser and readers), scores
them with :class:`rougekit.Scorer`, and writes :func:`rougekit.report.html.build`; or it reads a
result saved by ``rougekit score --format json --per-pair``.
"""

from __future__ import annotations

import argparse
import sys

from rougekit.cli import score
from rougekit.cli._options import input_files, refuse_output_over_input
from rougekit.errors import OptionError
from rougekit.io.files import write_text
from rougekit.report import html, html_explain, html_model

EXAMPLES = r"""examples:
  # two systems, the same references: tables, intervals, ranks, significance, distributions, examples
  rougekit report -c a.txt -c b.txt -r ref.txt --stem --measures ROUGE-1,ROUGE-2,ROUGE-L -o report.html
  # JSONL with a field per system
  rougekit report --jsonl runs.jsonl --candidate-field base --candidate-field new --reference-field refs -o report.html
  # a saved result (no texts in it: tables, tests and distributions only)
  rougekit score -c a.txt -c b.txt -r ref.txt --format json --per-pair -o scores.json
  rougekit report --result scores.json -o report.html
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
    return parser


# what --result keeps of the command line: the output, the report's own options and the tests' seed/level
_WITH_RESULT = {"result", "output", "trials", "highlights", "title", "seed", "confidence", "quiet", "help"}


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
        results = {name: scorer.score(c, refs, ids=ids, sources=sources, jobs=args.jobs) for name, c in systems.items()}
        data = html_model.from_results(results, systems, refs)
    text = html.build(
        data, trials=args.trials, seed=args.seed, confidence=args.confidence, title=args.title, highlights=budget
    )
    if args.output == "-":
        sys.stdout.write(text)
    else:
        write_text(args.output, text)
    return 0
