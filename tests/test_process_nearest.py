"""The prefix index's pairs at or above a cutoff (process.nearest) are the full matrix's, bit for bit.

The full matrix (``cdist_block``, every pair scored) is itself held to rouge-score in
test_process.py; here every pair the index finds, and every pair it leaves out, is checked
against it, on seeded corpora with exact and near repeats, empty texts and cutoffs that some
pairs score exactly (2/3, 0.8, 1.0).
"""

from __future__ import annotations

import json
import random

import numpy as np
import pytest

from rougekit import process
from rougekit.cli.main import main
from rougekit.process import nearest
from rougekit.process.blocks import cdist_block
from rougekit.process.core import row_order
from rougekit.process.encode import Encoder

WORDS = "the cat sat on mat dog ran far away big small red blue green house tree car road".split()


def texts(n: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    base = [" ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 12))) for _ in range(max(1, n // 4))]
    out = []
    for _ in range(n):
        words = rng.choice(base).split()
        if rng.random() < 0.5:
            words[rng.randrange(len(words))] = rng.choice(WORDS)
        if rng.random() < 0.2:
            words = words[: rng.randint(0, len(words))]
        out.append(" ".join(words) if words else "!!")  # "!!" has no token: F is 0 against anything
    return out


@pytest.mark.parametrize("cutoff", [0.3, 2 / 3, 0.8, 1.0])
@pytest.mark.parametrize("seed", [1, 2])
def test_the_pairs_at_or_above_the_cutoff_are_the_full_matrix(cutoff, seed):
    enc = Encoder("rougeL")
    q, c = enc.encode(texts(150, seed), "queries"), enc.encode(texts(400, seed + 10), "choices")
    for dtype in (np.float64, np.float32):
        full = cdist_block(q, c, stat="f", score_cutoff=cutoff, dtype=dtype)
        assert (full > 0).sum() > 20  # pairs both ways
        assert (full == cutoff).any() or cutoff in (0.3,)  # some pairs score the cutoff itself
        found = nearest.Nearest(q, c, cutoff, workers=2).fill(np.zeros(full.shape, dtype=dtype))
        assert found.tobytes() == full.tobytes()
    near = nearest.Nearest(q, c, cutoff)
    for limit in (1, 3, None):
        for r, (choice, score) in enumerate(near.best(20, 150, limit)):
            row = cdist_block(q, c, stat="f", score_cutoff=cutoff, dtype=np.float64)[20 + r]
            order = row_order(row, limit, cutoff)
            assert choice.tolist() == order.tolist() and score.tolist() == row[order].tolist()


def test_worked_by_hand():
    """'the cat sat on the mat' (6 tokens) against 'a cat sat on the mat': LCS 5, F = 5/6."""
    enc = Encoder("rougeL")
    q = enc.encode(["the cat sat on the mat"], "queries")
    c = enc.encode(["a cat sat on the mat", "dogs", "the cat sat on the mat"], "choices")
    [(choice, score)] = nearest.Nearest(q, c, 0.8).best(0, 1, None)
    assert choice.tolist() == [2, 0] and score.tolist() == [1.0, 5 / 6]
    [(choice, score)] = nearest.Nearest(q, c, 5 / 6 + 1e-12).best(0, 1, None)
    assert choice.tolist() == [2]


def test_cdist_and_extract_take_the_index_with_the_same_numbers(monkeypatch):
    queries, choices = texts(40, 7), texts(300, 8)
    dense = process.cdist(queries, choices, measure="rougeL", score_cutoff=0.5)
    calls = []
    real = nearest.Nearest
    monkeypatch.setattr(nearest, "MIN_PAIRS", 1)
    monkeypatch.setattr(nearest, "Nearest", lambda *a, **k: calls.append(1) or real(*a, **k))
    assert process.cdist(queries, choices, measure="rougeL", score_cutoff=0.5).tobytes() == dense.tobytes()
    assert calls  # the index was used
    assert process.cdist(queries, choices, measure="rougeL", stat="recall", score_cutoff=0.5).shape == dense.shape


def test_the_extract_command_writes_the_same_matches(tmp_path, monkeypatch, capsys):
    (tmp_path / "q.txt").write_text("\n".join(t if t != "!!" else "x" for t in texts(60, 3)) + "\n")
    (tmp_path / "c.txt").write_text("\n".join(t if t != "!!" else "y" for t in texts(500, 4)) + "\n")
    argv = ["extract", str(tmp_path / "q.txt"), str(tmp_path / "c.txt"), "--limit", "4", "--score-cutoff", "0.6"]
    assert main([*argv, "-o", str(tmp_path / "full.jsonl")]) == 0
    monkeypatch.setattr(nearest, "MIN_PAIRS", 1)
    used = []
    real = nearest.Nearest
    monkeypatch.setattr(nearest, "Nearest", lambda *a, **k: used.append(1) or real(*a, **k))
    assert main([*argv, "-o", str(tmp_path / "index.jsonl")]) == 0
    assert used
    full = (tmp_path / "full.jsonl").read_bytes()
    assert (tmp_path / "index.jsonl").read_bytes() == full
    assert sum(len(json.loads(line)["matches"]) for line in full.splitlines()) > 30
    capsys.readouterr()


def test_a_numpy_integer_limit_is_a_limit():
    # limit=np.int64(1) (a count from numpy arithmetic) keeps one match, as limit=1 does (before: refused)
    from rougekit import process

    choices = ["the cat sat", "a dog", "the cat"]
    assert process.extract("the cat", choices, limit=np.int64(1)) == process.extract("the cat", choices, limit=1)
    assert len(process.extract("the cat", choices, limit=np.int32(2))) == 2
