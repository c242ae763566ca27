"""Options a function cannot use are refused by name, not taken into its signature (review21a F3, F4):
``rougekit.explain`` has no interval and reads texts only; ``rougekit.spark.per_pair`` gives per-pair
values; a refused keyword is not "did you mean" itself."""

from __future__ import annotations

import pytest

import rougekit


@pytest.mark.parametrize("key, value", [("bootstrap", "percentile"), ("resamples", 7), ("confidence", 90),
                                        ("seed", 3), ("ignore_ids", [0])])  # fmt: skip
def test_explain_refuses_what_it_cannot_use(key, value):
    with pytest.raises(TypeError, match=rf"^rougekit\.explain\(\) got an unexpected keyword argument '{key}'$"):
        rougekit.explain("the cat sat", "the cat", **{key: value})


def test_explain_still_takes_the_scoring_options():
    found = rougekit.explain("the cats sat", "the cat sat", stem=True, multi_ref="max", alpha=0.5)
    assert "|stem:rouge155|" in found.signature and "|refs:max|" in found.signature
    assert "|boot:none|r:0|c:none|seed:none|" in found.signature  # no interval, and it says so


@pytest.mark.parametrize("key", ["bootstrap", "resamples", "confidence", "seed"])
def test_spark_per_pair_refuses_the_bootstraps_options(key):
    from rougekit import spark

    with pytest.raises(TypeError, match=rf"^rougekit\.spark\.per_pair\(\) got an unexpected keyword argument '{key}'$"):
        spark.per_pair(None, candidates="c", references="r", **{key: 1})


def test_a_refused_keyword_is_not_suggested_as_itself():
    from rougekit import dask

    with pytest.raises(TypeError) as caught:
        dask.extract(["a"], ["a"], dtype="float64")
    assert str(caught.value) == "rougekit.dask.extract() got an unexpected keyword argument 'dtype'"
