"""A seeded near-duplicate corpus for the dedup benchmarks (issue 29), from real English sentences.

Source: every distinct ASCII sentence of 10-40 words in the shared data's summaries and source
articles (SummEval and REALSumm's CNN/DailyMail documents and highlights, Newsroom, DialSummEval:
about 37,000 sentences, read by ``bench_process.real_sentences`` from ``$ROUGEKIT_SHARED/data``, by
default ``../shared/data``).

Each text of the corpus is drawn, in order, with the seed's ``random.Random``:

* 45 % a *splice*: the first words of one real sentence and the last words of another
  (10-40 words; the sentences themselves come first, each once, until they run out);
* 25 % a *paraphrase-like edit* of a text drawn earlier: 1-4 edits, each a word dropped, two
  neighbouring words swapped, or a word replaced by a random word of the real sentences;
* 10 % a *near repeat* of an earlier text: one such edit;
* 5 % an *exact repeat* of an earlier text;
* 15 % a *splice of an earlier text* with a real sentence (its first half and another's tail).

Earlier texts are drawn mostly from the last 10,000 (repeats and edits near each other, as in
generated instruction data) and sometimes from anywhere before. Everything is a pure function of
``(n, seed)``; the same ``n`` with another seed gives another corpus of the same make-up.
"""

from __future__ import annotations

import random

from bench_process import SHARED, real_sentences

KINDS = (("splice", 45), ("edit", 25), ("near", 10), ("repeat", 5), ("resplice", 15))


def _edit(words: list[str], rng: random.Random, vocab: list[str], edits: int) -> list[str]:
    out = list(words)
    for _ in range(edits):
        op = rng.randrange(3)
        if op == 0 and len(out) > 1:
            del out[rng.randrange(len(out))]
        elif op == 1 and len(out) > 1:
            k = rng.randrange(len(out) - 1)
            out[k], out[k + 1] = out[k + 1], out[k]
        else:
            out[rng.randrange(len(out))] = rng.choice(vocab)
    return out


def near_duplicate_corpus(n: int, seed: int = 0) -> list[str]:
    """``n`` texts (see the module docstring), as strings of space-separated words."""
    real = real_sentences()
    if not real:
        raise SystemExit(f"no sentences found under {SHARED} (set ROUGEKIT_SHARED to the shared folder)")
    rng = random.Random(seed)
    pool = [s.split() for s in real]
    fresh = list(range(len(pool)))
    rng.shuffle(fresh)
    vocab = sorted({w for s in pool for w in s})
    names = [k for k, _ in KINDS]
    weights = [w for _, w in KINDS]
    out: list[list[str]] = []
    for _ in range(n):
        kind = rng.choices(names, weights)[0] if out else "splice"
        if kind == "splice":
            if fresh:
                out.append(pool[fresh.pop()])
                continue
            while True:
                a, b = rng.choice(pool), rng.choice(pool)
                s = a[: rng.randint(3, len(a) - 3)] + b[rng.randint(3, len(b) - 3) :]
                if 10 <= len(s) <= 40:
                    break
            out.append(s)
            continue
        back = len(out) if rng.random() < 0.2 else min(len(out), 10_000)
        base = out[len(out) - 1 - rng.randrange(back)]
        if kind == "repeat":
            out.append(base)
        elif kind == "near":
            out.append(_edit(base, rng, vocab, 1))
        elif kind == "edit":
            out.append(_edit(base, rng, vocab, rng.randint(1, 4)))
        else:
            b = rng.choice(pool)
            out.append(base[: max(1, len(base) // 2)] + b[len(b) // 2 :])
    return [" ".join(s) for s in out]
