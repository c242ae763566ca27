"""The edit counts of Hori et al.'s ACCY: compiled kernel ``_core._edit``, its twin ``_core._edit_pure``
and :func:`rougekit.metrics.hori.edit_counts` (interning, common prefix/suffix set aside) all give what
the original algorithm gives, written out below as it was: one full row of ``(errors, subs, ins, dels)``
cells compared on ``(errors, subs)``."""

from __future__ import annotations

import math
import random
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rougekit._core import _edit_pure, backend
from rougekit.metrics import hori

try:
    from rougekit._core import _edit
except ImportError:  # pragma: no cover - depends on the build
    _edit = None

KERNELS = [
    pytest.param(_edit_pure, id="pure"),
    pytest.param(_edit, id="compiled", marks=pytest.mark.skipif(_edit is None, reason="_core._edit is not built")),
]


def original(candidate, reference):
    """The algorithm of ``hori.edit_counts`` before the kernel: (subs, ins, dels)."""
    cand, ref = list(candidate), list(reference)
    m, n = len(cand), len(ref)
    prev = [(k, 0, 0, k) for k in range(n + 1)]
    for a in range(1, m + 1):
        cur = [(a, 0, a, 0)]
        for b in range(1, n + 1):
            e, s, i, d = prev[b - 1]
            best = (e, s, i, d) if cand[a - 1] == ref[b - 1] else (e + 1, s + 1, i, d)
            e, s, i, d = prev[b]
            if (e + 1, s) < best[:2]:
                best = (e + 1, s, i + 1, d)
            e, s, i, d = cur[b - 1]
            if (e + 1, s) < best[:2]:
                best = (e + 1, s, i, d + 1)
            cur.append(best)
        prev = cur
    return prev[n][1:]


def both_backends(monkeypatch, module):
    monkeypatch.setattr(backend, "edit_module", lambda: module)


SIDE = st.lists(st.integers(0, 4), max_size=14)


@settings(max_examples=600, deadline=None)
@given(SIDE, SIDE)
def test_kernels_and_hori_equal_the_original_algorithm(cand, ref):
    want = original(cand, ref)
    assert _edit_pure.edit_counts(cand, ref) == want
    if _edit is not None:
        assert _edit.edit_counts(cand, ref) == want
    words = [f"w{u}" for u in cand], [f"w{u}" for u in ref]
    got = hori.edit_counts(*words)
    assert (got.substitutions, got.insertions, got.deletions, got.length) == (*want, len(ref))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from("ab"), max_size=10), st.lists(st.sampled_from("ab"), max_size=10), st.data())
def test_shared_prefix_and_suffix_under_both_backends(core_c, core_r, data):
    """Long shared ends (the part set aside before the kernel) around a small differing core."""
    head = data.draw(st.lists(st.sampled_from("abc"), max_size=8))
    tail = data.draw(st.lists(st.sampled_from("abc"), max_size=8))
    cand, ref = head + core_c + tail, head + core_r + tail
    want = original(cand, ref)
    for module in (_edit_pure, _edit):
        if module is None:
            continue
        with pytest.MonkeyPatch.context() as mp:
            both_backends(mp, module)
            got = hori.edit_counts(cand, ref)
        assert (got.substitutions, got.insertions, got.deletions) == want


@pytest.mark.parametrize("kernel", KERNELS)
def test_by_hand(kernel):
    assert kernel.edit_counts([], []) == (0, 0, 0)
    assert kernel.edit_counts([1, 2, 3], []) == (0, 3, 0)
    assert kernel.edit_counts([], [1, 2]) == (0, 0, 2)
    assert kernel.edit_counts([1, 2], [2, 3]) == (0, 1, 1)  # not two substitutions
    assert kernel.edit_counts([1, 2, 3], [1, 4, 3]) == (1, 0, 0)


def test_units_that_cannot_be_interned_compare_as_before():
    """NaN matches nothing (not even itself) and unhashable units compare by ==, as the original did."""
    nan = math.nan
    for cand, ref in [([nan, 1.0], [nan, 1.0]), ([[1], [2]], [[2], [3]]), ([1, 1.0, True], [True, 1, 2])]:
        got = hori.edit_counts(cand, ref)
        assert (got.substitutions, got.insertions, got.deletions) == original(cand, ref)
    assert hori.edit_counts(iter("abc"), iter("abd")).substitutions == 1  # iterators are read once


@pytest.mark.skipif(_edit is None, reason="_core._edit is not built")
def test_compiled_equals_pure_on_a_random_thousand_unit_pair():
    rng = random.Random(25)
    cand = [rng.randrange(30) for _ in range(900)]
    ref = [rng.randrange(30) for _ in range(1000)]
    assert _edit.edit_counts(cand, ref) == _edit_pure.edit_counts(cand, ref)


def test_a_twenty_thousand_token_pair_finishes(capsys):
    """Two 20,000-token summaries: 4e8 cells in two rows. ``a b a b ...`` against ``b a b a ...``
    differs at both ends (nothing is set aside), and the best alignment deletes the first ``b`` of
    the reference and inserts the last ``b`` of the candidate: 0 substitutions, 1 insertion, 1
    deletion, ACCY (20000 - 2) / 20000. The time is printed, not asserted."""
    cand = ["a", "b"] * 10_000
    ref = ["b", "a"] * 10_000
    start = time.perf_counter()
    got = hori.edit_counts(cand, ref)
    seconds = time.perf_counter() - start
    with capsys.disabled():
        print(f"\nedit_counts 20,000 x 20,000 tokens ({backend.name()}): {seconds:.2f} s")
    assert got == hori.EditCounts(substitutions=0, insertions=1, deletions=1, length=20_000)
    assert hori.accy(cand, ref) == 19_998 / 20_000


@pytest.mark.skipif(_edit is None, reason="_core._edit is not built")
def test_ctrl_c_stops_the_compiled_kernel():
    """400,000 x 400,000 units (1.6e11 cells, minutes of work): Ctrl-C half a second in raises
    KeyboardInterrupt from inside the kernel, which looks at signals between blocks of rows (before,
    it ran to the end with the GIL released: past the test's time limit)."""
    import signal
    import threading

    rng = random.Random(4)
    cand = [rng.randrange(1000) for _ in range(400_000)]
    ref = [rng.randrange(1000) for _ in range(400_000)]
    main = threading.get_ident()
    timer = threading.Timer(0.5, signal.pthread_kill, (main, signal.SIGINT))
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)  # as in tests/test_batch.py
    try:
        timer.start()
        with pytest.raises(KeyboardInterrupt):
            _edit.edit_counts(cand, ref)
    finally:
        timer.cancel()
        signal.signal(signal.SIGINT, previous)
