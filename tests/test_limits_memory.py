"""Issue 17 item 9: bounded memory for long texts and long streams (docs/limits.md)."""

import os
import subprocess
import sys

import pytest
from _paths import subprocess_env

import rougekit
from rougekit import limits
from rougekit.engine import batch as batch_module
from rougekit.errors import InputError

pytestmark = pytest.mark.skipif(not batch_module.AVAILABLE, reason="the compiled batch engine is not built")

_PEAK = """
import random, sys
import rougekit
n = int(sys.argv[1])
rng = random.Random(1)
words = [f"w{i}" for i in range(5000)]
a = " ".join(rng.choice(words) for _ in range(n))
b = " ".join(rng.choice(words) for _ in range(n))
r = rougekit.score([a], [b], measures=["ROUGE-W-1.2", "ROUGE-L", "ROUGE-1", "ROUGE-2", "ROUGE-SU4"], bootstrap=None)
r.per_pair()
# VmHWM: this process's own peak (ru_maxrss would also count the forking test process, Linux keeps it across exec)
print(next(int(line.split()[1]) for line in open('/proc/self/status') if line.startswith('VmHWM')) // 1024)
"""


def test_the_engine_and_the_docs_agree_on_the_limit():
    n = int(limits.MAX_TRACE_CELLS**0.5)
    assert n == 40_000
    text = " ".join(["x"] * (n + 1))
    with pytest.raises(InputError, match=f"above {limits.MAX_TRACE_CELLS:.0f} token pairs"):
        rougekit.score([text], [" ".join(["x"] * n)], measures=["ROUGE-W-1.2"], bootstrap=None)
    rougekit.score([text[2:]], [" ".join(["x"] * n)], measures=["ROUGE-W-1.2"], bootstrap=None)  # n x n: allowed


@pytest.mark.skipif(not os.path.exists("/proc/self/status"), reason="peak memory is read from Linux's /proc")
def test_largest_documented_input_stays_under_500_mb():
    # 40,000 x 40,000 tokens in one sentence each: the largest trace-back table limits.py allows
    n = int(limits.MAX_TRACE_CELLS**0.5)
    assert n * n <= limits.MAX_TRACE_CELLS
    env = subprocess_env(ROUGEKIT_BACKEND="compiled")
    out = subprocess.run([sys.executable, "-c", _PEAK, str(n)], capture_output=True, text=True, env=env, timeout=600)
    assert out.returncode == 0, out.stderr[-2000:]
    peak_mb = int(out.stdout.split()[-1])
    assert peak_mb < 500, f"peak {peak_mb} MB for {n}-token texts (PYTHONPATH={env['PYTHONPATH']})"


@pytest.mark.parametrize("measure", ["ROUGE-L", "ROUGE-W-1.2"])
@pytest.mark.parametrize("backend_path", ["batch", "readable"])
def test_trace_table_above_the_limit_is_an_input_error(measure, backend_path, monkeypatch):
    n = int(limits.MAX_TRACE_CELLS**0.5) + 1
    long_text = " ".join(["x"] * n)
    if backend_path == "readable":  # the readable path's check runs before any table is built
        monkeypatch.setattr(rougekit.Scorer, "_batch", lambda self: None)
    with pytest.raises(InputError, match="trace-back"):
        rougekit.score([long_text], [long_text], measures=[measure], bootstrap=None)


def test_batch_engine_vocabulary_is_bounded(monkeypatch):
    monkeypatch.setattr(batch_module, "VOCABULARY_LIMIT", 50)

    def make():
        return batch_module.BatchScorer(
            [rougekit.Measure("N", 1), rougekit.Measure("L")],
            stem=True,
            stopwords=False,
            word_limit=0,
            byte_limit=0,
            mode="A",
            alpha=0.5,
        )

    def texts(tag):
        cands = [" ".join(f"{tag}{i}t{k}" for k in range(5)) + " shared words" for i in range(200)]
        refs = [[" ".join(f"{tag}{i}t{k}" for k in range(3)) + " shared"] for i in range(200)]
        return cands, refs

    scorer = make()
    first = scorer.score_arrays(*texts("a"))
    assert scorer.vocabulary_size == 1002  # 1000 + "shared" + "words"
    second = scorer.score_arrays(*texts("b"))  # starts afresh: it knew 1002 > 50 types
    assert scorer.vocabulary_size == 1002
    assert (first == make().score_arrays(*texts("a"))).all()
    assert (second == make().score_arrays(*texts("b"))).all()
    # hand check of one pair: the 4 reference tokens are all among the 7 candidate tokens
    assert tuple(second[0, 0, :4]) == (4.0, 4.0, 7.0, 1.0)


def test_scorer_vocabulary_is_bounded(monkeypatch):
    import rougekit.api as api

    monkeypatch.setattr(api, "VOCABULARY_LIMIT", 30)
    scorer = rougekit.Scorer(measures=["ROUGE-1", "ROUGE-L"], tokenizer="unicode", bootstrap=None)
    pairs = [(f"alpha{i} beta{i} gamma", f"alpha{i} gamma") for i in range(100)]
    results = [scorer.score([c], [r]).per_pair()[0] for c, r in pairs]
    assert len(scorer.vocab) <= 30 + 5
    # alpha{i} and gamma match: R = 2/2, P = 2/3
    assert all(r["ROUGE-1"]["recall"] == 1.0 and r["ROUGE-1"]["precision"] == 0.66667 for r in results)


@pytest.mark.parametrize("rouge_type", ["rougeL", "rougeLsum"])
def test_trace_table_above_the_limit_is_an_input_error_in_the_per_pair_scorers(rouge_type):
    from rougekit.compat import multilingual_rouge, rouge_scorer

    n = int(limits.MAX_TRACE_CELLS**0.5) + 1
    long_text = " ".join(["x"] * n)
    for scorer in (rouge_scorer.RougeScorer([rouge_type]), multilingual_rouge.RougeScorer([rouge_type])):
        with pytest.raises(InputError, match="trace-back"):
            scorer.score(long_text, long_text)
