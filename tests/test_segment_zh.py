"""rougekit's jieba cut (_core._segment_zh, its pure twin, text.jieba_cut) against jieba.cut itself."""

from __future__ import annotations

import importlib
import json
import logging
from types import SimpleNamespace

import pytest
from _paths import REPO, SHARED, shared_missing

jieba = pytest.importorskip("jieba", reason="jieba is not installed (pip install rougekit[zh])")
logging.getLogger("jieba").setLevel(logging.WARNING)
jieba.initialize()

from rougekit.text.jieba_cut import JiebaCut  # noqa: E402

ZH = SHARED / "data" / "multi-summeval" / "ZH.jsonl"
MODULES = ["rougekit._core._segment_zh", "rougekit._core._segment_zh_pure"]


def _tables(module: str, dt=None):
    try:
        mod = importlib.import_module(module)
    except ImportError:
        pytest.skip(f"{module} is not built (python setup.py build_ext --inplace)")
    dt = dt or jieba.dt
    hmm = jieba.finalseg
    return mod.Tables(dt.FREQ, dt.total, hmm.start_P, hmm.trans_P, hmm.emit_P, hmm.MIN_FLOAT)


@pytest.fixture(scope="module", params=MODULES)
def tables(request):
    return _tables(request.param)


def _texts() -> list[str]:
    if not ZH.is_file():
        pytest.skip(shared_missing(ZH))
    rows = [json.loads(line) for line in ZH.open(encoding="utf-8")]
    texts = [r[k] for r in rows for k in ("gold", "pred_BERT", "pred_PG")]
    written = json.loads((REPO / "tests" / "data" / "multilingual_pairs.json").read_text(encoding="utf-8"))
    texts += [t for pair in written["chinese"] for t in pair]
    return texts + ["\n".join(texts), " ".join(texts), "\r\n".join(texts)]  # long runs too


def test_by_hand(tables):
    # 信用卡 and 管家 are dictionary words; digits and Latin letters stay together; "\r\n" is one piece
    assert tables.cut("51信用卡管家") == ["51", "信用卡", "管家"]
    assert tables.cut("ab  c\r\n。") == ["ab", " ", " ", "c", "\r\n", "。"]
    assert tables.cut("") == []
    # U+9FD6 and an extension-B character lie outside jieba's runs: one piece each
    assert tables.cut("\u9fd6\U00020000中国") == ["\u9fd6", "\U00020000", "中国"]


@pytest.mark.shared  # Multi-SummEval is research-only data: not in tests/data
def test_equal_to_jieba_on_real_texts(tables):
    texts = _texts()
    assert sum(map(len, texts)) > 10_000
    for text in texts:
        assert tables.cut(text) == list(jieba.cut(text)), text


def test_hmm_and_numbers_in_unknown_runs(tables):
    # single characters that are no word go through the HMM; numbers like 3.5% stay one piece there
    for text in ["乂乃乄乆乇乊乑乕", "丕丟3.5%乂乃a1.b丟", "龘龘龘龘", "%.5a%b..7%"]:
        assert tables.cut(text) == list(jieba.cut(text)), text


def test_equal_to_jieba_on_generated_text(tables):
    hypothesis = pytest.importorskip("hypothesis", reason="hypothesis is not installed")
    st = hypothesis.strategies
    words = [w for w, f in list(jieba.dt.FREQ.items())[::997] if f and len(w) > 1][:300]
    alphabet = st.one_of(
        st.sampled_from(words),  # dictionary words, so routes meet and tie
        st.characters(min_codepoint=0x4E00, max_codepoint=0x9FFF),  # Han, also past U+9FD5
        st.sampled_from(list("的了是在我有他这中大来上国个到说们为子和你地出道也时年")),
        st.sampled_from(list("abcXYZ0123456789+#&._%-")),
        st.sampled_from(list(",.!?;:，。！？；：、“”（）《》…—·")),
        st.sampled_from(list("ＡＢＣ１２３ａｂ＋％")),  # full-width forms
        st.sampled_from([" ", "\n", "\r", "\r\n", "\t", "\u3000", "\xa0"]),
        st.characters(min_codepoint=0x3400, max_codepoint=0x4DBF),  # extension A
        st.characters(min_codepoint=0x20000, max_codepoint=0x2A6DF),  # extension B
    )

    @hypothesis.settings(max_examples=3000, deadline=None, derandomize=True)
    @hypothesis.given(st.lists(alphabet, max_size=40).map("".join))
    def same(text):
        assert tables.cut(text) == list(jieba.cut(text))

    same()


def _fake_jieba(dt, **changes):
    """A stand-in for the jieba module around tokenizer ``dt`` (so that tests do not change jieba's own)."""
    names = ("finalseg", "Tokenizer", "re_han_default", "re_skip_default")
    module = SimpleNamespace(dt=dt, cut=dt.cut, lcut=dt.lcut, **{n: getattr(jieba, n) for n in names})
    for name, value in changes.items():
        setattr(module, name, value)
    return module


@pytest.fixture(scope="module")
def own_tokenizer():
    dt = jieba.Tokenizer()
    dt.initialize()
    return dt


def test_jieba_cut_reads_the_dictionary_again_after_add_word(own_tokenizer):
    fake = _fake_jieba(own_tokenizer)
    cut = JiebaCut(fake)
    text = "阿里巴巴股份剥离雅虎宣布"
    assert cut.fallback is None and cut(text) == own_tokenizer.lcut(text)
    own_tokenizer.add_word("股份剥离雅", 10**6)  # the total changes: the tables are read again
    assert own_tokenizer.lcut(text) == ["阿里巴巴", "股份剥离雅", "虎", "宣布"]
    assert cut(text) == own_tokenizer.lcut(text) and cut.fallback is None


def test_jieba_cut_falls_back_to_jieba(own_tokenizer, monkeypatch):
    fake = _fake_jieba(own_tokenizer)
    cut = JiebaCut(fake)
    calls = []
    fake.cut = lambda text: calls.append(text) or own_tokenizer.cut(text)  # e.g. enable_parallel
    assert cut("雅虎宣布") == ["雅虎", "宣布"] and calls == ["雅虎宣布"]
    assert cut.fallback == "jieba.cut is replaced"
    fake.cut = own_tokenizer.cut
    assert cut("雅虎宣布") == ["雅虎", "宣布"] and calls == ["雅虎宣布"] and cut.fallback is None
    monkeypatch.setattr(jieba.finalseg, "Force_Split_Words", {"雅虎"})  # what del_word does
    assert cut("雅虎宣布") == own_tokenizer.lcut("雅虎宣布") and cut.fallback.startswith("words are forced apart")
    monkeypatch.undo()
    fake.dt.FREQ["雅虎宣"] = 1e9  # not an int: jieba's log takes it, rougekit does not read it
    try:
        assert cut("雅虎宣布") == own_tokenizer.lcut("雅虎宣布") == ["雅虎宣", "布"]
        assert cut.fallback.startswith("jieba's tables are not as rougekit reads them")
    finally:
        del fake.dt.FREQ["雅虎宣"]
    assert cut("雅虎宣布") == ["雅虎", "宣布"] and cut.fallback is None


def test_the_zh_segmenter_is_jieba_cut():
    from rougekit.text.segmenters import segmenter

    cut = segmenter("zh")
    assert isinstance(cut, JiebaCut) and cut.fallback is None
    assert cut("雅虎拟剥离阿里巴巴15%股权") == list(jieba.cut("雅虎拟剥离阿里巴巴15%股权"))
