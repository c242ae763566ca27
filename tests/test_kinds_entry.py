"""Issue 24's counting contract: one entry into the compiled counter (``score_docs``, score.pxi)
that scoring, the per-pair kernels, the id job and the highlights all call, its pure twin
(``_pure.score_docs``), highlights that come from the kind table's rows (a marks function per row,
or an explicit "no highlights"), and each counting error's text written once."""

from __future__ import annotations

import random
import re
from pathlib import Path

import numpy as np
import pytest

from rougekit._core import _explain, _pure, kinds
from rougekit._core.kinds import ALL_UNIGRAMS, KernelSpec, Kind

CORE = Path(kinds.__file__).parent
SRC = CORE.parent


def _text(name: str) -> str:
    return (CORE / name).read_text(encoding="utf-8")


def test_every_row_has_highlights_or_says_it_has_none():
    # a new kind gets its highlights from its row: a marks function, or NO_MARKS
    assert kinds.NO_MARKS == frozenset({Kind.LSEQ})
    assert set(_pure.KIND_ROWS) == set(Kind)
    assert {k for k, row in _pure.KIND_ROWS.items() if row.marks is None} == kinds.NO_MARKS
    batch = pytest.importorskip("rougekit._core._batch", reason="the compiled engine is not built")
    assert batch._kind_marks() == {int(k): k not in kinds.NO_MARKS for k in Kind}


def test_the_highlights_name_no_kind():
    # marks.pxi and its twin dispatch on the rows: no if/elif on the kinds there
    assert [k for k in re.findall(r"\bK_[A-Z]+\b", _text("marks.pxi")) if k != "K_END"] == []
    assert re.findall(r"\bKind\.[A-Z]+\b", _text("_explain.py")) == []


def test_one_entry_calls_the_pair_counter():
    # _score_pair is called by score_docs only; every other caller goes through score_docs
    calls = {}
    for path in sorted(CORE.glob("*.p[yx][xi]")):
        text = path.read_text(encoding="utf-8")
        n = len(re.findall(r"(?<!cdef int )\b_score_pair\(", text))
        if n:
            calls[path.name] = n
    assert calls == {"score.pxi": 1}
    users = {p.name for p in CORE.glob("*.p[yx][xi]") if re.search(r"\bscore_docs\(", p.read_text(encoding="utf-8"))}
    assert users == {"score.pxi", "_batch.pyx", "pair.pxi", "marks.pxi"}  # scoring and id job, per pair, highlights


@pytest.mark.parametrize(
    "text",
    [
        "a sentence pair too long for the ROUGE-L/W trace-back",
        "ROUGE-W is undefined for a reference with no tokens",
    ],
)
def test_each_counting_error_is_written_once(text):
    found = [
        str(p.relative_to(SRC))
        for p in sorted(SRC.rglob("*"))
        if p.suffix in (".py", ".pyx", ".pxi") and text in p.read_text(encoding="utf-8")
    ]
    assert found == ["_core/_pure.py"]


def test_the_counting_errors_read_the_same_from_both_paths():
    import rougekit

    limit = "1600000000 token pairs, docs/limits.md); split the summaries into sentences or limit their length"
    long = " ".join(["w"] * 40_001)
    for fast, size in (
        (True, "longest reference sentence x longest candidate sentence above"),
        (False, "40001 x 40001 tokens, above"),
    ):
        with pytest.raises(rougekit.InputError) as e:
            rougekit.Scorer(["ROUGE-L"], bootstrap=None, fast=fast).score([long], [[long]])
        assert str(e.value) == (
            f"pair 1: a sentence pair too long for the ROUGE-L/W trace-back ({size} {limit} (word_limit / -l)"
        )
        with pytest.raises(rougekit.InputError) as e:
            rougekit.Scorer(["ROUGE-W-1.2"], bootstrap=None, fast=fast).score(["a b", "a"], [["a"], ["."]])
        assert str(e.value) == (
            "pair 2: ROUGE-W is undefined for a reference with no tokens "
            "(ROUGE-1.5.5 dies with a division by zero here)"
        )


def _csr(texts):
    """batch_marks' arrays of a list of texts (each a list of sentences of ids)."""
    joined = [t for d in texts for s in d for t in s]
    toks = np.array(joined, np.int32)
    tok_off = np.zeros(len(texts) + 1, np.int64)
    tok_off[1:] = np.cumsum([sum(map(len, d)) for d in texts])
    lens = [len(s) for d in texts for s in d]
    sent_off = np.zeros(len(lens) + 1, np.int64)
    sent_off[1:] = np.cumsum(lens)
    text_sents = np.zeros(len(texts) + 1, np.int64)
    text_sents[1:] = np.cumsum([len(d) for d in texts])
    return toks, tok_off, toks.copy(), sent_off, text_sents


def _marks(module, spec, texts, peer, model):
    arrays = _csr(texts)
    size = np.diff(arrays[1])
    peer_at = np.zeros(len(peer) + 1, np.int64)
    np.cumsum(size[peer], out=peer_at[1:])
    model_at = np.zeros(len(model) + 1, np.int64)
    np.cumsum(size[model], out=model_at[1:])
    hits = np.zeros(len(peer))
    pm = np.zeros(int(peer_at[-1]), np.uint8)
    mm = np.zeros(int(model_at[-1]), np.uint8)
    module.batch_marks(
        int(spec.kind), spec.n, spec.flags, spec.weight, *arrays, peer, model, peer_at, model_at, hits, pm, mm
    )
    return hits.tolist(), pm.tolist(), mm.tolist()


def test_a_hand_counted_pair_through_the_twin_entry():
    # candidate "a b c a" (one sentence), reference "a b" / "c d" (two sentences)
    peer = ([1, 2, 3, 1], [[1, 2, 3, 1]])
    model = ([1, 2, 3, 4], [[1, 2], [3, 4]])
    specs = [KernelSpec(Kind.N, 1), KernelSpec(Kind.N, 2), KernelSpec(Kind.L), KernelSpec(Kind.LD)]
    (counts,) = _pure.score_docs(specs, [peer], [model], [0, 1])
    # ROUGE-1: a, b, c clipped once each (3 of 4 / 4); ROUGE-2 (joined tokens: windows cross the
    # sentence boundary): "a b" and "b c" (2 of 3 / 3); ROUGE-L: the union LCS marks a, b (first
    # sentence) and c (second): 3 of 4 reference tokens, 4 candidate tokens; LD (roles swapped,
    # distinct tokens): a, b, c of the candidate's on the LCS with the reference's sentences, 3;
    # the counts: the reference's distinct tokens (4), the candidate's (3)
    assert counts == [(3, 4, 4, 2, 3, 3, 3, 4, 4, 3, 4, 3)]
    found: list = []
    (hits,) = _pure.score_docs([KernelSpec(Kind.SU, 0, flags=ALL_UNIGRAMS)], [peer], [model], [0, 1], found)
    # su_unigrams="all": the skip-bigrams of distance 0 (a b, b c, c a / a b, b c, c d: 2 found) and
    # every token's unigram (a, b, c: 3 found, clipped)
    assert hits == [(2, 3)]
    assert found == [({0, 1, 2, 3}, {0, 1, 2})]


@pytest.mark.parametrize(
    "spec",
    [
        KernelSpec(Kind.N, 1),
        KernelSpec(Kind.N, 3),
        KernelSpec(Kind.ND, 2),
        KernelSpec(Kind.S, 2),
        KernelSpec(Kind.SU, -1),
        KernelSpec(Kind.SU, 4, flags=ALL_UNIGRAMS),
        KernelSpec(Kind.L),
        KernelSpec(Kind.W, weight=1.2),
        KernelSpec(Kind.LD),
    ],
)
def test_highlights_compiled_equal_the_twin_through_the_rows(spec):
    batch = pytest.importorskip("rougekit._core._batch", reason="the compiled engine is not built")
    rng = random.Random(int(spec.kind) * 100 + spec.n)
    texts = [
        [[rng.randint(0, 9) for _ in range(rng.randint(0, 8))] for _ in range(rng.randint(1, 3))] for _ in range(40)
    ]
    peer = np.array([rng.randrange(40) for _ in range(150)], np.int32)
    model = np.array([rng.randrange(40) for _ in range(150)], np.int32)
    want = _marks(_explain, spec, texts, peer, model)
    assert _marks(batch, spec, texts, peer, model) == want
    assert sum(want[0]) > 0


@pytest.mark.parametrize("module", ["compiled", "twin"])
def test_a_row_without_highlights_says_so(module):
    if module == "compiled":
        kernel = pytest.importorskip("rougekit._core._batch", reason="the compiled engine is not built")
    else:
        kernel = _explain
    texts = [[[1, 2]], [[1, 2]]]
    peer = np.array([0], np.int32)
    for kind in (Kind.LSEQ, 42):
        with pytest.raises(ValueError, match=rf"^no highlights for kind {int(kind)}$"):
            _marks(kernel, KernelSpec(kind) if kind != 42 else KernelSpec(Kind.N)._replace(kind=42), texts, peer, peer)
