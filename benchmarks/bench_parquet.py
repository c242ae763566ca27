#!/usr/bin/env python3
"""Benchmark of `rougekit score --parquet` (issue 28): one million pairs from a Parquet file, end to end.

    python benchmarks/bench_parquet.py [--pairs 1000000] [--workdir DIR]

The pairs (the synthetic CNN/DM-sized summaries of scenario (e), one reference each:
benchmarks/corpora.py) are written once to ``pairs.parquet`` (columns ``prediction`` and
``reference``, row groups of 100,000). Timed, each as its own process, with its peak RSS:

* ``python -m rougekit score --parquet pairs.parquet --candidate-column prediction --reference-column
  reference -q`` with the defaults (ROUGE-1/2/L, the 1.5.5 bootstrap), with ``--per-pair --format
  parquet -o F``, and with ``--bootstrap none``: the wall time of the whole command (start-up,
  reading, scoring, output);
* with ``--json``, ``--format json -o F`` (all defaults: the corpus numbers and their intervals);
* with ``--trees A,B`` each command from each checkout's ``src`` in turn (``--rounds`` times): a
  before/after comparison in one run;
* rouge-score-rs ``score_batch`` alone (rouge1/rouge2/rougeL, no stemming) on the same pairs, read
  from the same file into Python lists before its clock starts.

Before timing, each tree's ``rougekit`` is byte-compiled (``compileall``, into its ``__pycache__``), as an
installed package is: with ``PYTHONDONTWRITEBYTECODE=1`` in the environment (as on the team's machines)
every run would otherwise compile some 80 modules again (~0.2 s of CPU a run, counted in the command's time).

Targets (issue 28): the command at least 3x as fast as rouge-score-rs, its peak under 500 MB. The
load average is printed with the numbers: on a shared machine the ratio says more than the seconds,
and a rougekit command's CPU seconds (user + system, all its threads: ``CPU s``) more than its wall time.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import corpora  # noqa: E402
from run import child_env, peer_version, run_measured  # noqa: E402


def write_pairs(path: Path, n: int) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    schema = pa.schema([("prediction", pa.string()), ("reference", pa.string())])
    with pq.ParquetWriter(path, schema) as writer:
        cands: list[str] = []
        refs: list[str] = []
        for part in corpora.iter_synthetic(n, 3):  # the pairs of scenario (e)
            cands += [c.replace("\n", " ") for c in part.candidates]
            refs += [r[0].replace("\n", " ") for r in part.references]
            while len(cands) >= 100_000:
                writer.write_table(pa.table({"prediction": cands[:100_000], "reference": refs[:100_000]}, schema))
                del cands[:100_000], refs[:100_000]
        if cands:
            writer.write_table(pa.table({"prediction": cands, "reference": refs}, schema))


def rs_worker(path: str) -> None:
    """rouge-score-rs score_batch alone, the pairs read from the Parquet file first."""
    import pyarrow.parquet as pq
    from rouge_score_rs import RougeScorer

    table = pq.read_table(path)
    cands = table.column("prediction").to_pylist()
    refs = table.column("reference").to_pylist()
    del table
    scorer = RougeScorer(["rouge1", "rouge2", "rougeL"], use_stemmer=False)
    t0 = time.perf_counter()
    out = scorer.score_batch(refs, cands)
    seconds = time.perf_counter() - t0
    mean_l = sum(s["rougeL"].fmeasure for s in out) / len(out)
    print(json.dumps({"seconds": seconds, "check": f"L-F={mean_l:.4f}"}))


def _children_cpu() -> float:
    """User + system CPU seconds of this process's finished children (a command's, as a difference):
    on a shared machine the CPU a command took moves less than its wall time."""
    import resource

    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def byte_compile(env: dict[str, str]) -> None:
    """The ``rougekit`` that ``env`` imports, byte-compiled once (as pip leaves an installed package)."""
    import subprocess

    where = [sys.executable, "-c", "import os, rougekit; print(os.path.dirname(rougekit.__file__))"]
    package = subprocess.run(where, env=env, capture_output=True, text=True, check=True).stdout.strip()
    subprocess.run([sys.executable, "-m", "compileall", "-q", package], env=env, check=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pairs", type=int, default=1_000_000)
    ap.add_argument("--workdir", default=None, help="keep the Parquet file here (written once)")
    ap.add_argument("--timeout", type=float, default=1200)
    ap.add_argument(
        "--lines", action="store_true", help="also time `rougekit score -c/-r` on the same pairs as line files (as (e))"
    )
    ap.add_argument("--json", action="store_true", help="also time `--format json -o F` (corpus numbers, defaults)")
    ap.add_argument(
        "--trees",
        default=None,
        help="comma-separated checkouts whose src/ each command runs from, in turn (before/after in one run)",
    )
    ap.add_argument("--rounds", type=int, default=1, help="times each command runs (alternating the trees)")
    ap.add_argument("--worker", default=None, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.worker:
        rs_worker(args.worker)
        return 0
    folder = Path(args.workdir or tempfile.mkdtemp(prefix="rougekit-parquet-"))
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"pairs-{args.pairs}.parquet"
    if not path.exists():
        t0 = time.perf_counter()
        write_pairs(path, args.pairs)
        print(f"wrote {args.pairs:,} pairs to {path} in {time.perf_counter() - t0:.0f} s", file=sys.stderr)
    size = path.stat().st_size / 2**20
    base = [sys.executable, "-m", "rougekit", "score", "--parquet", str(path)]
    base += ["--candidate-column", "prediction", "--reference-column", "reference", "-q"]
    commands = [
        ("rougekit score --parquet (all defaults)", []),
        ("rougekit score --parquet --per-pair --format parquet -o F", ["--per-pair", "--format", "parquet", "-o", "o"]),
        ("rougekit score --parquet --bootstrap none", ["--bootstrap", "none"]),
    ]
    if args.json:
        commands.append(("rougekit score --parquet --format json -o F", ["--format", "json", "-o", "o"]))
    if args.lines:
        import pyarrow.parquet as pq

        table = pq.read_table(path)
        for name, column in (("candidates.txt", "prediction"), ("references.txt", "reference")):
            (folder / name).write_text("".join(t + "\n" for t in table.column(column).to_pylist()), encoding="utf-8")
        del table
        lines = [sys.executable, "-m", "rougekit", "score", "-c", "candidates.txt", "-r", "references.txt", "-q"]
        commands += [
            ("rougekit score -c/-r line files (all defaults)", lines),
            ("rougekit score -c/-r line files --bootstrap none", [*lines, "--bootstrap", "none"]),
        ]
    rows = []
    trees = [Path(t).resolve() for t in args.trees.split(",")] if args.trees else [None]

    def tree_env(tree: Path | None) -> dict[str, str]:
        env = child_env()
        if tree is not None:
            rest = os.environ.get("PYTHONPATH", "").split(os.pathsep)
            env["PYTHONPATH"] = os.pathsep.join([str(tree / "src"), *rest])
        return env

    for tree in trees:
        byte_compile(tree_env(tree))
    for label, extra in commands:
        command = extra if extra[:1] == [sys.executable] else [*base, *extra]
        for _ in range(args.rounds):
            for tree in trees:
                before = _children_cpu()
                run = run_measured(command, env=tree_env(tree), cwd=folder, timeout=args.timeout)
                if not run.ok:
                    print(f"{label}: failed: {run.error}", file=sys.stderr)
                shown = f"[{tree.name}] {label}" if tree is not None else label
                rows.append((shown, run.seconds if run.ok else None, run.peak_mb, _children_cpu() - before))
    (folder / "o").unlink(missing_ok=True)
    rs = peer_version("rouge-score-rs")
    rs_seconds = None
    if rs is None:
        rows.append(("rouge-score-rs: not installed (pip install -r benchmarks/requirements.txt)", None, 0.0, None))
    else:
        cmd = [sys.executable, str(Path(__file__).resolve()), "--worker", str(path)]
        run = run_measured(cmd, env=child_env(), timeout=args.timeout)
        if run.ok:
            info = json.loads(run.stdout.decode().strip().splitlines()[-1])
            rs_seconds = info["seconds"]
            label = f"rouge-score-rs {rs} score_batch alone (pairs in memory; {info['check']})"
            rows.append((label, rs_seconds, run.peak_mb, None))  # its process reads the file first: no CPU shown
        else:
            rows.append((f"rouge-score-rs {rs}: failed: {run.error[:80]}", None, run.peak_mb, None))
    print(f"{args.pairs:,} pairs, {size:,.0f} MiB of Parquet; nproc={os.cpu_count()}, load {os.getloadavg()[0]:.1f}")
    print(f"{'':<74} {'seconds':>8} {'peak MB':>8} {'vs rs':>7} {'CPU s':>6}")
    for label, seconds, peak, cpu in rows:
        label = label if len(label) <= 74 else label[:71] + "..."
        ours = "rouge-score-rs" not in label
        ratio = f"{rs_seconds / seconds:.2f}x" if rs_seconds and seconds and ours else ""
        shown = f"{seconds:.1f}" if seconds is not None else "-"
        cpu_shown = f"{cpu:.2f}" if cpu is not None else ""
        print(f"{label:<74} {shown:>8} {peak:>8,.0f} {ratio:>7} {cpu_shown:>6}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
