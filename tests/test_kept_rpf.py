"""Issue 28 (fewer fresh pages): ``rougekit score --parquet``'s corpus report keeps of each pair only
its recall, precision and f (``Scorer.collect_rpf``, ``RougeResult(kept_rpf=...)``), each chunk scored
into one reused array (``Scorer.arrow_chunks(scratch=...)``): the same corpus numbers and intervals,
bit for bit, as the result of every pair's statistics; no row dropped or shifted."""

from __future__ import annotations

import contextlib
import io
import pickle

import numpy as np
import pytest
from _corpus import random_pairs

pa = pytest.importorskip("pyarrow")
import pyarrow.parquet as pq  # noqa: E402

from rougekit.api import Scorer  # noqa: E402
from rougekit.cli import score as cli_score  # noqa: E402
from rougekit.cli.main import main  # noqa: E402
from rougekit.errors import InputError  # noqa: E402
from rougekit.results import RougeResult  # noqa: E402

pytestmark = pytest.mark.skipif(not Scorer().reads_arrow(), reason="the compiled engine is not built")

WORDS = "police kill killed the gunman a cat was found under bed dog barked markets fell sharply on monday".split()
MEASURES = ["ROUGE-1", "ROUGE-2", "ROUGE-L"]


def _corpus(n: int, seed: int):
    return random_pairs(n, seed, WORDS, 25)


def _batches(cands, refs, cut=1200):
    return [(pa.array(cands[:cut]), pa.array(refs[:cut])), (pa.array(cands[cut:]), pa.array(refs[cut:]))]


def test_scratch_chunks_are_the_plain_chunks_scored_into_one_array():
    cands, refs = _corpus(2500, 3)
    scorer = Scorer(measures=MEASURES, bootstrap=None)
    plain = list(scorer.arrow_chunks(_batches(cands, refs), chunk_size=700))
    scratch = np.full((700, 3, 6), np.nan)  # not zeroed: each chunk is zeroed before it is scored
    got = []
    for chunk in scorer.arrow_chunks(_batches(cands, refs), chunk_size=700, scratch=scratch):
        assert np.shares_memory(chunk, scratch)
        got.append(chunk.copy())  # good until the next chunk
    assert [len(c) for c in got] == [700, 700, 700, 400]
    assert np.concatenate(got).tobytes() == np.concatenate(plain).tobytes()
    with pytest.raises(ValueError):  # a scratch array smaller than a chunk
        list(scorer.arrow_chunks(_batches(cands, refs), chunk_size=700, scratch=np.zeros((699, 3, 6))))


def _report(result: RougeResult):
    return (
        result.total_pairs,
        {m: result.corpus(m) for m in MEASURES},
        {m: result.interval(m, "f") for m in MEASURES},
        result.to_dict(),
    )


@pytest.mark.parametrize(
    "options",
    [{}, {"bootstrap": "percentile", "seed": 5}, {"average": "rouge155"}],
)
@pytest.mark.parametrize("rows", [2500, 2000, 3100, None])  # the row count right, too small, too large, unknown
def test_kept_rpf_gives_the_full_results_numbers_bit_for_bit(options, rows):
    cands, refs = _corpus(2500, 7)
    scorer = Scorer(measures=MEASURES, resamples=200, **options)
    full = scorer.score(cands, refs)
    chunks = [c.copy() for c in scorer.arrow_chunks(_batches(cands, refs), chunk_size=700)]
    kept = scorer.collect_rpf(iter(chunks), rows)
    assert len(kept) == 0 and kept.total_pairs == 2500
    assert _report(kept) == _report(full)
    again = pickle.loads(pickle.dumps(kept))
    assert _report(again) == _report(full)
    # the intervals read the rows in their order: one row moved to the end gives other bounds (so the
    # equality above would catch a row dropped or shifted)
    moved = np.concatenate(chunks)
    moved = np.concatenate([moved[:1], moved[2:], moved[1:2]])
    other = scorer.collect_rpf(iter([moved]), 2500)
    assert [other.interval(m, "f") for m in MEASURES] != [full.interval(m, "f") for m in MEASURES]


@pytest.mark.parametrize("rows", [2500, 1000, None])
def test_kept_f_gives_the_corpus_numbers_and_f_intervals_and_refuses_the_others(rows):
    # what a text report of the 1.5.5 bootstrap reads: the corpus R/P/F (column sums) and the f intervals
    cands, refs = _corpus(2500, 9)
    scorer = Scorer(measures=MEASURES, resamples=200)
    full = scorer.score(cands, refs)
    chunks = [c.copy() for c in scorer.arrow_chunks(_batches(cands, refs), chunk_size=700)]
    kept = scorer.collect_rpf(iter(chunks), rows, f_only=True)
    assert kept.total_pairs == 2500
    assert {m: kept.corpus(m) for m in MEASURES} == {m: full.corpus(m) for m in MEASURES}
    assert [kept.interval(m, "f") for m in MEASURES] == [full.interval(m, "f") for m in MEASURES]
    for asked in (lambda: kept.interval("ROUGE-1", "recall"), lambda: kept.intervals, kept.to_dict):
        with pytest.raises(ValueError, match="f only"):
            asked()


def test_kept_rpf_is_refused_where_it_cannot_give_the_numbers():
    scorer = Scorer(measures=MEASURES)
    with pytest.raises(InputError):
        scorer.collect_rpf(iter([]), 10)
    tokens = Scorer(measures=MEASURES, average="tokens")
    none = np.zeros((0, 3, 6))
    with pytest.raises(ValueError, match="tokens"):  # its bootstrap resamples the counts
        RougeResult(none, tokens.options, totals=np.zeros((3, 6)), total_pairs=2, kept_rpf=np.zeros((2, 3, 3)))
    with pytest.raises(ValueError, match="aggregate-only"):
        RougeResult(np.zeros((2, 3, 6)), scorer.options, kept_rpf=np.zeros((2, 3, 3)))
    with pytest.raises(ValueError, match="2 x 3 x 3 \\(or x 1\\)"):
        RougeResult(none, scorer.options, totals=np.zeros((3, 6)), total_pairs=2, kept_rpf=np.zeros((3, 3, 3)))


def _cli(*argv):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main([*map(str, argv)])
    return code, out.getvalue(), err.getvalue()


@pytest.mark.parametrize(
    "extra",
    [[], ["--format", "json"], ["--format", "csv"], ["--bootstrap", "percentile", "--seed", "3", "--format", "json"]],
)
def test_cli_parquet_report_is_the_same_as_from_every_pairs_statistics(tmp_path, monkeypatch, extra):
    # chunks of 700 rows across row groups of 900: the report from the kept R/P/F is the one made from
    # every pair's statistics (ROUGEKIT_ARROW=0: the pairs read as Python str, all kept)
    cands, refs = _corpus(3000, 11)
    path = tmp_path / "pairs.parquet"
    pq.write_table(pa.table({"c": cands, "r": refs}), path, row_group_size=900)
    monkeypatch.setattr(cli_score, "_CHUNK", 700)
    args = ["score", "--parquet", path, "--candidate-column", "c", "--reference-column", "r", "--resamples", "300"]
    calls = []
    real = Scorer.collect_rpf
    monkeypatch.setattr(Scorer, "collect_rpf", lambda self, *a: calls.append(a[2]) or real(self, *a))
    kept = _cli(*args, *extra)
    assert calls == [extra == []]  # the text report of the 1.5.5 bootstrap keeps each pair's f only
    monkeypatch.setenv("ROUGEKIT_ARROW", "0")
    assert _cli(*args, *extra) == kept
    assert len(calls) == 1 and kept[0] == 0 and "3000" in kept[1]


def test_the_bootstrap_of_kept_rpf_reads_it_where_it_is():
    # R/P/F of every measure, in input order: kept_rpf is already the n x (measures x 3) columns the
    # bootstrap reads (a million pairs: no 72 MB copy of fresh pages)
    from rougekit.results import F, P, R, _columns

    cands, refs = _corpus(300, 13)
    scorer = Scorer(measures=MEASURES, resamples=100)
    full = scorer.score(cands, refs)
    kept = scorer.collect_rpf(iter([full.data]), 300)
    values = _columns(kept, [0, 1, 2], [R, P, F], in_script_order=True)
    assert np.shares_memory(values, kept._rpf)
    assert values.tobytes() == _columns(full, [0, 1, 2], [R, P, F], in_script_order=True).tobytes()
    assert kept.to_dict() == full.to_dict()
