"""rougekit.compat.rouge_scorer / scoring against Google's rouge-score 0.1.2 (and nltk's stemmer).

The reference packages are test-only dependencies; every comparison test skips
with a clear reason when they are missing.  Pairs are generated with a seeded
generator from the real summaries under ``<shared>/data`` (SummEval, RealSumm)
when present, otherwise from a built-in word list.
"""

from __future__ import annotations

import functools
import json
import random
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from _paths import BUNDLED, SHARED, shared_missing, subprocess_env

from rougekit.compat import _porter_nltk, rouge_scorer, scoring
from rougekit.compat._tokenize import split_sentences, tokenize

REPO = Path(__file__).resolve().parents[1]
DATA = SHARED / "data"
EXCEPTIONS = REPO / "src" / "rougekit" / "text" / "data" / "wordnet-2.0-exceptions.tsv"

TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
N_PAIRS = 2000
TOL = 1e-12


def _require_rouge_score():
    try:
        from rouge_score import rouge_scorer as rs  # noqa: F401
    except ImportError as exc:  # pragma: no cover - depends on the environment
        pytest.skip(f"rouge-score 0.1.2 (test dependency) is not installed: {exc}")
    return rs


def _reference_scorer(rs, types, use_stemmer=False, **kw):
    """rouge-score's scorer, with nltk's (deterministic) stemmer memoized to save test time."""
    scorer = rs.RougeScorer(types, use_stemmer=use_stemmer, **kw)
    stemmer = getattr(getattr(scorer, "_tokenizer", None), "_stemmer", None)
    if stemmer is not None:
        stemmer.stem = functools.lru_cache(maxsize=None)(stemmer.stem)
    return scorer


def _require_nltk_porter():
    try:
        from nltk.stem.porter import PorterStemmer
    except ImportError as exc:  # pragma: no cover
        pytest.skip(f"nltk (test dependency) is not installed: {exc}")
    return PorterStemmer()


# --------------------------------------------------------------------------- test texts

_WORDS = (
    "the a of to and in is was for on that with as by at from it be has have had he she "
    "they we you said says saying government governments president presidential minister "
    "police officers officer reported reports reporting running runs ran happily happiness "
    "generalization generalize general relational conditional rational valency hesitancy "
    "digitizer conformably radically differently vilely analogously vietnamization "
    "predication operator feudalism decisiveness hopefulness callousness formality "
    "sensitivity sensibility triplicate formative formalize electricity electrical hopeful "
    "goodness revival allowance inference airliner gyroscopic adjustable defensible irritant "
    "replacement adjustment dependent adoption homologous communism activate angularity "
    "effective bowdlerize probate rate cease controlling roll skies dying lying news innings "
    "caresses ponies ties cats feed agreed plastered bled motoring sing conflated troubled "
    "sized hopping tanned falling hissing fizzed failing filing happy sky enjoy spied died "
    "flies proceed exceed succeed studies studied trying tried fly flying logically "
    "archaeology geology football players team match win won cup league minute minutes"
).split()


_PUNCT = [".", ",", "!", "?", "--", "'s", "(", ")", '"', ";", "...", "\n"]


def _synthetic_text(rng: random.Random) -> str:
    """A text from the built-in vocabulary with punctuation, digits, case and newlines."""
    out = []
    for _ in range(rng.randint(0, 40)):
        r = rng.random()
        if r < 0.06:
            out.append(rng.choice(_PUNCT))
        elif r < 0.10:
            out.append(rng.choice(["1990s", "3.5", "$100", "42", "2-0", "u.s.", "co-op", "e-mail"]))
        else:
            w = rng.choice(_WORDS)
            c = rng.random()
            out.append(w.upper() if c < 0.05 else w.title() if c < 0.2 else w)
    return " ".join(out)


def _sentences_of(text: str) -> list[str]:
    """Sentences of a (tokenized) SummEval / RealSumm summary."""
    if "<t>" in text:
        parts = re.findall(r"<t>(.*?)</t>", text, flags=re.S)
    else:
        parts = re.split(r"(?<=[.!?])\s+", text)
    return [p.strip() for p in parts if p.strip()]


def _load_groups() -> list[tuple[list[str], list[str]]]:
    """``(references, system summaries)`` per document from the shared data, if present."""
    groups: list[tuple[list[str], list[str]]] = []
    summeval = DATA / "summeval" / "summeval.jsonl"
    if summeval.is_file():
        with open(summeval, encoding="utf-8") as fh:
            for line in fh:
                d = json.loads(line)
                refs = [r for r in d.get("ref_summs", []) if isinstance(r, str)]
                sums = [v["sys_summ"] for v in d.get("sys_summs", {}).values()]
                if refs and sums:
                    groups.append((refs, sums))
    realsumm = DATA / "realsumm" / "scores" / "realsumm_summaries.jsonl"
    if realsumm.is_file():
        by_doc: dict = {}
        with open(realsumm, encoding="utf-8") as fh:
            for line in fh:
                d = json.loads(line)
                key = (d.get("subset"), d.get("doc_id"))
                refs, sums = by_doc.setdefault(key, ([], []))
                if d.get("ref_summ") and d["ref_summ"] not in refs:
                    refs.append(d["ref_summ"])
                if d.get("system_summary"):
                    sums.append(d["system_summary"])
        groups.extend(g for g in by_doc.values() if g[0] and g[1])
    return groups


_NOISE = [
    "3.5",
    "1990s",
    "$100",
    "--",
    "co-op",
    "U.S.",
    "Café",
    "naïve",
    "—",
    "'s",
    "(",
    ")",
    "K",
    "İstanbul",
    "ﬁne",
    "e-mail",
    ",",
    ";",
    "!!",
    "...",
]


def _reshape(text: str, rng: random.Random) -> str:
    """Re-lay a summary: newline- or space-joined sentences, case and punctuation noise."""
    sents = _sentences_of(text) if rng.random() < 0.9 else [text]
    if rng.random() < 0.3:
        rng.shuffle(sents)
    if rng.random() < 0.2:
        sents = sents[: rng.randint(0, len(sents))]
    r = rng.random()
    joiner = "\n" if r < 0.6 else " " if r < 0.85 else "\n\n"
    out = joiner.join(sents)
    if rng.random() < 0.3:
        words = out.split(" ")
        for _ in range(rng.randint(1, 5)):
            i = rng.randrange(len(words) + 1)
            words.insert(i, rng.choice(_NOISE))
        out = " ".join(words)
    c = rng.random()
    if c < 0.1:
        out = out.upper()
    elif c < 0.2:
        out = out.lower()
    if rng.random() < 0.05:
        out = "\n" + out + "\n"
    return out


EDGE_TEXTS = [
    "",
    " ",
    "\n",
    "\n\n\n",
    "...",
    "!!! ???",
    "-- , ;",
    "a",
    "The",
    "the the the the",
    "Ünïcödé ßtraße",
    "\u212a",
    "İstanbul",
    "hello\n\nworld",
    "123 456",
    "x\n.\ny",
    "dying lying tying skies news",
    "Happy flies spied",
]


def _pairs() -> list[tuple[str, str]]:
    rng = random.Random(20240611)
    groups = _load_groups()
    pairs: list[tuple[str, str]] = []
    while len(pairs) < N_PAIRS:
        if groups:
            refs, sums = rng.choice(groups)
            target = _reshape(rng.choice(refs), rng)
            r = rng.random()
            if r < 0.8:
                prediction = _reshape(rng.choice(sums), rng)
            elif r < 0.9:
                prediction = _reshape(rng.choice(rng.choice(groups)[1]), rng)
            else:
                prediction = _reshape(rng.choice(refs), rng)
        else:
            target, prediction = _synthetic_text(rng), _synthetic_text(rng)
        pairs.append((target, prediction))
    pairs.extend((a, b) for a in EDGE_TEXTS for b in EDGE_TEXTS)
    return pairs


_PAIRS_CACHE: list = []


def _all_pairs() -> list[tuple[str, str]]:
    if not _PAIRS_CACHE:
        _PAIRS_CACHE.extend(_pairs())
    return _PAIRS_CACHE


def _max_diff(a: dict, b: dict) -> float:
    assert list(a) == list(b)
    return max((abs(x - y) for k in a for x, y in zip(a[k], b[k])), default=0.0)


# --------------------------------------------------------------------------- scorer parity


@pytest.mark.parametrize("use_stemmer", [False, True])
def test_score_matches_rouge_score(use_stemmer):
    rs = _require_rouge_score()
    pairs = _all_pairs()
    assert len(pairs) >= 2000
    ours = rouge_scorer.RougeScorer(TYPES, use_stemmer=use_stemmer)
    theirs = _reference_scorer(rs, TYPES, use_stemmer)
    worst = 0.0
    not_identical = []
    for target, prediction in pairs:
        a = ours.score(target, prediction)
        b = theirs.score(target, prediction)
        worst = max(worst, _max_diff(a, b))
        if repr(a) != repr(b):  # bit-identical values, and the same int/float zeros
            not_identical.append((target, prediction, a, b))
    assert worst <= TOL
    assert not not_identical, not_identical[:3]


def test_ids_cached_by_text_and_rouge_types_changed_in_place(monkeypatch):
    # score() remembers each text's token ids (one vocabulary per scorer, started afresh past its
    # bound) and its plan of the types: the same texts again, and types changed after construction
    # (in place, or replaced), keep rouge-score's numbers
    rs = _require_rouge_score()
    pairs = _all_pairs()[:150]
    monkeypatch.setattr(rouge_scorer, "_VOCAB_LIMIT", 60)
    types = ["rouge1"]
    ours = rouge_scorer.RougeScorer(types, use_stemmer=True)
    for rounds in range(2):
        for i, (target, prediction) in enumerate(pairs):
            if i == 50 and rounds == 0:
                types += ["rougeLsum", "rouge3"]
            if i == 100:
                ours.rouge_types = TYPES if rounds == 0 else ("rougeL", "rouge2")
            theirs = _reference_scorer(rs, list(ours.rouge_types), True)
            assert repr(ours.score(target, prediction)) == repr(theirs.score(target, prediction))
    assert len(ours._vocab) <= 60 + 200


@pytest.mark.parametrize("use_stemmer", [False, True])
def test_score_batch_equals_score(use_stemmer):
    """score_batch (compiled, threaded) gives score()'s values bit for bit, int zeros included."""
    pairs = _all_pairs()
    targets, predictions = [t for t, _ in pairs], [p for _, p in pairs]
    for types in (TYPES, ["rougeLsum"], ["rougeL", "rouge3", "rouge9"]):
        ours = rouge_scorer.RougeScorer(types, use_stemmer=use_stemmer)
        expected = [repr(ours.score(t, p)) for t, p in pairs]
        for jobs in (1, 2):
            got = ours.score_batch(targets, predictions, jobs=jobs)
            assert [repr(x) for x in got] == expected
    if rouge_scorer.RougeScorer(TYPES)._batch_scorer() is None:
        pytest.skip("the compiled batch scorer is not built (score_batch fell back to score)")


def test_score_batch_takes_bytes_as_score_does():
    scorer = rouge_scorer.RougeScorer(TYPES, use_stemmer=True)
    targets = [b"The Cat sat.\nOn the MAT", "caf\u00e9 \u212aelvin", b""]
    predictions = ["the cats sat on mats", b"CAFE kelvin", b"x"]
    expected = [repr(scorer.score(t, p)) for t, p in zip(targets, predictions)]
    assert [repr(x) for x in scorer.score_batch(targets, predictions)] == expected


def test_score_batch_falls_back_and_checks_lengths():
    scorer = rouge_scorer.RougeScorer(["rouge1"], split_summaries=True)
    assert scorer.score_batch(["a b c"], ["a b"]) == [scorer.score("a b c", "a b")]
    with pytest.raises(ValueError):
        scorer.score_batch(["a"], [])
    with pytest.raises(ValueError):
        rouge_scorer.RougeScorer(["rougeX"]).score_batch(["a"], ["a"])


def test_single_type_and_higher_orders_match_rouge_score():
    rs = _require_rouge_score()
    pairs = _all_pairs()[::20]
    for types in (["rougeLsum"], ["rougeL"], ["rouge3", "rouge4", "rouge9"]):
        for stem in (False, True):
            ours = rouge_scorer.RougeScorer(types, use_stemmer=stem)
            theirs = _reference_scorer(rs, types, stem)
            for target, prediction in pairs:
                a = ours.score(target, prediction)
                assert repr(a) == repr(theirs.score(target, prediction))


@pytest.mark.parametrize("use_stemmer", [False, True])
def test_score_multi_matches_rouge_score(use_stemmer):
    rs = _require_rouge_score()
    rng = random.Random(7)
    groups = _load_groups()
    ours = rouge_scorer.RougeScorer(TYPES, use_stemmer=use_stemmer)
    theirs = _reference_scorer(rs, TYPES, use_stemmer)
    cases = 0
    for _ in range(120):
        if groups:
            refs, sums = rng.choice(groups)
            chosen = rng.sample(refs, rng.randint(1, min(6, len(refs))))
            targets = [_reshape(r, rng) for r in chosen]
            prediction = _reshape(rng.choice(sums), rng)
        else:
            targets = [_synthetic_text(rng) for _ in range(rng.randint(1, 5))]
            prediction = _synthetic_text(rng)
        if rng.random() < 0.15:
            targets.append(rng.choice(["", "...", targets[0]]))  # empty / duplicate targets (ties)
        if rng.random() < 0.05:
            prediction = rng.choice(["", " !! "])
        a = ours.score_multi(targets, prediction)
        b = theirs.score_multi(targets, prediction)
        assert _max_diff(a, b) <= TOL
        assert repr(a) == repr(b)
        cases += 1
    assert cases == 120


@pytest.mark.parametrize("use_stemmer", [False, True])
def test_line_tokens_are_the_lines_tokens_and_join_to_the_texts(use_stemmer):
    from rougekit.compat._tokenize import line_tokens

    rng = random.Random(7)
    pieces = list("aZ9 .,-\n\n\r\t") + ["\u212a", "\u0130", "\u03a3", "\u03c3x", "Running", "cats", "the"]
    texts = ["", "\n", "a\n\nb\n", "\nKelvin \u212aelvin\n", "\u03a3\u03a3 abc\u03a3\ndef"]
    texts += ["".join(rng.choice(pieces) for _ in range(rng.randrange(30))) for _ in range(3000)]
    for text in texts:
        lines = line_tokens(text, use_stemmer)
        assert lines == [tokenize(line, use_stemmer) for line in text.split("\n") if line], repr(text)
        assert [t for line in lines for t in line] == tokenize(text, use_stemmer), repr(text)
    assert line_tokens("The cats\n\nare RUNNING.", True) == [["the", "cat"], ["are", "run"]]


def test_tokenizer_matches_rouge_score():
    _require_rouge_score()
    from nltk.stem.porter import PorterStemmer
    from rouge_score import tokenize as rs_tokenize

    stemmer = PorterStemmer()
    stemmer.stem = functools.lru_cache(maxsize=None)(stemmer.stem)
    texts = [t for pair in _all_pairs()[:300] for t in pair] + EDGE_TEXTS + [b"Bytes TEXT, too."]
    for text in texts:
        assert tokenize(text) == rs_tokenize.tokenize(text, None)
        assert tokenize(text, True) == rs_tokenize.tokenize(text, stemmer)


def test_custom_tokenizer_is_used():
    rs = _require_rouge_score()

    class Whitespace:
        def tokenize(self, text):
            return text.split()

    ours = rouge_scorer.RougeScorer(TYPES, tokenizer=Whitespace())
    theirs = rs.RougeScorer(TYPES, tokenizer=Whitespace())
    for target, prediction in _all_pairs()[:150]:
        assert repr(ours.score(target, prediction)) == repr(theirs.score(target, prediction))


def test_invalid_types_raise_like_rouge_score():
    rs = _require_rouge_score()
    for bad in (["rouge0"], ["rougeX"], ["rouge10"], ["rougeW"]):
        with pytest.raises(ValueError):
            rs.RougeScorer(bad).score("a b", "a b")
        with pytest.raises(ValueError):
            rouge_scorer.RougeScorer(bad).score("a b", "a b")
    with pytest.raises(ValueError):
        rouge_scorer.RougeScorer(["rouge1"]).score_multi([], "a b")


def test_target_comes_first():
    scorer = rouge_scorer.RougeScorer(["rouge1"])
    s = scorer.score("a b c d", "a b")  # target (4 tokens), prediction (2 tokens)
    assert s["rouge1"].precision == 1.0 and s["rouge1"].recall == 0.5


# --------------------------------------------------------------------------- split_summaries


def test_split_summaries_scoring_given_sentences():
    """With split_summaries, rougeLsum equals rouge-score's on the same sentences."""
    rs = _require_rouge_score()
    ours = rouge_scorer.RougeScorer(["rougeLsum"], split_summaries=True)
    theirs = rs.RougeScorer(["rougeLsum"])  # newline-separated sentences
    for target, prediction in _all_pairs()[:400]:
        # A sentence of the splitter may contain newlines; for rouge-score they
        # are separators, so flatten them (tokens do not change).
        t = "\n".join(x.replace("\n", " ") for x in split_sentences(target))
        p = "\n".join(x.replace("\n", " ") for x in split_sentences(prediction))
        assert repr(ours.score(target, prediction)) == repr(theirs.score(t, p))


def test_split_summaries_against_nltk_where_splitters_agree(monkeypatch):
    """rouge-score's split_summaries=True runs nltk.sent_tokenize; where its sentences equal ours, the
    scores must be equal. With NLTK's trained English model when it is installed; otherwise with the
    small Punkt model written for the torchmetrics goldens (the real Punkt algorithm, nine abbreviations),
    since no registry package ships NLTK's punkt_tab and nothing is downloaded."""
    rs = _require_rouge_score()
    import nltk

    try:
        nltk.sent_tokenize("One. Two.")
    except LookupError:
        model = Path(__file__).parent / "goldens" / "torchmetrics" / "nltk_data"
        monkeypatch.setattr(nltk.data, "path", [str(model)])
        if hasattr(nltk.tokenize, "_get_punkt_tokenizer"):
            nltk.tokenize._get_punkt_tokenizer.cache_clear()
    ours = rouge_scorer.RougeScorer(["rougeLsum"], split_summaries=True)
    theirs = rs.RougeScorer(["rougeLsum"], split_summaries=True)
    compared = 0
    for target, prediction in _all_pairs()[:600]:
        if all(split_sentences(x) == nltk.sent_tokenize(x) for x in (target, prediction)):
            assert repr(ours.score(target, prediction)) == repr(theirs.score(target, prediction))
            compared += 1
    assert compared >= 100  # 440 of the 600 with the small model


def test_split_sentences_simple_cases():
    assert split_sentences("") == []
    assert split_sentences("One two. Three four! Five? Six") == ["One two.", "Three four!", "Five?", "Six"]
    assert split_sentences("Mr. Smith met Dr. Jones in the U.S. today. Then left.") == [
        "Mr. Smith met Dr. Jones in the U.S. today.",
        "Then left.",
    ]
    assert split_sentences('He said "stop." She did.') == ['He said "stop."', "She did."]
    assert split_sentences("J. K. Rowling wrote it.\nNo break\nhere") == ["J. K. Rowling wrote it.", "No break\nhere"]
    assert split_sentences("3.5 percent. ok") == ["3.5 percent.", "ok"]


# --------------------------------------------------------------------------- LCS functions


def _random_sents(rng, k, min_len, max_len, max_sents, as_str):
    def tok():
        t = rng.randrange(k)
        return f"{t}" if as_str else t

    return [[tok() for _ in range(rng.randint(min_len, max_len))] for _ in range(rng.randint(1, max_sents))]


@pytest.mark.parametrize("kernels", ["pure", "compiled"])
def test_engine_lcs_agrees_with_rouge_score(kernels):
    """The engine's union LCS (rougeLsum) and one-sentence LCS (rougeL) against rouge-score's own
    functions, for the pure twin and the compiled kernel."""
    _require_rouge_score()
    from rouge_score import rouge_scorer as rs

    if kernels == "pure":
        from rougekit._core import _pure as K
    else:
        K = pytest.importorskip("rougekit._core._batch", reason="the compiled kernels are not built")
    rng = random.Random(4)
    for _ in range(400):
        k = rng.randint(1, 5)
        refs = _random_sents(rng, k, 1, 10, 3, as_str=True)
        cands = _random_sents(rng, k, 1, 10, 3, as_str=True)
        ids = {}
        ref_ids = [[ids.setdefault(t, len(ids)) for t in s] for s in refs]
        cand_ids = [[ids.setdefault(t, len(ids)) for t in s] for s in cands]
        flat_r = [t for s in ref_ids for t in s]
        flat_c = [t for s in cand_ids for t in s]
        hits = K.lcs_union_hits(cand_ids, ref_ids, flat_c, flat_r)
        assert hits / len(flat_r) == rs._summary_level_lcs(refs, cands).recall
        lcs = K.lcs_union_hits([flat_c], [flat_r], flat_c, flat_r)
        assert lcs == rs._lcs_table([t for s in refs for t in s], [t for s in cands for t in s])[-1][-1]


# --------------------------------------------------------------------------- stemmer


@functools.lru_cache(maxsize=None)
def _shared_words() -> frozenset[str]:
    """Every lower-cased word of the text files under ``<shared>/data`` (empty when it is absent)."""
    words: set[str] = set()
    if DATA.is_dir():
        for path in sorted(DATA.rglob("*")):
            if (
                path.suffix in (".jsonl", ".json", ".txt", ".csv", ".tsv", ".md", ".xml", ".html")
                and path.is_file()
                and path.stat().st_size < 64 * 2**20
            ):
                words.update(re.findall(r"[a-z0-9]+", path.read_text("utf-8", "ignore").lower()))
    return frozenset(words)


def _stemmer_words() -> list[str]:
    """The shared words (if any), the WordNet exceptions, the built-in list and 25k synthetic words."""
    words: set[str] = set(_shared_words())
    with open(EXCEPTIONS, encoding="utf-8") as fh:
        for line in fh:
            if not line.startswith("#"):
                words.update(re.findall(r"[a-z0-9]+", line.lower()))
    words.update(_WORDS)
    # Synthetic words: random stems over a small alphabet (lots of y's, doubles and
    # c-v-c endings) with every suffix the rules look at.
    suffixes = (
        "",
        "s",
        "es",
        "ies",
        "ied",
        "ed",
        "ing",
        "eed",
        "y",
        "ly",
        "alli",
        "ational",
        "tional",
        "enci",
        "anci",
        "izer",
        "bli",
        "entli",
        "eli",
        "ousli",
        "ization",
        "ation",
        "ator",
        "alism",
        "iveness",
        "fulness",
        "ousness",
        "aliti",
        "iviti",
        "biliti",
        "fulli",
        "logi",
        "icate",
        "ative",
        "alize",
        "iciti",
        "ical",
        "ful",
        "ness",
        "al",
        "ance",
        "ence",
        "er",
        "ic",
        "able",
        "ible",
        "ant",
        "ement",
        "ment",
        "ent",
        "sion",
        "tion",
        "ion",
        "ou",
        "ism",
        "ate",
        "iti",
        "ous",
        "ive",
        "ize",
        "e",
        "ll",
        "sses",
        "ss",
        "at",
        "bl",
        "iz",
    )
    rng = random.Random(11)
    alphabet = "aeiouyylsztbcdgnrwx1"
    for _ in range(25000):
        stem = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 6)))
        words.add(stem + rng.choice(suffixes) + rng.choice(("", "", "s", "ed", "ing", "y", "e")))
    words.discard("")
    return sorted(words)


def _assert_stems_match_nltk(words) -> None:
    nltk_porter = _require_nltk_porter()
    mismatches = [
        (w, nltk_porter.stem(w), _porter_nltk.stem(w)) for w in words if nltk_porter.stem(w) != _porter_nltk.stem(w)
    ]
    assert not mismatches, f"{len(mismatches)} of {len(words)} differ, e.g. {mismatches[:10]}"


def test_stemmer_matches_nltk_porter():
    words = _stemmer_words()
    assert len(words) > 30000  # ~30.7k without the shared data, ~109k with it
    _assert_stems_match_nltk(words)


def test_stemmer_words_include_the_shared_data():
    """The shared texts add ~80k real words to the comparison above (44.4k from the part of them
    tests/data carries, 74.0k words in all, since the bundle holds only what may be carried); without
    them it runs on ~30k."""
    if not DATA.is_dir():
        pytest.skip(shared_missing(DATA))
    if BUNDLED:
        assert len(_shared_words()) > 40000
        assert len(_stemmer_words()) > 70000
    else:
        assert len(_shared_words()) > 50000
        assert len(_stemmer_words()) > 100000


def test_stemmer_examples():
    stem = _porter_nltk.stem
    cases = {
        "caresses": "caress",
        "ponies": "poni",
        "ties": "tie",
        "dying": "die",
        "skies": "sky",
        "happy": "happi",
        "enjoy": "enjoy",
        "spied": "spi",
        "died": "die",
        "generalization": "gener",
        "hopping": "hop",
        "filing": "file",
        "controll": "control",
        "news": "news",
        "archaeology": "archaeolog",
        "yyyy": "yyyi",
        "at": "at",
    }
    for word, expected in cases.items():
        assert stem(word) == expected, word
    assert _porter_nltk.PorterStemmer().stem("Running") == "run"


# --------------------------------------------------------------------------- no run-time deps


def test_compat_imports_neither_rouge_score_nor_nltk():
    code = (
        "import sys\n"
        "from rougekit.compat import rouge_scorer, scoring\n"
        "s = rouge_scorer.RougeScorer(['rouge1', 'rougeL', 'rougeLsum'], use_stemmer=True,"
        " split_summaries=True)\n"
        "s.score('Running dogs. Ran.', 'The dog runs.')\n"
        "a = scoring.BootstrapAggregator(n_samples=10); a.add_scores(s.score('a', 'a'))\n"
        "a.aggregate()\n"
        "bad = [m for m in sys.modules if m.split('.')[0] in ('rouge_score', 'nltk', 'absl')]\n"
        "assert not bad, bad\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, env=subprocess_env())


# --------------------------------------------------------------------------- aggregator


def _some_scores(n=57, seed=5):
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(n):
        p, r = rng.random(), rng.random()
        out.append(
            {
                "rouge1": scoring.Score(p, r, scoring.fmeasure(p, r)),
                "rougeL": scoring.Score(p / 2, r / 2, scoring.fmeasure(p / 2, r / 2)),
            }
        )
    return out


def _aggregate(seed, scores, **kw):
    agg = scoring.BootstrapAggregator(seed=seed, **kw)
    for s in scores:
        agg.add_scores(s)
    return agg.aggregate()


def test_aggregator_reproducible_and_ordered():
    scores = _some_scores()
    a = _aggregate(123, scores)
    b = _aggregate(123, scores)
    assert a == b
    default = scoring.BootstrapAggregator()  # seed=None: numpy's global state, as rouge-score
    for s in scores:
        default.add_scores(s)
    np.random.seed(0)
    first = default.aggregate()
    np.random.seed(0)
    assert default.aggregate() == first != _aggregate(0, scores)
    assert _aggregate(124, scores) != a
    for agg in a.values():
        assert isinstance(agg, scoring.AggregateScore)
        assert isinstance(agg.mid, scoring.Score)
        for lo, mid, hi in zip(agg.low, agg.mid, agg.high):
            assert lo <= mid <= hi


def test_aggregator_mid_is_median_of_resample_means():
    scores = _some_scores()
    n_samples, ci, seed = 500, 0.9, 42
    result = _aggregate(seed, scores, n_samples=n_samples, confidence_interval=ci)
    for score_type in ("rouge1", "rougeL"):
        matrix = np.array([tuple(s[score_type]) for s in scores], dtype=float)
        rng = np.random.default_rng(seed)
        means = np.array(
            [matrix[rng.integers(0, len(matrix), size=len(matrix))].mean(axis=0) for _ in range(n_samples)]
        )
        mid = np.median(means, axis=0)
        assert np.allclose(result[score_type].mid, mid, rtol=0, atol=1e-15)
        low, high = np.percentile(means, [5, 95], axis=0)
        assert np.allclose(result[score_type].low, low, rtol=0, atol=1e-15)
        assert np.allclose(result[score_type].high, high, rtol=0, atol=1e-15)
        # mid is the median of resample means, close to (but not) the plain mean
        assert np.allclose(result[score_type].mid, matrix.mean(axis=0), atol=0.02)


def test_aggregator_edge_cases():
    with pytest.raises(ValueError):
        scoring.BootstrapAggregator(confidence_interval=1.5)
    with pytest.raises(ValueError):
        scoring.BootstrapAggregator(n_samples=0)
    assert scoring.BootstrapAggregator().aggregate() == {}
    one = _aggregate(0, [{"rouge1": scoring.Score(0.5, 0.25, 1 / 3)}])["rouge1"]
    assert one.low == one.mid == one.high == scoring.Score(0.5, 0.25, 1 / 3)


def test_aggregator_agrees_with_rouge_score():
    _require_rouge_score()
    from rouge_score import scoring as rs_scoring

    scores = _some_scores(n=200)
    np.random.seed(0)
    theirs = rs_scoring.BootstrapAggregator()
    for s in scores:
        theirs.add_scores(s)
    t = theirs.aggregate()
    o = _aggregate(0, scores)
    for k in t:  # same statistic, different random draws: close, not equal
        for field in ("low", "mid", "high"):
            assert np.allclose(getattr(o[k], field), getattr(t[k], field), atol=0.01)


AGGREGATOR_CASES = [(0, 200, {}), (1, 1, {}), (7, 57, {"n_samples": 333}), (3, 2000, {"confidence_interval": 0.5})]


@pytest.mark.parametrize(("np_seed", "n", "kw"), AGGREGATOR_CASES)
def test_aggregator_draws_from_numpys_global_state_bit_for_bit_as_rouge_score(np_seed, n, kw):
    """Issue 25, finding 11: ``np.random.seed(s)`` then aggregate gives rouge-score's very numbers
    (and types), and leaves numpy's global state where rouge-score leaves it."""
    _require_rouge_score()
    from rouge_score import scoring as rs_scoring

    scores = _some_scores(n=n)
    results = []
    for module in (rs_scoring, scoring):
        np.random.seed(np_seed)
        agg = module.BootstrapAggregator(**kw)
        for s in scores:
            agg.add_scores(s)
        results.append((agg.aggregate(), np.random.random()))
    (theirs, their_next), (ours, our_next) = results
    assert list(ours) == list(theirs) and their_next == our_next
    for key in theirs:
        for field in ("low", "mid", "high"):
            t, o = getattr(theirs[key], field), getattr(ours[key], field)
            assert type(o) is type(t) and [type(v) for v in o] == [type(v) for v in t]
            assert [float(v).hex() for v in o] == [float(v).hex() for v in t]


@pytest.mark.parametrize("n", [1, 2, 7, 40, 333, 1025, 5000])
def test_blocked_draws_are_rouge_scores_loop_bit_for_bit(n):
    """global_resample_means draws in blocks of rows (several block sizes here): the percentiles of
    its means are those of the installed rouge-score's loop, and it leaves the same global state."""
    _require_rouge_score()
    from rouge_score import scoring as rs_scoring

    matrix = np.random.RandomState(n).rand(n, 3)
    matrix[::4] = 0
    np.random.seed(n)
    theirs = rs_scoring.BootstrapAggregator()._bootstrap_resample(matrix)
    after = np.random.random_sample()
    delta = (1 - 0.95) / 2  # as rouge-score computes it (not quite 0.025)
    q = 100 * np.array([delta, 0.5, 1 - delta])
    for cells in (1, 3 * n + 1, 1 << 20):
        np.random.seed(n)
        ours = np.percentile(scoring.global_resample_means(matrix, 1000, cells), q, axis=0)
        assert np.array_equal(ours, theirs)
        assert np.random.random_sample() == after  # the same number of draws


def test_aggregator_with_a_seed_leaves_the_global_state_alone():
    scores = _some_scores()
    np.random.seed(5)
    expected = np.random.random()
    np.random.seed(5)
    first = _aggregate(11, scores)
    assert np.random.random() == expected
    np.random.seed(99)
    assert _aggregate(11, scores) == first  # the same numbers whatever the global state


def test_aggregator_errors_as_rouge_score():
    _require_rouge_score()
    from rouge_score import scoring as rs_scoring

    for kw in ({"n_samples": 2.5}, {"n_samples": 10.0}):
        raised = []
        for module in (rs_scoring, scoring):
            agg = module.BootstrapAggregator(**kw)
            agg.add_scores({"rouge1": scoring.Score(0.5, 0.5, 0.5)})
            with pytest.raises(Exception) as info:
                agg.aggregate()
            raised.append(type(info.value))
        assert raised[0] is raised[1] is TypeError


@pytest.mark.parametrize("use_stemmer", [False, True])
def test_score_batch_reads_lone_surrogates_as_rouge_score_does(use_stemmer):
    """rouge-score's tokenizer reads a lone surrogate (or an escaped byte) as a separator and scores the
    pair; score_batch's compiled call used to raise a bare UnicodeEncodeError instead."""
    rs = _require_rouge_score()
    rng = random.Random(9)
    words = ["the", "cat", "sat", "running", "dogs", "\ud800", "x\udfffy", "\udc80", "mat"]
    targets = [" ".join(rng.choice(words) for _ in range(rng.randint(1, 9))) for _ in range(200)]
    predictions = [" ".join(rng.choice(words) for _ in range(rng.randint(1, 9))) for _ in range(200)]
    types = ["rouge1", "rouge2", "rougeL"]
    theirs = _reference_scorer(rs, types, use_stemmer=use_stemmer)
    ours = rouge_scorer.RougeScorer(types, use_stemmer=use_stemmer)
    want = [theirs.score(t, p) for t, p in zip(targets, predictions)]
    assert ours.score_batch(targets, predictions) == want
    assert [ours.score(t, p) for t, p in zip(targets, predictions)] == want


def test_the_engine_reads_a_lone_surrogate_as_a_separator_in_rouge_score_s_mode():
    """Handled where the engine reads a text (no pass over the texts before it): each surrogate, lone
    or escaping a byte, gives the tokens a space in its place gives, in lines and in rougeLsum's lines."""
    from rougekit.engine import planner

    batch = planner.batch_scorer([rouge_scorer.SEQUENCE_LCS], stem=False, **rouge_scorer.ENGINE_OPTIONS)
    if batch is None:  # pragma: no cover - depends on the build
        pytest.skip("the compiled engine is not built")
    for text in ["the\ud800cat", "x\udfffy \udc80z", "\ud83d", "Caf\u00e9\udc80BAR\nK\ud800\u212a"]:
        spaced = re.sub("[\ud800-\udfff]", " ", text)
        assert batch.process(text) == batch.process(spaced)
        assert batch.tokens(text) == [batch.tokens(w)[0] for w in tokenize(spaced)]
