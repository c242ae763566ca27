"""The result model: immutable columns, a lazy per-pair view, data frames, a deferred bootstrap."""

from __future__ import annotations

import json
import pickle
import sys
import threading

import numpy as np
import pytest

import rougekit
from rougekit.results import RougeResult
from rougekit.stats.perl_bootstrap import perl_bootstrap, perl_bootstrap_measures

CANDS = ["police kill the gunman", "the cat sat on the mat", "a b c", "nothing in common", "the gunman was shot"]
REFS = [["police killed the gunman"], ["the cat was on the mat"], ["a b c d"], ["zz yy"], ["police shot the gunman"]]
MEASURES = ["ROUGE-1", "ROUGE-2", "ROUGE-L", "ROUGE-W-1.2", "BLEU"]


def _plain_dicts(result):
    """The per-pair list of dicts, built from the stored array by hand (what per_pair() used to return)."""
    out = []
    for row in result.data.tolist():
        entry = {}
        for m, v in zip(result.measures, row):
            entry[m.name] = {"score": v[5]} if m.single_valued else {"recall": v[3], "precision": v[4], "f": v[5]}
        out.append(entry)
    return out


DEFAULT_THREE = ["ROUGE-1", "ROUGE-2", "ROUGE-L"]


@pytest.fixture(scope="module")
def result():
    return rougekit.score(CANDS, REFS, measures=MEASURES)


@pytest.mark.parametrize("names", [["ROUGE-1"], ["ROUGE-1", "ROUGE-L"], DEFAULT_THREE, DEFAULT_THREE + ["ROUGE-SU4"]])
def test_per_pair_rows_for_any_number_of_measures(names):
    """Rows are built one way for the default three measures and another for other counts: both
    give the dicts built by hand from the array."""
    r = rougekit.score(CANDS, REFS, measures=names, bootstrap=None)
    assert list(r.per_pair()) == _plain_dicts(r) and list(r.per_pair()[1:3]) == _plain_dicts(r)[1:3]
    assert [list(p) for p in r.per_pair()] == [names] * len(CANDS)


def test_per_pair_view_behaves_like_the_list(result):
    view, plain = result.per_pair(), _plain_dicts(result)
    assert len(view) == 5 and view == plain and plain == view and list(view) == plain
    assert view[0]["ROUGE-1"]["recall"] == 0.75  # police/the/gunman of 4 reference words
    assert view[3]["ROUGE-1"] == {"recall": 0.0, "precision": 0.0, "f": 0.0}
    assert view[-1] == plain[-1] and view[1:4] == plain[1:4] and view[::-2] == plain[::-2]
    assert [p["ROUGE-L"]["f"] for p in view] == [p["ROUGE-L"]["f"] for p in plain]
    assert json.loads(json.dumps(list(view))) == plain
    assert view != plain[:4] and view != plain[:4] + [plain[0]]
    assert view.index(plain[2]) == 2 and plain[1] in view
    with pytest.raises(IndexError):
        view[5]
    with pytest.raises(TypeError):
        view["ROUGE-1"]
    view[0]["ROUGE-1"]["recall"] = 9.0  # a row is a fresh dict: the result does not change
    assert view[0]["ROUGE-1"]["recall"] == 0.75


def test_result_is_immutable(result):
    with pytest.raises(AttributeError):
        result.signature = None
    with pytest.raises(ValueError):
        result.data[0, 0, 0] = 1.0
    with pytest.raises(TypeError):
        result.intervals["ROUGE-1"] = {}
    with pytest.raises(TypeError):
        result.intervals["ROUGE-1"]["f"] = None
    with pytest.raises(TypeError):
        result.corpus_values["BLEU"] = 1.0
    with pytest.raises(TypeError):
        result.rouge155_averages["ROUGE-1"]["f"] = 1.0


def test_caller_array_is_left_writable():
    data = np.zeros((1, 1, 6))
    r = RougeResult(data, rougekit.Scorer(["ROUGE-1"]).options)
    data[0, 0, 3] = 0.5  # the caller's array stays writable; the result sees a read-only view
    assert not r.data.flags.writeable and r.per_pair()[0]["ROUGE-1"]["recall"] == 0.5
    with pytest.raises(ValueError, match="n x 1 x 6"):
        RougeResult(np.zeros((2, 3, 6)), rougekit.Scorer(["ROUGE-1"]).options)


def test_vectorized_values(result):
    plain = _plain_dicts(result)
    assert result.values("ROUGE-2", "recall").tolist() == [p["ROUGE-2"]["recall"] for p in plain]
    assert result.values("BLEU", "score").tolist() == [p["BLEU"]["score"] for p in plain]
    # "police kill the gunman" vs "police killed the gunman": 3 unigram hits, 4 reference and 4 candidate tokens
    assert result.values("ROUGE-1", "hits")[0] == 3 and result.values("ROUGE-1", "reference_count")[0] == 4
    with pytest.raises(KeyError):
        result.values("ROUGE-1", "fmeasure")


@pytest.mark.parametrize("ids", [None, [str(k) for k in range(15, 0, -1)]])
def test_bootstrap_runs_on_first_access_for_every_measure(ids):
    r = rougekit.score(CANDS * 3, REFS * 3, measures=["ROUGE-1", "ROUGE-2", "ROUGE-L"], ids=ids)
    r.per_pair()[0]
    assert r._boot is None  # nothing resampled for the per-pair scores
    seen = []
    threads = [threading.Thread(target=lambda: seen.append(r.intervals)) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(s is seen[0] for s in seen)  # computed once
    # the script's instances: "<id>." sorted as strings; without ids, 01, 02, ...: input order
    order = list(range(15)) if ids is None else sorted(range(15), key=lambda i: ids[i] + ".")
    for m in ("ROUGE-1", "ROUGE-2", "ROUGE-L"):
        alone = perl_bootstrap(r.column(m)[order][:, 3:6], 1000, 95)  # this measure alone, as the script runs it
        assert r.rouge155_averages[m] == dict(zip(("recall", "precision", "f"), alone.average))
        assert [r.intervals[m][k].low for k in ("recall", "precision", "f")] == list(alone.low)
        assert r.to_dict()[m]["interval"]["f"]["high"] == alone.high[2]


@pytest.mark.parametrize("average", [0, 1])
def test_shared_draws_equal_separate_runs(average):
    rng = np.random.default_rng(4)
    if average:
        v = rng.integers(0, 9, size=(57, 9)).astype(float)
    else:
        v = np.round(rng.random((57, 9)), 5)
    shared = perl_bootstrap_measures(v, 200, 90, average, 0.3)
    assert shared == [perl_bootstrap(v[:, k : k + 3].tolist(), 200, 90, average, 0.3) for k in (0, 3, 6)]


def test_percentile_intervals_share_one_draw():
    cands, refs = CANDS * 4, REFS * 4
    both = rougekit.score(cands, refs, measures=["ROUGE-1", "ROUGE-L"], bootstrap="percentile", seed=9, resamples=200)
    one = rougekit.score(cands, refs, measures=["ROUGE-L"], bootstrap="percentile", seed=9, resamples=200)
    assert both.intervals["ROUGE-L"] == one.intervals["ROUGE-L"]
    # by hand: numpy's generator with the seed, the mean of each resample, the 2.5/97.5 percentiles
    idx = np.random.default_rng(9).integers(0, len(cands), size=(200, len(cands)))
    f = one.values("ROUGE-L", "f")[idx].mean(axis=1)
    assert one.intervals["ROUGE-L"]["f"].low == pytest.approx(np.percentile(f, 2.5), abs=1e-12)


def test_no_bootstrap_and_aggregate_only():
    r = rougekit.score(CANDS, REFS, measures=["ROUGE-1"], bootstrap=None)
    assert dict(r.intervals) == {} and "interval" not in r.to_dict()["ROUGE-1"]
    flat = rougekit.Scorer(["ROUGE-1"], bootstrap=None).score_stream(zip(CANDS, REFS), keep_pairs=False)
    assert len(flat) == 0 and flat.total_pairs == 5 and list(flat.per_pair()) == []
    assert flat.to_dict()["ROUGE-1"]["f"] == pytest.approx(np.mean(r.values("ROUGE-1", "f")))


def test_pickles(result):
    back = pickle.loads(pickle.dumps(result))
    assert back.per_pair() == result.per_pair() and back.to_dict() == result.to_dict()
    assert back.signature == result.signature


def _frame_checks(columns, result):
    plain = _plain_dicts(result)
    assert columns["instance"] == ["1", "2", "3", "4", "5"]
    assert columns["ROUGE-1_recall"] == [p["ROUGE-1"]["recall"] for p in plain]
    assert columns["ROUGE-W-1.2_f"] == [p["ROUGE-W-1.2"]["f"] for p in plain]
    assert columns["BLEU_score"] == [p["BLEU"]["score"] for p in plain]
    assert columns["ROUGE-1_hits"][0] == 3 and columns["ROUGE-2_candidate_count"][2] == 2  # "a b c": 2 bigrams


def test_to_pandas(result):
    pd = pytest.importorskip("pandas", reason="pandas not installed (extra rougekit[pandas])")
    df = result.to_pandas()
    assert isinstance(df, pd.DataFrame) and len(df) == 5 and str(df["ROUGE-1_hits"].dtype) == "int64"
    _frame_checks({c: df[c].tolist() for c in df.columns}, result)


def test_to_arrow(result):
    pa = pytest.importorskip("pyarrow", reason="pyarrow not installed (extra rougekit[pyarrow])")
    table = result.to_arrow()
    assert table.num_rows == 5 and table.schema.field("instance").type == pa.string()
    _frame_checks(table.to_pydict(), result)


def test_to_polars(result):
    pl = pytest.importorskip("polars", reason="polars not installed (extra rougekit[polars])")
    df = result.to_polars()
    assert df.height == 5 and df.schema["instance"] == pl.Utf8 and df.schema["ROUGE-1_hits"] == pl.Int64
    _frame_checks(df.to_dict(as_series=False), result)


@pytest.mark.parametrize("module, method", [("pandas", "to_pandas"), ("pyarrow", "to_arrow"), ("polars", "to_polars")])
def test_missing_extra_is_named(result, monkeypatch, module, method):
    monkeypatch.setitem(sys.modules, module, None)  # "import module" now fails as if it were not installed
    with pytest.raises(ImportError, match=rf"pip install 'rougekit\[{module}\]'"):
        getattr(result, method)()


@pytest.mark.parametrize("cores", [2, 3])
def test_threaded_resampling_gives_the_same_sums(monkeypatch, cores):
    from rougekit.stats import perl_bootstrap as pb

    pytest.importorskip("rougekit._core._bootstrap", reason="compiled bootstrap not built")
    v = np.round(np.random.default_rng(1).random((41, 6)), 5)
    monkeypatch.setattr(pb, "_THREADED_DRAWS", 1)
    monkeypatch.setattr(pb, "available_cores", lambda: cores)
    assert np.array_equal(pb._fast_sums(v, 101), pb.resample_sums(v, 101))  # the numpy twin, in one piece


def test_the_rouge155_average_refuses_a_repeated_pair_id():
    # ROUGE-1.5.5.pl would merge two evaluations of one ID: no run of it prints such an average
    # (before: a number was printed; IDs are compared as text, so 1 and "1" are one ID)
    import rougekit
    from rougekit.errors import InputError

    cands, refs = ["a b", "c d", "e"], ["a", "c", "e"]
    with pytest.raises(InputError, match=r"^pair ID '1' repeats \(pairs 2 and 3\): ROUGE-1.5.5.pl would merge"):
        rougekit.score(cands, refs, ids=["x", "1", 1], average="rouge155", bootstrap="rouge155")
    ok = rougekit.score(cands, refs, ids=["x", "1", 2], average="rouge155", bootstrap="rouge155")
    assert len(ok) == 3
    assert len(rougekit.score(cands, refs, ids=["x", "1", 1], bootstrap=None)) == 3  # the pairs' mean: no order
