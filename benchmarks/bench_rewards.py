"""Rewards and token ids at the engine's speed (issue 28): 256 pairs of 1,024 token ids, ROUGE-1/2/L,
per-pair F as a list of floats, against rouge-score-rs ``score_batch`` on the same pairs as text.

    PYTHONPATH=src:/tmp/rsrs_site python benchmarks/bench_rewards.py [--repeat 31] [--idle-ms 20]

Every row is timed in the same process, alternately, ``--repeat`` times; the table gives the median
of each. What is timed (the inputs are built before, not timed):

* rouge-score-rs: ``RougeScorer(["rouge1", "rouge2", "rougeL"]).score_batch(refs, cands)`` on the ids
  written as space-separated numbers, then the three F values of each pair read into lists;
* rougekit on int32 numpy arrays / on Python lists of ints (TRL's ``completion_ids``):
  ``rougekit.score(c, r, measures=[1, 2, L], bootstrap=None)`` then ``.values(m, "f").tolist()``
  for each measure (per-pair F as lists of floats);
* ``rewards.rouge_reward`` on lists: three reward functions (ROUGE-1, ROUGE-2, ROUGE-L F) called as
  TRL calls them, with ``completion_ids=`` and reference ids as lists; against rouge-score-rs's three
  F lists (the same row as above);
* the ROUGE-L reward alone against rouge-score-rs ``RougeScorer(["rougeL"])`` (one F list).

Targets: numpy int32 >= 5x, lists >= 4x, rouge_reward on lists >= 4x.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import corpora  # noqa: E402

MEASURES = ["ROUGE-1", "ROUGE-2", "ROUGE-L"]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--pairs", type=int, default=256)
    ap.add_argument("--length", type=int, default=1024)
    ap.add_argument("--repeat", type=int, default=31)
    ap.add_argument(
        "--idle-ms",
        type=float,
        default=0.0,
        help="sleep this long before each timed call (rougekit and the peer): caches cold, as in an RL step",
    )
    args = ap.parse_args()

    import numpy as np

    import rougekit
    from rougekit.rewards import rouge_reward

    corpus = corpora.token_ids(args.pairs, args.length)
    cand_text = corpus.candidates
    ref_text = [r[0] for r in corpus.references]
    cand_np = [corpora.ids_of(x) for x in cand_text]
    ref_np = [corpora.ids_of(x) for x in ref_text]
    cand_list = [a.tolist() for a in cand_np]
    ref_list = [a.tolist() for a in ref_np]

    def ours(c, r):
        res = rougekit.score(c, r, measures=MEASURES, bootstrap=None)
        return [res.values(m, "f").tolist() for m in MEASURES]

    rewards = [rouge_reward(m, completion_field="completion_ids") for m in MEASURES]
    columns = {"prompts": [""] * len(cand_list), "trainer_state": None, "completions": [""] * len(cand_list)}

    def reward3():
        return [f(completion_ids=cand_list, reference=ref_list, **columns) for f in rewards]

    def reward_l():
        return rewards[2](completion_ids=cand_list, reference=ref_list, **columns)

    tools = {
        "rougekit.score on numpy int32 arrays": lambda: ours(cand_np, ref_np),
        "rougekit.score on Python lists of ints": lambda: ours(cand_list, ref_list),
        "rouge_reward x3 (1, 2, L) on lists": reward3,
        "rouge_reward ROUGE-L on lists": reward_l,
    }
    peers = {}
    try:
        from rouge_score_rs import RougeScorer
    except ImportError:
        print("rouge-score-rs is not installed (PYTHONPATH=/tmp/rsrs_site or pip install rouge-score-rs): no ratios")
    else:
        s3 = RougeScorer(["rouge1", "rouge2", "rougeL"], use_stemmer=False)
        s1 = RougeScorer(["rougeL"], use_stemmer=False)

        def rs3():
            out = s3.score_batch(ref_text, cand_text)
            return [[s[k].fmeasure for s in out] for k in ("rouge1", "rouge2", "rougeL")]

        def rs1():
            return [s["rougeL"].fmeasure for s in s1.score_batch(ref_text, cand_text)]

        peers = {"rouge-score-rs score_batch rouge1/2/L": rs3, "rouge-score-rs score_batch rougeL": rs1}
        want = rs3()
        for name in list(tools)[:3]:
            got = tools[name]()
            assert all(np.allclose(a, b, atol=1e-5) for a, b in zip(got, want)), name
        assert np.allclose(reward_l(), rs1(), atol=1e-5)
    everything = {**peers, **tools}
    times: dict = {k: [] for k in everything}
    for _ in range(args.repeat):
        for name, fn in everything.items():
            if args.idle_ms > 0:
                time.sleep(args.idle_ms / 1e3)
            t0 = time.perf_counter()
            fn()
            times[name].append(time.perf_counter() - t0)
    load = os.getloadavg()[0]
    print(
        f"{args.pairs} pairs of {args.length} token ids, median of {args.repeat} calls each, "
        f"{os.cpu_count()} cores, load {load:.1f}"
        + (f", {args.idle_ms:g} ms idle before each" if args.idle_ms > 0 else "")
    )
    med = {k: statistics.median(v) for k, v in times.items()}
    base3 = med.get("rouge-score-rs score_batch rouge1/2/L")
    base1 = med.get("rouge-score-rs score_batch rougeL")
    print(f"| {'what':45} | {'ms':>7} | vs rouge-score-rs |")
    print(f"|{'-' * 47}|{'-' * 9}|{'-' * 19}|")
    for name, t in med.items():
        base = base1 if name.endswith("ROUGE-L on lists") else base3
        ratio = f"{base / t:5.2f}x" if base and not name.startswith("rouge-score-rs") else ""
        print(f"| {name:45} | {t * 1e3:7.2f} | {ratio:>17} |")


if __name__ == "__main__":
    main()
