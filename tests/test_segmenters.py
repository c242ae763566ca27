"""Word segmenters (rougekit.text.segmenters) against the segmenters XL-Sum's multilingual-rouge runs."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from _paths import SHARED, shared_missing, subprocess_env

from rougekit.errors import OptionError
from rougekit.text import segmenters
from rougekit.text.segmenters import burmese_syllables, segmenter, segmenter_name

ZH = SHARED / "data" / "multi-summeval" / "ZH.jsonl"

THAI = [
    "สวัสดีครับ ผมชื่อสมชาย",
    "วันนี้อากาศดีมาก เราจะไปเที่ยวทะเลกัน",
    "รัฐบาลประกาศมาตรการช่วยเหลือเกษตรกรที่ได้รับผลกระทบจากน้ำท่วม",
]
BURMESE = [
    "မြန်မာနိုင်ငံ၏ မြို့တော်မှာ နေပြည်တော် ဖြစ်သည်။",
    "ကျွန်တော် စာအုပ်ဖတ်နေပါတယ်",
    "သတင်းထောက်များ၏ အဆိုအရ ရန်ကုန်မြို့တွင် မိုးသည်းထန်စွာ ရွာသွန်းခဲ့သည်။",
    "ဗုဒ္ဓဘာသာ သင်္ချိုင်း",
]


def _peer_tokenizers():
    return pytest.importorskip("multilingual_rouge.tokenizers", reason="multilingual-rouge is not installed")


def test_burmese_by_hand():
    # မြ + န် (asat, joins) | မာ | စာ ; the space is removed; ကို is one character with two signs
    assert burmese_syllables("မြန်မာစာ ကို") == ["မြန်", "မာ", "စာ", "ကို"]
    # a virama (U+1039) standing alone glues the pieces on both sides: ဗု | ဒ ္ ဓ -> ဗု | ဒ္ဓ
    assert burmese_syllables("ဗုဒ္ဓ") == ["ဗု", "ဒ္ဓ"]
    assert burmese_syllables("") == [] and burmese_syllables(" \u200c ") == []


def test_burmese_equals_multilingual_rouge_on_texts():
    peer = _peer_tokenizers().BurmeseTokenizer()
    for text in BURMESE:
        assert burmese_syllables(text) == peer(text), text


def test_burmese_equals_multilingual_rouge_on_generated_text():
    peer = _peer_tokenizers().BurmeseTokenizer()
    hypothesis = pytest.importorskip("hypothesis", reason="hypothesis is not installed")
    st = hypothesis.strategies
    # the Myanmar block (consonants, signs, asat, virama, digits, punctuation), spaces, ZWNJ, Latin
    alphabet = st.sampled_from([chr(c) for c in range(0x1000, 0x10A0)] + [" ", "\u200c", "\u1037\u103a", "a", "Q"])

    @hypothesis.settings(max_examples=1500, deadline=None, derandomize=True)
    @hypothesis.given(st.lists(alphabet, max_size=40).map("".join))
    def same(text):
        assert burmese_syllables(text) == peer(text)

    same()


@pytest.mark.shared  # Multi-SummEval is research-only data: not in tests/data
@pytest.mark.skipif(not ZH.exists(), reason=shared_missing(ZH))
def test_chinese_equals_multilingual_rouge_on_multi_summeval():
    peer = _peer_tokenizers().ChineseTokenizer()
    ours = segmenter("chinese_simplified")
    texts = []
    for line in ZH.read_text(encoding="utf-8").splitlines()[:200]:
        doc = json.loads(line)
        texts += [doc["gold"], doc["pred_BERT"], doc["pred_PG"]]
    for text in texts:
        assert ours(text) == peer(text), text
    # a word jieba knows stays whole (北京, 天安门), and spaces come back as pieces of their own
    assert ours("我爱北京天安门 ok") == ["我", "爱", "北京", "天安门", " ", "ok"]


def test_thai_equals_multilingual_rouge():
    peer = _peer_tokenizers().ThaiTokenizer()
    ours = segmenter("th")
    for text in THAI:
        assert ours(text) == peer(text), text
    assert ours("สวัสดีครับ") == ["สวัสดี", "ครับ"]  # hello + the polite particle


def test_japanese_by_hand():
    ours = segmenter("japanese")
    # 東京 (Tokyo) は (topic particle) 晴れ (clear weather) 。
    assert ours("東京は晴れ。") == ["東京", "は", "晴れ", "。"]
    assert ours("私は学生です") == ["私", "は", "学生", "です"]


def test_japanese_finds_unidic_lite_beside_an_empty_unidic(tmp_path):
    """``fugashi[unidic]`` installs ``unidic`` without its dictionary: fugashi's own search then fails."""
    fake = tmp_path / "unidic"
    fake.mkdir()
    (fake / "__init__.py").write_text(f"DICDIR = {str(tmp_path / 'not-downloaded')!r}\nVERSION = 'empty'\n")
    code = (
        "import fugashi\n"
        "try:\n    fugashi.Tagger('-O wakati'); print('default: works')\n"
        "except RuntimeError:\n    print('default: fails')\n"
        "from rougekit.text.segmenters import segmenter\n"
        "print(segmenter('ja')('東京は晴れ'))\n"
    )
    env = subprocess_env()
    env["PYTHONPATH"] = f"{tmp_path}:{env['PYTHONPATH']}"
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines() == ["default: fails", "['東京', 'は', '晴れ']"]


def test_names_and_versions():
    import importlib.metadata as md

    assert segmenter_name("zh") == f"jieba-{md.version('jieba')}"
    assert segmenter_name("ja") == f"fugashi-{md.version('fugashi')}/unidic-lite-{md.version('unidic-lite')}"
    assert segmenter_name("thai") == f"pythainlp-{md.version('pythainlp')}/newmm"
    assert segmenter_name("my") == "burmese-syllables"
    assert segmenter("zh") is segmenter("chinese_traditional")  # made once


def test_no_segmenter_and_unknown_language():
    with pytest.raises(OptionError, match="no word segmenter for 'ru'"):
        segmenter("ru")
    with pytest.raises(OptionError, match="unknown language 'klingon'"):
        segmenter("klingon")


def test_missing_extra_names_the_pip_command(monkeypatch):
    real = segmenters.importlib.import_module

    def without_jieba(name, *args):
        if name.split(".")[0] in ("jieba", "fugashi", "pythainlp"):
            raise ImportError(name)
        return real(name, *args)

    monkeypatch.setattr(segmenters.importlib, "import_module", without_jieba)
    for lang, extra, module in (("zh", "zh", "jieba"), ("ja", "ja", "fugashi"), ("th", "th", "pythainlp")):
        with pytest.raises(OptionError, match=rf"needs {module} .*: pip install rougekit\[{extra}\]$"):
            segmenters._MAKERS[lang]()
