"""The coded bootstrap loop run eight resamples at a time (``rk_lanes``, AVX-512) gives the scalar loop's
and the numpy twin's sums bit for bit: each resample adds its drawn values in its own draw order.

Every comparison runs on every CPU: where the lanes cannot run (no AVX-512 F/DQ and BMI1/2),
``lanes(True)`` gives the scalar loop and the test compares that with the numpy twin; only the
dispatch (the lanes run exactly where the CPU has them) depends on the CPU."""

from __future__ import annotations

import numpy as np
import pytest
from _oracles import cpu_flags

from rougekit.stats import perl_bootstrap as pb

compiled = pytest.importorskip("rougekit._core._bootstrap", reason="compiled bootstrap not built")


@pytest.fixture
def lanes():
    """Set the kernel for one test (True: the eight-resample lanes where the CPU has them, False: the scalar
    loop; returns whether the lanes run), then restore."""
    yield compiled._lanes
    compiled._lanes(compiled.LANES, compiled._AHEAD)


def test_the_lanes_run_exactly_where_the_cpu_has_them(lanes):
    flags = cpu_flags()
    if flags is not None:  # x86-64 Linux: AVX-512 F and DQ, BMI1 and BMI2 (rk_lanes_cpu)
        assert compiled.LANES == {"avx512f", "avx512dq", "bmi1", "bmi2"}.issubset(flags)
    assert lanes(True) == compiled.LANES and not lanes(False)


def f_values(n: int, width: int, seed: int) -> np.ndarray:
    """F values 2h / (c + r) of small counts, as a real run's: added in another order they give other bits."""
    rng = np.random.default_rng(seed)
    c, r = rng.integers(1, 40, (2, n, width))
    h = np.floor(rng.random((n, width)) * (np.minimum(c, r) + 1))
    return np.ascontiguousarray(2 * h / (c + r))


def coded_sums(v: np.ndarray, resamples: int, first: int = 0, most: int = 3) -> np.ndarray:
    """The sums of every column read from its codes (any number of groups, ``most`` columns a group: the
    default 3, or 64 for groups of as many columns as their bits fit), resamples x width."""
    out = np.full((resamples, v.shape[1]), np.nan)
    groups = compiled.encode_columns(v, most=most)
    assert groups is not None
    for columns, *code in groups:
        sums = compiled.resample_sums_columns(*code, resamples, first)
        out[:, columns] = np.frombuffer(sums, dtype=np.float64).reshape(resamples, len(columns))
    return out


def bits(a: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(a).view(np.uint64)


@pytest.mark.parametrize("n", [1, 7, 9, 515, 1037])
@pytest.mark.parametrize("width", [1, 2, 3, 4, 5, 6, 9])
@pytest.mark.parametrize("ahead", [1, 6, 16, 31])
def test_lanes_give_the_numpy_twin_bits(lanes, n, width, ahead):
    """n not a multiple of 8 or of the ring of indices (32 steps), n below and above the prefetch distance,
    21 resamples (two full vectors and a tail of 5 for the scalar loop); groups of 3 columns (4: one of 4;
    5: 3 + 2; 9: 3 + 3 + 3), and as many columns as their bits fit (9 columns of a few hundred distinct
    values: 7, more than the lanes take, for the scalar loop, and 2 for the lanes)."""
    v = f_values(n, width, 100 * n + width)
    twin = pb.resample_sums(v, 21)
    assert lanes(True, ahead) == compiled.LANES  # else the scalar loop, against the same twin
    assert np.array_equal(bits(coded_sums(v, 21)), bits(twin))
    assert np.array_equal(bits(coded_sums(v, 21, most=64)), bits(twin))


def test_values_added_in_another_order_give_other_bits():
    """The values of the tests above are sensitive to the order of the adds (a kernel adding a lane's
    values in another order, or a lane's values to another lane, fails them)."""
    v = f_values(1037, 3, 7)
    twin = pb.resample_sums(v, 21)
    states = pb._seed_states(np.arange(21, dtype=np.uint64))
    drawn = []
    for _ in range(1037):
        states = pb._advance(states)
        drawn.append(v[np.floor(states.astype(np.float64) * pb._SCALE * 1037).astype(np.intp)])
    backwards = drawn[-1].copy()
    for d in drawn[-2::-1]:
        backwards += d
    assert np.array_equal(sum(drawn[1:], drawn[0].copy()), twin)
    assert not np.array_equal(backwards, twin)
    assert not np.array_equal(twin[1:], twin[:-1])


@pytest.mark.parametrize("resamples", [1, 5, 6, 7, 8, 9, 13, 14, 16, 23])
@pytest.mark.parametrize("first", [0, 3, 2**32 - 5])
def test_lanes_and_the_scalar_loop_agree_for_any_slice_of_resamples(lanes, resamples, first):
    """Whole vectors, vectors with idle lanes (a tail of 6 or 7) and scalar tails (1 to 5), from any
    first seed, also across the script's 32-bit seed wrap (srand(s) keeps the low 32 bits of s)."""
    v = f_values(777, 3, resamples)
    assert not lanes(False)
    scalar = coded_sums(v, resamples, first)
    assert lanes(True) == compiled.LANES
    assert np.array_equal(bits(coded_sums(v, resamples, first)), bits(scalar))
    if first == 0:
        assert np.array_equal(bits(scalar), bits(pb.resample_sums(v, resamples)))
    if first == 3:
        assert np.array_equal(bits(scalar), bits(pb.resample_sums(v, resamples + 3)[3:]))


def test_a_column_of_two_values_and_many_one_bit_columns(lanes):
    """Columns of 1-bit codes (12 in one group with most=64: more than the lanes' 6, the scalar loop;
    4 groups of 3 by default, the lanes) and a constant column; the lanes for the groups they take."""
    rng = np.random.default_rng(5)
    v = np.ascontiguousarray(np.where(rng.random((300, 12)) < 0.5, 1 / 3, 0.7))
    v[:, 4] = 0.25
    twin = pb.resample_sums(v, 17)
    assert lanes(True) == compiled.LANES
    assert [len(g[0]) for g in compiled.encode_columns(v, most=64)] == [12]
    assert np.array_equal(bits(coded_sums(v, 17, most=64)), bits(twin))
    assert np.array_equal(bits(coded_sums(v, 17)), bits(twin))
    for g in range(1, 7):  # 1..6 one-bit columns in one group: the lanes
        assert np.array_equal(bits(coded_sums(np.ascontiguousarray(v[:, :g]), 17)), bits(twin[:, :g]))


def test_masks_that_are_not_a_run_of_low_bits_take_the_scalar_loop(lanes):
    """resample_sums_columns takes any mask: one that is not 2^width - 1 (bextr could not cut it) is
    read by the scalar loop, with the same sums as the plain values."""
    rng = np.random.default_rng(3)
    table = np.round(rng.random(16), 4)
    codes = rng.integers(0, 1 << 8, 401).astype(np.uint64)
    plain = np.stack([table[codes & 0b1010], table[4 + ((codes >> 3) & 7)]], 1)
    assert lanes(True) == compiled.LANES
    sums = compiled.resample_sums_columns(codes, table, [0, 3], [0b1010, 7], [0, 4], 16, 0)
    twin = pb.resample_sums(np.ascontiguousarray(plain), 16)
    assert np.array_equal(np.frombuffer(sums, dtype=np.float64).reshape(16, 2), twin)


def test_big_runs_give_the_same_intervals_with_and_without_lanes(lanes, monkeypatch):
    """_fast_sums in blocks of whole vectors over 2 threads: the same bits as the scalar loop's run."""
    monkeypatch.setattr(pb, "_CODED_ROWS", 10)
    monkeypatch.setattr(pb, "_THREADED_DRAWS", 1000)
    monkeypatch.setattr(pb, "_BLOCK_DRAWS", 3000)  # 6 resamples a block of 500 rows: rounded up to 8
    monkeypatch.setattr(pb, "available_cores", lambda: 2)
    v = f_values(500, 3, 11)
    assert lanes(True) == compiled.LANES
    with_lanes = pb._fast_sums(v, 43)
    assert not lanes(False)
    assert np.array_equal(bits(with_lanes), bits(pb._fast_sums(v, 43)))
    assert np.array_equal(bits(with_lanes), bits(pb.resample_sums(v, 43)))


def pooled_values(n: int, pools: list[int], seed: int) -> np.ndarray:
    """n rows whose column j takes ~pools[j] distinct values (ratios of counts up to 400, sums sensitive to
    the order of the adds): codes of 13-14 bits for 20,011 rows, wider than the small counts' F values above."""
    rng = np.random.default_rng(seed)
    out = np.empty((n, len(pools)))
    for j, size in enumerate(pools):
        num, den = rng.integers(0, 400, size), rng.integers(1, 400, size)
        out[:, j] = (num / den)[rng.integers(0, size, n)]
    return np.ascontiguousarray(out)


@pytest.mark.parametrize("pools", [[30000], [9000, 5000, 40000], [20000, 20000, 20000, 20000], [3, 9000, 2, 12000, 7]])
@pytest.mark.parametrize("ahead", [1, 6, 31])
def test_wide_codes_give_the_scalar_loop_and_twin_bits(lanes, pools, ahead):
    """Columns of thousands of distinct values (bextr of 13-14 bits at shifts up to 42: four 14-bit columns
    in one code word with most=64, or groups of 3) mixed with columns of 2-7 values (1-3 bits), n = 20,011
    (not a multiple of 8 or of the ring): the lanes at any prefetch distance, the scalar loop and the numpy
    twin give the same bits, and the values added in reverse draw order give other bits (a reordered add
    fails this test)."""
    v = pooled_values(20011, pools, sum(pools) + ahead)
    groups = compiled.encode_columns(v, most=64)
    widths = [int(m).bit_length() for _, _, _, _, masks, _ in groups for m in masks]
    assert max(widths) >= 13 and len(groups) == 1
    twin = pb.resample_sums(v, 19)
    for most in (3, 64):  # groups of 3 columns (the default) or one group
        assert not lanes(False)
        scalar = coded_sums(v, 19, most=most)
        assert lanes(True, ahead) == compiled.LANES  # without AVX-512: the scalar loop again, still compared
        assert np.array_equal(bits(coded_sums(v, 19, most=most)), bits(twin))
        assert np.array_equal(bits(scalar), bits(twin))
    states = pb._seed_states(np.arange(19, dtype=np.uint64))
    drawn = []
    for _ in range(len(v)):
        states = pb._advance(states)
        drawn.append(v[np.floor(states.astype(np.float64) * pb._SCALE * len(v)).astype(np.intp)])
    backwards = drawn[-1].copy()
    for d in drawn[-2::-1]:
        backwards += d
    assert np.array_equal(sum(drawn[1:], drawn[0].copy()), twin)
    assert not np.array_equal(backwards, twin)


def test_columns_are_coded_in_groups_of_three():
    """The lanes keep 8 x 3 sums in registers (8 x 5 spill: the 9 R/P/F columns of 1M real pairs took
    3.5-4.0 ns a draw as 5 + 4 columns, 2.9-3.6 as 3 + 3 + 3): groups of 3 columns, a last single column
    joining the group before it, fewer when the codes' 64 bits are full; each group's codes and table
    give back its columns' values."""
    v = pooled_values(3000, [40, 900, 5, 2, 3000, 70, 6, 6, 300, 9, 11], 4)
    sizes = {w: [len(g[0]) for g in compiled.encode_columns(np.ascontiguousarray(v[:, :w]))] for w in range(1, 12)}
    assert sizes == {
        1: [1], 2: [2], 3: [3], 4: [4], 5: [3, 2], 6: [3, 3], 7: [3, 4], 8: [3, 3, 2],
        9: [3, 3, 3], 10: [3, 3, 4], 11: [3, 3, 3, 2],
    }  # fmt: skip
    wide = pooled_values(20011, [20000] * 5, 9)  # five 14-bit columns: 4 fill a code word (56 bits)
    assert [g[0] for g in compiled.encode_columns(wide, most=64)] == [[0, 1, 2, 3], [4]]
    assert [g[0] for g in compiled.encode_columns(wide, most=5)] == [[0, 1, 2, 3], [4]]
    assert [g[0] for g in compiled.encode_columns(wide)] == [[0, 1, 2], [3, 4]]
    for columns, codes, table, shifts, masks, offsets in compiled.encode_columns(v):
        c = np.frombuffer(codes, dtype=np.uint64)
        for j, sh, mk, off in zip(columns, shifts, masks, offsets):
            ids = ((c >> np.uint64(sh)) & np.uint64(mk)).astype(np.intp)
            assert np.array_equal(np.frombuffer(table)[off + ids], v[:, j])
    with pytest.raises(ValueError, match="most"):
        compiled.encode_columns(v, most=0)


def test_threads_read_one_group_of_codes_after_another(monkeypatch):
    """_fast_sums runs every block of resamples of a group of codes before the next group (the threads
    share one group's codes, 8 MB a million rows, in cache instead of cycling through all groups every
    block of 8 resamples), and the sums keep the twin's bits over 2 threads."""
    monkeypatch.setattr(pb, "_CODED_ROWS", 10)
    monkeypatch.setattr(pb, "_THREADED_DRAWS", 1000)
    monkeypatch.setattr(pb, "_BLOCK_DRAWS", 4000)  # 8 resamples a block of 500 rows
    v = f_values(500, 9, 12)
    calls = []

    class Spy:
        encode_columns = staticmethod(compiled.encode_columns)

        @staticmethod
        def resample_sums_columns(codes, *rest):
            calls.append((codes.buffer_info()[0], rest[-1]))  # (the group's codes, the first resample)
            return compiled.resample_sums_columns(codes, *rest)

    monkeypatch.setattr(pb.backend, "bootstrap_module", lambda: Spy)
    monkeypatch.setattr(pb, "available_cores", lambda: 1)
    sums = pb._fast_sums(v, 21)
    groups = list(dict.fromkeys(c for c, _ in calls))
    assert len(groups) == 3
    assert calls == [(g, first) for g in groups for first in (0, 8, 16)]
    assert np.array_equal(bits(sums), bits(pb.resample_sums(v, 21)))
    monkeypatch.setattr(pb, "available_cores", lambda: 2)
    assert np.array_equal(bits(pb._fast_sums(v, 21)), bits(sums))
