"""inputs.summaries on a list of numpy token-id arrays: read as it is (no pass per entry), while an
array of text in the list is still converted (issue 28: the fixed Python cost of a rewards call)."""

import numpy as np
import pytest

from rougekit._core import inputs


def test_list_of_id_arrays_is_read_as_it_is():
    arrays = [np.array([3, 1, 4, 1], dtype=np.int32), np.array([5, 9], dtype=np.int64), np.array([], dtype=np.uint16)]
    got = inputs.summaries(arrays, "candidates", "candidate")
    assert got is arrays  # before: a new list built entry by entry through summary()
    assert [a is b for a, b in zip(got, arrays)] == [True, True, True]


def test_an_array_of_text_among_id_arrays_is_still_converted():
    arrays = [np.array([2, 7], dtype=np.int32), np.array(["the cat", "sat"])]
    got = inputs.summaries(arrays, "candidates", "candidate")
    assert got[0] is arrays[0]
    assert got[1] == ["the cat", "sat"] and type(got[1]) is list


def test_a_dict_among_id_arrays_is_still_refused():
    with pytest.raises(TypeError, match="pair 2: candidate"):
        inputs.summaries([np.array([1, 2]), {"a": 1}], "candidates", "candidate")


def test_scores_of_id_arrays_equal_those_of_lists():
    import rougekit

    c = [np.array([1, 2, 3, 4, 2, 3], dtype=np.int32), np.array([7, 8, 9], dtype=np.int32)]
    r = [np.array([2, 3, 4, 1], dtype=np.int32), np.array([9, 8, 7, 8], dtype=np.int32)]
    a = rougekit.score(c, r, measures=["ROUGE-1", "ROUGE-2"], bootstrap=None)
    # by hand: pair 1 ROUGE-1 hits 4 (1,2,3,4) P 4/6 R 4/4 F 0.8; ROUGE-2 hits 2 (2-3, 3-4) of 5 and 3: F 0.5
    # pair 2: ROUGE-1 hits 3 of 3 and 4: F 6/7; ROUGE-2: (7, 8) hit once of 2 and 3: F 0.4
    assert a.values("ROUGE-1", "f").tolist() == pytest.approx([0.8, 6 / 7], abs=1e-5)  # values are shown to 5 digits
    assert a.values("ROUGE-2", "f").tolist() == pytest.approx([0.5, 0.4], abs=1e-5)
