"""The kind table: kinds.py and its Cython mirror (kinds.pxi) hold the same codes, and every
kernel-backed measure family names its kernels with a row of it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rougekit._core import kinds
from rougekit._core.kinds import ALL_UNIGRAMS, KernelSpec, Kind
from rougekit.measures import Measure
from rougekit.measures.registry import families

PXI = Path(kinds.__file__).with_name("kinds.pxi")


def test_the_cython_mirror_names_every_kind_and_flag_with_the_same_code():
    text = PXI.read_text(encoding="utf-8")
    pxi_kinds = {name: int(code) for name, code in re.findall(r"^\s+K_(\w+) = (\d+)", text, re.M)}
    pxi_flags = {name: int(code) for name, code in re.findall(r"^\s+F_(\w+) = (\d+)", text, re.M)}
    assert pxi_kinds == {k.name: k.value for k in Kind}
    assert pxi_flags == kinds.FLAGS == {"ALL_UNIGRAMS": ALL_UNIGRAMS}


def test_the_compiled_engine_uses_the_table():
    batch = pytest.importorskip("rougekit._core._batch", reason="the compiled engine is not built")
    codes, flags = batch._kind_table()
    assert codes == {k.name: k.value for k in Kind}
    assert flags == kinds.FLAGS


def test_no_other_kind_enum_in_the_engine():
    # the K_* codes are defined once (kinds.pxi), included by _batch.pyx
    for path in PXI.parent.glob("*.p[yx][xi]"):
        if path.name != "kinds.pxi":
            assert not re.search(r"^\s+K_\w+ = \d+", path.read_text(encoding="utf-8"), re.M), path.name


def test_every_kind_has_its_count_function_in_the_table():
    # _score_pair calls KIND_ROWS[kind].count: a kind of the table without a row would crash
    batch = pytest.importorskip("rougekit._core._batch", reason="the compiled engine is not built")
    rows = batch._kind_rows()
    assert set(rows) == {int(k) for k in Kind}
    assert all(has for has, _ in rows.values())
    weighted, last = 1, 2  # kinds.pxi: ROW_WEIGHTED, ROW_LAST
    assert {Kind(k) for k, (_, f) in rows.items() if f & weighted} == {Kind.W}
    assert {Kind(k) for k, (_, f) in rows.items() if f & last} == {Kind.LD}


def test_the_counting_entry_names_no_kind():
    # score.pxi dispatches through the table only: a new kind adds nothing there
    text = PXI.with_name("score.pxi").read_text(encoding="utf-8")
    assert re.findall(r"\bK_[A-Z]+\b", text) == []


@pytest.mark.parametrize(
    "name, spec",
    [
        ("ROUGE-1", KernelSpec(Kind.N, 1)),
        ("ROUGE-4", KernelSpec(Kind.N, 4)),
        ("ROUGE-L", KernelSpec(Kind.L)),
        ("ROUGE-W-1.2", KernelSpec(Kind.W, weight=1.2)),
        ("ROUGE-S4", KernelSpec(Kind.S, 4)),
        ("ROUGE-SU4", KernelSpec(Kind.SU, 4)),
        ("ROUGE-S*", KernelSpec(Kind.S, -1)),
        ("ROUGE-2-DISTINCT", KernelSpec(Kind.ND, 2)),
        ("ROUGE-L-DISTINCT", KernelSpec(Kind.LD)),
    ],
)
def test_each_family_names_its_row(name, spec):
    assert Measure.parse(name).kernel_spec == spec


def test_the_batch_codes_and_the_spaces():
    assert KernelSpec(Kind.N, 2).batch == (0, 2, 0.0)
    assert KernelSpec(Kind.W, weight=1.2).batch == (2, 0, 1.2)
    assert KernelSpec(Kind.SU, 4, flags=ALL_UNIGRAMS).batch is None  # su_unigrams="all": pair by pair
    assert KernelSpec(Kind.ND, 2).batch == (6, 2, 0.0)  # distinct n-grams: the compiled batch path too
    assert KernelSpec(Kind.LD).batch == (7, 0, 0.0)
    assert kinds.BATCH_KINDS == frozenset(Kind)  # no family runs pair by pair in Python for its kind
    assert [k.name for k in Kind if KernelSpec(k).space == "joined"] == ["N", "S", "SU", "LSEQ", "ND"]


def test_options_change_the_spec():
    from types import SimpleNamespace

    su = Measure.parse("ROUGE-SU4")
    assert su.family.kernel_spec(su, SimpleNamespace(su_unigrams="all", wlcs="rouge155")).flags == ALL_UNIGRAMS
    w = Measure.parse("ROUGE-W-1.2")
    assert w.family.kernel_spec(w, SimpleNamespace(su_unigrams="rouge155", wlcs="paper")) is None


def test_every_family_with_a_kernel_names_a_kind():
    for family in families():
        for example in family.examples:
            m = Measure.parse(example)
            spec = m.kernel_spec
            assert spec is None or isinstance(spec.kind, Kind), example


@pytest.mark.parametrize("code", [8, -1])
def test_the_compiled_engine_refuses_a_kind_it_does_not_count(code):
    # _score_pair counts the BATCH_KINDS only: any other code was once counted as ROUGE-W
    batch = pytest.importorskip("rougekit._core._batch", reason="the compiled engine is not built")
    assert code not in {int(k) for k in kinds.BATCH_KINDS}
    with pytest.raises(ValueError, match=rf"kind code {code} is not one the batch scorer counts"):
        batch._Engine([(code, 1, 1.2)], None, 0, None, 0, 0, False, 0.5, 0)
    batch._Engine([(int(Kind.W), 0, 1.2)], None, 0, None, 0, 0, False, 0.5, 0)  # a batch kind is taken


def test_rouge_scores_sequence_lcs_is_a_row_of_the_table():
    from rougekit.engine.batch import SEQUENCE_LCS, batch_supported, kernel_spec

    assert SEQUENCE_LCS == KernelSpec(Kind.LSEQ) and SEQUENCE_LCS.batch == (int(Kind.LSEQ), 0, 0.0)
    assert kernel_spec(SEQUENCE_LCS) is SEQUENCE_LCS
    assert kernel_spec(Measure.parse("ROUGE-W-1.2")) == KernelSpec(Kind.W, weight=1.2)
    # batch_supported asks each measure's kernel_spec under the options: su_unigrams="all" and
    # wlcs="paper" rule out the measures they change, not the others
    ok = dict(
        tokenizer="rouge155", word_limit=0, byte_limit=0, multi_ref="sum", su_unigrams="rouge155", wlcs="rouge155"
    )
    if not batch_supported(["ROUGE-1"], **ok):  # pragma: no cover - depends on the build
        pytest.skip("the compiled engine is not built")
    # ROUGE-SU with the paper's unigrams: its spec split in two rows, folded per reference by the
    # engine before the multi-reference rule (every rule)
    for rule in ("sum", "best", "max"):
        assert batch_supported(["ROUGE-SU4"], **{**ok, "su_unigrams": "all", "multi_ref": rule})
    assert not batch_supported(["ROUGE-W-1.2"], **{**ok, "wlcs": "paper"})
    assert batch_supported(["ROUGE-SU4", "ROUGE-W-1.2", SEQUENCE_LCS], **ok)


@pytest.mark.parametrize("multi_ref", ["sum", "best", "max"])
def test_options_no_measure_depends_on_keep_the_compiled_path_and_its_numbers(multi_ref):
    """su_unigrams="all" and wlcs="paper" change ROUGE-SU and ROUGE-W only: ROUGE-1/2/L under them
    run on the compiled engine (they ran pair by pair in Python), with the readable path's numbers."""
    import random

    import numpy as np
    import test_batch as tb  # its random corpora

    from rougekit.api import Scorer

    names = ["ROUGE-1", "ROUGE-2", "ROUGE-L"]
    scorer = Scorer(names, bootstrap=None, su_unigrams="all", wlcs="paper", multi_ref=multi_ref, stem=True)
    if not Scorer(names, bootstrap=None)._plan.batch:  # pragma: no cover - depends on the build
        pytest.skip("the compiled engine is not built")
    assert scorer._plan.batch is not None
    rng = random.Random(24)
    cands = [tb._summary(rng) for _ in range(80)]
    refs = [[tb._summary(rng) for _ in range(rng.randint(1, 3))] for _ in cands]
    compiled, _ = scorer._score_arrays_of(cands, refs, None, 1)
    options = dict(su_unigrams="all", wlcs="paper", multi_ref=multi_ref, stem=True)
    readable_scorer = Scorer(names, bootstrap=None, fast=False, **options)  # the readable path, the same options
    assert readable_scorer._plan.batch is None
    readable, _ = readable_scorer._score_arrays_of(cands, refs, None, 1)
    assert np.array_equal(compiled, readable)
    assert compiled[:, :, 1].sum() > 0  # hits were counted
