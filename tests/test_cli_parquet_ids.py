"""`rougekit score --parquet/--arrow --id-column`: the IDs order ROUGE-1.5.5's bootstrap and its -t 0
average (the script sorts its evaluations by ID), as `rougekit.score(ids=)` and `--jsonl --id-field`
do. The corpus report was once computed in row order, ignoring the IDs (found by QA): its interval and
1.5.5 average differed from the API's on the same pairs. The expected numbers are `rougekit.score`'s
with the same IDs, whose bootstrap is checked against ROUGE-1.5.5.pl in the differential tests."""

from __future__ import annotations

import contextlib
import io
import json
import os
import warnings

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import rougekit
from rougekit.cli.main import main

WORDS = "the police cat dog found killed gunman under bed markets fell sharply monday stock a was".split()


def pairs(n: int = 40):
    import random

    rng = random.Random(7)
    cands = [" ".join(rng.choice(WORDS) for _ in range(rng.randint(3, 9))) for _ in range(n)]
    refs = [[" ".join(rng.choice(WORDS) for _ in range(rng.randint(3, 9)))] for _ in range(n)]
    ids = [f"doc{rng.randint(0, 10**6):07d}" for _ in range(n)]  # not in row order
    return cands, refs, ids


def cli_json(*argv, env: dict | None = None) -> dict:
    out = io.StringIO()
    old = {k: os.environ.get(k) for k in (env or {})}
    os.environ.update(env or {})
    try:
        with contextlib.redirect_stdout(out):
            assert main(list(argv)) == 0
    finally:
        for k, v in old.items():
            os.environ.pop(k) if v is None else os.environ.__setitem__(k, v)
    return json.loads(out.getvalue())


@pytest.mark.parametrize("average", ["pairs", "rouge155"])
@pytest.mark.parametrize("engine_reads_arrow", ["1", "0"])
def test_the_ids_order_the_bootstrap_as_in_the_api(tmp_path, average, engine_reads_arrow):
    cands, refs, ids = pairs()
    assert sorted(ids) != ids
    path = tmp_path / "pairs.parquet"
    pq.write_table(pa.table({"id": ids, "c": cands, "r": [r[0] for r in refs]}), path, row_group_size=16)
    want = rougekit.score(cands, refs, ids=ids, measures=["ROUGE-1"], average=average)
    unordered = rougekit.score(cands, refs, measures=["ROUGE-1"], average=average)
    got = cli_json(
        "score", "--parquet", str(path), "--candidate-column", "c", "--reference-column", "r", "--id-column", "id",
        "--measures", "ROUGE-1", "--average", average, "--format", "json", "-q",
        env={"ROUGEKIT_ARROW": engine_reads_arrow},
    )["systems"]["c"]["ROUGE-1"]  # fmt: skip
    interval = want.interval("ROUGE-1", "f")
    assert (got["interval"]["f"]["low"], got["interval"]["f"]["high"]) == (interval.low, interval.high)
    assert got["f"] == want.corpus("ROUGE-1")["f"]
    # the row order gives other numbers: the test tells the two apart
    other = unordered.interval("ROUGE-1", "f")
    assert (other.low, other.high) != (interval.low, interval.high)


def test_score_stream_takes_ids_filled_while_the_pairs_are_read():
    cands, refs, ids = pairs()
    scorer = rougekit.Scorer(["ROUGE-1"], average="rouge155")
    seen: list[str] = []

    def rows():
        for i, c, r in zip(ids, cands, refs):
            seen.append(i)
            yield c, r

    got = scorer.score_stream(rows(), chunk_size=7, ids=seen)
    want = rougekit.score(cands, refs, ids=ids, measures=["ROUGE-1"], average="rouge155")
    assert got.corpus("ROUGE-1")["f"] == want.corpus("ROUGE-1")["f"]
    assert got.interval("ROUGE-1", "f") == want.interval("ROUGE-1", "f")
    with pytest.raises(rougekit.errors.OptionError, match="3 ids for 40 pairs"):
        scorer.score_stream(zip(cands, refs), ids=ids[:3])


def test_triples_that_no_measure_reads_the_source_of_are_said():
    # (id, candidate, references) streamed by mistake reads as (candidate, references, source): said once a call
    scorer = rougekit.Scorer(["ROUGE-1"])
    pairs = [("id-1", "the cat sat", ["the cat sat", "a cat"]), ("id-2", "a", ["a"])]
    with pytest.warns(rougekit.errors.RougeKitWarning, match="pass ids= instead") as said:
        scorer.score_stream(pairs, chunk_size=1)
    assert len(said) == 1
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a source that a measure reads: nothing to say
        rougekit.Scorer(["SumACCY"]).score_stream([("the cat", ["the cat"], "the cat sat on a mat")])


def test_ids_are_checked_without_kept_pairs_and_f_only_needs_the_1_5_5_bootstrap(tmp_path, capsys):
    scorer = rougekit.Scorer(["ROUGE-1"], bootstrap=None)
    with pytest.raises(rougekit.errors.OptionError, match="2 ids for 1 pairs"):
        scorer.score_stream([("a", ["a"])], keep_pairs=False, ids=["x", "y"])
    with pytest.raises(rougekit.errors.OptionError, match="f_only"):
        rougekit.Scorer(["ROUGE-1"], bootstrap="percentile").collect_rpf(iter([]), 0, f_only=True)
    # JSONL with original texts that no measure reads: said, as for --sources and --source-column
    path = tmp_path / "rows.jsonl"
    path.write_text(json.dumps({"c": "a b", "r": "a b", "s": "a b c"}) + "\n")
    argv = ["score", "--jsonl", str(path), "--candidate-field", "c", "--reference-field", "r", "--source-field", "s"]
    assert main([*argv, "--measures", "ROUGE-1", "-q"]) == 0
    assert "the original texts are given, but no measure reads them" in capsys.readouterr().err
