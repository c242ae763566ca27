"""rougekit.process.dedup on real summaries: the same decisions as a plain rouge-score loop.

SummEval's 16 system summaries and the reference of each of its first documents, split into
sentences (many near-duplicates: extractive systems copy the same source sentences), deduplicated
per document with the Self-Instruct rule at thresholds 0.5, 0.7 and 0.9. The loop scores every
new sentence against every kept one with rouge-score's own tokenizer and ``_score_lcs`` (as
Self-Instruct calls it), taking the best F (the first on ties); its scores are memoized per pair
across the three thresholds.
"""

from __future__ import annotations

import json
import re

import pytest
from _paths import SHARED, shared_missing

from rougekit import process

rouge_scorer = pytest.importorskip("rouge_score.rouge_scorer", reason="rouge-score (the test extra) is not installed")

SUMMEVAL = SHARED / "data" / "summeval" / "summeval.jsonl"
DOCUMENTS = 60


def sentence_groups() -> list[list[str]]:
    if not SUMMEVAL.exists():
        pytest.skip(shared_missing(SUMMEVAL))
    groups = []
    with open(SUMMEVAL, encoding="utf-8") as f:
        for line in list(f)[:DOCUMENTS]:
            row = json.loads(line)
            summaries = [row["ref_summ"]] + [s["sys_summ"] for _, s in sorted(row["sys_summs"].items())]
            sents = [s.strip() for text in summaries for s in re.split(r"(?<=[.!?])\s+", text)]
            groups.append([s for s in sents if re.search(r"[A-Za-z0-9]", s)])
    return groups


def test_dedup_decisions_equal_a_rouge_score_loop():
    groups = sentence_groups()
    assert sum(map(len, groups)) >= 2000
    scorer = rouge_scorer.RougeScorer(["rougeL"])
    dropped_total = 0
    for texts in groups:
        tokens = [scorer._tokenizer.tokenize(t) for t in texts]
        memo: dict = {}

        def f(i: int, k: int) -> float:
            if (i, k) not in memo:
                memo[i, k] = rouge_scorer._score_lcs(tokens[i], tokens[k]).fmeasure
            return memo[i, k]

        for threshold in (0.5, 0.7, 0.9):
            kept, dropped = [], []
            for i in range(len(texts)):
                best, match = -1.0, -1
                for k in kept:
                    if f(i, k) > best:
                        best, match = f(i, k), k
                if kept and best > threshold:
                    dropped.append(process.Dropped(i, match, best))
                else:
                    kept.append(i)
            got = process.dedup(texts, threshold=threshold)
            assert got.kept == kept
            assert got.dropped == dropped
            dropped_total += len(dropped)
    assert dropped_total > 500  # the data has near-duplicates at every threshold
