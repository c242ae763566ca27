"""rougekit.explain agrees with rougekit.score by construction: on random and real texts, under many
option combinations, the matches add up to the hits the engine counted for the pair, and the counts
are the engine's (``RougeResult.counts()``, from the compiled engine when it is built).

The batch path of the report's highlights (``rougekit.explanation.batch.matched_positions``) is held
to the same: its hits are the engine's, its marked positions those of explain's matches, and its
compiled kernel (the batch engine's ``batch_marks``, marks.pxi) gives exactly what its pure twin
(``_core._explain``) gives."""

from __future__ import annotations

import json
import re

import pytest

pytest.importorskip("hypothesis", reason="the explain property test needs hypothesis (the test extra)")
from _paths import SHARED, shared_missing  # noqa: E402
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

import rougekit  # noqa: E402
from rougekit.errors import InputError  # noqa: E402

MEASURES = [
    "ROUGE-1",
    "ROUGE-2",
    "ROUGE-3",
    "ROUGE-L",
    "ROUGE-W-1.2",
    "ROUGE-W-2",
    "ROUGE-S4",
    "ROUGE-SU4",
    "ROUGE-S*",
    "ROUGE-SU*",
    "ROUGE-S0",
    "ROUGE-1-DISTINCT",
    "ROUGE-2-DISTINCT",
    "ROUGE-L-DISTINCT",
]
# repeated words, stopwords, words the stemmer changes, punctuation, a hyphen and a non-ASCII word
WORDS = ["the", "cat", "cats", "sat", "on", "a", "mat", "running", "ran", "dogs", "of", "it", "mat.", "well-known"]
WORDS += ["café"]

sentence = st.lists(st.sampled_from(WORDS), min_size=0, max_size=7).map(" ".join)
summary = st.lists(sentence, min_size=1, max_size=3).map("\n".join)
option_sets = st.fixed_dictionaries(
    {},
    optional={
        "stem": st.booleans(),
        "stopwords": st.booleans(),
        "word_limit": st.integers(0, 8),
        "multi_ref": st.sampled_from(["sum", "best", "max", "jackknife"]),
        "tokenizer": st.sampled_from(["rouge155", "unicode"]),
        "su_unigrams": st.sampled_from(["rouge155", "all"]),
        "alpha": st.sampled_from([0.5, 0.8]),
    },
)


def check_consistent(candidate, references, options) -> None:
    """The explanation's matches and counts against the engine's per-pair counts, measure by measure."""
    try:
        engine = rougekit.score([candidate], [references], measures=MEASURES, bootstrap=None, **options)
    except InputError as error:  # ROUGE-W of an empty reference: both refuse it
        assert str(error).startswith("pair 1: "), error  # the engine names the pair; one pair is explained
        with pytest.raises(InputError, match="^" + re.escape(str(error).removeprefix("pair 1: ")) + "$"):
            rougekit.explain(candidate, references, measures=MEASURES, **options)
        return
    counts, scores = engine.counts()[0], engine.per_pair()[0]
    explanation = rougekit.explain(candidate, references, measures=MEASURES, **options)
    check_batch([candidate], [references], options, engine.counts(), [explanation])
    explained = explanation.to_dict()
    json.dumps(explained)  # JSON-serializable as it is
    n_refs = len(references)
    for name in MEASURES:
        e, c = explained["measures"][name], counts[name]
        assert e["counts"] == c, name
        assert (e["recall"], e["precision"], e["f"]) == tuple(scores[name][k] for k in ("recall", "precision", "f"))
        used = e["references_used"]
        if options.get("multi_ref", "sum") in ("sum", "jackknife"):
            assert used == list(range(n_refs))
        else:
            assert len(used) == 1
        assert e["reference_count"] == c["reference_count"] and e["hits"] == c["hits"], name
        assert e["candidate_count"] * len(used) == pytest.approx(c["candidate_count"], rel=1e-12), name
        per_ref = {r["reference"]: r["hits"] for r in e["per_reference"]}
        if name.startswith("ROUGE-W"):  # each run adds f(k), in the kernel's order, to its reference's hits
            for k in used:
                total = 0.0
                for x in e["matches"]:
                    if x["reference"] == k:
                        assert x["weight"] == x["count"] ** float(name.split("-")[2])
                        total += x["weight"]
                assert total == per_ref[k], (name, k)
        else:
            assert sum(x["count"] for x in e["matches"]) == c["hits"], name
        for x in e["matches"]:  # every occurrence points at the matched tokens on both sides
            _check_positions(x, e["positions"], explained, name)
    for side in [explained["candidate"], *explained["references"]]:
        _check_spans(side, options)


def _flat(positions: str, side, hits: set) -> list[int]:
    """Marked positions as the batch path numbers them: joined tokens, or flattened sentence units."""
    if positions != "sentences":
        return sorted(hits)
    offsets, at = [], 0
    for sentence in side.sentences:
        offsets.append(at)
        at += len(sentence)
    return sorted(offsets[s] + j for s, j in hits)


def check_batch(candidates, references, options, counts, explanations) -> None:
    """The batch path against the engine's hits and explain's marks; its two kernels against each other."""
    from unittest import mock

    from rougekit._core import _explain
    from rougekit.engine import backend
    from rougekit.explanation.batch import matched_positions
    from rougekit.explanation.views import marked

    got = matched_positions(candidates, references, MEASURES, **options)
    for p, e in enumerate(explanations):
        n_refs = len(e.references)
        for name in MEASURES:
            mm = got.measures[name]
            assert mm.hits[p] == counts[p][name]["hits"], (name, p)
            cand, refs = marked(e[name], n_refs)
            assert mm.candidate_positions(p) == _flat(e[name].positions, e.candidate, cand), (name, p)
            for k in range(n_refs):
                want = _flat(e[name].positions, e.references[k], refs[k])
                assert mm.reference_positions(int(got.ref_off[p]) + k) == want, (name, p, k)
    if backend.compiled():
        with mock.patch.object(backend, "marks_kernel", lambda: _explain):
            twin = matched_positions(candidates, references, MEASURES, **options)
        for name in MEASURES:
            a, b = got.measures[name], twin.measures[name]
            assert a.hits.tolist() == b.hits.tolist(), name
            assert a.candidate.tolist() == b.candidate.tolist() and a.reference.tolist() == b.reference.tolist(), name


def _check_spans(side: dict, options: dict) -> None:
    """The spans point at each token's run of the text as given (the tokens before stemming)."""
    plain = side.get("words", side["tokens"])
    if options.get("tokenizer", "rouge155") == "rouge155":
        assert side["spans"] is not None
    if side["spans"] is None:
        return
    assert len(side["spans"]) == len(plain)
    for k, ((start, end), token) in enumerate(zip(side["spans"], plain)):
        run = side["text"][start:end].lower()
        assert run == token or (k == len(plain) - 1 and run.startswith(token)), (run, token)


def _check_positions(x: dict, positions: str, explained: dict, name: str) -> None:
    cand, ref = explained["candidate"], explained["references"][x["reference"]]
    assert x["candidate_positions"] and x["reference_positions"], name
    for side, occurrences in ((cand, x["candidate_positions"]), (ref, x["reference_positions"])):
        for occ in occurrences:
            if positions == "sentences":
                seen = [side["sentences"][s][j] for s, j in occ]
            else:
                seen = [side["tokens"][i] for i in occ]
            if name.startswith("ROUGE-W"):
                assert set(seen) <= set(x["tokens"]), name
            else:
                assert seen == x["tokens"] or (len(seen) == 1 and seen[0] in x["tokens"]), name


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(summary, st.lists(summary, min_size=1, max_size=3), option_sets)
def test_random_texts(candidate, references, options):
    check_consistent(candidate, references, options)


@settings(max_examples=40, deadline=None)
@given(summary, summary, st.integers(1, 60))
def test_byte_limit(candidate, reference, limit):
    check_consistent(candidate, [reference], {"byte_limit": limit, "stem": True})


REALSUMM = SHARED / "data" / "realsumm" / "scores" / "realsumm_summaries.jsonl"


def _sentences(text: str) -> str:
    return "\n".join(s.strip() for s in re.findall(r"<t>(.*?)</t>", text)) or text


@pytest.mark.skipif(not REALSUMM.exists(), reason=shared_missing(REALSUMM))
@pytest.mark.parametrize("options", [{}, {"stem": True, "stopwords": True}, {"byte_limit": 200, "multi_ref": "best"}])
def test_real_summaries_in_one_batch(options):
    """The batch path over every 10th REALSumm line at once (two references each: the reference and
    the summary of the next line), against the engine's counts of the same call and explain."""
    lines = REALSUMM.read_text(encoding="utf-8").splitlines()[::10]
    rows = [json.loads(line) for line in lines]
    cands = [_sentences(r["system_summary"]) for r in rows]
    refs = [
        [_sentences(r["ref_summ"]), _sentences(rows[(k + 1) % len(rows)]["system_summary"])] for k, r in enumerate(rows)
    ]
    counts = rougekit.score(cands, refs, measures=MEASURES, bootstrap=None, **options).counts()
    explanations = [rougekit.explain(c, r, measures=MEASURES, **options) for c, r in zip(cands[:40], refs[:40])]
    check_batch(cands[:40], refs[:40], options, counts, explanations)
    from rougekit.explanation.batch import matched_positions

    got = matched_positions(cands, refs, MEASURES, **options)
    assert len(cands) >= 200
    for name in MEASURES:
        assert got.measures[name].hits.tolist() == [c[name]["hits"] for c in counts], name


@pytest.mark.skipif(not REALSUMM.exists(), reason=shared_missing(REALSUMM))
@pytest.mark.parametrize(
    "options", [{}, {"stem": True}, {"stem": True, "stopwords": True}, {"word_limit": 30}, {"byte_limit": 200}]
)
def test_real_summaries(options):
    """CNN/DM summaries of the REALSumm study against their references (every 50th line)."""
    lines = REALSUMM.read_text(encoding="utf-8").splitlines()[::50]
    assert len(lines) >= 40
    for line in lines:
        row = json.loads(line)
        check_consistent(_sentences(row["system_summary"]), [_sentences(row["ref_summ"])], options)


@settings(max_examples=30, deadline=None)
@given(
    st.lists(st.sampled_from(["Die", "Katzen", "Katze", "liefen", "lief", "schnell", "und", "Hund"]), max_size=9),
    st.lists(st.sampled_from(["die", "Katze", "läuft", "schnell", "Hunde", "und", "liefen"]), max_size=9),
)
def test_language_preset(candidate, reference):
    pytest.importorskip("Stemmer", reason="lang='de' stems with PyStemmer (the snowball extra, in the test extra)")
    check_consistent(" ".join(candidate), [" ".join(reference)], {"lang": "de", "stem": True})


def _both_kernels(candidates, references, measures):
    """matched_positions through the backend's kernel, and (compiled build only) through the twin."""
    from unittest import mock

    from rougekit._core import _explain
    from rougekit.engine import backend
    from rougekit.explanation.batch import matched_positions

    out = [matched_positions(candidates, references, measures)]
    if backend.compiled():
        with mock.patch.object(backend, "marks_kernel", lambda: _explain):
            out.append(matched_positions(candidates, references, measures))
    return out


def test_lcs_tie_break_by_hand():
    """Reference "dog cat", candidate "cat dog": both tokens tie for the LCS of length 1. The
    script's trace-back (from the last cells: no match, "up" when c(a-1, b) >= c(a, b-1), 1 >= 1)
    drops the reference's last token and keeps "dog": reference position 0, candidate position 1,
    for ROUGE-L and ROUGE-W, in the engine's kernel and in the twin."""
    for got in _both_kernels(["cat dog"], ["dog cat"], ["ROUGE-L", "ROUGE-W-1.2"]):
        for name in ("ROUGE-L", "ROUGE-W-1.2"):
            mm = got.measures[name]
            assert mm.hits.tolist() == [1.0], name
            assert mm.candidate_positions(0) == [1] and mm.reference_positions(0) == [0], name


def test_long_sentences_batch():
    """Sentences of 60-150 tokens (the union LCS's multi-word rows and trace-back; the <= 64-token
    row trace for the short ones): the batch marks' hits are the engine's, compiled == twin."""
    import random

    rng = random.Random(7)
    words = ["w%d" % k for k in range(12)]

    def text():
        return "\n".join(
            " ".join(rng.choice(words) for _ in range(rng.randint(1, 150))) for _ in range(rng.randint(1, 3))
        )

    cands = [text() for _ in range(12)]
    refs = [[text() for _ in range(rng.randint(1, 2))] for _ in range(12)]
    measures = ["ROUGE-1", "ROUGE-2", "ROUGE-L", "ROUGE-W-1.2", "ROUGE-SU4", "ROUGE-L-DISTINCT"]
    engine = rougekit.score(cands, refs, measures=measures, bootstrap=None).counts()
    runs = _both_kernels(cands, refs, measures)
    for name in measures:
        assert runs[0].measures[name].hits.tolist() == [c[name]["hits"] for c in engine], name
        for other in runs[1:]:
            a, b = runs[0].measures[name], other.measures[name]
            assert a.hits.tolist() == b.hits.tolist(), name
            assert a.candidate.tolist() == b.candidate.tolist() and a.reference.tolist() == b.reference.tolist(), name
            assert a.candidate.any() and a.reference.any(), name
