"""No silent zeros: summaries whose words a tokenizer (or the English stemmer) cannot read.

ROUGE-1.5.5's tokenizer keeps ASCII letters and digits only, so a Chinese, Hindi or Russian summary
becomes no tokens and scores 0 against anything, itself included; a German, French or Turkish one
keeps its ASCII letters and loses the others, its words cut into fragments (``Straße`` becomes
``stra e``, ``überflutet`` ``berflutet``) that then match each other. :class:`Tally` counts such
summaries over one scoring call and warns once per kind, naming the option that fixes it.

A summary *loses letters* under the script's tokenizer when it holds a letter outside ASCII: a
character of Unicode general category L (``str.isalpha()``) whose code point is above U+007F.
Digits, punctuation and combining marks outside ASCII are not counted (a decomposed ``é``, ``e`` +
U+0301, keeps its ``e``). Such a summary is counted as *empty* when no ASCII letter or digit is left
(:class:`~rougekit.errors.EmptyTokensWarning`), otherwise as *cut*
(:class:`~rougekit.errors.LettersDroppedWarning`). ASCII text is never read twice: ``str.isascii``
tells it apart first.

>>> lost_to_rouge155("北京欢迎你"), lost_to_rouge155("北京 2008"), lost_to_rouge155("...")
(True, False, False)
>>> cut_by_rouge155("Die Straße"), cut_by_rouge155("No. 5 ²"), cut_by_rouge155("cafe\u0301")
(True, False, False)
>>> script_hint("Привет, мир"), script_hint("東京は晴れ"), script_hint("Die Straße ist überflutet")
('Cyrillic', 'kana', 'de')
>>> for hint, option in [("Devanagari", "lang="), ("Devanagari", "--lang "), ("de", "lang=")]:
...     print(_example(hint, option))
 (Devanagari script: one of lang='hi', 'mr', 'ne')
 (Devanagari script: one of --lang hi, mr, ne)
 (e.g. lang='de')
>>> fragments("Straße"), fragments("überflutet")
('stra e', 'berflutet')
"""

from __future__ import annotations

import functools
import itertools
import re
import unicodedata
import warnings
from collections.abc import Iterator
from dataclasses import dataclass, field

import numpy as np

from rougekit.errors import EmptyTokensWarning, LettersDroppedWarning, StemmerWarning, UnsegmentedWordsWarning
from rougekit.text.tokenizers import word_pattern

_ASCII_WORD = re.compile(r"[A-Za-z0-9]")
# a word character outside ASCII that is neither a decimal digit nor "_": a letter, or a number
# such as "²" (each match is then held to str.isalpha)
_NON_ASCII_ALNUM = re.compile(r"[^\W\d_\x00-\x7f]")
_NON_SPACE = re.compile(r"\S*")
_SHOWN = 40  # characters of the example word a warning shows at the most
# a letter outside the Latin script (Basic Latin to Latin Extended-B, Latin Extended Additional)
_NON_LATIN_LETTER = re.compile(r"(?![\u0000-\u024f\u1e00-\u1eff])[^\W\d_]")

#: the first word of a character's Unicode name -> the script's name and the ``lang=`` presets that
#: read it (each one a preset of :mod:`rougekit.text.presets`, tests/test_dropped_letters.py checks),
#: for the hint: a script names no one language (Ukrainian is not Russian, Marathi is not Hindi)
SCRIPTS = {
    "CJK": ("Han", ("zh", "ja")), "HIRAGANA": ("kana", ("ja",)), "KATAKANA": ("kana", ("ja",)),
    "HANGUL": ("Hangul", ("ko",)), "THAI": ("Thai", ("th",)), "MYANMAR": ("Myanmar", ("my",)),
    "DEVANAGARI": ("Devanagari", ("hi", "mr", "ne")), "BENGALI": ("Bengali", ("bn", "as")),
    "GURMUKHI": ("Gurmukhi", ("pa",)), "GUJARATI": ("Gujarati", ("gu",)), "ORIYA": ("Odia", ("or",)),
    "TAMIL": ("Tamil", ("ta",)), "TELUGU": ("Telugu", ("te",)), "KANNADA": ("Kannada", ("kn",)),
    "MALAYALAM": ("Malayalam", ("ml",)), "SINHALA": ("Sinhala", ("si",)),
    "ARABIC": ("Arabic", ("ar", "fa", "ur", "ps", "sd", "ug")), "HEBREW": ("Hebrew", ("he", "yi")),
    "CYRILLIC": ("Cyrillic", ("ru", "uk", "bg", "sr", "mk", "be", "kk", "ky", "mn", "tg")),
    "GREEK": ("Greek", ("el",)), "ETHIOPIC": ("Ethiopic", ("am", "ti")), "GEORGIAN": ("Georgian", ("ka",)),
    "ARMENIAN": ("Armenian", ("hy",)), "KHMER": ("Khmer", ("km",)), "LAO": ("Lao", ("lo",)),
    "TIBETAN": ("Tibetan", ("bo", "dz")),
}  # fmt: skip
#: a script's name -> its presets
SCRIPT_PRESETS = dict(SCRIPTS.values())

#: scripts written without spaces between words: their letters and the presets whose segmenter cuts
#: them into words (tokenizer 'cjk' cuts Han and kana into characters). Under any other tokenizer a
#: run of them between spaces is one token, which rarely matches another summary's
UNSPACED = {
    "Han": ("\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0002fa1f", ("zh", "ja")),
    "kana": ("\u3040-\u30ff\u31f0-\u31ff", ("ja",)),  # the ranges tokenizer 'cjk' cuts, with Han's
    "Thai": ("\u0e01-\u0e5b", ("th",)),
    "Lao": ("\u0e81-\u0edf", ()),
    "Khmer": ("\u1780-\u17f9", ()),
    "Myanmar": ("\u1000-\u109f", ("my",)),
}
#: letters in a row of such a script that make a run worth a warning: longer than their words, as
#: short as a phrase
UNSPACED_RUN = 12


@functools.lru_cache(maxsize=None)
def unspaced_runs(tokenizer: str, lang: str | None):
    """The compiled pattern of a run of :data:`UNSPACED_RUN` letters of the scripts that ``tokenizer``
    (a built-in's name) and ``lang`` (a preset or None) leave uncut, or None when they cut them all
    (``rouge155`` drops them: :class:`Tally` counts those summaries as empty).

    >>> unspaced_script(unspaced_runs("unicode", None).search(" 東京は今日とても晴れています ").group())
    'Han'
    >>> unspaced_runs("cjk", None).search("東京は今日とても晴れています") is None
    True
    >>> unspaced_runs("unicode", "th").search("รัฐบาลประกาศมาตรการใหม่วันนี้") is None
    True
    """
    if tokenizer == "rouge155" and not lang:
        return None
    cut = {"Han", "kana"} if tokenizer == "cjk" and not lang else set()
    cut |= {s for s, (_, presets) in UNSPACED.items() if lang in presets}
    left = "".join(chars for s, (chars, _) in UNSPACED.items() if s not in cut)
    return re.compile(f"[{left}]{{{UNSPACED_RUN},}}") if left else None


def unspaced_script(run: str) -> str:
    """The script of a run :func:`unspaced_runs` found (of its first letter)."""
    return next(s for s, (chars, _) in UNSPACED.items() if re.match(f"[{chars}]", run))


#: letters of the Latin script that, of the languages hinted, one language alone writes
_LATIN_OWN = {
    "ß": "de", "ñ": "es", "¿": "es", "¡": "es", "ã": "pt", "õ": "pt", "œ": "fr", "ğ": "tr", "ş": "tr",
    "ı": "tr", "İ": "tr", "ą": "pl", "ę": "pl", "ł": "pl", "ś": "pl", "ź": "pl", "ż": "pl", "ń": "pl",
    "ř": "cs", "ě": "cs", "ů": "cs", "č": "cs", "å": "sv", "ø": "da", "æ": "da", "ő": "hu", "ű": "hu",
    "ă": "ro", "ț": "ro", "ș": "ro", "ơ": "vi", "ư": "vi", "đ": "vi",
}  # fmt: skip
#: letters several of them write, each pointing to the one that writes it most (counted only when the
#: text has none of the letters above: ``é`` is French in "l'été", but "José está" is Spanish)
_LATIN_SHARED = {
    "ä": "de", "ö": "de", "ü": "de", "é": "fr", "è": "fr", "ê": "fr", "à": "fr", "â": "fr", "î": "fr",
    "ô": "fr", "û": "fr", "ë": "fr", "ï": "fr", "ç": "fr", "á": "es", "í": "es", "ó": "es", "ú": "es",
}  # fmt: skip


def as_text(summary) -> str:
    return summary if isinstance(summary, str) else "\n".join(summary)


def non_ascii(candidates: list, references: list[list]) -> list[str]:
    """The texts of the summaries that are not all ASCII (a summary may be a list of sentences)."""
    try:  # all str and all ASCII (str.isascii is a flag test), the common case: nothing to read
        if all(map(str.isascii, candidates)) and all(map(str.isascii, itertools.chain.from_iterable(references))):
            return []
    except TypeError:  # a summary given as a list of sentences
        pass
    summaries = itertools.chain(candidates, itertools.chain.from_iterable(references))
    texts = [t if type(t) is str else as_text(t) for t in summaries if type(t) is not str or not t.isascii()]
    return [t for t in texts if not t.isascii()]


def has_words(text: str) -> bool:
    """True when ``text`` holds a letter, digit or mark of any script."""
    return word_pattern().search(text) is not None


def lost_to_rouge155(text: str) -> bool:
    """True when ROUGE-1.5.5's tokenizer makes no token of a text that has words."""
    return _ASCII_WORD.search(text) is None and has_words(text)


def cut_by_rouge155(text: str) -> bool:
    """True when ROUGE-1.5.5's tokenizer drops a letter of ``text`` (a letter outside ASCII) but keeps
    some token (an ASCII letter or digit): its words come out cut into fragments."""
    if text.isascii() or _ASCII_WORD.search(text) is None:
        return False
    return _has_letter(text)


def word_with_letter(text: str) -> str | None:
    """The first white-space delimited word of ``text`` that holds a letter outside ASCII (at most
    ``_SHOWN`` characters of it, around that letter), in time linear in the text: a regular expression
    searching for the whole word backtracked over every long run without spaces (100,000 '[' took
    minutes)."""
    found = _NON_ASCII_ALNUM.search(text)
    if found is None:
        return None
    at = found.start()
    start = at - _NON_SPACE.match(text[at - 1 :: -1] if at else "").end()
    end = _NON_SPACE.match(text, at).end()
    if end - start > _SHOWN:
        start = max(start, at - _SHOWN // 2)
        end = min(end, start + _SHOWN)
    return text[start:end]


def fragments(word: str) -> str:
    """What the script's tokenizer leaves of a word (ASCII letters and digits, lower-cased)."""
    return " ".join(re.sub(r"[^a-z0-9]+", " ", word.lower()).split())


def non_latin(text: str) -> bool:
    """True when ``text`` has a letter outside the Latin script (the English stemmer leaves it alone)."""
    return not text.isascii() and _NON_LATIN_LETTER.search(text) is not None


def script_hint(text: str) -> str | None:
    """The name of the script of the text's first non-Latin letter (kana wins over Han; its presets are
    ``SCRIPT_PRESETS[name]``), or else the code of the language most of its Latin letters point to:
    letters one language alone writes (``ß`` German, ``ñ`` Spanish, ``ğ`` Turkish, ...) outvote letters
    several write (``é``, ``ü``, ``á``)."""
    found = None
    own: dict[str, int] = {}
    shared: dict[str, int] = {}
    for char in _NON_ASCII_CHAR.findall(text):
        script, alone, several = _points_to(char)
        if script == "kana":
            return script
        found = found or script
        if alone:
            own[alone] = own.get(alone, 0) + 1
        if several:
            shared[several] = shared.get(several, 0) + 1
    votes = own or shared
    return found or (max(votes, key=votes.__getitem__) if votes else None)


_NON_ASCII_CHAR = re.compile(r"[^\x00-\x7f]")


@functools.lru_cache(maxsize=4096)
def _points_to(char: str) -> tuple[str | None, str | None, str | None]:
    """The name of a character's script (not Latin), and the languages its Latin letter points to (one
    language alone, several): all None for a character that is not a letter."""
    if not char.isalpha():
        return None, None, None
    lower = char.lower()  # "İ".lower() is two characters: the letter itself is looked up first
    alone = _LATIN_OWN.get(char) or _LATIN_OWN.get(lower)
    several = _LATIN_SHARED.get(char) or _LATIN_SHARED.get(lower)
    script = SCRIPTS.get(unicodedata.name(char, "").split(" ")[0])
    return (script[0] if script else None), alone, several


def count_rouge155(
    candidates: list,
    references: list[list],
    tally: Tally,
    stem: bool = False,
    engine_empty: int | None = None,
    engine_non_ascii: int | None = None,
) -> None:
    """Count, under the script's tokenizer, the summaries with words but no tokens and those whose
    letters are partly dropped (``stem``: the English stemmer then runs on the fragments).

    ``engine_empty``: the engine's count of summaries that came out with no token (None: unknown);
    0 means none is empty, so only the dropped letters are looked for. ``engine_non_ascii``: the
    engine's count of texts holding a character outside ASCII (None: unknown); 0 means there is
    nothing to look for (an ASCII text keeps every letter and digit), so the texts are not read again."""
    tally.stem = stem
    if engine_non_ascii == 0:
        return
    texts = non_ascii(candidates, references)
    if engine_empty != 0:
        for text in texts:
            if lost_to_rouge155(text):
                tally.add_empty(text)
    for text in with_non_ascii_letter(texts):
        if _ASCII_WORD.search(text) is not None:
            tally.add_cut(text)


_CHUNK = 512  # texts read at a time: memory stays flat


def _has_letter(chars: str) -> bool:
    found = _NON_ASCII_ALNUM.search(chars)
    while found is not None and not found.group().isalpha():
        found = _NON_ASCII_ALNUM.search(chars, found.end())
    return found is not None


@functools.cache
def _letters() -> np.ndarray:
    """For each UTF-16 code unit, whether it is a letter outside ASCII (``str.isalpha``, by numpy on
    the 65,536 one-character strings; surrogates are not letters)."""
    table = np.char.isalpha(np.arange(0x10000, dtype=np.uint32).view("U1"))
    table[:0x80] = False
    return table


def _are_letters(units: np.ndarray) -> np.ndarray:
    """Which of ``units`` (code units above U+007F) are letters: a few are asked one by one, many
    through the table (built on the first such call)."""
    if len(units) > 4096 or _letters.cache_info().currsize:
        return _letters()[units]
    kinds = np.unique(units).tolist()
    return np.isin(units, [unit for unit in kinds if chr(unit).isalpha()])


def with_non_ascii_letter(texts: list[str]) -> Iterator[str]:
    """The texts that hold a letter outside ASCII, in order, found without reading their characters
    one by one in Python or with a regular expression: each chunk of texts is joined and encoded as
    UTF-16 (one code unit a character outside the astral planes), numpy picks the units above U+007F
    that are letters (a table of ``str.isalpha``; curly quotes and dashes are not), and each text is
    looked up by its span among their positions. A chunk with an astral character or a lone
    surrogate is searched text by text."""
    for start in range(0, len(texts), _CHUNK):
        chunk = texts[start : start + _CHUNK]
        units = np.frombuffer("".join(chunk).encode("utf-16-le", "surrogatepass"), dtype="<u2")
        at = np.flatnonzero(units > 0x7F)
        if not len(at):
            continue
        found = units[at]
        if ((found >= 0xD800) & (found <= 0xDFFF)).any():  # code units no longer one per character
            yield from (text for text in chunk if _has_letter(text))
            continue
        at = at[_are_letters(found)]
        if not len(at):  # English with curly quotes and dashes: nothing more to read
            continue
        lengths = np.fromiter(map(len, chunk), dtype=np.int64, count=len(chunk))
        ends = np.cumsum(lengths)
        first = np.searchsorted(at, ends - lengths)  # each text's first letter at or after its start
        holds = at[np.minimum(first, len(at) - 1)] < ends
        holds &= first < len(at)
        yield from (chunk[k] for k in np.flatnonzero(holds).tolist())


#: summaries of each kind whose letters vote for the language the warning names (a corpus's first
#: summaries tell its language; a name such as "Beyoncé" in one English summary is outvoted)
HINTED = 100


@dataclass
class Tally:
    """Counts over one call: summaries with words but no tokens, and those the English stemmer cannot stem."""

    tokenizer: str
    empty: int = 0
    unstemmed: int = 0
    cut: int = 0
    unspaced: int = 0
    total: int = 0
    stem: bool = False
    example: str = field(default="", repr=False)
    cut_example: str = field(default="", repr=False)
    unspaced_run: str = field(default="", repr=False)  # the first run found
    #: the first summary of each hinted language, over the first HINTED summaries of each kind
    hinted: dict = field(default_factory=lambda: {"empty": {}, "cut": {}}, repr=False)

    def add_empty(self, text: str) -> None:
        self.empty += 1
        self.example = self.example or text
        if self.empty <= HINTED:
            self._vote("empty", text)

    def add_cut(self, text: str) -> None:
        self.cut += 1
        self.cut_example = self.cut_example or text
        if self.cut <= HINTED:
            self._vote("cut", text)

    def add_unspaced(self, run: str) -> None:
        self.unspaced += 1
        self.unspaced_run = self.unspaced_run or run

    def _vote(self, kind: str, text: str) -> None:
        lang = script_hint(text)
        if lang is not None:
            votes = self.hinted[kind]
            count, example = votes.get(lang, (0, text))
            votes[lang] = (count + 1, example)

    def _hint(self, kind: str) -> tuple[str | None, str | None]:
        """The language most of the summaries of ``kind`` point to (the first to lead, on a tie) and
        its first summary; (None, None) when none points to a language."""
        votes = self.hinted[kind]
        if not votes:
            return None, None
        lang = max(votes, key=lambda k: votes[k][0])
        return lang, votes[lang][1]

    def warn(self, stacklevel: int = 3) -> None:
        """One warning per kind, if anything was counted (the command line prints them as one line each)."""
        if self.empty:
            hint, _ = self._hint("empty")
            why = " (it keeps ASCII letters and digits only)" if self.tokenizer == "rouge155" else ""
            head = f"{self.empty} of {self.total} summaries have words but no tokens under tokenizer "
            head += f"{self.tokenizer!r}{why}, so they score 0: "
            # tokenizer 'unicode' reads every script, but does not cut those written without spaces
            unicode = ("", "") if hint in UNSPACED else (" or tokenizer='unicode'", " or --tokenizer unicode")
            warnings.warn(
                EmptyTokensWarning(
                    head + f"pass lang= with their language{_example(hint, 'lang=')}{unicode[0]}",
                    head + f"pass --lang with their language{_example(hint, '--lang ')}{unicode[1]}",
                ),
                stacklevel=stacklevel,
            )
        if self.cut:
            self._warn_cut(stacklevel + 1)
        if self.unspaced:
            self._warn_unspaced(stacklevel + 1)
        if self.unstemmed:
            head = (
                f"stem=True applies ROUGE-1.5.5's English stemmer, which leaves words of other scripts as they are "
                f"({self.unstemmed} of {self.total} summaries have such words): pass "
            )
            warnings.warn(
                StemmerWarning(head + "lang= with their language", head.replace("stem=True", "--stem") + "--lang"),
                stacklevel=stacklevel,
            )

    def _warn_unspaced(self, stacklevel: int) -> None:
        script = unspaced_script(self.unspaced_run)
        shown = self.unspaced_run[:_SHOWN] + ("..." if len(self.unspaced_run) > _SHOWN else "")
        head = (
            f"{self.unspaced} of {self.total} summaries have {script} text, written without spaces between words, "
            f"that tokenizer {self.tokenizer!r} does not cut into words ({shown!r} is one token), so they rarely "
            "match and score near 0"
        )
        presets = UNSPACED[script][1]
        if presets:
            api = f"lang={presets[0]!r}" if len(presets) == 1 else "one of " + ", ".join(f"lang={c!r}" for c in presets)
            cli = f"--lang {presets[0]}" if len(presets) == 1 else "one of " + ", ".join(f"--lang {c}" for c in presets)
            tail = (f": pass {api}", f": pass {cli}")
        else:  # Lao, Khmer
            tail = (f": rougekit has no {script} word segmenter; such scores are not comparable",) * 2
        warnings.warn(UnsegmentedWordsWarning(head + tail[0], head + tail[1]), stacklevel=stacklevel)

    def _warn_cut(self, stacklevel: int) -> None:
        hint, example = self._hint("cut")
        word = word_with_letter(example or self.cut_example)
        left = fragments(word) if word else ""
        shown = f" ({word!r} becomes {left!r})" if left else f" ({word!r} is dropped whole)" if word else ""
        percent = 100 * self.cut / max(self.total, 1)
        share = f"{self.cut} of {self.total} summaries ({'<0.1' if percent < 0.05 else f'{percent:.1f}'}%)"
        head = (
            f"{share} have letters outside ASCII, which tokenizer 'rouge155' (ROUGE-1.5.5's, ASCII letters and "
            f"digits only) drops, cutting their words into fragments{shown} that count as matches"
        )
        stem = "; the English stemmer then runs on these fragments" if self.stem else ""
        warnings.warn(
            LettersDroppedWarning(
                head
                + stem.replace("stemmer", "stemmer (stem=True)")
                + f": pass lang= with their language{_example(hint, 'lang=')} or tokenizer='unicode'",
                head
                + stem.replace("stemmer", "stemmer (--stem)")
                + f": pass --lang with their language{_example(hint, '--lang ')} or --tokenizer unicode",
            ),
            stacklevel=stacklevel,
        )


def _example(hint: str | None, option: str) -> str:
    """What to pass for a hint: the presets of a script (`` (Cyrillic script: one of lang='ru', 'uk', ...)``),
    a language its Latin letters point to (`` (e.g. lang='de')``), nothing when the text points to none."""
    if hint is None:
        return ""
    api = option.endswith("=")
    codes = SCRIPT_PRESETS.get(hint)
    if codes is None:
        return f" (e.g. {option}{hint!r})" if api else f" (e.g. {option}{hint})"
    shown = ", ".join(repr(c) if api else c for c in codes)
    return f" ({hint} script: {'' if len(codes) == 1 else 'one of '}{option}{shown})"
