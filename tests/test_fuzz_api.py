"""The Python entry-point fuzz (issue 25): random summaries in every container type, through score,
Scorer.score_stream, explain, process, rewards and compat's score_batch, each run with the compiled
engine (jobs 1 and 2) and the pure twins (see ``tests/_api_fuzz.py``). The suite runs a short,
time-bounded profile; a longer run::

    ROUGEKIT_API_FUZZ_SECONDS=600 ROUGEKIT_API_FUZZ_SEED=1 PYTHONPATH=src python -m pytest -q tests/test_fuzz_api.py
    PYTHONPATH=src python tests/_api_fuzz.py --seconds 600 --seed 1
"""

from __future__ import annotations

import os
import random

import _api_fuzz as fuzz

SECONDS = float(os.environ.get("ROUGEKIT_API_FUZZ_SECONDS", "20"))
SEED = int(os.environ.get("ROUGEKIT_API_FUZZ_SEED", "0"))


def test_api_fuzz_finds_no_crash_disagreement_or_container_misread():
    found = fuzz.fuzz(10**9, SEED, SECONDS, strict=True)  # the three ways also agree on bad inputs
    report = "\n\n".join(f"case {k}: {problem}\n{case}" for k, problem, case in found[:10])
    assert not found, f"{len(found)} problem(s) with seed {SEED}:\n{report}"


def test_fuzz_reaches_the_scoring_code():
    """The generator must not only make bad inputs: every entry point should also return numbers."""
    ok: dict[str, int] = {}
    for k in range(150):
        case = fuzz.random_case(random.Random(f"{SEED}:{k}"))
        args = case.args()
        if args is not None and fuzz.outcome(case, args, ("compiled", 1))[0] == "ok":
            ok[case.entry] = ok.get(case.entry, 0) + 1
    assert set(ok) == set(fuzz.ENTRY_POINTS), ok


def test_the_checker_flags_bad_results():
    case = fuzz.Case("score", "text", False, ["the cat"], ["the cat"], "list", "list", {"measures": ["ROUGE-1"]})
    assert fuzz.check(case) is None
    refused = fuzz.Case("score", "text", True, ["the cat"], ["the cat"], "str", "list", {"measures": ["ROUGE-1"]})
    assert fuzz.check(refused) is None  # a str is refused with a TypeError
    assert fuzz._same(("ok", [1.0]), ("ok", [1.0])) and not fuzz._same(("ok", [1.0]), ("ok", [0.5]))
    assert not fuzz._same(("error", "TypeError", "pair 1: x"), ("error", "TypeError", "pair 2: x"))
    assert not fuzz._same(("ok", [1.0]), ("error", "TypeError", "pair 1: x"))


def test_a_check_leaves_the_backend_as_it_found_it():
    """check() runs each case on the pure twins too: the backend of the tests after it is restored."""
    from rougekit.engine import backend

    before = (os.environ.get(backend.VARIABLE), backend.name())
    case = fuzz.Case("score", "text", False, ["the cat"], ["the cat"], "list", "list", {"measures": ["ROUGE-1"]})
    assert fuzz.check(case) is None
    assert (os.environ.get(backend.VARIABLE), backend.name()) == before
