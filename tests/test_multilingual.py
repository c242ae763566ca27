"""Unicode tokenizers (hand-computed values) and the rouge155 tokenizer on non-ASCII goldens."""

from __future__ import annotations

import gzip
import json

import pytest
from _paths import SHARED, shared_missing

import rougekit
from rougekit.report.formats import to_rouge155

MULTI = SHARED / "data" / "multi-summeval"


def rp(cand, ref, measure="ROUGE-1", **kw):
    s = rougekit.score([cand], [ref], measures=[measure], bootstrap=None, **kw).per_pair()[0][measure]
    return s["recall"], s["precision"]


def test_russian():
    # tokens: кошка сидит на ковре / кошка лежит на ковре -> 3 of 4 unigrams, 1 of 3 bigrams
    assert rp("Кошка сидит на ковре.", "кошка лежит на ковре", tokenizer="unicode") == (0.75, 0.75)
    assert rp("Кошка сидит на ковре.", "кошка лежит на ковре", "ROUGE-2", tokenizer="unicode") == (0.33333, 0.33333)
    # the exact tokenizer destroys Cyrillic (every byte >= 0x80 is a separator)
    assert rp("Кошка сидит на ковре.", "кошка лежит на ковре") == (0.0, 0.0)


def test_greek_case_folding():
    # casefold maps Σ and final ς to σ and keeps accents: all 5 words match
    assert rp("Η ΓΆΤΑ ΚΆΘΕΤΑΙ ΣΤΟΝ ΔΡΌΜΟΣ", "η γάτα κάθεται στον δρόμος", tokenizer="unicode") == (1.0, 1.0)
    # ΓΑΤΑ without the accent is another word: 4 of 5
    assert rp("Η ΓΑΤΑ ΚΆΘΕΤΑΙ ΣΤΟΝ ΔΡΌΜΟΣ", "η γάτα κάθεται στον δρόμος", tokenizer="unicode") == (0.8, 0.8)


def test_hindi_keeps_combining_marks_inside_words():
    # भारत एक देश है (4 words) vs भारत एक बड़ा देश है (5 words): 4 hits; bigrams 2 of 3 / 2 of 4
    assert rp("भारत एक देश है।", "भारत एक बड़ा देश है", tokenizer="unicode") == (0.8, 1.0)
    assert rp("भारत एक देश है।", "भारत एक बड़ा देश है", "ROUGE-2", tokenizer="unicode") == (0.5, 0.66667)


def test_chinese_characters():
    # 我 爱 北 京 vs 我 爱 上 海: 2 of 4 characters; 1 of 3 bigrams (我爱)
    assert rp("我爱北京", "我爱上海", tokenizer="cjk") == (0.5, 0.5)
    assert rp("我爱北京", "我爱上海", "ROUGE-2", tokenizer="cjk") == (0.33333, 0.33333)
    # without CJK splitting a run of Han characters is one token
    assert rp("我爱北京", "我爱上海", tokenizer="unicode") == (0.0, 0.0)


def test_japanese_mixed_scripts():
    # 東 京 は 晴 れ で す (7) vs 東 京 は 雨 で す (6): 5 hits
    assert rp("東京は晴れです。", "東京は雨です。", tokenizer="cjk") == (0.83333, 0.71429)


def test_custom_tokenizer_callable():
    assert rp("a-b c", "a b", tokenizer=lambda s: s.split()) == (0.0, 0.0)
    assert rp("a b c", "a b", tokenizer=lambda s: s.split()) == (1.0, 0.66667)


def _golden_lines(lang):
    with gzip.open(
        MULTI / "rouge155_goldens" / f"{lang}_c95-r1000-n2-a-d_raw_output.txt.gz", "rt", encoding="utf-8"
    ) as handle:
        return handle.read()


@pytest.mark.shared  # Multi-SummEval is research-only data: not in tests/data
@pytest.mark.skipif(not MULTI.exists(), reason=shared_missing(MULTI))
@pytest.mark.parametrize("lang", ["EN", "DE", "ES", "FR", "ID", "RU", "TR", "ZH"])
def test_rouge155_tokenizer_reproduces_multi_summeval_goldens(lang):
    """`-c 95 -r 1000 -n 2 -a -d` output, byte for byte, from the API and the 1.5.5 writer."""
    docs = [json.loads(line) for line in (MULTI / f"{lang}.jsonl").read_text(encoding="utf-8").splitlines()]
    golden = _golden_lines(lang)
    ids = [d["id"] for d in docs]
    results = {
        system: rougekit.score(
            [d[f"pred_{system}"] for d in docs],
            [d["gold"] for d in docs],
            measures=["ROUGE-1", "ROUGE-2", "ROUGE-L"],
            ids=ids,
        )
        for system in ("BERT", "PG")
    }
    assert to_rouge155(results, per_pair=True) == golden
