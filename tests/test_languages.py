"""Language presets (lang= / --lang) and the warnings that replace silent zeros (issue 14)."""

from __future__ import annotations

import subprocess
import sys
import warnings

import pytest
from _paths import subprocess_env

import rougekit
from rougekit.errors import EmptyTokensWarning, OptionError, StemmerWarning
from rougekit.signature import Signature
from rougekit.text import presets
from rougekit.text.languages import XLSUM_NAMES

Stemmer = pytest.importorskip("Stemmer", reason="PyStemmer is not installed (extra rougekit[snowball])")

#: one sentence in each language of XL-Sum (written for these tests)
SAMPLES = {
    "am": "ኢትዮጵያ በአፍሪካ ቀንድ የምትገኝ አገር ናት።",
    "ar": "ذهب الطلاب إلى المدرسة في الصباح.",
    "az": "Bakı Azərbaycanın paytaxtıdır.",
    "bn": "বাংলাদেশ দক্ষিণ এশিয়ার একটি দেশ।",
    "my": "မြန်မာနိုင်ငံ၏ မြို့တော်မှာ နေပြည်တော် ဖြစ်သည်။",
    "zh": "我爱北京天安门，天安门上太阳升。",
    "en": "The cats were sitting on the mats.",
    "fr": "Les chats dormaient sur les tapis.",
    "gu": "ગુજરાત ભારતનું એક રાજ્ય છે.",
    "ha": "Kano birni ne a arewacin Najeriya.",
    "hi": "भारत एक विशाल देश है।",
    "ig": "Ọ bụ ụbọchị ọma n'obodo anyị.",
    "id": "Anak-anak bermain di taman kota.",
    "ja": "東京は日本の首都です。",
    "rn": "Uburundi ni igihugu co muri Afrika.",
    "ko": "서울은 한국의 수도입니다.",
    "ky": "Бишкек Кыргызстандын борбору.",
    "mr": "मुंबई ही महाराष्ट्राची राजधानी आहे.",
    "ne": "काठमाडौं नेपालको राजधानी हो।",
    "om": "Finfinneen magaalaa guddoo Itoophiyaati.",
    "ps": "کابل د افغانستان پلازمېنه ده.",
    "fa": "تهران پایتخت ایران است.",
    "pcm": "Di pikin dey go school for morning.",
    "pt": "Os gatos dormiam nos tapetes.",
    "pa": "ਪੰਜਾਬ ਭਾਰਤ ਦਾ ਇੱਕ ਰਾਜ ਹੈ।",
    "ru": "Кошки сидели на коврах.",
    "gd": "Tha Dùn Èideann na phrìomh-bhaile na h-Alba.",
    "sr": "Београд је главни град Србије. Beograd je glavni grad.",
    "si": "කොළඹ ශ්‍රී ලංකාවේ අගනුවරයි.",
    "so": "Muqdisho waa caasimadda Soomaaliya.",
    "es": "Los gatos dormían sobre las alfombras.",
    "sw": "Nairobi ni mji mkuu wa Kenya.",
    "ta": "சென்னை தமிழ்நாட்டின் தலைநகரம்.",
    "te": "హైదరాబాద్ తెలంగాణ రాజధాని.",
    "th": "กรุงเทพมหานครเป็นเมืองหลวงของประเทศไทย",
    "ti": "ኣስመራ ርእሰ ከተማ ኤርትራ እያ።",
    "tr": "Ankara Türkiye'nin başkentidir.",
    "uk": "Київ є столицею України.",
    "ur": "اسلام آباد پاکستان کا دارالحکومت ہے۔",
    "uz": "Toshkent Oʻzbekistonning poytaxti.",
    "vi": "Hà Nội là thủ đô của Việt Nam.",
    "cy": "Caerdydd yw prifddinas Cymru.",
    "yo": "Èkó jẹ́ ìlú ńlá ní Nàìjíríà.",
}


def rp(cand, ref, measure="ROUGE-1", **kw):
    s = rougekit.score([cand], [ref], measures=[measure], bootstrap=None, **kw).per_pair()[0][measure]
    return s["recall"], s["precision"]


def test_every_xlsum_language_has_a_preset_and_a_sample():
    assert len(XLSUM_NAMES) == 45
    codes = {presets.preset(name).code for name in XLSUM_NAMES}
    assert codes == set(SAMPLES)
    assert [p.code for p in presets.table()] == sorted(SAMPLES)
    assert presets.preset("chinese_traditional") == presets.preset("ZH") == presets.preset("zh-Hant")
    assert presets.preset("serbian_latin").code == presets.preset("serbian_cyrillic").code == "sr"


@pytest.mark.parametrize("code", sorted(SAMPLES))
def test_identical_texts_score_one_under_every_preset(code):
    text = SAMPLES[code]
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no warning either: every word was read
        for stem in (False, True):
            if stem and not presets.preset(code).stems:
                continue
            r = rougekit.score([text], [text], measures=["ROUGE-1", "ROUGE-L"], lang=code, stem=stem, bootstrap=None)
            for m in ("ROUGE-1", "ROUGE-L"):
                assert r.per_pair()[0][m]["f"] == 1.0, (code, m, stem)


def test_any_iso_code_gets_unicode_tokens_and_snowball_where_it_exists():
    greek = presets.preset("el")
    assert (greek.tokenizer, greek.segmenter, greek.stemmer) == ("unicode", None, "snowball")
    georgian = presets.preset("ka")
    assert (georgian.tokenizer, georgian.stemmer) == ("unicode", None)
    s = Stemmer.Stemmer("greek")
    # γάτες / γάτα: PyStemmer's Greek stemmer gives both the same stem, so the words match with stem=True
    assert s.stemWord("γάτες") == s.stemWord("γάτα")
    assert rp("Οι γάτες", "η γάτα", lang="el") == (0.0, 0.0)
    assert rp("Οι γάτες", "η γάτα", lang="el", stem=True) == (0.5, 0.5)
    with pytest.raises(OptionError, match="unknown language 'qq'"):
        rougekit.Scorer(lang="qq")


def test_russian_snowball_stems_through_pystemmer():
    s = Stemmer.Stemmer("russian")
    assert s.stemWord("кошками") == s.stemWord("кошки")  # the real library: both кошк
    # кошками сидели / кошки сидят: 1 of 2 without stemming is 0 (forms differ); with it кошк matches
    assert rp("кошками сидели", "кошки сидят", lang="ru") == (0.0, 0.0)
    assert rp("кошками сидели", "кошки сидят", lang="russian", stem=True) == (0.5, 0.5)
    sig = rougekit.score(["а"], ["а"], lang="ru", stem=True, bootstrap=None).signature
    assert sig.stemmer == f"snowball-russian/pystemmer-{presets.snowball._version()}"
    assert sig.lang == "ru" and sig.tokenizer == "unicode" and sig.segmenter == ""


@pytest.mark.parametrize(
    "lang, text",
    [
        ("hi", "भारत एक विशाल देश है। लड़कों ने लड़कियों को किताबें दीं। सरकार ने किसानों के लिए नई योजनाएं बनाईं"),
        ("tr", "Ankara Türkiye'nin başkentidir. Kitaplar masanın üstünde duruyordu, çocuklar okula gidiyorlar."),
    ],
)
def test_hindi_and_turkish_stem_as_xlsum(lang, text):
    """stem=True applies the stemmer of XL-Sum's scorer (multilingual-rouge's classes are the reference)."""
    stemmers = pytest.importorskip("multilingual_rouge.stemmers", reason="multilingual-rouge is not installed")
    from rougekit.text.tokenizers import unicode_tokens

    peer = {"hi": stemmers.HindiStemmer, "tr": stemmers.TurkishStemmer}[lang]()
    expected = [peer(w) if len(w) > 3 else w for w in unicode_tokens(text)]
    scorer = rougekit.Scorer(lang=lang, stem=True, bootstrap=None)
    assert scorer.pre.process(text)[0] == expected
    assert expected != unicode_tokens(text)  # the stemmer changed something
    assert scorer.signature.stemmer == presets.XLSUM_STEMMERS[lang][1]


def test_chinese_preset_segments_words():
    # jieba: 我 爱 北京 天安门 (4 words) / 我 爱 北京 (3): 3 hits
    assert rp("我爱北京天安门", "我爱北京", lang="zh") == (1.0, 0.75)
    # the same pair by characters (tokenizer='cjk'): 4 of 7 / 4 of 4
    assert rp("我爱北京天安门", "我爱北京", tokenizer="cjk") == (1.0, 0.57143)
    # NFKC and case folding: full-width ＡＢＣ is abc, punctuation is dropped
    assert rp("你好，ＡＢＣ！", "你好 abc", lang="chinese_simplified") == (1.0, 1.0)


def test_japanese_thai_burmese_presets():
    # MeCab/unidic-lite: 東京 は 晴れ です / 東京 は 雨 です: 3 of 4
    assert rp("東京は晴れです。", "東京は雨です。", lang="ja") == (0.75, 0.75)
    # newmm: ฉัน รัก แมว / ฉัน รัก หมา (I love cats / dogs): 2 of 3
    assert rp("ฉันรักแมว", "ฉันรักหมา", lang="thai") == (0.66667, 0.66667)
    # syllables မြန် မာ စာ / မြန် မာ: 2 of 3 and 2 of 2; the Burmese comma is not a token
    assert rp("မြန်မာစာ၊", "မြန်မာ", lang="my") == (1.0, 0.66667)


def test_english_preset_is_the_exact_path():
    cands = ["Police killed the gunmen in Paris.", "The cats sat on mats"]
    refs = [["police kill the gunman", "the gunman was shot"], "the cat sat on the mat"]
    kw = dict(measures=["ROUGE-1", "ROUGE-2", "ROUGE-L", "ROUGE-SU4"], stem=True, stopwords=True, bootstrap=None)
    plain = rougekit.score(cands, refs, **kw)
    english = rougekit.score(cands, refs, lang="english", **kw)
    assert english.per_pair()[:] == plain.per_pair()[:]
    assert str(english.signature) == str(plain.signature).replace("|tok:", "|lang:en|tok:", 1)


def test_stopwords_of_other_languages_are_nltks_lists():
    def r1(cand, ref, **kw):
        row = rougekit.score([cand], [ref], measures=["ROUGE-1"], bootstrap=None, **kw).per_pair()[0]["ROUGE-1"]
        return row["recall"], row["precision"]

    # "и" (and) and "на" (on) are in NLTK's Russian list: 2 of 4 candidate tokens match, or 2 of 2
    assert r1("кошка и собака на", "кошка собака", lang="ru") == (1.0, 0.5)
    assert r1("кошка и собака на", "кошка собака", lang="ru", stopwords=True) == (1.0, 1.0)
    # the list is case folded as the tokens are: "Und", "DASS" (NLTK writes "daß") are removed
    assert r1("Hund Und Katze DASS", "hund katze", lang="de", stopwords=True) == (1.0, 1.0)
    # removed before stemming, as -s: "les" is a stopword, "chats" stems to "chat"
    assert r1("les chats", "chat", lang="fr", stopwords=True, stem=True) == (1.0, 1.0)
    sig = rougekit.score(["кошка"], ["кошка"], lang="ru", stopwords=True, bootstrap=None).signature
    assert sig.stopwords and sig.lang == "ru" and Signature.parse(str(sig)) == sig
    assert presets.preset("ru").stopwords == "nltk-russian" and presets.preset("el").stopwords is None


def test_signature_records_what_was_used_and_reads_back():
    import importlib.metadata as md

    for lang, seg in (("zh", f"jieba-{md.version('jieba')}"), ("ja", "fugashi-"), ("my", "burmese-syllables")):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", StemmerWarning)
            sig = rougekit.score(["x"], ["x"], lang=lang, stem=True, bootstrap=None).signature
        assert sig.lang == lang and sig.segmenter.startswith(seg) and sig.stemmer == "none" and not sig.stem
        assert Signature.parse(str(sig)) == sig
        assert f"|lang:{lang}|tok:unicode|fold:2|seg:" in str(sig) and "|stem:none|" in str(sig)
    plain = rougekit.score(["x"], ["x"], bootstrap=None).signature
    assert "lang:" not in str(plain) and "seg:" not in str(plain)


def test_stem_without_a_stemmer_warns_and_signs_none():
    for lang in ("zh", "am"):
        with pytest.warns(
            StemmerWarning, match=rf"stem=True stems nothing for lang='{lang}' \(it has no stemmer\)"
        ) as rec:
            sig = rougekit.score(["a"], ["a"], lang=lang, stem=True, bootstrap=None).signature
        assert len(rec) == 1 and sig.stemmer == "none"


def test_bengali_preset_stems_with_xlsum_rules():
    # করেছেন and করেছে both stem to কর (the rules' "েছেন" and "েছে"), so ROUGE-1 meets only with stem=True
    cand, ref = ["তারা করেছেন"], ["তারা করেছে"]
    plain = rougekit.score(cand, ref, measures=["ROUGE-1"], lang="bn", bootstrap=None)
    stemmed = rougekit.score(cand, ref, measures=["ROUGE-1"], lang="bn", stem=True, bootstrap=None)
    assert plain.to_dict()["ROUGE-1"]["f"] == 0.5 and stemmed.to_dict()["ROUGE-1"]["f"] == 1.0
    assert stemmed.signature.stemmer == "xlsum-bengali" and "|stem:xlsum-bengali|" in str(stemmed.signature)


def test_english_stemmer_on_other_scripts_warns():
    with pytest.warns(StemmerWarning, match=r"English stemmer.*\(2 of 4 summaries have such words\).*lang=") as rec:
        rougekit.score(["кошки сидят", "cats"], ["кошка сидит", "cat"], tokenizer="unicode", stem=True, bootstrap=None)
    assert len(rec) == 1
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        rougekit.score(["cats sat"], ["cat sat"], tokenizer="unicode", stem=True, bootstrap=None)


def test_unreadable_summaries_warn_once_per_call_with_the_count():
    cands = ["我爱北京天安门", "police killed the gunman", "Кошки сидели", "..."]
    refs = [["我爱北京"], ["police kill the gunman"], ["кошки"], ["!!"]]
    with pytest.warns(EmptyTokensWarning) as rec:
        r = rougekit.score(cands, refs, bootstrap=None)
    assert len(rec) == 1
    message = str(rec[0].message)
    assert message.startswith("4 of 8 summaries have words but no tokens under tokenizer 'rouge155'")
    # tokenizer='unicode' is not offered for Han: it keeps a run of Han as one token (it scores near 0 again)
    assert message.endswith("lang= with their language (Han script: one of lang='zh', 'ja')")
    assert rec[0].message.cli.endswith("--lang with their language (Han script: one of --lang zh, ja)")
    assert r.per_pair()[0]["ROUGE-1"]["f"] == 0.0  # still scored as the script scores it: the warning says why
    # a stream of chunks: one warning for the whole call, counting every chunk
    with pytest.warns(EmptyTokensWarning) as rec:
        rougekit.Scorer(bootstrap=None).score_stream(zip(cands, refs), chunk_size=1)
    assert len(rec) == 1 and str(rec[0].message).startswith("4 of 8 summaries")
    # presets and readable texts: no warning; punctuation alone has no words to lose
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        rougekit.score(cands, refs, lang="zh", bootstrap=None)
        rougekit.score(["police", "...", "¿?"], ["police", "!!", "¡!"], bootstrap=None)


def test_an_unreadable_reference_warns_again_when_the_engine_has_it_cached():
    """The engine counts the summaries that come out with no token, cached references too: the
    front end reads the texts only when that count is not 0, so a cache hit must count."""
    scorer = rougekit.Scorer(bootstrap=None)
    for cand in ("police", "gunman"):
        with pytest.warns(EmptyTokensWarning, match=r"^1 of 2 summaries"):
            scorer.score([cand], ["我爱北京天安门"])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        scorer.score(["police"], ["police killed"])


def test_the_engine_counts_summaries_with_no_token():
    from rougekit.engine import batch

    if not batch.AVAILABLE:
        pytest.skip("the compiled engine is not built")
    bs = batch.BatchScorer(
        [rougekit.Measure.rouge_n(1)], stem=False, stopwords=True, word_limit=0, byte_limit=0, mode="A", alpha=0.5
    )
    for cands, refs, empty in (
        (["police killed", "a gunman"], [["the gunman"], ["police"]], 0),
        (["police killed", ""], [["the gunman"], ["police"]], 1),
        (["police killed", "the of and"], [["the gunman"], ["police"]], 1),  # stopwords only
        (["police killed", "gunman"], [["the gunman"], ["天安门"]], 1),
    ):
        for jobs in (1, 2):
            counts: dict = {}
            bs.score_arrays(cands, refs, jobs=jobs, counts=counts)
            assert counts["empty"] == empty, (cands, refs, jobs)
            # the other counts (test_engine_text_flags.py): texts outside ASCII, texts with a '<'
            texts = cands + [r for rs in refs for r in rs]
            assert (counts["non_ascii"] > 0) == any(not t.isascii() for t in texts)
            assert counts["marked"] == 0


def test_a_custom_tokenizer_that_drops_words_warns():
    with pytest.warns(EmptyTokensWarning, match=r"1 of 2 summaries .* tokenizer 'custom:ascii_only'") as rec:

        def ascii_only(sentence):
            return [w for w in sentence.split() if w.isascii()]

        rougekit.score(["Привет"], ["hello"], tokenizer=ascii_only, bootstrap=None)
    assert len(rec) == 1


def test_bad_combinations_are_option_errors():
    with pytest.raises(OptionError, match="give lang= or tokenizer=, not both"):
        rougekit.Scorer(lang="zh", tokenizer="unicode")
    with pytest.raises(OptionError, match="no stopword list for lang='el'; stopwords=True"):
        rougekit.Scorer(lang="el", stopwords=True)
    with pytest.raises(OptionError, match="lang applies to text only"):
        rougekit.score([[1, 2]], [[1, 2]], lang="en", bootstrap=None)


def _cli(*args, block=None):
    code = "import sys\n"
    if block:
        code += f"sys.modules[{block!r}] = None\n"  # the package looks uninstalled: import fails
    code += f"from rougekit.cli.main import main\nsys.exit(main({list(args)!r}))\n"
    return subprocess.run([sys.executable, "-c", code], env=subprocess_env(), capture_output=True, text=True)


@pytest.mark.parametrize(
    "args, block, extra",
    [(("--lang", "zh"), "jieba", "zh"), (("--lang", "ja"), "fugashi", "ja"), (("--lang", "th"), "pythainlp", "th")]
    + [(("--lang", "ru", "--stem"), "Stemmer", "snowball")],
)
def test_missing_extra_is_one_line_naming_pip(tmp_path, args, block, extra):
    (tmp_path / "c.txt").write_text("a\n")
    out = _cli("score", "-c", str(tmp_path / "c.txt"), "-r", str(tmp_path / "c.txt"), *args, block=block)
    assert out.returncode == 2 and out.stdout == ""
    assert out.stderr.count("\n") == 1 and out.stderr.rstrip().endswith(f"pip install rougekit[{extra}]")


def test_cli_lang_and_one_warning_line_for_several_systems(tmp_path):
    (tmp_path / "a.txt").write_text("我爱北京天安门\npolice kill the gunman\n", encoding="utf-8")
    (tmp_path / "b.txt").write_text("我爱上海\nthe gunman\n", encoding="utf-8")
    (tmp_path / "r.txt").write_text("我爱北京\npolice killed the gunman\n", encoding="utf-8")
    files = ["-c", str(tmp_path / "a.txt"), "-c", str(tmp_path / "b.txt"), "-r", str(tmp_path / "r.txt")]
    out = _cli("score", *files, "--format", "json", "--bootstrap", "none")
    assert out.returncode == 0
    lines = out.stderr.splitlines()
    # the first system's warning, naming it (its 2 candidates and the 2 references), then the other one named
    assert len(lines) == 2 and lines[0].startswith("rougekit score: warning: system 'a': 2 of 4 summaries have words")
    assert "--lang zh" in lines[0]
    assert lines[1] == "rougekit score: warning: the same kind of warning (EmptyTokensWarning) for 1 more system: 'b'"
    out = _cli("score", *files, "--lang", "zh", "--format", "json", "--bootstrap", "none")
    assert out.returncode == 0 and out.stderr == ""
    assert '"lang:zh|tok:unicode|fold:2|seg:jieba-' in out.stdout.replace("rougekit|m:ROUGE-1,ROUGE-2,ROUGE-L|", '"')


def test_docs_languages_page_is_current():
    """docs/languages.md holds the table tools/languages_page.py makes from the presets (rerun it after a change)."""
    import importlib.util

    from _paths import REPO

    from rougekit.text import snowball

    spec = importlib.util.spec_from_file_location("languages_page", REPO / "tools" / "languages_page.py")
    page = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(page)
    text = page.PAGE.read_text(encoding="utf-8")
    assert page.page_with_table(text) == text, "run: PYTHONPATH=src python tools/languages_page.py"
    # the prose names every other Snowball language by its English name
    in_table = {p.code for p in presets.table()}
    others = {name for code, name in snowball.SNOWBALL.items() if code not in in_table and code != "nb"}
    paragraph = text.split("Any other ISO 639-1 code", 1)[1].split("\n\n", 1)[0]
    assert {name for name in others if name.capitalize() not in paragraph} == set()


@pytest.mark.parametrize("lang", ["zh", "ja", "th", "my", "hi", "ru", "ar", "el", "ko", "en"])
def test_generated_text_in_many_scripts_never_scores_a_silent_zero(lang):
    """Identity scores 1 under a preset whenever the text has words; the English preset (ROUGE-1.5.5's
    ASCII tokens) may score 0 only with an EmptyTokensWarning."""
    hypothesis = pytest.importorskip("hypothesis", reason="hypothesis is not installed")
    st = hypothesis.strategies
    from rougekit.text.empty import has_words

    scorer = rougekit.Scorer(["ROUGE-1", "ROUGE-L"], lang=lang, bootstrap=None)
    # letters, marks, digits, punctuation and spaces of every script, and runs of a few scripts' letters
    any_script = st.characters(categories=("L", "M", "N", "P", "Zs"))
    scripts = st.sampled_from("aZ9 中文かなカナ한국ไทยမြန်हिंदीбукваعربيαβγ ־።.!、")
    text = st.lists(st.one_of(any_script, scripts), min_size=1, max_size=30).map("".join)

    @hypothesis.settings(max_examples=60, deadline=None, derandomize=True)
    @hypothesis.given(text)
    def identity(x):
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always")
            f = scorer.score([x], [x]).per_pair()[0]
        warned = any(issubclass(w.category, EmptyTokensWarning) for w in seen)
        if f["ROUGE-1"]["f"] != 1.0:
            assert warned or not has_words(x), x
        else:
            assert f["ROUGE-L"]["f"] == 1.0 and not warned
        if lang != "en" and has_words(x):
            assert f["ROUGE-1"]["f"] == 1.0, x

    identity()


@pytest.mark.parametrize(
    "options, cand, ref, script, advice",
    [
        ({"tokenizer": "unicode"}, "東京は今日とても晴れていて気持ちがいいです", "東京は今日とても晴れています", "Han", "one of lang='zh'"),  # noqa: E501
        ({"tokenizer": "cjk"}, "รัฐบาลประกาศมาตรการใหม่วันนี้เพื่อช่วยเหลือ", "รัฐบาลประกาศมาตรการใหม่", "Thai", "lang='th'"),
        ({"lang": "lo"}, "ລັດຖະບານໄດ້ປະກາດມາດຕະການໃໝ່ມື້ນີ້", "ລັດຖະບານໄດ້ປະກາດມາດຕະການໃໝ່", "Lao", "no Lao word segmenter"),
        ({"tokenizer": "unicode"}, "\U00020000\U00020001" * 7, "\U00020002" * 12, "Han", "one of lang='zh'"),  # ext. B
        ({"lang": "km"}, "រដ្ឋាភិបាលបានប្រកាសវិធានការថ្មីនៅថ្ងៃនេះ", "រដ្ឋាភិបាលបានប្រកាសវិធានការថ្មី", "Khmer", "no Khmer"),
    ],
)  # fmt: skip
def test_a_script_without_spaces_left_uncut_warns(options, cand, ref, script, advice):
    # each summary is one token (a run with no space), so the candidate and its own first words share
    # none: 0, which is the script's arithmetic, but must not come silently
    from rougekit.errors import UnsegmentedWordsWarning

    with pytest.warns(UnsegmentedWordsWarning) as rec:
        r = rougekit.score([cand], [ref], bootstrap=None, **options)
    assert r.per_pair()[0]["ROUGE-1"]["f"] == 0.0
    assert len(rec) == 1
    message = str(rec[0].message)
    assert message.startswith(f"2 of 2 summaries have {script} text, written without spaces between words")
    assert advice in message


def test_a_segmenter_or_character_tokens_cut_them_without_a_warning():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ja = rougekit.score(
            ["東京は今日とても晴れていて気持ちがいいです"], ["東京は今日とても晴れています"], lang="ja", bootstrap=None
        )
        cjk = rougekit.score(
            ["北京欢迎你来到这个美丽的城市参观游览"], ["北京欢迎你来到这个城市"], tokenizer="cjk", bootstrap=None
        )
    assert ja.per_pair()[0]["ROUGE-1"]["f"] > 0.5 and cjk.per_pair()[0]["ROUGE-1"]["f"] > 0.5


def test_turkish_dotted_capital_i_matches_its_lowercase():
    """casefold("İ") is "i" + U+0307 (as Python's lower() writes it): read as i, so İki is iki (it was
    another word: ROUGE-1 2/3 for the same sentence). By hand: every token matches, F 1."""
    pairs = [("İki kişi öldü", "iki kişi öldü"), ("İstanbul", "istanbul"), ("i\u0307ş yeri", "iş yeri")]
    for cand, ref in pairs:
        got = rougekit.score([cand], [ref], measures=["ROUGE-1"], lang="tr", bootstrap=None)
        assert got.per_pair()[0]["ROUGE-1"]["f"] == 1.0, (cand, ref)
    # a dot above on another letter is kept (q has no precomposed form with it: fold itself keeps it)
    got = rougekit.score(["q\u0307u"], ["qu"], measures=["ROUGE-1"], lang="tr", bootstrap=None)
    assert got.per_pair()[0]["ROUGE-1"]["f"] == 0.0


def test_turkish_dotted_capital_i_is_highlighted_where_it_is():
    from rougekit.explanation import surface

    text = "İki kişi i\u0307ş"
    assert surface._runs(text, "unicode") == [(0, 3, "iki"), (4, 8, "kişi"), (9, 12, "iş")]


@pytest.mark.parametrize(
    "lang, written, plain",
    [
        ("ar", "كَتَبَ الوَلَدُ", "كتب الولد"),  # harakat
        ("ar", "كتـــب", "كتب"),  # tatweel, a stretch
        ("he", "כְּתוּבִ֑ים", "כְּתוּבִים"),  # a cantillation mark (etnahta)
        ("fa", "می\u200cخواهم", "میخواهم"),  # a zero-width non-joiner inside the word
        ("ar", "١٢٣ كتب", "123 كتب"),  # Arabic-Indic digits
        ("hi", "२०२४ में", "2024 में"),  # Devanagari digits
    ],
)
def test_optional_marks_and_digits_fold_away(lang, written, plain):
    """Vocalised and plain spellings are one word, digits of every script are ASCII digits (they scored 0
    against each other, 0.5 for the digit pairs: one of two tokens). By hand: every token matches, F 1."""
    got = rougekit.score([written], [plain], measures=["ROUGE-1"], lang=lang, bootstrap=None)
    assert got.per_pair()[0]["ROUGE-1"]["f"] == 1.0


def test_marks_that_tell_words_apart_are_kept():
    """Yiddish writes p/f and a/o with Hebrew points (פּאָר 'pair', פֿאַר 'for'), Kashmiri its vowels with
    Arabic marks from U+0654: an over-broad fold merged them (F 1 for two different words); by hand F 0."""
    for lang, a, b in [("yi", "פֿאַר", "פּאָר"), ("ks", "\u0628\u0656\u0631", "\u0628\u0631")]:
        got = rougekit.score([a], [b], measures=["ROUGE-1"], tokenizer="unicode", bootstrap=None)
        assert got.per_pair()[0]["ROUGE-1"]["f"] == 0.0, lang


def test_folded_marks_are_highlighted_on_the_text_as_written():
    from rougekit.explanation import surface

    text = "كَتَبَ ١٢٣ می\u200cخواهم"
    runs = surface._runs(text, "unicode")
    assert [(text[a:b], token) for a, b, token in runs] == [
        ("كَتَبَ", "كتب"),
        ("١٢٣", "123"),
        ("می\u200cخواهم", "میخواهم"),
    ]
