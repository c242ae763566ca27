#!/usr/bin/env python3
"""Scenario (l): pairs per second of the language presets (``lang=``), per language.

    PYTHONPATH=src python benchmarks/languages.py [--langs zh,ja,th,my,hi,ru,ar,ko,en] [--pairs 2000]

Each language gets ``pairs`` generated summary pairs (reference 3 sentences of 12 words,
candidate 3 sentences of which 60 % of the words come from its reference), drawn with a fixed seed
from the words of real text: the multi-summeval summaries in ``shared/data`` for the languages it
has (de, en, es, fr, id, ru, tr, zh), a few written sentences for the others. Languages written
without spaces (zh, ja, th, my) get no spaces, so the segmenter does the work it does on real text.

Timed: one ``Scorer(lang=..., stem=..., measures=ROUGE-1/2/L, bootstrap=None).score(...)`` call (with
stemming where the language has a stemmer) with a new
scorer (cold: every sentence segmented), then the same call again (warm: the segmentations come
from the scorer's cache). The segmenter's own loading (jieba's dictionary, MeCab) happens in a
warm-up call first and is not timed. ``time_call`` and ``language_corpus`` are reusable by other
scenarios (a comparison with multilingual-rouge on the same pairs, say).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "src"))
sys.path.insert(0, str(HERE))

import corpora  # noqa: E402

MULTI_SUMMEVAL = corpora.SHARED / "data" / "multi-summeval"
LANGS = ("zh", "ja", "th", "my", "hi", "ru", "ar", "ko", "en")
UNSPACED = ("zh", "ja", "th", "my")

#: seed text for the languages multi-summeval does not have (written for the benchmark)
SEED = {
    "ja": "東京は日本の首都です。昨日は雨が降りましたが、今日は晴れています。政府は新しい経済対策を発表した。"
    "多くの人々が駅前の広場に集まり、祭りを楽しんだ。専門家によると、来年の景気は回復する見通しだ。",
    "th": "กรุงเทพมหานครเป็นเมืองหลวงของประเทศไทย วันนี้อากาศดีมาก เราจะไปเที่ยวทะเลกัน "
    "รัฐบาลประกาศมาตรการช่วยเหลือเกษตรกรที่ได้รับผลกระทบจากน้ำท่วม นักเรียนหลายคนเดินทางไปโรงเรียนตอนเช้า",
    "my": "မြန်မာနိုင်ငံ၏ မြို့တော်မှာ နေပြည်တော် ဖြစ်သည်။ ကျွန်တော် စာအုပ်ဖတ်နေပါတယ်။ သတင်းထောက်များ၏ အဆိုအရ ရန်ကုန်မြို့တွင် မိုးသည်းထန်စွာ ရွာသွန်းခဲ့သည်။",
    "hi": "भारत एक विशाल देश है। सरकार ने किसानों के लिए नई योजना की घोषणा की। कल रात दिल्ली में भारी बारिश हुई और "
    "कई सड़कों पर पानी भर गया। विशेषज्ञों का कहना है कि अगले साल अर्थव्यवस्था में सुधार होगा।",
    "ar": "ذهب الطلاب إلى المدرسة في الصباح. أعلنت الحكومة عن خطة جديدة لدعم المزارعين. هطلت أمطار غزيرة على "
    "المدينة الليلة الماضية وأغلقت العديد من الطرق. يقول الخبراء إن الاقتصاد سيتحسن في العام المقبل.",
    "ko": "서울은 한국의 수도입니다. 정부는 농민을 위한 새로운 지원 대책을 발표했다. 어젯밤 도시에 폭우가 쏟아져 "
    "많은 도로가 통제되었다. 전문가들은 내년에 경제가 회복될 것이라고 말했다.",
}


def _seed_text(lang: str) -> str:
    path = MULTI_SUMMEVAL / f"{lang.upper()}.jsonl"
    if path.exists():
        docs = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
        return "\n".join(d[k] for d in docs for k in ("gold", "pred_BERT", "pred_PG") if k in d)
    if lang not in SEED:
        raise SystemExit(f"no seed text for {lang!r} (add one to SEED in {Path(__file__).name})")
    return SEED[lang]


def _words(lang: str) -> list[str]:
    """The words of the seed text, as the language's preset cuts them (before stemming)."""
    from rougekit.text import presets

    text = _seed_text(lang)
    p = presets.preset(lang)
    if p.segmenter:
        from rougekit.text.segmenters import segmenter

        cut = segmenter(lang)
        return [w for line in text.splitlines() for w in cut(line) if w.strip() and any(c.isalnum() for c in w)]
    return [w.strip(".,;:!?\"'()«»،۔।") for w in text.split() if any(c.isalnum() for c in w)]


def language_corpus(lang: str, pairs: int, seed: int = 0) -> corpora.Corpus:
    """``pairs`` generated (candidate, [reference]) pairs in ``lang``, a pure function of the seed."""
    words = _words(lang)
    rng = random.Random(seed)
    glue = "" if lang in UNSPACED else " "
    end = {"zh": "。", "ja": "。", "my": "။", "th": " ", "hi": "।"}.get(lang, ".")

    def sentence(pool: list[str]) -> str:
        return glue.join(rng.choice(pool) for _ in range(12)) + end

    cands, refs = [], []
    for _ in range(pairs):
        ref_sentences = [sentence(words) for _ in range(3)]
        ref_words = [w for s in ref_sentences for w in (s.split() if glue else [s])]
        mixed = [w for w in words if rng.random() < 0.4] or words
        cand = [glue.join(rng.choice(ref_words if rng.random() < 0.6 else mixed) for _ in range(12)) + end]
        cands.append("\n".join(cand + [sentence(words) for _ in range(2)]))
        refs.append(["\n".join(ref_sentences)])
    return corpora.Corpus(f"generated {lang}", cands, refs)


def time_call(fn, *args) -> float:
    """Seconds of one call of ``fn(*args)``."""
    t0 = time.perf_counter()
    fn(*args)
    return time.perf_counter() - t0


def rougekit_rates(lang: str, corpus: corpora.Corpus, jobs: int | None = None) -> dict:
    """Pairs per second of rougekit's preset for ``lang`` (stemming when it has a stemmer): a new scorer
    (cold), then the same again (warm)."""
    import rougekit
    from rougekit.text import presets

    measures = ["ROUGE-1", "ROUGE-2", "ROUGE-L"]
    kw = dict(lang=lang, stem=presets.preset(lang).stems, bootstrap=None)
    rougekit.Scorer(measures, **kw).score(corpus.candidates[:5], corpus.references[:5])
    scorer = rougekit.Scorer(measures, jobs=jobs, **kw)
    cold = time_call(scorer.score, corpus.candidates, corpus.references)
    warm = time_call(scorer.score, corpus.candidates, corpus.references)
    n = len(corpus)
    return {"lang": lang, "pairs": n, "cold": n / cold, "warm": n / warm, "signature": str(scorer.signature)}


def scenario_l(langs=LANGS, pairs: int = 2000) -> str:
    """The table of scenario (l) as Markdown."""
    rows = [
        f"## (l) language presets: pairs/s, {pairs:,} generated pairs per language, ROUGE-1/2/L, bootstrap=None",
        "",
        "| lang | segmenter | stemmer | pairs/s (new scorer) | pairs/s (cached segmentations) |",
        "| --- | --- | --- | ---: | ---: |",
    ]
    from rougekit.signature import Signature

    for lang in langs:
        r = rougekit_rates(lang, language_corpus(lang, pairs))
        sig = Signature.parse(r["signature"])
        rows.append(f"| {lang} | {sig.segmenter or '-'} | {sig.stemmer} | {r['cold']:,.0f} | {r['warm']:,.0f} |")
        print(rows[-1], file=sys.stderr)
    return "\n".join(rows) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--langs", default=",".join(LANGS))
    ap.add_argument("--pairs", type=int, default=2000)
    args = ap.parse_args(argv)
    print(scenario_l([x.strip() for x in args.langs.split(",") if x.strip()], args.pairs))
    return 0


if __name__ == "__main__":
    sys.exit(main())
