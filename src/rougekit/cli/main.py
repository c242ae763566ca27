"""`rougekit` command: dispatches to sub-commands (`rouge155`, `score`, `correlate`, ...).

Every sub-command module has ``run(argv: list[str]) -> int`` and parses its own arguments.
Errors derived from :class:`RougeKitError` become one line on stderr and exit code 2; a
:class:`RougeKitWarning` becomes one line on stderr, once per kind and run;
Ctrl-C ends any command quietly with exit code 130.
"""

from __future__ import annotations

import contextlib
import errno
import gc
import importlib
import os
import signal
import sys
import warnings

from rougekit.cli._systems import SCORING, end_progress_line
from rougekit.errors import RougeKitError, RougeKitWarning
from rougekit.limits import shown

# sub-command name -> module holding run(argv) and its own argument handling
SUBCOMMANDS = {
    "score": "rougekit.cli.score",
    "rouge155": "rougekit.cli.rouge155",
    "compare": "rougekit.cli.compare",
    "correlate": "rougekit.cli.correlate",
    "protocol": "rougekit.cli.protocol",
    "report": "rougekit.cli.report",
    "dedup": "rougekit.cli.dedup",
    "explain": "rougekit.cli.explain",
    "extract": "rougekit.cli.extract",
    "files2rouge": "rougekit.cli.files2rouge",
    "variants": "rougekit.cli.variants",
}

# what `rougekit --help` says of each command: one line and one example
COMMANDS_HELP = {
    "score": (
        "score candidate summaries against references (line files, JSONL, Parquet/Arrow or folders)",
        "rougekit score -c system.txt -r ref1.txt -r ref2.txt --stem",
    ),
    "rouge155": (
        "drop-in for ROUGE-1.5.5.pl: the script's flags and config files, its output byte for byte",
        "rougekit rouge155 -c 95 -r 1000 -n 2 -m -a config.xml",
    ),
    "compare": (
        "is system B better than system A? approximate randomization and paired bootstrap",
        "rougekit compare -c a.txt -c b.txt -r ref.txt --measures ROUGE-1,ROUGE-L",
    ),
    "correlate": (
        "correlate metric scores with human judgments (system, summary or global level)",
        "rougekit correlate scores.csv human.csv --level summary",
    ),
    "protocol": (
        "the Lin (2004) meta-evaluation: a grid of ROUGE variants correlated with human judgments",
        "rougekit protocol --dataset summeval summeval.jsonl --human relevance",
    ),
    "report": (
        "one self-contained HTML report: tables, intervals, significance, distributions, examples",
        "rougekit report -c a.txt -c b.txt -r ref.txt -o report.html",
    ),
    "dedup": (
        "drop near-duplicate texts (Self-Instruct's rule: rougeL F above a threshold)",
        "rougekit dedup instructions.txt --threshold 0.7 -o kept.txt --dropped dropped.jsonl",
    ),
    "explain": (
        "which words matched: one pair's tokens and matches per measure, coloured in a terminal",
        'rougekit explain -c "police kill the gunman" -r "police killed the gunman"',
    ),
    "extract": (
        "the best-matching texts of a file for each query (e.g. test items leaking into training data)",
        "rougekit extract test.txt train.txt --limit 3 --score-cutoff 0.7",
    ),
    "files2rouge": (
        "drop-in for files2rouge: REFERENCES then SUMMARIES, one per line, its flags and output",
        "rougekit files2rouge references.txt summaries.txt -n 4",
    ),
    "variants": (
        "which ROUGE was it? every implementation's numbers side by side, --target, --explain A B",
        "rougekit variants -c system.txt -r ref.txt --target R1=39.53,R2=17.28,RL=36.38",
    ),
}


def usage() -> str:
    """The text of `rougekit --help`."""
    lines = [
        "usage: rougekit COMMAND [options]   (rougekit COMMAND --help for its options)",
        "",
        "ROUGE exactly as ROUGE-1.5.5.pl computes it. Candidates first, references second.",
        "",
        "commands:",
    ]
    for name, (what, example) in COMMANDS_HELP.items():
        lines += [f"  {name:<10} {what}", f"  {'':<10} e.g. {example}"]
    lines += ["", "  --version  print the version", "  --help     print this help"]
    return "\n".join(lines) + "\n"


# sub-commands that can skip the interpreter's last garbage collection when run as the program
_FREEZE_AT_EXIT = {"rouge155"}


MESSAGE_LIMIT = 1000  # characters of an error message: never a megabyte of the user's input


def one_line(message: str) -> str:
    """An error message as one bounded line: line breaks escaped, the middle of a huge one cut."""
    message = message.replace("\r", "\\r").replace("\n", "\\n")
    if len(message) > MESSAGE_LIMIT:
        half = MESSAGE_LIMIT // 2
        message = f"{message[:half]} ... {message[-half:]}"
    return message


@contextlib.contextmanager
def _warnings_as_lines(name: str):
    """rougekit's warnings as ``rougekit NAME: warning: ...`` on stderr, the first of each kind only
    (one per run, not one per system scored); other warnings as Python shows them. With several
    systems the line names the system, and the systems with the same kind of warning after it are
    listed once at the end (each warning counts one system's candidates and the references)."""
    seen: dict = {}  # kind -> the systems that gave it after the one shown
    with warnings.catch_warnings():
        warnings.simplefilter("always", RougeKitWarning)
        python_way = warnings.showwarning

        def show(message, category, filename, lineno, file=None, line=None):
            if not issubclass(category, RougeKitWarning):
                return python_way(message, category, filename, lineno, file, line)
            system = SCORING.get()
            if category in seen:
                if system is not None and system[1] > 1 and system[0] not in seen[category]:
                    seen[category].append(system[0])
                return
            seen[category] = []
            text = one_line(getattr(message, "cli", str(message)))
            who = f"system {shown(system[0])}: " if system is not None and system[1] > 1 else ""
            end_progress_line()
            print(f"rougekit {name}: warning: {who}{text}", file=sys.stderr)

        warnings.showwarning = show
        yield
    for category, systems in seen.items():
        if systems:
            listed = ", ".join(shown(s) for s in systems[:10]) + (
                f", ... ({len(systems)} in all)" if len(systems) > 10 else ""
            )
            print(
                f"rougekit {name}: warning: the same kind of warning ({category.__name__}) for "
                f"{len(systems)} more system{'s' if len(systems) > 1 else ''}: {listed}",
                file=sys.stderr,
            )


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised where Ctrl-C's KeyboardInterrupt is: the same stop (threads, partial output
    files removed), exit code 143."""


def _terminated(signum, frame) -> None:
    raise Terminated()


def _program_settings() -> None:
    """Settings of a process that is the ``rougekit`` command (not of a program that imports rougekit).

    numpy's OpenBLAS is loaded single-threaded: no command multiplies matrices (a few dot products of
    vectors at most), yet a threaded OpenBLAS starts a thread per core as numpy is imported and each
    spins for ~0.1 s of CPU before it sleeps, while the command's own threads want those cores.

    pyarrow reads with jemalloc where it has it (rougekit.io.command_arrow_pool), else its mimalloc keeps the
    pages it frees: a Parquet reader's value buffers grow by reallocation to a few MB a record batch,
    and given back to the system each batch they came back as fresh pages the kernel zeroes again
    (issue 28: mimalloc's fresh pages were 8% of the Parquet defaults' CPU under perf, jemalloc's peak
    85 MB lower). A command is one short process.

    A value the user set is kept; once a library is loaded its setting would do nothing, so it is not
    made."""
    blas = ("OPENBLAS_NUM_THREADS", "GOTO_NUM_THREADS", "OMP_NUM_THREADS")  # OpenBLAS reads the first set
    if "numpy" not in sys.modules and not any(name in os.environ for name in blas):
        os.environ["OPENBLAS_NUM_THREADS"] = "1"
    if "pyarrow" not in sys.modules:
        os.environ.setdefault("MIMALLOC_PURGE_DELAY", "-1")
        import rougekit.io

        rougekit.io.command_arrow_pool = "jemalloc"


def _flush_stdout() -> None:
    """Flush standard output; a failed write (``> /dev/full``) is one error line naming it, and what
    is still buffered is dropped (else the interpreter fails again at exit: code 120, a traceback)."""
    out = sys.stdout
    if out is None or getattr(out, "closed", False):
        return
    try:
        out.flush()
    except BrokenPipeError:
        raise
    except OSError as exc:
        from rougekit.cli._output import discard_stdout, write_error

        discard_stdout()
        raise write_error(None, exc) from None


def main(argv: list[str] | None = None) -> int:
    as_program = argv is None  # the console script and `python -m rougekit`: the process ends next
    if as_program:
        _program_settings()
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] in ("-h", "--help", "help", "-V", "--version"):
        if sys.stdout is None:  # started with standard output closed (>&-)
            from rougekit.cli._output import CLOSED

            print(f"rougekit: error: {CLOSED}", file=sys.stderr)
            return 2
    if not argv or argv[0] in ("-h", "--help", "help"):
        sys.stdout.write(usage())
        return 0 if argv else 2
    if argv[0] in ("-V", "--version"):
        from rougekit import __version__

        print(f"rougekit {__version__}")
        return 0
    name, rest = argv[0], argv[1:]
    if name not in SUBCOMMANDS:
        print(f"rougekit: unknown command {shown(name)} (choose from {', '.join(SUBCOMMANDS)})", file=sys.stderr)
        return 2
    if as_program:  # the main thread of the process: SIGTERM (timeout, kill, a scheduler) stops as Ctrl-C does
        signal.signal(signal.SIGTERM, _terminated)
        if sys.stdout is None:  # started with standard output closed (>&-): one line if a command writes to it
            from rougekit.cli._output import ClosedStdout

            sys.stdout = ClosedStdout()
    try:  # the command's imports (numpy, the engine: 0.3-0.5 s): when a mistyped command is stopped
        module = importlib.import_module(SUBCOMMANDS[name])
    except KeyboardInterrupt as exc:
        print(file=sys.stderr)
        return 143 if isinstance(exc, Terminated) else 130
    try:
        with _warnings_as_lines(name):
            code = module.run(rest)
        _flush_stdout()  # a full standard output is said here, not by the interpreter at exit
        return code
    except RougeKitError as exc:
        end_progress_line()
        print(f"rougekit {name}: error: {one_line(str(exc))}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # pragma: no cover - e.g. piped into `head`
        return 0
    except OSError as exc:  # a failed read or write the command did not name (a full disk, /dev/full)
        what = ""
        if exc.filename is None:  # a print to standard output (files are named where they are written)
            from rougekit.cli._output import discard_stdout

            discard_stdout()  # its buffer must not fail again at exit
            if exc.errno in (errno.ENOSPC, errno.EFBIG, getattr(errno, "EDQUOT", errno.ENOSPC)):
                what = "cannot write standard output: "
        where = f": {shown(exc.filename)}" if exc.filename else ""
        end_progress_line()
        print(f"rougekit {name}: error: {what}{one_line(exc.strerror or str(exc))}{where}", file=sys.stderr)
        return 2
    except KeyboardInterrupt as exc:  # Ctrl-C: no traceback, the shell's code for SIGINT (SIGTERM: 143)
        print(file=sys.stderr)
        return 143 if isinstance(exc, Terminated) else 130
    except SystemExit as exc:  # argparse after --help
        try:
            _flush_stdout()
        except RougeKitError as failed:
            print(f"rougekit {name}: error: {one_line(str(failed))}", file=sys.stderr)
            return 2
        return exc.code if isinstance(exc.code, int) else 0
    finally:
        if as_program and name in _FREEZE_AT_EXIT:
            # At exit the interpreter collects garbage over every object (some 20 ms once numpy is
            # loaded). Freezing them skips that; it only leaves unreachable reference cycles
            # unfinalized, and these commands keep no open output file in one (stdout is flushed).
            gc.freeze()


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
