#!/usr/bin/env python3
"""Micro-benchmark of the batch engine's tokenizer (issue 28): CPU time per token, one thread.

    python benchmarks/bench_tokenize.py [--trees A,B] [--rows 100000] [--rounds 3] [--passes 4]
                                        [--tokenizer-only] [--stem] [--stopwords]

The rows of the first row groups of the Parquet file of ``bench_parquet.py`` (both columns) go
through ``_batch.arrow_prepare`` with an engine that counts no measure: what it does is the
tokenizer (``_Engine._tokenize``: the bitmap, the runs, the vocabulary table, new types through
``_final_id``), the sentence split and the copy of the ids into the chunk's slab; scoring a pair
with no measure costs next to nothing.  Chunks of 1,000 pairs, as the engine's jobs take them.
With ``--tokenizer-only`` each column's texts go through the ``_batch._tokenize_rows`` hook instead
(sentences and tokens only, nothing stored): a tree without the hook (main before tok20) needs a
copy with it built in for the comparison (benchmarks/README.md, issue 28, session 20, tok20).

For each tree (``--trees``: checkouts whose ``src`` holds a built rougekit; default: this one) a
child process is started per round, trees in turn (A B A B ...); each reports the CPU seconds
(``time.thread_time``) of a first pass (a fresh engine: every type new) and of the best of
``--passes`` further passes over the same rows (the vocabulary warm, as after the first row groups of a long
file), in ns per token, and a digest of the ids ``process`` gives for the first 2,000 rows of each
column (the same in every tree: the same ids in the same first-seen order).  The load average is
printed with each figure.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
DEFAULT_FILE = "/tmp/pq28h/pairs-1000000.parquet"


def worker(path: str, rows: int, stem: bool, stopwords: bool, passes: int, hook: bool) -> None:
    import re

    import pyarrow as pa
    import pyarrow.parquet as pq

    from rougekit._core import _batch
    from rougekit.engine.batch import BatchScorer

    pf = pq.ParquetFile(path)
    parts = []
    got = 0
    for g in range(pf.num_row_groups):
        if got >= rows:
            break
        parts.append(pf.read_row_group(g, columns=["prediction", "reference"]))
        got += parts[-1].num_rows
    table = pa.concat_tables(parts).slice(0, rows).combine_chunks()
    cols = []
    ntok = 0
    for name in ("prediction", "reference"):
        arr = table.column(name).chunk(0)
        buf = arr.buffers()
        cols.append(_batch._ArrowText(buf[1], buf[2], arr.offset, False, len(arr)))
        ntok += sum(len(re.findall(rb"[A-Za-z0-9]+", s.encode())) for s in arr.to_pylist())
    n = table.num_rows
    # the engine's arguments as BatchScorer makes them, with no measure
    args = list(
        BatchScorer(["ROUGE-1"], stem=stem, stopwords=stopwords, word_limit=0, byte_limit=0, mode="A", alpha=0.5)._args
    )
    args[0] = []
    import numpy as np

    def one_pass(eng):
        wk = _batch._Work(eng)
        out = np.zeros((n, 0, 6))
        t0 = time.thread_time()
        for s in range(0, n, 1000):
            _batch.arrow_prepare(eng, cols[0], cols[1], s, min(n, s + 1000), wk, out)
        return time.thread_time() - t0

    def hook_pass(eng):
        # the tokenizer alone (the _tokenize_rows hook): each column's texts
        t0 = time.thread_time()
        for data, offs in raw:
            run(eng, data, offs)
        return time.thread_time() - t0

    eng = _batch._Engine(*args)
    if hook:
        # the hook: _batch._tokenize_rows (vocab.pxi), or a method in the base copy built for A/B
        run = getattr(_batch, "_tokenize_rows", None) or getattr(type(eng), "_tokenize_rows", None)
        if run is None:
            raise SystemExit("--tokenizer-only: this tree has no _tokenize_rows hook")
        raw = []
        for name in ("prediction", "reference"):
            arr = table.column(name).chunk(0)
            buf = arr.buffers()
            offs = np.frombuffer(buf[1], dtype=np.int32)[arr.offset : arr.offset + len(arr) + 1].astype(np.int64)
            raw.append((np.frombuffer(buf[2], dtype=np.uint8), offs))
        one_pass = hook_pass  # noqa: F811
    cold = one_pass(eng)
    warm = min(one_pass(eng) for _ in range(passes))
    types = eng.vocabulary_size
    digest = hashlib.sha256()
    eng = _batch._Engine(*args)
    texts = table.column("prediction").to_pylist()[:2000] + table.column("reference").to_pylist()[:2000]
    for t in texts:
        toks, sents = eng.process(t)
        digest.update(np.asarray(toks, dtype=np.int32).tobytes())
        digest.update(np.asarray([len(x) for x in sents], dtype=np.int32).tobytes())
    print(
        json.dumps(
            dict(
                tokens=ntok,
                types=types,
                cold_s=cold,
                warm_s=warm,
                cold_ns=1e9 * cold / ntok,
                warm_ns=1e9 * warm / ntok,
                ids=digest.hexdigest()[:16],
            )
        )
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--trees", default=str(HERE.parent), help="comma-separated checkouts (their src is used)")
    ap.add_argument("--file", default=DEFAULT_FILE)
    ap.add_argument("--rows", type=int, default=100_000)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--passes", type=int, default=4, help="warm passes (the best is reported)")
    ap.add_argument(
        "--tokenizer-only",
        action="store_true",
        help="time the _tokenize_rows hook (sentences and tokens only) instead of arrow_prepare",
    )
    ap.add_argument("--stem", action="store_true")
    ap.add_argument("--stopwords", action="store_true")
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.worker:
        worker(a.file, a.rows, a.stem, a.stopwords, a.passes, a.tokenizer_only)
        return
    trees = [t for t in a.trees.split(",") if t]
    for r in range(a.rounds):
        for tree in trees:
            env = dict(os.environ, PYTHONPATH=str(Path(tree) / "src"))
            cmd = [
                sys.executable,
                __file__,
                "--worker",
                "--file",
                a.file,
                "--rows",
                str(a.rows),
                "--passes",
                str(a.passes),
            ]
            cmd += ["--stem"] * a.stem + ["--stopwords"] * a.stopwords + ["--tokenizer-only"] * a.tokenizer_only
            res = json.loads(subprocess.run(cmd, env=env, check=True, capture_output=True, text=True).stdout)
            load = os.getloadavg()[0]
            print(
                f"round {r + 1} {tree}: {res['tokens']:,} tokens, {res['types']:,} types; "
                f"cold {res['cold_s']:.3f} s = {res['cold_ns']:.2f} ns/token, "
                f"warm {res['warm_s']:.3f} s = {res['warm_ns']:.2f} ns/token; ids {res['ids']}; load {load:.2f}",
                flush=True,
            )


if __name__ == "__main__":
    main()
