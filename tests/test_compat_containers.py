"""rougekit.compat's evaluate and torchmetrics drop-ins given numpy arrays (str_, object,
StringDType), pandas and polars Series and tuples instead of lists, against what the real packages
returned or raised for the same containers: tests/goldens/{evaluate,torchmetrics}/containers.json,
written by tools/goldens/record_evaluate.py --containers and record_torchmetrics.py --containers
(tools/goldens/README.md). The containers are built by tests/_containers.py for both. pandas,
polars and nltk are test requirements; torchmetrics, torch and evaluate are not (the goldens stand in).
"""

from __future__ import annotations

import json
import struct
from pathlib import Path

import nltk
import numpy as np
import pytest
from _containers import inputs

from rougekit.compat import evaluate
from rougekit.compat import torchmetrics as tm

GOLDENS = Path(__file__).parent / "goldens"
EVALUATE = json.loads((GOLDENS / "evaluate" / "containers.json").read_text(encoding="utf-8"))["cases"]
TORCHMETRICS = json.loads((GOLDENS / "torchmetrics" / "containers.json").read_text(encoding="utf-8"))["cases"]
ERRORS = {"ValueError": ValueError, "IndexError": IndexError, "KeyError": KeyError, "TypeError": TypeError}


def plain(value):
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [plain(v) for v in value]
    return {"type": type(value).__name__, "value": float(value)}


@pytest.mark.parametrize("case", EVALUATE, ids=[c["name"] for c in EVALUATE])
@pytest.mark.parametrize("key", ["per_pair", "aggregated"])
def test_evaluate_containers(case, key):
    want = case[key]
    predictions, references = inputs(case)
    np.random.seed(0)
    metric = evaluate.load("rouge")
    if "error" in want:
        with pytest.raises(ERRORS[want["error"]["type"]]) as info:
            metric.compute(predictions=predictions, references=references, use_aggregator=key == "aggregated")
        assert type(info.value).__name__ == want["error"]["type"]
        # evaluate's message, or its first part before rougekit's words on what was empty
        assert str(info.value).startswith(want["error"]["message"].split(":")[0])
        return
    got = metric.compute(predictions=predictions, references=references, use_aggregator=key == "aggregated")
    assert list(got) == list(want) and plain(got) == want


def bits(value) -> int:
    return struct.unpack("<I", struct.pack("<f", float(value)))[0]


@pytest.mark.parametrize("case", TORCHMETRICS, ids=[c["name"] for c in TORCHMETRICS])
@pytest.mark.parametrize("key", ["functional", "class"])
def test_torchmetrics_containers(case, key, monkeypatch):
    monkeypatch.setattr(nltk.data, "path", [str(GOLDENS / "torchmetrics" / "nltk_data")])
    want = case[key]
    preds, target = inputs(case)

    def run():
        if key == "functional":
            return tm.rouge_score(preds, target)
        metric = tm.ROUGEScore()
        metric.update(preds, target)
        return metric.compute()

    if "error" in want:
        with pytest.raises(ERRORS[want["error"]["type"]]) as info:
            run()
        assert str(info.value) == want["error"]["message"]
        return
    got = run()
    assert list(got) == list(want)
    assert {k: bits(v) for k, v in got.items()} == {k: v["bits"] for k, v in want.items()}
