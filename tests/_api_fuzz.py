"""A seeded fuzzer for the Python entry points (issue 25): random summaries in every container type.

Each case draws a few pairs (text, sentence lists, token ids of every integer dtype, and hostile
values: None, numbers, bytes, lone surrogates, float or negative ids, empty summaries), puts them
in a random container (list, tuple, generator, numpy ``str_``/``StringDType``/object arrays,
pandas and polars Series, and the refused ones: a str, a dict, a set, a DataFrame, a 1-d integer
array), and calls one entry point: ``score``, ``Scorer.score_stream``, ``explain``,
``process.cdist``/``extract``/``dedup``, a reward function, or ``compat``'s ``score_batch``.

Every call runs three ways: the compiled engine with ``jobs=1`` and ``jobs=2``, and the pure-Python
twins (``ROUGEKIT_BACKEND=python``). A case passes when

* it returns numbers (no NaN) or raises ``TypeError``, ``ValueError``, ``InputError`` or
  ``OptionError`` with one non-empty line, never another exception;
* the three ways agree: the same numbers, or the same error type naming the same pair;
* a container that is not refused gives what the list of its items gives.

Used by ``tests/test_fuzz_api.py`` (a short run in the suite) and runnable alone::

    PYTHONPATH=src python tests/_api_fuzz.py --seconds 600 --seed 1            # every check (as the suite)
    PYTHONPATH=src python tests/_api_fuzz.py --seconds 600 --seed 1 --lenient  # not whether they agree on bad inputs
"""

from __future__ import annotations

import argparse
import contextlib
import math
import os
import random
import re
import sys
import time
import traceback
import warnings
from dataclasses import dataclass

import numpy as np

WORDS = "the a police killed kill gunman cat sat on mat dog ran of".split() + ["café", "東京", "x\u00a0y", "<q>", "-"]
MEASURES = ["ROUGE-1", "ROUGE-2", "ROUGE-L", "ROUGE-SU4", "ROUGE-W-1.2", "ROUGE-S*"]
INT_DTYPES = ["int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64"]
#: containers whose items are read as a list's (None: refused with a TypeError)
CONTAINERS = ["list", "tuple", "generator", "numpy", "numpy object", "StringDType", "pandas", "pandas string", "polars"]
REFUSED = ["str", "dict", "set", "DataFrame", "1-d int array"]
ENTRY_POINTS = ["score", "score_stream", "explain", "cdist", "extract", "dedup", "reward", "score_batch"]
WAYS = (("compiled", 1), ("compiled", 2), ("python", 1))


# ------------------------------------------------------------------------------------------ inputs


def random_text(rng: random.Random, hostile: bool) -> str:
    words = [rng.choice(WORDS) for _ in range(rng.randint(0, 7))]
    if hostile and rng.random() < 0.15:
        words.insert(rng.randint(0, len(words)), rng.choice(["\ud800", "\udc80", "\udfff", "\x00", "\ufeff"]))
    sep = rng.choice([" ", " ", " ", "\n", "  ", "\t"])
    return sep.join(words)


def random_summary(rng: random.Random, kind: str, hostile: bool):
    """One summary: text (a str or a list of sentences), or token ids; sometimes something else."""
    if hostile and rng.random() < 0.08:
        return rng.choice([None, 5, 2.5, b"the cat", {"the": 1}, np.float64(1.0), np.array([1.5, 2.0])])
    if kind == "text":
        if rng.random() < 0.2:
            return [random_text(rng, hostile) for _ in range(rng.randint(1, 3))]
        return random_text(rng, hostile)
    ids = [rng.randint(0, 12) for _ in range(rng.randint(0, 6))]
    if hostile and ids and rng.random() < 0.1:
        ids[rng.randrange(len(ids))] = rng.choice([-1, 2**31, 2**40])
    shape = rng.random()
    if shape < 0.4:
        return ids
    dtype = rng.choice(INT_DTYPES)
    try:
        return np.array(ids, dtype=dtype)
    except OverflowError:
        return np.array(ids, dtype=np.int64)


def random_references(rng: random.Random, kind: str, hostile: bool):
    """One pair's references: one reference, or a list (container) of them."""
    if rng.random() < 0.5:
        return random_summary(rng, kind, hostile)
    return [random_summary(rng, kind, hostile) for _ in range(rng.randint(1 if not hostile else 0, 3))]


def make(name: str, items: list):
    """``items`` in the container ``name``, or None when that container cannot hold them."""
    try:
        if name == "list":
            return list(items)
        if name == "tuple":
            return tuple(items)
        if name == "generator":
            return (x for x in items)
        text = all(type(x) is str for x in items)
        if name == "numpy":  # numpy's str_ drops trailing NULs: not a container for them
            nul = any(x.endswith("\x00") for x in items if isinstance(x, str))
            return np.array(items, dtype=str) if text and items and not nul else None
        if name == "StringDType":
            return np.array(items, dtype=np.dtypes.StringDType()) if text else None
        if name == "numpy object":
            out = np.empty(len(items), dtype=object)
            for k, x in enumerate(items):
                out[k] = x
            return out
        if name == "pandas":
            import pandas as pd

            return pd.Series(items, dtype=object, index=list(range(len(items)))[::-1])
        if name == "pandas string":
            import pandas as pd

            return pd.Series(items, dtype="string") if text else None
        if name == "polars":
            import polars as pl

            return pl.Series(items, dtype=pl.String) if text else None
        if name == "str":
            return " ".join(x for x in items if isinstance(x, str)) or "the cat"
        if name == "dict":
            return {k: x for k, x in enumerate(items)}
        if name == "set":
            return {x for x in items if isinstance(x, str)} or {"the cat"}
        if name == "DataFrame":
            import pandas as pd

            return pd.DataFrame({"text": pd.Series(items, dtype=object)})
        if name == "1-d int array":
            return np.arange(max(1, len(items)), dtype=np.int64)
    except (ValueError, TypeError, OverflowError):  # e.g. polars cannot hold a mix of types
        return None
    raise AssertionError(name)


@dataclass
class Case:
    entry: str
    kind: str
    hostile: bool
    candidates: list
    references: list
    container: str
    nested: str  # the container of each pair's list of references
    options: dict

    def args(self, container: str | None = None, nested: str | None = None):
        """(candidates, references) in the containers (None: a container that cannot hold them)."""
        container = container or self.container
        nested = nested or self.nested
        refs = []
        for r in self.references:
            if isinstance(r, list) and nested != "list":
                r = make(nested, r)
                if r is None:
                    return None
            refs.append(r)
        c, rs = make(container, self.candidates), make(container, refs)
        if c is None or rs is None:
            return None
        return c, rs


def random_case(rng: random.Random) -> Case:
    entry = rng.choice(ENTRY_POINTS)
    kind = "ids" if entry in ("score", "score_stream", "reward") and rng.random() < 0.3 else "text"
    hostile = rng.random() < 0.3
    n = rng.randint(0 if hostile else 1, 5)
    if entry in ("explain", "extract"):
        n = 1
    candidates = [random_summary(rng, kind, hostile) for _ in range(n)]
    references = [random_references(rng, kind, hostile) for _ in range(n)]
    if entry in ("cdist", "extract", "dedup", "score_batch"):  # one text per entry
        references = [r if not isinstance(r, list) else (r[0] if r else "") for r in references]
    whole = entry in ("score", "cdist", "dedup", "reward", "score_batch")  # the container is the argument
    pool = CONTAINERS + (REFUSED if hostile and whole else [])
    measures = rng.sample(MEASURES, rng.randint(1, 3))
    options: dict = {"measures": measures}
    if kind == "text" and rng.random() < 0.3:
        options["stem"] = True
    if rng.random() < 0.2:
        options["multi_ref"] = rng.choice(["best", "max", "jackknife"])
    nested = rng.choice(CONTAINERS) if entry in ("score", "score_stream", "explain", "reward") else "list"
    return Case(entry, kind, hostile, candidates, references, rng.choice(pool), nested, options)


# ------------------------------------------------------------------------------------------ calls


def _set_backend(name: str) -> None:
    from rougekit.engine import backend

    os.environ[backend.VARIABLE] = name
    backend._reset_for_tests()


def call(case: Case, args, jobs: int):
    """The entry point's numbers (a flat list of floats) for (candidates, references)."""
    import rougekit
    from rougekit import process
    from rougekit.compat import rouge_scorer
    from rougekit.rewards import rouge_reward

    cands, refs = args
    measures = case.options["measures"]
    extra = {k: v for k, v in case.options.items() if k != "measures"}
    if case.entry == "score":
        r = rougekit.score(cands, refs, measures=measures, bootstrap=None, jobs=jobs, **extra)
        return r.data.ravel().tolist()
    if case.entry == "score_stream":
        scorer = rougekit.Scorer(measures, bootstrap=None, jobs=jobs, **extra)
        r = scorer.score_stream(zip(cands, refs), chunk_size=2)
        return r.data.ravel().tolist()
    if case.entry == "explain":
        cand = next(iter(cands)) if not isinstance(cands, (str, dict)) else cands
        ref = next(iter(refs)) if not isinstance(refs, (str, dict)) else refs
        e = rougekit.explain(cand, ref, measures=measures, **extra).to_dict()
        return [v for m in e["measures"].values() for v in (m.get("recall"), m.get("precision"), m.get("f"))]
    measure = measures[0] if measures[0] not in ("ROUGE-S*",) else "ROUGE-L"
    if case.entry == "cdist":
        return process.cdist(cands, refs, measure=measure, workers=jobs, dtype="float64").ravel().tolist()
    if case.entry == "extract":
        query = next(iter(cands)) if not isinstance(cands, (str, dict)) else cands
        return [m.score for m in process.extract(query, refs, measure=measure, workers=jobs)]
    if case.entry == "dedup":
        d = process.dedup(cands, measure=rng_measure(measure), threshold=0.5)
        return [float(i) for i in d.kept] + [x.score for x in d.dropped]
    if case.entry == "reward":
        field = "completion_ids" if case.kind == "ids" else "completions"
        reward = rouge_reward(measures[0], completion_field=field, jobs=jobs, **extra)
        if field == "completion_ids":
            return reward(completion_ids=cands, reference=refs)
        return reward(cands, reference=refs)
    if case.entry == "score_batch":
        scorer = rouge_scorer.RougeScorer(["rouge1", "rougeL"], use_stemmer=bool(extra.get("stem")))
        return [v for s in scorer.score_batch(refs, cands, jobs=jobs) for x in s.values() for v in x]
    raise AssertionError(case.entry)


def rng_measure(measure: str) -> str:
    return "rougeL" if measure == "ROUGE-L" else measure


def outcome(case: Case, args, way: tuple[str, int]):
    """("ok", numbers) or ("error", type name, message), or ("crash", traceback)."""
    from rougekit.errors import RougeKitError

    _set_backend(way[0])
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return ("ok", call(case, args, way[1]))
    except (TypeError, ValueError, RougeKitError) as e:
        return ("error", type(e).__name__, str(e))
    except AttributeError as e:  # rouge-score's own error for a text that is no str: kept by the drop-in
        if case.entry != "score_batch":
            raise
        return ("error", type(e).__name__, str(e))
    except Exception:  # noqa: BLE001 - the fuzz reports every other exception
        return ("crash", traceback.format_exc())


def _same(a, b) -> bool:
    if a[0] != b[0]:
        return False
    if a[0] == "ok":
        return len(a[1]) == len(b[1]) and all(
            x == y or (isinstance(x, float) and isinstance(y, float) and math.isnan(x) and math.isnan(y))
            for x, y in zip(a[1], b[1])
        )
    if a[0] == "error":
        return a[1] == b[1] and _pair(a[2]) == _pair(b[2])
    return True


def _pair(message: str):
    found = re.search(r"\bpair (\d+)", message)
    return found.group(1) if found else None


def check(case: Case, strict: bool = True) -> str | None:
    """The first problem of a case, or None. ``strict=False`` leaves out whether the three ways agree on
    a case with bad inputs (which of several bad pairs an error names, a lone surrogate in the compiled
    and pure ``score_batch``); the suite runs it strict.
    The backend the caller had is restored (a test after this one must not run on the pure twins)."""
    with _backend_kept():
        return _check(case, strict)


@contextlib.contextmanager
def _backend_kept():
    from rougekit.engine import backend

    saved = os.environ.get(backend.VARIABLE)
    try:
        yield
    finally:
        if saved is None:
            os.environ.pop(backend.VARIABLE, None)
        else:
            os.environ[backend.VARIABLE] = saved
        backend._reset_for_tests()


def _check(case: Case, strict: bool) -> str | None:
    args = case.args()
    if args is None:
        return None
    results = []
    for way in WAYS:
        args = case.args()  # a generator is used once: a fresh container per call
        results.append(outcome(case, args, way))
    for way, r in zip(WAYS, results):
        if r[0] == "crash":
            return f"{way}: uncaught exception\n{r[1]}"
        if r[0] == "error" and (not r[2] or "\n" in r[2]):
            return f"{way}: the {r[1]} is not one line: {r[2]!r}"
        if r[0] == "ok" and any(isinstance(v, float) and math.isnan(v) for v in r[1]) and case.entry != "score":
            return f"{way}: NaN in the result"
    for way, r in zip(WAYS[1:], results[1:]):
        if (strict or not case.hostile) and not _same(results[0], r):
            return f"{WAYS[0]} and {way} disagree: {_short(results[0])} vs {_short(r)}"
    if case.container in REFUSED:
        if results[0][0] != "error" or results[0][1] != "TypeError":
            return f"a {case.container} was not refused: {_short(results[0])}"
        return None
    listed = case.args("list", "list")
    _set_backend("compiled")
    expected = outcome(case, listed, ("compiled", 1))
    if not _same(expected, results[0]):
        got, want = _short(results[0]), _short(expected)
        return f"a {case.container} (references in a {case.nested}) differs from a list: {got} vs {want}"
    return None


def _short(r) -> str:
    return repr(r)[:300]


def fuzz(
    iterations: int, seed: int, seconds: float | None = None, log=None, strict: bool = True
) -> list[tuple[int, str, Case]]:
    """Run up to ``iterations`` cases (or ``seconds``); the problems found, as (case number, problem, case)."""
    found = []
    start = time.monotonic()
    with _backend_kept():
        for k in range(iterations):
            if seconds is not None and time.monotonic() - start > seconds:
                break
            case = random_case(random.Random(f"{seed}:{k}"))
            problem = check(case, strict)
            if problem:
                found.append((k, problem, case))
                if log:
                    print(f"case {k}: {problem}\n  {case}", file=log, flush=True)
    return found


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=10**9)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--lenient", action="store_true", help="as the suite: the three ways may disagree on bad inputs"
    )
    a = parser.parse_args(argv)
    start = time.monotonic()
    found = fuzz(a.iterations, a.seed, a.seconds, log=sys.stdout, strict=not a.lenient)
    print(f"{len(found)} problem(s) in {time.monotonic() - start:.0f} s (seed {a.seed})")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
