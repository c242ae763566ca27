"""Scenario (k) of benchmarks/run.py: each drop-in beside the package it replaces, on the same pairs.

    python benchmarks/run.py --scenarios k [--peer-python /path/to/venv/bin/python]

Pairs of rougekit.compat.X and package X: rouge 1.0.1 (``Rouge().get_scores(avg=True)``),
pyrouge 0.1.3 driving ROUGE-1.5.5.pl (``convert_and_evaluate``), files2rouge 2.1.0 (the
command), evaluate 0.4.6 ("rouge" module, ``compute``), torchmetrics 1.9.0 (``rouge_score``,
rouge1/2/L). Each measurement runs in a fresh subprocess and times the call after imports and a
warm-up (files2rouge: the whole command). Packages that are not in this Python (evaluate,
torchmetrics, files2rouge with its pyrouge fork are best kept in a scratch virtual environment,
see tools/goldens/README.md) are run with ``--peer-python``; evaluate also needs its module file
(``--evaluate-module``, the v0.4.6 ``metrics/rouge/rouge.py``). A peer that cannot run is
reported as such, never silently left out. ``check`` prints a number both sides compute.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import time
from pathlib import Path

#: (name, label, peer?, what) of every measurement, rougekit first in each pair
TOOLS = [
    ("compat-rouge", "rougekit.compat.rouge Rouge().get_scores(avg=True)", False, "rouge"),
    ("rouge", "rouge 1.0.1 Rouge().get_scores(avg=True)", True, "rouge"),
    ("compat-pyrouge", "rougekit.compat.pyrouge convert_and_evaluate()", False, "pyrouge"),
    ("pyrouge", "pyrouge 0.1.3 + ROUGE-1.5.5.pl convert_and_evaluate()", True, "pyrouge"),
    ("compat-files2rouge", "rougekit files2rouge refs.txt sums.txt (command)", False, "files2rouge"),
    ("files2rouge", "files2rouge 2.1.0 refs.txt sums.txt (command, pyrouge fork + perl)", True, "files2rouge"),
    ("compat-evaluate", "rougekit.compat.evaluate load('rouge').compute()", False, "evaluate"),
    ("evaluate", "evaluate 0.4.6 load(rouge.py).compute()", True, "evaluate"),
    ("compat-torchmetrics", "rougekit.compat.torchmetrics rouge_score(rouge1/2/L)", False, "torchmetrics"),
    ("torchmetrics", "torchmetrics 1.9.0 rouge_score(rouge1/2/L)", True, "torchmetrics"),
]


def _write_lines(folder: Path, cands, refs) -> tuple[Path, Path]:
    folder.mkdir(parents=True, exist_ok=True)
    one_line = [" ".join(c.split()) for c in cands], [" ".join(r[0].split()) for r in refs]
    (folder / "sums.txt").write_text("\n".join(one_line[0]) + "\n", encoding="utf-8")
    (folder / "refs.txt").write_text("\n".join(one_line[1]) + "\n", encoding="utf-8")
    return folder / "refs.txt", folder / "sums.txt"


def _write_folders(folder: Path, cands, refs) -> tuple[Path, Path]:
    system, model = folder / "system", folder / "model"
    system.mkdir(parents=True, exist_ok=True)
    model.mkdir(parents=True, exist_ok=True)
    for i, (cand, ref) in enumerate(zip(cands, refs)):
        (system / f"doc.{i}.txt").write_text(cand.replace(" . ", " .\n"), encoding="utf-8")
        for j, text in enumerate(ref[:4]):
            (model / f"doc.{chr(65 + j)}.{i}.txt").write_text(text.replace(" . ", " .\n"), encoding="utf-8")
    return system, model


def _pyrouge_home(folder: Path, perl_cmd: list[str]) -> Path:
    """A ROUGE home for pyrouge: a wrapper running the reference script, and its data folder."""
    home = folder / "rouge_home"
    home.mkdir(parents=True, exist_ok=True)
    perl, script, _, data = perl_cmd
    (home / "ROUGE-1.5.5.pl").write_text(f'#!/bin/sh\nexec "{perl}" "{script}" "$@"\n')
    (home / "ROUGE-1.5.5.pl").chmod(0o755)
    if not (home / "data").exists():
        (home / "data").symlink_to(data)
    return home


def worker(tool: str, corpus_path: str, extra: dict) -> None:
    """Run one measurement (in its own process) and print {"seconds", "pairs", "check"} as JSON."""
    data = json.loads(Path(corpus_path).read_text(encoding="utf-8"))
    cands, refs = data["candidates"], [r[0] for r in data["references"]]

    def timed(call, warm=None):
        if warm is not None:
            warm()
        t0 = time.perf_counter()
        out = call()
        return time.perf_counter() - t0, out

    if tool in ("compat-rouge", "rouge"):
        if tool == "rouge":
            from rouge import Rouge
        else:
            from rougekit.compat.rouge import Rouge
        rouge = Rouge()
        seconds, out = timed(
            lambda: rouge.get_scores(cands, refs, avg=True), lambda: rouge.get_scores(cands[:5], refs[:5])
        )
        check = out["rouge-l"]["f"]
    elif tool in ("compat-pyrouge", "pyrouge"):
        if tool == "pyrouge":
            import logging

            import pyrouge

            logging.getLogger("global").setLevel(logging.WARNING)
            r = pyrouge.Rouge155(extra["rouge_home"])
        else:
            from rougekit.compat.pyrouge import Rouge155

            r = Rouge155()
        r.system_dir, r.model_dir = extra["system"], extra["model"]
        r.system_filename_pattern, r.model_filename_pattern = r"doc.(\d+).txt", "doc.[A-Z].#ID#.txt"
        seconds, out = timed(r.convert_and_evaluate)
        check = r.output_to_dict(out)["rouge_l_f_score"]
    elif tool in ("compat-evaluate", "evaluate"):
        import numpy as np

        np.random.seed(0)  # both take their bootstrap seed from numpy's state at load: the same medians
        if tool == "evaluate":
            import evaluate

            metric = evaluate.load(extra["evaluate_module"])
        else:
            from rougekit.compat import evaluate

            metric = evaluate.load("rouge")
        seconds, out = timed(
            lambda: metric.compute(predictions=cands, references=refs, use_stemmer=True),
            lambda: metric.compute(predictions=cands[:5], references=refs[:5]),
        )
        check = float(out["rougeL"])
    elif tool in ("compat-torchmetrics", "torchmetrics"):
        if tool == "torchmetrics":
            from torchmetrics.functional.text.rouge import rouge_score
        else:
            from rougekit.compat.torchmetrics import rouge_score
        keys = ("rouge1", "rouge2", "rougeL")
        seconds, out = timed(
            lambda: rouge_score(cands, refs, use_stemmer=True, rouge_keys=keys),
            lambda: rouge_score(cands[:5], refs[:5], rouge_keys=keys),
        )
        check = float(out["rougeL_fmeasure"])
    else:
        raise SystemExit(f"unknown tool {tool}")
    print(json.dumps({"seconds": seconds, "pairs": len(cands), "check": f"L-F={check:.5f}"}))


def scenario_h(
    corpus, workdir: Path, timeout: float, run_measured, child_env, perl_reference, peer_python, evaluate_module
):
    """The table of scenario (k); ``run_measured`` etc. are benchmarks/run.py's helpers."""
    folder = workdir / "dropins"
    folder.mkdir(parents=True, exist_ok=True)
    small = min(len(corpus), 200)  # pyrouge / files2rouge: Perl and its bootstrap, 200 documents
    corpus_path = folder / "corpus.json"
    corpus.to_json(corpus_path)
    small_path = folder / "corpus_small.json"
    corpus.head(small).to_json(small_path)
    refs_txt, sums_txt = _write_lines(folder / "lines", corpus.candidates[:small], corpus.references[:small])
    system, model = _write_folders(folder / "folders", corpus.candidates[:small], corpus.references[:small])
    perl_cmd, why_no_perl = perl_reference()
    extra = {"system": str(system), "model": str(model), "evaluate_module": evaluate_module}
    if perl_cmd:
        extra["rouge_home"] = str(_pyrouge_home(folder, perl_cmd))
    f2r = str(Path(peer_python).parent / "files2rouge") if peer_python else shutil.which("files2rouge")
    rows, results = [], {}
    for name, label, peer, what in TOOLS:
        python = peer_python if (peer and peer_python and what in ("evaluate", "torchmetrics")) else sys.executable
        n = small if what in ("pyrouge", "files2rouge") else len(corpus)
        env = child_env()
        env["HOME"] = str(folder)  # pyrouge and its fork write ~/.pyrouge/settings.ini
        if what == "files2rouge":
            if name == "files2rouge" and not (f2r and Path(f2r).exists()):
                rows.append([label, "not installed (--peer-python: the venv with files2rouge)", "", "", ""])
                continue
            cmd = [f2r] if name == "files2rouge" else [sys.executable, "-m", "rougekit", "files2rouge"]
            run = run_measured([*cmd, str(refs_txt), str(sums_txt)], env=env, timeout=timeout)
            if run.ok:
                text = run.stdout.decode("utf-8", "replace")
                line = next((x for x in text.splitlines() if "ROUGE-L Average_F" in x), "")
                run.info = {"check": "L-F=" + (line.split()[3] if line else "?")}
        else:
            if what == "evaluate" and peer and not evaluate_module:
                rows.append([label, "needs --evaluate-module (its v0.4.6 rouge.py)", "", "", ""])
                continue
            if what == "pyrouge" and peer and not perl_cmd:
                rows.append([label, why_no_perl, "", "", ""])
                continue
            path = small_path if what == "pyrouge" else corpus_path
            code = (
                "import sys, json; sys.path.insert(0, sys.argv[1]); import bench_dropins as b; "
                "b.worker(sys.argv[2], sys.argv[3], json.loads(sys.argv[4]))"
            )
            here = str(Path(__file__).resolve().parent)
            run = run_measured([python, "-c", code, here, name, str(path), json.dumps(extra)], env=env, timeout=timeout)
            if run.ok:
                run.info = json.loads(run.stdout.decode().strip().splitlines()[-1])
                run.seconds = run.info["seconds"]
        if not run.ok:
            rows.append([label, "failed: " + run.error[:70], "", "", ""])
            continue
        results[name] = run.seconds
        ours = results.get(f"compat-{name}") if peer else None
        ratio = f"{run.seconds / ours:,.1f}x" if ours else ("1.00x" if not peer else "-")
        rows.append([label, f"{run.seconds:.3f}", f"{n:,}", ratio, run.info.get("check", "")])
        print(f"  [k] {name}: {run.seconds:.3f}s", file=sys.stderr, flush=True)
    return rows, small


def uptime() -> str:
    try:
        return "load average " + ", ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "load average unknown"
