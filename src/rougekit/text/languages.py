"""Language names: ISO 639-1 codes, English names, and the names XL-Sum uses for its 45 languages.

``lang=`` (``--lang``) takes any of them, case ignored, with ``_``, ``-`` and spaces alike inside a
name: an ISO 639-1 code (``de``; a region or script tag after ``-``/``_`` is dropped, ``pt-BR``),
the language's English name as ISO 639 gives it (``German``, ``Scottish Gaelic``, ``Norwegian
Bokmål`` or ``norwegian_bokmal``), a common other English name (``Farsi``, ``Greek``, ``Flemish``),
an XL-Sum name (``chinese_simplified``, ``serbian_latin``) or one of multilingual-rouge's aliases
(``bangla``, ``turkce``). Anything else is an OptionError that lists the choices.

>>> language_code("chinese_simplified"), language_code("Serbian Latin"), language_code("BN"), language_code("zh-Hant")
('zh', 'sr', 'bn', 'zh')
>>> language_code("German"), language_code("scottish gaelic"), language_code("Norwegian_Bokmål")
('de', 'gd', 'nb')
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

#: the English name of every ISO 639-1 code (ISO 639-2's first English name, shortened where it
#: lists several, e.g. "Spanish; Castilian" is "Spanish")
ENGLISH_NAMES = {
    "aa": "Afar", "ab": "Abkhazian", "ae": "Avestan", "af": "Afrikaans", "ak": "Akan", "am": "Amharic",
    "an": "Aragonese", "ar": "Arabic", "as": "Assamese", "av": "Avaric", "ay": "Aymara", "az": "Azerbaijani",
    "ba": "Bashkir", "be": "Belarusian", "bg": "Bulgarian", "bi": "Bislama", "bm": "Bambara", "bn": "Bengali",
    "bo": "Tibetan", "br": "Breton", "bs": "Bosnian", "ca": "Catalan", "ce": "Chechen", "ch": "Chamorro",
    "co": "Corsican", "cr": "Cree", "cs": "Czech", "cu": "Church Slavic", "cv": "Chuvash", "cy": "Welsh",
    "da": "Danish", "de": "German", "dv": "Divehi", "dz": "Dzongkha", "ee": "Ewe", "el": "Modern Greek",
    "en": "English", "eo": "Esperanto", "es": "Spanish", "et": "Estonian", "eu": "Basque", "fa": "Persian",
    "ff": "Fulah", "fi": "Finnish", "fj": "Fijian", "fo": "Faroese", "fr": "French", "fy": "Western Frisian",
    "ga": "Irish", "gd": "Scottish Gaelic", "gl": "Galician", "gn": "Guarani", "gu": "Gujarati", "gv": "Manx",
    "ha": "Hausa", "he": "Hebrew", "hi": "Hindi", "ho": "Hiri Motu", "hr": "Croatian", "ht": "Haitian",
    "hu": "Hungarian", "hy": "Armenian", "hz": "Herero", "ia": "Interlingua", "id": "Indonesian",
    "ie": "Interlingue", "ig": "Igbo", "ii": "Sichuan Yi", "ik": "Inupiaq", "io": "Ido", "is": "Icelandic",
    "it": "Italian", "iu": "Inuktitut", "ja": "Japanese", "jv": "Javanese", "ka": "Georgian", "kg": "Kongo",
    "ki": "Kikuyu", "kj": "Kuanyama", "kk": "Kazakh", "kl": "Kalaallisut", "km": "Central Khmer",
    "kn": "Kannada", "ko": "Korean", "kr": "Kanuri", "ks": "Kashmiri", "ku": "Kurdish", "kv": "Komi",
    "kw": "Cornish", "ky": "Kirghiz", "la": "Latin", "lb": "Luxembourgish", "lg": "Ganda", "li": "Limburgan",
    "ln": "Lingala", "lo": "Lao", "lt": "Lithuanian", "lu": "Luba-Katanga", "lv": "Latvian", "mg": "Malagasy",
    "mh": "Marshallese", "mi": "Maori", "mk": "Macedonian", "ml": "Malayalam", "mn": "Mongolian",
    "mr": "Marathi", "ms": "Malay", "mt": "Maltese", "my": "Burmese", "na": "Nauru", "nb": "Norwegian Bokmål",
    "nd": "North Ndebele", "ne": "Nepali", "ng": "Ndonga", "nl": "Dutch", "nn": "Norwegian Nynorsk",
    "no": "Norwegian", "nr": "South Ndebele", "nv": "Navajo", "ny": "Chichewa", "oc": "Occitan",
    "oj": "Ojibwa", "om": "Oromo", "or": "Oriya", "os": "Ossetian", "pa": "Punjabi", "pi": "Pali",
    "pl": "Polish", "ps": "Pashto", "pt": "Portuguese", "qu": "Quechua", "rm": "Romansh", "rn": "Rundi",
    "ro": "Romanian", "ru": "Russian", "rw": "Kinyarwanda", "sa": "Sanskrit", "sc": "Sardinian",
    "sd": "Sindhi", "se": "Northern Sami", "sg": "Sango", "si": "Sinhala", "sk": "Slovak", "sl": "Slovenian",
    "sm": "Samoan", "sn": "Shona", "so": "Somali", "sq": "Albanian", "sr": "Serbian", "ss": "Swati",
    "st": "Southern Sotho", "su": "Sundanese", "sv": "Swedish", "sw": "Swahili", "ta": "Tamil", "te": "Telugu",
    "tg": "Tajik", "th": "Thai", "ti": "Tigrinya", "tk": "Turkmen", "tl": "Tagalog", "tn": "Tswana",
    "to": "Tonga", "tr": "Turkish", "ts": "Tsonga", "tt": "Tatar", "tw": "Twi", "ty": "Tahitian",
    "ug": "Uighur", "uk": "Ukrainian", "ur": "Urdu", "uz": "Uzbek", "ve": "Venda", "vi": "Vietnamese",
    "vo": "Volapük", "wa": "Walloon", "wo": "Wolof", "xh": "Xhosa", "yi": "Yiddish", "yo": "Yoruba",
    "za": "Zhuang", "zh": "Chinese", "zu": "Zulu",
}  # fmt: skip

#: every ISO 639-1 code (two letters), for ``lang=`` of any language
ISO_639_1 = frozenset(ENGLISH_NAMES)

#: other English names in common use (ISO 639-2's alternatives, and names NLTK and Snowball use)
OTHER_NAMES = {
    "greek": "el", "farsi": "fa", "castilian": "es", "flemish": "nl", "gaelic": "gd", "kyrgyz": "ky",
    "khmer": "km", "uyghur": "ug", "filipino": "tl", "pilipino": "tl", "moldavian": "ro", "moldovan": "ro",
    "panjabi": "pa", "pushto": "ps", "sinhalese": "si", "slovene": "sl", "valencian": "ca", "dhivehi": "dv",
    "maldivian": "dv", "haitian creole": "ht", "kirundi": "rn", "nyanja": "ny", "chewa": "ny",
    "letzeburgesch": "lb", "limburgish": "li", "bokmal": "nb", "norwegian bokmal": "nb", "nynorsk": "nn",
    "volapuk": "vo", "nigerian pidgin": "pcm", "frisian": "fy", "sotho": "st", "swazi": "ss",
    # the languages' own names, for those Snowball stems (so that "Deutsch" is not taken for Dutch)
    "deutsch": "de", "francais": "fr", "français": "fr", "espanol": "es", "español": "es", "italiano": "it",
    "portugues": "pt", "português": "pt", "nederlands": "nl", "svenska": "sv", "dansk": "da", "norsk": "no",
    "suomi": "fi", "magyar": "hu", "romana": "ro", "română": "ro", "catala": "ca", "català": "ca",
    "euskara": "eu", "gaeilge": "ga", "lietuviu": "lt", "lietuvių": "lt", "turkce": "tr", "türkçe": "tr",
    "ελληνικά": "el", "русский": "ru", "українська": "uk", "српски": "sr", "հայերեն": "hy", "עברית": "he",
    "العربية": "ar", "हिन्दी": "hi", "नेपाली": "ne", "தமிழ்": "ta", "বাংলা": "bn", "bahasa indonesia": "id",
}  # fmt: skip


def _normal(name: str) -> str:
    """A name with case, ``_``, ``-`` and runs of white space made alike (``Scottish_Gaelic`` ->
    ``scottish gaelic``)."""
    return " ".join(name.replace("_", " ").replace("-", " ").split()).lower()


_BY_NAME = {_normal(name): code for code, name in ENGLISH_NAMES.items()}
_XLSUM_BY_NAME = {_normal(name): code for name, code in XLSUM_NAMES.items()}


def language_code(lang: str) -> str:
    """The code of ``lang``: an ISO 639-1 code (a region or script tag after ``-``/``_`` is dropped), an
    XL-Sum name or one of multilingual-rouge's aliases. OptionError for anything else."""
    if not isinstance(lang, str):
        raise OptionError(
            f"lang must be a language code or name such as 'de', 'german' or 'chinese_simplified', got {lang!r}"
        )
    key = lang.strip().lower()
    name = _normal(key)
    if name in _XLSUM_BY_NAME:  # 'Chinese Simplified' and 'chinese-simplified' too
        return _XLSUM_BY_NAME[name]
    if key in ALIASES:
        return ALIASES[key]
    if name in _BY_NAME:
        return _BY_NAME[name]
    if name in OTHER_NAMES:
        return OTHER_NAMES[name]
    base = key.replace("_", "-").split("-")[0]
    if base in ISO_639_1 or base == "pcm":
        return base
    raise OptionError(f"unknown language {lang!r}{_suggestion(name)}: {CHOICES}")


#: what the error for an unknown language says can be given
CHOICES = (
    "give an ISO 639-1 code (de, ru, zh, ...), an English name (German, Russian, Scottish Gaelic, ...) or an "
    "XL-Sum name (chinese_simplified, serbian_latin, ...), case ignored; docs/languages.md lists them"
)


def _suggestion(name: str) -> str:
    import difflib  # only for an error message

    if len(name) > 60:
        return ""
    known = [*_BY_NAME, *OTHER_NAMES, *XLSUM_NAMES, *ALIASES]
    close = difflib.get_close_matches(name, known, n=1, cutoff=0.75)
    return f" (did you mean {close[0]!r}?)" if close else ""
