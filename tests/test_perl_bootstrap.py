"""The script's bootstrap: values of the worked examples (tests/goldens/e01, e20), and the compiled twin."""

from __future__ import annotations

import signal
import threading
import time
from array import array

import numpy as np
import pytest

from rougekit.stats import perl_bootstrap as pb


def test_e1_rouge_l_average_is_a_bootstrap_mean():
    # per-pair ROUGE-L R of the paper example, eval IDs 1, 2, 3: 0.75, 0.5, 0.5 (E1, tests/goldens/e01_paper_example)
    b = pb.perl_bootstrap(np.array([[0.75] * 3, [0.5] * 3, [0.5] * 3]), 1000, 95)
    assert "%7.5f" % b.average[0] == "0.58350"
    assert ("%7.5f" % b.low[0], "%7.5f" % b.high[0]) == ("0.50000", "0.75000")


def test_e20_order_of_instances_matters():
    ones = np.array([[0.75] * 3, [0.75] * 3, [1.0] * 3])
    assert "%7.5f" % pb.perl_bootstrap(ones, 1000, 95).average[0] == "0.83333"  # IDs 1, 2, 3
    assert "%7.5f" % pb.perl_bootstrap(ones[::-1], 1000, 95).average[0] == "0.83350"  # IDs 3, 2, 1


def test_interval_positions_by_hand():
    # r = 1000, c = 95: delta = 25 -> lower A[25], upper A[974], no interpolation
    assert pb.interval_positions(1000, 95) == (25, 974, 0.0)
    # r = 10, c = 90: delta = 0.5 -> upper index int(8.5) = 8, fraction 0.5, lower index 0
    assert pb.interval_positions(10, 90) == (0, 8, 0.5)


def test_first_draws_follow_perl_drand48():
    # perl -e 'srand(1); printf "%.12f\n", rand()' prints 0.041630344772
    assert pb.drand48_stream(1, 1) == [0.041630344772]


@pytest.mark.parametrize("n", [1, 2, 3, 17, 1000])
def test_compiled_twin_is_identical(n):
    compiled = pytest.importorskip("rougekit._core._bootstrap", reason="compiled bootstrap not built")
    v = np.round(np.random.default_rng(n).random((n, 3)), 5)
    sums = np.frombuffer(compiled.resample_sums(np.ascontiguousarray(v), 257), dtype=np.float64).reshape(257, 3)
    assert np.array_equal(pb.resample_sums(v, 257), sums)


@pytest.mark.parametrize("average", [0, 1])
@pytest.mark.parametrize("n", [0, 1, 2, 17, 400])
def test_numpy_free_path_is_identical(n, average):
    """perl_bootstrap (compiled sums, post-processed in Python, no numpy) == the numpy twin, bit for bit."""
    pytest.importorskip("rougekit._core._bootstrap", reason="compiled bootstrap not built")
    rng = np.random.default_rng(n + 10 * average)
    if average == 1:  # (model count, peer count, hits), some zero counts
        v = rng.integers(0, 6, size=(n, 3)).astype(float)
        v[:, 2] = np.minimum(v[:, 2], np.minimum(v[:, 0], v[:, 1]))
    else:
        v = np.round(rng.random((n, 3)), 5)
    triples = [tuple(row) for row in v.tolist()]
    for resamples, confidence, alpha in ((1000, 95, 0.5), (57, 90, 0.3), (10, 99.5, 1.0)):
        twin = pb.resample_values(v.reshape(-1, 3), resamples, average, alpha)
        expected = pb._summarize([twin[:, c].tolist() for c in range(3)], resamples, confidence)
        assert pb.perl_bootstrap(triples, resamples, confidence, average, alpha) == expected
        assert pb.perl_bootstrap(v.reshape(-1, 3), resamples, confidence, average, alpha) == expected


def test_t1_counts_resampling():
    # -t 1 with one instance (model 4, peer 4, hits 3): every resample is that instance
    b = pb.perl_bootstrap(np.array([[4.0, 4.0, 3.0]]), 10, 95, average=1)
    assert b.average == pytest.approx((0.75, 0.75, 0.75))


@pytest.mark.parametrize("n, width, levels", [(1, 1, 3), (5, 3, 2), (3000, 9, 4000), (2500, 7, 60000), (999, 4, 1)])
def test_coded_columns_give_the_plain_sums(n, width, levels):
    """Columns read from codes of their distinct values (any grouping into 64-bit words) == the plain loop."""
    compiled = pytest.importorskip("rougekit._core._bootstrap", reason="compiled bootstrap not built")
    rng = np.random.default_rng(n + width)
    v = np.ascontiguousarray(rng.integers(0, levels, size=(n, width)) / 99991.0)
    groups = compiled.encode_columns(v)
    assert groups is not None and sorted(c for g in groups for c in g[0]) == list(range(width))
    plain = np.frombuffer(compiled.resample_sums(v, 57, 3), dtype=np.float64).reshape(57, width)
    for columns, *code in groups:
        sums = np.frombuffer(compiled.resample_sums_columns(*code, 57, 3), dtype=np.float64)
        assert np.array_equal(sums.reshape(57, len(columns)), plain[:, columns])


def test_too_many_distinct_values_are_not_coded():
    compiled = pytest.importorskip("rougekit._core._bootstrap", reason="compiled bootstrap not built")
    v = np.ascontiguousarray(np.arange(300.0).reshape(100, 3))
    assert compiled.encode_columns(v, limit=99) is None
    assert compiled.encode_columns(v, limit=100) is not None


def test_big_runs_read_codes_and_keep_the_twin_numbers(monkeypatch):
    """The coded loop (from _CODED_ROWS pairs, threads) gives the numpy twin's values, and one column
    resampled alone (perl_bootstrap_columns) gives the same as with all the others."""
    pytest.importorskip("rougekit._core._bootstrap", reason="compiled bootstrap not built")
    monkeypatch.setattr(pb, "_CODED_ROWS", 10)
    monkeypatch.setattr(pb, "_THREADED_DRAWS", 1000)
    v = np.round(np.random.default_rng(7).random((300, 6)), 5)
    twin = pb.resample_sums(v, 40) / 300
    assert np.array_equal(pb.resample_values(v, 40), twin)
    whole = pb.perl_bootstrap_measures(v, 40, 90)
    alone = pb.perl_bootstrap_columns(np.ascontiguousarray(v[:, [2, 5]]), 40, 90)
    assert alone == [(b.average[2], b.low[2], b.high[2]) for b in whole]


def test_codes_read_a_strided_view_where_it_is(monkeypatch):
    """The F columns of a pairs x measures x 6 array (the engine's layout) coded from the view itself,
    no copy: the codes of the copy, and the numpy twin's sums (the view's rows, not their neighbours)."""
    compiled = pytest.importorskip("rougekit._core._bootstrap", reason="compiled bootstrap not built")
    monkeypatch.setattr(pb, "_CODED_ROWS", 10)
    data = np.round(np.random.default_rng(11).random((400, 3, 6)), 3)
    view = data[:, :, 5]
    assert not view.flags.c_contiguous
    copy = np.ascontiguousarray(view)
    assert compiled.encode_columns(view) == compiled.encode_columns(copy)
    assert compiled.encode_columns(data[::-1, ::2, 4]) == compiled.encode_columns(
        np.ascontiguousarray(data[::-1, ::2, 4])
    )
    assert np.array_equal(pb.resample_values(view, 30), pb.resample_sums(copy, 30) / 400)
    packed = np.zeros(30, dtype=[("x", "f8"), ("flag", "u1")])["x"].reshape(-1, 1)  # rows 9 bytes apart
    with pytest.raises(ValueError, match="whole doubles"):
        compiled.encode_columns(packed)
    assert np.array_equal(pb.resample_values(packed, 5), np.zeros((5, 1)))  # copied first: the same sums


def test_blocks_of_resamples_keep_the_numbers(monkeypatch):
    """Resamples computed in blocks (a look at Ctrl-C between two) on 1 or 3 threads: the numbers
    of one call over all of them (each resample reseeds with its own index)."""
    pytest.importorskip("rougekit._core._bootstrap", reason="compiled bootstrap not built")
    v = np.round(np.random.default_rng(3).random((50, 4)), 5)
    whole = pb.resample_values(v, 97)
    assert np.array_equal(whole, pb.resample_sums(v, 97) / 50)  # the numpy twin
    monkeypatch.setattr(pb, "_BLOCK_DRAWS", 50 * 7)  # blocks of 7 resamples
    assert np.array_equal(pb.resample_values(v, 97), whole)
    monkeypatch.setattr(pb, "_THREADED_DRAWS", 1)
    monkeypatch.setattr(pb, "available_cores", lambda: 3)
    assert np.array_equal(pb.resample_values(v, 97), whole)


@pytest.mark.skipif(not hasattr(signal, "pthread_kill"), reason="signal.pthread_kill is POSIX only")
def test_an_interrupt_stops_every_thread_before_its_next_block(monkeypatch):
    """Ctrl-C during the resampling: the other thread takes no further block, it is waited for
    (nothing runs once KeyboardInterrupt is raised) and the resampling stops early."""
    main = threading.get_ident()
    calls: list = []
    sent: list = []

    class Slow:  # the compiled module's resample_sums, slowly, recording each block
        @staticmethod
        def resample_sums(values, count, first):
            calls.append(("start", first))
            if threading.get_ident() != main and not sent:
                sent.append(first)
                signal.pthread_kill(main, signal.SIGINT)
            try:
                time.sleep(0.05)
            finally:  # (this Python stand-in, unlike the compiled loop, is interrupted in the middle)
                calls.append(("end", first))
            return array("d", bytes(8 * count * values.shape[1]))

    monkeypatch.setattr(pb.backend, "bootstrap_module", lambda: Slow)
    monkeypatch.setattr(pb, "_THREADED_DRAWS", 1)
    monkeypatch.setattr(pb, "available_cores", lambda: 2)
    monkeypatch.setattr(pb, "_BLOCK_DRAWS", 10)  # one resample a block (10 rows)
    v = np.ones((10, 2))
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)  # even when started with it ignored
    try:
        with pytest.raises(KeyboardInterrupt):
            pb.resample_values(v, 40)
    finally:
        signal.signal(signal.SIGINT, previous)
    done = list(calls)
    time.sleep(0.3)
    assert calls == done  # every thread was done when the interrupt was raised
    assert [e for e, _ in done].count("start") == [e for e, _ in done].count("end") < 40


def test_a_slowed_thread_takes_fewer_blocks(monkeypatch):
    """The blocks of resamples are taken in turn, not cut into one slice a thread: when one thread is
    slowed (a busy core), the others take its share, and every resample is still computed once, with its
    own seed. Before: 20 of 40 resamples each, the run as long as the slow thread's half."""
    main = threading.get_ident()
    firsts: dict = {"main": [], "other": []}

    class Uneven:  # the compiled module's resample_sums: first=s gives row s the value s
        @staticmethod
        def resample_sums(values, count, first):
            mine = threading.get_ident() == main
            firsts["main" if mine else "other"].append(first)
            if not mine:
                time.sleep(0.05)
            return array("d", [float(s) for s in range(first, first + count) for _ in range(values.shape[1])])

    monkeypatch.setattr(pb.backend, "bootstrap_module", lambda: Uneven)
    monkeypatch.setattr(pb, "_THREADED_DRAWS", 1)
    monkeypatch.setattr(pb, "available_cores", lambda: 2)
    monkeypatch.setattr(pb, "_BLOCK_DRAWS", 10)  # one resample a block (10 rows)
    sums = pb._fast_sums(np.ones((10, 2)), 40)
    assert sums.tolist() == [[float(s), float(s)] for s in range(40)]
    assert sorted(firsts["main"] + firsts["other"]) == list(range(40))
    assert len(firsts["main"]) >= 30  # the other thread, 50 ms a block, took a few


@pytest.mark.parametrize("coded", [False, True])
def test_thread_counts_1_2_3_give_the_twin_intervals_bit_for_bit(monkeypatch, coded):
    """Intervals from the resamples split over 1, 2 or 3 threads (uneven slices: 61 resamples) are
    the numpy twin's, bit for bit: a slice starting at the wrong seed would change some sums."""
    pytest.importorskip("rougekit._core._bootstrap", reason="compiled bootstrap not built")
    v = np.round(np.random.default_rng(11).random((200, 6)), 4)
    twin = pb.resample_sums(v, 61) / 200
    monkeypatch.setattr(pb, "_CODED_ROWS", 10 if coded else 10**9)
    monkeypatch.setattr(pb, "_THREADED_DRAWS", 1)
    results = []
    for threads in (1, 2, 3):
        monkeypatch.setattr(pb, "available_cores", lambda threads=threads: threads)
        assert np.array_equal(pb.resample_values(v, 61), twin)
        results.append([(b.average, b.low, b.high) for b in pb.perl_bootstrap_measures(v, 61, 95)])
    flat = [[np.asarray(x).tobytes() for triple in r for x in triple] for r in results]
    assert flat[0] == flat[1] == flat[2]


def test_a_slice_of_resamples_is_the_same_rows_of_the_whole_run():
    """``first=`` (where a thread's slice starts) reseeds resample s with s: rows 17..39 of one call
    over 40 resamples are a call over 23 resamples from 17, in both compiled loops."""
    compiled = pytest.importorskip("rougekit._core._bootstrap", reason="compiled bootstrap not built")
    v = np.ascontiguousarray(np.round(np.random.default_rng(5).random((120, 3)), 4))
    whole = np.frombuffer(compiled.resample_sums(v, 40), dtype=np.float64).reshape(40, 3)
    part = np.frombuffer(compiled.resample_sums(v, 23, 17), dtype=np.float64).reshape(23, 3)
    assert np.array_equal(part, whole[17:])
    assert not np.array_equal(part, whole[16:39])  # a slice one seed off gives other sums
    ((columns, *code),) = compiled.encode_columns(v, limit=1 << 16)
    assert columns == [0, 1, 2]
    coded = np.frombuffer(compiled.resample_sums_columns(*code, 23, 17), dtype=np.float64).reshape(23, 3)
    assert np.array_equal(coded, whole[17:])


def test_pair_order_sums_add_row_after_row_with_the_carried_sum():
    # the compiled running sums (results.pair_sum's kernel) against an explicit loop in row order,
    # on a strided view and a contiguous block, carried from one block to the next
    from rougekit._core import _bootstrap as compiled

    rng = np.random.default_rng(7)
    data = rng.random((5000, 3, 6)) * rng.integers(1, 10**6, size=(5000, 3, 6))
    for values in (data[:, 1, 5:6], data.reshape(5000, 18)):
        want = [0.0] * values.shape[1]
        for row in values:
            for c, v in enumerate(row):
                want[c] += float(v)
        out = np.zeros(values.shape[1])
        compiled.pair_order_sums(values[:1234], out)
        compiled.pair_order_sums(values[1234:], out)
        assert out.tolist() == want
    with pytest.raises(ValueError, match="out holds 2 sums for 18 columns"):
        compiled.pair_order_sums(data.reshape(5000, 18), np.zeros(2))
