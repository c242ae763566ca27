"""rougekit.compat.rouge against the pltrdy ``rouge`` package 1.0.1 itself (installed from the registry).

Equality is to the last float bit and type: results are compared by ``repr`` (floats print their
shortest round-trip form, ints and floats print differently) and dict key order.
"""

from __future__ import annotations

import json
import random
import warnings

import numpy as np
import pytest
from _paths import SHARED, shared_missing

from rougekit.compat import rouge as ours

pltrdy = pytest.importorskip("rouge", reason="the pltrdy rouge package (pip install rouge==1.0.1) is not installed")
if getattr(pltrdy, "__version__", None) != "1.0.1":
    pytest.skip(f"rouge {pltrdy.__version__} is installed; these tests hold 1.0.1's numbers", allow_module_level=True)

SUMMEVAL = SHARED / "data" / "summeval" / "summeval.jsonl"
PLTRDY_SUITE = SHARED / "data" / "peer-rouge-test-suites" / "pltrdy-rouge"

CONFIGS = [
    {},
    {"exclusive": False},
    {"metrics": ["ROUGE-1", "rouge-3", "rouge-4", "rouge-5", "rouge-l"], "return_lengths": True},
    {"metrics": ["rouge-l", "rouge-2"], "exclusive": False, "return_lengths": True},
    {"raw_results": True},
    {"raw_results": True, "exclusive": False, "return_lengths": True},
    {"stats": ["F", "r"]},
    {"metrics": []},
]


def outcome(module, config, *args, **kwargs):
    """("ok", repr of the result) or (exception type name, message)."""
    try:
        return "ok", repr(module.Rouge(**config).get_scores(*args, **kwargs))
    except Exception as exc:  # noqa: BLE001 -- the type is what is compared
        return type(exc).__name__, str(exc)


def same(config, *args, **kwargs):
    theirs = outcome(pltrdy, config, *args, **kwargs)
    mine = outcome(ours, config, *args, **kwargs)
    assert mine == theirs, (config, args, kwargs)
    return theirs


# Dots, blank pieces (" . . "), tabs, repeated words and ties in the LCS trace-back.
WORDS = ["the", "cat", "sat", "on", "mat", "a", "dog", "ran", ".", " ", ".", "  ", "x.y", "The", "é", "cat,"]


def random_text(rng: random.Random) -> str:
    return "".join(rng.choice(WORDS) + rng.choice([" ", "", " ", "\t", "\n"]) for _ in range(rng.randint(0, 40)))


def usable(hyp: str, ref: str) -> bool:
    """Both sides have a sentence (else rouge raises ValueError)."""
    return any(piece for piece in hyp.split(".")) and any(piece for piece in ref.split("."))


@pytest.mark.parametrize("config", CONFIGS, ids=str)
def test_random_texts_pair_by_pair_and_averaged(config):
    rng = random.Random(13)
    pairs = [(random_text(rng), random_text(rng)) for _ in range(250)]
    errors = 0
    for hyp, ref in pairs:  # one call per pair: errors (empty sides) are compared too
        errors += same(config, hyp, ref)[0] != "ok"
    assert errors < len(pairs) and (errors > 0 or config.get("metrics") == [])
    kept = [p for p in pairs if usable(*p)]
    hyps, refs = [h for h, _ in kept], [r for _, r in kept]
    assert same(config, hyps, refs)[0] == "ok"
    same(config, hyps, refs, avg=True)  # raw_results with avg: rouge's KeyError
    same(config, [h for h, _ in pairs], [r for _, r in pairs], ignore_empty=True)


def test_long_repetitive_texts():
    """Many ties, and sentences longer than 64 words (several machine words per LCS row)."""
    rng = random.Random(5)
    for _ in range(12):
        hyp = " . ".join(" ".join(rng.choice("abcde") for _ in range(rng.randint(1, 150))) for _ in range(3))
        ref = " . ".join(" ".join(rng.choice("abcdf") for _ in range(rng.randint(1, 150))) for _ in range(2))
        for exclusive in (True, False):
            assert same({"raw_results": True, "exclusive": exclusive}, hyp, ref)[0] == "ok"


def summeval_pairs(step: int = 5):
    if not SUMMEVAL.is_file():
        pytest.skip(shared_missing(SUMMEVAL))
    docs = [json.loads(line) for line in SUMMEVAL.read_text(encoding="utf-8").splitlines()]
    pairs = []
    for d, doc in enumerate(docs):
        for s, system in enumerate(sorted(doc["sys_summs"])):
            pairs.append((doc["sys_summs"][system]["sys_summ"], doc["ref_summs"][(d + s) % len(doc["ref_summs"])]))
    return pairs[::step]


@pytest.mark.parametrize("config", [{"return_lengths": True}, {"exclusive": False, "return_lengths": True}], ids=str)
def test_summeval_summaries(config):
    pairs = summeval_pairs()
    hyps, refs = [h for h, _ in pairs], [r for _, r in pairs]
    assert len(pairs) == 320
    assert same(config, hyps, refs)[0] == "ok"
    assert same(config, hyps, refs, avg=True)[0] == "ok"


def test_the_public_test_texts_of_rouge():
    """pltrdy/rouge's own tests/ texts (its data.json scores are from an older release: the package is the oracle)."""
    data_path = PLTRDY_SUITE / "data.json"
    if not data_path.is_file():
        pytest.skip(shared_missing(data_path))
    data = json.loads(data_path.read_text(encoding="utf-8"))
    hyps, refs = [d["hyp"] for d in data], [d["ref"] for d in data]
    for config in CONFIGS:
        same(config, hyps[0], refs[0])
        same(config, hyps, refs)
        same(config, hyps, refs, avg=True)
    hyp_file, ref_file = str(PLTRDY_SUITE / "hyp.txt"), str(PLTRDY_SUITE / "ref.txt")
    expected = pltrdy.FilesRouge().get_scores(hyp_file, ref_file)
    assert repr(ours.FilesRouge().get_scores(hyp_file, ref_file)) == repr(expected)


def test_the_package_docstring_example():
    hyp = "the #### transcript is a written version of each day 's cnn student news program"
    ref = "this page includes the show transcript use the transcript to help students"
    assert repr(ours.Rouge().get_scores(hyp, ref)) == repr(pltrdy.Rouge().get_scores(hyp, ref))


def test_hand_computed_set_counting():
    # hyp words {the, cat, sat}: "the" twice counts once; ref {the, cat}
    scores = ours.Rouge(metrics=["rouge-1"], raw_results=True).get_scores("the cat the sat", "the cat")
    assert scores == [{"rouge-1": {"hyp": 3, "ref": 2, "overlap": 2}}]
    scores = ours.Rouge(metrics=["rouge-1"], raw_results=True, exclusive=False).get_scores("the cat the sat", "the cat")
    assert scores == [{"rouge-1": {"hyp": 4, "ref": 2, "overlap": 2}}]
    # non-exclusive rouge-l sums the LCS of every sentence pair: 2 ("a b") + 1 ("a") > 2 reference words
    scores = ours.Rouge(metrics=["rouge-l"], raw_results=True, exclusive=False).get_scores("a b. a", "a b")
    assert scores == [{"rouge-l": {"hyp": 3, "ref": 2, "overlap": 3}}]


@pytest.mark.parametrize(
    "args, kwargs, config",
    [
        (("", "a b"), {}, {}),  # Hypothesis is empty.
        (("a b", "..."), {}, {}),  # Reference is empty.
        (("", "a"), {}, {"metrics": ["rouge-l"]}),  # Collections must contain at least 1 sentence.
        (("a", ""), {}, {"metrics": ["rouge-l", "rouge-1"]}),
        (([], []), {"avg": True}, {}),  # ZeroDivisionError
        ((["a"], ["a"]), {"avg": True}, {"raw_results": True}),  # KeyError
        ((["", "a"], ["b", ""]), {"ignore_empty": True}, {}),  # nothing left: ValueError
        ((["a", "b"], ["a"]), {}, {}),  # AssertionError
        (([1], ["a"]), {}, {}),  # AttributeError
        (([b"a"], [b"a"]), {}, {}),  # TypeError
    ],
)
def test_errors_keep_their_types(args, kwargs, config):
    theirs = outcome(pltrdy, config, *args, **kwargs)
    mine = outcome(ours, config, *args, **kwargs)
    assert theirs[0] != "ok"
    assert mine[0] == theirs[0]
    if theirs[0] == "ValueError" and "unpack" not in theirs[1]:
        assert mine[1] == theirs[1]


@pytest.mark.parametrize("config", [{"metrics": ["rouge-6"]}, {"stats": ["x"]}])
def test_unknown_metric_or_stat(config):
    with pytest.raises(ValueError) as theirs:
        pltrdy.Rouge(**config)
    with pytest.raises(ValueError) as mine:
        ours.Rouge(**config)
    assert str(mine.value) == str(theirs.value)


def test_files_rouge(tmp_path):
    hyp, ref = tmp_path / "hyp.txt", tmp_path / "ref.txt"
    # CRLF lines and a last line without a newline (rouge drops its last character)
    hyp.write_bytes("the cat sat on the mat.\r\nthe dog . ran\nlast line here".encode())
    ref.write_bytes("a cat sat on a mat\r\ndogs ran . the dog\nlast line there".encode())
    for config in CONFIGS:
        for avg in (False, True):
            theirs = outcome_files(pltrdy, config, hyp, ref, avg)
            assert outcome_files(ours, config, hyp, ref, avg) == theirs
    short = tmp_path / "short.txt"
    short.write_text("one line\n", encoding="utf-8")
    for bad in ((hyp, short), (tmp_path / "missing.txt", ref)):
        assert outcome_files(pltrdy, {}, *bad, False)[0] == "AssertionError"
        kind, message = outcome_files(ours, {}, *bad, False)
        assert kind == "AssertionError" and str(bad[0]) in message


def outcome_files(module, config, hyp, ref, avg):
    try:
        return "ok", repr(module.FilesRouge(**config).get_scores(str(hyp), str(ref), avg=avg))
    except Exception as exc:  # noqa: BLE001
        return type(exc).__name__, str(exc)


def test_sentences_too_long_for_rouge_are_scored():
    """rouge's recursive LCS trace-back overflows the stack here; the engine scores it (hand check)."""
    words = " ".join(["w"] * 3000)
    scores = ours.Rouge(metrics=["rouge-l"], exclusive=False).get_scores(words, words)
    assert scores[0]["rouge-l"]["r"] == 1.0 and scores[0]["rouge-l"]["p"] == 1.0


@pytest.mark.parametrize(
    "args, kwargs",
    [
        ((["a b"], ("a b",)), {}),  # a list with a tuple: AssertionError (issue 25, finding 11)
        ((("a b",), ["a b"]), {}),
        ((np.array(["a b"]), ["a b"]), {}),  # a numpy array with a list
        ((["a b"], np.array(["a b"])), {}),
        ((np.array(["a b c"]), np.array(["a b"])), {}),  # two arrays: scored
        ((["a b"], ("a b",)), {"ignore_empty": True}),  # zip(*kept) makes both tuples: scored
        ((["a b", "c d", "e"], ["a b", "c"]), {"ignore_empty": True}),  # cut to the shorter list
        ((["a b"], ["a b", "c d"]), {"ignore_empty": True, "avg": True}),
        (("a b", ["a b"]), {}),  # a string with a list: AttributeError
        ((["a"], "a b"), {}),  # a list with a string: lengths differ
        (((t for t in ["a"]), (t for t in ["a"])), {}),  # generators: TypeError (no len)
        (([], []), {"ignore_empty": True}),
        (([None], ["a"]), {"ignore_empty": True}),
    ],
)
def test_container_types_and_truncation_as_the_package(args, kwargs):
    """Every outcome of pltrdy's get_scores for these containers: the same result or the same error type."""
    import copy

    def fresh():
        return tuple(a if hasattr(a, "__next__") else copy.deepcopy(a) for a in args)

    theirs = outcome(pltrdy, {}, *fresh(), **kwargs)
    if any(hasattr(a, "__next__") for a in args):
        args = ((t for t in ["a"]), (t for t in ["a"]))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        mine = outcome(ours, {}, *fresh(), **kwargs)
    if theirs[0] == "ok":
        assert mine == theirs
    else:
        assert mine[0] == theirs[0]
    dropped = [w for w in caught if issubclass(w.category, ours.DroppedInputWarning)]
    if kwargs.get("ignore_empty") and theirs[0] == "ok" and len(args[0]) != len(args[1]):
        assert len(dropped) == 1
        longer = "hypotheses" if len(args[0]) > len(args[1]) else "references"
        assert f"{longer} {min(map(len, args))} on" in str(dropped[0].message)
    else:
        assert dropped == []
