"""``rougekit files2rouge REFERENCES SUMMARIES``: the command line of files2rouge 2.1.0, with no Perl.

Same arguments, same printed report (the ROUGE-1.5.5 output of the pyrouge fork files2rouge
installs), same errors as one line and exit code 2. See :mod:`rougekit.compat.files2rouge`.
"""

from __future__ import annotations

import argparse

from rougekit.cli._options import OneLineParser
from rougekit.compat import files2rouge
from rougekit.errors import OptionError


def parser() -> argparse.ArgumentParser:
    p = OneLineParser(
        prog="rougekit files2rouge",
        description="Calculating ROUGE score between two files (line-by-line), as files2rouge 2.1.0 does",
        epilog="example: rougekit files2rouge references.txt summaries.txt -n 4 -s scores.txt",
    )
    p.add_argument("reference", help="Path of references file")
    p.add_argument("summary", help="Path of summary file")
    p.add_argument("-v", "--verbose", action="store_true", help="Prints ROUGE logs (pyrouge's log lines, on stderr)")
    p.add_argument("-n", "--rouge_n", type=int, default=files2rouge.DEFAULT_ROUGE_N, help="Maximum n-gram size")
    p.add_argument("-nol", "--no_rouge_l", action="store_true", help="Do not calculate ROUGE-L")
    p.add_argument("-a", "--args", help='ROUGE Arguments (default "-c 95 -r 1000 -n 2 -a"; -m is added)')
    p.add_argument("-s", "--saveto", dest="saveto", help="File to save scores")
    p.add_argument(
        "-e", "--eos", dest="eos", default=".", help='End of sentence separator (for multisentence). Default: "."'
    )
    p.add_argument("-m", "--stemming", action="store_true", help="DEPRECATED: stemming is now default behavior")
    p.add_argument("-nm", "--no_stemming", action="store_true", help="Switch off stemming")
    p.add_argument("-ir", "--ignore_empty_reference", action="store_true")
    p.add_argument("-is", "--ignore_empty_summary", action="store_true")
    return p


def run(argv: list[str]) -> int:
    args = parser().parse_args(argv)
    if args.stemming:
        raise OptionError(
            "files2rouge uses stemming by default so --stemming is deprecated. "
            "You can turn it off with -nm/--no_stemming"
        )
    files2rouge.run(
        args.summary,
        args.reference,
        rouge_args=args.args,
        rouge_n=args.rouge_n,
        no_rouge_l=args.no_rouge_l,
        verbose=args.verbose,
        saveto=args.saveto,
        eos=args.eos,
        ignore_empty_reference=args.ignore_empty_reference,
        ignore_empty_summary=args.ignore_empty_summary,
        stemming=not args.no_stemming,
    )
    return 0
