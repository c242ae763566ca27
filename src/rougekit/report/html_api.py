"""``RougeResult.to_html``: the HTML report of one result (and others) from Python."""

from __future__ import annotations

from rougekit.errors import OptionError
from rougekit.io.files import write_text
from rougekit.report import html, html_model

_OPTIONS = ("trials", "seed", "confidence", "title", "highlights")


def write_report(result, path, name, others, candidates, references, options) -> str:
    unknown = sorted(set(options) - set(_OPTIONS))
    if unknown:
        raise TypeError(f"to_html() got unexpected keyword arguments: {', '.join(unknown)}")
    results = {str(name): result}
    for other, r in (others or {}).items():
        if str(other) in results:
            raise OptionError(f"two systems are named {str(other)!r}")
        results[str(other)] = r
    if candidates is not None and not isinstance(candidates, dict):
        if len(results) > 1:
            raise OptionError("with others=, give candidates as {system name: texts}")
        candidates = {str(name): candidates}
    if candidates is not None and references is None:
        raise OptionError("the examples need the references too: pass references= with candidates=")
    data = html_model.from_results(results, candidates, references)
    text = html.build(data, **options)
    if path is not None:
        write_text(str(path), text)
    return text
