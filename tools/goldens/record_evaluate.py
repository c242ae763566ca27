#!/usr/bin/env python3
"""Record goldens for ``rougekit.compat.evaluate`` from the real ``evaluate`` 0.4.6 "rouge" module.

Run with the Python of a scratch virtual environment OUTSIDE the repository holding
``evaluate==0.4.6`` and ``rouge_score==0.1.2`` (and nltk, absl-py), giving the module file
``metrics/rouge/rouge.py`` of the huggingface/evaluate repository at tag v0.4.6 (commit d5b868b),
saved outside the repository (evaluate otherwise fetches it at run time); see
tools/goldens/README.md. Writes ``tests/goldens/evaluate/cases.json``: for each case the inputs
(texts from a seeded generator), the numpy seed set before ``load``, the keyword arguments of
``compute``, and what it returned (values, their types) or raised (type, message). With
``--containers``: ``tests/goldens/evaluate/containers.json``, the cases of tests/_containers.py
(numpy arrays, pandas/polars Series, tuples in place of lists), with and without the aggregator.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(REPO / "tests"))

from record_files2rouge import WORDS, related  # noqa: E402 - the same word list and generator

TOKENIZERS = {"whitespace": str.split, "characters": lambda text: [c for c in text if not c.isspace()]}


def text(rng: random.Random, sentences: int | None = None) -> str:
    parts = []
    for _ in range(sentences or rng.randint(1, 3)):
        parts.append(" ".join(rng.choice(WORDS) for _ in range(rng.randint(2, 12))).capitalize() + ".")
    return "\n".join(parts) if rng.random() < 0.5 else " ".join(parts)


def pairs(seed: int, n: int, refs_per: int = 0) -> tuple[list[str], list]:
    rng = random.Random(seed)
    references = [text(rng) for _ in range(n)]
    predictions = [related(rng, r) if rng.random() < 0.8 else text(rng) for r in references]
    if refs_per:
        references = [[r, *(related(rng, r) for _ in range(refs_per - 1))] for r in references]
    return predictions, references


def cases() -> list[dict]:
    preds, refs = pairs(1, 40)
    mpreds, mrefs = pairs(2, 25, refs_per=3)
    out = [
        dict(name="default_seed0", np_seed=0, predictions=preds, references=refs, kwargs={}),
        dict(name="default_seed1234", np_seed=1234, predictions=preds, references=refs, kwargs={}),
        dict(name="stemmer_seed7", np_seed=7, predictions=preds, references=refs, kwargs={"use_stemmer": True}),
        dict(name="no_aggregator", np_seed=0, predictions=preds, references=refs, kwargs={"use_aggregator": False}),
        dict(
            name="types_order_seed3",
            np_seed=3,
            predictions=preds,
            references=refs,
            kwargs={"rouge_types": ["rougeLsum", "rouge3", "rougeL"]},
        ),
        dict(name="multi_ref_seed5", np_seed=5, predictions=mpreds, references=mrefs, kwargs={}),
        dict(
            name="multi_ref_no_aggregator",
            np_seed=5,
            predictions=mpreds,
            references=mrefs,
            kwargs={"use_aggregator": False, "use_stemmer": True},
        ),
        dict(
            name="tokenizer_whitespace",
            np_seed=11,
            predictions=preds,
            references=refs,
            kwargs={"tokenizer": "whitespace"},
        ),
        dict(
            name="tokenizer_characters_no_aggregator",
            np_seed=11,
            predictions=["猫が座った", "the cat", "日本語のテキスト です"],
            references=["猫が座っていた", "a cat sat", "日本のテキスト"],
            kwargs={"tokenizer": "characters", "use_aggregator": False},
        ),
        dict(name="one_pair", np_seed=2, predictions=preds[:1], references=refs[:1], kwargs={}),
        dict(
            name="empty_texts",
            np_seed=9,
            predictions=["", "the cat sat", "", "!!!"],
            references=["the cat", "", "", "the dog"],
            kwargs={},
        ),
        dict(
            name="empty_texts_no_aggregator",
            np_seed=9,
            predictions=["", "the cat sat", "", "!!!"],
            references=["the cat", "", "", "the dog"],
            kwargs={"use_aggregator": False},
        ),
        # the state after other draws: evaluate takes its seed from numpy's state at load time
        dict(name="state_after_draws", np_seed=21, draws_before_load=5, predictions=preds, references=refs, kwargs={}),
        dict(name="load_seed_kwarg", np_seed=0, load_seed=99, predictions=preds, references=refs, kwargs={}),
        dict(name="compute_twice", np_seed=8, compute_twice=True, predictions=preds, references=refs, kwargs={}),
        dict(name="error_lengths", np_seed=0, predictions=preds[:3], references=refs[:2], kwargs={}),
        dict(
            name="error_bad_type",
            np_seed=0,
            predictions=preds[:3],
            references=refs[:3],
            kwargs={"rouge_types": ["rougeX"]},
        ),
        dict(name="error_not_string", np_seed=0, predictions=[1, 2], references=["a", "b"], kwargs={}),
        dict(name="error_empty_lists", np_seed=0, predictions=[], references=[], kwargs={}),
    ]
    return out


def jsonable(value):
    if isinstance(value, dict):
        return {k: jsonable(v) for k, v in value.items()}
    if isinstance(value, list):
        return [jsonable(v) for v in value]
    return {"type": type(value).__name__, "value": float(value)}


def record(case: dict, module_path: str) -> dict:
    import evaluate
    import numpy as np

    np.random.seed(case["np_seed"])
    if case.get("draws_before_load"):
        np.random.random_sample(case["draws_before_load"])
    load_kwargs = {"seed": case["load_seed"]} if "load_seed" in case else {}
    metric = evaluate.load(module_path, **load_kwargs)
    kwargs = dict(case["kwargs"])
    if "tokenizer" in kwargs:
        kwargs["tokenizer"] = TOKENIZERS[kwargs["tokenizer"]]
    entry = {k: v for k, v in case.items()}
    try:
        result = metric.compute(predictions=case["predictions"], references=case["references"], **kwargs)
        entry["result"] = jsonable(result)
        if case.get("compute_twice"):
            entry["second_result"] = jsonable(
                metric.compute(predictions=case["predictions"], references=case["references"], **kwargs)
            )
        entry["np_state_after"] = float(np.random.random_sample())  # is the global state advanced?
    except Exception as exc:  # noqa: BLE001 - recorded
        entry["error"] = {"type": type(exc).__name__, "message": str(exc)}
    return entry


def record_containers(module_path: str) -> list[dict]:
    """The cases of tests/_containers.py: per case, what ``compute`` returned or raised, per-pair
    (``use_aggregator=False``) and aggregated (numpy seeded with 0 before ``load``)."""
    import evaluate
    import numpy as np
    from _containers import cases, inputs

    entries = []
    for case in cases():
        entry = dict(case)
        for aggregated in (False, True):
            predictions, references = inputs(case)
            np.random.seed(0)
            metric = evaluate.load(module_path)
            key = "aggregated" if aggregated else "per_pair"
            try:
                result = metric.compute(predictions=predictions, references=references, use_aggregator=aggregated)
                entry[key] = jsonable(result)
            except Exception as exc:  # noqa: BLE001 - recorded
                entry[key] = {"error": {"type": type(exc).__name__, "message": str(exc)}}
        entries.append(entry)
    return entries


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("module", help="path of evaluate's metrics/rouge/rouge.py at v0.4.6")
    parser.add_argument("--out", type=Path, default=REPO / "tests" / "goldens" / "evaluate" / "cases.json")
    parser.add_argument("--containers", action="store_true", help="record tests/_containers.py's cases only")
    args = parser.parse_args()
    import evaluate
    import rouge_score  # noqa: F401

    if args.containers:
        import numpy as np
        import pandas as pd
        import polars as pl

        header = {
            "evaluate": evaluate.__version__,
            "module": "metrics/rouge/rouge.py at v0.4.6 (d5b868b)",
            "numpy": np.__version__,
            "pandas": pd.__version__,
            "polars": pl.__version__,
        }
        out = args.out.with_name("containers.json")
        entries = record_containers(args.module)
        out.write_text(json.dumps({"recorded_with": header, "cases": entries}, indent=1, ensure_ascii=False) + "\n")
        for e in entries:
            said = {k: e[k].get("error", {}).get("type", "ok") for k in ("per_pair", "aggregated")}
            print(e["name"], said, file=sys.stderr)
        return

    entries = [record(case, args.module) for case in cases()]
    args.out.parent.mkdir(parents=True, exist_ok=True)
    header = {"evaluate": evaluate.__version__, "module": "metrics/rouge/rouge.py at v0.4.6 (d5b868b)"}
    args.out.write_text(json.dumps({"recorded_with": header, "cases": entries}, indent=1, ensure_ascii=False) + "\n")
    for e in entries:
        print(e["name"], e.get("error", {}).get("type", "ok"), file=sys.stderr)


if __name__ == "__main__":
    main()
