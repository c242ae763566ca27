"""Summaries given as token ids (``rougekit._core.inputs``; compiled reader in ``ids.pxi``).

Expected values: computed by hand below, and the same pairs written as text (id 17 -> the word
``w17``, one sentence per line) through the text path, whose numbers are tested against
ROUGE-1.5.5.pl elsewhere. The compiled batch path and the readable path (``fast=False``) must
give the same six numbers per pair and measure, as floats, with no tolerance.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

import rougekit
from rougekit._core import inputs
from rougekit.engine.batch import AVAILABLE
from rougekit.errors import InputError, OptionError

MEASURES = [
    "ROUGE-1",
    "ROUGE-2",
    "ROUGE-3",
    "ROUGE-4",
    "ROUGE-L",
    "ROUGE-W-1.2",
    "ROUGE-W-2",
    "ROUGE-S4",
    "ROUGE-S*",
    "ROUGE-SU4",
    "ROUGE-SU*",
    "ROUGE-S0",
]
needs_batch = pytest.mark.skipif(not AVAILABLE, reason="the compiled batch scorer is not built")


def _ids(rng: random.Random, vocab: int, big: bool) -> list[int]:
    n = rng.choice([0, 1, 2, 3, 5, 8, 13, 30, 70])
    out = [rng.randrange(vocab) for _ in range(n)]
    if big:  # ids far above the direct table (2**20) and at the top of the range
        out = [t * 97_001 + 2**30 if t % 3 == 0 else t for t in out]
        if out and rng.random() < 0.3:
            out[0] = 2**31 - 1
    return out


def _summary(rng: random.Random, vocab: int, big: bool):
    """A summary as ids: flat (one sentence) or a list of sentences; lists or numpy arrays."""
    if rng.random() < 0.5:
        sents = [_ids(rng, vocab, big)]
        flat = True
    else:
        sents = [_ids(rng, vocab, big) for _ in range(rng.choice([1, 2, 3, 5]))]
        flat = False
    form = rng.choice(["list", "int32", "int64", "tuple"])
    conv = {
        "list": list,
        "tuple": tuple,
        "int32": lambda s: np.array(s, dtype=np.int32),
        "int64": lambda s: np.array(s, dtype=np.int64),
    }[form]
    if flat:
        return conv(sents[0]), sents
    return [conv(s) for s in sents], sents


def _as_text(sents) -> str:
    return "\n".join(" ".join(f"w{t}" for t in s) for s in sents)


def _corpus(seed: int, n: int = 60, big: bool = False):
    rng = random.Random(seed)
    vocab = rng.choice([3, 8, 40, 400])
    cands, refs, ctext, rtext = [], [], [], []
    for _ in range(n):
        c, cs = _summary(rng, vocab, big)
        k = rng.choice([1, 1, 2, 3])
        rs = [_summary(rng, vocab, big) for _ in range(k)]
        cands.append(c)
        ctext.append(_as_text(cs))
        if k == 1 and inputs.id_level(rs[0][0]) == 1 and rng.random() < 0.7:
            refs.append(rs[0][0])  # one reference given bare (flat: a list of lists would be several)
        else:
            refs.append([r for r, _ in rs])
        rtext.append([_as_text(s) for _, s in rs])
    return cands, refs, ctext, rtext


def _no_empty_w_refs(rtext) -> bool:
    return all(r.strip() for rs in rtext for r in rs)


def _table(result, measures):
    return np.stack([result.column(m) for m in measures], axis=1)


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("multi_ref", ["sum", "best", "max"])
def test_ids_equal_text_and_readable(seed, multi_ref):
    big = seed % 3 == 2
    cands, refs, ctext, rtext = _corpus(seed, big=big)
    measures = [m for m in MEASURES if "W" not in m or _no_empty_w_refs(rtext)]
    word_limit = [0, 0, 5, 17][seed % 4]
    opts = dict(measures=measures, multi_ref=multi_ref, word_limit=word_limit, bootstrap=None)
    expected = _table(rougekit.score(ctext, rtext, fast=False, **opts), measures)
    readable = _table(rougekit.score(cands, refs, fast=False, **opts), measures)
    assert np.array_equal(readable, expected, equal_nan=True)
    if AVAILABLE:
        for jobs in (1, 2):
            compiled = _table(rougekit.score(cands, refs, jobs=jobs, **opts), measures)
            assert np.array_equal(compiled, expected, equal_nan=True)


def test_hand_computed():
    # candidate 1 2 3 4, reference 1 2 5 4: unigrams 3 of 4, bigrams (1 2) of 3, LCS 1 2 4
    for fast in (True, False):
        r = rougekit.score([[1, 2, 3, 4]], [[1, 2, 5, 4]], measures=["ROUGE-1", "ROUGE-2", "ROUGE-L"], fast=fast)
        row = r.per_pair()[0]
        assert row["ROUGE-1"]["recall"] == 0.75 and row["ROUGE-1"]["precision"] == 0.75
        assert row["ROUGE-2"]["recall"] == 0.33333 and row["ROUGE-2"]["f"] == 0.33333
        assert row["ROUGE-L"]["f"] == 0.75
    # two sentences in the reference: the union LCS of (7 8 9) and (9 7) with peer 7 8 9 counts 3 of 5
    for fast in (True, False):
        r = rougekit.score(
            [np.array([7, 8, 9], dtype=np.int32)], [[[[7, 8, 9], [9, 7]]]], measures="ROUGE-L", fast=fast
        )
        row = r.per_pair()[0]["ROUGE-L"]
        assert (row["recall"], row["precision"]) == (0.6, 1.0)


def test_a_two_dimensional_array_per_summary_is_its_rows_as_sentences():
    # candidate rows (1 2) and (3 4), reference 3 4 1 2: the union LCS of the reference sentence with
    # each candidate sentence covers all four tokens (R = P = 1); read flat, 1 2 3 4 against 3 4 1 2
    # would have an LCS of 2 (0.5). A reference's 2-d array is its references, one per row, as a list
    # of id lists is: rows (3 4) and (1 2) against the flat candidate 1 2 3 4 give hits 2 + 2 of 4
    # reference tokens and 2 x 4 candidate tokens (-f A): R 1, P 0.5.
    for fast in (True, False):
        for dtype in (np.int32, np.int64, np.uint16):
            rows = np.array([[1, 2], [3, 4]], dtype=dtype)
            r = rougekit.score([rows], [np.array([3, 4, 1, 2], dtype=dtype)], measures="ROUGE-L", fast=fast)
            row = r.per_pair()[0]["ROUGE-L"]
            assert (row["recall"], row["precision"]) == (1.0, 1.0)
            r = rougekit.score([[1, 2, 3, 4]], [np.array([[3, 4], [1, 2]], dtype=dtype)], measures="ROUGE-L", fast=fast)
            row = r.per_pair()[0]["ROUGE-L"]
            assert (row["recall"], row["precision"]) == (1.0, 0.5)
        with pytest.raises(TypeError, match="a sentence must be a flat sequence of token ids"):
            rougekit.score([np.ones((2, 2, 2), dtype=np.int32)], [[1, 1]], measures="ROUGE-1", fast=fast)


def test_word_limit_keeps_first_ids():
    # limit 3: candidate 1 2 | 3 (4 5 dropped); reference 1 2 3 -> R-1 = 1
    for fast in (True, False):
        r = rougekit.score([[[1, 2], [3, 4, 5]]], [[1, 2, 3]], measures="ROUGE-1", word_limit=3, fast=fast)
        row = r.per_pair()[0]["ROUGE-1"]
        assert (row["recall"], row["precision"]) == (1.0, 1.0)
    assert inputs.id_sentences([[5, 9], [], [2, 7, 7]], word_limit=4) == [[5, 9], [2, 7]]
    assert inputs.id_sentences(np.arange(5, dtype=np.uint16), word_limit=2) == [[0, 1]]
    # one array per summary (the engine reads its buffer once): cut to the limit, empty arrays
    for dtype in (np.int32, np.int64, np.uint16):
        cand, ref = np.array([1, 2, 3, 4, 5], dtype=dtype), np.array([3, 9], dtype=dtype)
        for fast in (True, False):
            r = rougekit.score([cand, cand[:0]], [ref, ref], measures="ROUGE-1", word_limit=3, fast=fast)
            # candidate 1 2 3, reference 3 9: one hit of 2 reference and 3 candidate tokens
            assert r.data[:, 0, :3].tolist() == [[2.0, 1.0, 3.0], [2.0, 0.0, 0.0]]


@needs_batch
def test_batch_scorer_arrays_two_dimensional():
    from rougekit.engine.batch import BatchScorer

    rng = np.random.default_rng(1)
    c = rng.integers(0, 50, size=(40, 64), dtype=np.int32)
    r = rng.integers(0, 50, size=(40, 64), dtype=np.int32)
    bs = BatchScorer(
        ["ROUGE-1", "ROUGE-2", "ROUGE-L"], stem=False, stopwords=False, word_limit=0, byte_limit=0, mode="A", alpha=0.5
    )
    got = bs.score_arrays(c, r, jobs=2)  # rows of a 2-d array: one summary (one reference) each
    exp = bs.score_arrays([row.tolist() for row in c], [[row.tolist()] for row in r])
    assert np.array_equal(got, exp)
    text = bs.score_arrays([" ".join(f"w{t}" for t in row) for row in c], [" ".join(f"w{t}" for t in row) for row in r])
    assert np.array_equal(got, text)


@pytest.mark.parametrize("fast", [True, False])
def test_errors(fast):
    one = dict(measures="ROUGE-1", fast=fast, bootstrap=None)
    with pytest.raises(TypeError, match="token ids"):
        rougekit.score([[1, 2]], ["a b"], **one)
    with pytest.raises(TypeError):
        rougekit.score(["a b", [1, 2]], ["a b", "a"], **one)
    with pytest.raises(TypeError, match="integers"):
        rougekit.score([np.array([1.0, 2.0])], [[1]], **one)
    with pytest.raises(TypeError, match="integers"):
        rougekit.score([[1, 2, "x"]], [[1]], **one)
    with pytest.raises(
        InputError, match=("pair 2: candidate: " if fast and AVAILABLE else "") + "token id -3 is out of range"
    ):
        rougekit.score([[1], [2, -3]], [[1], [2]], **one)
    with pytest.raises(InputError, match="2147483648 is out of range"):
        rougekit.score([[1]], [[[2], [2**31]]], **one)
    with pytest.raises(InputError, match="token id -5 is out of range"):  # an int32 array (its own fast path)
        rougekit.score([np.array([1, 2], dtype=np.int32)], [np.array([7, -5], dtype=np.int32)], **one)
    with pytest.raises(InputError, match="out of range"):
        rougekit.score([np.array([2**40], dtype=np.uint64)], [[1]], **one)
    for option in (dict(stem=True), dict(stopwords=True), dict(byte_limit=10), dict(tokenizer="unicode")):
        with pytest.raises(OptionError, match="token-id inputs"):
            rougekit.score([[1, 2]], [[1]], **one, **option)
    with pytest.raises(OptionError, match="ROUGE-BE-HM is scored only by"):  # rouge155 -3 reads BE files
        rougekit.score([[1, 2]], [[1]], measures=["ROUGE-BE-HM"], bootstrap=None)


def test_input_kind_and_levels():
    assert inputs.input_kind([[], [3]], [[]]) == "ids"
    assert inputs.input_kind([[], ["a b"]], [[]]) == "text"
    assert inputs.input_kind([[]], [[np.array([1])]]) == "ids"
    assert inputs.split_references([1, 2], "ids") == [[1, 2]]
    assert inputs.split_references([[1, 2], [3]], "ids") == [[1, 2], [3]]
    assert inputs.split_references([], "ids") == []
    assert inputs.id_level(np.zeros((2, 3), dtype=np.int32)) == 2
    assert inputs.id_level("abc") == -1


@needs_batch
def test_compiled_reader_reads_nesting_as_inputs():
    # the engine reads a list whose first item is an array in C (no call into inputs.py): it must
    # see the same sentences as the readable reader, and refuse what it refuses
    from rougekit.engine.batch import BatchScorer

    bs = BatchScorer(["ROUGE-1"], stem=False, stopwords=False, word_limit=0, byte_limit=0, mode="A", alpha=0.5)
    eng = bs._engine
    a, b = np.array([4, 5], dtype=np.int32), np.array([6], dtype=np.int64)
    for summary in ([a, b], (a, [7, 8]), [np.int32(3), np.int64(4)], [np.array(5)], [a, [], b]):
        expected = inputs.id_sentences(summary)
        got = eng.process_ids(summary)[1]
        assert [len(s) for s in got] == [len(s) for s in expected] and len(got) > 0
    assert eng.process_ids([a, b])[1] == [eng.process_ids(a)[0], eng.process_ids(b)[0]]
    assert eng.process_ids([np.int32(3), np.int64(4)])[0] == eng.process_ids([3, 4])[0]
    for bad in ([b"ab"], [bytearray(b"ab")], [a.reshape(1, 2), b]):
        with pytest.raises(TypeError):
            eng.process_ids(bad)
        with pytest.raises(TypeError):
            inputs.id_sentences(bad)


@needs_batch
@pytest.mark.parametrize("multi_ref", ["sum", "best", "max"])
def test_long_summaries_many_types(multi_ref):
    # more than 256 token types in a candidate: ROUGE-2/S/SU go through the hashed tables, and
    # LCS rows span several 64-bit words; the compiled path must equal the readable one
    rng = np.random.default_rng(7)
    cands, refs = [], []
    for _ in range(12):
        c = rng.integers(0, 3000, size=int(rng.integers(300, 900)), dtype=np.int64)
        cands.append(c)
        refs.append(
            [np.where(rng.random(len(c)) < 0.6, c, rng.integers(0, 3000, len(c))) for _ in range(3)][
                : int(rng.integers(1, 4))
            ]
        )
    measures = ["ROUGE-1", "ROUGE-2", "ROUGE-3", "ROUGE-L", "ROUGE-SU4", "ROUGE-S*"]
    opts = dict(measures=measures, multi_ref=multi_ref, bootstrap=None)
    expected = _table(rougekit.score(cands, refs, fast=False, **opts), measures)
    for jobs in (1, 2):
        assert np.array_equal(_table(rougekit.score(cands, refs, jobs=jobs, **opts), measures), expected)


@needs_batch
@pytest.mark.parametrize("types", [257, 400, 723, 724, 900])
def test_bigram_tables_clip_counts(types):
    # candidates of 129 to 2,895 types use the bit table (grams.pxi: _bigram_bits): clipped
    # counts (a bigram the reference repeats more often than the candidate) by hand
    cand = list(range(types)) + [1, 2, 1, 2, 1, 2]  # (1, 2) three times more: four in all
    ref = [1, 2] * 6 + [types + 5, 1, 2, 7, 8, 9]  # (1, 2) seven times; (7, 8), (8, 9) once each
    got = rougekit.score([cand], [[ref]], measures="ROUGE-2", bootstrap=None).data[0, 0, :3]
    # candidate: (1, 2) 4 times, (2, 1) twice; reference: (1, 2) 7 times, (2, 1) 5 times, (7, 8) and
    # (8, 9) once (both in the candidate's run 0..types-1); hits 4 + 2 + 1 + 1
    assert got.tolist() == [len(ref) - 1, 8, len(cand) - 1]
    slow = rougekit.score([cand], [[ref]], measures="ROUGE-2", bootstrap=None, fast=False).data[0, 0]
    assert np.array_equal(rougekit.score([cand], [[ref]], measures="ROUGE-2", bootstrap=None).data[0, 0], slow)


@needs_batch
def test_int32_arrays_read_without_the_gil_keep_order_and_numbers():
    # contiguous int32 arrays are queued and read together without the GIL; other inputs in place:
    # the numbers are those of lists, and the first bad summary in input order is the one named
    a = np.array([3, 1, 4, 1, 5, 9, 2, 6], dtype=np.int32)
    b = np.array([2, 7, 1, 8, 2, 8], dtype=np.int32)
    wide = np.arange(2 * len(a), dtype=np.int32)
    wide[::2] = a  # a strided (not contiguous) int32 view: read in place
    kw = dict(measures=["ROUGE-1", "ROUGE-2", "ROUGE-L"], bootstrap=None, jobs=1)
    got = rougekit.score([a, b, wide[::2], a[:0]], [b, [a, b], a, b], **kw).data
    lists = rougekit.score(
        [a.tolist(), b.tolist(), a.tolist(), []], [b.tolist(), [a.tolist(), b.tolist()], a.tolist(), b.tolist()], **kw
    )
    assert np.array_equal(got, lists.data)
    bad = np.array([1, -3], dtype=np.int32)
    with pytest.raises(InputError, match="pair 1: candidate: token id -3"):
        rougekit.score([bad, [1, -4]], [a, a], **kw)
    with pytest.raises(InputError, match="pair 1: reference 1: token id -3"):
        rougekit.score([a, [1, -4]], [bad, a], **kw)
    with pytest.raises(InputError, match="pair 1: candidate: token id -3"):
        rougekit.score([bad, a], [a, "text"], **kw)  # the later text is refused after the earlier bad id
    with pytest.raises(TypeError):
        rougekit.score([a, a], [a, "text"], **kw)


@pytest.mark.parametrize("at", [0, 5, 31, 32, 40, 95, 97, 99])
def test_the_id_scan_reads_every_id_of_long_arrays(at):
    """The id job's bound scan (idjob.pxi: rkb_umax, AVX2 32 ids a turn, then the tail) sees one
    id anywhere in a 100-id array: a negative id is named, an id of 2**18 sends the chunk through
    the IdMap (the numbers those of the same ids as lists, read there always). Guards the
    vectorised scan; the numbers were the same before it."""
    rng = np.random.default_rng(at)
    cands = [rng.integers(0, 40, 100, dtype=np.int32) for _ in range(4)]
    refs = [rng.integers(0, 40, 100, dtype=np.int32) for _ in range(4)]
    kw = dict(measures=["ROUGE-1", "ROUGE-L"], bootstrap=None, jobs=1)
    big = [c.copy() for c in cands]
    big[2][at] = 2**18 + 3
    refs_big = [r.copy() for r in refs]
    refs_big[2][at] = 2**18 + 3
    got = rougekit.score(big, refs_big, **kw).data
    want = rougekit.score([c.tolist() for c in big], [r.tolist() for r in refs_big], **kw).data
    assert np.array_equal(got, want)
    bad = [c.copy() for c in cands]
    bad[1][at] = -6
    with pytest.raises(InputError, match="pair 2: candidate: token id -6 is out of range"):
        rougekit.score(bad, refs, **kw)


def test_int32_calls_scored_by_every_job_at_once_keep_numbers_and_the_first_error():
    """A call whose every summary is an int32 array goes to the jobs' engines at once (they claim
    chunks from a shared counter, with no GIL between chunks; a chunk of small ids is scored on
    the arrays as they are): the numbers are those of one job, and of lists (read into dense ids);
    of several bad pairs, the first in input order is named, whichever job read it."""
    from rougekit.engine import batch as batch_module

    rng = np.random.default_rng(4)
    n = 600
    cands = [rng.integers(0, 300, rng.integers(0, 80), dtype=np.int32) for _ in range(n)]
    refs = [[rng.integers(0, 300, rng.integers(1, 80), dtype=np.int32) for _ in range(1 + k % 3)] for k in range(n)]
    for k in range(500, 520):  # ids past 2**18: these pairs' chunks are read through the IdMap, the others as they are
        cands[k] = (cands[k].astype(np.int64) * 7919 + 2**18).astype(np.int32)
        refs[k] = [(r.astype(np.int64) * 7919 + 2**18).astype(np.int32) for r in refs[k]]
    kw = dict(measures=["ROUGE-1", "ROUGE-2", "ROUGE-L", "ROUGE-SU4", "ROUGE-W-1.2"], bootstrap=None)
    one = rougekit.score(cands, refs, jobs=1, **kw).data
    lists = rougekit.score([c.tolist() for c in cands], [[r.tolist() for r in rs] for rs in refs], jobs=1, **kw).data
    assert np.array_equal(one, lists)
    for chunks_per_job in (1, 4, 50):  # 300, 75 and 6 pairs a chunk
        old = batch_module._CHUNKS_PER_JOB
        batch_module._CHUNKS_PER_JOB = chunks_per_job
        try:
            assert np.array_equal(rougekit.score(cands, refs, jobs=2, **kw).data, one)
            cut = rougekit.score(cands, refs, jobs=2, word_limit=30, **kw).data
            listed = [[r.tolist() for r in rs] for rs in refs]
            assert np.array_equal(cut, rougekit.score([c.tolist() for c in cands], listed, word_limit=30, **kw).data)
            bad = list(cands)
            bad[530] = np.array([1, -7], dtype=np.int32)
            bad[410] = np.array([2, -5], dtype=np.int32)
            with pytest.raises(InputError, match="pair 411: candidate: token id -5 is out of range"):
                rougekit.score(bad, refs, jobs=2, **kw)
            bad_refs = list(refs)
            bad_refs[77] = [refs[77][0], np.array([-9], dtype=np.int32)]
            with pytest.raises(InputError, match="pair 78: reference 2: token id -9 is out of range"):
                rougekit.score(bad, bad_refs, jobs=2, **kw)
            empty_ref = list(refs)  # ROUGE-W's error for an empty reference, in pair order too
            empty_ref[300] = [np.zeros(0, dtype=np.int32)]
            with pytest.raises(InputError, match="ROUGE-W is undefined"):
                rougekit.score(cands, empty_ref, jobs=2, **kw)
        finally:
            batch_module._CHUNKS_PER_JOB = old


def test_normalize_numpy_references_as_split_references():
    # normalize takes numpy's 1-d integer arrays as one reference without a memoryview; every other
    # form goes through split_references: the same lists either way
    refs = [
        np.array([1, 2], dtype=np.int32),
        np.array([1, 2], dtype=np.uint8),
        np.array([1, 2], dtype=object),
        np.array([[1, 2], [3, 4]], dtype=np.int64),
        [np.array([5], dtype=np.int32), np.array([6, 7], dtype=np.int32)],
        [1, 2, 3],
    ]
    kind, got = inputs.normalize([[1]] * len(refs), refs)
    assert kind == "ids"
    expected = [inputs.split_references(r, "ids") for r in refs]
    assert [[id(x) for x in g] for g in got[:2]] == [[id(refs[0])], [id(refs[1])]]
    assert [len(g) for g in got] == [len(e) for e in expected] == [1, 1, 1, 2, 2, 1]
    for g, e in zip(got, expected):
        assert all(np.array_equal(np.asarray(a), np.asarray(b)) for a, b in zip(g, e))


@needs_batch
def test_small_int32_call_scored_on_the_calling_thread(monkeypatch):
    """A call of int32 arrays with fewer than _ONE_THREAD_IDS ids starts no thread, whatever
    ``jobs`` (the start and wait would cost more than its work); a larger one is shared by the
    jobs' threads; the numbers are the same either way."""
    from rougekit.engine import batch as batch_module

    rng = np.random.default_rng(11)
    cands = [rng.integers(0, 50, 40, dtype=np.int32) for _ in range(30)]
    refs = [rng.integers(0, 50, 35, dtype=np.int32) for _ in range(30)]  # 2,250 ids
    started = []
    real = batch_module._on_threads

    def counted(run, jobs, stop=None):
        started.append(jobs)
        return real(run, jobs, stop)

    monkeypatch.setattr(batch_module, "_on_threads", counted)
    kw = dict(measures=["ROUGE-1", "ROUGE-2", "ROUGE-L"], bootstrap=None)
    small = rougekit.score(cands, refs, jobs=2, **kw).data
    assert started == []
    monkeypatch.setattr(batch_module, "_ONE_THREAD_IDS", 2_250)  # the same call, now large enough
    shared = rougekit.score(cands, refs, jobs=2, **kw).data
    assert started == [2]
    assert np.array_equal(small, shared)
    assert small[0, 0, 0] == 35 and small[0, 0, 2] == 40  # reference and candidate unigrams


@needs_batch
def test_lists_copied_part_by_part_while_scored_keep_numbers_and_errors(monkeypatch):
    """Lists of ids with threads: the job is filled (the lists copied) in parts while the other
    engines score the parts already copied. The numbers are those of one thread and of int32
    arrays; a bad id or another kind of input in a late part is named as on one thread."""
    from rougekit.engine import batch as batch_module

    rng = np.random.default_rng(12)
    n = 400
    cands = [rng.integers(0, 400, rng.integers(1, 120)).tolist() for _ in range(n)]
    refs = [[rng.integers(0, 400, rng.integers(1, 120)).tolist() for _ in range(1 + k % 2)] for k in range(n)]
    fills = []
    real = batch_module._fill_id_job

    def counted(job, pairs, others):
        fills.append(pairs)
        return real(job, pairs, others)

    monkeypatch.setattr(batch_module, "_fill_id_job", counted)
    kw = dict(measures=["ROUGE-1", "ROUGE-2", "ROUGE-L", "ROUGE-SU4"], bootstrap=None)
    one = rougekit.score(cands, refs, jobs=1, **kw).data
    assert fills == []
    shared = rougekit.score(cands, refs, jobs=2, **kw).data
    assert fills == [n]
    assert np.array_equal(shared, one)
    arrays = [np.array(c, dtype=np.int32) for c in cands]
    assert np.array_equal(
        rougekit.score(arrays, [[np.array(r, dtype=np.int32) for r in rs] for rs in refs], jobs=2, **kw).data, one
    )
    bad = list(cands)
    bad[390] = [5, -3]  # the last part: the job fails there, the pairs are read again in order
    with pytest.raises(InputError, match="pair 391: candidate: token id -3"):
        rougekit.score(bad, refs, jobs=2, **kw)
    bad_refs = list(refs)
    bad_refs[350] = [refs[350][0], "text"]
    with pytest.raises(TypeError) as two:
        rougekit.score(cands, bad_refs, jobs=2, **kw)
    with pytest.raises(TypeError) as single:
        rougekit.score(cands, bad_refs, jobs=1, **kw)
    assert str(two.value) == str(single.value)
    assert one[0, 0, 2] == len(cands[0])  # ROUGE-1's candidate count: its tokens


@needs_batch
def test_interrupt_while_lists_are_copied_stops_the_engines_waiting_for_them(monkeypatch):
    """An interrupt (or any error) while the job is being filled: the engines waiting for pairs
    never filled leave, the interrupt is raised once they are done, and the next call scores."""
    from rougekit.engine import batch as batch_module

    rng = np.random.default_rng(13)
    n = 200
    cands = [rng.integers(0, 300, 100).tolist() for _ in range(n)]
    refs = [rng.integers(0, 300, 90).tolist() for _ in range(n)]
    kw = dict(measures=["ROUGE-L"], bootstrap=None, jobs=2)
    real = batch_module._fill_id_job

    def interrupted(job, pairs, others):
        job.fill(pairs // 8)
        job.let_in(others, 1000)
        raise KeyboardInterrupt

    monkeypatch.setattr(batch_module, "_fill_id_job", interrupted)
    with pytest.raises(KeyboardInterrupt):
        rougekit.score(cands, refs, **kw)
    monkeypatch.setattr(batch_module, "_fill_id_job", real)
    got = rougekit.score(cands, refs, **kw).data
    assert np.array_equal(got, rougekit.score(cands, refs, measures=["ROUGE-L"], bootstrap=None, jobs=1).data)
