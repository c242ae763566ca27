"""``rougekit rouge155 [options] CONFIG [SYSTEM_ID]``: a drop-in for ROUGE-1.5.5.pl.

Options are read as Perl's ``getopts('ahHb:c:de:f:l:mMn:p:st:r:2:3:w:uUvxz:')`` reads them:
flags may be bundled (``-am``), an option's value may be attached (``-n4``) or the next word
even if it starts with ``-`` (``-2 -1``). Where the script would die, this exits with code 2
and one line on stderr.
"""

from __future__ import annotations

import gc
import math
import re
import sys

from rougekit import limits
from rougekit.errors import OptionError
from rougekit.io.rouge155_config import read_file_list, read_xml_config
from rougekit.limits import shown
from rougekit.measures import BE_MODES, Measure
from rougekit.report.rouge155 import format_report
from rougekit.rouge155 import Rouge155Run, Settings

_FLAGS = set("ahHdmMsuUvx")
_VALUED = set("bcefltnpr23wz")
_WHOLE = re.compile(r"^[+-]?[0-9]+$")
_NUMBER = re.compile(r"^[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?$")

USAGE = """usage: rougekit rouge155 [options] CONFIG [SYSTEM_ID]
Score summaries exactly as ROUGE-1.5.5.pl does: the same flags, configuration files and output.
The flags follow ROUGE-1.5.5.pl, unlike those of `rougekit score`: here -c is the confidence
level and -r the number of resamples (in `rougekit score`, -c and -r name candidate and
reference files). Average_R/P/F are the script's bootstrap averages (not plain means).
  -a          evaluate every peer in CONFIG          -d    also print per-evaluation scores
  -n N        ROUGE-1..ROUGE-N (N <= 100)             -x    no ROUGE-L
  -w W        ROUGE-W with weight W (1..5)            -2 D  ROUGE-S with at most D words between (-1: any)
  -u / -U     ROUGE-SU only / ROUGE-S and ROUGE-SU    -3 M  Basic Elements (H HM HMR HM1 HMR1 HMR2)
  -m          stem (WordNet exceptions + Porter)      -s    remove SMART stopwords
  -M          stem models only (undocumented)         -l N / -b N   word / byte limit
  -f A|B      sum over references / best reference    -p A  F weight alpha (0..1)
  -t 0|1|2    average pairs / corpus counts / raw     -c C  confidence level (0..100)
  -r R        bootstrap resamples (1..100000)         -z F  CONFIG is a file list (SEE SPL ISI SIMPLE)
  -e DIR      accepted for compatibility (data are bundled)   -v   accepted (no debug output)
  -h, --help  print this help
examples:
  rougekit rouge155 -c 95 -2 4 -U -r 1000 -n 4 -w 1.2 -a config.xml       every system, ROUGE-1..4, L, W, S4, SU4
  rougekit rouge155 -c 95 -r 1000 -n 2 -m -a -d config.xml                 stemmed, with one line per evaluation
  rougekit rouge155 -n 2 -z SPL files.txt mysystem                         a file list: "peer model1 model2" per line
"""


def parse_getopts(argv: list[str]) -> tuple[dict[str, str | bool], list[str]]:
    """Perl Getopt::Std semantics; unknown options are an error here (the script only warns)."""
    opts: dict[str, str | bool] = {}
    i = 0
    while i < len(argv):
        word = argv[i]
        if word == "--":
            i += 1
            break
        if not word.startswith("-") or word == "-":
            break
        j = 1
        while j < len(word):
            letter = word[j]
            if letter in _FLAGS:
                opts[letter] = True
                j += 1
            elif letter in _VALUED:
                rest = word[j + 1 :]
                if rest:
                    opts[letter] = rest
                else:
                    i += 1
                    if i >= len(argv):
                        raise OptionError(f"option -{letter} needs a value")
                    opts[letter] = argv[i]
                break
            else:
                raise OptionError(f"unknown option -{letter} (see 'rougekit rouge155 -h')")
        i += 1
    return opts, argv[i:]


def _number(opts, letter: str, default: float) -> float:
    if letter not in opts:
        return default
    value = str(opts[letter])
    if not _NUMBER.match(value.strip()):
        raise OptionError(f"option -{letter} takes a number, got {shown(value)}")
    return float(value)


def _whole(opts, letter: str, default: int, minimum: int, maximum: int) -> int:
    """A whole-number option within its documented range (see :mod:`rougekit.limits`)."""
    if letter not in opts:
        return default
    value = str(opts[letter]).strip()
    if not _NUMBER.match(value):
        raise OptionError(f"option -{letter} takes a number, got {shown(opts[letter])}")
    if _WHOLE.match(value) and len(value.lstrip("+-")) <= 18:
        x = int(value)
    else:  # a fraction, an exponent or a huge number (infinite as a float)
        x = float(value)
        if math.isfinite(x) and x != int(x):
            raise OptionError(f"option -{letter} takes a whole number, got {shown(opts[letter])}")
        x = int(max(min(x, 1e19), -1e19))  # beyond every range, still on the right side
    if not minimum <= x <= maximum:
        raise OptionError(f"option -{letter} must be within {minimum} and {maximum}, got {shown(opts[letter])}")
    return x


def build_settings(opts: dict) -> Settings:
    """Translate the script's options into engine settings, refusing what would make it die."""
    if "l" in opts and "b" in opts:
        raise OptionError("give a length limit in words (-l) or in bytes (-b), not both")
    confidence = _number(opts, "c", 95.0)
    if not 0 <= confidence <= 100:
        raise OptionError(f"option -c must be within 0 and 100, got {shown(opts['c'])}")
    alpha = _number(opts, "p", 0.5)
    if not 0 <= alpha <= 1:
        raise OptionError(f"option -p must be within 0 and 1, got {shown(opts['p'])}")
    resamples = _whole(opts, "r", 1000, 1, limits.MAX_RESAMPLES)  # 0: ROUGE-1.5.5 divides by it
    measures: list[Measure] = []
    be_mode = opts.get("3")
    if "n" in opts:
        for n in range(1, _whole(opts, "n", 0, 0, limits.MAX_ORDER) + 1):
            measures.append(Measure.rouge_n(n))
    if "x" not in opts and be_mode is None:
        measures.append(Measure("L"))
    if "w" in opts:
        weight = _number(opts, "w", 0)
        if weight <= 0:
            raise OptionError(f"option -w (ROUGE-W weight) must be greater than 0, got {shown(opts['w'])}")
        if not limits.MIN_WEIGHT <= weight <= limits.MAX_WEIGHT:  # the script: scores above 1, or 0 / NaN
            raise OptionError(
                f"option -w (ROUGE-W weight) must be within {limits.MIN_WEIGHT:g} and {limits.MAX_WEIGHT:g}, "
                f"got {shown(opts['w'])}"
            )
        measures.append(Measure("W", weight=weight, label=f"ROUGE-W-{opts['w']}"))
    if "2" in opts:
        skip = max(_whole(opts, "2", 0, -(10**19), limits.MAX_SKIP), -1)  # negative: any distance (S*)
        typed = str(opts["2"]) if skip >= 0 else "*"
        kinds = ["SU"] if "u" in opts else (["S", "SU"] if "U" in opts else ["S"])
        for kind in kinds:
            measures.append(Measure(kind, skip=skip, label=f"ROUGE-{kind}{typed}"))
    if be_mode is not None:
        if be_mode not in BE_MODES:
            raise OptionError(f"option -3 takes one of {', '.join(BE_MODES)}, got {shown(be_mode)}")
        measures.append(Measure("BE", be_mode=be_mode))
    average = _number(opts, "t", 0)
    return Settings(
        measures=tuple(measures),
        mode=str(opts.get("f", "A")),
        alpha=alpha,
        stem="m" in opts,
        stem_models_only="M" in opts,
        stopwords="s" in opts,
        word_limit=_whole(opts, "l", 0, 0, limits.MAX_LENGTH_LIMIT),
        byte_limit=_whole(opts, "b", 0, 0, limits.MAX_LENGTH_LIMIT),
        average=int(average) if average in (1, 2) else 0,
        resamples=resamples,
        confidence=confidence,
    )


def run(argv: list[str]) -> int:
    if "--help" in argv[: argv.index("--") if "--" in argv else len(argv)]:
        sys.stdout.write(USAGE)
        return 0
    opts, args = parse_getopts(argv)
    if "h" in opts or "H" in opts:
        sys.stdout.write(USAGE)
        return 0
    if not args:
        raise OptionError("give a configuration file (see 'rougekit rouge155 -h')")
    if len(args) > 2:
        raise OptionError(f"too many arguments: {shown(' '.join(args[2:]))} (give CONFIG [SYSTEM_ID])")
    settings = build_settings(opts)
    # the run makes many small objects and (almost) no reference cycles: the collector's passes
    # over them would only cost time, so it is off until the report is written
    gc_was_enabled = gc.isenabled()
    gc.disable()
    try:
        return _evaluate(opts, args, settings)
    finally:
        if gc_was_enabled:
            gc.enable()


def _evaluate(opts: dict, args: list[str], settings: Settings) -> int:
    list_format = opts.get("z")
    if list_format is not None:
        if str(list_format).upper() not in ("SEE", "SPL", "ISI", "SIMPLE"):
            raise OptionError(f"option -z takes SEE, SPL, ISI or SIMPLE, got {shown(list_format)}")
        peer_ids = [args[1] if len(args) == 2 else "X"]
        config = read_file_list(args[0], str(list_format), peer_ids[0])
    else:
        if len(args) == 1 and "a" not in opts:
            raise OptionError("give a system ID to evaluate, or -a to evaluate every system")
        config = read_xml_config(args[0])
        peer_ids = sorted(config.peer_ids) if "a" in opts else [args[1]]
    engine = Rouge155Run(config, settings)
    report = format_report(engine.run(peer_ids), str(opts.get("c", "95")), settings.average, "d" in opts)
    sys.stdout.write(report)
    sys.stdout.flush()
    return 0
