"""rougekit.compat.torchmetrics against goldens recorded from torchmetrics 1.9.0 with torch 2.13.0.

tests/goldens/torchmetrics/cases.json was written by tools/goldens/record_torchmetrics.py
(commands in tools/goldens/README.md) with nltk's Punkt reading the model in
tests/goldens/torchmetrics/nltk_data; every value is compared as float32 bits. torch is not
needed: without it rougekit sums as torch does (``_torch_mean``), and its results are floats.
"""

from __future__ import annotations

import json
import re
import struct
import warnings
from pathlib import Path

import numpy as np
import pytest
from _texts import pairs

from rougekit.compat import torchmetrics as tm
from rougekit.compat._torch_mean import float32_mean, float32_sum

GOLDENS = Path(__file__).parent / "goldens" / "torchmetrics"
GOLDEN = json.loads((GOLDENS / "cases.json").read_text(encoding="utf-8"))
NO_PUNKT = json.loads((GOLDENS / "no_punkt.json").read_text(encoding="utf-8"))
CASES = {case["name"]: case for case in GOLDEN["cases"]}
NORMALIZERS = {"keep_case_words": lambda text: re.sub(r"[^\w]+", " ", text)}
TOKENIZERS = {"whitespace": str.split}
# where torchmetrics silently leaves input out: the same numbers, and one warning naming it
DROPPED = {
    "lengths_differ": r"3 predictions but 2 targets: only the first 2 pairs are scored, predictions 2 to 2",
    "targets_longer": r"2 predictions but 3 targets: only the first 2 pairs are scored, targets 2 to 2",
    "bad_accumulate": r"all 1 pairs: unknown accumulate 'max' \(every value is NaN\)",
    "bad_accumulate_one_key": r"all 2 pairs: unknown accumulate 'mean'",
    "empty_reference_list_avg": r"1 predictions without references under accumulate='avg' \(pairs 0\)",
    "empty_reference_list_avg_among_others": r"1 predictions without references under accumulate='avg' \(pairs 1\)",
    "tuple_target_is_iterated": r"the targets are a tuple of strings, not a list: each string is read as a sequence",
}

CLASS_DROPPED = {
    "class_dropped_input": [
        "as torchmetrics 1.9.0, left out of the scores: 3 predictions but 2 targets: only the first 2 pairs are "
        "scored, predictions 2 to 2 (counted from 0) are not",
        "as torchmetrics 1.9.0, left out of the scores: 1 predictions without references under accumulate='avg' "
        "(pairs 1)",
    ]
}

nltk = pytest.importorskip("nltk", reason="nltk is not installed (pip install nltk; rougeLsum needs it)")


@pytest.fixture
def punkt(monkeypatch):
    """nltk's Punkt reading the test model (no download, no trained English model needed)."""
    monkeypatch.setattr(nltk.data, "path", [str(GOLDENS / "nltk_data")])
    nltk.tokenize._get_punkt_tokenizer.cache_clear() if hasattr(nltk.tokenize, "_get_punkt_tokenizer") else None


def bits(value) -> int:
    return struct.unpack("<I", struct.pack("<f", float(value)))[0]


def inputs(spec):
    if "generated" in spec:
        return pairs(*spec["generated"])
    return spec["preds"], (tuple(spec["target"]) if spec.get("tuple") else spec["target"])


def resolved(kwargs):
    out = dict(kwargs)
    if "normalizer" in out:
        out["normalizer"] = NORMALIZERS[out["normalizer"]]
    if "tokenizer" in out:
        out["tokenizer"] = TOKENIZERS[out["tokenizer"]]
    if isinstance(out.get("rouge_keys"), list):
        out["rouge_keys"] = tuple(out["rouge_keys"])
    return out


def assert_same(ours: dict, theirs: dict):
    assert list(ours) == list(theirs)
    assert {k: bits(v) for k, v in ours.items()} == {k: v["bits"] for k, v in theirs.items()}


FUNCTIONAL = [n for n, c in CASES.items() if "inputs" in c]


@pytest.mark.parametrize("name", FUNCTIONAL)
def test_functional_golden(name, punkt):
    case = CASES[name]
    preds, target = inputs(case["inputs"])
    kwargs = resolved(case["kwargs"])
    if name in DROPPED:
        with pytest.warns(tm.DroppedInputWarning, match=DROPPED[name]) as caught:
            result = tm.rouge_score(preds, target, **kwargs)
        assert len(caught) == 1 and caught[0].filename == __file__  # one warning, pointing at the call
        assert_same(result, case["result"])
        return
    if "error" in case:
        error = {"ValueError": ValueError, "IndexError": IndexError, "AttributeError": AttributeError}[
            case["error"]["type"]
        ]
        with pytest.raises(error) as info:
            tm.rouge_score(preds, target, **kwargs)
        if error is ValueError:
            assert str(info.value) == case["error"]["message"]
        return
    with warnings.catch_warnings():
        warnings.simplefilter("error", tm.DroppedInputWarning)  # nothing dropped, nothing said
        assert_same(tm.rouge_score(preds, target, **kwargs), case["result"])


@pytest.mark.parametrize("name", [n for n, c in CASES.items() if "steps" in c])
def test_class_golden(name, punkt):
    case = CASES[name]
    if "error" in case:
        with pytest.raises(ValueError) as info:
            tm.ROUGEScore(**resolved(case["init"]))
        assert str(info.value) == case["error"]["message"]
        return
    metric = tm.ROUGEScore(**resolved(case["init"]))
    outputs = []
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for step in case["steps"]:
            if step[0] == "update":
                metric.update(*inputs(step[1]))
            elif step[0] == "forward":
                outputs.append(metric(*inputs(step[1])))
            elif step[0] == "compute":
                outputs.append(metric.compute())
            else:
                metric.reset()
    said = [str(w.message) for w in caught if issubclass(w.category, tm.DroppedInputWarning)]
    assert said == CLASS_DROPPED.get(name, [])
    assert len(outputs) == len(case["outputs"])
    for ours, theirs in zip(outputs, case["outputs"]):
        assert_same(ours, theirs)


@pytest.mark.parametrize("record", GOLDEN["torch_means"], ids=lambda r: str(r["n"]))
def test_float32_mean_is_torchs(record):
    values = np.random.default_rng(record["seed"]).random(record["n"]).astype(np.float32)
    assert bits(float32_mean(values)) == record["mean"]["bits"]


def test_float32_sum_order_by_hand():
    """Fewer than 8 values: four accumulators (items 0-3), items 4.. into the first, then 0+1+2+3."""
    f = np.float32
    values = np.array([1, 1e8, 1, 1, -1e8, 1, 3], dtype=np.float32)
    acc = [f(1), f(1e8), f(1), f(1)]
    acc[0] = f(f(f(acc[0] + f(-1e8)) + f(1)) + f(3))  # 1 - 1e8 rounds to -1e8 (float32 spacing 8 there)
    expected = f(f(f(acc[0] + acc[1]) + acc[2]) + acc[3])
    assert expected == f(2)  # 1, 1 and 3 are lost beside -1e8; then -1e8 + 1e8 + 1 + 1
    assert float32_sum(values) == expected
    assert f(sum(values.tolist())) == f(7)  # in float64, left to right, nothing is lost


def test_without_punkt_the_same_error(monkeypatch, tmp_path):
    """torchmetrics' OSError when Punkt is missing and cannot be downloaded (recorded offline)."""
    recorded = {c["name"]: c for c in NO_PUNKT["cases"]}
    monkeypatch.setattr(nltk.data, "path", [str(tmp_path)])

    def offline(*args, **kwargs):
        raise ValueError("<urlopen error: no network>")

    monkeypatch.setattr(nltk, "download", offline)
    with pytest.raises(OSError) as info:
        tm.rouge_score(["a b"], ["a b"])
    assert recorded["lsum_without_punkt"]["error"]["message"] in str(info.value)
    metric = tm.ROUGEScore()
    with pytest.raises(OSError):
        metric.update(["a b"], ["a b"])
    assert_same(tm.rouge_score(["a b"], ["a b"], rouge_keys=("rouge1",)), recorded["no_lsum_without_punkt"]["result"])


def test_public_examples(punkt):
    """The docstring examples of torchmetrics' rouge_score and ROUGEScore (1.9.0)."""
    expected = {"rouge1": 0.75, "rouge2": 0.0, "rougeL": 0.5, "rougeLsum": 0.5}
    result = tm.rouge_score("My name is John", "Is your name John")
    assert {k: round(float(v), 4) for k, v in result.items()} == {
        f"{key}_{tp}": value for key, value in expected.items() for tp in ("fmeasure", "precision", "recall")
    }
    metric = tm.ROUGEScore()
    metric.update("My name is John", "Is your name John")
    assert {k: round(float(v), 4) for k, v in metric.compute().items()} == {
        k: round(float(v), 4) for k, v in result.items()
    }


def test_returns_floats_without_torch(monkeypatch, punkt):
    monkeypatch.setattr(tm, "_TORCH", None)
    result = tm.rouge_score(["the cat sat"], ["the cat sat down"], rouge_keys=("rouge1",))
    assert type(result["rouge1_recall"]) is float and result["rouge1_recall"] == 0.75


def test_bad_input_errors(punkt):
    with pytest.raises(ValueError, match="unknown rouge key"):
        tm.rouge_score(["a"], ["a"], rouge_keys=("rougeW",))
    with pytest.raises(TypeError, match="reference of pair 0 is int"):
        tm.rouge_score(["a"], [[1]])
    with pytest.raises(AttributeError):  # the type torchmetrics raises there
        tm.rouge_score([None], ["a"])


def test_targets_of_a_tuple_or_array_of_strings_are_said():
    """torchmetrics reads a tuple (numpy array, Series) of reference strings as sequences of one-character
    references: this module gives the same numbers, and now says so (it was silent). By hand: no token of
    the prediction is one character long, so F 0 (a list gives R 3/3, P 3/6: F 2/3)."""
    import numpy as np

    for target in (("the cat sat",), np.array(["the cat sat"])):
        with pytest.warns(tm.DroppedInputWarning, match="not a list: each string is read as a sequence"):
            got = tm.rouge_score(["the cat sat on the mat"], target, rouge_keys=("rouge1",))
        assert float(got["rouge1_fmeasure"]) == 0.0
    with warnings.catch_warnings():
        warnings.simplefilter("error", tm.DroppedInputWarning)
        got = tm.rouge_score(["the cat sat on the mat"], ["the cat sat"], rouge_keys=("rouge1",))
    assert float(got["rouge1_fmeasure"]) == pytest.approx(2 / 3, abs=1e-6)
