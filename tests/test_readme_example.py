"""The README's worked example (`score --per-pair` into `correlate`) runs as written."""

from __future__ import annotations

import contextlib
import csv
import io
import re
import shlex
import shutil
from pathlib import Path

import numpy as np

import rougekit
from rougekit.cli.main import main

ROOT = Path(__file__).resolve().parents[1]


def _worked_example() -> tuple[list[list[str]], str]:
    """The commands of the README's worked example and the output it shows."""
    text = (ROOT / "README.md").read_text()
    section = text.split("### Worked example", 1)[1]
    commands, output = re.findall(r"```(?:bash)?\n(.*?)```", section, re.S)[:2]
    argvs = [shlex.split(line) for line in commands.splitlines() if line.startswith("rougekit ")]
    return argvs, output


def test_readme_score_feeds_correlate(tmp_path, monkeypatch):
    work = tmp_path / "correlate"
    shutil.copytree(ROOT / "examples" / "correlate", work)
    monkeypatch.chdir(work)
    argvs, shown = _worked_example()
    assert [a[1] for a in argvs] == ["score", "correlate"]
    outputs = []
    for argv in argvs:
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            assert main(argv[1:]) == 0
        outputs.append(out.getvalue())
    assert outputs[1] == shown
    # the same correlations computed directly: Pearson's r of per-system mean F and mean relevance
    systems = ["sysA", "sysB", "sysC"]
    refs = (work / "ref.txt").read_text().splitlines()
    human = {}
    with open(work / "human.csv") as handle:
        for row in csv.DictReader(handle):
            human.setdefault(row["system"], []).append(float(row["relevance"]))
    for measure in ("ROUGE-1", "ROUGE-2"):
        means = []
        for name in systems:
            cands = (work / f"{name}.txt").read_text().splitlines()
            pairs = rougekit.score(cands, refs, measures=[measure], bootstrap=None).per_pair()
            means.append(np.mean([p[measure]["f"] for p in pairs]))
        r = np.corrcoef(means, [np.mean(human[s]) for s in systems])[0, 1]
        assert f"{measure}_f  relevance  pearson      {r:.4f}" in shown
