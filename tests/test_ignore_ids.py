"""Token ids as users pass them: padded batches (``ignore_ids=``) and torch tensors in lists (qa19 F2, F9)."""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
import warnings

import numpy as np
import pytest
from _paths import SHARED

import rougekit
from rougekit import Scorer
from rougekit._core import inputs
from rougekit.errors import OptionError
from rougekit.signature import Signature

SUMMEVAL = SHARED / "data" / "summeval" / "summeval.jsonl"
M = ["ROUGE-1", "ROUGE-2", "ROUGE-L", "ROUGE-W-1.2", "ROUGE-SU4"]


def r5(x: float) -> float:
    return round(x, 5)


def _r1(result):
    return [round(v, 5) for v in (result.values("ROUGE-1", s)[0] for s in ("recall", "precision", "f"))]


def test_a_padded_batch_scores_as_its_unpadded_ids_with_ignore_ids():
    cand, ref = np.array([[5, 6, 7, 0, 0, 0]]), np.array([[5, 9, 0, 0, 0, 0]])
    # by hand, [5 6 7] against [5 9]: 1 hit; R = 1/2, P = 1/3, F = 2 x 1/2 x 1/3 / (1/2 + 1/3) = 0.4
    got = rougekit.score(cand, ref, measures=["ROUGE-1"], bootstrap=None, ignore_ids=0)
    assert _r1(got) == [0.5, 0.33333, 0.4]
    # without it the 0s are tokens: [5 6 7 0 0 0] against [5 9 0 0 0 0], 4 hits of 6 both ways
    with pytest.warns(rougekit.errors.PaddingWarning):
        plain = rougekit.score(cand, ref, measures=["ROUGE-1"], bootstrap=None)
    assert _r1(plain) == [0.66667, 0.66667, 0.66667]
    assert "ignore:0|" in str(got.signature) and "ignore:" not in str(plain.signature)
    assert Signature.parse(str(got.signature)) == got.signature


@pytest.mark.parametrize("fast", [True, False])
def test_padded_batches_equal_the_unpadded_ids_bit_for_bit(fast):
    rng = random.Random(19)
    pad, eos = 0, 2
    rows, refs_a, refs_b = [], [], []
    for _ in range(40):
        rows.append([rng.randrange(3, 60) for _ in range(rng.randrange(0, 30))] + [eos])
        refs_a.append([rng.randrange(3, 60) for _ in range(rng.randrange(1, 30))])
        refs_b.append([rng.randrange(3, 60) for _ in range(rng.randrange(1, 30))])

    def padded(lists):
        width = max(map(len, lists)) + 2
        return np.array([x + [pad] * (width - len(x)) for x in lists], dtype=np.int32)

    cands = padded(rows)
    refs = [[a, b] for a, b in zip(padded(refs_a), padded(refs_b))]  # two padded references a pair
    got = Scorer(M, bootstrap=None, ignore_ids=[eos, pad], fast=fast).score(cands, refs)
    unpadded = [[t for t in x if t != eos] for x in rows]
    want = Scorer(M, bootstrap=None, fast=fast).score(unpadded, [[a, b] for a, b in zip(refs_a, refs_b)])
    assert np.array_equal(got.data, want.data, equal_nan=True)
    # lists of ints (the compiled kernel's path) and tuples: the same numbers
    as_lists = Scorer(M, bootstrap=None, ignore_ids={pad, eos}, fast=fast).score(
        cands.tolist(), [(a.tolist(), tuple(b.tolist())) for a, b in refs]
    )
    assert np.array_equal(as_lists.data, want.data, equal_nan=True)


def test_ignore_ids_drops_ids_in_every_sentence_and_an_all_padding_summary_scores_0():
    # sentences [5 0 6] [0 0] [7] -> [5 6] [7]; the script's bigrams run on across sentence ends: 5 6, 6 7,
    # both in [5 6 7] (R = P = 1); kept, the 0s make 5 0, 0 6, 6 0, 0 0, 0 7: no hit
    cands, refs = [[[5, 0, 6], [0, 0], [7]], [0, 0]], [[5, 6, 7], [4]]
    res = rougekit.score(cands, refs, measures=["ROUGE-2"], ignore_ids=0)
    assert res.values("ROUGE-2", "recall").tolist() == [1.0, 0.0]
    assert res.values("ROUGE-2", "precision").tolist() == [1.0, 0.0]
    assert rougekit.score(cands, refs, measures=["ROUGE-2"]).values("ROUGE-2", "recall").tolist() == [0.0, 0.0]
    # the sentences are kept (ROUGE-L is the union LCS over them): as if given without the 0s
    want = rougekit.score([[[5, 6], [7]], [[]]], refs, measures=M)
    assert np.array_equal(rougekit.score(cands, refs, measures=M, ignore_ids=0).data, want.data, equal_nan=True)


def test_ignore_ids_option_checks():
    with pytest.raises(OptionError, match="ignore_ids applies to token ids"):
        rougekit.score(["the cat"], ["the cat"], ignore_ids=0)
    for bad, why in (("0", "a token id"), ([True], "must hold token ids"), ([1.0], "must hold"), (-1, "out of range")):
        with pytest.raises(OptionError, match=why):
            Scorer(["ROUGE-1"], ignore_ids=bad)
    s = Scorer(["ROUGE-1"], ignore_ids=np.array([7, 0, 7]))
    assert s.options.ignore_ids == (0, 7) and "ignore:0,7|" in str(s.signature)


@pytest.mark.integration  # torch: CI's integration step installs it (not a test requirement)
def test_lists_of_torch_tensors_read_as_numpy_arrays():
    torch = pytest.importorskip("torch")
    # by hand, -f A: [1 2 3] against [1 2 3 9] (3 hits of 4) and [7] (0 of 1): R = 3/5, P = 3/(3 x 2) = 0.5,
    # F = 2 x 0.6 x 0.5 / 1.1 = 0.54545
    got = rougekit.score([[1, 2, 3]], [[torch.tensor([1, 2, 3, 9]), torch.tensor([7])]], measures=["ROUGE-1"])
    assert _r1(got) == [0.6, 0.5, 0.54545]
    as_numpy = rougekit.score([[1, 2, 3]], [[np.array([1, 2, 3, 9]), np.array([7])]], measures=["ROUGE-1"])
    assert np.array_equal(got.data, as_numpy.data)
    # sentences as tensors (candidates and a reference), a 2-d tensor of padded rows, and ignore_ids
    sent = rougekit.score(
        [[torch.tensor([5, 6]), torch.tensor([7], dtype=torch.int32)]],
        [[[torch.tensor([5, 6, 7])]]],
        measures=["ROUGE-2"],
        bootstrap=None,
    )
    want = rougekit.score([[[5, 6], [7]]], [[[[5, 6, 7]]]], measures=["ROUGE-2"], bootstrap=None)
    assert sent.values("ROUGE-2", "recall").tolist() == [1.0]  # 5 6 and 6 7 (n-grams cross sentence ends)
    assert np.array_equal(sent.data, want.data)
    padded = rougekit.score(
        torch.tensor([[5, 6, 7, 0, 0, 0]]), torch.tensor([[5, 9, 0, 0, 0, 0]]), measures=["ROUGE-1"], ignore_ids=0
    )
    assert _r1(padded) == [0.5, 0.33333, 0.4]


@pytest.mark.integration  # torch: CI's integration step installs it (not a test requirement)
def test_rewards_reference_column_of_tensor_lists():
    torch = pytest.importorskip("torch")
    from rougekit.rewards import rouge_reward

    reward = rouge_reward("ROUGE-1", stat="recall", completion_field="completion_ids", ignore_ids=[0])
    # what datasets' with_format("torch") gives for list<list<int>>: a list of 1-d tensors a row
    column = [[torch.tensor([1, 2, 3, 9, 0]), torch.tensor([7, 0])]]
    assert reward(completion_ids=[[1, 2, 3, 0, 0]], reference=column) == [0.6]  # 3 hits of 4 + 1
    assert reward(completion_ids=[torch.tensor([1, 2, 3, 0])], reference=[torch.tensor([1, 2, 0])]) == [1.0]


def test_ids_in_numpy_never_import_torch():
    code = (
        "import sys, numpy as np, rougekit\n"
        "r = rougekit.score([np.array([1, 2, 0])], [[np.array([1, 0]), [2]]], measures=['ROUGE-1'], ignore_ids=0)\n"
        "assert r.values('ROUGE-1', 'recall').tolist() == [1.0]\n"
        "print('torch' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_a_padded_batch_without_ignore_ids_warns_naming_the_id():
    from rougekit.errors import PaddingWarning

    cand, ref = np.array([[5, 6, 7, 0, 0, 0]]), np.array([[5, 9, 0, 0, 0, 0]])
    with pytest.warns(PaddingWarning, match=r"^candidates and references: .* runs of id 0, .* ignore_ids=0 "):
        rougekit.score(cand, ref, measures=["ROUGE-1"], bootstrap=None)
    # padding="longest": the longest row has none; half the rows end in 2 or more pads, one in 3 or more
    batch = np.array([[4, 5, 6, 7, 8], [4, 5, 6, 1, 1], [4, 5, 1, 1, 1], [9, 9, 9, 9, 8]])
    with pytest.warns(PaddingWarning, match=r"^candidates: .* runs of id 1,"):
        rougekit.score(batch, [[4, 5]] * 4, measures=["ROUGE-1"], bootstrap=None)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        rougekit.score(cand, ref, measures=["ROUGE-1"], bootstrap=None, ignore_ids=0)  # dropped: nothing to say
        rougekit.score(cand.tolist(), ref.tolist(), measures=["ROUGE-1"], bootstrap=None)  # lists: not looked at


@pytest.mark.integration  # torch: CI's integration step installs it (not a test requirement)
def test_a_padded_tensor_batch_warns_too():
    torch = pytest.importorskip("torch")
    from rougekit.errors import PaddingWarning

    with pytest.warns(PaddingWarning, match=r"^references: .* runs of id 3,"):
        rougekit.score([[5, 6]], torch.tensor([[5, 9, 3, 3, 3]]), measures=["ROUGE-1"], bootstrap=None)


def test_no_padding_warning_on_real_text_ids():
    # SummEval's texts as word ids (words and punctuation), cut to one width: batches of 16 rows
    vocab: dict = {}
    rows = []
    for line in SUMMEVAL.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        for value in record.values():
            for text in value if isinstance(value, list) else [value]:
                if isinstance(text, str) and len(text) > 50:
                    rows.append([vocab.setdefault(w, len(vocab)) for w in re.findall(r"\w+|[^\w\s]", text.lower())])
    assert len(rows) > 100
    checked = 0
    for width in (8, 16, 24, 32, 48, 64):
        cut = [r[:width] for r in rows if len(r) >= width]
        for at in range(0, len(cut) - 15, 16):
            assert inputs.padding_id(np.array(cut[at : at + 16])) is None
            checked += 1
    assert checked > 50  # 350 batches on the full SummEval file
    padded = np.array([r[:20] + [0] * 4 for r in rows[:16] if len(r) >= 20])  # the same rows, padded: found
    assert inputs.padding_id(padded) == 0


def test_kept_scorers_and_streams_follow_ignore_ids():
    # score() keeps a scorer of token ids per option set: one with ignore_ids is never one without
    pair = ([[5, 6, 0, 0]], [[5, 9, 0]])
    for _ in range(2):
        dropped = rougekit.score(*pair, measures=["ROUGE-1"], bootstrap=None, ignore_ids=[0, 2])
        kept = rougekit.score(*pair, measures=["ROUGE-1"], bootstrap=None)
        assert dropped.values("ROUGE-1", "recall").tolist() == [0.5]  # 5 of 5 9
        assert kept.values("ROUGE-1", "recall").tolist() == [r5(2 / 3)]  # 5 0 of 5 9 0
        assert "ignore:0,2|" in str(dropped.signature) and "ignore:" not in str(kept.signature)
    # a stream in chunks of one pair: pair 2 is [1] against [1] and an all-padding reference (-f A)
    s = Scorer(["ROUGE-1"], ignore_ids=0, bootstrap=None)
    res = s.score_stream(iter([([5, 6, 0, 0], [5, 9, 0]), (np.array([1, 0]), [[1], [0, 0]])]), chunk_size=1)
    assert res.values("ROUGE-1", "recall").tolist() == [0.5, 1.0]
    assert res.values("ROUGE-1", "precision").tolist() == [0.5, 0.5]  # 1 hit / (1 x 2 references)
