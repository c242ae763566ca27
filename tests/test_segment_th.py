"""rougekit's newmm (_core._segment_th, its pure twin, text.thai_newmm) against pythainlp's word_tokenize."""

from __future__ import annotations

import importlib
import json
import random
from pathlib import Path
from types import SimpleNamespace

import pytest
from _paths import REPO

tokenize = pytest.importorskip("pythainlp.tokenize", reason="pythainlp is not installed (pip install rougekit[th])")
from pythainlp.tokenize import _utils, newmm, tcc_p  # noqa: E402

from rougekit.text.thai_newmm import CLASS, GROUP, GROUP_END, LOOK, NewmmCut, parse_clusters  # noqa: E402

MODULES = ["rougekit._core._segment_th", "rougekit._core._segment_th_pure"]
TITLES = Path(tcc_p.__file__).parents[1] / "corpus" / "wikipedia_titles_th.txt"


def peer(text: str) -> list[str]:
    return tokenize.word_tokenize(text, engine="newmm")


@pytest.fixture(scope="module", params=MODULES)
def tables(request):
    try:
        mod = importlib.import_module(request.param)
    except ImportError:
        pytest.skip(f"{request.param} is not built (python setup.py build_ext --inplace)")
    tables = mod.Tables(list(newmm.word_dict_trie()), parse_clusters(tcc_p._PAT_TCC.pattern), newmm._MAX_GRAPH_SIZE)
    return lambda text: tables.cut(text, _utils.rejoin_formatted_num)


def _texts() -> list[str]:
    written = json.loads((REPO / "tests" / "data" / "multilingual_pairs.json").read_text(encoding="utf-8"))["thai"]
    texts = [t for pair in written for t in pair]
    # Thai Wikipedia titles (pythainlp's corpus, real Thai words), run together as unsegmented text
    titles = [t for t in TITLES.read_text(encoding="utf-8").splitlines() if t and not t.startswith("#")]
    rng = random.Random(14)
    for _ in range(300):
        texts.append(rng.choice(["", " "]).join(rng.choice(titles) for _ in range(rng.randint(1, 12))))
    return texts + ["\n".join(texts[:40]), "เงิน1,234บาท19:32น 127.0.0.1", "ชินโซ อาเบะ เกิด 21 กันยายน\r\n"]


def test_clusters_parsed_by_hand():
    rules = parse_clusters("เ[ก-ฮ]็|c[ะ-ู]?(ab?)?|x(?=[เ-ไ]|$)")
    assert rules == [
        [
            (CLASS, False, ((0x0E40, 0x0E40),), 0),
            (CLASS, False, ((0x0E01, 0x0E2E),), 0),
            (CLASS, False, ((0x0E47,) * 2,), 0),
        ],
        [(CLASS, False, ((99, 99),), 0), (CLASS, True, ((0x0E30, 0x0E39),), 0), (GROUP, True, (), 5)]
        + [(CLASS, False, ((97, 97),), 0), (CLASS, True, ((98, 98),), 0), (GROUP_END, False, (), 0)],
        [(CLASS, False, ((120, 120),), 0), (LOOK, False, ((0x0E40, 0x0E44),), 1)],
    ]
    for unsupported in ("a+", "a*", "(ab)", "[^a]", "a{2}", "\\d"):
        with pytest.raises(ValueError):
            parse_clusters(unsupported)
    assert len(parse_clusters(tcc_p._PAT_TCC.pattern)) == len(tcc_p._RE_TCC)


def test_by_hand(tables):
    # pythainlp's documented examples: words, a kept space, numbers rejoined after the cut
    assert tables("โอเคบ่พวกเรารักภาษาบ้านเกิด") == ["โอเค", "บ่", "พวกเรา", "รัก", "ภาษา", "บ้านเกิด"]
    assert tables("วรรณกรรม ภาพวาด และการแสดงงิ้ว ") == ["วรรณกรรม", " ", "ภาพวาด", " ", "และ", "การแสดง", "งิ้ว", " "]
    assert tables("เงิน1,234บาท") == ["เงิน", "1,234", "บาท"]
    assert tables("") == []


def test_equal_to_pythainlp_on_thai_texts(tables):
    if not TITLES.is_file():
        pytest.skip(f"{TITLES} is not installed with pythainlp")
    texts = _texts()
    assert sum(map(len, texts)) > 20_000
    for text in texts:
        assert tables(text) == peer(text), text


def test_equal_to_pythainlp_on_generated_text(tables):
    hypothesis = pytest.importorskip("hypothesis", reason="hypothesis is not installed")
    st = hypothesis.strategies
    words = sorted(newmm.word_dict_trie())[::301]
    alphabet = st.one_of(
        st.sampled_from(words),  # dictionary words, so that candidate words overlap
        st.characters(min_codepoint=0x0E01, max_codepoint=0x0E5B),  # the Thai block: consonants, vowels, marks, digits
        st.sampled_from(list("เแโใไกขคงจนมรลวสหอะาิีึืุู่้๊๋็์ั")),
        st.sampled_from(list("abcXYZ-0123456789.,:")),
        st.sampled_from(["1,234", "3.5", "19:32", "๑๒.๓", "127.0.0.1"]),
        st.sampled_from([" ", "  ", "\t", "\n", "\r", "\r\n", "\u00a0", "é", "中", "!", "(", "๏"]),
    )

    @hypothesis.settings(max_examples=2500, deadline=None, derandomize=True)
    @hypothesis.given(st.lists(alphabet, max_size=40).map("".join))
    def same(text):
        assert tables(text) == peer(text)

    same()


def test_long_text_cut_in_graph_rounds(tables):
    # a long run without spaces: many rounds of the graph (and its size limit) before each cut
    text = "ประเทศไทยมีประชากรมากกว่าหกสิบล้านคน" * 30
    assert tables(text) == peer(text)


def _fake_tokenize():
    return SimpleNamespace(word_tokenize=tokenize.word_tokenize)


def test_newmm_cut_follows_pythainlp_state(monkeypatch):
    cut = NewmmCut(_fake_tokenize())
    if cut.fallback is not None:
        pytest.skip(cut.fallback)
    text = "ชินโซ อาเบะ เกิด 21 กันยายน"
    assert cut(text) == peer(text) == ["ชิน", "โซ", " ", "อา", "เบะ", " ", "เกิด", " ", "21", " ", "กันยายน"]
    trie = newmm.word_dict_trie()
    trie.add("ชินโซ")  # the default dictionary changed: its words are read again
    try:
        assert cut(text) == peer(text) == ["ชินโซ", " ", "อา", "เบะ", " ", "เกิด", " ", "21", " ", "กันยายน"]
    finally:
        trie.remove("ชินโซ")
    assert cut(text)[0] == "ชิน" and cut.fallback is None
    monkeypatch.setattr(newmm, "_PAT_THAI_TWOCHARS", __import__("re").compile("[ก-ฮ]{,3}$"))
    assert cut(text) == peer(text) and cut.fallback == "pythainlp's newmm patterns are not the ones rougekit reproduces"


def test_the_th_segmenter_is_newmm_cut():
    from rougekit.text.segmenters import segmenter

    cut = segmenter("th")
    assert isinstance(cut, NewmmCut)
    assert cut("สวัสดีครับ ผมชื่อสมชาย") == peer("สวัสดีครับ ผมชื่อสมชาย")
    assert cut.fallback is None  # rougekit's cutter, not pythainlp handed the text back
