"""rougekit: ROUGE exactly as ROUGE-1.5.5.pl computes it, with no Perl.

>>> import rougekit
>>> rougekit.score(["the cat sat"], ["the cat sat down"], measures=["ROUGE-1"]).per_pair()[0]["ROUGE-1"]["recall"]
0.75
"""

from typing import TYPE_CHECKING

from rougekit import _late
from rougekit._version import __version__

if TYPE_CHECKING:  # the lazy names' types, for type checkers (at run time they load on first use)
    from rougekit.api import Scorer as Scorer
    from rougekit.api import score as score
    from rougekit.errors import InputError as InputError
    from rougekit.errors import OptionError as OptionError
    from rougekit.errors import RougeKitError as RougeKitError
    from rougekit.explanation import explain as explain
    from rougekit.measures import Measure as Measure
    from rougekit.results import RougeResult as RougeResult
    from rougekit.signature import Signature as Signature
    from rougekit.variants import variants as variants


def _html_report(result, path, name, others, candidates, references, options) -> str:
    """:func:`rougekit.report.html_api.write_report`, the writer behind ``RougeResult.to_html``."""
    from rougekit.report.html_api import write_report  # on first use: ``import rougekit`` stays light

    return write_report(result, path, name, others, candidates, references, options)


_late.html_report = _html_report  # results sit below the report: bound here, at the top (_late.py)

_LAZY = {
    "score": "rougekit.api",
    "Scorer": "rougekit.api",
    "explain": "rougekit.explanation",
    "variants": "rougekit.variants",
    "RougeResult": "rougekit.results",
    "Measure": "rougekit.measures",
    "Signature": "rougekit.signature",
    "RougeKitError": "rougekit.errors",
    "InputError": "rougekit.errors",
    "OptionError": "rougekit.errors",
}

__all__ = [*_LAZY, "__version__"]


def __dir__():
    """The public API (loaded on first use) beside the module's own names."""
    return sorted(set(globals()) | set(__all__))


def __getattr__(name):
    """Import the public names on first use, so the command line starts fast."""
    if name in _LAZY:
        import importlib

        value = getattr(importlib.import_module(_LAZY[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'rougekit' has no attribute {name!r}")
