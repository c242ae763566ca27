"""The highlights' kernels (``batch_marks``, ``batch_chosen``: the compiled ones in marks.pxi and
score.pxi, their twins in ``_core._explain``) check their arrays before they count: a token id
above any bound, a text index, an offset or a marks position out of range is the same result or
the same ValueError on both backends, never a read or write outside the arrays (before: the
compiled ones took a ``vocab`` bound from the caller and crashed, rc 139, when an id was not below
it, or on an index out of range)."""

import numpy as np
import pytest
from test_kinds_entry import _csr  # the kernels' CSR arrays of texts

from rougekit._core import _batch, _explain
from rougekit._core.kinds import Kind

BACKENDS = [_batch, _explain]


BIG = 5_000_000
# candidate "BIG 7 BIG", references "7 BIG" and "BIG BIG BIG" (ids far above the text count)
TEXTS = [[[BIG, 7, BIG]], [[7, BIG]], [[BIG, BIG, BIG]]]


def _marks(module, kind, n, arrays, peer, model, peer_room=0, second_at=None):
    size = np.diff(arrays[1])
    peer_at = np.zeros(len(peer) + 1, np.int64)
    np.cumsum(size[np.clip(peer, 0, len(size) - 1)], out=peer_at[1:])
    if second_at is not None:
        peer_at[1] = second_at
    model_at = np.zeros(len(model) + 1, np.int64)
    np.cumsum(size[np.clip(model, 0, len(size) - 1)], out=model_at[1:])
    hits = np.zeros(len(peer))
    pm = np.zeros(int(peer_at[-1]) - peer_room, np.uint8)
    mm = np.zeros(int(model_at[-1]), np.uint8)
    module.batch_marks(int(kind), n, 0, 0.0, *arrays, peer, model, peer_at, model_at, hits, pm, mm)
    return hits.tolist(), pm.tolist(), mm.tolist()


def _chosen(module, arrays, peer, ref_off, model, mode_max=False):
    got = np.full(len(peer), -7, np.int32)
    module.batch_chosen(int(Kind.N), 1, 0, 0.0, *arrays, peer, ref_off, model, not mode_max, mode_max, 0.5, got)
    return got.tolist()


@pytest.mark.parametrize("module", BACKENDS)
def test_large_ids_are_counted_by_hand(module):
    arrays = _csr(TEXTS)
    peer, model = np.array([0, 0], np.int32), np.array([1, 2], np.int32)
    # ROUGE-1 against "7 BIG": 7 and one BIG (2 hits); against "BIG BIG BIG": the candidate's two
    # BIGs, clipped by the reference's three (2 hits); the marks: every position of a matched
    # unigram, on both sides (the candidate's 7 has no match in the second reference)
    hits, pm, mm = _marks(module, Kind.N, 1, arrays, peer, model)
    assert hits == [2.0, 2.0]
    assert pm == [1, 1, 1] + [1, 0, 1]
    assert mm == [1, 1] + [1, 1, 1]
    # -f B: recall 2/2 beats 2/3, the first reference
    assert _chosen(module, arrays, np.array([0], np.int32), np.array([0, 2], np.int64), model) == [0]


def _bad_inputs():
    arrays = _csr(TEXTS)
    peer, model = np.array([0, 0], np.int32), np.array([1, 2], np.int32)
    negative = _csr([[[1, -3]], [[1]], [[2]]])
    short = [a.copy() for a in arrays]
    short[1][-1] = len(short[0]) + 4  # the last text runs past the tokens
    falling = [a.copy() for a in arrays]
    falling[3][1:] = falling[3][1:][::-1]  # unit offsets that go down
    return [
        ("negative id", negative, peer, model, 0, r"token id -3 at 1: ids are 0 or more"),
        ("tokens past the end", short, peer, model, 0, r"texts: tok_off and text_sents need"),
        ("falling offsets", falling, peer, model, 0, r"texts: tok_off and text_sents need"),
        ("candidate index", arrays, np.array([0, 3], np.int32), model, 0, r"peer\[1\] = 3: there are 3 texts"),
        ("reference index", arrays, peer, np.array([1, -1], np.int32), 0, r"model\[1\] = -1: there are 3 texts"),
        ("marks too short", arrays, peer, model, 1, r"peer_at\[1\] = 3: 3 marks do not fit in 5"),
    ]


@pytest.mark.parametrize("case", _bad_inputs(), ids=lambda c: c[0])
@pytest.mark.parametrize("module", BACKENDS)
def test_marks_refuse_what_does_not_fit(module, case):
    _, arrays, peer, model, room, message = case
    with pytest.raises(ValueError, match=message):
        _marks(module, Kind.N, 1, arrays, peer, model, peer_room=room)


@pytest.mark.parametrize("module", BACKENDS)
def test_a_marks_position_near_the_int64_limit_does_not_wrap(module):
    # at + length would wrap past 2**63 - 1 to a negative number (found by review: rc 139)
    arrays = _csr(TEXTS)
    peer, model = np.array([0, 0], np.int32), np.array([1, 2], np.int32)
    with pytest.raises(ValueError, match=r"peer_at\[1\] = 9223372036854775806: 3 marks do not fit in 6"):
        _marks(module, Kind.N, 1, arrays, peer, model, second_at=2**63 - 2)


@pytest.mark.parametrize("module", BACKENDS)
def test_chosen_refuses_what_does_not_fit(module):
    arrays = _csr(TEXTS)
    one = np.array([0], np.int32)
    with pytest.raises(ValueError, match=r"model\[1\] = 9: there are 3 texts"):
        _chosen(module, arrays, one, np.array([0, 2], np.int64), np.array([1, 9], np.int32))
    with pytest.raises(ValueError, match=r"peer\[0\] = 3: there are 3 texts"):
        _chosen(module, arrays, np.array([3], np.int32), np.array([0, 2], np.int64), np.array([1, 2], np.int32))
    with pytest.raises(ValueError, match=r"token id -3 at 1"):
        _chosen(module, _csr([[[1, -3]], [[1]], [[2]]]), one, np.array([0, 2], np.int64), np.array([1, 2], np.int32))
    with pytest.raises(ValueError, match=r"ref_off must rise"):
        _chosen(module, arrays, np.array([0, 0], np.int32), np.array([0, 2, 1], np.int64), np.array([1, 2], np.int32))


def test_the_batch_engine_checks_every_kind_before_reading_a_folded_rows_next():
    # a folded row (fourth field 1) reads the next row's kind: an unknown one is refused by name
    # (before: read from outside the kind table first)
    with pytest.raises(ValueError, match=r"kind code 99 is not one the batch scorer counts"):
        _batch._Engine([(int(Kind.S), 4, 0.0, 1), (99, 1, 0.0)], None, 0, None, 0, 0, False, 0.5, 0)
