"""`rougekit score --per-pair` with CSV/JSONL of line files: rows written while scoring, none kept."""

from __future__ import annotations

import contextlib
import csv
import io
import json

import pytest

import rougekit
from rougekit.cli.main import main
from rougekit.report.formats import to_csv, to_jsonl

CANDS = ["police kill the gunman", "the cat sat", "a b c d e", "nothing here"] * 7
REFS = ["police killed the gunman", "the cat sat on the mat", "a c e", "zz"] * 7
MEASURES = "ROUGE-1,ROUGE-L,ROUGE-W-1.2,BLEU"


def run(*argv):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["score", *map(str, argv)])
    return code, out.getvalue(), err.getvalue()


@pytest.fixture
def files(tmp_path):
    (tmp_path / "sysA.txt").write_text("\n".join(CANDS) + "\n")
    (tmp_path / "sysB.txt").write_text("\n".join(reversed(CANDS)) + "\n")
    (tmp_path / "ref.txt").write_text("\n".join(REFS) + "\n")
    return tmp_path


@pytest.mark.parametrize("fmt, writer", [("csv", to_csv), ("jsonl", to_jsonl)])
def test_streamed_rows_equal_the_whole_report(files, fmt, writer, monkeypatch):
    monkeypatch.setattr(rougekit.Scorer.score_chunks, "__defaults__", (5, None, None))  # several chunks
    out = files / f"pairs.{fmt}"
    code, stdout, _ = run(
        "-c", files / "sysA.txt", "-c", files / "sysB.txt", "-r", files / "ref.txt", "--measures", MEASURES,
        "--per-pair", "--format", fmt, "-o", out,
    )  # fmt: skip
    assert code == 0 and stdout == ""
    scorer = rougekit.Scorer(MEASURES.split(","))
    whole = {name: scorer.score(c, REFS) for name, c in (("sysA", CANDS), ("sysB", CANDS[::-1]))}
    assert out.read_text() == writer(whole, per_pair=True)


def test_streamed_csv_values(files):
    code, stdout, _ = run("-c", files / "sysA.txt", "-r", files / "ref.txt", "--per-pair", "--format", "csv")
    rows = list(csv.DictReader(io.StringIO(stdout)))
    assert code == 0 and len(rows) == len(CANDS) and [r["instance"] for r in rows[:3]] == ["1", "2", "3"]
    # police/the/gunman: 3 of 4 reference and of 4 candidate unigrams
    assert (rows[0]["system"], rows[0]["ROUGE-1_recall"], rows[0]["ROUGE-1_precision"]) == ("sysA", "0.75", "0.75")
    # "the cat sat" vs "the cat sat on the mat": bigrams the-cat, cat-sat of 5
    assert (rows[1]["ROUGE-2_recall"], rows[1]["ROUGE-2_precision"]) == ("0.4", "1.0")


def test_streamed_jsonl_to_stdout(files):
    code, stdout, _ = run("-c", files / "sysA.txt", "-r", files / "ref.txt", "--per-pair", "--format", "jsonl", "-o-")
    rows = [json.loads(line) for line in stdout.splitlines()]
    assert code == 0 and len(rows) == len(CANDS)
    assert rows[2] == {
        "system": "sysA",
        "instance": "3",  # "a b c d e" vs "a c e": 3 unigram hits; LCS a c e
        "ROUGE-1": {"recall": 1.0, "precision": 0.6, "f": 0.75},
        "ROUGE-2": {"recall": 0.0, "precision": 0.0, "f": 0.0},
        "ROUGE-L": {"recall": 1.0, "precision": 0.6, "f": 0.75},
    }


def test_error_after_rows_removes_the_partial_file(files):
    (files / "short.txt").write_text("\n".join(REFS[:-1]) + "\n")  # one line short: found at the end
    out = files / "pairs.csv"
    code, _, err = run("-c", files / "sysA.txt", "-r", files / "short.txt", "--per-pair", "--format", "csv", "-o", out)
    assert code == 2 and "has 27 lines but" in err and not out.exists()


def test_score_chunks_yields_each_chunk():
    scorer = rougekit.Scorer(["ROUGE-1"], bootstrap=None)
    chunks = list(scorer.score_chunks(zip(CANDS, REFS), chunk_size=8))
    assert [len(c) for c in chunks] == [8, 8, 8, 4]
    whole = scorer.score(CANDS, REFS).data
    assert all((a == b).all() for a, b in zip(chunks, (whole[k : k + 8] for k in range(0, 28, 8))))


@pytest.mark.parametrize("system", ["sysA", "a,b", 'say "hi"', "two\nlines", ""])
def test_csv_rows_are_what_csv_writer_writes(system):
    """The csv writer formats each distinct value once: the text is csv.writer's, for any value
    (nan, inf, tiny and negative zero included) and any system name (quoted as csv quotes it)."""
    import numpy as np

    from rougekit.measures import Measure
    from rougekit.report.formats import PairRowWriter

    rng = np.random.default_rng(4)
    measures = [Measure.parse(x) for x in ("ROUGE-1", "ROUGE-L", "BLEU")]
    specials = [0.0, 1.0, float("nan"), float("inf"), 1e-05, 2.5e-17, 1 / 3, 0.1 + 0.2]
    for signed in (False, True):
        data = rng.choice([*specials, *rng.random(50).tolist()], size=(300, len(measures), 6))
        if signed:
            data[7, 1, 4] = -0.0
        ours, theirs = io.StringIO(), io.StringIO()
        writer = PairRowWriter(ours, "csv", measures)
        writer.write(system, 41, data)
        plain = csv.writer(theirs, lineterminator="\n")
        plain.writerow(["system", "instance", *next(csv.reader(io.StringIO(ours.getvalue())))[2:]])
        cells = writer._cells
        plain.writerows([system, str(41 + k), *row] for k, row in enumerate(data.reshape(300, -1)[:, cells].tolist()))
        assert ours.getvalue() == theirs.getvalue()


def test_corpus_means_have_the_same_bits_however_the_pairs_are_chunked():
    # the corpus mean is the per-pair values added one pair after another, in pair order, over the
    # number of pairs (added here by hand), whether the pairs were scored in one call or streamed in
    # chunks of any size without keeping them; before, each chunk was summed apart, so the last bits
    # moved with the chunk size
    import random

    rng = random.Random(5)
    words = "the cat sat on a mat dog ran far away big small red".split()
    cands = [" ".join(rng.choices(words, k=rng.randint(3, 30))) for _ in range(3000)]
    refs = [" ".join(rng.choices(words, k=rng.randint(3, 30))) for _ in range(3000)]
    measures = ["ROUGE-1", "ROUGE-2", "ROUGE-L", "ROUGE-SU4"]
    whole = rougekit.score(cands, refs, measures=measures, bootstrap=None)
    scorer = rougekit.Scorer(measures=measures, bootstrap=None)
    for name in measures:
        for key, col in (("recall", 3), ("precision", 4), ("f", 5)):  # columns MODEL, HITS, PEER, R, P, F
            total = 0.0
            for value in whole.column(name)[:, col]:
                total += float(value)
            assert whole.corpus(name)[key] == total / len(cands)
    for size in (1, 7, 333, 3000):
        streamed = scorer.score_stream(zip(cands, [[r] for r in refs]), chunk_size=size, keep_pairs=False)
        assert [streamed.corpus(n) for n in measures] == [whole.corpus(n) for n in measures]


def test_a_text_per_pair_row_keeps_an_instance_id_with_a_line_break_on_its_line():
    # an ID read from JSON may hold "\n" or "\t": the text table writes it escaped, one row a line
    # (before: the raw line break split the row; CSV quotes it)
    from rougekit.report.formats import to_text

    r = rougekit.score(["a b"], ["a"], ids=["x\ny\t"], measures="ROUGE-1", bootstrap=None)
    lines = to_text({"s": r}, per_pair=True).splitlines()
    assert lines[-2] == "s       ROUGE-1       1.00000   0.50000  0.66667   instance x\\ny\\t"
    assert len(lines) == 6
