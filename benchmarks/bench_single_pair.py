"""Per-call cost of rougekit's single-pair entry points (the per-pair counting path).

On 200 seeded CNN/DM-sized synthetic pairs (``corpora.synthetic``; candidate ~60 words, reference
~55, 3-4 sentences each), one call per pair, repeated; the table gives the best of ``--repeat``
rounds, in microseconds per pair:

* ``RougeScorer.score``: ``compat.rouge_scorer`` with rouge1, rouge2, rougeL, rougeLsum, stemming
  (after the first round its texts' token ids come from the scorer's cache by text);
* ``RougeScorer.score, new texts``: the same with that cache emptied before each call (every text
  tokenized and stemmed again; the vocabulary is kept);
* ``Rouge.get_scores``: ``compat.rouge`` (pltrdy), its default measures;
* ``explain``: ``rougekit.explain`` with ROUGE-1, 2, L and stemming;
* ``reward``: a ``rouge_reward("ROUGE-L")`` function called on one completion;
* ``Scorer(fast=False)``: the readable path of ``rougekit.Scorer`` (ROUGE-1, 2, L, W-1.2, SU4);
* ``kernels``: the five counting kernels of ``rougekit._core`` on the pair's token ids.

Usage: ``python benchmarks/bench_single_pair.py [--pairs 200] [--repeat 5]``
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "src"))

import corpora  # noqa: E402

import rougekit  # noqa: E402
from rougekit import _core  # noqa: E402
from rougekit.compat import rouge as pltrdy  # noqa: E402
from rougekit.compat import rouge_scorer  # noqa: E402
from rougekit.rewards import rouge_reward  # noqa: E402


def _best(call, pairs, repeat: int) -> float:
    """Best over ``repeat`` rounds of the mean time per pair, in microseconds."""
    for cand, ref in pairs[:10]:
        call(cand, ref)
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        for cand, ref in pairs:
            call(cand, ref)
        best = min(best, (time.perf_counter() - start) / len(pairs) * 1e6)
    return best


def cases():
    scorer = rouge_scorer.RougeScorer(["rouge1", "rouge2", "rougeL", "rougeLsum"], use_stemmer=True)
    uncached = rouge_scorer.RougeScorer(["rouge1", "rouge2", "rougeL", "rougeLsum"], use_stemmer=True)

    def new_texts(cand, ref):
        if uncached._cached_ids is not None:
            uncached._cached_ids.cache_clear()
        return uncached.score(ref, cand)

    pl = pltrdy.Rouge()
    reward = rouge_reward("ROUGE-L")
    slow = rougekit.Scorer(
        measures=["ROUGE-1", "ROUGE-2", "ROUGE-L", "ROUGE-W-1.2", "ROUGE-SU4"], bootstrap=None, fast=False
    )
    measures = ["ROUGE-1", "ROUGE-2", "ROUGE-L"]
    vocab: dict[str, int] = {}

    def ids(text):
        return [vocab.setdefault(w, len(vocab)) for w in text.split()]

    prepared: dict[tuple[str, str], tuple] = {}  # token ids made once per pair: only the kernels are timed

    def kernels(cand, ref):
        if (cand, ref) not in prepared:
            ps = [ids(s) for s in cand.split("\n")]
            ms = [ids(s) for s in ref.split("\n")]
            prepared[cand, ref] = ps, ms, [t for s in ps for t in s], [t for s in ms for t in s]
        ps, ms, p, m = prepared[cand, ref]
        _core.ngram_stats(p, m, 1)
        _core.ngram_stats(p, m, 2)
        _core.skip_bigram_stats(p, m, 4, True)
        _core.lcs_union_hits(ps, ms, p, m)
        _core.wlcs_union_hits(ps, ms, p, m, 1.2)

    return {
        "RougeScorer.score": lambda c, r: scorer.score(r, c),
        "RougeScorer.score, new texts": new_texts,
        "Rouge.get_scores": lambda c, r: pl.get_scores(c, r),
        "explain": lambda c, r: rougekit.explain(c, r, measures, stem=True).to_dict(),
        "reward": lambda c, r: reward([c], reference=[r]),
        "Scorer(fast=False)": lambda c, r: slow.score([c], [r]).per_pair(),
        "kernels": kernels,
    }


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pairs", type=int, default=200)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args(argv)
    corpus = corpora.synthetic(args.pairs)
    pairs = [(c, refs[0]) for c, refs in zip(corpus.candidates, corpus.references)]
    print(f"backend {_core.BACKEND}, {len(pairs)} pairs, best of {args.repeat}")
    for name, call in cases().items():
        print(f"{name:30s} {_best(call, pairs, args.repeat):9.1f} us/pair")


if __name__ == "__main__":
    main()
