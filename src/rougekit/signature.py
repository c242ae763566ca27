"""A compact string naming every choice that changes the numbers (in the manner of sacrebleu).

It is derived from the :class:`~rougekit.engine.options.ScoringOptions` that were scored with, and reads
back: ``Signature.parse(str(s)) == s``. ``sent`` says where sentences were split: ``newline`` (a
string's lines, or the items of a list of sentences, as the API takes them) or the marker the
command line was given (``--sentence-sep '<q>'`` gives ``sent:<q>``). A value holding ``|``, ``%``
or white space (a custom tokenizer's name, say) is written with ``%XX`` escapes.

``fold`` follows the ``unicode`` and ``cjk`` tokenizers (and every language preset, which tokenizes
with them): the version of the normal form the text was folded to
(:data:`rougekit.text.tokenizers.FOLD_VERSION`). A signature written before it existed has
``tok:unicode`` without ``fold:``: it reads back as ``fold:1``, "unversioned": NFKC and case folding,
with none, some or all of version 2's additions (they came in steps before the fold had a version),
so its numbers may differ from today's on Arabic harakat, Hebrew cantillation, zero-width joiners,
Turkish ``İ`` and non-ASCII digits. A ``fold:`` value that is not a known version, or given with a
tokenizer that does not fold, is refused.

>>> from rougekit.engine.options import ScoringOptions
>>> s = Signature.from_options(ScoringOptions.build(["ROUGE-1", "ROUGE-L"], stem=True))
>>> str(s)  # doctest: +ELLIPSIS
'rougekit|m:ROUGE-1,ROUGE-L|tok:rouge155|sent:newline|stem:rouge155|stop:no|limit:none|refs:sum|alpha:0.5|su:rouge155|w:rouge155|hori:word|avg:pairs|boot:rouge155|r:1000|c:95|seed:none|v:...'
>>> Signature.parse(str(s)) == s
True
"""

from __future__ import annotations

import re
from dataclasses import dataclass, fields, replace
from urllib.parse import unquote

from rougekit._version import __version__
from rougekit.errors import OptionError
from rougekit.text.tokenizers import FOLD_VERSION

# field name -> key in the string, in print order
_KEYS = {
    "measures": "m",
    "lang": "lang",
    "tokenizer": "tok",
    "fold": "fold",
    "segmenter": "seg",
    "sentences": "sent",
    "stemmer": "stem",
    "stopwords": "stop",
    "limit": "limit",
    "ignore_ids": "ignore",
    "multi_ref": "refs",
    "alpha": "alpha",
    "su_unigrams": "su",
    "wlcs": "w",
    "hori_units": "hori",
    "average": "avg",
    "bootstrap": "boot",
    "resamples": "r",
    "confidence": "c",
    "seed": "seed",
    "test": "test",
    "trials": "trials",
    "test_seed": "test_seed",
    "test_confidence": "test_c",
    "version": "v",
}
# printed only when set: a language preset, the unicode fold and its segmenter; the token ids dropped;
# rougekit compare's test
_OPTIONAL = ("lang", "fold", "segmenter", "ignore_ids", "test", "trials", "test_seed", "test_confidence")
# the tokenizers that fold their text (text.tokenizers.fold), so whose signature says the fold's version
_FOLDING = ("unicode", "cjk")
#: the folds a signature may name: version -> what it did
FOLDS = {
    "1": "unversioned: NFKC and case folding, with some of version 2's steps, one of which dropped more marks "
    "than version 2 (rougekit 0.1.0 before the fold had a version: tok:unicode or tok:cjk and no fold:)",
    "2": "NFKC, case folding, Turkish İ as i, optional Arabic and Hebrew marks and zero-width joiners dropped, "
    "decimal digits of every script as ASCII",
}
_UNSAFE = re.compile(r"[%|\s]|[^\x20-\x7e\u00a0-\U0010ffff]")


@dataclass(frozen=True)
class Signature:
    """The printed form of the options: every field is the text shown after its key."""

    measures: str
    lang: str = ""  # the language preset (ISO code)
    tokenizer: str = "rouge155"
    fold: str = ""  # the unicode / cjk tokenizer's normal form (FOLDS); set from the tokenizer when not given
    segmenter: str = ""  # e.g. jieba-0.42.1
    sentences: str = "newline"  # how a text was cut into sentences: at line breaks, or at a marker (``<q>``)
    stemmer: str = "none"  # none, rouge155 (-m) or a preset's, e.g. snowball-russian/pystemmer-3.1.0
    stopwords: bool = False
    limit: str = "none"  # none | words:N | bytes:N
    ignore_ids: str = ""  # token ids dropped from every token-id summary, e.g. 0 or 0,2
    multi_ref: str = "sum"
    alpha: str = "0.5"
    su_unigrams: str = "rouge155"
    wlcs: str = "rouge155"
    hori_units: str = "word"
    average: str = "pairs"
    bootstrap: str = "rouge155"
    resamples: int = 1000
    confidence: str = "95"
    seed: str = "none"
    test: str = ""  # the significance test of ``rougekit compare``
    trials: int = 0
    test_seed: str = ""
    test_confidence: str = ""
    version: str = __version__

    def __post_init__(self):
        if not self.fold and self.tokenizer in _FOLDING:  # a folding tokenizer scored now: today's fold
            object.__setattr__(self, "fold", FOLD_VERSION)

    @property
    def stem(self) -> bool:
        """True when a stemmer is applied (ROUGE-1.5.5's -m)."""
        return self.stemmer != "none"

    @classmethod
    def from_options(cls, options, **test) -> "Signature":
        """The signature of :class:`~rougekit.engine.options.ScoringOptions`; ``test=...`` adds compare's fields."""
        from rougekit.text import presets

        o = options
        boot = o.bootstrap
        lang = o.lang
        sig = cls(
            measures=",".join(m.name for m in o.measures),
            lang=lang or "",
            tokenizer=o.tokenizer_name,
            segmenter=presets.segmenter_name(lang),
            stemmer=presets.stemmer_name(lang, o.stem),  # what really stems: never a stemmer that does nothing
            stopwords=bool(o.stopwords),
            limit=o.limit,
            ignore_ids=",".join(map(str, o.ignore_ids)),
            # none when no measure takes the rule (BLEU, Ngram, Hori pool references their own way)
            multi_ref=o.multi_ref if any(not m.references_rule for m in o.measures) else "none",
            alpha=number(o.alpha),
            su_unigrams=o.su_unigrams,
            wlcs=o.wlcs,
            hori_units=o.hori_units,
            average=o.average,
            bootstrap=str(boot).lower(),
            resamples=o.resamples if boot else 0,
            confidence=number(o.confidence) if boot else "none",
            seed=str(o.seed) if boot == "percentile" else "none",
        )
        return replace(sig, **test) if test else sig

    def with_sentences(self, sentence_sep: str | None) -> "Signature":
        """This signature with the sentence split of ``--sentence-sep`` (None or empty: at line breaks)."""
        return replace(self, sentences=sentence_split(sentence_sep))

    def __str__(self) -> str:
        parts = ["rougekit"]
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name in _OPTIONAL and value == f.default:
                continue
            if isinstance(value, bool):
                value = "yes" if value else "no"
            parts.append(f"{_KEYS[f.name]}:{_escape(str(value))}")
        return "|".join(parts)

    @classmethod
    def parse(cls, text: str) -> "Signature":
        """Read a signature string back (inverse of ``str``)."""
        parts = text.strip().split("|")
        if parts[0] != "rougekit":
            raise OptionError(f"not a rougekit signature: {text!r}")
        by_key = {v: k for k, v in _KEYS.items()}
        types = {f.name: f.type for f in fields(cls)}
        values: dict = {}
        for part in parts[1:]:
            key, sep, raw = part.partition(":")
            if not sep or key not in by_key:
                raise OptionError(f"bad signature field {part!r}")
            name, value = by_key[key], unquote(raw)
            if types[name] == "bool":
                if value not in ("yes", "no"):
                    raise OptionError(f"signature field {key} must be yes or no, got {value!r}")
                values[name] = value == "yes"
            elif types[name] == "int":
                try:
                    values[name] = int(value)
                except ValueError:
                    raise OptionError(f"signature field {key} must be an integer, got {value!r}") from None
            else:
                values[name] = value
        if "measures" not in values:
            raise OptionError("signature has no measures field (m:...)")
        folding = values.get("tokenizer") in _FOLDING
        if folding and "fold" not in values:
            values["fold"] = "1"  # written before the fold had a version: unversioned, not today's
        if "fold" in values and (not folding or values["fold"] not in FOLDS):
            why = f"one of {', '.join(FOLDS)}" if folding else "given only with tok:unicode or tok:cjk"
            raise OptionError(f"signature field fold must be {why}, got {values['fold']!r}")
        return cls(**values)


def sentence_split(sentence_sep: str | None) -> str:
    """The ``sent`` field of a sentence marker: ``newline`` without one, else the marker itself."""
    return sentence_sep if sentence_sep else "newline"


def number(x: float) -> str:
    """A float as short as it reads back exactly: 0.5 -> "0.5", 95.0 -> "95", 1/3 -> "0.3333333333333333"."""
    short = f"{x:g}"
    return short if float(short) == x else repr(float(x))


def _escape(value: str) -> str:
    """``%XX`` (UTF-8) for ``%``, ``|``, white space and unprintable characters; the rest as is."""
    return _UNSAFE.sub(lambda m: "".join(f"%{b:02X}" for b in m.group().encode("utf-8", "surrogatepass")), value)
