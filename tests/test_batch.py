"""The compiled batch scorer (``rougekit.engine.batch``) equals the slow path exactly.

Expected values are built here with ``Preprocessor.process`` + ``scoring.score_pair`` (the
per-pair reference implementation); the batch scorer's six columns must be equal as floats
(no tolerance) for random corpora over every supported option, with jobs=1 and jobs=2. The
compiled per-pair kernels are the batch engine itself (pair.pxi), so the random corpora count
their expected values with the pure-Python twins (``_core._pure``): code of its own.
"""

from __future__ import annotations

import random
from contextlib import contextmanager
from pathlib import Path

import numpy as np
import pytest

import rougekit
from rougekit import _core
from rougekit._core import _pure
from rougekit.errors import InputError
from rougekit.measures import Measure
from rougekit.scoring import Doc, score_pair
from rougekit.text.tokenizers import Preprocessor

batch = pytest.importorskip("rougekit.engine.batch")
if not batch.AVAILABLE:  # pragma: no cover - depends on the build
    pytest.skip("rougekit._core._batch (compiled batch scorer) is not built", allow_module_level=True)

from _oracles import bits_lcs, cpu_flags, dp_lcs  # noqa: E402

from rougekit._core import _batch  # noqa: E402
from rougekit.engine.batch import BatchScorer, batch_supported  # noqa: E402

WORDS = (
    # common and stop words
    "the a of and to in is was were has have had it he she they we i you on at by for with".split()
    # exception-table words and stemmer cases
    + "went go children child geese goose mice mouse better best taken lying feet women men ran saw".split()
    + "police killed kill killing gunman gunmen agreement argument accidental affectionate running".split()
    + "reuters ap news tech index jan dec mon sun sat relational conditional generalizations".split()
    # digits, long tokens, mixed case
    + "3.5 1990s 2004 42 x1 internationalization electroencephalograph POLICE Gunman KiLLed".split()
    # hyphens and punctuation
    + ["well-known", "-", "--", "a-b-c", "u.s.", "don't", "...", ",", "!", "?", "$5", "&amp;", "(ok)"]
    # non-ASCII (bytes >= 0x80 separate tokens) and a surrogate-escaped byte
    + ["café", "naïve", "東京", "Привет", "über-cool", "x\u00a0y", "\udce9t\udce9", "–dash–"]
)
SEPS = [" ", " ", " ", " ", "  ", "\t", " \x0b", "\r "]

MEASURE_POOL = [
    "ROUGE-1",
    "ROUGE-2",
    "ROUGE-3",
    "ROUGE-4",
    "ROUGE-L",
    "ROUGE-W-1.2",
    "ROUGE-W-2",
    "ROUGE-W-5",  # the largest weight in the range (issue 17: 1 <= w <= 5)
    "ROUGE-S0",
    "ROUGE-S4",
    "ROUGE-S*",
    "ROUGE-SU0",
    "ROUGE-SU4",
    "ROUGE-SU*",
    "ROUGE-S1",
    "ROUGE-SU9",
]


def _sentence(rng: random.Random) -> str:
    k = rng.choice([0, 1, 2, 3, 5, 8, 12, 20])
    words = [rng.choice(WORDS) if rng.random() < 0.5 else rng.choice(WORDS[:60]) for _ in range(k)]
    text = ""
    for w in words:
        text += rng.choice(SEPS) + w if text else w
    r = rng.random()
    if r < 0.1:
        text = " " + text
    elif r < 0.15:
        text = text + "  "
    elif r < 0.2:
        text = "..."
    return text


def _summary(rng: random.Random, empty_p: float = 0.05) -> str:
    if rng.random() < empty_p:
        return rng.choice(["", "\n", "  ", "!!", "\n\n"])
    lines = [_sentence(rng) for _ in range(rng.randint(1, 5))]
    if rng.random() < 0.2:
        lines.insert(rng.randint(0, len(lines)), "")  # blank line: not a sentence
    return "\n".join(lines)


@contextmanager
def _pure_kernels():
    """``rougekit._core``'s kernels are the pure-Python twins for the duration."""
    saved = {name: _core.__dict__.get(name) for name in _core._KERNELS}
    for name in _core._KERNELS:
        setattr(_core, name, getattr(_pure, name))
    try:
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                delattr(_core, name)  # resolved again on first use
            else:
                setattr(_core, name, value)


def _expected(cands, refs, measures, *, stem, stopwords, word_limit, byte_limit, mode, alpha, pure=True):
    """The slow path's six numbers per pair and measure, counted by the pure-Python twins (``pure``;
    the compiled per-pair kernels are the batch engine itself, the code under test)."""
    if pure:
        with _pure_kernels():
            return _expected(
                cands,
                refs,
                measures,
                stem=stem,
                stopwords=stopwords,
                word_limit=word_limit,
                byte_limit=byte_limit,
                mode=mode,
                alpha=alpha,
                pure=False,  # the twins are in place now
            )
    pre = Preprocessor("rouge155", stem=stem, stopwords=stopwords, word_limit=word_limit, byte_limit=byte_limit)
    vocab: dict[str, int] = {}

    def doc(text):
        toks, units = pre.process(text)
        ids = lambda xs: [vocab.setdefault(x, len(vocab)) for x in xs]  # noqa: E731
        return Doc(ids(toks), [ids(u) for u in units])

    out = np.zeros((len(cands), len(measures), 6))
    for i, (c, rs) in enumerate(zip(cands, refs)):
        peer = doc(c)
        models = [doc(r) for r in rs]
        for k, m in enumerate(measures):
            s = score_pair(m, peer, models, mode=mode, alpha=alpha)
            out[i, k] = [s.model_count, s.hits, s.peer_count, s.recall, s.precision, s.f]
    return out


def _assert_same(got, exp, context):
    assert got.shape == exp.shape
    if not np.array_equal(got, exp):
        bad = np.argwhere(got != exp)[0]
        i, k = bad[0], bad[1]
        pytest.fail(f"{context}: pair {i} measure {k}: got {got[i, k].tolist()} expected {exp[i, k].tolist()}")


def _random_case(seed: int):
    rng = random.Random(seed)
    measures = [Measure.parse(x) for x in rng.sample(MEASURE_POOL, rng.randint(1, 5))]
    opts = dict(
        stem=rng.random() < 0.5,
        stopwords=rng.random() < 0.3,
        word_limit=0,
        byte_limit=0,
        mode=rng.choice("AB"),
        alpha=rng.choice([0.5, 0.5, 0.0, 1.0, 0.3, 0.8, 0.25]),
    )
    r = rng.random()
    if r < 0.2:
        opts["word_limit"] = rng.randint(1, 30)
    elif r < 0.4:
        opts["byte_limit"] = rng.randint(1, 150)
    n = rng.randint(1, 8)
    cands = [_summary(rng) for _ in range(n)]
    refs = [[_summary(rng, 0.03) for _ in range(rng.randint(1, 5))] for _ in range(n)]
    if rng.random() < 0.1:  # a candidate scored against itself
        refs[0][0] = cands[0]
    return measures, opts, cands, refs


@pytest.mark.parametrize("block", range(10))
def test_random_corpora_equal_slow_path(block):
    checked = 0
    for seed in range(block * 60, block * 60 + 60):
        measures, opts, cands, refs = _random_case(seed)
        try:
            exp = _expected(cands, refs, measures, **opts, pure=True)
        except InputError:
            exp = None
        scorer = BatchScorer(measures, **opts)
        for jobs in (1, 2):
            if exp is None:  # ROUGE-W on a reference without tokens: the slow path raises
                with pytest.raises(InputError):
                    scorer.score_arrays(cands, refs, jobs=jobs)
            else:
                _assert_same(scorer.score_arrays(cands, refs, jobs=jobs), exp, f"seed {seed} {opts} jobs={jobs}")
                checked += 1
    assert checked > 60  # most corpora are scorable (W needs non-empty references)


def test_many_pairs_threads_and_cache():
    rng = random.Random(7)
    measures = [Measure.parse(x) for x in ["ROUGE-1", "ROUGE-2", "ROUGE-L", "ROUGE-SU4", "ROUGE-W-1.2"]]
    n = 5000  # more than two chunks, so jobs=2 really runs two threads
    pool_refs = [_summary(rng, 0.0) + "\nthe police" for _ in range(300)]  # repeated references hit the cache
    cands = [_summary(rng) for _ in range(n)]
    refs = [[rng.choice(pool_refs) for _ in range(rng.randint(1, 3))] for _ in range(n)]
    opts = dict(stem=True, stopwords=False, word_limit=0, byte_limit=0, mode="A", alpha=0.5)
    exp = _expected(cands, refs, measures, **opts)
    scorer = BatchScorer(measures, **opts, cache_size=50)  # small cache: evictions happen
    for jobs in (1, 2, 2, 1):
        _assert_same(scorer.score_arrays(cands, refs, jobs=jobs), exp, f"jobs={jobs}")
    assert scorer._engine.cached_references <= 50


def test_a_slow_job_s_chunks_are_taken_by_the_other(monkeypatch):
    """A job whose thread is held up (here: job 1 sleeps before each chunk) does not hold up the
    call: job 0 takes its chunks once its own are done; the numbers are those of jobs=1."""
    import time

    from rougekit.engine import batch as batch_module

    rng = random.Random(11)
    measures = [Measure.parse(x) for x in ("ROUGE-1", "ROUGE-2", "ROUGE-L")]
    opts = dict(stem=True, stopwords=False, word_limit=0, byte_limit=0, mode="A", alpha=0.5)
    n = 4000  # 8 chunks of 500 with jobs=2
    cands = [_summary(rng) for _ in range(n)]
    refs = [[_summary(rng)] for _ in range(n)]
    exp = BatchScorer(measures, **opts).score_arrays(cands, refs, jobs=1)
    scorer = BatchScorer(measures, **opts)
    scorer._slot(1)
    slow = scorer._engines[1]
    chunks_by_job = {0: 0, 1: 0}
    bound = batch_module._bound_vocabulary

    def watched(engine):
        job = 1 if engine is slow else 0
        chunks_by_job[job] += 1
        if job == 1:
            time.sleep(0.5)
        bound(engine)

    monkeypatch.setattr(batch_module, "_bound_vocabulary", watched)
    got = scorer.score_arrays(cands, refs, jobs=2)
    assert (got == exp).all()
    assert sum(chunks_by_job.values()) == 8 and chunks_by_job[0] > 4  # job 0 took some of job 1's


def test_an_interrupt_waits_for_the_jobs_and_stops_them():
    """Ctrl-C while job 0 waits for the others: the others are told to stop (``stop``), waited
    for (their engines and the output must outlive them), and then the interrupt is raised."""
    import signal
    import threading
    import time

    from rougekit.engine import batch as batch_module

    if not hasattr(signal, "pthread_kill"):
        pytest.skip("signal.pthread_kill is POSIX only")
    main = threading.get_ident()
    events = []

    def run(k):
        if k == 1:
            deadline = time.monotonic() + 60  # never a hang: the assertion below says what went wrong
            while "stop" not in events and time.monotonic() < deadline:
                # job 0 is waiting (or about to); sent again after a while: a signal that lands as
                # the main thread goes to sleep on a lock is only handled once it wakes (CPython)
                signal.pthread_kill(main, signal.SIGINT)
                sent = time.monotonic()
                while "stop" not in events and time.monotonic() < sent + 1:
                    time.sleep(0.01)
            time.sleep(0.2)  # still running when the interrupt arrives
            events.append("job 1 done")

    def stop(exc):
        events.append("stop")

    # Python's own Ctrl-C handler for this test: a process started with SIGINT ignored (a background
    # job of a shell, a pytest-xdist worker started from one) would otherwise never see the signal
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        with pytest.raises(KeyboardInterrupt):
            batch_module._on_threads(run, 2, stop)
    finally:
        signal.signal(signal.SIGINT, previous)
    assert events == ["stop", "job 1 done"]  # raised only after job 1 finished


def test_reference_cache_bypassed_while_it_finds_nothing():
    """Unique references: after 4,096 lookups without hits the engine stops filling its cache for
    a while (a speed matter only); repeated references keep it on; the numbers never change."""
    rng = random.Random(9)
    measures = [Measure.parse(x) for x in ("ROUGE-1", "ROUGE-L")]
    opts = dict(stem=False, stopwords=False, word_limit=0, byte_limit=0, mode="A", alpha=0.5)
    n = 12000  # 6 chunks of 2,048 with jobs=1: 2 looked up (no hit), then skipped
    cands = [f"w{i} x{i % 7} the cat" for i in range(n)]
    refs = [[f"w{i} y{i % 5} the dog\nz{rng.randrange(50)}"] for i in range(n)]
    scorer = BatchScorer(measures, **opts)
    got = scorer.score_arrays(cands, refs, jobs=1)
    assert (got == BatchScorer(measures, **opts, cache_size=0).score_arrays(cands, refs, jobs=1)).all()
    assert scorer._engine.cached_references == 4096  # the two chunks looked up, nothing after
    assert got[5, 0, 1] == 2.0 and got[5, 1, 1] == 2.0  # w5 and "the" (hand count)
    repeated = [[f"w{i % 300} the dog"] for i in range(n)]  # 300 references: hits keep the cache on
    scorer = BatchScorer(measures, **opts)
    got = scorer.score_arrays(cands, repeated, jobs=1)
    assert (got == BatchScorer(measures, **opts, cache_size=0).score_arrays(cands, repeated, jobs=1)).all()
    assert scorer._engine.cached_references == 300


def test_vocabulary_kept_between_calls_and_systems():
    measures = [Measure.parse("ROUGE-1"), Measure.parse("ROUGE-L")]
    opts = dict(stem=True, stopwords=True, word_limit=0, byte_limit=0, mode="B", alpha=0.5)
    scorer = BatchScorer(measures, **opts)
    refs = [["police killed the gunman\nthe children went home", "a gunman was killed"]]
    for system in (["police kill the gunman"], ["the child goes home\nkilling"], ["nothing here"]):
        _assert_same(scorer.score_arrays(system, refs), _expected(system, refs, measures, **opts), system[0])
    size = scorer.vocabulary_size
    scorer.score_arrays(["police kill the gunman"], refs)
    assert scorer.vocabulary_size == size


def test_the_pool_of_idle_engines_stays_small():
    """However many configurations and words came before, the pool keeps at most _POOL_ENGINES
    idle engines, none with more than _POOL_VOCABULARY token types (memory stays bounded)."""
    import gc

    from rougekit.engine import batch as batch_module

    measures = [Measure.parse("ROUGE-1")]
    big = " ".join(f"w{i}" for i in range(batch_module._POOL_VOCABULARY + 10))
    for size in range(20):  # 20 configurations (cache sizes no other test uses), 2 engines each
        scorer = BatchScorer(measures, stem=False, stopwords=False, word_limit=0, byte_limit=0, mode="A",
                             alpha=0.5, cache_size=9000 + size)  # fmt: skip
        scorer.score_arrays(["a b"] * 10, [["a"]] * 10, jobs=2)
        del scorer
        gc.collect()
    assert sum(map(len, batch_module._POOL.values())) <= batch_module._POOL_ENGINES
    scorer = BatchScorer(measures, stem=False, stopwords=False, word_limit=0, byte_limit=0, mode="A", alpha=0.5,
                         cache_size=8999)  # fmt: skip
    engine = scorer._engine
    assert (
        scorer.score_arrays([big], [["w1"]])[0, 0, 1] == 1.0 and engine.vocabulary_size > batch_module._POOL_VOCABULARY
    )
    del scorer
    gc.collect()
    assert all(e is not engine for idle in batch_module._POOL.values() for e, _ in idle)


def test_engines_are_reused_by_the_next_scorer_of_the_same_options():
    """A collected BatchScorer gives its engines back to the pool; the next scorer of the same
    options takes them (warm vocabulary, empty reference cache: no caller's text is kept), one
    of other options does not, and every number is the same as from a fresh engine."""
    import gc

    # scorers of earlier tests left in reference cycles are collected now, not by the collect below:
    # their engines, given back after ours, would push this test's configuration out of the pool
    # (at most 8 idle engines, the least recently returned configuration dropped first)
    gc.collect()
    measures = [Measure.parse(x) for x in ("ROUGE-1", "ROUGE-2", "ROUGE-L")]
    opts = dict(stem=True, stopwords=False, word_limit=0, byte_limit=0, mode="A", alpha=0.5)
    rng = random.Random(5)
    cands = [_summary(rng) for _ in range(300)]
    refs = [[_summary(rng, 0.0)] for _ in range(300)]
    exp = _expected(cands, refs, measures, **opts)
    first = BatchScorer(measures, **opts, cache_size=777)  # a cache size no other test uses
    _assert_same(first.score_arrays(cands, refs, jobs=2), exp, "first")
    engines = list(first._engines)
    assert len(engines) == 2
    # job 0's engine: job 0 scores on this thread (job 1's thread may start after every chunk is taken)
    size = engines[0].vocabulary_size
    del first
    gc.collect()
    second = BatchScorer(measures, **opts, cache_size=777)
    assert second._engine is engines[0] and second._engine.cached_references == 0
    assert second.vocabulary_size == size > 0
    _assert_same(second.score_arrays(cands, refs, jobs=2), exp, "second, warm engines")
    assert second._engines == engines  # job k takes job k's engine back
    other = BatchScorer(measures, **dict(opts, stem=False), cache_size=777)
    assert other._engine not in engines


def test_no_references_and_empty_inputs():
    measures = [Measure.parse(x) for x in ["ROUGE-1", "ROUGE-L", "ROUGE-W-1.2", "ROUGE-SU*"]]
    scorer = BatchScorer(measures, stem=False, stopwords=False, word_limit=0, byte_limit=0, mode="A", alpha=0.5)
    assert scorer.score_arrays([], []).shape == (0, 4, 6)
    out = scorer.score_arrays(["a b c", ""], [[], ["x y"]])
    assert out[0].tolist() == [[0.0] * 6] * 4
    assert out[1, 0].tolist() == [2.0, 0.0, 0.0, 0.0, 0.0, 0.0]
    with pytest.raises(ValueError):
        scorer.score_arrays(["a"], [])


def test_rouge_w_empty_reference_raises():
    scorer = BatchScorer(
        [Measure.parse("ROUGE-W-1.2")], stem=False, stopwords=False, word_limit=0, byte_limit=0, mode="A", alpha=0.5
    )
    with pytest.raises(InputError):
        scorer.score_arrays(["a b"], [["a b", "..."]])


def test_round5_matches_python_formatting():
    rng = random.Random(3)
    values = [k / 64 for k in range(0, 200)] + [k / 2**17 for k in range(0, 3000, 7)]
    values += [rng.random() for _ in range(100000)] + [rng.random() * 3 for _ in range(20000)]
    values += [a / b for a in range(0, 120) for b in range(1, 120)]
    values += [0.000005, 0.000015, 0.123455, 0.999995, 1.0, 2.5e-6, 1e-300, 5e-324, 7.0, 123.456785]
    for x in values:
        assert _batch._round5_py(x) == float("%7.5f" % x), x


def test_batch_supported():
    ok = dict(
        tokenizer="rouge155", word_limit=0, byte_limit=0, multi_ref="sum", su_unigrams="rouge155", wlcs="rouge155"
    )
    ms = [Measure.parse(x) for x in MEASURE_POOL]
    assert batch_supported(ms, **ok)
    assert batch_supported(ms, **{**ok, "multi_ref": "best", "word_limit": 10})
    assert batch_supported(ms, **{**ok, "byte_limit": 75})
    assert not batch_supported(ms, **{**ok, "word_limit": 10, "byte_limit": 75})
    assert not batch_supported(ms, **{**ok, "multi_ref": "jackknife"})
    assert not batch_supported(ms, **{**ok, "tokenizer": "unicode"})
    assert not batch_supported(ms, **{**ok, "wlcs": "paper"})
    assert not batch_supported(ms, **{**ok, "su_unigrams": "paper"})
    assert not batch_supported([Measure.parse("ROUGE-BE-HM")], **ok)
    assert not batch_supported([Measure.parse("BLEU")], **ok)


@pytest.mark.parametrize("seed", range(12))
def test_long_sentences_multiword_lcs(seed):
    """Sentences longer than 64 tokens use multi-word bit-parallel rows; documents of mixed lengths."""
    rng = random.Random(1000 + seed)
    small = WORDS[:40]

    def long_summary():
        lines = []
        for _ in range(rng.randint(1, 3)):
            k = rng.choice([1, 30, 63, 64, 65, 100, 129, 200])
            lines.append(" ".join(rng.choice(small) for _ in range(k)))
        return "\n".join(lines)

    measures = [Measure.parse(x) for x in ["ROUGE-1", "ROUGE-3", "ROUGE-L", "ROUGE-W-1.2", "ROUGE-SU4", "ROUGE-S*"]]
    cands = [long_summary() for _ in range(4)] + ["short one", "the police"]
    refs = [[long_summary() for _ in range(rng.randint(1, 3))] for _ in range(len(cands))]
    for mode in "AB":
        opts = dict(stem=bool(seed % 2), stopwords=False, word_limit=0, byte_limit=0, mode=mode, alpha=0.5)
        exp = _expected(cands, refs, measures, **opts)
        scorer = BatchScorer(measures, **opts)
        for jobs in (1, 2):
            _assert_same(scorer.score_arrays(cands, refs, jobs=jobs), exp, f"seed {seed} {mode} jobs={jobs}")


@pytest.mark.parametrize("seed", range(6))
def test_many_distinct_types_hashed_units(seed):
    """More than 256 distinct candidate types: bigrams / skip units go through the hash tables."""
    rng = random.Random(2000 + seed)
    vocab = [f"w{i}" for i in range(rng.choice([300, 600, 3000]))] + WORDS[:30]

    def text(k):
        words = [rng.choice(vocab) for _ in range(k)]
        cut = sorted(rng.sample(range(1, k), 3))
        return "\n".join(" ".join(words[a:b]) for a, b in zip([0] + cut, cut + [k]))

    measures = [Measure.parse(x) for x in ["ROUGE-2", "ROUGE-3", "ROUGE-S4", "ROUGE-SU*", "ROUGE-S*", "ROUGE-L"]]
    cands = [text(rng.choice([300, 500])) for _ in range(3)] + [text(40)]
    refs = [[text(rng.choice([200, 400])), cands[i] if i == 0 else text(50)] for i in range(len(cands))]
    for mode in "AB":
        opts = dict(stem=False, stopwords=False, word_limit=0, byte_limit=0, mode=mode, alpha=0.5)
        exp = _expected(cands, refs, measures, **opts)
        got = BatchScorer(measures, **opts).score_arrays(cands, refs, jobs=2)
        _assert_same(got, exp, f"seed {seed} {mode}")


def _new_type_corpus(rng: random.Random, n: int):
    """Pairs full of token types seen once or twice (short and > 8 bytes), stopwords, non-ASCII text
    and surrogate-escaped bytes: most chunks bring new types to map through the stemmer."""
    letters = "abcdefghijklmnopqrstuvwxyz0123456789"
    odd = ["café", "naïve", "東京", "Привет", "x\u00a0y", "\udce9t\udce9", "ab\udcffcd", "–dash–", "über-cool"]

    def word():
        r = rng.random()
        if r < 0.35:
            return "".join(rng.choice(letters) for _ in range(rng.choice([1, 2, 3, 4, 5, 7, 8, 9, 12, 20])))
        if r < 0.45:
            return rng.choice(odd)
        if r < 0.5:
            return rng.choice(letters).upper() + "".join(rng.choice(letters) for _ in range(rng.randint(3, 10)))
        return rng.choice(WORDS)

    def summary():
        return "\n".join(" ".join(word() for _ in range(rng.randint(0, 14))) for _ in range(rng.randint(1, 4)))

    cands = [summary() for _ in range(n)]
    refs = [[summary() for _ in range(rng.randint(1, 3))] for _ in range(n)]
    return cands, refs


@pytest.mark.parametrize(
    "opts",
    [
        dict(stem=True, stopwords=False, word_limit=0, byte_limit=0, mode="A", alpha=0.5),
        dict(stem=True, stopwords=True, word_limit=0, byte_limit=0, mode="B", alpha=0.5),
        dict(stem=False, stopwords=True, word_limit=0, byte_limit=60, mode="A", alpha=0.3),
        dict(stem=True, stopwords=True, word_limit=25, byte_limit=0, mode="A", alpha=0.5),
    ],
)
def test_fresh_references_jobs2_equal_jobs1_new_types(monkeypatch, opts):
    """New types are interned without the GIL and mapped once per chunk: jobs=2 on fresh engines and
    references equals jobs=1 and the readable path, bit for bit."""
    monkeypatch.setattr(batch, "_CHUNK", 97)  # many chunks per job, each with new types
    rng = random.Random(4242)
    cands, refs = _new_type_corpus(rng, 700)
    measures = [Measure.parse(x) for x in ["ROUGE-1", "ROUGE-2", "ROUGE-L", "ROUGE-SU4", "ROUGE-W-1.2"]]
    refs = [["zzref " + r for r in rs] for rs in refs]  # ROUGE-W needs a token in every reference
    exp = _expected(cands, refs, measures, **opts)
    one = BatchScorer(measures, **opts).score_arrays(cands, refs, jobs=1)
    two = BatchScorer(measures, **opts).score_arrays(cands, refs, jobs=2)
    _assert_same(one, exp, f"{opts} jobs=1")
    _assert_same(two, exp, f"{opts} jobs=2 fresh")
    scorer = BatchScorer(measures, **opts, cache_size=100)
    for jobs in (2, 1, 2):  # warm vocabulary, partly cached references
        _assert_same(scorer.score_arrays(cands, refs, jobs=jobs), exp, f"{opts} jobs={jobs} again")


def _golden_words() -> list[str]:
    lines = (Path(__file__).parent / "goldens" / "porter_stems.tsv").read_text().splitlines()
    return [ln.split("\t")[0] for ln in lines if ln and not ln.startswith("#")]


def _same_partition(ids: list[int], keys: list[str]) -> None:
    """Two tokens get the same engine id exactly when their Python stems are equal."""
    first: dict[str, int] = {}
    by_id: dict[int, str] = {}
    for i, k in zip(ids, keys):
        assert first.setdefault(k, i) == i, k
        assert by_id.setdefault(i, k) == k, (i, k, by_id[i])


@pytest.mark.parametrize("stopwords", [False, True])
def test_engine_stems_as_the_python_twin(stopwords):
    """The compiled -m stemmer and stopword list partition the tokens as morph_stem / the SMART list do."""
    from rougekit.text.stemming import load_exceptions, stem_token
    from rougekit.text.stopwords import load_smart_stopwords

    words = sorted(set(_golden_words()) | set(load_exceptions()))
    words = [w for w in words if w.isascii() and w.isalnum() and w == w.lower()]
    stop = load_smart_stopwords() if stopwords else frozenset()
    bs = BatchScorer(
        [Measure.rouge_n(1)], stem=True, stopwords=stopwords, word_limit=0, byte_limit=0, mode="A", alpha=0.5
    )
    ids, _ = bs._engine.process(" ".join(words))
    kept = [w for w in words if w not in stop]
    assert len(ids) == len(kept) > 30000
    _same_partition(ids, [stem_token(w) for w in kept])


def test_engine_nltk_stems_as_the_python_twin():
    """stemmer="nltk": the compiled NLTK Porter partitions the tokens as the compat tokenizer does."""
    from rougekit.compat._tokenize import tokenize

    words = sorted(set(_golden_words()))
    words = [w for w in words if w.isascii() and w.isalnum() and w == w.lower()]
    bs = BatchScorer(
        [Measure.rouge_n(1)],
        stem=True,
        stopwords=False,
        word_limit=0,
        byte_limit=0,
        mode="A",
        alpha=0.5,
        stemmer="nltk",
        lowercase="unicode",
    )
    ids, _ = bs._engine.process(" ".join(words))
    expected = tokenize(" ".join(words), use_stemmer=True)
    assert len(ids) == len(expected) > 30000
    _same_partition(ids, expected)


def test_token_bitmap_finds_the_runs_of_ascii_alphanumerics():
    """The SWAR bitmap tokenizer finds exactly the runs of [A-Za-z0-9] (all 256 byte values, every length)."""
    import re

    rng = random.Random(7)
    alphabet = bytes(range(256))
    texts = [bytes([b]) * k for b in range(256) for k in (1, 7, 8, 9, 64, 65)]
    texts += [bytes(rng.choice(alphabet) for _ in range(rng.randrange(0, 300))) for _ in range(2000)]
    texts += [bytes(rng.choice(b"aZ9 \xc3\xa9-") for _ in range(rng.randrange(0, 200))) for _ in range(2000)]
    for text in texts:
        expected = [m.span() for m in re.finditer(rb"[A-Za-z0-9]+", text)]
        assert _batch._token_spans_py(text) == expected, text
        # a segment of a longer text: the bytes after its end are read by 8-byte loads, never used
        cut = rng.randrange(0, len(text) + 1)
        expected = [m.span() for m in re.finditer(rb"[A-Za-z0-9]+", text[:cut])]
        assert _batch._token_spans_py(text, cut) == expected, (text, cut)


@pytest.mark.parametrize("mode", ["A", "B"])
def test_single_sentence_pairs_equal_the_union_lcs(mode):
    """One sentence a side (the no-trace shortcut of ROUGE-L) gives the readable path's numbers,
    with repeated tokens everywhere (where LCS tie-breaks choose among several alignments) and
    with multi-sentence references mixed in (the general path)."""
    rng = random.Random(11 + ord(mode))
    vocab = "a b c d the cat sat mat police killed gunman".split()

    def sentence(k):
        return " ".join(rng.choice(vocab) for _ in range(k))

    cands, refs = [], []
    for _ in range(400):
        cands.append(sentence(rng.randint(0, 40)) if rng.random() < 0.9 else sentence(5) + "\n" + sentence(4))
        refs.append(
            [
                sentence(rng.randint(1, 40)) if rng.random() < 0.85 else sentence(6) + "\n" + sentence(3)
                for _ in range(rng.randint(1, 3))
            ]
        )
    cands.append(" ".join(rng.choice("ab") for _ in range(3000)))  # a long sentence: several 64-bit words
    refs.append([" ".join(rng.choice("abc") for _ in range(2500))])
    measures = [Measure.parse(x) for x in ("ROUGE-L", "ROUGE-1", "ROUGE-W-1.2")]
    opts = dict(stem=False, stopwords=False, word_limit=0, byte_limit=0, mode=mode, alpha=0.5)
    exp = _expected(cands, refs, measures, **opts)
    for jobs in (1, 2):
        _assert_same(BatchScorer(measures, **opts).score_arrays(cands, refs, jobs=jobs), exp, f"jobs={jobs}")
    with _pure_kernels():  # the short pairs again, against the pure twins
        exp = _expected(cands[:-1], refs[:-1], measures, **opts)
    _assert_same(BatchScorer(measures, **opts).score_arrays(cands[:-1], refs[:-1]), exp, "pure twins")


@pytest.mark.parametrize("fast", [True, False])
@pytest.mark.parametrize("jobs", [1, 2])
def test_rouge_w_on_a_reference_without_tokens_is_an_error(fast, jobs):
    """The script dies on ROUGE-W with a reference of no tokens; every path says so in one line."""
    import rougekit
    from rougekit.errors import InputError

    cases = [(["a b"] * 6, [["c d"]] * 5 + [["!!"]]), ([[1, 2]] * 6, [[[3]]] * 5 + [[[]]])]
    for cands, refs in cases:
        with pytest.raises(InputError, match="ROUGE-W is undefined for a reference with no tokens"):
            rougekit.score(cands, refs, measures=["ROUGE-1", "ROUGE-W-1.2"], bootstrap=None, jobs=jobs, fast=fast)
        ok = rougekit.score(cands, refs, measures=["ROUGE-1"], bootstrap=None, jobs=jobs, fast=fast)
        assert ok.per_pair()[-1]["ROUGE-1"]["recall"] == 0.0  # without ROUGE-W the empty reference scores 0


@pytest.mark.parametrize("seed", range(3))
def test_wide_lcs_rows_equal_the_scalar_rows(seed):
    """Rows of 4+ words run with AVX-512 where the CPU has it (lcs.pxi): the same LCS lengths and
    union-LCS marks as the scalar add-with-carry rows, for 1-4 registers and beyond (sentences of
    193 to 4,500 tokens; one sentence each: no trace-back; several: the union LCS). On every CPU the
    rows that run give the LCS of the whole sequences that a bit-vector LCS on Python integers gives
    (and, for one sentence each, ROUGE-L's hits): the comparison never depends on the CPU."""
    from rougekit.engine.batch import SEQUENCE_LCS

    rng = np.random.default_rng(seed)

    def sentence(k):
        return rng.integers(0, 60, size=k, dtype=np.int32)

    sizes = [193, 256, 511, 512, 513, 700, 1024, 1500, 2048, 2049, 2600, 4500]
    cands, refs = [], []
    for k in sizes:
        c = sentence(k)
        r = np.where(rng.random(k) < 0.6, c, rng.integers(0, 80, size=k)).astype(np.int32)
        cands.append(c)
        refs.append(r)
        cands.append([c[: k // 2], sentence(int(rng.integers(193, 800)))])  # several sentences: union LCS
        refs.append([[r[k // 3 :], sentence(50)]])
    measures = ["ROUGE-L", SEQUENCE_LCS]
    opts = dict(stem=False, stopwords=False, word_limit=0, byte_limit=0, mode="A", alpha=0.5)
    flags = cpu_flags()
    if flags is not None:  # x86-64 Linux: the wide rows run exactly where the CPU has AVX-512 (F, BW, DQ)
        assert _batch._AVX512_ROWS == all(f in flags for f in ("avx512f", "avx512bw", "avx512dq"))
    try:
        _batch._wide_rows(False)
        expected = BatchScorer(measures, **opts).score_arrays(cands, refs)
        _batch._wide_rows(True)  # the wide rows where the CPU has them, else the scalar rows again
        got = BatchScorer(measures, **opts).score_arrays(cands, refs)
    finally:
        _batch._wide_rows(True)
    assert np.array_equal(got, expected)
    flat = [np.concatenate(x) if isinstance(x, list) else x for x in cands]
    flat_refs = [np.concatenate(x[0]) if isinstance(x, list) else x for x in refs]
    lcs = np.array([bits_lcs(a.tolist(), b.tolist()) for a, b in zip(flat, flat_refs)])
    assert np.array_equal(expected[:, 1, 1], lcs) and np.array_equal(expected[0::2, 0, 1], lcs[0::2])
    assert bits_lcs([1, 2, 3, 2, 1], [2, 1, 2, 3]) == dp_lcs([1, 2, 3, 2, 1], [2, 1, 2, 3]) == 3
    # by hand: every third token of the reference replaced by an id the candidate lacks
    c = np.arange(3000, dtype=np.int32)
    r = np.where(np.arange(3000) % 3 == 0, 5000, c).astype(np.int32)
    got = BatchScorer(["ROUGE-L"], **opts).score_arrays([c], [r])
    assert got[0, 0, 1] == 2000


@pytest.mark.parametrize("mode", ["A", "B", "M"])
def test_two_pairs_lcs_rows_at_once(mode):
    """score_docs puts off a one-reference pair's LCS of sequences and runs two pairs' rows in one
    loop (lcs.pxi: rkb_rows2, AVX-512 or scalar): the same numbers as each pair's rows alone and the pure
    twin's LCS, with pairs of unequal lengths (1-32 words, 1-4 registers each, a shorter candidate
    or reference), pairs that are not put off between them (empty texts, several sentences, several
    references: their rows two at a time on one match table), odd counts, on two threads, and from
    1 or from 4 words a row."""
    from rougekit.engine.batch import SEQUENCE_LCS

    rng = np.random.default_rng(28)

    def ids(k, hi=50):
        return rng.integers(0, hi, size=k, dtype=np.int32)

    cands, refs = [], []
    for k, j in [(193, 600), (1024, 250), (513, 513), (2048, 1100), (300, 1600), (0, 400), (700, 0), (900, 2)]:
        c = ids(k)
        r = np.where(rng.random(j) < 0.5, np.resize(c, j) if k else ids(j), ids(j, 70)).astype(np.int32)
        cands.append(c)
        refs.append([r])
        if k % 3 == 0:  # between them: a short pair, two references, several sentences (the last two alone)
            cands += [ids(40), ids(260), [ids(200), ids(30)], ids(130)]
            refs += [[ids(50)], [ids(300), ids(220)], [[ids(250)]], [ids(64)]]
    # several references (one match table, two references' rows at once): 2-5 of unequal lengths, an empty one
    for k, js in [(700, (300, 900, 0)), (150, (150, 40)), (1300, (1300, 64, 2000, 700, 513))]:
        c = ids(k)
        cands.append(c)
        refs.append([np.where(rng.random(j) < 0.5, np.resize(c, j), ids(j, 70)).astype(np.int32) for j in js])
    # by hand: 0 .. k-1 against itself with every third id one the candidate lacks: LCS k - ceil(k / 3)
    for k in (1100, 1600, 257):
        cands.append(np.arange(k, dtype=np.int32))
        refs.append([np.where(np.arange(k) % 3 == 0, 5000, np.arange(k)).astype(np.int32)])
    opts = dict(stem=False, stopwords=False, word_limit=0, byte_limit=0, mode=mode, alpha=0.5)
    measures = ["ROUGE-L", SEQUENCE_LCS, "ROUGE-1"]
    for n, wide in [(len(cands), True), (len(cands) - 1, True), (3, True), (2, True), (len(cands), False)]:
        try:  # even and odd counts; the AVX-512 rows (where the CPU has them) and the scalar rows
            _batch._wide_rows(wide)
            _batch._two_pair_rows(False)
            expected = BatchScorer(measures, **opts).score_arrays(cands[:n], refs[:n])
            for words in (4, 1):
                _batch._two_pair_rows(True, words)
                for jobs in (1, 2):
                    got = BatchScorer(measures, **opts).score_arrays(cands[:n], refs[:n], jobs=jobs)
                    assert np.array_equal(got, expected), (n, jobs, words, wide)
            if n == len(cands):
                full = got
        finally:
            _batch._two_pair_rows(True)
            _batch._wide_rows(True)
    for i in (0, 2, 3, 6, len(cands) - 1):  # the LCS lengths themselves, against the pure twin
        c, r = cands[i], refs[i][0]
        lcs, _, _ = _pure.pair_counts(list(c), list(r), (), lcs=True)
        assert full[i, 0, 1] == full[i, 1, 1] == lcs, i
    i = len(cands) - 5  # several references (-f A sums their hits; B and M keep one)
    lcs = [_pure.pair_counts(list(cands[i]), list(r), (), lcs=True)[0] for r in refs[i]]
    assert (full[i, 1, 1] == sum(lcs)) if mode == "A" else (full[i, 1, 1] in lcs)
    for i, k in zip(range(len(cands) - 3, len(cands)), (1100, 1600, 257)):
        assert full[i, 1, :3].tolist() == [k, k - (k + 2) // 3, k]


def test_long_tokens_interned_by_all_their_bytes():
    """Tokens longer than 8 bytes are hashed and compared 8 bytes at a time past the first word:
    the same word in any case is one type; words differing only past byte 8 or 16 are not; the
    last token of a text (no bytes after it) is read like the others."""
    words = [
        "internationalization",
        "INTERNATIONALIZATION",
        "Internationalizatiox",  # differs in byte 20
        "internationalizing",  # differs from byte 16 on
        "internat",  # the first 8 bytes only
        "internati",  # 9 bytes
        "abcdefghijklmnopqrstuvwxyz0123456789abcdefghij",
        "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789ABCDEFGHIJ",
        "abcdefghijklmnopqrstuvwxyz0123456789abcdefghik",
    ]
    scorer = BatchScorer(
        [Measure.parse("ROUGE-1")], stem=False, stopwords=False, word_limit=0, byte_limit=0, mode="A", alpha=0.5
    )
    ids = scorer.tokens(" ".join(words))
    assert ids[0] == ids[1] and ids[6] == ids[7]
    assert len({ids[0], ids[2], ids[3], ids[4], ids[5], ids[6], ids[8]}) == 7
    for k, word in enumerate(words):  # alone, at the very end of its text: the same type
        assert scorer.tokens(word) == [ids[k]]
        assert scorer.tokens("x " + word.upper()) == [scorer.tokens("x")[0], ids[k]]


def test_the_engine_names_the_bad_reference_of_a_pair_by_its_position():
    """The engine named every bad reference 'reference 1' and gave no hint for a missing value or
    bytes (rougekit.score re-read the refused pair in Python for the message); now the engine's
    own text names the pair and the reference, as the readable path does."""
    scorer = BatchScorer(
        [Measure.rouge_n(1)], stem=False, stopwords=False, word_limit=0, byte_limit=0, mode="A", alpha=0.5
    )
    missing = "(a missing value: drop those rows or fill them, e.g. with '', first)"
    expected = f"pair 2: reference 3: expected text (a str or a list of str sentences), got None {missing}"
    cands = ["a b", "b c"]
    with pytest.raises(TypeError) as err:
        scorer.score_arrays(cands, [["a"], ["b", "c", None]], jobs=1)
    assert str(err.value) == expected
    with pytest.raises(TypeError) as err:
        scorer.score_arrays(cands, [["a"], ["b", b"c", "d"]], jobs=1)
    assert str(err.value) == (
        "pair 2: reference 2: expected text (a str or a list of str sentences), got b'c' "
        "(bytes: decode them first, e.g. .decode('utf-8'))"
    )
    with pytest.raises(TypeError) as err:  # the same text through the front door
        rougekit.score(cands, [["a"], ["b", "c", None]], measures=["ROUGE-1"], bootstrap=None)
    assert str(err.value) == expected
