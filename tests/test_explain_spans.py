"""Spans for the tokenizers that split words out of unbroken text: ``cjk`` and the segmenters of the
``zh``/``ja``/``th`` presets. The tokens are placed in the text as given, so a report can mark them.

Texts: the pairs written for the tests (tests/data/multilingual_pairs.json) and, when the shared data
is there, real Chinese summaries of Multi-SummEval (ZH.jsonl: gold and two systems' outputs)."""

from __future__ import annotations

import json
import unicodedata
from pathlib import Path

import pytest
from _paths import SHARED, shared_missing

import rougekit
from rougekit.explanation.batch import matched_positions
from rougekit.explanation.views import marked

PAIRS = json.loads((Path(__file__).parent / "data" / "multilingual_pairs.json").read_text(encoding="utf-8"))
ZH = SHARED / "data" / "multi-summeval" / "ZH.jsonl"
CASES = [({"lang": "zh"}, "chinese", "jieba"), ({"lang": "ja"}, "japanese", "fugashi")]
CASES += [({"lang": "th"}, "thai", "pythainlp"), ({"tokenizer": "cjk"}, "chinese", None)]
CASES += [({"tokenizer": "cjk"}, "japanese", None)]


def _check_sides(e) -> int:
    """Every side has spans, one per token before stemming, each the token's text as given."""
    placed = 0
    for side in [e.candidate, *e.references]:
        words = side.words or side.tokens
        assert side.spans is not None, side.text
        assert len(side.spans) == len(words)
        for (a, b), word in zip(side.spans, words):
            assert unicodedata.normalize("NFKC", side.text[a:b]).casefold() == word
            assert not side.text[a:b].isspace()
        assert [a for a, _ in side.spans] == sorted({a for a, _ in side.spans})  # in order, distinct
        placed += len(words)
    return placed


@pytest.mark.parametrize("options, language, module", CASES)
def test_tokens_are_placed_in_the_text(options, language, module):
    if module:
        pytest.importorskip(module, reason=f"lang={options['lang']} needs {module} (the {options['lang']} extra)")
    placed = 0
    for ref, cand in PAIRS[language]:
        e = rougekit.explain(cand, ref, measures=["ROUGE-1", "ROUGE-L"], **options)
        placed += _check_sides(e)
    assert placed > 40  # every pair: 66 jieba tokens in Chinese, more with one character a token (cjk)


@pytest.mark.shared  # Multi-SummEval is research-only data: not in tests/data
@pytest.mark.skipif(not ZH.exists(), reason=shared_missing(ZH))
def test_real_chinese_summaries():
    """100 Multi-SummEval pairs (BERT's and PG's summaries against the gold one), with lang="zh" and
    the cjk tokenizer: every token placed, and the batch path aligns every text."""
    pytest.importorskip("jieba", reason="lang=zh needs jieba (the zh extra)")
    rows = [json.loads(line) for line in ZH.read_text(encoding="utf-8").splitlines()[:50]]
    cands = [r[k] for r in rows for k in ("pred_BERT", "pred_PG")]
    refs = [r["gold"] for r in rows for _ in range(2)]
    for options in ({"lang": "zh"}, {"tokenizer": "cjk"}):
        got = matched_positions(cands, refs, ["ROUGE-1", "ROUGE-L"], **options)
        assert got.aligned["joined"].all() and got.aligned["units"].all()
        for p, (c, r) in enumerate(zip(cands, refs)):
            e = rougekit.explain(c, r, measures=["ROUGE-1"], **options)
            _check_sides(e)
            # the batch path marks explain's tokens, and places them where explain's spans are
            cand = sorted(marked(e["ROUGE-1"], 1)[0])
            assert got.measures["ROUGE-1"].candidate_positions(p) == cand
            t = int(got.candidate[p])
            assert got.spans(t, "joined") == e.candidate.spans
        assert sum(len(got.measures["ROUGE-1"].candidate_positions(p)) for p in range(len(cands))) > 200


def test_unplaceable_text_gets_no_spans():
    # NFKC composes "e" and a combining acute (U+0301) into one character: not placed character by
    # character, so no spans (and no marks), while the scores stand
    e = rougekit.explain("cafe\u0301 noir", "café noir", measures=["ROUGE-1"], tokenizer="unicode")
    assert e.candidate.spans is None and e.references[0].spans == [[0, 4], [5, 9]]
    assert e["ROUGE-1"].hits == 2


def test_the_spaces_come_in_one_order_whatever_the_hash_seed():
    # the spaces were listed from a set: their order in token_at, slots and aligned moved with
    # PYTHONHASHSEED (found by review); now sorted, the same in every process
    import subprocess
    import sys

    from _paths import subprocess_env

    code = (
        "from rougekit.explanation.batch import matched_positions as mp\n"
        "b = mp(['the cat sat'], [['the cat', 'a cat sat']], measures=['ROUGE-1', 'ROUGE-L', 'ROUGE-2'])\n"
        "print(list(b.token_at), list(b.slots), list(b.aligned))"
    )
    seen = set()
    for seed in ("1", "2", "3", "4"):
        env = dict(subprocess_env(), PYTHONHASHSEED=seed)
        out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
        seen.add(out.stdout)
    assert seen == {"['joined', 'units'] ['joined', 'units'] ['joined', 'units']\n"}
