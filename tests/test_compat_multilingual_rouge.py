"""rougekit.compat.multilingual_rouge against multilingual-rouge 0.0.1 (XL-Sum's scorer) from the registry.

Every comparison asserts equal floats (==, not approx). The real package's Snowball path reads NLTK's
stopwords corpus: the tests point NLTK at ../shared/data/nltk_data, or (without the shared folder) at a
corpus written from the stopword lists rougekit ships (see the ``stopword_corpus`` fixture).
"""

from __future__ import annotations

import json
import random
import unicodedata
import warnings
from importlib import resources
from pathlib import Path

import pytest
from _paths import SHARED, shared_missing

from rougekit.compat import multilingual_rouge as K
from rougekit.compat._mlrouge_text import basic_tokens, default_tokens
from rougekit.text import snowball_nltk, stem_bn, stem_hi, stem_tr

mlr = pytest.importorskip("multilingual_rouge.rouge_scorer", reason="multilingual-rouge==0.0.1 (the test extra)")

NLTK_DATA = SHARED / "data" / "nltk_data"
MULTI = SHARED / "data" / "multi-summeval"
PAIRS = json.loads((Path(__file__).parent / "data" / "multilingual_pairs.json").read_text(encoding="utf-8"))
TYPES = ["rouge1", "rouge2", "rouge3", "rougeL", "rougeLsum"]


@pytest.fixture(scope="session")
def stopword_corpus(tmp_path_factory) -> Path:
    """An NLTK data folder for the real package's Snowball path: the shared folder's NLTK stopwords
    corpus when it is there, else (a fresh clone: the corpus is not carried, its licence is not
    stated) ``corpora/stopwords/<language>`` written from the lists rougekit ships, in their order.
    The second runs the package's own stemming and scoring code on the same stopword lists as ours;
    that those lists are NLTK's is checked by the tests marked ``shared``."""
    if NLTK_DATA.is_dir():
        return NLTK_DATA
    root = tmp_path_factory.mktemp("nltk_data")
    folder = root / "corpora" / "stopwords"
    folder.mkdir(parents=True)
    table = resources.files("rougekit.text").joinpath("data", snowball_nltk.STOPWORDS_FILE)
    words: dict[str, list[str]] = {}
    for line in table.read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            language, word = line.split("\t")
            words.setdefault(language, []).append(word)
    assert sorted(words) == sorted(snowball_nltk.LANGUAGES)
    for language, listed in words.items():
        (folder / language).write_text("\n".join(listed) + "\n", encoding="utf-8")
    return root


@pytest.fixture
def nltk_data(monkeypatch, stopword_corpus):
    """NLTK (imported by the real package) reading ``stopword_corpus``."""
    import nltk.data

    monkeypatch.setenv("NLTK_DATA", str(stopword_corpus))
    monkeypatch.setattr(nltk.data, "path", [str(stopword_corpus), *nltk.data.path])


@pytest.fixture
def nltk_stopwords(nltk_data, stopword_corpus):
    """NLTK's own stopwords corpus (the shared folder's), for the tests that compare rougekit's lists with it."""
    if stopword_corpus != NLTK_DATA:
        pytest.skip(shared_missing(NLTK_DATA))


@pytest.fixture
def unidic_lite_for_package(monkeypatch):
    """Make fugashi (called by the real package) find unidic-lite's dictionary, not the empty unidic."""
    pytest.importorskip("fugashi", reason="fugashi (rougekit[ja])")
    lite = pytest.importorskip("unidic_lite", reason="unidic-lite (rougekit[ja])")
    try:
        import unidic
    except ImportError:
        return
    monkeypatch.setattr(unidic, "DICDIR", lite.DICDIR)


def _both(types, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return mlr.RougeScorer(types, **kw), K.RougeScorer(types, **kw)


def _assert_same(theirs, ours, pairs):
    for target, prediction in pairs:
        expected = theirs.score(target, prediction)
        got = ours.score(target, prediction)
        assert list(got) == list(expected)
        for name in expected:
            assert tuple(got[name]) == tuple(expected[name]), (name, target, prediction)


def _multi_summeval(code):
    path = MULTI / f"{code}.jsonl"
    if not path.is_file():
        pytest.skip(shared_missing(path))
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    return [(r["gold"], r[k]) for r in rows for k in ("pred_BERT", "pred_PG")]


# ---------------------------------------------------------------- tokens


def test_cleaning_and_default_tokens_equal_the_package_on_random_unicode():
    pyonmttok = pytest.importorskip("pyonmttok", reason="pyonmttok (a dependency of multilingual-rouge)")
    from multilingual_rouge.tokenizers import BasicTokenizer, whitespace_tokenize

    basic, onmt = BasicTokenizer(), pyonmttok.Tokenizer("aggressive")
    rng = random.Random(14)
    pool = [chr(c) for c in range(0x20, 0x30000) if not 0xD800 <= c < 0xE000]
    pool += list(" \n\t\x00\ufffd\u200b\u0301\u093f\u2581\uffed\uffe8") + [" "] * 3000
    for _ in range(3000):
        text = "".join(rng.choice(pool) for _ in range(rng.randint(0, 40)))
        words = basic(text)
        assert basic_tokens(text) == words, repr(text)
        cleaned = " ".join(words)
        if cleaned:
            expected = whitespace_tokenize(basic.tokenize_chinese_chars(" ".join(onmt.tokenize(cleaned)[0])))
            assert default_tokens(cleaned) == expected, repr(cleaned)


def test_cleaning_of_printable_text_equals_the_package():
    # mostly printable text (the fast path: punctuation to spaces, then split), and U+FFFD, which is
    # printable but dropped by the package (it joins its neighbours)
    from multilingual_rouge.tokenizers import BasicTokenizer

    basic = BasicTokenizer()
    assert basic_tokens("ab\ufffdc d") == basic("ab\ufffdc d") == ["abc", "d"]
    rng = random.Random(15)
    printable = [chr(c) for c in range(0x20, 0x30000) if chr(c).isprintable() and not 0xD800 <= c < 0xE000]
    punct = [chr(c) for c in range(0x20, 0x3100) if unicodedata.category(chr(c))[0] in "PSZ"]
    pool = printable + punct * 20 + list("\ufffd\t\n\xa0\u3000") * 50 + ["ก", "ไ", "中", "a", "1"] * 2000
    for _ in range(3000):
        text = "".join(rng.choice(pool) for _ in range(rng.randint(0, 40)))
        assert basic_tokens(text) == basic(text), repr(text)


def test_default_tokens_by_hand():
    # letters and digits split apart, symbols alone, a CJK run split per character, marks kept on letters
    assert default_tokens("abc123def x²y €5 中文ab नमस्ते") == [
        "abc", "123", "def", "x", "²", "y", "€", "5", "中", "文", "ab", "नमस्ते",
    ]  # fmt: skip
    assert basic_tokens("Hello, wor\x00ld!  «quote»") == ["Hello", "world", "quote"]


# ---------------------------------------------------------------- stemmers


def test_hindi_stemmer_equals_the_package():
    from multilingual_rouge.stemmers import HindiStemmer

    theirs = HindiStemmer()
    suffixes = [s for group in stem_hi.SUFFIXES.values() for s in group]
    rng = random.Random(3)
    letters = [chr(c) for c in range(0x0905, 0x0939)] + ["ा", "ि", "ी", "ु", "ू", "े", "ो", "ं", "ँ"]
    words = {w for pair in PAIRS["hindi"] for text in pair for w in basic_tokens(text)}
    for _ in range(5000):
        words.add("".join(rng.choice(letters) for _ in range(rng.randint(0, 4))) + rng.choice(suffixes + [""]))
    for word in sorted(words):
        assert stem_hi.stemmer(word) == theirs(word), word
    assert stem_hi.stemmer("लड़कियों") == "लड़क"  # -ियों (4) off, as Ramanathan & Rao's table says


def test_turkish_stemmer_equals_turkishstemmer():
    from TurkishStemmer import TurkishStemmer

    theirs = TurkishStemmer()
    words = {w for text in _texts_or_empty("TR") for w in basic_tokens(text.lower())}
    rng = random.Random(5)
    machines = (stem_tr.NOUN, stem_tr.NOMINAL_VERB)
    endings = sorted({e for m in machines for st in m.values() for s, _ in st.moves for e in s.endings})
    endings += ["lı", "lü", "y", "s", "n"]
    roots = "ev kitap göz okul araba çocuk ağaç bilgi ad ara bilet kedi şehir renk".split()
    for _ in range(5000):
        words.add(rng.choice(roots) + "".join(rng.choice(endings) for _ in range(rng.randint(0, 4))))
    for word in sorted(words):
        assert stem_tr.stemmer(word) == theirs.stem(word), word
    assert stem_tr.stemmer("kitaplarımızdan") == "kitap"


def _texts_or_empty(code):
    path = MULTI / f"{code}.jsonl"
    if not path.is_file():
        return []
    rows = map(json.loads, path.read_text(encoding="utf-8").splitlines())
    return [r[k] for r in rows for k in ("gold", "pred_BERT", "pred_PG")]


@pytest.mark.shared  # NLTK's stopwords corpus (no licence stated): not in tests/data
@pytest.mark.parametrize("language", snowball_nltk.LANGUAGES)
def test_snowball_with_shipped_stopwords_equals_nltk(language, nltk_stopwords):
    from nltk.corpus import stopwords
    from nltk.stem.snowball import SnowballStemmer

    assert snowball_nltk.load_stopwords(language) == frozenset(stopwords.words(language))
    theirs = SnowballStemmer(language, ignore_stopwords=True)
    ours = snowball_nltk.stemmer(language)
    words = set(stopwords.words(language))
    code = {"russian": "RU", "french": "FR", "spanish": "ES", "german": "DE", "english": "EN"}.get(language)
    words.update(w for text in (_texts_or_empty(code) if code else []) for w in basic_tokens(text.lower()))
    for word in sorted(words):
        assert ours(word) == theirs.stem(word), word


@pytest.mark.shared  # NLTK's stopwords corpus (no licence stated): not in tests/data
def test_shipped_stopword_file_is_what_the_tool_writes(nltk_stopwords):
    import subprocess
    import sys

    tool = Path(__file__).resolve().parents[1] / "tools" / "gen_nltk_stopwords.py"
    done = subprocess.run([sys.executable, str(tool), "--check"], capture_output=True, text=True, env=_env())
    assert done.returncode == 0, done.stderr


def _env():
    from _paths import subprocess_env

    return subprocess_env(NLTK_DATA=str(NLTK_DATA))


# ---------------------------------------------------------------- scores


@pytest.mark.parametrize(
    "code,lang,stem",
    [
        ("RU", "russian", True), ("FR", "french", True), ("ES", "spanish", True), ("ES", "mundo", True),
        ("DE", "german", True), ("EN", "english", True), ("EN", None, True), ("TR", "turkish", True),
        ("TR", "turkce", False), ("ID", None, False), ("RU", "ru", False), ("ZH", None, True),
    ],
)  # fmt: skip
@pytest.mark.shared  # Multi-SummEval is research-only data: not in tests/data
def test_multi_summeval_scores_equal_the_package(code, lang, stem, nltk_data):
    pairs = _multi_summeval(code)
    theirs, ours = _both(TYPES, use_stemmer=stem, lang=lang)
    _assert_same(theirs, ours, pairs)


def test_chinese_with_jieba_equals_the_package():
    pytest.importorskip("jieba", reason="jieba (rougekit[zh])")
    for lang in ("chinese", "chinese_simplified"):
        theirs, ours = _both(TYPES, lang=lang)
        _assert_same(theirs, ours, PAIRS["chinese"])


@pytest.mark.shared  # Multi-SummEval is research-only data: not in tests/data
def test_chinese_with_jieba_equals_the_package_on_multi_summeval():
    pytest.importorskip("jieba", reason="jieba (rougekit[zh])")
    pairs = _multi_summeval("ZH")[:80]
    for lang in ("chinese", "chinese_simplified"):
        theirs, ours = _both(TYPES, lang=lang)
        _assert_same(theirs, ours, pairs)


def test_chinese_spaces_are_tokens():
    pytest.importorskip("jieba", reason="jieba (rougekit[zh])")
    scorer = K.RougeScorer(["rouge1"], lang="chinese")
    assert " " in scorer.tokenize("北京, 上海")  # the cleaning leaves "北京 上海"; jieba keeps the space


def test_thai_with_pythainlp_equals_the_package():
    pytest.importorskip("pythainlp", reason="pythainlp (rougekit[th])")
    theirs, ours = _both(TYPES, lang="thai", use_stemmer=True)
    _assert_same(theirs, ours, PAIRS["thai"])


def test_japanese_with_fugashi_equals_the_package(unidic_lite_for_package):
    theirs, ours = _both(TYPES, lang="japanese")
    _assert_same(theirs, ours, PAIRS["japanese"])


@pytest.mark.parametrize(
    "lang,stem", [("hindi", True), ("hindi", False), ("arabic", True), ("bengali", False), ("burmese", False)]
)
def test_written_pairs_equal_the_package(lang, stem, nltk_data):
    theirs, ours = _both(TYPES, lang=lang, use_stemmer=stem)
    _assert_same(theirs, ours, PAIRS[lang])


def test_random_texts_equal_the_package(nltk_data):
    rng = random.Random(7)
    vocab = [w for pairs in PAIRS.values() if isinstance(pairs, list) for p in pairs for t in p for w in t.split()]
    vocab += ["A", "b2", "x-y", "3.5", "€", "\u0301", "中", "\n", "..."]
    pairs = []
    for _ in range(300):
        make = lambda: " ".join(rng.choice(vocab) for _ in range(rng.randint(0, 12)))  # noqa: E731
        pairs.append((make(), make()))
    stemmed = {"use_stemmer": True}
    for kw in ({}, stemmed, *({"lang": lang, **stemmed} for lang in ("hindi", "russian", "turkish", "arabic"))):
        theirs, ours = _both(TYPES, **kw)
        _assert_same(theirs, ours, pairs)


def test_bengali_stemming_equals_the_package_given_its_rules_file(monkeypatch):
    """The package's wheel lacks the stemmer's rules file (FileNotFoundError); supplied with the
    file rougekit ships, the package's own stemmer gives the very scores rougekit gives."""
    import io

    import multilingual_rouge.bengali_stemmer as package_stemmer

    with pytest.raises(FileNotFoundError):
        mlr.RougeScorer(["rouge1"], use_stemmer=True, lang="bengali")
    rules = stem_bn.RULES_FILE
    text = (Path(stem_bn.__file__).parent / "data" / rules).read_text(encoding="utf-8")
    original = package_stemmer.RafiStemmer
    monkeypatch.setattr(package_stemmer, "RafiStemmer", lambda: original(io.StringIO(text)))
    rng = random.Random(5)
    words = [w for pair in PAIRS["bengali"] for t in pair for w in t.split()]
    pairs = [tuple(" ".join(rng.choice(words) for _ in range(rng.randint(1, 15))) for _ in "tp") for _ in range(200)]
    theirs, ours = _both(TYPES, lang="bengali", use_stemmer=True)
    _assert_same(theirs, ours, [*PAIRS["bengali"], *pairs])
    assert ours.score("তারা করেছেন", "তারা করেছে")["rouge1"].fmeasure == 1.0  # stems that meet: কর


def test_unknown_language_warns_and_does_not_stem():
    with pytest.warns(UserWarning, match="unknown stemmer language-> klingon"):
        scorer = K.RougeScorer(["rouge1"], use_stemmer=True, lang="klingon")
    assert scorer.tokenize("Running dogs") == ["running", "dogs"]


def test_invalid_rouge_type_raises_like_the_package():
    theirs, ours = _both(["rougeX"])
    for scorer in (theirs, ours):
        with pytest.raises(ValueError, match="Invalid rouge type: rougeX"):
            scorer.score("a", "a")
    # the first invalid type in order raises, after valid ones: the package's error and message
    for types in (["rouge1", "rougeL", "rouge0", "rougeX"], ["rougeLsum", "rougeW", "rouge0"], ["rouge10"]):
        theirs, ours = _both(types)
        errors = []
        for scorer in (theirs, ours):
            with pytest.raises(ValueError) as info:
                scorer.score("a b", "a b")
            errors.append(str(info.value))
        assert errors[0] == errors[1], types


# ---------------------------------------------------------------- the corrected rougeLsum


def test_segmented_lsum_is_the_packages_rougel_on_one_line():
    pytest.importorskip("jieba", reason="jieba (rougekit[zh])")
    theirs = mlr.RougeScorer(["rougeL", "rougeLsum"], lang="chinese")
    ours = K.RougeScorer(["rougeLsum"], lang="chinese", lsum="segmented")
    for target, prediction in PAIRS["chinese"][1:]:  # one line each: summary-level LCS is the LCS
        assert tuple(ours.score(target, prediction)["rougeLsum"]) == tuple(theirs.score(target, prediction)["rougeL"])
    # the package's own rougeLsum on Chinese: a line is one token per run between punctuation marks
    assert theirs.score("北京下雪", "北京下雨")["rougeLsum"].fmeasure == 0.0


def test_lsum_split_on_sentence_ends_by_hand():
    scorer = K.RougeScorer(["rougeLsum"], lsum_split="punctuation")
    # target sentences "a b." / "c d!"; prediction "c d. a b": union LCS hits a b c d (4 of 4)
    score = scorer.score("a b. c d!", "c d. a b")
    assert (score["rougeLsum"].precision, score["rougeLsum"].recall) == (1.0, 1.0)
    # as one sentence each (the package): LCS of "a b c d" and "c d a b" is 2
    plain = K.RougeScorer(["rougeLsum"]).score("a b. c d!", "c d. a b")["rougeLsum"]
    assert (plain.precision, plain.recall) == (0.5, 0.5)
    with pytest.raises(ValueError, match="lsum_split"):
        K.RougeScorer(["rougeLsum"], lsum_split="spaces")


# ---------------------------------------------------------------- the correlation table of docs/multilingual.md


@pytest.mark.shared  # Multi-SummEval is research-only data: not in tests/data
def test_correlation_table_rows_are_what_the_tool_computes(nltk_data):
    """Re-run tools/multilingual_correlations.py for Chinese (a segmenter) and Turkish (a stemmer of its own, and
    the dotted capital I) with rougekit score + correlate, and compare their rows."""
    import subprocess
    import sys

    if not MULTI.is_dir():
        pytest.skip(shared_missing(MULTI))
    tool = Path(__file__).resolve().parents[1] / "tools" / "multilingual_correlations.py"
    done = subprocess.run(
        [sys.executable, str(tool), "--check", "--languages", "ZH,TR"], capture_output=True, text=True, env=_env()
    )
    assert done.returncode == 0, done.stderr


def test_rouge_types_changed_after_construction_and_the_vocabulary_bound(monkeypatch):
    # the cache by text holds rougeLsum's sentences only when the scorer was made with rougeLsum
    target, prediction = "the cat sat\non the mat", "the cat\nlay on a mat"
    theirs, _ = _both(["rouge1", "rougeLsum"])
    expected = theirs.score(target, prediction)  # the package's numbers
    scorer = K.RougeScorer(["rouge1"])
    assert scorer.score(target, prediction) == {"rouge1": expected["rouge1"]}
    scorer.rouge_types = ["rouge1", "rougeLsum"]
    assert scorer.score(target, prediction) == expected
    # past the vocabulary bound the scorer numbers tokens afresh: the same scores
    monkeypatch.setattr(K, "_VOCAB_LIMIT", 3)
    scorer = K.RougeScorer(["rouge1", "rougeLsum"])
    for _ in range(3):
        assert scorer.score(target, prediction) == expected
        assert scorer.score("a b c d e f", "f e d c b a")["rouge1"].fmeasure == 1.0
    assert len(scorer._vocab) <= 3 + 6
