"""Tests of the counting kernels (``rougekit._core``).

1. Hand-computed values of the worked examples E1-E20 (the script's own output for them is
   committed in ``tests/goldens/e*``; behaviour: docs/rouge155/), run against *both* backends.
2. Hypothesis property tests: the pure-Python twins and the compiled kernels agree
   exactly (ints equal, floats bit-for-bit) on random inputs. The compiled kernels are the batch
   engine's per-pair entry points (``_core._batch``, pair.pxi: its ``_score_pair`` on one pair).
"""

from __future__ import annotations

import array
import math
import random

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rougekit import _core
from rougekit._core import _pure

try:
    from rougekit._core import _batch as _kernels  # the compiled kernels: the batch engine, one pair
except ImportError:  # pragma: no cover - depends on the build
    _kernels = None

BACKENDS = [pytest.param(_pure, id="pure")]
if _kernels is not None:
    BACKENDS.append(pytest.param(_kernels, id="cython"))
else:  # keep a visible skipped entry so a missing build is noticed
    BACKENDS.append(
        pytest.param(
            None,
            id="cython",
            marks=pytest.mark.skip(reason="compiled kernels not built (run `pip install -e .`)"),
        )
    )

needs_compiled = pytest.mark.skipif(
    _kernels is None,
    reason="rougekit._core._batch is not built: nothing to compare the pure kernels with "
    "(build with `pip install -e . --no-build-isolation` or `python setup.py build_ext --inplace`)",
)


# --------------------------------------------------------------------------- helpers


class Vocab:
    """Interns words as ints (what the text layer will hand to the kernels)."""

    def __init__(self):
        self.ids: dict[str, int] = {}

    def __call__(self, text: str) -> list[int]:
        return [self.ids.setdefault(w, len(self.ids)) for w in text.lower().split()]

    def sents(self, *texts: str) -> list[list[int]]:
        return [self(t) for t in texts]


def flat(sents):
    return [t for s in sents for t in s]


def fmt(x: float) -> str:
    return "%7.5f" % x


def f_w(k, w):
    return math.pow(k, w)


def rouge_w_scores(K, peer_sents, model_sents, w):
    """R, P (rounded strings) of ROUGE-W for one reference, as docs/rouge155/measures.md derives them."""
    hits = K.wlcs_union_hits(peer_sents, model_sents, flat(peer_sents), flat(model_sents), w)
    base = 0.0
    for s in model_sents:
        base += f_w(len(s), w)
    C = f_w(base, w)
    Pc = f_w(len(flat(peer_sents)), w)
    return fmt(math.pow(hits / C, 1 / w)), fmt(math.pow(hits / Pc, 1 / w)), hits


# --------------------------------------------------------------------------- backend selection


def test_backend_flag():
    from rougekit.engine import backend

    assert _core.BACKEND == backend.name() in ("compiled", "python")
    expected = _kernels if backend.name() == "compiled" else _pure
    assert _core.ngram_stats is expected.ngram_stats
    assert set(_core._KERNELS) >= {"ngram_stats", "skip_bigram_stats", "lcs_union_hits", "wlcs_union_hits"}
    for name in _core._KERNELS:  # every twin has its compiled entry point
        assert getattr(_core, name) is getattr(expected, name)
        if _kernels is not None:
            assert callable(getattr(_kernels, name)), name


def _run_with_backend(value: str | None, code: str, block: str = ""):
    """Run ``code`` in a fresh interpreter with ROUGEKIT_BACKEND=value; ``block`` names a compiled
    module made unimportable there (as if it had not been built)."""
    import os
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if k != "ROUGEKIT_BACKEND"}
    if value is not None:
        env["ROUGEKIT_BACKEND"] = value
    prelude = ""
    if block:
        prelude = (
            "import sys\n"
            "class _Block:\n"
            "    def find_spec(self, name, path=None, target=None):\n"
            f"        if name == {block!r}: raise ImportError('blocked by the test')\n"
            "sys.meta_path.insert(0, _Block())\n"
        )
    return subprocess.run([sys.executable, "-c", prelude + code], env=env, capture_output=True, text=True)


SHOW = "import rougekit._core as k; print(k.BACKEND, k.ngram_stats.__module__)"


def test_backend_python_forces_the_twins():
    out = _run_with_backend("python", SHOW)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["python", "rougekit._core._pure"]
    assert out.stderr == ""  # asked for: no warning


@pytest.mark.skipif(_kernels is None, reason="the compiled kernels are not built")
def test_backend_compiled_and_auto_use_the_extension():
    for value in ("compiled", "auto", None, " Compiled "):
        out = _run_with_backend(value, SHOW)
        assert out.returncode == 0, out.stderr
        assert out.stdout.split() == ["compiled", "rougekit._core._batch"], value


def test_backend_bad_value_is_one_clear_error():
    out = _run_with_backend("fast", "import rougekit\nrougekit.score(['a'], ['a'], measures=['ROUGE-1'])")
    assert out.returncode != 0
    assert "ROUGEKIT_BACKEND='fast': use one of auto, compiled, python" in out.stderr


def test_backend_compiled_but_not_built_is_an_error():
    out = _run_with_backend("compiled", SHOW, block="rougekit._core._batch")
    assert out.returncode != 0
    assert "ROUGEKIT_BACKEND=compiled but rougekit._core._batch is not built" in out.stderr


def test_backend_auto_without_the_build_warns_once_and_runs_the_twins():
    code = (
        "import warnings, rougekit\n"
        "warnings.simplefilter('always')\n"
        "for _ in range(3): r = rougekit.score(['a b'], ['a c'], measures=['ROUGE-1'], bootstrap=None)\n"
        "import rougekit._core as k; print(k.BACKEND, r.to_dict()['ROUGE-1']['recall'])\n"
    )
    out = _run_with_backend(None, code, block="rougekit._core._batch")
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["python", "0.5"]
    assert out.stderr.count("compiled engine is not available") == 1


# --------------------------------------------------------------------------- E1


E1_REF = "police killed the gunman"
E1_CANDS = {
    "S2": "police kill the gunman",
    "S3": "the gunman kill police",
    "S4": "the gunman police killed",
}
# (ROUGE-1 hits, ROUGE-2 hits, ROUGE-L hits, S4 hits, SU4 hits); counts are 4, 3, 6, 9
E1_HITS = {
    "S2": (3, 1, 3, 3, 5),
    "S3": (3, 1, 2, 1, 2),
    "S4": (4, 2, 2, 2, 4),
}
E1_RECALL = {  # tests/goldens/e01_paper_example: ROUGE-1, ROUGE-2, ROUGE-L, ROUGE-S4, ROUGE-SU4
    "S2": ("0.75000", "0.33333", "0.75000", "0.50000", "0.55556"),
    "S3": ("0.75000", "0.33333", "0.50000", "0.16667", "0.22222"),
    "S4": ("1.00000", "0.66667", "0.50000", "0.33333", "0.44444"),
}
E1_W = {"S2": ("0.51208", "0.67569"), "S3": ("0.37893", "0.50000"), "S4": ("0.37893", "0.50000")}


@pytest.mark.parametrize("K", BACKENDS)
@pytest.mark.parametrize("name", sorted(E1_CANDS))
def test_e1_counts_and_hits(K, name):
    v = Vocab()
    ref, cand = v(E1_REF), v(E1_CANDS[name])
    h1, h2, hl, hs, hsu = E1_HITS[name]
    assert K.ngram_stats(cand, ref, 1) == (h1, 4, 4)
    assert K.ngram_stats(cand, ref, 2) == (h2, 3, 3)
    assert K.ngram_stats(cand, ref, 3)[1:] == (2, 2)
    assert K.ngram_stats(cand, ref, 4)[1:] == (1, 1)
    assert K.ngram_stats(cand, ref, 5) == (0, 0, 0)
    assert K.lcs_union_hits([cand], [ref], cand, ref) == hl
    assert K.skip_bigram_stats(cand, ref, 4, False) == (hs, 6, 6)
    assert K.skip_bigram_stats(cand, ref, 4, True) == (hsu, 9, 9)
    # the recalls printed by the script
    r1, r2, rl, rs, rsu = E1_RECALL[name]
    assert (fmt(h1 / 4), fmt(h2 / 3), fmt(hl / 4), fmt(hs / 6), fmt(hsu / 9)) == (r1, r2, rl, rs, rsu)


@pytest.mark.parametrize("K", BACKENDS)
@pytest.mark.parametrize("name", sorted(E1_CANDS))
def test_e1_rouge_w(K, name):
    v = Vocab()
    r, p, hits = rouge_w_scores(K, [v(E1_CANDS[name])], [v(E1_REF)], 1.2)
    assert (r, p) == E1_W[name]
    if name == "S2":
        # E17: the script prints the raw ROUGE-W hits with 15 significant digits
        assert "%.15g" % hits == "3.29739670999407"
        # run of 1 ("police"), then a run of 2 ("the gunman")
        assert hits == f_w(1, 1.2) + f_w(2, 1.2)


# --------------------------------------------------------------------------- E2 / E8 (ROUGE-W)


@pytest.mark.parametrize("K", BACKENDS)
@pytest.mark.parametrize("cand", ["A B C D H I K", "A H B K C I D"])
def test_e2_rouge_w_runs_along_reference(K, cand):
    v = Vocab()
    ref = v("A B C D E F G")
    c = v(cand)
    # A, B, C, D are one run of 4 along the reference for both candidates
    assert K.wlcs_union_hits([c], [ref], c, ref, 2.0) == 16.0
    assert rouge_w_scores(K, [c], [ref], 2.0)[:2] == ("0.08163", "0.57143")
    assert rouge_w_scores(K, [c], [ref], 1.2)[:2] == ("0.38721", "0.57143")
    assert K.lcs_union_hits([c], [ref], c, ref) == 4  # ROUGE-L 4/7 = 0.57143


@pytest.mark.parametrize("K", BACKENDS)
def test_e8_clipped_position_does_not_break_run(K):
    v = Vocab()
    model = v.sents("q", "p q z r")
    peer = v.sents("p q r")
    hits = K.wlcs_union_hits(peer, model, flat(peer), flat(model), 2.0)
    assert hits == 5.0  # f(1) for "q", then p.(q clipped).z.r scores f(2)
    assert isinstance(hits, float)
    r, p, _ = rouge_w_scores(K, peer, model, 2.0)
    assert (r, p) == ("0.13153", "0.74536")
    assert K.lcs_union_hits(peer, model, flat(peer), flat(model)) == 3  # ROUGE-L R = 3/5


@pytest.mark.parametrize("K", BACKENDS)
def test_wlcs_run_lost_when_last_marked_position_is_clipped(K):
    # All of "x a a" is marked, but the peer unigram table has one "a" only (as after a
    # length cut): x, a pass (run 2, next position marked, so no f(run) yet); the last a
    # fails the clip and does nothing, so the open run is never added (script behaviour).
    v = Vocab()
    model = v.sents("x a a")
    peer = v.sents("x a a")
    assert K.wlcs_union_hits(peer, model, v("x a"), flat(model), 2.0) == 0.0
    assert K.lcs_union_hits(peer, model, v("x a"), flat(model)) == 2


# --------------------------------------------------------------------------- E3, E4, E5 (ROUGE-L)


@pytest.mark.parametrize("K", BACKENDS)
def test_e3_union_lcs(K):
    v = Vocab()
    model = v.sents("w1 w2 w3 w4 w5")
    peer = v.sents("w1 w2 w6 w7 w8", "w1 w3 w8 w9 w5")
    assert K.lcs_union_hits(peer, model, flat(peer), flat(model)) == 4  # R 0.8, P 0.4
    assert K.ngram_stats(flat(peer), flat(model), 1) == (4, 5, 10)


@pytest.mark.parametrize("K", BACKENDS)
@pytest.mark.parametrize("second, hits", [("police", 1), ("gunman", 2)])
def test_e4_tie_break_up_first(K, second, hits):
    v = Vocab()
    model = v.sents("police gunman")
    peer = v.sents("gunman police", second)
    assert K.lcs_union_hits(peer, model, flat(peer), flat(model)) == hits
    # ROUGE-L R = hits/2, P = hits/3
    assert fmt(hits / 3) == {1: "0.33333", 2: "0.66667"}[hits]


@pytest.mark.parametrize("K", BACKENDS)
def test_e5_clipping_across_model_sentences(K):
    v = Vocab()
    model = v.sents("the cat sat", "the cat ran")
    peer = v.sents("the cat")
    assert K.lcs_union_hits(peer, model, flat(peer), flat(model)) == 2  # 2/6, not 4/6
    assert K.ngram_stats(flat(peer), flat(model), 1) == (2, 6, 2)


@pytest.mark.parametrize("K", BACKENDS)
def test_pair_counts_e3_e5(K):
    v = Vocab()
    model = v.sents("w1 w2 w3 w4 w5")
    peer = v.sents("w1 w2 w6 w7 w8", "w1 w3 w8 w9 w5")
    # E3: unigrams 4 of 5/10, bigrams (w1 w2) 1 of 4/9, LCS of the joined sequences 4 (w1 w2 w3
    # w5), union LCS 4
    got = K.pair_counts(flat(peer), flat(model), (1, 2), True, peer, model)
    assert got == (4, 5, 10, 1, 4, 9, 4, 5, 10, 4, 5, 10)
    # E5: the union LCS is clipped by the sentences' joined counts (2 of 6, not 4)
    model = v.sents("the cat sat", "the cat ran")
    peer = v.sents("the cat")
    assert K.pair_counts(flat(peer), flat(model), (), False, peer, model) == (2, 6, 2)
    # tokens other than the sentences' (multilingual-rouge's rougeLsum tokens its own lines)
    assert K.pair_counts(v("a b c"), v("c b a"), (3,), True, peer, model) == (0, 1, 1, 1, 3, 3, 2, 6, 2)
    assert K.pair_counts([], [], (1,), True) == (0, 0, 0, 0, 0, 0)
    with pytest.raises(ValueError):
        K.pair_counts([1], [1], (0,), False)


@pytest.mark.parametrize("K", BACKENDS)
def test_intern_ids(K):
    vocab = {"the": 0}
    assert K.intern_ids(vocab, ["cat", "", "the", "cat", "sat"]) == (1, 0, 1, 2)
    assert vocab == {"the": 0, "cat": 1, "sat": 2}
    assert K.intern_ids(vocab, iter(["sat", "mat"])) == (2, 3) and K.intern_ids(vocab, []) == ()
    with pytest.raises(TypeError):
        K.intern_ids(vocab, [["unhashable"]])
    assert K.intern_ids(vocab, ["", "the", ""], skip_empty=False) == (4, 0, 4) and vocab[""] == 4


@pytest.mark.parametrize("K", BACKENDS)
def test_split_marked(K):
    marks = bytearray(0x3001 // 8 + 1)
    for c in map(ord, " ,\u3001"):  # space, comma, ideographic comma (the last code point marked)
        marks[c >> 3] |= 1 << (c & 7)
    marks = bytes(marks)
    assert K.split_marked(marks, "a, b,,c ") == ["a", "b", "c"]
    assert K.split_marked(marks, "\u5317\u4eac\u3001\u4e0a\u6d77 \U0001f600x") == [
        "\u5317\u4eac",
        "\u4e0a\u6d77",
        "\U0001f600x",
    ]
    assert (
        K.split_marked(marks, "") == [] and K.split_marked(marks, " ,") == [] and K.split_marked(b"", "a b") == ["a b"]
    )


@pytest.mark.parametrize("K", BACKENDS)
def test_lcs_tokens_missing_from_unigram_tables_never_score(K):
    # E11-like: LCS sentences may hold tokens the readText tables do not have
    v = Vocab()
    model = v.sents("aaa bbb", "ccc ddd", "eee")
    peer = v.sents("aaa bbb", "ccc ddd", "eee")
    cut = v("aaa bbb ccc")
    assert K.lcs_union_hits(peer, model, cut, cut) == 3  # ROUGE-L R = 3/5 = 0.6
    # "aaa bbb" is a run of 2; in "ccc ddd" the run of "ccc" stays open because "ddd" is
    # marked, and "ddd" fails the clip at the sentence end, so that run is never scored.
    assert K.wlcs_union_hits(peer, model, cut, cut, 1.2) == f_w(2, 1.2)


# --------------------------------------------------------------------------- E6, E7 (S/SU)


@pytest.mark.parametrize("K", BACKENDS)
def test_e6_su_drops_last_token(K):
    v = Vocab()
    ref = v(E1_REF)
    one = v("gunman")
    assert K.skip_bigram_stats(one, ref, 4, False) == (0, 6, 0)
    assert K.skip_bigram_stats(one, ref, 4, True) == (0, 9, 0)
    assert K.ngram_stats(one, ref, 1) == (1, 4, 1)  # ROUGE-1 R = 0.25
    two = v("police gunman")
    hits, mc, pc = K.skip_bigram_stats(two, ref, 4, True)
    assert (hits, mc, pc) == (2, 9, 2)  # 1 bigram + 1 unigram ("police"), no unigram "gunman"
    assert (fmt(hits / mc), fmt(hits / pc)) == ("0.22222", "1.00000")


@pytest.mark.parametrize("K", BACKENDS)
def test_e7_skip_distance(K):
    v = Vocab()
    ref = v("a b c d e f g")
    assert K.skip_bigram_stats(v("a g"), ref, 4, False) == (0, 20, 1)
    assert K.skip_bigram_stats(v("a f"), ref, 4, False) == (1, 20, 1)
    assert K.skip_bigram_stats(v("a g"), ref, -1, False) == (1, 21, 1)  # S*: L(L-1)/2
    assert K.skip_bigram_stats(v("a b"), ref, 0, False) == (1, 6, 1)  # -2 0: plain bigrams
    assert K.skip_bigram_stats(v("a b"), ref, 0, True) == (2, 12, 2)


@pytest.mark.parametrize("K", BACKENDS)
def test_unigram_and_bigram_keys_never_collide(K):
    # a bigram (0, 0) must not match a unigram 0, whatever the packing
    assert K.skip_bigram_stats([0, 1], [0, 0], 4, True) == (1, 2, 2)
    assert K.skip_bigram_stats([0, 0], [0, 1], 4, True) == (1, 2, 2)
    assert K.skip_bigram_stats([5, 5, 5], [5, 5], -1, True) == (2, 2, 5)


@pytest.mark.parametrize("K", BACKENDS)
def test_empty_inputs(K):
    assert K.ngram_stats([], [], 1) == (0, 0, 0)
    assert K.ngram_stats([1, 2], [], 1) == (0, 0, 2)
    assert K.ngram_stats([], [1, 2, 3], 2) == (0, 2, 0)
    assert K.skip_bigram_stats([], [1], 4, True) == (0, 0, 0)
    assert K.lcs_union_hits([], [[1, 2]], [], [1, 2]) == 0
    assert K.lcs_union_hits([[]], [[], [1]], [], [1]) == 0
    assert K.lcs_union_hits([[1]], [], [1], []) == 0
    assert K.wlcs_union_hits([[1]], [[]], [1], [], 1.2) == 0.0
    assert K.wlcs_union_hits([], [], [], [], 2.0) == 0.0
    with pytest.raises(ValueError):
        K.ngram_stats([1], [1], 0)


@pytest.mark.parametrize("K", BACKENDS)
def test_accepts_list_array_numpy(K):
    rng = random.Random(7)
    m = [rng.randrange(6) for _ in range(40)]
    p = [rng.randrange(6) for _ in range(35)]
    forms = [
        lambda s: list(s),
        lambda s: array.array("i", s),
        lambda s: np.asarray(s, dtype=np.int32),
        lambda s: tuple(s),
        lambda s: np.asarray(s, dtype=np.int64),  # generic path
        lambda s: np.asarray(s, dtype=np.int32).repeat(2)[::2],  # strided buffer
        lambda s: np.asarray(s, dtype=np.int32)[::-1][::-1],  # negative strides twice
    ]
    ms = [m[:13], m[13:30], m[30:]]
    ps = [p[:20], p[20:]]
    expected = None
    for conv in forms:
        got = (
            K.ngram_stats(conv(p), conv(m), 1),
            K.ngram_stats(conv(p), conv(m), 3),
            K.skip_bigram_stats(conv(p), conv(m), 2, True),
            K.lcs_union_hits([conv(s) for s in ps], [conv(s) for s in ms], conv(p), conv(m)),
            K.wlcs_union_hits([conv(s) for s in ps], [conv(s) for s in ms], conv(p), conv(m), 1.2),
        )
        if expected is None:
            expected = got
        assert got == expected


@pytest.mark.parametrize("K", BACKENDS)
def test_wlcs_weight(K):
    assert K.wlcs_weight(0, 1.2) == 0.0
    assert K.wlcs_weight(4, 2.0) == 16.0
    assert K.wlcs_weight(4, 1.2) == math.pow(4.0, 1.2)


# --------------------------------------------------------------------------- pure == compiled


def _tokens(vocab_max):
    return st.lists(st.integers(0, vocab_max), max_size=40)


big_tokens = st.sampled_from([0, 1, 2, 967, 65535, 65536, 2**31 - 2, 2**31 - 1])
token_seq = st.one_of(_tokens(1), _tokens(3), _tokens(8), st.lists(big_tokens, max_size=30))
sentences = st.lists(
    st.one_of(
        _tokens(2),
        _tokens(4),
        st.lists(big_tokens, max_size=8),
        st.lists(st.integers(0, 3), min_size=60, max_size=140),  # > 64 columns: multi-word rows
    ),
    max_size=5,
)

HYP = settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@needs_compiled
@HYP
@given(peer=token_seq, model=token_seq, n=st.integers(1, 4))
def test_twin_ngram(peer, model, n):
    assert _pure.ngram_stats(peer, model, n) == _kernels.ngram_stats(peer, model, n)


@needs_compiled
@HYP
@given(peer=token_seq, model=token_seq, d=st.integers(-1, 5), su=st.booleans())
def test_twin_skip_bigram(peer, model, d, su):
    assert _pure.skip_bigram_stats(peer, model, d, su) == _kernels.skip_bigram_stats(peer, model, d, su)


def _tables(data, peer_sents, model_sents):
    """Unigram tables: usually the sentences joined, sometimes something else (-b / -l cuts)."""
    pt, mt = flat(peer_sents), flat(model_sents)
    if data.draw(st.booleans()):
        pt = pt[: data.draw(st.integers(0, len(pt)))]
        mt = data.draw(st.permutations(mt))[: data.draw(st.integers(0, len(mt)))]
    return pt, mt


@needs_compiled
@HYP
@given(peer_sents=sentences, model_sents=sentences, data=st.data())
def test_twin_lcs(peer_sents, model_sents, data):
    pt, mt = _tables(data, peer_sents, model_sents)
    a = _pure.lcs_union_hits(peer_sents, model_sents, pt, mt)  # classic DP
    b = _kernels.lcs_union_hits(peer_sents, model_sents, pt, mt)  # bit-parallel rows
    assert type(a) is int and type(b) is int
    assert a == b


@needs_compiled
@HYP
@given(peer_sents=sentences, model_sents=sentences, data=st.data())
def test_twin_pair_counts(peer_sents, model_sents, data):
    own = data.draw(st.booleans())  # tokens of their own, or the sentences joined
    peer = data.draw(token_seq) if own else flat(peer_sents)
    model = data.draw(token_seq) if own else flat(model_sents)
    orders = data.draw(st.lists(st.integers(1, 4), max_size=4))
    lcs, lsum = data.draw(st.booleans()), data.draw(st.booleans())
    sents = (peer_sents, model_sents) if lsum else (None, None)
    a = _pure.pair_counts(peer, model, orders, lcs, *sents)
    b = _kernels.pair_counts(peer, model, orders, lcs, *sents)
    assert a == b and all(type(x) is int for x in b)
    singles = [x for n in orders for x in _kernels.ngram_stats(peer, model, n)]
    if lcs:
        singles += [_kernels.lcs_union_hits([peer], [model], peer, model), len(model), len(peer)]
    if lsum:
        pt, mt = flat(peer_sents), flat(model_sents)
        singles += [_kernels.lcs_union_hits(peer_sents, model_sents, pt, mt), len(mt), len(pt)]
    assert b == tuple(singles)


@needs_compiled
@HYP
@given(
    peer_sents=sentences,
    model_sents=sentences,
    w=st.sampled_from([1.2, 2.0, 1.5, 0.5, 3.7]),
    data=st.data(),
)
def test_twin_wlcs(peer_sents, model_sents, w, data):
    pt, mt = _tables(data, peer_sents, model_sents)
    a = _pure.wlcs_union_hits(peer_sents, model_sents, pt, mt, w)
    b = _kernels.wlcs_union_hits(peer_sents, model_sents, pt, mt, w)
    assert type(a) is float and type(b) is float
    assert a.hex() == b.hex()  # bit for bit


@needs_compiled
@pytest.mark.parametrize("seed", range(6))
def test_twin_large_inputs(seed):
    """Larger inputs: heap hash tables, GIL released, long LCS sentences."""
    rng = random.Random(seed)
    vocab = [3, 20, 200, 5000, 2**31 - 1, 50][seed]
    m = [rng.randrange(vocab) for _ in range(2500 + seed)]
    p = [rng.randrange(vocab) for _ in range(2300)]
    for n in (1, 2, 3, 4):
        assert _pure.ngram_stats(p, m, n) == _kernels.ngram_stats(p, m, n)
    for d, su in ((-1, True), (4, False), (9, True)):
        assert _pure.skip_bigram_stats(p[:700], m[:600], d, su) == _kernels.skip_bigram_stats(p[:700], m[:600], d, su)
    ms = [m[:150], m[150:160], [], m[160:300]]
    ps = [p[:140], [], p[140:260]]
    pt, mt = flat(ps), flat(ms)
    expected = _pure.lcs_union_hits(ps, ms, pt, mt)
    assert _kernels.lcs_union_hits(ps, ms, pt, mt) == expected
    for w in (1.2, 2.0):
        a = _pure.wlcs_union_hits(ps, ms, pt, mt, w)
        b = _kernels.wlcs_union_hits(ps, ms, pt, mt, w)
        assert a.hex() == b.hex()


@needs_compiled
def test_threads_share_no_state():
    """Calls from several threads at once (large inputs run without the GIL, small ones with it)
    give the results of the same calls made one after another."""
    import threading

    rng = random.Random(5)
    cases = []
    for k in range(24):
        size = 3000 if k % 3 == 0 else 40
        m = [rng.randrange(30) for _ in range(size)]
        p = [rng.randrange(30) for _ in range(size - 5)]
        ms, ps = [m[: size // 2], m[size // 2 :]], [p[: size // 3], p[size // 3 :]]
        cases.append((p, m, ps, ms, [1.2, 2.0][k % 2]))

    def run(case):
        p, m, ps, ms, w = case
        return (
            _kernels.ngram_stats(p, m, 2),
            _kernels.ngram_stats(p, m, 3, True),
            _kernels.skip_bigram_stats(p, m, 4, True),
            _kernels.lcs_union_hits(ps, ms, p, m),
            _kernels.wlcs_union_hits(ps, ms, p, m, w).hex(),
        )

    expected = [run(c) for c in cases]
    got: dict[int, list] = {}

    def worker(t):
        got[t] = [run(c) for c in cases[t::4]]

    threads = [threading.Thread(target=worker, args=(t,)) for t in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for t in range(4):
        assert got[t] == expected[t::4]
    assert expected[0][0] == _pure.ngram_stats(cases[0][0], cases[0][1], 2)


def test_a_backend_reset_forgets_the_kernels_resolved_before_it():
    """A kernel of rougekit._core first used under ROUGEKIT_BACKEND=python must not stay the twin after
    the backend is reset (a test that switched backends left the twins behind for every later test)."""
    import os

    from rougekit.engine import backend

    saved = os.environ.get(backend.VARIABLE)
    try:
        os.environ[backend.VARIABLE] = "python"
        backend._reset_for_tests()
        assert _core.lcs_union_hits is _pure.lcs_union_hits
        if saved is None:
            os.environ.pop(backend.VARIABLE)
        else:
            os.environ[backend.VARIABLE] = saved
        backend._reset_for_tests()
        expected = _kernels if backend.name() == "compiled" else _pure
        assert _core.lcs_union_hits is expected.lcs_union_hits
    finally:
        if saved is None:
            os.environ.pop(backend.VARIABLE, None)
        else:
            os.environ[backend.VARIABLE] = saved
        backend._reset_for_tests()
