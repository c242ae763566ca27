"""Issue 28: pyarrow string columns read by the engine from their UTF-8 buffers and offsets (no
Python str per row): bit-identical per-pair numbers and the same warnings as the same texts given as
Python lists, for ``rougekit.score`` and ``rougekit score --parquet``; nulls, sliced arrays, chunk
boundaries, empty strings, white space outside ASCII, markers and non-ASCII letters included."""

from __future__ import annotations

import contextlib
import io
import random
import warnings

import pytest

pa = pytest.importorskip("pyarrow")
import pyarrow.parquet as pq  # noqa: E402

import rougekit  # noqa: E402
from rougekit.api import Scorer  # noqa: E402
from rougekit.cli.main import main  # noqa: E402

pytestmark = pytest.mark.skipif(not Scorer().reads_arrow(), reason="the compiled engine is not built")

WORDS = (
    "police kill killed the gunman a cat was found under bed dog barked markets fell sharply on monday "
    "Straße überflutet café naïve 北京 欢迎 Привет мир 2008 x-ray <q> </s> , . ; ( ) -- ' \""
).split()
SPACES = [" ", " ", " ", "\n", "\t", "\u00a0", "\u3000", "\x1c", "\u2028", "\x85"]


def _text(rng: random.Random) -> str:
    kind = rng.random()
    if kind < 0.04:
        return ""
    if kind < 0.08:
        return "".join(rng.choice(SPACES) for _ in range(rng.randint(1, 4)))
    if kind < 0.12:
        return "北京欢迎你 " * rng.randint(1, 3)  # no ASCII token: an empty-tokens warning
    words = [rng.choice(WORDS) for _ in range(rng.randint(1, 40))]
    return "".join(w + rng.choice(SPACES) for w in words)


def _corpus(n: int, seed: int, refs_per_row: int = 0):
    rng = random.Random(seed)
    cands = [_text(rng) for _ in range(n)]
    if refs_per_row:
        refs = [[_text(rng) for _ in range(rng.randint(1, refs_per_row))] for _ in range(n)]
    else:
        refs = [_text(rng) for _ in range(n)]
    return cands, refs


def _caught(call):
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        value = call()
    return value, sorted((type(w.message).__name__, str(w.message)) for w in seen)


def _both(scorer: Scorer, cands, refs, arrow_cands, arrow_refs):
    """(data, warnings) of the lists and of the arrays; the arrays are read from their buffers."""
    assert scorer._arrow_pieces(arrow_cands, arrow_refs) is not None
    listed = _caught(lambda: scorer.statistics(cands, refs)[0])
    arrowed = _caught(lambda: scorer.statistics(arrow_cands, arrow_refs)[0])
    return listed, arrowed


def _same(listed, arrowed):
    assert listed[0].shape == arrowed[0].shape
    assert listed[0].tobytes() == arrowed[0].tobytes()  # bit for bit
    assert listed[1] == arrowed[1]


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"stem": True, "stopwords": True},
        {"word_limit": 7, "multi_ref": "best"},
        {"byte_limit": 30, "multi_ref": "max"},
    ],
)
@pytest.mark.parametrize("string", ["string", "large_string"])
def test_string_columns_score_bit_for_bit_as_lists(options, string):
    cands, refs = _corpus(600, 28, refs_per_row=3)
    kind = getattr(pa, string)()
    scorer = Scorer(["ROUGE-1", "ROUGE-2", "ROUGE-L", "ROUGE-SU4", "ROUGE-3"], bootstrap=None, **options)
    listed, arrowed = _both(scorer, cands, refs, pa.array(cands, kind), pa.array(refs, pa.list_(kind)))
    _same(listed, arrowed)
    assert any(name == "LettersDroppedWarning" for name, _ in listed[1])
    assert any(name == "SentenceMarkerWarning" for name, _ in listed[1])
    assert any(name == "EmptyTokensWarning" for name, _ in listed[1])


def test_one_reference_a_row_sliced_and_chunked_at_other_rows():
    cands, refs = _corpus(500, 7)
    scorer = Scorer(["ROUGE-1", "ROUGE-L"], bootstrap=None, jobs=2)
    arrow_cands = pa.chunked_array([cands[:1], cands[1:130], cands[130:131], cands[131:]])
    arrow_refs = pa.chunked_array([refs[:77], [], refs[77:400], refs[400:]], pa.large_string())
    _same(*_both(scorer, cands, refs, arrow_cands, arrow_refs))
    # slices of a larger array (their offsets do not start at 0), list references sliced too
    whole_c, whole_r = pa.array(["x y"] * 3 + cands), pa.array([["z"]] * 3 + [[r] for r in refs])
    _same(*_both(scorer, cands[5:405], [[r] for r in refs[5:405]], whole_c.slice(8, 400), whole_r.slice(8, 400)))


def test_rougekit_score_takes_arrays_and_an_engine_error_names_the_pair_across_chunks():
    cands, refs = _corpus(40, 3)
    refs = [r if any(c.isascii() and c.isalnum() for c in r) else "fill" for r in refs]
    refs[33] = " ... "  # no tokens: ROUGE-W is undefined
    arrow_cands = pa.chunked_array([cands[:20], cands[20:]])
    arrow_refs = pa.chunked_array([refs[:30], refs[30:]])
    for c, r in ((cands, refs), (arrow_cands, arrow_refs)):
        with pytest.raises(rougekit.InputError, match=r"^pair 34: ROUGE-W is undefined"):
            rougekit.score(c, r, measures=["ROUGE-W-1.2"], bootstrap=None)
    result = rougekit.score(arrow_cands, arrow_refs, bootstrap=None, measures=["ROUGE-1"])
    expected = rougekit.score(cands, refs, bootstrap=None, measures=["ROUGE-1"])
    assert result.per_pair() == expected.per_pair()


def test_nulls_and_other_columns_are_read_as_lists_with_their_errors():
    scorer = Scorer(["ROUGE-1"], bootstrap=None)
    with_null = pa.array(["a b", None, "c"])
    assert scorer._arrow_pieces(with_null, pa.array(["a", "b", "c"])) is None
    assert scorer._arrow_pieces(pa.array(["a"]), pa.array([["a", None]])) is None
    assert scorer._arrow_pieces(pa.array(["a"], pa.binary()), pa.array(["a"])) is None
    with pytest.raises(TypeError) as from_arrow:
        scorer.statistics(with_null, pa.array(["a", "b", "c"]))
    with pytest.raises(TypeError) as from_list:
        scorer.statistics(["a b", None, "c"], ["a", "b", "c"])
    assert str(from_arrow.value) == str(from_list.value)
    assert "pair 2" in str(from_list.value) or "item 2" in str(from_list.value)


def test_flags_of_the_bytes():
    from rougekit._core import _batch
    from rougekit.engine import arrowcols

    texts = ["", " \t\x1c", "\u00a0", "ab", "a <t> b </s>", "é", "x<n>", "<q<q>"]
    flags = list(_batch.arrow_flags(arrowcols.column(pa.array(texts))))
    # bit 0: a byte above 0x7F; bit 1: no ASCII byte but white space; bits 2-4: 1 + the index in
    # MARKERS of the first one held ("<t>" comes before "</s>" there)
    assert flags == [2, 2, 3, 0, 2 << 2, 3, 4 << 2, 1 << 2]


def _cli(*argv):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main([*map(str, argv)])
    return code, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("refs_per_row", [0, 2])
def test_cli_parquet_reads_the_buffers_with_the_same_rows_and_warnings(tmp_path, monkeypatch, refs_per_row):
    cands, refs = _corpus(3000, 11, refs_per_row)
    path = tmp_path / "pairs.parquet"
    pq.write_table(pa.table({"id": [f"r{k}" for k in range(3000)], "c": cands, "r": refs}), path, row_group_size=700)
    args = ["score", "--parquet", path, "--candidate-column", "c", "--reference-column", "r", "--id-column", "id"]
    args += ["--measures", "ROUGE-1,ROUGE-2,ROUGE-L", "--bootstrap", "none", "--per-pair", "--format", "jsonl"]
    used = []
    real = Scorer.arrow_chunks
    monkeypatch.setattr(Scorer, "arrow_chunks", lambda self, *a, **k: used.append(1) or real(self, *a, **k))
    arrowed = _cli(*args)
    monkeypatch.setenv("ROUGEKIT_ARROW", "0")
    listed = _cli(*args)
    assert used == [1]
    assert arrowed == listed
    assert "blank 'c' candidate(s) (row " in listed[2] and "summaries hold the sentence marker" in listed[2]
    corpus = [*args[:-5], "--format", "json"]  # the defaults: the 1.5.5 bootstrap keeps every pair
    listed = _cli(*corpus)
    monkeypatch.delenv("ROUGEKIT_ARROW")
    assert _cli(*corpus) == listed
    assert used == [1, 1]


@pytest.mark.filterwarnings("ignore")  # the corpus's warnings are checked above
def test_arrow_chunks_score_into_the_callers_array_with_the_same_numbers():
    # the kept pairs of `score --parquet` (the 1.5.5 bootstrap's): each chunk is scored into its rows
    # of one array that collect then keeps as it is (no chunk copied); a chunk past the array's end
    # (a row count that was too small) gets its own array and is kept after it
    import numpy as np

    cands, refs = _corpus(2500, 17)
    scorer = Scorer(measures=["ROUGE-1", "ROUGE-2", "ROUGE-L"], bootstrap=None)
    batches = [(pa.array(cands[:1200]), pa.array(refs[:1200])), (pa.array(cands[1200:]), pa.array(refs[1200:]))]
    plain = list(scorer.arrow_chunks(batches, chunk_size=700))
    for rows in (2500, 2000):
        whole = np.zeros((rows, 3, 6))
        chunks = list(scorer.arrow_chunks(batches, chunk_size=700, into=whole))
        assert [len(c) for c in chunks] == [700, 700, 700, 400] == [len(c) for c in plain]
        inside = [np.shares_memory(c, whole) for c in chunks]
        assert inside == ([True] * 4 if rows == 2500 else [True, True, False, False])
        for got, want in zip(chunks, plain):
            assert np.array_equal(got, want)
        kept = scorer.collect(((c, []) for c in chunks), rows=rows, whole=whole)
        assert np.array_equal(kept.data, np.concatenate(plain))
    assert np.array_equal(np.concatenate(plain), scorer.score(cands, refs).data)
    # chunks made elsewhere are copied into `whole` (not taken as its rows)
    whole = np.zeros((2500, 3, 6))
    kept = scorer.collect(((c.copy(), []) for c in plain), rows=2500, whole=whole)
    assert np.array_equal(whole, np.concatenate(plain)) and np.shares_memory(kept.data, whole)


@pytest.mark.parametrize("jobs", [1, 2])
def test_the_flags_are_made_on_the_engines_jobs_once_each(monkeypatch, jobs):
    # the warnings' flags of each piece (candidates, references) are two tasks the engine's jobs take
    # once out of chunks (not a pass on one thread after them): each run once, the same warnings
    from rougekit.engine.batch import BatchScorer

    cands, refs = _corpus(3000, 23)
    runs: list[int] = []
    real = BatchScorer.score_arrow

    def counted(self, c, r, out, jobs=1, extra=None):
        tasks = [lambda t=t: runs.append(1) or t() for t in extra or ()]
        value = real(self, c, r, out, jobs, tasks)
        assert len(runs) == 2  # both ran, once each, before score_arrow returned
        runs.clear()
        return value

    scorer = Scorer(measures=["ROUGE-1", "ROUGE-L"], bootstrap=None, jobs=jobs)
    scorer.blank_references_unsaid = False  # arrow_chunks' caller (a reader) says blank references itself
    plain = _caught(lambda: scorer.score(cands, refs).data)
    monkeypatch.setattr(BatchScorer, "score_arrow", counted)
    batches = [(pa.array(cands[:1000]), pa.array(refs[:1000])), (pa.array(cands[1000:]), pa.array(refs[1000:]))]
    blank: list[int] = []
    got = _caught(lambda: list(scorer.arrow_chunks(batches, chunk_size=1500, blank=blank)))
    assert got[1] == plain[1] and len(plain[1]) == 3
    assert all((a == b).all() for a, b in zip(got[0], (plain[0][:1500], plain[0][1500:])))
    assert blank == [k for k, c in enumerate(cands) if not c.strip()] != []
