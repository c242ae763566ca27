"""Copy what the tests read from the shared data folder into ``tests/data/shared/`` (compressed).

Only files that tests read and whose licence clearly allows redistribution are copied, each
folder as ``<folder>/files.tar.xz`` with its README (source, licence), the upstream licence files
and ``BUNDLED.md`` (what the archive holds, under which licence, what is left out) beside it.
``tests/_paths.py`` unpacks the archives (once per content) when no shared folder is beside the
repository. Not copied: the ROUGE-1.5.5 sample test and li-plus's copy of its SL2003 data
(USC/ISI's restrictive notice), the DUC 2004 references (NIST data), the MultiLing 2011 texts
(permission given to SacreROUGE only), NLTK's stopwords corpus (no licence stated; the tests build
its lists from the ones rougekit ships) and the research-only corpora (Multi-SummEval,
DialSummEval): the tests that need them carry the ``shared`` marker. Run from the repository root:

    python tools/bundle_test_data.py ../shared
"""

from __future__ import annotations

import io
import shutil
import sys
import tarfile
from pathlib import Path

# folder -> (files or folders to archive, files kept beside the archive, what BUNDLED.md says of them)
BUNDLE = {
    "summeval": (
        ["summeval.jsonl", "summeval_human_scores.csv", "rouge155_goldens"],
        ["README.md", "UPSTREAM_BARTScore_LICENSE.txt"],
        "MIT (SummEval), Apache-2.0 (BARTScore's conversion, UPSTREAM_BARTScore_LICENSE.txt).",
    ),
    "realsumm": (
        ["scores/realsumm_summaries.jsonl", "parity/realsumm_rouge155_parity.jsonl"],
        ["README.md", "UPSTREAM_LICENSE.txt"],
        "CC BY 4.0 (UPSTREAM_LICENSE.txt).",
    ),
    "sacrerouge-fixtures": (
        ["multiling2011/metrics.jsonl", "expected_correlations_multiling2011.json"],
        ["README.md", "UPSTREAM_LICENSE.txt"],
        "Apache-2.0 (UPSTREAM_LICENSE.txt): SacreROUGE's made-up metrics of its MultiLing 2011 sample (ids "
        "and numbers only) and the correlations its tests expect of them. Not carried: the MultiLing 2011 "
        "texts (`summaries.jsonl`, `documents.jsonl`: used by SacreROUGE with permission, which does not "
        "extend to rougekit), `chen2018` (CNN/DM outputs) and `numeric` (no test reads them).",
    ),
    "peer-rouge-test-suites": (
        ["pltrdy-rouge"],
        ["README.md"],
        "Apache-2.0 (`pltrdy-rouge/UPSTREAM_LICENSE`). Only `pltrdy-rouge/` is carried. Not carried: "
        "li-plus's `test_data.json` (the SL2003 data of ROUGE-1.5.5's sample test, under USC/ISI's "
        "restrictive notice), diego999's `summaries_1` (DUC 2004 reference summaries: NIST data) and "
        "google-research's pair (no test reads it); the tests that read them carry the `shared` marker.",
    ),
}
NOTE = """# What tests/data/shared/{folder} carries

`files.tar.xz` holds these files of `../shared/data/{folder}` (same paths); README.md beside it
describes the whole shared folder, of which this is a part. Written by `tools/bundle_test_data.py`.

{files}

Licence: {licence}
"""


def _files(root: Path, names: list[str]) -> list[Path]:
    out: list[Path] = []
    for name in names:
        path = root / name
        if not path.exists():
            sys.exit(f"{path} not found")
        out.extend(sorted(p for p in path.rglob("*") if p.is_file()) if path.is_dir() else [path])
    return out


def _archive(root: Path, files: list[Path], target: Path) -> None:
    """A reproducible tar.xz: sorted names, no owners, no times."""
    with tarfile.open(target, "w:xz", preset=9) as tar:
        for path in files:
            info = tarfile.TarInfo(path.relative_to(root).as_posix())
            data = path.read_bytes()
            info.size, info.mode, info.mtime = len(data), 0o644, 0
            tar.addfile(info, io.BytesIO(data))


def main(argv: list[str]) -> int:
    shared = Path(argv[0] if argv else "../shared") / "data"
    out = Path(__file__).resolve().parents[1] / "tests" / "data" / "shared"
    for old in out.iterdir() if out.is_dir() else ():
        if old.name not in BUNDLE:  # a folder no longer carried
            shutil.rmtree(old)
    for folder, (archived, beside, licence) in BUNDLE.items():
        root = shared / folder
        target = out / folder
        shutil.rmtree(target, ignore_errors=True)
        target.mkdir(parents=True)
        _archive(root, _files(root, archived), target / "files.tar.xz")
        for name in beside:
            shutil.copyfile(root / name, target / name)
        files = "\n".join(f"- `{name}`" for name in archived)
        (target / "BUNDLED.md").write_text(NOTE.format(folder=folder, files=files, licence=licence), encoding="utf-8")
        print(f"{folder}: {(target / 'files.tar.xz').stat().st_size:,} bytes")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
