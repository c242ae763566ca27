"""Copy what the tests read from the shared data folder into ``tests/data/shared/`` (compressed).

Only folders whose README allows redistribution are copied, each as ``<folder>/files.tar.xz``
with its README (source, licence) and upstream licence files beside the archive, unpacked.
``tests/_paths.py`` unpacks the archives (once per content) when no shared folder is beside the
repository. The ROUGE-1.5.5 sample test (restrictive notice) and the research-only corpora
(Multi-SummEval, DialSummEval) are not copied: the tests that read them carry the ``shared``
marker. Run from the repository root:

    python tools/bundle_test_data.py ../shared
"""

from __future__ import annotations

import io
import shutil
import sys
import tarfile
from pathlib import Path

# folder -> (files or folders to archive, files kept beside the archive); licences in each README
BUNDLE = {
    # MIT (SummEval), Apache-2.0 (BARTScore)
    "summeval": (
        ["summeval.jsonl", "summeval_human_scores.csv", "rouge155_goldens"],
        ["README.md", "UPSTREAM_BARTScore_LICENSE.txt"],
    ),
    # CC BY 4.0
    "realsumm": (
        ["scores/realsumm_summaries.jsonl", "parity/realsumm_rouge155_parity.jsonl"],
        ["README.md", "UPSTREAM_LICENSE.txt"],
    ),
    # Apache-2.0
    "sacrerouge-fixtures": (
        [
            "multiling2011",
            "chen2018",
            "numeric",
            "expected_rouge155_multiling2011.json",
            "expected_correlations_multiling2011.json",
        ],
        ["README.md", "UPSTREAM_LICENSE.txt"],
    ),  # fmt: skip
    # Apache-2.0 / MIT per suite (the large stress files and the unused second system are left out)
    "peer-rouge-test-suites": (
        [
            "google-research-rouge",
            "li-plus-rouge-metric",
            "pltrdy-rouge",
            "diego999-py-rouge/summaries_1",
            "diego999-py-rouge/UPSTREAM_LICENSE",
        ],
        ["README.md"],
    ),  # fmt: skip
    # NLTK's stopwords corpus (its own README, inside the zip, names the sources)
    "nltk_data": (["corpora/stopwords.zip"], ["README.md"]),
}


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
    for folder, (archived, beside) in BUNDLE.items():
        root = shared / folder
        target = out / folder
        shutil.rmtree(target, ignore_errors=True)
        target.mkdir(parents=True)
        _archive(root, _files(root, archived), target / "files.tar.xz")
        for name in beside:
            shutil.copyfile(root / name, target / name)
        print(f"{folder}: {(target / 'files.tar.xz').stat().st_size:,} bytes")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
