"""rougekit.dask.cdist, extract and dedup on a real distributed.LocalCluster (2 worker processes)
against rougekit.process.cdist / extract / dedup in this process (themselves held to rouge-score and to
rougekit.score by tests/test_process.py): the same matrix bit for bit, the same kept and dropped."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest
from _paths import SHARED, shared_missing

from rougekit import process
from rougekit.errors import InputError, OptionError

dask = pytest.importorskip("dask", reason="dask is not installed (pip install 'rougekit[dask]')")
distributed = pytest.importorskip("distributed", reason="distributed is not installed (pip install 'rougekit[dask]')")

import rougekit.dask as rdask  # noqa: E402

SUMMEVAL = SHARED / "data" / "summeval" / "summeval.jsonl"


@pytest.fixture(scope="module")
def client():
    """One real cluster for the module: two worker processes with one thread each."""
    cluster = distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None, worker_dashboard_address=None
    )
    with distributed.Client(cluster) as c:
        yield c
    cluster.close()


def summeval_sentences(limit: int) -> list[str]:
    """Sentences of SummEval's system and reference summaries, in file order (duplicates kept)."""
    if not SUMMEVAL.exists():
        pytest.skip(shared_missing(SUMMEVAL))
    out: list[str] = []
    with SUMMEVAL.open(encoding="utf-8") as f:
        for line in f:
            doc = json.loads(line)
            summaries = [doc["sys_summs"][s]["sys_summ"] for s in sorted(doc["sys_summs"])] + doc["ref_summs"]
            for summary in summaries:
                out.extend(s.strip() for s in summary.split(" . ") if s.strip())
    return out[:limit]


def near_duplicates(n: int, seed: int) -> list[str]:
    """Texts that often repeat an earlier one with a word or two changed (many drops, many ties)."""
    rng = random.Random(seed)
    words = "the a cat dog sat ran on mat rug and of police gunman killed shot was".split()
    out: list[str] = []
    for _ in range(n):
        if out and rng.random() < 0.6:
            base = rng.choice(out).split()
            base[rng.randrange(len(base))] = rng.choice(words)
            out.append(" ".join(base))
        else:
            out.append(" ".join(rng.choice(words) for _ in range(rng.randint(2, 10))))
    return out


@pytest.mark.parametrize("threshold", [0.5, 0.7, 0.9])
def test_dedup_summeval_sentences(client, threshold):
    texts = summeval_sentences(3000)
    assert len(texts) == 3000
    got = rdask.dedup(texts, threshold=threshold, block_size=700)
    want = process.dedup(texts, threshold=threshold)
    assert got == want
    assert got.dropped  # SummEval's systems copy sentences: the rule has something to do


@pytest.mark.parametrize(
    "options",
    [
        {"measure": "rougeL"},
        {"measure": "rougeL", "stem": True},
        {"measure": "ROUGE-L"},
        {"measure": "ROUGE-1", "stem": True},
    ],
)
def test_dedup_near_duplicates_small_blocks(client, options):
    texts = near_duplicates(300, seed=len(str(options)))
    got = rdask.dedup(texts, threshold=0.7, block_size=37, **options)
    want = process.dedup(texts, threshold=0.7, **options)
    assert got == want
    assert len(got.dropped) > 50


@pytest.mark.parametrize(
    "measure, stat, cutoff, dtype",
    [
        ("rougeL", "f", None, np.float64),
        ("rougeL", "recall", 0.4, np.float32),
        ("ROUGE-L", "f", None, np.float64),
        ("ROUGE-2", "precision", 0.2, np.float64),
    ],
)
def test_cdist_blocks_equal_the_single_process_matrix(client, measure, stat, cutoff, dtype):
    queries = near_duplicates(90, seed=1)
    choices = near_duplicates(130, seed=2)
    got = rdask.cdist(
        queries, choices, measure=measure, stat=stat, score_cutoff=cutoff, dtype=dtype, block_size=(17, 40)
    )
    want = process.cdist(queries, choices, measure=measure, stat=stat, score_cutoff=cutoff, dtype=dtype)
    assert got.dtype == want.dtype and got.shape == (90, 130)
    assert np.array_equal(got, want)
    assert np.count_nonzero(got) > 100


@pytest.mark.parametrize(
    "limit, cutoff, options",
    [
        (5, None, {"measure": "rougeL"}),
        (3, 0.5, {"measure": "ROUGE-L", "stem": True}),
        (None, 0.3, {"measure": "ROUGE-1", "stat": "recall"}),
        (1, None, {"measure": "ROUGE-2"}),
    ],
)
def test_extract_blocks_equal_the_single_process_matches(client, limit, cutoff, options):
    """Each block's best, merged: the same matches (order and ties: the lower index first) as
    process.extract on each query; the near duplicates give many ties across block borders."""
    queries = near_duplicates(40, seed=3)
    choices = near_duplicates(150, seed=4)
    got = rdask.extract(queries, choices, limit=limit, score_cutoff=cutoff, block_size=(7, 23), **options)
    want = [process.extract(q, choices, limit=limit, score_cutoff=cutoff, **options) for q in queries]
    assert got == want
    rows = process.cdist(queries, choices, dtype=np.float64, **options)
    spread_ties = [q for q, row in enumerate(rows) if len({j // 23 for j in np.flatnonzero(row == row.max())}) > 1]
    assert len(spread_ties) > 5  # best scores tied across block borders: the merge must keep the lower index
    assert sum(map(len, want)) >= 40


def test_cdist_summeval(client):
    texts = summeval_sentences(1200)
    got = rdask.cdist(texts[:200], texts[200:], measure="rougeL", block_size=(64, 256))
    assert np.array_equal(got, process.cdist(texts[:200], texts[200:], measure="rougeL"))


def test_bad_input(client):
    with pytest.raises(InputError, match=r"texts\[1\] is empty"):
        rdask.dedup(["a b", "  ", "c"])
    with pytest.raises(OptionError, match="threshold must be within 0 and 1"):
        rdask.dedup(["a b"], threshold=1.5)
    with pytest.raises(OptionError, match="block_size"):
        rdask.dedup(["a b"], block_size=0)
    with pytest.raises(TypeError, match=r"choices\[0\]: expected a text"):
        rdask.cdist(["a"], [None])
    with pytest.raises(OptionError, match="keep must be 'first'"):
        rdask.dedup(["a b"], keep="last")
    assert rdask.dedup([]).kept == [] and rdask.cdist([], ["a"]).shape == (0, 1)
    with pytest.raises(OptionError, match="limit must be a positive integer or None"):
        rdask.extract(["a"], ["a"], limit=0)
    assert rdask.extract([], ["a"]) == [] and rdask.extract(["a"], []) == [[]]


# -- phase 1 on the filtered index ------------------------------------------------------------------


def _brute_pairs(texts: list[str], threshold: float) -> set:
    """Every (new, old, F) with old < new and F above the threshold, from the full matrix."""
    f = process.cdist(texts, texts, measure="rougeL", dtype=np.float64)
    return {(j, i, f[i, j]) for j in range(len(texts)) for i in range(j) if f[i, j] > threshold}


@pytest.mark.parametrize("threshold", [0.0, 0.3, 0.5, 0.7, 0.85, 1.0])
def test_the_prefix_index_finds_every_pair_of_the_full_matrix(threshold):
    """Prefix filtering loses no pair: the blocks' pairs are the matrix's, F bit for bit (uneven
    blocks, texts with no token, exact repeats)."""
    from rougekit.process.blocks import PrefixIndex
    from rougekit.process.encode import Encoder

    texts = near_duplicates(260, seed=11) + ["!!!", "the cat", "the cat", "?"]
    index = PrefixIndex(Encoder("rougeL").encode(texts), threshold)
    got: set = set()
    for j0 in range(0, len(texts), 61):
        new, old, f = index.pairs_above(j0, min(len(texts), j0 + 61))
        assert np.all(old < new) and np.all((new >= j0) & (new < j0 + 61))
        got |= set(zip(new.tolist(), old.tolist(), f.tolist()))
    want = _brute_pairs(texts, threshold)
    assert got == want
    assert len(want) > (100 if threshold < 1 else -1)


def test_rougel_dedup_does_not_compute_the_block_matrices(monkeypatch):
    """rougeL goes through the prefix index (the block matrices would score every pair)."""
    import rougekit.dask.matrix as dm
    import rougekit.process.cluster as cluster

    def no_matrix(*args, **kwargs):
        raise AssertionError("a block matrix was computed")

    texts = near_duplicates(200, seed=3)
    monkeypatch.setattr(dm, "process_cdist", no_matrix)
    monkeypatch.setattr(cluster, "process_cdist", no_matrix)  # the pair search of the other measures
    with dask.config.set(scheduler="synchronous"):  # in this process, where the patch is
        got = rdask.dedup(texts, threshold=0.7, block_size=30)
        with pytest.raises(AssertionError, match="block matrix"):
            rdask.dedup(texts, threshold=0.7, block_size=30, measure="ROUGE-L")
    assert got == process.dedup(texts, threshold=0.7) and len(got.dropped) > 50


@pytest.mark.parametrize("n, block_size", [(0, 5), (1, 5), (7, 100), (103, 10), (150, 149), (64, 1)])
def test_dedup_on_uneven_and_empty_blocks(client, n, block_size):
    texts = near_duplicates(n, seed=n)
    got = rdask.dedup(texts, threshold=0.7, block_size=block_size)
    assert got == process.dedup(texts, threshold=0.7)
    assert len(got) == n


@pytest.mark.parametrize("scheduler", ["synchronous", "threads", "processes"])
def test_dedup_in_waves_on_the_local_schedulers(scheduler):
    """Without a distributed client the blocks go in waves (one wave for processes, which would get
    the index again with each): process.dedup's decisions either way."""
    texts = near_duplicates(700, seed=11)
    with dask.config.set(scheduler=scheduler, num_workers=2):
        got = rdask.dedup(texts, threshold=0.7, block_size=13)
    assert got == process.dedup(texts, threshold=0.7) and len(got.dropped) > 100
