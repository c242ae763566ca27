"""Run ``rougekit`` commands in the test's process, as the shell would: (exit code, stdout, stderr)."""

from __future__ import annotations

import contextlib
import io

from rougekit.cli.main import main


def run(*argv):
    """``rougekit ARGV...`` (paths and numbers turned to strings): exit code, standard output and error."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main([*map(str, argv)])
    return code, out.getvalue(), err.getvalue()
