"""Option help shared by the commands: one set of multi-reference names, from the engine."""

from __future__ import annotations

import argparse
import os

from rougekit.cli._output import write_output as write_output  # the commands' (re-exported)
from rougekit.engine.options import MULTI_REF
from rougekit.errors import OptionError

# what each multi-reference rule does, in the words of the help texts
_MULTI_REF_WORDS = {
    "sum": "sum the counts over references (-f A)",
    "best": "the reference with the best recall (-f B)",
    "jackknife": "the paper's leave-one-out mean of best scores",
    "max": "the best F per pair over references (as rouge-score)",
}


def multi_ref_choices() -> list[str]:
    """The multi-reference rules the engine has (``multi_ref=`` of the API)."""
    return list(MULTI_REF)


def multi_ref_help() -> str:
    return "several references: " + "; ".join(f"{n}: {_MULTI_REF_WORDS.get(n, n)}" for n in MULTI_REF)


class OneLineParser(argparse.ArgumentParser):
    """An argument parser whose errors are one line and exit code 2 (through the CLI's handler)."""

    def error(self, message):
        raise OptionError(message)


def command_parser(prog: str, description: str, epilog: str) -> OneLineParser:
    """A command's parser: one-line errors; its description and examples printed as written."""
    return OneLineParser(
        prog=prog, description=description, epilog=epilog, formatter_class=argparse.RawDescriptionHelpFormatter
    )


def add_repeated(group, *flags: str, metavar: str, help: str) -> None:
    """A repeatable option (``action="append"``): its values in order, ``[]`` when it is not given."""
    group.add_argument(*flags, action="append", default=[], metavar=metavar, help=help)


def add_text_options(opt) -> None:
    """Declare the text and measure options :func:`scoring_options` reads (score and explain)."""
    opt.add_argument("--stem", action="store_true", help="WordNet exceptions + the script's Porter (-m)")
    opt.add_argument(
        "--stopwords",
        action="store_true",
        help="remove stopwords (-s): SMART, or the --lang preset's list (docs/languages.md)",
    )
    opt.add_argument("--word-limit", type=int, default=0, metavar="N", help="-l")
    opt.add_argument("--byte-limit", type=int, default=0, metavar="N", help="-b")
    opt.add_argument(
        "--multi-ref", choices=multi_ref_choices(), default="sum", help=multi_ref_help() + " (default: sum)"
    )
    opt.add_argument("--alpha", type=float, default=0.5, help="F weight (-p)")
    opt.add_argument(
        "--tokenizer",
        choices=["rouge155", "unicode", "cjk"],
        default=None,
        help="rouge155: the script's (ASCII letters and digits, the default); unicode: words of any script; "
        "cjk: unicode with each Han/kana character a token",
    )
    opt.add_argument(
        "--lang",
        default=None,
        metavar="LANG",
        help="language preset: tokenizer, word segmenter, stemmer (with --stem) and stopwords of a language, by "
        "ISO 639-1 code, English name or XL-Sum name (zh, de, german, chinese_simplified, ...; "
        "en is the script's own); "
        "see docs/languages.md",
    )
    opt.add_argument("--su-unigrams", choices=["rouge155", "all"], default="rouge155")
    opt.add_argument("--wlcs", choices=["rouge155", "paper"], default="rouge155")
    opt.add_argument(
        "--hori-units",
        choices=["word", "sentence"],
        default="word",
        help="units of ACCY, NrstACCY, PREC-n, SumACCY, WSumACCY",
    )


def add_text_place(parser: argparse.ArgumentParser) -> None:
    """--field and --column (one or the other): where a row's text is (dedup, extract)."""
    where = parser.add_mutually_exclusive_group()
    where.add_argument(
        "--field",
        help="JSON input (JSONL, a JSON array or column-shaped JSON): the field holding the text (a dotted name "
        "reads a nested field: pred.text, choices.0.text)",
    )
    where.add_argument(
        "--column",
        help="CSV, Parquet or Arrow input: the column holding the text (by its header or name; Parquet/Arrow: a "
        "dotted name is a struct column's field, msg.content)",
    )


def comma_list(text: str | None, what: str) -> list[str] | None:
    """The items of a comma-separated option value (None when the option is absent); an
    :class:`OptionError` naming ``what`` when it holds none."""
    if text is None:
        return None
    items = [t.strip() for t in text.split(",") if t.strip()]
    if not items:
        raise OptionError(f"an empty {what} list")
    return items


def scoring_options(args) -> dict:
    """The text and measure options every scoring command shares (score, compare, report, explain)."""
    return dict(
        stem=args.stem,
        stopwords=args.stopwords,
        word_limit=args.word_limit,
        byte_limit=args.byte_limit,
        multi_ref=args.multi_ref,
        alpha=args.alpha,
        tokenizer=args.tokenizer,
        lang=args.lang,
        su_unigrams=args.su_unigrams,
        wlcs=args.wlcs,
        hori_units=args.hori_units,
    )


def refuse_output_over_input(output: str | None, inputs) -> None:
    """An :class:`OptionError` when ``-o FILE`` is one of the files read (the same file by any path):
    the output is opened while the input is still being read, so writing it would truncate the input
    first and the data would be lost."""
    if not output or output == "-" or not os.path.isfile(output):
        return
    for path in inputs:
        if path and path != "-" and os.path.isfile(path) and os.path.samefile(path, output):
            raise OptionError(f"-o {output} is also an input ({path}): write the output to another file")


#: the options of rougekit's commands that name files read (a list when the option repeats)
_INPUT_OPTIONS = ("candidates", "references", "jsonl", "sources", "parquet", "arrow", "queries", "choices")


def input_files(args) -> list[str]:
    """Every file a command's parsed ``args`` names as an input (the options in ``_INPUT_OPTIONS``)."""
    paths: list[str] = []
    for dest in _INPUT_OPTIONS:
        value = getattr(args, dest, None)
        if isinstance(value, (list, tuple)):
            paths.extend(v for v in value if isinstance(v, str))
        elif isinstance(value, str):
            paths.append(value)
    return paths


def sentence_marker(value: str) -> str:
    """``--sentence-sep``: a marker, never empty (an empty shell variable would silently mean "lines")."""
    if value == "":
        raise argparse.ArgumentTypeError(
            "give a marker such as '<q>', or leave --sentence-sep out to split on lines only"
        )
    return value


def lang_option(lang: str, measure: str) -> str:
    """``--lang`` of dedup/extract: a preset of rougekit's measures (rouge-score's ``rougeL`` reads text its
    own way: a-z and 0-9)."""
    rougekit_measure_option("--lang", measure)
    return lang


def rougekit_measure_option(flag: str, measure: str) -> None:
    """Refuse ``flag`` (``--lang``, ``--stopwords``) with rouge-score's ``rougeL``: its options are rougekit's."""
    if measure == "rougeL":
        raise OptionError(
            f"{flag} applies to rougekit's measures, not to rouge-score's rougeL: give --measure ROUGE-L (or "
            "ROUGE-1, ROUGE-2, ...) with it"
        )
