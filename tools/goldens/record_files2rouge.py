#!/usr/bin/env python3
"""Record goldens for ``rougekit files2rouge`` from the real files2rouge 2.1.0 and its pyrouge fork.

Run with the Python of a scratch virtual environment OUTSIDE the repository where files2rouge
(pltrdy/files2rouge at d3d09c8, after its ``setup_rouge.py``) and the pyrouge fork it needs
(pltrdy/pyrouge at dfdff03) are installed, so that ``files2rouge`` (beside that Python) runs the
ROUGE-1.5.5.pl copy and data folder its setup installed (an empty WordNet exception DB). HOME
should point at a scratch folder (the fork writes ``~/.pyrouge/settings.ini``). tools/goldens/README.md
gives the exact commands.

Every case is a folder of ``--out`` holding ``case.json`` (the arguments after ``files2rouge``,
the exit status, the printed report without its ``Elapsed time`` line, the ``--saveto`` file, or
the last line of the error) and its input files, made here from a seeded generator; the cases
named ``shared_*`` read their texts from ../shared/data at test time instead (``case.json``
says how), so that no file of shared/ is copied into the repository.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SHARED = REPO.parent / "shared" / "data" / "peer-rouge-test-suites"
HOME_DIR = ""  # files2rouge's ROUGE home (main() reads it from its settings)

WORDS = (
    "the a of to and in police officials said was were went gone children mice geese feet better best "
    "running ran runs studies studied happily agreed agreement report reports reported government "
    "minister ministers economy economic markets market fell rose higher lower storm storms flooding "
    "city cities people person women men woman man teeth leaves knives wolves did done has had is are "
    "been being saw seen took taken gave given wrote written 's , ; : '' `` - ( ) 2004 3.5 u.s. n't"
).split()


def sentence(rng: random.Random) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(rng.randint(3, 14)))


def summary(rng: random.Random, eos: str = ".") -> str:
    return f" {eos} ".join(sentence(rng) for _ in range(rng.randint(1, 4))) + f" {eos}"


def related(rng: random.Random, text: str) -> str:
    """A second summary sharing much of ``text``'s words (so that scores are not all near zero)."""
    words = text.split()
    out = [w if rng.random() < 0.6 else rng.choice(WORDS) for w in words if rng.random() < 0.9]
    return " ".join(out) or rng.choice(WORDS)


def generated(seed: int, lines: int, eos: str = ".") -> tuple[list[str], list[str]]:
    rng = random.Random(seed)
    refs = [summary(rng, eos) for _ in range(lines)]
    return refs, [related(rng, r) for r in refs]


def shared_lines(source: dict) -> tuple[list[str], list[str]]:
    """The texts of a ``shared_*`` case (the same rule is in tests/test_files2rouge.py)."""
    if source["kind"] == "pltrdy":
        root = SHARED / "pltrdy-rouge"
        return root.joinpath("ref.txt").read_text().splitlines(), root.joinpath("hyp.txt").read_text().splitlines()
    root = SHARED / "diego999-py-rouge" / "summaries_1"
    ids = sorted(int(p.stem) for p in (root / "system").glob("*.txt"))
    join = lambda p: " ".join(p.read_text(encoding="utf-8").split())  # noqa: E731
    first_ref = [sorted((root / "references").glob(f"{i}[a-z].txt"))[0] for i in ids]  # the first reference
    return [join(p) for p in first_ref], [join(root / "system" / f"{i}.txt") for i in ids]


def cases() -> list[dict]:
    refs, sums = generated(1, 60)
    out = [
        dict(name="default", refs=refs, sums=sums, argv=[]),
        dict(name="no_stemming", refs=refs, sums=sums, argv=["-nm"]),
        dict(name="n4_no_rouge_l", refs=refs, sums=sums, argv=["-n", "4", "-nol"]),
        dict(name="n1_saveto", refs=refs, sums=sums, argv=["--rouge_n", "1", "-s", "saved.txt"]),
        dict(name="args_su4_w", refs=refs, sums=sums, argv=["-a", "-c 95 -2 4 -U -r 1000 -n 3 -w 1.2 -a"]),
        dict(name="args_d_best", refs=refs, sums=sums, argv=["-a", "-c 90 -r 200 -n 2 -f B -p 0.3 -d -a", "-nm"]),
        dict(name="args_t1_l", refs=refs, sums=sums, argv=["--args=-n 2 -t 1 -l 10 -a"]),
    ]
    rng = random.Random(2)
    bang_refs, bang_sums = generated(3, 15, eos="!")
    out.append(dict(name="eos_bang", refs=bang_refs, sums=bang_sums, argv=["-e", "!"]))
    q_refs, q_sums = generated(4, 12, eos="<q>")
    out.append(dict(name="eos_q_marker", refs=q_refs, sums=q_sums, argv=["--eos", "<q>"]))
    out.append(dict(name="eos_q_marker_default_eos", refs=q_refs, sums=q_sums, argv=[]))
    e_refs, e_sums = generated(5, 14)
    e_refs[3] = "   "
    e_sums[5] = ""
    e_refs[9] = e_sums[9] = "\t"
    e_sums[11] = " \u3000 "
    out.append(dict(name="ignore_empty", refs=e_refs, sums=e_sums, argv=["-ir", "-is", "-s", "saved.txt"]))
    out.append(dict(name="ignore_empty_reference_only", refs=e_refs[:5], sums=e_sums[:5], argv=["-ir"]))
    out.append(dict(name="error_empty_reference", refs=e_refs, sums=e_sums, argv=[]))
    out.append(dict(name="error_empty_summary", refs=e_refs, sums=e_sums, argv=["-ir"]))
    out.append(dict(name="error_line_counts", refs=refs[:7], sums=sums[:6], argv=[]))
    out.append(dict(name="error_args_with_n", refs=refs, sums=sums, argv=["--args=-c 95 -a", "-n", "3"]))
    out.append(dict(name="error_args_with_nol", refs=refs, sums=sums, argv=["-a", "-c 95 -n 2 -a", "-nol"]))
    # argparse takes a value starting with one of files2rouge's own options ("-n ...") for that option
    out.append(dict(name="error_args_starting_with_its_option", refs=refs, sums=sums, argv=["-a", "-n 2 -a"]))
    out.append(dict(name="error_deprecated_m", refs=refs, sums=sums, argv=["-m"]))
    messy_refs = [
        "The children WENT home ; the mice were better fed . Geese flew",
        "  caf\u00e9 na\u00efve r\u00e9sum\u00e9 . studies studied studying .  ",
        "tabs\there and\u00a0non-breaking spaces . x",
        "numbers 3.5 and 2004 . u.s. officials 's remarks",
    ]
    messy_sums = [
        "children go home . mice are good . geese fly",
        "cafe naive resume . study studies .",
        "tabs here and non-breaking . spaces",
        "the number 3.5 . us officials remark",
    ]
    out.append(
        dict(
            name="crlf_and_cr",
            raw_refs="\r\n".join(messy_refs[:2]) + "\r" + "\n".join(messy_refs[2:]) + "\r\n",
            raw_sums="\n".join(messy_sums[:3]) + "\r" + messy_sums[3],
            argv=[],
        )
    )
    out.append(dict(name="wordnet_words_stemmed", refs=messy_refs, sums=messy_sums, argv=[]))
    out.append(dict(name="verbose", refs=refs[:12], sums=sums[:12], argv=["-v"]))
    out.append(
        dict(
            name="verbose_args_no_stemming_ignored",
            refs=e_refs,
            sums=e_sums,
            argv=["--verbose", "-nm", "-ir", "-is", "-a", "-c 95 -r 10 -n 3 -a"],
        )
    )
    out.append(dict(name="shared_pltrdy", source={"kind": "pltrdy"}, argv=["-n", "3"]))
    out.append(dict(name="shared_duc2004", source={"kind": "duc2004"}, argv=[]))
    del rng
    return out


def normalized_log(stderr: str) -> list[str]:
    """The pyrouge fork's log lines (``-v``) without what changes from run to run: the time is
    ``<time>``, the ROUGE home ``<home>`` and each temporary folder ``<tmp1>``, ``<tmp2>``, ... in the
    order they first appear."""
    names: dict = {}

    def folder(match):
        return names.setdefault(match[0], f"<tmp{len(names) + 1}>")

    lines = []
    for line in stderr.splitlines():
        line = re.sub(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} ", "<time> ", line)
        line = re.sub(r"/tmp/tmp[A-Za-z0-9_]+", folder, line.replace(HOME_DIR, "<home>"))
        lines.append(line)
    return lines


def record(case: dict, out_dir: Path, files2rouge: str) -> None:
    folder = out_dir / case["name"]
    folder.mkdir(parents=True, exist_ok=True)
    if "source" in case:
        refs, sums = shared_lines(case["source"])
        raw_refs, raw_sums = "\n".join(refs) + "\n", "\n".join(sums) + "\n"
    else:
        raw_refs = case.get("raw_refs") or "\n".join(case["refs"]) + "\n"
        raw_sums = case.get("raw_sums") or "\n".join(case["sums"]) + "\n"
        folder.joinpath("references.txt").write_bytes(raw_refs.encode("utf-8"))
        folder.joinpath("summaries.txt").write_bytes(raw_sums.encode("utf-8"))
    work = out_dir.parent / f".work-{case['name']}"
    work.mkdir(exist_ok=True)
    work.joinpath("references.txt").write_bytes(raw_refs.encode("utf-8"))
    work.joinpath("summaries.txt").write_bytes(raw_sums.encode("utf-8"))
    argv = ["references.txt", "summaries.txt", *case["argv"]]
    proc = subprocess.run([files2rouge, *argv], cwd=work, capture_output=True, text=True)
    result = {"argv": argv, "exit": proc.returncode}
    if "source" in case:
        result["source"] = case["source"]
    if "-v" in argv or "--verbose" in argv:
        result["log"] = normalized_log(proc.stderr)
    if proc.returncode == 0:
        lines = proc.stdout.split("\n")
        assert lines[-2].startswith("Elapsed time: "), proc.stdout
        result["stdout"] = "\n".join(lines[:-2]) + "\n"
        saved = work / "saved.txt"
        if saved.exists():
            result["saved"] = saved.read_text(encoding="utf-8")
            saved.unlink()
    else:
        result["error"] = proc.stderr.strip().splitlines()[-1]
    folder.joinpath("case.json").write_text(json.dumps(result, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    for path in work.iterdir():
        path.unlink()
    work.rmdir()
    print(f"{case['name']}: exit {proc.returncode}", file=sys.stderr)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=REPO / "tests" / "goldens" / "files2rouge")
    parser.add_argument("--files2rouge", default=str(Path(sys.executable).parent / "files2rouge"))
    parser.add_argument("--only", nargs="*", help="record only these cases (default: all)")
    args = parser.parse_args()
    global HOME_DIR
    from files2rouge import settings  # the ROUGE home its setup_rouge.py chose

    loaded = settings.Settings()
    loaded._load()
    HOME_DIR = str(Path(loaded.data["ROUGE_path"]).parent)
    for case in cases():
        if not args.only or case["name"] in args.only:
            record(case, args.out, args.files2rouge)


if __name__ == "__main__":
    main()
