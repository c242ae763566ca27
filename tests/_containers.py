"""The containers people pass instead of lists, built from a JSON-able description.

Shared by the drop-in recorders (tools/goldens/record_evaluate.py and record_torchmetrics.py, run
with the real packages) and the tests comparing rougekit.compat with what they recorded: a case
names its containers, e.g. ``{"predictions": "numpy", "references": "pandas", "rows": "tuple"}``
(``rows``: the container of each row of references, for several references a prediction).
"""

from __future__ import annotations

import numpy as np

#: container name -> the function building it from a list
KINDS = {
    "list": list,
    "tuple": tuple,
    "numpy": np.array,  # a fixed-width str_ array ('<U..'); a list of equal rows becomes a 2-D array
    "numpy_object": lambda values: _object_array(values),
    "numpy_stringdtype": lambda values: np.array(values, dtype=np.dtypes.StringDType()),
    "pandas": lambda values: _pandas().Series(values),
    "pandas_string": lambda values: _pandas().Series(values, dtype="string"),
    "pandas_index10": lambda values: _pandas().Series(values, index=range(10, 10 + len(values))),
    "polars": lambda values: _polars().Series(values),
    "generator": lambda values: (value for value in values),
}


def _object_array(values: list) -> np.ndarray:
    out = np.empty(len(values), dtype=object)
    out[:] = values
    return out


def _pandas():
    import pandas

    return pandas


def _polars():
    import polars

    return polars


def build(kind: str, values: list, rows: str | None = None):
    """``values`` in the container ``kind``; with ``rows``, each item (a list) first in ``rows``."""
    if rows is not None:
        values = [KINDS[rows](row) for row in values]
    return KINDS[kind](values)


SINGLE = {
    "preds": ["the cat sat on the mat", "police killed the gunman", "a b c"],
    "refs": ["the cat was on the mat", "police kill the gunman", "a c d"],
}
MULTI = [["the cat was on the mat", "a cat"], ["police kill the gunman", "the gunman"], ["a c d", "b"]]


def cases() -> list[dict]:
    """Each container for predictions (references a list) and for references (predictions a list), the
    same container on both sides, and rows of several references in each container (equal rows: a
    ``numpy`` outer container is then a 2-D array)."""
    out = []
    for kind in KINDS:
        out.append({"name": f"predictions_{kind}", "predictions": kind, "references": "list"})
        out.append({"name": f"references_{kind}", "predictions": "list", "references": kind})
        out.append({"name": f"both_{kind}", "predictions": kind, "references": kind})
    for rows in ("list", "tuple", "numpy", "numpy_object", "pandas"):
        for outer in ("list", "tuple", "numpy_object", "pandas"):
            out.append({"name": f"rows_{rows}_in_{outer}", "predictions": "list", "references": outer, "rows": rows})
    out.append({"name": "rows_2d_numpy", "predictions": "numpy", "references": "numpy", "rows": "list"})
    for kind in ("numpy", "numpy_object", "pandas", "polars", "tuple"):
        out.append({"name": f"empty_{kind}", "predictions": kind, "references": kind, "empty": True})
    out.append({"name": "rows_pandas_index10", "predictions": "list", "references": "pandas_index10", "rows": "list"})
    return out


def inputs(case: dict):
    """The predictions and references of a case, in its containers."""
    if case.get("empty"):
        return build(case["predictions"], []), build(case["references"], [])
    refs = MULTI if "rows" in case else SINGLE["refs"]
    return build(case["predictions"], SINGLE["preds"]), build(case["references"], refs, case.get("rows"))
