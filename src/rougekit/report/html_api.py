"""``RougeResult.to_html``: the HTML report of one result (and others) from Python."""

from __future__ import annotations

import warnings

from rougekit.errors import OptionError, RougeKitWarning
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
    if candidates is not None:  # read twice (the examples, the check below): iterators as lists, once
        candidates = {name: list(texts) for name, texts in candidates.items()}
        references = list(references)
    data = html_model.from_results(results, candidates, references)
    if data.explainable:
        _texts_are_the_scored_ones(results, candidates, references)
    text = html.build(data, **options)
    if path is not None:
        write_text(str(path), text)
    return text


def _texts_are_the_scored_ones(results: dict, candidates: dict, references) -> None:
    """The report shows each pair's texts beside its numbers: texts other than the scored ones (a
    shuffled or filtered list) would show numbers they do not have. Each system's texts are counted
    again with the result's options; a pair whose counts differ is an error."""
    import numpy as np

    from rougekit.api import Scorer

    first = next(iter(results.values()))
    kept = [j for j, m in enumerate(first.measures) if not m.single_valued]
    if not kept:
        return
    options = html_model.explain_options(first.options)
    scorer = Scorer([first.measures[j].name for j in kept], **options, bootstrap=None)
    scorer.blank_references_unsaid = False  # (said when the result was scored)
    for name, result in results.items():
        with warnings.catch_warnings():  # said when the result was scored: not again
            warnings.simplefilter("ignore", RougeKitWarning)
            counted = scorer.statistics(list(candidates[name]), list(references))[0][:, :, :3]
        given = result.data[:, kept, :3]
        differ = np.flatnonzero(np.any(counted != given, axis=(1, 2)))
        if differ.size:
            k = int(differ[0])
            raise OptionError(
                f"system {name!r}: the texts given are not the ones scored ({differ.size} pairs count otherwise, "
                f"the first pair {k + 1}): pass the candidates and references the result was scored on"
            )
