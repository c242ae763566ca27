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

rouge_score = pytest.importorskip("rouge_score.rouge_scorer")

# U+D800 escapes no byte (no UTF-8 form at all); U+DCFF is the byte 0xFF read with surrogateescape
SURROGATES = "the \ud800 cat SAT \udcff on the mat"


def test_rouge_score_tokenizer_reads_lone_surrogates_as_rouge_score_does():
    # rouge-score lower-cases and replaces every character outside a-z0-9 (a surrogate too) by a space
    peer = rouge_score.RougeScorer(["rouge1", "rougeL"]).score("the cat sat", SURROGATES)
    assert peer["rouge1"].precision == 0.5 and peer["rouge1"].recall == 1.0
    from rougekit.compat import rouge_scorer

    ours = rouge_scorer.RougeScorer(["rouge1", "rougeL"]).score_batch(["the cat sat"], [SURROGATES])[0]
    for key in ("rouge1", "rougeL"):
        assert tuple(ours[key]) == tuple(peer[key])


def test_dedup_cdist_extract_read_lone_surrogates_with_rouge_scores_tokenizer():
    texts = [SURROGATES, "the cat sat on the mat", "dogs bark"]
    # rouge-score's rougeL F of text 1 (target) against text 0 (prediction): 6 tokens each, LCS 6
    assert rouge_score.RougeScorer(["rougeL"]).score(texts[1], texts[0])["rougeL"].fmeasure == 1.0
    result = process.dedup(texts)
    assert result.kept == [0, 2] and [(d.index, d.match, d.score) for d in result.dropped] == [(1, 0, 1.0)]
    # the query (6 tokens) against "the cat sat" (3): P 3/6, R 3/3, F 2/3
    assert process.cdist([SURROGATES], ["the cat sat"], measure="rougeL", dtype="float64")[0, 0] == 2 / 3
    assert process.extract(SURROGATES, ["the cat sat"], measure="rougeL")[0].score == 2 / 3


def test_the_scripts_tokenizer_still_refuses_a_surrogate_that_escapes_no_byte():
    with pytest.raises(InputError, match="pair 1: candidate holds a lone surrogate"):
        rougekit.score([SURROGATES], ["the cat"], measures=["ROUGE-1"], bootstrap=None)
    with pytest.raises(InputError, match="text 1 is not valid Unicode"):
        process.cdist([SURROGATES], ["the cat sat"])


_BOTH = """
import json, sys
from rougekit import process
from rougekit.compat import rouge_scorer
s = json.loads(sys.argv[1])
batch = rouge_scorer.RougeScorer(["rouge1", "rougeL"]).score_batch(["the cat sat"], [s])[0]
out = {"dedup": [process.dedup([s, "the cat sat on the mat", "dogs bark"]).kept],
       "batch": [tuple(v) for v in batch.values()]}
for name, call in (("score", lambda: __import__("rougekit").score([s], ["a"], measures=["ROUGE-1"], bootstrap=None)),
                   ("cdist", lambda: process.cdist([s], ["the cat"]))):
    try:
        call()
        out[name] = "ok"
    except Exception as exc:
        out[name] = f"{type(exc).__name__}: {exc}"
print(json.dumps(out))
"""


def test_compiled_engine_and_pure_twins_accept_and_refuse_the_same_texts():
    from rougekit._core import batch

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
    assert runs["compiled"]["dedup"] == [[0, 2]]
    assert runs["compiled"]["score"].startswith("InputError: pair 1: candidate holds a lone surrogate")


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
