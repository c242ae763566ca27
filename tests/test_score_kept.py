"""rougekit.score on token ids reuses the scorer an earlier call with the same options made (issue 28:
the fixed cost of an RL reward's call), with the numbers of a new scorer; texts, other options, errors
and threads each get a scorer of their own. Expected values computed by hand below."""

import threading

import numpy as np
import pytest

import rougekit
from rougekit import api

M = ["ROUGE-1", "ROUGE-2"]
# pair A: candidate 1 2 3 4, reference 1 2 5: ROUGE-1 hits 2, P 2/4, R 2/3, F 4/7; ROUGE-2 (1 2) of
# three and two bigrams: P 1/3, R 1/2, F 0.4. Pair B: 7 7 8 against 7 8 8 9: ROUGE-1 hits 1 + 1,
# P 2/3, R 2/4, F 4/7; ROUGE-2 (7 8) of two and three bigrams: P 1/2, R 1/3, F 0.4
PAIRS_A = ([np.array([1, 2, 3, 4], dtype=np.int32)], [np.array([1, 2, 5], dtype=np.int32)])
PAIRS_B = ([[7, 7, 8]], [[7, 8, 8, 9]])


@pytest.fixture
def made(monkeypatch):
    """The Scorers made (a list of one entry per construction), with no idle scorer to start with."""
    monkeypatch.setattr(api, "_IDLE", {}, raising=False)
    count: list = []
    init = api.Scorer.__init__

    def counted(self, *a, **k):
        count.append(1)
        init(self, *a, **k)

    monkeypatch.setattr(api.Scorer, "__init__", counted)
    return count


def _f(result, m):
    return result.values(m, "f").tolist()


def test_ids_calls_reuse_one_scorer_with_the_same_numbers(made):
    a = rougekit.score(*PAIRS_A, measures=M, bootstrap=None)
    b = rougekit.score(*PAIRS_B, measures=M, bootstrap=None)  # other ids: nothing of the first call kept
    a2 = rougekit.score(*PAIRS_A, measures=M, bootstrap=None)
    assert len(made) == 1  # before: a new Scorer at every call (3)
    for res in (a, a2):
        assert _f(res, "ROUGE-1") == pytest.approx([4 / 7], abs=1e-5)
        assert _f(res, "ROUGE-2") == pytest.approx([0.4], abs=1e-5)
    assert res.values("ROUGE-1", "precision").tolist() == pytest.approx([0.5], abs=1e-5)
    assert _f(b, "ROUGE-1") == pytest.approx([4 / 7], abs=1e-5)
    assert b.values("ROUGE-2", "recall").tolist() == pytest.approx([1 / 3], abs=1e-5)


def test_other_options_get_their_own_scorer(made):
    rougekit.score(*PAIRS_A, measures=M, bootstrap=None)
    # alpha 0.2 on pair A's ROUGE-1: 1 / (0.2 / 0.5 + 0.8 / (2/3)) = 1 / 1.6
    r = rougekit.score(*PAIRS_A, measures=M, bootstrap=None, alpha=0.2)
    assert _f(r, "ROUGE-1") == pytest.approx([0.625], abs=1e-5)
    r = rougekit.score(*PAIRS_A, measures=["ROUGE-1"], bootstrap=None)
    assert _f(r, "ROUGE-1") == pytest.approx([4 / 7], abs=1e-5)
    assert len(made) == 3
    r = rougekit.score(*PAIRS_A, measures=M, bootstrap=None)  # the first options again: kept
    assert _f(r, "ROUGE-1") == pytest.approx([4 / 7], abs=1e-5)
    assert len(made) == 3


def test_a_scorer_that_read_text_is_not_kept(made):
    rougekit.score(*PAIRS_A, measures=M, bootstrap=None)
    t = rougekit.score(["police kill the gunman"], [["police killed the gunman"]], measures=M, bootstrap=None)
    assert _f(t, "ROUGE-1") == pytest.approx([0.75], abs=1e-5)  # 3 of 4 words a side
    assert _f(t, "ROUGE-2") == pytest.approx([1 / 3], abs=1e-5)  # "the gunman" of 3 bigrams a side
    assert len(made) == 2  # the text call made its own (its engines cache references by their text) ...
    assert len(api._IDLE) == 1  # ... and left the idle one (before: it took it, and dropped it)
    rougekit.score(*PAIRS_A, measures=M, bootstrap=None)
    assert len(made) == 2  # the next call of ids reuses it


def test_a_call_that_fails_drops_its_scorer(made):
    rougekit.score(*PAIRS_A, measures=M, bootstrap=None)
    with pytest.raises(rougekit.OptionError, match="2 candidates but 1 reference"):
        rougekit.score([[1, 2], [3]], [[1, 2]], measures=M, bootstrap=None)  # 2 candidates, 1 reference
    assert api._IDLE == {}
    r = rougekit.score(*PAIRS_B, measures=M, bootstrap=None)
    assert _f(r, "ROUGE-2") == pytest.approx([0.4], abs=1e-5)
    assert len(made) == 2


def test_concurrent_calls_each_get_their_numbers():
    errors: list = []

    def run(pairs, want):
        try:
            for _ in range(30):
                r = rougekit.score(*pairs, measures=M, bootstrap=None, jobs=1)
                assert _f(r, "ROUGE-1") == pytest.approx([4 / 7], abs=1e-5)
                assert r.values("ROUGE-1", "precision").tolist() == pytest.approx([want], abs=1e-5)
        except BaseException as e:  # noqa: BLE001 - reported below
            errors.append(e)

    threads = [threading.Thread(target=run, args=(p, w)) for p, w in [(PAIRS_A, 0.5), (PAIRS_B, 2 / 3)] * 2]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []


def test_a_scorer_on_more_than_16_threads_is_not_kept(made):
    for jobs in (16, 16, 17, 17):
        r = rougekit.score(*PAIRS_A, measures=M, bootstrap=None, jobs=jobs)
        assert _f(r, "ROUGE-2") == pytest.approx([0.4], abs=1e-5)
    assert len(made) == 3  # jobs=16 once (kept), jobs=17 twice (not kept: the engines it may hold)


def test_a_backend_switch_gets_a_scorer_of_the_new_backend(made, monkeypatch):
    from rougekit.engine import backend

    rougekit.score(*PAIRS_A, measures=M, bootstrap=None)
    monkeypatch.setenv(backend.VARIABLE, "python")
    backend._reset_for_tests()
    try:
        r = rougekit.score(*PAIRS_A, measures=M, bootstrap=None)
        assert len(made) == 2  # before: the compiled backend's scorer was reused
        assert _f(r, "ROUGE-1") == pytest.approx([4 / 7], abs=1e-5)
        rougekit.score(*PAIRS_A, measures=M, bootstrap=None)
        assert len(made) == 2  # kept for the python backend as well
    finally:
        monkeypatch.undo()  # the variable as it was, then the backend read again
        backend._reset_for_tests()


def test_a_kept_scorer_holds_no_more_ids_than_the_engine_pool(made):
    # 4 pairs of 30,000 distinct large ids each (up to ~2**31: interned, not read through a direct
    # table): 120,000 types; the engine pool keeps engines of at most 2**16 types, and a kept scorer's
    # engines are held to the same bound (before: kept as they were, growing with every call up to
    # 2**22 types an engine)
    from rougekit.engine import batch

    rng = np.random.default_rng(3)
    spread = (rng.permutation(120000).astype(np.int64) * 17000 + 12345).astype(np.int32)
    cands = [spread[k * 30000 : (k + 1) * 30000] for k in range(4)]
    refs = [c[:100].copy() for c in cands]
    r = rougekit.score(cands, refs, measures=M, bootstrap=None, jobs=1)
    assert _f(r, "ROUGE-1") == pytest.approx([2 * 100 / 30100] * 4, abs=1e-5)  # P 100/30000, R 1
    (kept,) = api._IDLE.values()
    engines = kept._plan.batch._engines
    assert engines and all(e.id_count <= batch._POOL_VOCABULARY for e in engines)
    r = rougekit.score(cands, refs, measures=M, bootstrap=None, jobs=1)
    assert len(made) == 1 and _f(r, "ROUGE-1") == pytest.approx([2 * 100 / 30100] * 4, abs=1e-5)
