"""Token ids as TRL passes them (lists of ints) read like int32 arrays (issue 28: rewards at the
engine's speed): a call whose summaries are all flat lists of ints (or int32 arrays) is read and
scored in one no-GIL job, the lists copied to int32 in one C loop; the numbers are those of the same
ids as arrays and of hand counts, and any other list (a bool, a negative or too big id, a float,
sentences) still goes the slow way that names the bad summary.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

import rougekit
from rougekit._core import _batch
from rougekit.errors import InputError

M = ["ROUGE-1", "ROUGE-2", "ROUGE-L"]


def r5(x: float) -> float:
    return float("%7.5f" % x)


def f1(r: float, p: float) -> float:
    return r5(2 * r * p / (r + p)) if r and p else 0.0


def _job(cands, refs):
    out = np.zeros((len(cands), 3, 6))
    return _batch._IdJob(cands, refs, 0, len(cands), 64, out)


def test_lists_of_ints_take_the_no_gil_job():
    cands = [[1, 2, 3], (4, 5)]
    refs = [[1, 2], [[4], [5, 6]]]
    assert _job(cands, refs).ok
    assert _job([np.array([1, 2], dtype=np.int32)], [[7, 8]]).ok  # arrays and lists mixed


@pytest.mark.parametrize(
    "cand",
    [[1, True, 3], [1, -2, 3], [1, 2**31, 3], [1, 2.0, 3], [[1, 2], [3]], ["a"]],
    ids=["bool", "negative", "too-big", "float", "sentences", "text"],
)
def test_other_lists_are_left_to_the_slow_path(cand):
    assert not _job([cand], [[1, 2]]).ok


def test_hand_counts_on_lists():
    # cand 1 2 3 4 / ref 1 2 5 3: unigrams 3 of 4 both ways, bigrams (1,2) only: 1 of 3; LCS 1 2 3: 3 of 4
    res = rougekit.score([[1, 2, 3, 4]], [[1, 2, 5, 3]], measures=M, bootstrap=None)
    assert res.values("ROUGE-1", "f").tolist() == [f1(0.75, 0.75)]
    assert res.values("ROUGE-2", "f").tolist() == [f1(1 / 3, 1 / 3)]
    assert res.values("ROUGE-L", "f").tolist() == [f1(0.75, 0.75)]


@pytest.mark.parametrize("vocab", [50, 32000, 1 << 20, 2**31 - 1], ids=["small", "model", "past-raw", "max"])
@pytest.mark.parametrize("jobs", [1, 2])
def test_lists_equal_arrays(vocab, jobs):
    rng = random.Random(vocab + jobs)
    cands, refs = [], []
    for _ in range(40):
        c = [rng.randrange(vocab) for _ in range(rng.randrange(0, 300))]
        r = [x if rng.random() < 0.6 else rng.randrange(vocab) for x in c[: rng.randrange(0, 300)]] or [0]
        cands.append(c)
        refs.append(r if rng.random() < 0.7 else [r, c[::2]])
    arr = lambda x: np.array(x, dtype=np.int32)  # noqa: E731
    refs_arr = [[arr(y) for y in r] if isinstance(r[0], list) else arr(r) for r in refs]
    for opts in ({}, {"word_limit": 50}):
        a = rougekit.score(cands, refs, measures=M, bootstrap=None, jobs=jobs, **opts)
        b = rougekit.score([arr(c) for c in cands], refs_arr, measures=M, bootstrap=None, jobs=jobs, **opts)
        assert np.array_equal(a.data, b.data)
        t = rougekit.score([tuple(c) for c in cands], refs, measures=M, bootstrap=None, jobs=jobs, **opts)
        assert np.array_equal(a.data, t.data)


@pytest.mark.parametrize(
    "bad, message",
    [(-1, "pair 2: candidate: token id -1 is out of range"), (2**31, "pair 2: candidate: token id 2147483648")],
)
def test_bad_id_in_a_list_is_named(bad, message):
    with pytest.raises(InputError, match=message):
        rougekit.score([[1, 2], [3, bad]], [[1], [3]], bootstrap=None)


def test_bool_in_a_list_is_refused():
    with pytest.raises(TypeError, match="pair 1: candidate: token ids must be integers"):
        rougekit.score([[1, True]], [[1]], bootstrap=None)


def test_ids_without_drops_in_one_pass():
    from array import array

    assert _batch.ids_without([5, 0, 7, 2, 0], [0, 2]) == array("i", [5, 7])
    assert _batch.ids_without((0, 0), [0]) == array("i")
    assert _batch.ids_without([9, 2**31 - 1], []) == array("i", [9, 2**31 - 1])
    for other in ([1, True], [1, -1], [1, 2**31], [1.0], [], [[1]], np.array([1, 2]), "12"):
        assert _batch.ids_without(other, [0]) is None  # the reward's numpy path keeps its behaviour


def test_reward_ignore_ids_on_lists_equals_the_filtered_ids():
    from rougekit.rewards import rouge_reward

    rng = random.Random(7)
    eos, pad = 2, 0
    cands, refs = [], []
    for k in range(30):
        c = [rng.randrange(3, 500) for _ in range(rng.randrange(1, 200))]
        c[rng.randrange(len(c)) :] += [eos] + [pad] * rng.randrange(0, 5)  # EOS, padding (and one mid-way)
        r = [x if rng.random() < 0.6 else rng.randrange(3, 500) for x in c if x not in (eos, pad)] or [7]
        cands.append(c)
        refs.append(r + [eos] if k % 3 else [r + [pad], [eos, r[0]]])  # one reference, or two
    keep = lambda x: [t for t in x if t not in (eos, pad)]  # noqa: E731
    want_refs = [keep(r) if isinstance(r[0], int) else [keep(y) for y in r] for r in refs]
    for m in M:
        got = rouge_reward(m, completion_field="completion_ids", ignore_ids=[pad, eos])(
            completion_ids=cands, reference=refs
        )
        want = rougekit.score([keep(c) for c in cands], want_refs, measures=[m], bootstrap=None).values(m, "f")
        assert got == want.tolist()
    # by hand: cand 5 6 EOS PAD, ref 5 7 EOS: ROUGE-1 1 of 2 both ways
    reward = rouge_reward("ROUGE-1", completion_field="completion_ids", ignore_ids=[pad, eos])
    assert reward(completion_ids=[[5, 6, eos, pad]], reference=[[5, 7, eos]]) == [0.5]


def test_reward_ignore_ids_bad_ids_still_named():
    from rougekit.rewards import rouge_reward

    reward = rouge_reward("ROUGE-1", completion_field="completion_ids", ignore_ids=[0])
    with pytest.raises(InputError, match="pair 2: candidate: token id -3 is out of range"):
        reward(completion_ids=[[1, 0], [4, -3, 0]], reference=[[1], [4]])


def test_references_as_lists_of_id_lists_need_no_python_call_per_pair(monkeypatch):
    # TRL's reference column of token ids: a list of ints per row, or a list of such lists (several
    # references). The engine's job and the normalisation read their nesting in C / on a fast path:
    # inputs.id_level and inputs._pair_references are never called for them (main called both once
    # per pair, about a tenth of rouge_reward's time on 256 x 1,024 ids as lists)
    from rougekit._core import inputs

    def refused(*args, **kwargs):
        raise AssertionError("a Python call per pair")

    cands = [[1, 2, 3], [4, 5], [6]]
    refs = [[[1, 2], [3]], [[4], [5, 4]], ([6, 7],)]  # several references: lists, a tuple of one
    monkeypatch.setattr(inputs, "id_level", refused)
    assert _job(cands, refs).ok
    monkeypatch.undo()
    monkeypatch.setattr(inputs, "_pair_references", refused)
    flat = [[1, 2, 9], [4, 4], [7]]
    assert inputs.normalize(cands, flat) == ("ids", [[r] for r in flat])
    monkeypatch.undo()
    # the numbers (-f A: counts summed over the references): pair 1 ROUGE-1 R = 3/3 (1 2, then 3),
    # P = 3/(2 x 3) = 0.5; pair 2 hits 4, then 4 and 5: R = 3/3, P = 3/(2 x 2); pair 3 R = 1/2, P = 1/1
    res = rougekit.score(cands, refs, measures=["ROUGE-1"], bootstrap=None)
    assert res.values("ROUGE-1", "recall").tolist() == [1.0, 1.0, 0.5]
    assert res.values("ROUGE-1", "precision").tolist() == [0.5, 0.75, 1.0]
