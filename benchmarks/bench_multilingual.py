#!/usr/bin/env python3
"""Scenario m: pairs/s per language, rougekit.compat.multilingual_rouge vs multilingual-rouge 0.0.1.

    NLTK_DATA=../shared/data/nltk_data python benchmarks/bench_multilingual.py [--repeat 3]

Pairs: ../shared/data/multi-summeval (each reference against its two systems, as an evaluation
scores it: 270 pairs per language) for zh, ru, fr, es, tr, de; for th, ja, hi, ar (no text
there) 270 pairs made by shuffling the words of tests/data/multilingual_pairs.json with a seeded
generator. Both scorers get the same pairs with rouge1, rouge2, rougeL, rougeLsum and the
language's stemmer (where it has one); each run builds a fresh scorer, so rougekit's cache of
segmentations starts empty; the scores are checked equal. The time is the best of --repeat runs
of the whole loop (scorer construction and one warm-up pair excluded).

For zh, ja and th the last columns give the floor set by the word segmenter, as pairs/s: the
time the library's segmenter (jieba, MeCab, pythainlp's newmm: what multilingual-rouge runs)
and rougekit's (its compiled jieba and newmm cutters; MeCab for ja) alone take on the distinct
texts of the run (each cleaned text segmented once, as the scorer does), and the speed-up a
scorer that spent nothing but rougekit's segmentation could reach against multilingual-rouge.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
import warnings
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
SHARED = Path(os.environ.get("ROUGEKIT_SHARED") or REPO.parent / "shared")
TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
#: language name -> (multi-summeval file code or None, use_stemmer)
LANGUAGES = {
    "chinese": ("ZH", False),
    "japanese": (None, False),
    "thai": (None, False),
    "hindi": (None, True),
    "arabic": (None, True),
    "russian": ("RU", True),
    "turkish": ("TR", True),
    "french": ("FR", True),
    "spanish": ("ES", True),
    "german": ("DE", True),
}


def pairs_for(lang: str, code: str | None) -> list[tuple[str, str]]:
    """(target, prediction) pairs: multi-summeval's, or 270 made from the written pairs' words."""
    if code:
        rows = [json.loads(line) for line in (SHARED / "data" / "multi-summeval" / f"{code}.jsonl").open()]
        return [(r["gold"], r[k]) for r in rows for k in ("pred_BERT", "pred_PG")]
    written = json.loads((REPO / "tests" / "data" / "multilingual_pairs.json").read_text(encoding="utf-8"))[lang]
    rng = random.Random(14)
    joiner = "" if lang in ("japanese", "thai") else " "
    pieces = [w for pair in written for text in pair for w in (text.replace("\n", " ").split())]
    if lang in ("japanese", "thai"):  # no spaces to cut at: take runs of characters
        text = "".join(pieces)
        pieces = [text[i : i + rng.randint(2, 6)] for i in range(0, len(text), 4)]
    out = []
    for _ in range(135):
        target = joiner.join(rng.choice(pieces) for _ in range(rng.randint(15, 30)))
        for _ in range(2):
            out.append((target, joiner.join(rng.choice(pieces) for _ in range(rng.randint(10, 25)))))
    return out


def best_time(make, pairs, repeat: int) -> tuple[float, list]:
    best, scores = float("inf"), []
    for _ in range(repeat):
        scorer = make()
        scorer.score(*pairs[0])
        if hasattr(scorer, "_cached_tokens"):
            scorer = make()  # rougekit: a fresh segmentation cache for the timed run
        start = time.perf_counter()
        scores = [scorer.score(t, p) for t, p in pairs]
        best = min(best, time.perf_counter() - start)
    return best, scores


def _library_segmenter(lang: str):
    """The library's segmenter as the package calls it (jieba, pythainlp); None for MeCab (the same on both sides)."""
    if lang == "chinese":
        import jieba

        return lambda text: list(jieba.cut(text))
    if lang == "thai":
        from pythainlp.tokenize import word_tokenize

        return lambda text: word_tokenize(text, engine="newmm")
    return None


def segmenter_time(lang: str, pairs, repeat: int, library: bool = False) -> float:
    """Best time of segmenting each distinct cleaned text once with a fresh segmenter (rougekit's or the library's)."""
    from rougekit.compat._mlrouge_segmenters import segmenter
    from rougekit.compat._mlrouge_text import basic_tokens

    texts = list(dict.fromkeys(t for pair in pairs for t in pair))
    cleaned = [" ".join(basic_tokens(t.lower().strip())) for t in texts]
    best = float("inf")
    for _ in range(repeat):
        segment = _library_segmenter(lang) if library else segmenter(lang)
        start = time.perf_counter()
        for text in cleaned:
            segment(text)
        best = min(best, time.perf_counter() - start)
    return best


def run(repeat: int, only: list[str] | None = None) -> str:
    sys.path.insert(0, str(REPO / "src"))
    warnings.simplefilter("ignore")
    from multilingual_rouge import rouge_scorer as theirs

    from rougekit.compat import multilingual_rouge as ours

    try:
        import unidic
        import unidic_lite

        unidic.DICDIR = unidic_lite.DICDIR  # let the package's fugashi find a dictionary
    except ImportError:
        pass
    lines = [
        "### m. multilingual-rouge 0.0.1 vs rougekit.compat.multilingual_rouge (pairs/s, 1 process)",
        "",
        "| language | pairs | multilingual-rouge | rougekit | speed-up | equal | library segmenter alone "
        "| rougekit segmenter alone | ceiling |",
        "|---|---:|---:|---:|---:|---|---:|---:|---:|",
    ]
    for lang, (code, stem) in LANGUAGES.items():
        if only and lang not in only:
            continue
        if code and not (SHARED / "data" / "multi-summeval").is_dir():
            lines.append(f"| {lang} | - | - | - | - | skipped: {SHARED} absent | - | - | - |")
            continue
        pairs = pairs_for(lang, code)
        kw = {"lang": lang, "use_stemmer": stem}
        t_theirs, s_theirs = best_time(lambda: theirs.RougeScorer(TYPES, **kw), pairs, repeat)
        t_ours, s_ours = best_time(lambda: ours.RougeScorer(TYPES, **kw), pairs, repeat)
        same = [{k: tuple(a[k]) for k in TYPES} == {k: tuple(b[k]) for k in TYPES} for a, b in zip(s_theirs, s_ours)]
        equal = all(same) and len(same) == len(pairs)
        n = len(pairs)
        floor = "- | - | -"
        if lang in ("chinese", "japanese", "thai"):
            t_seg = segmenter_time(lang, pairs, repeat)
            t_lib = segmenter_time(lang, pairs, repeat, library=True) if _library_segmenter(lang) else t_seg
            floor = f"{n / t_lib:,.0f} | {n / t_seg:,.0f} | {t_theirs / t_seg:.1f}x"
        lines.append(
            f"| {lang}{'' if code else ' (shuffled)'} | {n} | {n / t_theirs:,.0f} | {n / t_ours:,.0f} "
            f"| {t_theirs / t_ours:.1f}x | {'yes' if equal else 'NO'} | {floor} |"
        )
    load = os.getloadavg()
    lines += ["", f"load average while measuring: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} ({os.cpu_count()} cores)"]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--lang", action="append", choices=list(LANGUAGES), help="only this language (repeatable)")
    args = ap.parse_args(argv)
    print(run(args.repeat, args.lang))
    return 0


if __name__ == "__main__":
    sys.exit(main())
