"""`rougekit` command: dispatches to sub-commands (`rouge155`, `score`, `correlate`, ...).

Every sub-command module has ``run(argv: list[str]) -> int`` and parses its own arguments.
Errors derived from :class:`RougeKitError` become one line on stderr and exit code 2;
Ctrl-C ends any command quietly with exit code 130.
"""

from __future__ import annotations

import gc
import importlib
import sys

from rougekit.errors import RougeKitError
from rougekit.limits import shown

# sub-command name -> module holding register() and its own argument handling
SUBCOMMANDS = {
    "rouge155": "rougekit.cli.rouge155",
    "score": "rougekit.cli.score",
    "correlate": "rougekit.cli.correlate",
    "protocol": "rougekit.cli.protocol",
    "compare": "rougekit.cli.compare",
}


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


def main(argv: list[str] | None = None) -> int:
    as_program = argv is None  # the console script and `python -m rougekit`: the process ends next
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] in ("-h", "--help"):
        print("usage: rougekit {" + ",".join(SUBCOMMANDS) + "} ...", file=sys.stdout)
        return 0 if argv else 2
    if argv[0] in ("-V", "--version"):
        from rougekit import __version__

        print(f"rougekit {__version__}")
        return 0
    name, rest = argv[0], argv[1:]
    if name not in SUBCOMMANDS:
        print(f"rougekit: unknown command {shown(name)} (choose from {', '.join(SUBCOMMANDS)})", file=sys.stderr)
        return 2
    module = importlib.import_module(SUBCOMMANDS[name])
    try:
        return module.run(rest)
    except RougeKitError as exc:
        print(f"rougekit {name}: error: {one_line(str(exc))}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # pragma: no cover - e.g. piped into `head`
        return 0
    except KeyboardInterrupt:  # Ctrl-C: no traceback, the shell's code for SIGINT
        print(file=sys.stderr)
        return 130
    finally:
        if as_program and name in _FREEZE_AT_EXIT:
            # At exit the interpreter collects garbage over every object (some 20 ms once numpy is
            # loaded). Freezing them skips that; it only leaves unreachable reference cycles
            # unfinalized, and these commands keep no open output file in one (stdout is flushed).
            gc.freeze()


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
