"""Language names: ISO 639-1 codes, and the names XL-Sum uses for its 45 languages.

>>> language_code("chinese_simplified"), language_code("BN"), language_code("zh-Hant")
('zh', 'bn', 'zh')
"""

from __future__ import annotations

from rougekit.errors import OptionError

#: XL-Sum's language names (its folder and ``lang`` names) and the ISO 639 code of each; Nigerian
#: Pidgin has no two-letter code (ISO 639-3 ``pcm``)
XLSUM_NAMES = {
    "amharic": "am",
    "arabic": "ar",
    "azerbaijani": "az",
    "bengali": "bn",
    "burmese": "my",
    "chinese_simplified": "zh",
    "chinese_traditional": "zh",
    "english": "en",
    "french": "fr",
    "gujarati": "gu",
    "hausa": "ha",
    "hindi": "hi",
    "igbo": "ig",
    "indonesian": "id",
    "japanese": "ja",
    "kirundi": "rn",
    "korean": "ko",
    "kyrgyz": "ky",
    "marathi": "mr",
    "nepali": "ne",
    "oromo": "om",
    "pashto": "ps",
    "persian": "fa",
    "pidgin": "pcm",
    "portuguese": "pt",
    "punjabi": "pa",
    "russian": "ru",
    "scottish_gaelic": "gd",
    "serbian_cyrillic": "sr",
    "serbian_latin": "sr",
    "sinhala": "si",
    "somali": "so",
    "spanish": "es",
    "swahili": "sw",
    "tamil": "ta",
    "telugu": "te",
    "thai": "th",
    "tigrinya": "ti",
    "turkish": "tr",
    "ukrainian": "uk",
    "urdu": "ur",
    "uzbek": "uz",
    "vietnamese": "vi",
    "welsh": "cy",
    "yoruba": "yo",
}

#: other names multilingual-rouge accepts for the same languages
ALIASES = {"chinese": "zh", "bangla": "bn", "turkce": "tr", "mundo": "es", "serbian": "sr"}

#: every ISO 639-1 code (two letters), for ``lang=`` of any language
ISO_639_1 = frozenset(
    """aa ab ae af ak am an ar as av ay az ba be bg bi bm bn bo br bs ca ce ch co cr cs cu cv cy da de dv dz ee el
    en eo es et eu fa ff fi fj fo fr fy ga gd gl gn gu gv ha he hi ho hr ht hu hy hz ia id ie ig ii ik io is it iu ja
    jv ka kg ki kj kk kl km kn ko kr ks ku kv kw ky la lb lg li ln lo lt lu lv mg mh mi mk ml mn mr ms mt my na nb nd
    ne ng nl nn no nr nv ny oc oj om or os pa pi pl ps pt qu rm rn ro ru rw sa sc sd se sg si sk sl sm sn so sq sr ss
    st su sv sw ta te tg th ti tk tl tn to tr ts tt tw ty ug uk ur uz ve vi vo wa wo xh yi yo za zh zu""".split()
)


def language_code(lang: str) -> str:
    """The code of ``lang``: an ISO 639-1 code (a region or script tag after ``-``/``_`` is dropped), an
    XL-Sum name or one of multilingual-rouge's aliases. OptionError for anything else."""
    if not isinstance(lang, str):
        raise OptionError(f"lang must be a language code or name such as 'zh' or 'chinese_simplified', got {lang!r}")
    key = lang.strip().lower()
    if key in XLSUM_NAMES:
        return XLSUM_NAMES[key]
    if key in ALIASES:
        return ALIASES[key]
    base = key.replace("_", "-").split("-")[0]
    if base in ISO_639_1 or base == "pcm":
        return base
    raise OptionError(
        f"unknown language {lang!r}: give an ISO 639-1 code (zh, ru, el, ...) or an XL-Sum name (chinese_simplified, "
        "bengali, ...)"
    )
