"""Features a lower layer offers whose code lives in an upper layer, bound by the package's ``__init__``.

:meth:`rougekit.results.RougeResult.to_html` writes the HTML report of :mod:`rougekit.report`,
which sits above the results (it scores highlights through the API, which makes results). The
results call :func:`html_report`; the package's ``__init__`` (the top layer, run before any
module of the package) binds it to the report's writer. So no module imports up a layer and no
import makes a circle (tests/test_layers.py).
"""

from __future__ import annotations


def html_report(result, path, name, others, candidates, references, options) -> str:
    """``rougekit.report.html_api.write_report``, once the package's ``__init__`` has bound it."""
    raise RuntimeError("rougekit's __init__ did not bind the HTML report writer")  # pragma: no cover
