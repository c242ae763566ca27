#!/usr/bin/env python3
"""Record goldens for ``rougekit.compat.torchmetrics`` from the real torchmetrics 1.9.0.

Run with the Python of a scratch virtual environment OUTSIDE the repository holding
``torchmetrics==1.9.0``, ``torch==2.13.0`` (CPU) and nltk, with ``NLTK_DATA`` pointing at
``tests/goldens/torchmetrics/nltk_data`` (a Punkt model made for these tests, see its README)
for the main run, and at an empty folder with ``--no-punkt`` (what torchmetrics does without
Punkt); see tools/goldens/README.md. Writes ``tests/goldens/torchmetrics/cases.json`` (or
``no_punkt.json``): per case the inputs (texts from tests/_texts.py or given), the call, and
every returned value as float32 bits (or the error's type and message); plus torch's float32
``mean`` of seeded random arrays, for the emulation of its summation order. With ``--containers``:
``containers.json``, the cases of tests/_containers.py (numpy arrays, pandas/polars Series, tuples
in place of lists) through ``rouge_score`` and ``ROUGEScore.update``/``compute``.
"""

from __future__ import annotations

import argparse
import json
import re
import struct
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "tests"))

from _texts import pairs  # noqa: E402

NORMALIZERS = {"keep_case_words": lambda text: re.sub(r"[^\w]+", " ", text)}
TOKENIZERS = {"whitespace": str.split}


def bits(tensor) -> dict:
    value = float(tensor)
    return {"value": value, "bits": struct.unpack("<I", struct.pack("<f", value))[0], "dtype": str(tensor.dtype)}


def inputs(spec: dict):
    if "generated" in spec:
        preds, target = pairs(*spec["generated"])
        return preds, target
    return spec["preds"], spec["target"]


def functional_cases() -> list[dict]:
    cases = []
    for n in (1, 7, 100, 1000, 5000):
        cases.append(dict(name=f"pairs_{n}", inputs={"generated": [n, n]}, kwargs={}))
    cases += [
        dict(name="stemmer_300", inputs={"generated": [11, 300]}, kwargs={"use_stemmer": True}),
        dict(name="multi_best_200", inputs={"generated": [12, 200, 3]}, kwargs={}),
        dict(
            name="multi_avg_200", inputs={"generated": [12, 200, 3]}, kwargs={"accumulate": "avg", "use_stemmer": True}
        ),
        dict(name="multi_avg_17refs", inputs={"generated": [13, 9, 17]}, kwargs={"accumulate": "avg"}),
        dict(
            name="custom_normalizer_tokenizer",
            inputs={"generated": [14, 60, 2]},
            kwargs={"normalizer": "keep_case_words", "tokenizer": "whitespace", "use_stemmer": True},
        ),
        dict(name="custom_tokenizer_only", inputs={"generated": [15, 40]}, kwargs={"tokenizer": "whitespace"}),
        dict(
            name="keys_subset", inputs={"generated": [16, 50]}, kwargs={"rouge_keys": ("rouge3", "rougeLsum", "rouge1")}
        ),
        dict(name="key_as_string", inputs={"generated": [16, 50]}, kwargs={"rouge_keys": "rougeL"}),
        dict(
            name="duplicate_keys",
            inputs={"generated": [17, 30, 2]},
            kwargs={"rouge_keys": ("rouge1", "rouge1", "rougeL")},
        ),
        dict(
            name="duplicate_keys_avg",
            inputs={"generated": [17, 30, 2]},
            kwargs={"rouge_keys": ("rouge2", "rouge2"), "accumulate": "avg"},
        ),
        dict(name="str_and_str", inputs={"preds": "My name is John", "target": "Is your name John"}, kwargs={}),
        dict(
            name="str_pred_list_targets",
            inputs={"preds": "My name is John.", "target": ["Is your name John.", "My name is Jon. Dr. Who"]},
            kwargs={},
        ),
        dict(
            name="list_preds_list_str_targets",
            inputs={"preds": ["My name is John", "the cat"], "target": ["Is your name John", "a cat sat"]},
            kwargs={},
        ),
        dict(
            name="best_tie_first_wins",
            inputs={
                "preds": ["a b c d", "a b c d"],
                "target": [["a b x", "a b c d e f g h i j"], ["a b c d e f g h i j", "a b x"]],
            },
            kwargs={"rouge_keys": ("rouge1",)},
        ),
        dict(
            name="tuple_target_is_iterated",
            inputs={"preds": ["the cat"], "target": ("the cat",), "tuple": True},
            kwargs={},
        ),
        dict(
            name="empty_texts",
            inputs={"preds": ["", "the cat sat", "...", "a b"], "target": [["the cat"], [""], ["..."], ["", "a b"]]},
            kwargs={},
        ),
        dict(name="no_pairs", inputs={"preds": [], "target": []}, kwargs={}),
        dict(name="lengths_differ", inputs={"preds": ["a b", "c d", "e f"], "target": ["a b", "c d"]}, kwargs={}),
        dict(name="bad_accumulate", inputs={"preds": ["a b"], "target": ["a b"]}, kwargs={"accumulate": "max"}),
        dict(name="bad_key", inputs={"preds": ["a b"], "target": ["a b"]}, kwargs={"rouge_keys": ("rouge10",)}),
        dict(name="empty_reference_list_best", inputs={"preds": ["a b"], "target": [[]]}, kwargs={}),
        dict(name="empty_reference_list_avg", inputs={"preds": ["a b"], "target": [[]]}, kwargs={"accumulate": "avg"}),
        dict(
            name="targets_longer",
            inputs={"preds": ["a b c", "c d"], "target": [["a b", "x"], ["c d e"], ["e f"]]},
            kwargs={"rouge_keys": ("rouge1", "rougeL")},
        ),
        dict(
            name="empty_reference_list_avg_among_others",
            inputs={"preds": ["a b", "the cat sat", "c d e"], "target": [["a b c"], [], ["c d", "e"]]},
            kwargs={"accumulate": "avg", "rouge_keys": ("rouge1", "rouge2")},
        ),
        dict(
            name="bad_accumulate_one_key",
            inputs={"preds": ["a b", "c"], "target": ["a b", "c d"]},
            kwargs={"accumulate": "mean", "rouge_keys": ("rougeL",)},
        ),
        dict(name="none_prediction", inputs={"preds": [None], "target": ["a b"]}, kwargs={}),
    ]
    return cases


def class_cases() -> list[dict]:
    return [
        dict(
            name="class_updates",
            init={},
            steps=[["update", {"generated": [21, 30]}], ["update", {"generated": [22, 45, 2]}], ["compute"]],
        ),
        dict(
            name="class_forward_reset",
            init={"accumulate": "avg", "rouge_keys": ("rouge1", "rougeLsum")},
            steps=[
                ["forward", {"generated": [23, 10, 2]}],
                ["forward", {"generated": [24, 5, 3]}],
                ["compute"],
                ["reset"],
                ["compute"],
            ],
        ),
        dict(
            name="class_dropped_input",
            init={"accumulate": "avg", "rouge_keys": ("rouge1", "rougeL")},
            steps=[
                ["update", {"preds": ["a b", "c d e", "f g"], "target": [["a b c"], ["c d"]]}],
                ["forward", {"preds": ["the cat", "a dog"], "target": [["the cat sat", "a cat"], []]}],
                ["compute"],
            ],
        ),
        dict(name="class_bad_key", init={"rouge_keys": ("rougeX",)}, steps=[]),
        dict(name="class_bad_accumulate", init={"accumulate": "max"}, steps=[]),
    ]


def resolve(kwargs: dict) -> dict:
    out = dict(kwargs)
    if "normalizer" in out:
        out["normalizer"] = NORMALIZERS[out["normalizer"]]
    if "tokenizer" in out:
        out["tokenizer"] = TOKENIZERS[out["tokenizer"]]
    return out


def run_functional(case: dict) -> dict:
    from torchmetrics.functional.text.rouge import rouge_score

    preds, target = inputs(case["inputs"])
    try:
        result = rouge_score(preds, target, **resolve(case["kwargs"]))
        return {**case, "result": {k: bits(v) for k, v in result.items()}}
    except Exception as exc:  # noqa: BLE001 - recorded
        return {**case, "error": {"type": type(exc).__name__, "message": str(exc)}}


def run_class(case: dict) -> dict:
    from torchmetrics.text.rouge import ROUGEScore

    outputs = []
    try:
        metric = ROUGEScore(**resolve(case["init"]))
        for step in case["steps"]:
            if step[0] == "update":
                metric.update(*inputs(step[1]))
            elif step[0] == "forward":
                outputs.append({k: bits(v) for k, v in metric(*inputs(step[1])).items()})
            elif step[0] == "compute":
                outputs.append({k: bits(v) for k, v in metric.compute().items()})
            else:
                metric.reset()
        return {**case, "outputs": outputs}
    except Exception as exc:  # noqa: BLE001 - recorded
        return {**case, "outputs": outputs, "error": {"type": type(exc).__name__, "message": str(exc)}}


def torch_means() -> list[dict]:
    import numpy as np
    import torch

    out = []
    for n in (1, 3, 7, 8, 9, 15, 16, 17, 31, 33, 100, 255, 257, 1000, 4096, 5000, 32768):
        values = np.random.default_rng(n).random(n).astype(np.float32)
        out.append({"n": n, "seed": n, "mean": bits(torch.tensor(values.tolist()).mean())})
    return out


def record_containers() -> list[dict]:
    """The cases of tests/_containers.py through the function and the class (default keys)."""
    from _containers import cases, inputs
    from torchmetrics.functional.text.rouge import rouge_score
    from torchmetrics.text.rouge import ROUGEScore

    def metric_class(preds, target):
        metric = ROUGEScore()
        metric.update(preds, target)
        return metric.compute()

    entries = []
    for case in cases():
        entry = dict(case)
        for key, run in (("functional", rouge_score), ("class", metric_class)):
            try:
                entry[key] = {k: bits(v) for k, v in run(*inputs(case)).items()}
            except Exception as exc:  # noqa: BLE001 - recorded
                entry[key] = {"error": {"type": type(exc).__name__, "message": str(exc)}}
        entries.append(entry)
    return entries


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=REPO / "tests" / "goldens" / "torchmetrics")
    parser.add_argument("--no-punkt", action="store_true", help="record the errors without Punkt only")
    parser.add_argument("--containers", action="store_true", help="record tests/_containers.py's cases only")
    args = parser.parse_args()
    import torch
    import torchmetrics

    header = {"torchmetrics": torchmetrics.__version__, "torch": torch.__version__}
    header["cpu_capability"] = torch.backends.cpu.get_cpu_capability()
    header["threads"] = torch.get_num_threads()
    if args.containers:
        import numpy as np
        import pandas as pd
        import polars as pl

        header.update(numpy=np.__version__, pandas=pd.__version__, polars=pl.__version__)
        entries = record_containers()
        out = {"recorded_with": header, "cases": entries}
        (args.out / "containers.json").write_text(json.dumps(out, indent=1, ensure_ascii=False) + "\n")
        for e in entries:
            said = {k: e[k].get("error", {}).get("type", "ok") for k in ("functional", "class")}
            print(e["name"], said, file=sys.stderr)
        return
    if args.no_punkt:
        cases = [
            run_functional(dict(name="lsum_without_punkt", inputs={"preds": ["a b"], "target": ["a b"]}, kwargs={})),
            run_functional(
                dict(
                    name="no_lsum_without_punkt",
                    inputs={"preds": ["a b"], "target": ["a b"]},
                    kwargs={"rouge_keys": ("rouge1",)},
                )
            ),
            run_class(
                dict(
                    name="class_lsum_without_punkt", init={}, steps=[["update", {"preds": ["a b"], "target": ["a b"]}]]
                )
            ),
        ]
        out = {"recorded_with": header, "cases": cases}
        (args.out / "no_punkt.json").write_text(json.dumps(out, indent=1, ensure_ascii=False) + "\n")
        return
    cases = [run_functional(c) for c in functional_cases()] + [run_class(c) for c in class_cases()]
    out = {"recorded_with": header, "cases": cases, "torch_means": torch_means()}
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "cases.json").write_text(json.dumps(out, indent=1, ensure_ascii=False) + "\n")
    for c in cases:
        print(c["name"], c.get("error", {}).get("type", "ok"), file=sys.stderr)


if __name__ == "__main__":
    main()
