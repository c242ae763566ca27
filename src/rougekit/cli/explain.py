"""``rougekit explain``: which words of one candidate matched its references, measure by measure.

One pair given as text (``-c TEXT -r TEXT``) or line N of files (``--line N -c FILE -r FILE``);
the same scoring options as ``rougekit score``. Matched tokens are coloured in a terminal when
``rich`` is installed (the ``rich`` extra), in [brackets] otherwise; ``--format json`` gives
``Explanation.to_dict()``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from dataclasses import replace

from rougekit.cli._options import add_text_options, command_parser, scoring_options, sentence_marker
from rougekit.errors import InputError, OptionError
from rougekit.explanation import explain
from rougekit.io import inputs
from rougekit.measures import split_measure_list
from rougekit.signature import Signature

EXAMPLES = r"""examples:
  rougekit explain -c "police kill the gunman" -r "police killed the gunman" -r "the gunman was shot"
  # line 3 of aligned files (one summary per line), stemmed, as JSON
  rougekit explain --line 3 -c system.txt -r ref.txt --stem --measures ROUGE-1,ROUGE-L,ROUGE-SU4 --format json
"""


def build_parser() -> argparse.ArgumentParser:
    p = command_parser(
        prog="rougekit explain",
        description="Show the tokens each measure saw and the units that matched, for one candidate and its "
        "references (the same options as rougekit score).",
        epilog=EXAMPLES,
    )
    src = p.add_argument_group("the pair (candidate first, references second)")
    src.add_argument("-c", "--candidate", required=True, metavar="TEXT", help="the candidate (a FILE with --line)")
    src.add_argument(
        "-r", "--reference", action="append", required=True, metavar="TEXT", help="a reference; repeat for more"
    )
    src.add_argument("--line", type=int, metavar="N", help="-c and -r name files: explain their line N (from 1)")
    src.add_argument(
        "--source", metavar="TEXT", help="the original text, for SumACCY and WSumACCY (a FILE with --line)"
    )
    src.add_argument(
        "--sentence-sep",
        type=sentence_marker,
        metavar="MARK",
        help="marker splitting sentences, e.g. '<q>' (default: lines)",
    )
    src.add_argument(
        "--encoding-errors",
        choices=["strict", "replace"],
        default="strict",
        help="with --line, invalid UTF-8 in a file: stop with an error naming file and line (strict) or replace it",
    )
    opt = p.add_argument_group("scoring")
    opt.add_argument("--measures", default="ROUGE-1,ROUGE-2,ROUGE-L", help="comma-separated, e.g. ROUGE-1,ROUGE-SU4")
    add_text_options(opt)
    out = p.add_argument_group("output")
    out.add_argument("--format", choices=["text", "json"], default="text")
    out.add_argument(
        "--color",
        choices=["auto", "always", "never"],
        default="auto",
        help="colour the matches (needs rich; auto: when writing to a terminal)",
    )
    return p


def _valid_text(text: str, flag: str) -> str:
    """A text given on the command line, refused when its bytes are not UTF-8 (they arrive as
    surrogate escapes, which no output could print)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        byte = text[exc.start].encode("utf-8", "surrogateescape")
        shown = f"byte 0x{byte.hex()}" if len(byte) == 1 else "a lone surrogate"
        raise InputError(f"{flag} holds invalid UTF-8 ({shown} at character {exc.start + 1})") from None
    return text


def _pair(args) -> tuple[str, list[str], str | None]:
    sep = args.sentence_sep
    if args.line is None:
        if args.encoding_errors != "strict":
            raise OptionError("--encoding-errors applies to files read with --line")
        _not_a_file_name(args)
        _valid_text(args.candidate, "-c")
        for ref in args.reference:
            _valid_text(ref, "-r")
        if args.source is not None:
            _valid_text(args.source, "--source")
        cand = inputs.split_sentences(args.candidate, sep)
        refs = [inputs.split_sentences(r, sep) for r in args.reference]
        return cand, refs, inputs.split_sentences(args.source, sep) if args.source is not None else None
    if args.line < 1:
        raise OptionError(f"--line must be at least 1, got {args.line}")
    if [args.candidate, *args.reference, args.source].count(inputs.STDIN) > 1:
        raise OptionError("standard input (-) can be read only once")
    errors = args.encoding_errors
    picked = [_line(path, args.line, sep, errors) for path in [args.candidate, *args.reference]]
    source = _line(args.source, args.line, sep, errors) if args.source is not None else None
    return picked[0], picked[1:], source


def _not_a_file_name(args) -> None:
    """Without --line, -c/-r/--source are texts: one that is the name of a file (a word naming a regular
    file) is a forgotten --line, not a summary to explain."""
    given = [("-c", args.candidate), *(("-r", r) for r in args.reference), ("--source", args.source)]
    for flag, text in given:
        if text is not None and text.strip() and not any(ch.isspace() for ch in text) and os.path.isfile(text):
            raise OptionError(f"{flag} {text} names a file: add --line N to explain line N of the files")


def _line(path: str, n: int, sep: str | None, errors: str = "strict") -> str:
    lines = inputs.read_lines(path, sep, errors)
    if n > len(lines):
        raise InputError(f"{path} has {len(lines)} lines: there is no line {n}")
    return lines[n - 1]


def run(argv: list[str]) -> int:
    args = build_parser().parse_args(argv)
    candidate, references, source = _pair(args)
    e = explain(
        candidate,
        references,
        split_measure_list(args.measures),
        source=source,
        **scoring_options(args),
    )
    e = replace(e, signature=str(Signature.parse(e.signature).with_sentences(args.sentence_sep)))
    if args.format == "json":
        sys.stdout.write(json.dumps(e.to_dict(), ensure_ascii=False) + "\n")
        return 0
    if _colour(args.color):
        from rougekit.explanation.terminal import show

        show(e, force=args.color == "always")
    else:
        sys.stdout.write(str(e) + "\n")
    return 0


def _colour(choice: str) -> bool:
    if choice == "never":
        return False
    try:
        import rich  # noqa: F401
    except ImportError:
        if choice == "always":
            raise OptionError("--color always needs rich (pip install 'rougekit[rich]')") from None
        return False
    return choice == "always" or sys.stdout.isatty()
