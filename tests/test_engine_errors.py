"""The engine and its pure twins agree on what they refuse, and an error names the same pair
whatever the number of jobs (issue 25, finding 15)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
import pytest

import rougekit
from rougekit import process
from rougekit.errors import InputError

# U+D800 escapes no byte (no UTF-8 form at all); U+DCFF is the byte 0xFF read with surrogateescape
SURROGATES = "the \ud800 cat SAT \udcff on the mat"


def test_a_surrogate_escaping_a_byte_is_that_byte_for_rouge_scores_tokenizer():
    # "\udcff" is the byte 0xFF (not a-z0-9: a separator); rouge-score's rougeL of 6 tokens each
    texts = ["the \udcff cat sat on the mat", "the cat sat on the mat", "dogs bark"]
    result = process.dedup(texts)
    assert result.kept == [0, 2] and [(d.index, d.match, d.score) for d in result.dropped] == [(1, 0, 1.0)]


_BOTH = """
import json, sys
import rougekit
from rougekit import process
from rougekit.errors import InputError
s = json.loads(sys.argv[1])
out = {}
calls = {
    "dedup": lambda: process.dedup(["a b", s]),
    "cdist": lambda: process.cdist([s], ["the cat"], measure="rougeL"),
    "extract": lambda: process.extract(s, ["the cat"], measure="rougeL"),
    "score": lambda: rougekit.score([s], ["a"], measures=["ROUGE-1"], bootstrap=None),
    "cdist155": lambda: process.cdist([s], ["the cat"]),
}
for name, call in calls.items():
    try:
        call()
        out[name] = "ok"
    except Exception as exc:
        out[name] = f"{type(exc).__name__}: {exc}"
print(json.dumps(out))
"""


def test_compiled_engine_and_pure_twins_refuse_the_same_texts_with_the_same_error():
    from rougekit.engine import batch

    if not batch.AVAILABLE:  # pragma: no cover - depends on the build
        pytest.skip("compares the compiled engine with the twins: the engine is not built")
    runs = {}
    for backend in ("compiled", "python"):
        env = dict(os.environ, ROUGEKIT_BACKEND=backend, PYTHONWARNINGS="ignore")
        argv = [sys.executable, "-c", _BOTH, json.dumps(SURROGATES)]
        out = subprocess.run(argv, env=env, capture_output=True, text=True)
        assert out.returncode == 0, out.stderr[-2000:]
        runs[backend] = json.loads(out.stdout)
    assert runs["compiled"] == runs["python"]
    assert runs["python"] == {
        "dedup": "InputError: texts: text 2 is not valid Unicode (a lone surrogate such as '\\ud800')",
        "cdist": "InputError: queries: text 1 is not valid Unicode (a lone surrogate such as '\\ud800')",
        "extract": "InputError: queries: text 1 is not valid Unicode (a lone surrogate such as '\\ud800')",
        "score": "InputError: pair 1: candidate holds a lone surrogate (not valid Unicode text)",
        "cdist155": "InputError: queries: text 1 is not valid Unicode (a lone surrogate such as '\\ud800')",
    }


def _bad_ids():
    c = [[1]] * 8
    c[1] = np.array([1.0])  # pair 2: not token ids (TypeError)
    c[7] = [-1]  # pair 8: an id out of range (InputError)
    return c


@pytest.mark.parametrize("jobs", [1, 2, 3, 8])
def test_an_error_names_the_first_bad_pair_whatever_the_jobs(jobs):
    with pytest.raises(TypeError, match=r"^pair 2: candidate: token ids must be integers"):
        rougekit.score(_bad_ids(), [[1]] * 8, measures=["ROUGE-1"], bootstrap=None, jobs=jobs)


@pytest.mark.parametrize("jobs", [1, 2, 4])
def test_the_first_of_two_bad_int32_arrays_is_named_whatever_the_jobs(jobs):
    c = [np.array([1, 2], dtype=np.int32)] * 40
    c[5] = np.array([3, -7], dtype=np.int32)
    c[30] = np.array([-9], dtype=np.int32)
    with pytest.raises(InputError, match=r"pair 6: .*-7"):
        rougekit.score(c, [np.array([1], dtype=np.int32)] * 40, measures=["ROUGE-1"], bootstrap=None, jobs=jobs)


@pytest.mark.parametrize("jobs", [1, 2, 4])
def test_the_first_bad_text_pair_is_named_whatever_the_jobs(jobs):
    cands = ["the cat sat"] * 40
    cands[9] = 5
    cands[33] = 7.5
    with pytest.raises(TypeError, match=r"pair 10: candidate"):
        rougekit.score(cands, ["the cat"] * 40, measures=["ROUGE-1"], bootstrap=None, jobs=jobs)


_W_THEN_NOT_TEXT = """
import json, sys
import rougekit
c = ["the cat sat"] * 100
r = [["the cat"]] * 100
r[3] = ["..."]  # pair 4: a reference with no tokens (ROUGE-W is undefined)
c[6] = 5  # pair 7: not text
try:
    rougekit.score(c, r, measures=["ROUGE-1", "ROUGE-W-1.2"], bootstrap=None, jobs=int(sys.argv[1]))
    print(json.dumps("ok"))
except Exception as exc:
    print(json.dumps([type(exc).__name__, str(exc), exc.__context__ is None or exc.__suppress_context__]))
"""


@pytest.mark.parametrize("backend, jobs", [("compiled", 1), ("compiled", 2), ("compiled", 3), ("python", 1)])
def test_a_count_error_before_a_reading_error_is_named_first_whatever_the_jobs_and_backend(backend, jobs):
    """Pairs 1-9 fall in one chunk with 1, 2 or 3 jobs (100 pairs): the chunk is read (pair 7 fails),
    then read again pair by pair, so that pair 4's ROUGE-W error is the one raised, as on the
    readable path, which reads and counts each pair before the next."""
    from rougekit.engine import batch

    if backend == "compiled" and not batch.AVAILABLE:  # pragma: no cover - depends on the build
        pytest.skip("the compiled engine is not built")
    env = dict(os.environ, ROUGEKIT_BACKEND=backend, PYTHONWARNINGS="ignore")
    out = subprocess.run([sys.executable, "-c", _W_THEN_NOT_TEXT, str(jobs)], env=env, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr[-2000:]
    assert json.loads(out.stdout) == [
        "InputError",
        "pair 4: ROUGE-W is undefined for a reference with no tokens (ROUGE-1.5.5 dies with a division by zero here)",
        True,  # no other error shown as its context
    ]
