"""Drop-in for ``multilingual_rouge.rouge_scorer`` (``multilingual-rouge`` 0.0.1, XL-Sum's scorer).

Switch by changing one import::

    # from multilingual_rouge import rouge_scorer
    from rougekit.compat import multilingual_rouge as rouge_scorer

    scorer = rouge_scorer.RougeScorer(["rouge1", "rouge2", "rougeL"], use_stemmer=True, lang="hindi")
    scores = scorer.score(target, prediction)   # reference FIRST, as in rouge-score

The numbers are the package's, bit for bit (the tests compare them on real and random texts
in many languages). What it computes, per text:

1. ``str.lower()``; then the package's cleaning: control characters deleted, split on
   whitespace and punctuation (:mod:`rougekit.compat._mlrouge_text`);
2. ``lang`` picks a word segmenter for ``chinese`` (jieba), ``japanese`` (fugashi, MeCab
   options ``-O wakati -b 50000``), ``thai`` (pythainlp ``newmm``) and ``burmese`` (a rule
   based syllable splitter), run on the cleaned words joined by spaces. jieba and pythainlp
   return the spaces as tokens, and the package keeps them: **for zh and th a space is a
   token** (it counts in ROUGE-1 and in the LCS). Other languages (or a segmenter that gives
   no token) get the default tokens: OpenNMT's ``aggressive`` mode (letters and digits split
   apart, each symbol alone), then each CJK ideograph alone;
3. with ``use_stemmer``, tokens longer than ``min_char_length`` (3) characters are stemmed:
   by default NLTK's Porter; with ``lang`` the language's stemmer: ``hindi`` (Ramanathan and
   Rao's light stemmer, :mod:`rougekit.text.stem_hi`), ``turkish`` (:mod:`rougekit.text.stem_tr`),
   ``bengali`` (see below), and the NLTK Snowball languages with NLTK's stopwords left
   unstemmed (:mod:`rougekit.text.snowball_nltk`); another ``lang`` warns and does not stem;
4. ``rougeN`` counts clipped n-grams, ``rougeL`` the LCS of the whole token sequences
   (F = 2PR/(P+R)), exactly as rouge-score.

**rougeLsum** (a quirk kept on purpose): the sentences are the lines of the text, and each
line is tokenized by the cleaning of step 1 only, **without the segmenter and without the
default tokens** (the package calls its tokenizer with no language there). So a line of
Chinese or Thai is one token per run of text between punctuation marks, and ``rougeLsum`` of
a one-line Chinese summary is not its ``rougeL``. The stemmer is still applied.
``RougeScorer(..., lsum="segmented")`` gives the behaviour the XL-Sum paper describes instead:
every line tokenized like ``rougeL`` (segmenter, default tokens), and with
``lsum_split="punctuation"`` sentences also end after ``.``, ``!``, ``?``, ``।``, ``。``, ``！``,
``？`` and the other sentence-final marks listed in :data:`SENTENCE_ENDS` (XL-Sum's summaries
are single lines, so split on newlines only, ``rougeLsum`` is a single-sentence LCS).

**bengali stemming**: the package's Bengali stemmer reads a rules file (``common.rules`` of
BanglaKit's ``bengali-stemmer``) that its wheel does not contain, so there
``RougeScorer(..., use_stemmer=True, lang="bengali")`` raises ``FileNotFoundError``. Here it
stems with those rules, which rougekit ships (:mod:`rougekit.text.stem_bn`): the numbers are the
package's once the file is in place, as in XL-Sum's own setup. ``bengali_stemmer=`` (a function
``word -> stem``) replaces it.

**Speed**: tokens (segmentation included) are cached by text and stems by word for each
scorer (not with a ``callable_tokenizer`` or ``callable_stemmer``); the counting is the
engine's. Segmentation by jieba or pythainlp, the same code as the package's, stays the
largest cost for short Chinese and Thai texts.

Language names: ``bangla`` is ``bengali``, ``turkce`` is ``turkish``, ``chinese_simplified`` and
``chinese_traditional`` are ``chinese``, ``mundo`` is ``spanish`` (the XL-Sum folder names).
ISO codes are not language names for the package (``lang="ru"`` gives the default tokens and
no stemmer, with a warning when stemming): the same here.

A pair is counted by the engine in one call (:func:`rougekit.measures.pair.pair_counts`) on
interned token ids, as in :mod:`rougekit.compat.rouge_scorer`; ``scoring`` is :mod:`rougekit.compat.scoring`
(its ``BootstrapAggregator`` draws from numpy's global state as the package's does).
"""

from __future__ import annotations

import functools
import re
import warnings
from typing import Callable, Dict, List, Optional, Sequence

from rougekit.engine.door import pair_counts
from rougekit.text.intern import interner

from . import scoring
from ._mlrouge_text import basic_tokens, default_tokens
from .rouge_scorer import plan_of, raise_invalid_type, scores_of_plan
from .scoring import Score

__all__ = ["RougeScorer", "MultiTokenizer", "MultiStemmer", "Score", "scoring", "SENTENCE_ENDS", "LANGUAGE_ALIASES"]

LANGUAGE_ALIASES = {
    "bangla": "bengali",
    "turkce": "turkish",
    "chinese_simplified": "chinese",
    "chinese_traditional": "chinese",
    "mundo": "spanish",
}
SEGMENTED_LANGUAGES = ("chinese", "japanese", "thai", "burmese")
SENTENCE_ENDS = ".!?।॥。！？؟۔።።፧჻"
_CACHE_SIZE = 1 << 16  # texts and words remembered per scorer
_VOCAB_LIMIT = 1 << 21  # distinct tokens a scorer numbers before it starts afresh


class _Stems(dict):
    """Word -> its stem under a :class:`MultiStemmer`, remembered (up to ``_CACHE_SIZE`` words)."""

    def __init__(self, stemmer: "MultiStemmer"):
        super().__init__()
        self._stem = stemmer

    def __missing__(self, word):
        stem = self._stem(word)
        if len(self) < _CACHE_SIZE:
            self[word] = stem
        return stem


def _segmenter(lang: str, cached: bool = True) -> Callable[[str], List[str]]:
    from rougekit.compat._mlrouge_segmenters import segmenter

    return segmenter(lang, cached)


class MultiTokenizer:
    """The package's tokenizer: cleaning, then the segmenter of ``lang`` or the default tokens.

    ``cache_segments=False``: the segmenter's own cache by text is left out (for a caller that
    caches its tokens by text).
    """

    def __init__(
        self, lang: Optional[str] = None, callable_tokenizer: Optional[Callable] = None, *, cache_segments: bool = True
    ):
        self.lang = lang
        self.tokenizer = None
        # the cleaning of a text, remembered for this tokenizer: rougeLsum cleans the same lines again
        # (the cached lists are shared: callers read them, never change them)
        self.clean = functools.lru_cache(maxsize=_CACHE_SIZE)(basic_tokens)
        if callable_tokenizer:
            self.tokenizer = callable_tokenizer
        elif lang in SEGMENTED_LANGUAGES:
            self.tokenizer = _segmenter(lang, cache_segments)

    def __call__(self, text: str) -> List[str]:
        return self.segment(self.clean(text.strip()))

    def segment(self, words: List[str]) -> List[str]:
        """The tokens of a text from its cleaned words (what ``__call__`` does after the cleaning)."""
        cleaned = " ".join(words)
        tokens = self.tokenizer(cleaned) if self.tokenizer else []
        if not tokens and cleaned:
            if self.tokenizer:
                warnings.warn("-----No tokens found using inferred tokenizer, switching to default tokenizer-----")
            tokens = default_tokens(cleaned)
        return tokens


class MultiStemmer:
    """The package's stemmer choice: ``callable_stemmer``, else ``lang``'s stemmer, else Porter."""

    def __init__(self, lang=None, callable_stemmer=None, min_char_length=3, bengali_stemmer=None):
        self.min_char_length = min_char_length
        if callable_stemmer:
            self.stemmer = callable_stemmer
        elif lang:
            self.stemmer = _language_stemmer(lang, bengali_stemmer)
            if self.stemmer is not None:
                self.stemmer = functools.lru_cache(maxsize=_CACHE_SIZE)(self.stemmer)  # a pure function of the word
            if self.stemmer is None:
                warnings.warn(f"-----unknown stemmer language-> {lang}-----")
        else:
            from rougekit.compat import _porter_nltk

            self.stemmer = functools.lru_cache(maxsize=_CACHE_SIZE)(_porter_nltk.stem)

    def __call__(self, token: str) -> str:
        if self.stemmer and len(token) > self.min_char_length:
            return self.stemmer(token)
        return token


def _language_stemmer(lang: str, bengali_stemmer=None):
    from rougekit.text import snowball_nltk

    if lang == "hindi":
        from rougekit.text.stem_hi import stemmer

        return stemmer
    if lang == "turkish":
        from rougekit.text.stem_tr import stemmer

        return stemmer
    if lang == "bengali":
        if bengali_stemmer is None:
            from rougekit.text.stem_bn import stemmer as bengali_stemmer
        return bengali_stemmer
    if lang == "porter":
        from rougekit.compat import _porter_nltk

        return _porter_nltk.stem
    if lang in snowball_nltk.LANGUAGES:
        return snowball_nltk.stemmer(lang, ignore_stopwords=True)
    return None


class RougeScorer(scoring.BaseScorer):
    """ROUGE scores of a prediction against a target, exactly as multilingual-rouge 0.0.1.

    Args:
        rouge_types: ``"rouge1"`` .. ``"rouge9"``, ``"rougeL"``, ``"rougeLsum"``.
        use_stemmer: stem tokens longer than ``min_char_length`` characters.
        lang: a language name (``"hindi"``, ``"chinese"``, ``"russian"``, ...; see the module).
        callable_tokenizer: a function ``text -> tokens`` used instead of the language's
            segmenter (for rougeN and rougeL; rougeLsum keeps the cleaning, as the package).
        callable_stemmer: a function ``token -> stem`` used instead of the language's stemmer.
        min_char_length: tokens of at most this many characters are not stemmed (3).
        lsum: ``"package"`` (default: each line cleaned only, as multilingual-rouge) or
            ``"segmented"`` (each line tokenized as for rougeL: the XL-Sum paper's intent).
        lsum_split: ``"newline"`` (default, as the package) or ``"punctuation"`` (lines are also
            split after the sentence-final marks of :data:`SENTENCE_ENDS`).
        bengali_stemmer: the Bengali stemmer to use with ``lang="bengali"`` (the package has none
            that works).

    ``score(target, prediction)`` takes the reference *first*.
    """

    def __init__(
        self,
        rouge_types: Sequence[str],
        use_stemmer: bool = False,
        lang: Optional[str] = None,
        callable_tokenizer: Optional[Callable] = None,
        callable_stemmer: Optional[Callable] = None,
        min_char_length: int = 3,
        lsum: str = "package",
        lsum_split: str = "newline",
        bengali_stemmer: Optional[Callable] = None,
    ):
        if lsum not in ("package", "segmented"):
            raise ValueError(f"lsum must be 'package' or 'segmented', not {lsum!r}")
        if lsum_split not in ("newline", "punctuation"):
            raise ValueError(f"lsum_split must be 'newline' or 'punctuation', not {lsum_split!r}")
        if lang and lang in LANGUAGE_ALIASES:
            lang = LANGUAGE_ALIASES[lang]
        self.rouge_types = rouge_types
        self.lang = lang
        # tokens by text, when every step is rougekit's own (a user's callable may not be a pure function)
        cacheable = not callable_tokenizer and not callable_stemmer
        self._tokenizer = MultiTokenizer(lang, callable_tokenizer, cache_segments=not cacheable)
        self._stemmer = MultiStemmer(lang, callable_stemmer, min_char_length, bengali_stemmer) if use_stemmer else None
        self._lsum = lsum
        self._lsum_split = lsum_split
        self._cached_tokens = functools.lru_cache(maxsize=_CACHE_SIZE)(self._token_tuple) if cacheable else None
        self._cached_lsum = functools.lru_cache(maxsize=_CACHE_SIZE)(self._lsum_tuple) if cacheable else None
        # ... and for score(): token ids from one vocabulary kept by the scorer (ids are only compared
        # for equality, so any consistent numbering gives the same counts)
        self._vocab: dict = {}
        self._ids = interner(self._vocab)
        self._stems = _Stems(self._stemmer) if cacheable and self._stemmer else None
        # the types known at construction (the rougeLsum sentences are cached only when asked for)
        listed = isinstance(rouge_types, (list, tuple, set, frozenset))
        self._made_with = frozenset(t for t in rouge_types if isinstance(t, str)) if listed else {"rougeLsum"}
        self._cached_ids = functools.lru_cache(maxsize=_CACHE_SIZE)(self._ids_of) if cacheable else None

    # ------------------------------------------------------------------ tokens

    def tokenize(self, text: str) -> List[str]:
        """The tokens of ``text`` for rougeN and rougeL (lower-cased, segmented, stemmed)."""
        if self._cached_tokens is not None and isinstance(text, str):
            return list(self._cached_tokens(text))
        return self._tokens(text, self._tokenizer)

    def _token_tuple(self, text: str) -> tuple:
        return tuple(self._tokens(text, self._tokenizer))

    def _lsum_tuple(self, text: str) -> tuple:
        return tuple(map(tuple, self._lsum_tokens(text)))

    def _ids_of(self, text: str) -> tuple:
        """``(token ids, rougeLsum sentences as ids)`` of ``text`` (the sentences only when the scorer
        was made with rougeLsum, else None: see :meth:`_lsum_ids`): :meth:`_tokens` and
        :meth:`_lsum_tokens` in one pass, a one-line text cleaned once for both."""
        lower = text.lower()
        key = lower.strip()
        words = basic_tokens(key)
        tokens = self._tokenizer.segment(words)
        stems = self._stems
        if stems is not None:
            tokens = map(stems.__getitem__, tokens)
        number = self._ids
        ids = number(tokens)
        if "rougeLsum" not in self._made_with:
            return ids, None
        if self._lsum != "package" or self._lsum_split != "newline" or "\n" in text:
            return ids, self._lsum_ids(text)
        if not text:  # no line
            return ids, ()
        if text.strip().lower() != key:  # (lower-casing and stripping commute but for odd characters)
            words = basic_tokens(text.strip().lower())
        if stems is not None:
            words = map(stems.__getitem__, words)
        return ids, (number(words),)

    def _lsum_ids(self, text: str) -> tuple:
        return tuple(map(self._ids, self._lsum_tokens(text)))

    def _forget_ids(self) -> None:
        """Start the vocabulary afresh (it holds every distinct token seen: bounded by ``_VOCAB_LIMIT``)."""
        self._vocab = {}
        self._ids = interner(self._vocab)
        self._cached_ids.cache_clear()

    def _lsum_sentences(self, text: str) -> List[List[str]]:
        if self._cached_lsum is not None and isinstance(text, str):
            return list(map(list, self._cached_lsum(text)))
        return self._lsum_tokens(text)

    def _tokens(self, text: str, tokenizer) -> List[str]:
        tokens = tokenizer(text.lower())
        if self._stemmer:
            tokens = map(self._stemmer, tokens)
        return [t for t in tokens if t]

    def _lsum_tokens(self, text: str) -> List[List[str]]:
        lines = [line for line in text.split("\n") if len(line)]
        if self._lsum_split == "punctuation":
            lines = [s for line in lines for s in _split_after_ends(line) if s]
        if self._lsum == "segmented":
            return [self._tokens(line, self._tokenizer) for line in lines]
        # a line's cleaning does not depend on white space at its ends: a one-line text is cleaned once
        clean = self._tokenizer.clean
        return [self._tokens(line.strip(), clean) for line in lines]

    # ------------------------------------------------------------------ scoring

    def score(self, target: str, prediction: str) -> Dict[str, Score]:
        """Scores of ``prediction`` against ``target`` (reference first); bytes are read as UTF-8, as
        the package's ``six.ensure_str`` reads them."""
        target, prediction = (t.decode("utf-8") if isinstance(t, bytes) else t for t in (target, prediction))
        if self._cached_ids is not None and isinstance(target, str) and isinstance(prediction, str):
            if len(self._vocab) > _VOCAB_LIMIT:
                self._forget_ids()
            tgt, tgt_sents = self._cached_ids(target)
            pred, pred_sents = self._cached_ids(prediction)
            if tgt_sents is None and "rougeLsum" in self.rouge_types:  # rouge_types changed since
                tgt_sents, pred_sents = self._lsum_ids(target), self._lsum_ids(prediction)
        else:
            ids = interner({}, skip_empty=False)  # a user's tokenizer or stemmer: every token counts
            tgt = ids(self.tokenize(target))
            pred = ids(self.tokenize(prediction))
            tgt_sents = pred_sents = None  # the lines are tokenized again only for rougeLsum
            if "rougeLsum" in self.rouge_types:
                tgt_sents, pred_sents = ([ids(s) for s in self._lsum_sentences(text)] for text in (target, prediction))
        plan = plan_of(self.rouge_types)
        if plan is None:  # an invalid type: its error, where the package raises it
            raise_invalid_type(self.rouge_types)
            raise AssertionError(f"no plan for the valid types {self.rouge_types!r}")
        orders, lcs, lsum, entries = plan
        counts = pair_counts(pred, tgt, orders, lcs, pred_sents if lsum else None, tgt_sents if lsum else None)
        return scores_of_plan(entries, counts)


def _split_after_ends(line: str) -> List[str]:
    """``line`` cut after each run of sentence-final marks (kept with their sentence)."""
    return re.split(f"(?<=[{re.escape(SENTENCE_ENDS)}])(?![{re.escape(SENTENCE_ENDS)}])", line)
