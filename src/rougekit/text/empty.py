"""No silent zeros: summaries whose words a tokenizer (or the English stemmer) cannot read.

ROUGE-1.5.5's tokenizer keeps ASCII letters and digits only, so a Chinese, Hindi or Russian summary
becomes no tokens and scores 0 against anything, itself included. :class:`Tally` counts such
summaries over one scoring call and warns once, naming the option that fixes it.

>>> lost_to_rouge155("北京欢迎你"), lost_to_rouge155("北京 2008"), lost_to_rouge155("...")
(True, False, False)
>>> script_hint("Привет, мир"), script_hint("東京は晴れ")
('ru', 'ja')
"""

from __future__ import annotations

import itertools
import re
import unicodedata
import warnings
from dataclasses import dataclass, field

from rougekit.errors import EmptyTokensWarning, StemmerWarning
from rougekit.text.tokenizers import _word_pattern

_ASCII_WORD = re.compile(r"[A-Za-z0-9]")
# a letter outside the Latin script (Basic Latin to Latin Extended-B, Latin Extended Additional)
_NON_LATIN_LETTER = re.compile(r"(?![\u0000-\u024f\u1e00-\u1eff])[^\W\d_]")

#: the first word of a character's Unicode name -> a language of that script, for the hint
_SCRIPT_LANG = {
    "CJK": "zh", "HIRAGANA": "ja", "KATAKANA": "ja", "HANGUL": "ko", "THAI": "th", "MYANMAR": "my",
    "DEVANAGARI": "hi", "BENGALI": "bn", "GURMUKHI": "pa", "GUJARATI": "gu", "TAMIL": "ta", "TELUGU": "te",
    "SINHALA": "si", "ARABIC": "ar", "HEBREW": "he", "CYRILLIC": "ru", "GREEK": "el", "ETHIOPIC": "am",
    "GEORGIAN": "ka", "ARMENIAN": "hy", "KHMER": "km", "LAO": "lo",
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
    flat = [r for refs in references for r in refs]
    texts = [as_text(t) for group in (candidates, flat) for t in group if type(t) is not str or not t.isascii()]
    return [t for t in texts if not t.isascii()]


def has_words(text: str) -> bool:
    """True when ``text`` holds a letter, digit or mark of any script."""
    return _word_pattern().search(text) is not None


def lost_to_rouge155(text: str) -> bool:
    """True when ROUGE-1.5.5's tokenizer makes no token of a text that has words."""
    return _ASCII_WORD.search(text) is None and has_words(text)


def non_latin(text: str) -> bool:
    """True when ``text`` has a letter outside the Latin script (the English stemmer leaves it alone)."""
    return not text.isascii() and _NON_LATIN_LETTER.search(text) is not None


def script_hint(text: str) -> str | None:
    """A language written in the script of the text's first non-Latin letter (kana wins over Han)."""
    found = None
    for char in text:
        if char.isascii() or not char.isalpha():
            continue
        word = unicodedata.name(char, "").split(" ")[0]
        lang = _SCRIPT_LANG.get(word)
        if lang == "ja":
            return lang
        found = found or lang
    return found


@dataclass
class Tally:
    """Counts over one call: summaries with words but no tokens, and those the English stemmer cannot stem."""

    tokenizer: str
    empty: int = 0
    unstemmed: int = 0
    total: int = 0
    example: str = field(default="", repr=False)

    def add_empty(self, text: str) -> None:
        self.empty += 1
        self.example = self.example or text

    def warn(self, stacklevel: int = 3) -> None:
        """One warning per kind, if anything was counted (the command line prints them as one line each)."""
        if self.empty:
            hint = script_hint(self.example) or "xx"
            why = " (it keeps ASCII letters and digits only)" if self.tokenizer == "rouge155" else ""
            head = f"{self.empty} of {self.total} summaries have words but no tokens under tokenizer "
            head += f"{self.tokenizer!r}{why}, so they score 0: "
            warnings.warn(
                EmptyTokensWarning(
                    head + f"pass lang= with their language (e.g. lang={hint!r}) or tokenizer='unicode'",
                    head + f"pass --lang with their language (e.g. --lang {hint}) or --tokenizer unicode",
                ),
                stacklevel=stacklevel,
            )
        if self.unstemmed:
            head = (
                f"stem=True applies ROUGE-1.5.5's English stemmer, which leaves words of other scripts as they are "
                f"({self.unstemmed} of {self.total} summaries have such words): pass "
            )
            warnings.warn(
                StemmerWarning(head + "lang= with their language", head.replace("stem=True", "--stem") + "--lang"),
                stacklevel=stacklevel,
            )
