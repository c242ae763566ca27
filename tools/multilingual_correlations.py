"""The per-language correlation table of docs/multilingual.md, from Multi-SummEval, by `rougekit correlate`.

    python tools/multilingual_correlations.py            # rewrite the table in docs/multilingual.md
    python tools/multilingual_correlations.py --check    # exit 1 if the table differs
    python tools/multilingual_correlations.py --check --languages ZH,TR   # re-run and compare those rows only

For each language of ../shared/data/multi-summeval (135 documents, a reference and two systems,
BERT and PG, with human focus and coverage z-scores) the per-summary ROUGE-1/2/L F of each
preset is written as a CSV keyed by system and instance, and `rougekit correlate` (the command
line, in a subprocess) gives Kendall's tau-b against each human score at the global level (all
270 summaries), with a 95% bootstrap interval over documents (1,000 resamples, seed 0).
Presets: `rouge155` (the script's tokenizer), `unicode` (`--tokenizer unicode`), `lang`
(`--lang <code>`), `lang+stem` (`--lang <code> --stem`), all from `rougekit score`; `xlsum`
is rougekit.compat.multilingual_rouge with the language's XL-Sum name and its stemmer (the
numbers of XL-Sum's scorer). Only two systems per language: a system-level correlation would be
+1, -1 or undefined, so the table reports the global level.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("ROUGEKIT_SHARED") or REPO.parent / "shared")
DATA = SHARED / "data" / "multi-summeval"
DOC = REPO / "docs" / "multilingual.md"
BEGIN, END = "<!-- correlation table: tools/multilingual_correlations.py -->", "<!-- end of correlation table -->"
#: Multi-SummEval code -> (ISO 639-1 code for --lang, XL-Sum scorer language name, stem with xlsum)
LANGUAGES = {
    "DE": ("de", "german", True),
    "EN": ("en", "english", True),
    "ES": ("es", "spanish", True),
    "FR": ("fr", "french", True),
    "ID": ("id", "indonesian", False),
    "RU": ("ru", "russian", True),
    "TR": ("tr", "turkish", True),
    "ZH": ("zh", "chinese", False),
}
PRESETS = ("rouge155", "unicode", "lang", "lang+stem", "xlsum")
MEASURES = ("ROUGE-1", "ROUGE-2", "ROUGE-L")
HUMAN = ("coverage", "focus")


def _importable() -> None:
    """Make ``import rougekit`` work: the installed package if there is one, else this checkout's ``src``."""
    try:
        import rougekit  # noqa: F401
    except ImportError:
        sys.path.insert(0, str(REPO / "src"))


def _env() -> dict:
    """The environment of the ``rougekit`` commands: the rougekit this interpreter imports (an
    installed, compiled one under the tests) first on the path, else this checkout's ``src``."""
    try:
        import rougekit

        root = Path(rougekit.__file__).resolve().parents[1]
    except ImportError:
        root = REPO / "src"
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(root), env.get("PYTHONPATH", "")) if p)
    return env


def _rougekit(*args: str) -> str:
    done = subprocess.run([sys.executable, "-m", "rougekit", *args], capture_output=True, text=True, env=_env())
    if done.returncode != 0:
        raise SystemExit(f"rougekit {' '.join(args)} failed: {done.stderr.strip()}")
    return done.stdout


def _one_line(text: str) -> str:
    return " ".join(text.split("\n"))


def _xlsum_scores(rows: list[dict], lang: str, stem: bool, out: Path) -> None:
    _importable()
    from rougekit.compat import multilingual_rouge

    scorer = multilingual_rouge.RougeScorer(["rouge1", "rouge2", "rougeL"], lang=lang, use_stemmer=stem)
    with out.open("w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f)
        writer.writerow(["system", "instance", *(f"{m}_f" for m in MEASURES)])
        for system in ("BERT", "PG"):
            for i, row in enumerate(rows, 1):
                s = scorer.score(_one_line(row["gold"]), _one_line(row[f"pred_{system}"]))
                writer.writerow([system, i, *(repr(s[t].fmeasure) for t in ("rouge1", "rouge2", "rougeL"))])


def language_rows(code: str, work: Path) -> list[str]:
    iso, name, xlsum_stem = LANGUAGES[code]
    rows = [json.loads(line) for line in (DATA / f"{code}.jsonl").read_text(encoding="utf-8").splitlines()]
    for system in ("BERT", "PG"):
        (work / f"{system}.txt").write_text("".join(_one_line(r[f"pred_{system}"]) + "\n" for r in rows), "utf-8")
    (work / "ref.txt").write_text("".join(_one_line(r["gold"]) + "\n" for r in rows), "utf-8")
    with (work / "human.csv").open("w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f)
        writer.writerow(["system", "instance", *HUMAN])
        for system in ("BERT", "PG"):
            for i, r in enumerate(rows, 1):
                writer.writerow([system, i, *(repr(r["human"][system][h]) for h in HUMAN)])
    options = {
        "rouge155": [],
        "unicode": ["--tokenizer", "unicode"],
        "lang": ["--lang", iso],
        "lang+stem": ["--lang", iso, "--stem"],
    }
    lines = []
    for preset in PRESETS:
        scores = work / f"{preset}.csv"
        if preset == "xlsum":
            _xlsum_scores(rows, name, xlsum_stem, scores)
        else:
            base = ["-c", str(work / "BERT.txt"), "-c", str(work / "PG.txt"), "-r", str(work / "ref.txt")]
            measures = ["--measures", ",".join(MEASURES), "--bootstrap", "none"]
            _rougekit("score", *base, *measures, *options[preset], "--format", "csv", "--per-pair", "-o", str(scores))
        found = json.loads(
            _rougekit(
                "correlate", str(scores), str(work / "human.csv"), "--level", "global", "--coefficient", "kendall",
                "--ci", "bootstrap", "--resample", "instances", "--samples", "1000", "--seed", "0",
                "--format", "json", "--metric-columns", ",".join(f"{m}_f" for m in MEASURES),
            )
        )  # fmt: skip
        cells = []
        for human in HUMAN:
            for m in MEASURES:
                k = found[f"{m}_f"][human]["kendall"]
                cells.append(_cell(k))
        label = {"lang": f"--lang {iso}", "lang+stem": f"--lang {iso} --stem", "xlsum": f"xlsum ({name})"}
        lines.append(f"| {code} | {label.get(preset, preset)} | " + " | ".join(cells) + " |")
    return lines


def _cell(k: dict) -> str:
    """tau [low, high]; 'undefined' where a side is constant (e.g. every ROUGE score 0)."""
    if k["value"] is None:
        return "undefined"
    if k["low"] is None or k["high"] is None:
        return f"{k['value']:.3f}"
    return f"{k['value']:.3f} [{k['low']:.2f}, {k['high']:.2f}]"


def table(codes) -> list[str]:
    header = ["| lang | preset |", "|---|---|"]
    for human in HUMAN:
        for m in MEASURES:
            header[0] += f" {m} F vs {human} |"
            header[1] += "---|"
    body = []
    with tempfile.TemporaryDirectory() as tmp:
        for code in codes:
            body += language_rows(code, Path(tmp))
    return header + body


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="compare with docs/multilingual.md instead of writing")
    ap.add_argument("--languages", default=",".join(LANGUAGES), help="comma-separated Multi-SummEval codes")
    args = ap.parse_args(argv)
    if not DATA.is_dir():
        print(f"{DATA} not found: the shared data folder is not beside the repository", file=sys.stderr)
        return 2
    codes = [c.strip() for c in args.languages.split(",") if c.strip()]
    unknown = [c for c in codes if c not in LANGUAGES]
    if unknown:
        print(f"--languages: unknown code(s) {', '.join(unknown)}; known: {', '.join(LANGUAGES)}", file=sys.stderr)
        return 2
    new = table(codes)
    doc = DOC.read_text(encoding="utf-8")
    start, stop = doc.index(BEGIN) + len(BEGIN), doc.index(END)
    current = doc[start:stop].strip("\n").splitlines()
    if args.check:
        missing = [line for line in new if line not in current]
        for line in missing:
            print(f"not in docs/multilingual.md: {line}", file=sys.stderr)
        return 1 if missing else 0
    if set(codes) != set(LANGUAGES):
        print("writing the table needs every language (omit --languages)", file=sys.stderr)
        return 2
    DOC.write_text(doc[:start] + "\n" + "\n".join(new) + "\n" + doc[stop:], encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
