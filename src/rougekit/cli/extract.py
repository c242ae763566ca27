"""``rougekit extract``: the best-matching choices of each query (rougekit.process, e.g. to find
evaluation items that leak into training data).

    rougekit extract test.jsonl train.jsonl --field instruction --limit 3 --score-cutoff 0.7 -o matches.jsonl
"""

from __future__ import annotations

import argparse
import json
import warnings

import numpy as np

from rougekit.cli._options import add_text_place, command_parser, input_files, lang_option, refuse_output_over_input
from rougekit.cli._output import output_file
from rougekit.cli.dedup import check_measure, read_rows
from rougekit.errors import OptionError, RougeKitWarning

_BLOCK = 256  # queries scored at a time


def build_parser() -> argparse.ArgumentParser:
    parser = command_parser(
        prog="rougekit extract",
        description="For each query, the choices with the best score (best first, the earlier one on ties).",
        epilog="""examples:
  rougekit extract questions.txt corpus.txt --limit 3
  rougekit extract test.jsonl train.jsonl --field instruction --score-cutoff 0.7 -o leaks.jsonl

Both files have the same format: one text per line, JSON with --field (JSONL, a JSON array or
column-shaped JSON), or CSV, Parquet or Arrow IPC with --column; measures as for `rougekit dedup`.
A "where" of a Parquet/Arrow row is "row 3" (its line is its row number, from 1).
Output: one JSON object per query (query_index, query_line, query_where, query, matches: index, line,
where, score, choice; a "where" is "line 3", "item 3" or "item 3 (line 5)"), each query scored as the
candidate against each choice as its reference.
""",
    )
    parser.add_argument("queries", help="the queries ('-' for standard input)")
    parser.add_argument("choices", help="the texts to search")
    add_text_place(parser)
    parser.add_argument("--measure", default="rougeL", help="rougeL (rouge-score's, default) or a rougekit measure")
    parser.add_argument("--stat", default="f", choices=["f", "recall", "precision"], help="which score (default f)")
    parser.add_argument("--limit", type=int, default=5, help="matches per query (default 5)")
    parser.add_argument("--score-cutoff", type=float, default=None, help="leave out matches scoring below this")
    parser.add_argument("--stem", action="store_true", help="stem tokens (rougeL: rouge-score's use_stemmer)")
    parser.add_argument(
        "--lang", metavar="LANG", help="a language preset (rougekit measures only, e.g. --measure ROUGE-L --lang zh)"
    )
    parser.add_argument("-q", "--quiet", action="store_true", help="no warnings on stderr")
    parser.add_argument("-o", "--output", default="-", help="where the matches go (default: standard output)")
    return parser


def run(argv: list[str]) -> int:
    args = build_parser().parse_args(argv)
    if args.quiet:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RougeKitWarning)
            return _run(args)
    return _run(args)


def _run(args) -> int:
    from rougekit.process import Encoder, nearest
    from rougekit.process.blocks import check_threshold
    from rougekit.process.core import matrix, row_order

    if args.limit < 1:
        raise OptionError(f"--limit must be at least 1, got {args.limit}")
    if args.score_cutoff is not None:
        check_threshold(args.score_cutoff, "--score-cutoff")
    check_measure(args.measure)
    refuse_output_over_input(args.output, input_files(args))
    queries = read_rows(args.queries, args.field, args.column)
    choices = read_rows(args.choices, args.field, args.column)
    options: dict = {"stem": True} if args.stem else {}
    if args.lang:
        options["lang"] = lang_option(args.lang, args.measure)
    encoder = Encoder(args.measure, **options)
    encoder.warn_unread(list(queries.texts) + list(choices.texts))
    c = encoder.encode(choices.texts, "choices")
    q_all = encoder.encode(queries.texts, "queries")
    encoder.say_wordless()
    near = None
    if args.measure == "rougeL" and nearest.worth_it(len(q_all), len(c), args.stat, args.score_cutoff):
        near = nearest.Nearest(q_all, c, args.score_cutoff, workers=-1)  # only the pairs at or above the cutoff
    with output_file(args.output) as out:  # written whole or not at all (Ctrl-C, SIGTERM, a full disk)
        for start in range(0, len(q_all), _BLOCK):
            stop = min(len(q_all), start + _BLOCK)
            if near is not None:
                best = near.best(start, stop, args.limit)
            else:
                scores = matrix(
                    encoder,
                    queries.texts[start:stop],
                    choices.texts,
                    q_all.slice(start, stop),
                    c,
                    stat=args.stat,
                    score_cutoff=args.score_cutoff,
                    dtype=np.float64,
                    workers=-1,
                )
                orders = [row_order(row, args.limit, args.score_cutoff) for row in scores]
                best = [(order, row[order]) for order, row in zip(orders, scores)]
            for r, (found, values) in enumerate(best):
                i = start + r
                record = {
                    "query_index": i,
                    "query_line": queries.lines[i],
                    "query_where": queries.places[i],
                    "query": queries.texts[i],
                    "matches": [
                        {
                            "index": j,
                            "line": choices.lines[j],
                            "where": choices.places[j],
                            "score": score,
                            "choice": choices.texts[j],
                        }
                        for j, score in zip(found.tolist(), values.tolist())
                    ],
                }
                out.write(json.dumps(record, ensure_ascii=False) + "\n")
    return 0
