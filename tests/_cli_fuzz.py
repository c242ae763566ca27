"""A seeded fuzzer for the ``rougekit`` command line (issue 17): random argument lists and files.

Every command (rouge155, score, compare, correlate, protocol, explain, dedup, extract,
files2rouge, report) gets random options, drawn from
its own flags with valid, odd and hostile values (huge numbers, NaN, megabyte strings, bad
regexes, paths to folders and missing folders), and random input files (valid ones, truncated,
binary, empty, huge lines, invalid UTF-8, lone-surrogate escapes, deeply nested JSON, XML
configs with mutations; issue 25: CRLF, UTF-8-SIG, UTF-16/32 with and without a byte order
mark, JSON arrays and column-shaped JSON, and endless-ish inputs: /dev/zero and files past the
reading limits, which the fuzz sets low in FUZZ_LIMITS). A run passes when the command exits with
0, or with 2 and exactly one line on stderr; never a traceback, another exit code, or more than
the time cap (wall clock: on a loaded machine, re-run a flagged iteration alone).

Backends and threads: run it with ``ROUGEKIT_BACKEND=compiled`` and ``=python``; the scoring
commands draw ``--jobs 1`` or ``2`` themselves.

Used by ``tests/test_fuzz_cli.py`` (a short run in the suite) and runnable alone::

    PYTHONPATH=src python tests/_cli_fuzz.py --iterations 100000 --seconds 600 --seed 1   # 10 minutes, in-process
    PYTHONPATH=src python tests/_cli_fuzz.py --iterations 300 --seed 1 --subprocess  # with a memory cap
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import random
import re
import signal
import subprocess
import sys
import tempfile
import time
import traceback
from dataclasses import dataclass
from pathlib import Path

WORDS = "the a police killed gunman cat sat on mat dog ran of to and in is was shot by".split() + [
    "café",
    "東京",
    "über-cool",
    "x\u00a0y",
    "-LRB-",
    "<q>",
    "&amp;",
    "ROUGE",
]
MEASURES = (
    "ROUGE-1 ROUGE-2 ROUGE-4 ROUGE-9 ROUGE-0 ROUGE-L ROUGE-W-1.2 ROUGE-W-1 ROUGE-W-5 ROUGE-W-0 ROUGE-W-0.5 "
    "ROUGE-W-30 ROUGE-W-1e400 ROUGE-S4 ROUGE-SU4 ROUGE-S* ROUGE-SU* ROUGE-S0 ROUGE-BE-HM BLEU Ngram(1,4) "
    "Ngram(2,1) ACCY NrstACCY PREC-1 PREC-0 SumACCY WSumACCY ROUGE-99999999999 ROUGE-S99999999999 rouge-l "
    "Ngram(1,99999999999) PREC-99999999999 ROUGE-X"
).split()
NUMBERS = [
    "0",
    "1",
    "2",
    "3",
    "-1",
    "-5",
    "0.5",
    "1.2",
    "95",
    "100",
    "1e400",
    "-1e400",
    "nan",
    "inf",
    "99999999999999",
    "99999999999999999999999",
    "9" * 5000,
    "",
    "x",
    "1,2",
    " 4",
    "0x10",
]
BAD_RATE = 0.05  # how often an option gets a value from the odd pool instead of a valid one
TIME_CAP = float(os.environ.get("ROUGEKIT_FUZZ_TIME_CAP", "20"))


@dataclass
class Outcome:
    argv: list[str]
    code: int | None
    stderr: str
    seconds: float
    problem: str | None
    stdout: str = ""


# -- random files ------------------------------------------------------------------------------


def _text(rng: random.Random, words: int | None = None) -> str:
    n = rng.randint(0, 12) if words is None else words
    return " ".join(rng.choice(WORDS) for _ in range(n))


def _line_file(rng: random.Random, folder: Path, lines: int) -> Path:
    path = folder / f"lines{rng.randrange(10**6)}.txt"
    kind = rng.random()
    if kind < 0.82:
        data = "".join(_text(rng) + "\n" for _ in range(lines)).encode()
    elif kind < 0.84:
        data = b""
    elif kind < 0.86:
        data = bytes(rng.randrange(256) for _ in range(rng.randint(1, 400)))
    elif kind < 0.88:
        data = ("".join(_text(rng) + "\n" for _ in range(lines)) + _text(rng, 20000)).encode()  # a huge line
    elif kind < 0.94:
        data = "".join(_text(rng) + "\n" for _ in range(lines)).encode()[: rng.randint(0, 40)]  # truncated
    else:
        data = "".join(_text(rng) + rng.choice(["\r\n", "\n", "<q>", "\x00", "\udcff"]) for _ in range(lines)).encode(
            "utf-8", "surrogateescape"
        )
    if rng.random() < 0.03:
        return _endless(rng, folder)
    path.write_bytes(_encode(rng, data))
    return path


ENCODINGS = [  # (codec, byte order mark written first): what the readers must take (or name) as it is
    ("utf-8-sig", b""),
    ("utf-16", b""),
    ("utf-16-le", b"\xff\xfe"),
    ("utf-16-be", b"\xfe\xff"),
    ("utf-32", b""),
    ("utf-32-be", b"\x00\x00\xfe\xff"),
    ("utf-16-le", b""),  # no mark: must be named, not read as UTF-8 with NULs
]


def _encode(rng: random.Random, data: bytes) -> bytes:
    """The same text now and then with CRLF line endings or in another Unicode encoding with a mark."""
    r = rng.random()
    if r < 0.8:
        return data
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return data
    if r < 0.88:
        return text.replace("\n", "\r\n").encode("utf-8", "surrogateescape")
    codec, mark = rng.choice(ENCODINGS)
    try:
        return mark + text.encode(codec)
    except UnicodeEncodeError:
        return data


# Reading limits of the fuzz process (set in fuzz()): small, so that the endless-ish inputs below
# (bounded to a few MiB) cross them as /dev/zero or a pipe that never ends would.
FUZZ_LIMITS = {"ROUGEKIT_MAX_LINE_BYTES": str(1 << 20), "ROUGEKIT_MAX_FILE_BYTES": str(4 << 20)}
FUZZ_LIMITS["ROUGEKIT_MAX_LINES"] = "50000"


def _endless(rng: random.Random, folder: Path) -> Path:
    """An input past a reading limit: /dev/zero itself, or a bounded file past the fuzz's limits."""
    kind = rng.random()
    if kind < 0.3 and os.path.exists("/dev/zero"):
        return Path("/dev/zero")
    path = folder / f"endless{rng.randrange(10**6)}.txt"
    if kind < 0.55:
        path.write_bytes(b"police killed the gunman " * 50000)  # one 1.2 MiB line
    elif kind < 0.8:
        path.write_bytes(b"a\n" * 60000)  # more lines than the limit
    else:
        path.write_bytes(b"\x00" * (3 << 20))
    return path


def _json_value(rng: random.Random, depth: int = 0):
    r = rng.random()
    if depth > 3 or r < 0.4:
        return _text(rng)
    if r < 0.55:
        return [_text(rng) for _ in range(rng.randint(0, 3))]
    if r < 0.65:
        return [[_text(rng)] for _ in range(rng.randint(0, 3))]
    if r < 0.72:
        return rng.choice([None, 1, 2.5, True, {"a": 1}, "a \ud800 b", -1e308])
    if r < 0.80:
        return rng.random()
    return {"k": _json_value(rng, depth + 1)}


def _jsonl_file(rng: random.Random, folder: Path, fields: list[str]) -> Path:
    path = folder / f"rows{rng.randrange(10**6)}.jsonl"
    lines = []
    for _ in range(rng.randint(0, 6)):
        r = rng.random()
        if r < 0.75:
            row = {f: _json_value(rng) if rng.random() < 0.3 else _text(rng) for f in fields if rng.random() < 0.95}
            lines.append(json.dumps(row))
        elif r < 0.82:
            lines.append("[" * rng.choice([10, 5000, 100000]))
        elif r < 0.88:
            lines.append(json.dumps([1, 2]))
        elif r < 0.94:
            lines.append('{"c": "a \\ud800 b", "r": "x"}')
        else:
            lines.append(json.dumps({f: _text(rng) for f in fields})[: rng.randint(0, 30)])
    data = ("\n".join(lines) + rng.choice(["\n", ""])).encode()
    shape = rng.random()
    if shape < 0.25:  # the same rows as a JSON array (pretty-printed or not), or column-shaped JSON
        rows = []
        for line in lines:
            try:
                rows.append(json.loads(line))
            except (json.JSONDecodeError, RecursionError):
                rows.append(line)
        if shape < 0.12:
            data = json.dumps(rows, indent=rng.choice([None, 1])).encode()
        else:
            columns = {f: [r.get(f, "") if isinstance(r, dict) else r for r in rows] for f in fields}
            if rng.random() < 0.2 and columns:
                columns[fields[-1]] = columns[fields[-1]][:-1]  # unequal lengths: refused
            data = json.dumps(columns, indent=rng.choice([None, 1])).encode()
    if rng.random() < 0.05:
        data += bytes([0xFF, 0xFE, 0x00])
    path.write_bytes(_encode(rng, data))
    return path


def _table_file(rng: random.Random, folder: Path, columns: list[str]) -> Path:
    systems = [f"s{k}" for k in range(rng.randint(1, 6))]
    instances = [str(k) for k in range(rng.randint(1, 4))]
    rows = [
        (s, i, [rng.random() if rng.random() > 0.03 else rng.choice(["", "nan", "x", "1e400"]) for _ in columns])
        for s in systems
        for i in instances
    ]
    if rng.random() < 0.5:
        path = folder / f"t{rng.randrange(10**6)}.csv"
        text = "system,instance," + ",".join(columns) + "\n"
        text += "".join(f"{s},{i}," + ",".join(map(str, v)) + "\n" for s, i, v in rows)
        if rng.random() < 0.1:
            text = text[: rng.randint(0, len(text))]
        path.write_text(text)
    else:
        objects = [{"system": s, "instance": i, **dict(zip(columns, v))} for s, i, v in rows]
        if rng.random() < 0.3:  # .json: an array of objects or column-shaped
            path = folder / f"t{rng.randrange(10**6)}.json"
            if rng.random() < 0.5:
                text = json.dumps(objects, indent=1)
            else:
                text = json.dumps({k: [o[k] for o in objects] for k in objects[0]})
        else:
            path = folder / f"t{rng.randrange(10**6)}.jsonl"
            text = "".join(json.dumps(o) + "\n" for o in objects)
        if rng.random() < 0.1:
            text += "[" * 100000 + "\n"
        path.write_text(text)
    path.write_bytes(_encode(rng, path.read_bytes()))
    return path


def _summary_file(rng: random.Random, folder: Path, fmt: str) -> str:
    name = f"sum{rng.randrange(10**6)}.{fmt.lower()}"
    sentences = [_text(rng, rng.randint(0, 10)) for _ in range(rng.randint(0, 4))]
    if fmt == "SEE":
        body = "".join(f'<a name="{k}">[{k}]</a> <a href="#{k}" id={k}>{s}</a>\n' for k, s in enumerate(sentences, 1))
        text = f"<html><head><title>x</title></head><body>\n{body}</body></html>\n"
    elif fmt == "ISI":
        text = "".join(f'<S SNTNO="{k}">{s}</S>\n' for k, s in enumerate(sentences, 1))
    elif fmt == "SIMPLE":
        text = "".join(rng.choice([f"{w}|nil|nil", f"{w}|{w}|mod", "a|b", "x|y|z|w", "|||"]) + "\n" for w in sentences)
    else:
        text = "".join(s + "\n" for s in sentences)
    data = text.encode()
    if rng.random() < 0.05:
        data = bytes(rng.randrange(256) for _ in range(rng.randint(0, 200)))
    (folder / name).write_bytes(data)
    return name


def _config(rng: random.Random, folder: Path) -> tuple[Path, list[str]]:
    """A ROUGE-EVAL XML config (sometimes mutated) or a -z file list; returns it and its peer IDs."""
    fmt = rng.choice(["SPL", "SPL", "SEE", "ISI", "SIMPLE"])
    peers = ["A", "B", "1"][: rng.randint(1, 3)]
    if rng.random() < 0.25:  # a file list for -z
        path = folder / f"list{rng.randrange(10**6)}.lst"
        lines = []
        for _ in range(rng.randint(0, 3)):
            files = [str(folder / _summary_file(rng, folder, fmt)) for _ in range(rng.randint(1, 3))]
            lines.append(" ".join(files))
        if rng.random() < 0.1:
            lines.append("# a comment\n\n/etc/hostname")
        path.write_text("\n".join(lines) + "\n")
        return path, ["X"]
    evals = []
    for e in range(rng.randint(1, 3)):
        ps = "".join(f'<P ID="{p}">{_summary_file(rng, folder, fmt)}</P>' for p in peers if rng.random() < 0.9)
        ms = "".join(f'<M ID="{m}">{_summary_file(rng, folder, fmt)}</M>' for m in "ab"[: rng.randint(1, 2)])
        if rng.random() < 0.05:
            ms += '<M ID="z">missing.spl</M>'
        evals.append(
            f'<EVAL ID="{e + 1}"><PEER-ROOT>{folder}</PEER-ROOT><MODEL-ROOT>{folder}</MODEL-ROOT>'
            f'<INPUT-FORMAT TYPE="{fmt}"></INPUT-FORMAT><PEERS>{ps}</PEERS><MODELS>{ms}</MODELS></EVAL>'
        )
    text = '<ROUGE-EVAL version="1.0">' + "\n".join(evals) + "</ROUGE-EVAL>\n"
    r = rng.random()
    if r < 0.05:
        text = text[: rng.randint(0, len(text))]
    elif r < 0.08:
        text = '<!DOCTYPE r [<!ENTITY e SYSTEM "/etc/hostname">]>' + text.replace("</EVAL>", "&e;</EVAL>", 1)
    elif r < 0.11:
        text = text.replace("<EVAL", "<eval", 1).replace("</EVAL>", "</eval>", 1)
    elif r < 0.14:
        text = text.replace('"1"', '"&#0;"')
    path = folder / f"config{rng.randrange(10**6)}.xml"
    path.write_text(text, encoding="utf-8", errors="surrogateescape")
    return path, peers


# -- random argument lists ---------------------------------------------------------------------


def _pick(rng: random.Random, pool, odd=NUMBERS, rate: float = BAD_RATE):
    """A value from ``pool`` (valid ones), or now and then (``rate``) from ``odd``."""
    return rng.choice(odd) if odd and rng.random() < rate else rng.choice(pool)


def _measure_list(rng: random.Random) -> str:
    items = [rng.choice(MEASURES) for _ in range(rng.randint(0, 4))]
    return rng.choice([",", ", ", " , "]).join(items) if rng.random() < 0.95 else "x" * 100000


def _odd_path(rng: random.Random, folder: Path) -> str:
    return rng.choice([str(folder), str(folder / "nope" / "out.txt"), str(folder / "out.txt"), "/dev/full"])


def _rouge155_argv(rng: random.Random, folder: Path) -> list[str]:
    config, peers = _config(rng, folder)
    argv: list[str] = []
    for _ in range(rng.randint(0, 6)):
        letter = rng.choice("ahdmMsuUvx" + "bcefltnpr23wz")
        if letter in "bcefltnpr2w":
            good = {"f": ["A", "B"], "c": ["95", "0", "100", "50"], "p": ["0.5", "0", "1"], "t": ["0", "1", "2"]}
            good.update({"w": ["1.2", "1", "2", "5"], "r": ["1", "10", "1000"], "e": [str(folder)]})
            value = _pick(rng, good.get(letter, ["0", "1", "2", "4", "9", "-1"]))
            argv += [f"-{letter}", value] if rng.random() < 0.8 else [f"-{letter}{value}"]
        elif letter == "3":
            argv += ["-3", rng.choice(["H", "HM", "HMR", "HM1", "HMR1", "HMR2", "X", ""])]
        elif letter == "z":
            argv += ["-z", rng.choice(["SEE", "SPL", "ISI", "SIMPLE", "spl", "XML"])]
        else:
            argv.append(f"-{letter}")
    if str(config).endswith(".lst") and rng.random() < 0.9:
        argv += ["-z", rng.choice(["SEE", "SPL", "ISI", "SIMPLE"])]
    if rng.random() < 0.5:
        argv.append("-a")
    argv.append(str(config) if rng.random() < 0.95 else str(folder))
    if rng.random() < 0.6:
        argv.append(rng.choice(peers + ["nobody"]))
    return argv


def _score_argv(rng: random.Random, folder: Path, compare: bool) -> list[str]:
    argv: list[str] = []
    lines = rng.randint(1, 5)
    style = rng.random()
    if style < 0.6:
        for _ in range(rng.randint(2, 3) if compare else rng.randint(1, 2)):
            argv += ["-c", str(_line_file(rng, folder, lines + (rng.random() < 0.1)))]
        for _ in range(rng.randint(0, 2) if rng.random() < 0.1 else rng.randint(1, 2)):
            argv += ["-r", str(_line_file(rng, folder, lines))]
        if rng.random() < 0.1:
            argv += ["--sources", str(_line_file(rng, folder, lines))]
    elif style < 0.85:
        argv += ["--jsonl", str(_jsonl_file(rng, folder, ["c", "d", "r", "id", "src"]))]
        for f in ["c", "d"][: rng.randint(1, 2)] if rng.random() < 0.9 else rng.sample(["c", "zz"], rng.randint(0, 2)):
            argv += ["--candidate-field", f]
        for f in ["r"] if rng.random() < 0.9 else rng.sample(["r", "zz"], rng.randint(0, 2)):
            argv += ["--reference-field", f]
        if rng.random() < 0.3:
            argv += ["--id-field", rng.choice(["id", "zz"])]
        if rng.random() < 0.1:
            argv += ["--source-field", rng.choice(["src", "zz"])]
    else:
        cdir, rdir = folder / f"c{rng.randrange(10**6)}", folder / f"r{rng.randrange(10**6)}"
        cdir.mkdir()
        rdir.mkdir()
        for k in range(rng.randint(0, 3)):
            for system in "AB"[: rng.randint(1, 2)]:
                (cdir / f"d.{k}.{system}.txt").write_text(_text(rng) + "\n")
            if rng.random() < 0.9:
                (rdir / f"d.{k}.txt").write_text(_text(rng) + "\n")
        argv += ["--candidate-dir", str(cdir), "--reference-dir", str(rdir)]
        argv += ["--candidate-pattern", rng.choice([r"d\.(\d+)\.A\.txt", r"d\.(\d+)\..*\.txt", "(", r"d\.\d+"])]
        argv += ["--reference-pattern", rng.choice([r"d\.#ID#\.txt", "[#ID#", r"#ID#", "d.*"])]
    options = [
        ("--measures", lambda: _measure_list(rng)),
        ("--stem", None),
        ("--stopwords", None),
        ("--word-limit", lambda: _pick(rng, ["0", "1", "3", "10"])),
        ("--byte-limit", lambda: _pick(rng, ["0", "1", "7", "30"])),
        ("--multi-ref", lambda: _pick(rng, ["sum", "best", "jackknife"])),
        ("--alpha", lambda: _pick(rng, ["0", "0.5", "1", "0.8"])),
        ("--average", lambda: _pick(rng, ["pairs", "tokens"])),
        ("--tokenizer", lambda: _pick(rng, ["rouge155", "unicode", "cjk"])),
        ("--su-unigrams", lambda: _pick(rng, ["rouge155", "all"])),
        ("--wlcs", lambda: _pick(rng, ["rouge155", "paper"])),
        ("--bootstrap", lambda: _pick(rng, ["rouge155", "percentile", "none"])),
        ("--resamples", lambda: _pick(rng, ["2", "10", "1000"])),
        ("--confidence", lambda: _pick(rng, ["50", "95", "99.9"])),
        ("--seed", lambda: _pick(rng, ["0", "1", "12345"])),
        ("--hori-units", lambda: _pick(rng, ["word", "sentence"])),
        ("--jobs", lambda: _pick(rng, ["1", "2"])),
        ("--sentence-sep", lambda: _pick(rng, ["<q>", "", " "])),
        ("--encoding-errors", lambda: _pick(rng, ["strict", "replace"])),
        ("--format", lambda: _pick(rng, ["text", "json", "csv", "rouge155"])),
        ("--per-pair", None),
        ("-o", lambda: _odd_path(rng, folder)),
        ("-q", None),
    ]
    if compare:
        options += [
            ("--value", lambda: _pick(rng, ["f", "recall", "precision"])),
            ("--trials", lambda: _pick(rng, ["1", "10", "1000"])),
        ]
    for flag, value in rng.sample(options, rng.randint(0, 6)):
        argv += [flag] if value is None else [flag, value()]
    return argv


def _correlate_argv(rng: random.Random, folder: Path) -> list[str]:
    metric = _table_file(rng, folder, ["m1", "m2"])
    human = _table_file(rng, folder, ["h1"]) if rng.random() < 0.7 else metric
    argv = [str(metric), str(human)]
    options = [
        ("--level", lambda: _pick(rng, ["system", "summary", "global"])),
        ("--coefficient", lambda: _pick(rng, ["pearson", "spearman,kendall", "kendall_c"])),
        ("--format", lambda: _pick(rng, ["json", "csv", "text"])),
        ("--ci", lambda: _pick(rng, ["bootstrap", "fisher", "none"])),
        ("--resample", lambda: _pick(rng, ["both", "systems", "instances"])),
        ("--samples", lambda: _pick(rng, ["2", "10", "50"])),
        ("--seed", lambda: _pick(rng, ["0", "1", "12345"])),
        ("--confidence", lambda: _pick(rng, ["50", "95", "99.9"])),
        ("--metric-columns", lambda: _pick(rng, ["m1", "m1,m2"])),
        ("--human-columns", lambda: _pick(rng, ["h1", "m1"])),
        ("--system-column", lambda: _pick(rng, ["system"])),
        ("--instance-column", lambda: _pick(rng, ["instance"])),
        ("--where", lambda: _pick(rng, ["system=s1", "zz=1"])),
        ("--plot", lambda: _pick(rng, [str(folder / "p"), str(folder / "nope" / "p"), str(folder) + "/"])),
    ]
    for flag, value in rng.sample(options, rng.randint(0, 5)):
        if flag == "--plot" and rng.random() < 0.7:
            continue  # matplotlib is slow: plot now and then
        argv += [flag, value()]
    return argv


def _protocol_argv(rng: random.Random, folder: Path) -> list[str]:
    path = folder / f"p{rng.randrange(10**6)}.jsonl"
    rows = []
    for s in range(rng.randint(2, 6)):
        for i in range(rng.randint(1, 3)):
            row = {
                "system": f"s{s}",
                "instance": str(i),
                "candidate": _text(rng),
                "references": _pick(rng, [_text(rng, 5), [_text(rng, 3), _text(rng, 8)]], [[], 5, ""], 0.03),
                "human": {"coh": _pick(rng, [rng.random()], [None, "x"], 0.03)},
            }
            if rng.random() < 0.01:
                del row[rng.choice(list(row))]
            rows.append(json.dumps(row))
    if rng.random() < 0.05:
        rows.append("[" * 100000)
    path.write_text("\n".join(rows) + "\n")
    dataset = _pick(rng, ["jsonl"], ["summeval", "realsumm"])
    argv = [str(path) if rng.random() < 0.95 else str(folder), "--dataset", dataset]
    options = [
        ("--human", lambda: _pick(rng, ["coh"])),
        ("--level", lambda: _pick(rng, ["system", "summary"])),
        ("--coefficient", lambda: _pick(rng, ["pearson", "kendall"])),
        ("--measures", lambda: _measure_list(rng)),
        ("--variants", lambda: _pick(rng, ["plain", "stem,stop"])),
        ("--refs", lambda: _pick(rng, ["one", "all"])),
        ("--score", lambda: _pick(rng, ["recall", "f", "precision"])),
        ("--multi-ref", lambda: _pick(rng, ["sum", "best", "jackknife"])),
        ("--format", lambda: _pick(rng, ["text", "json", "csv"])),
        ("-o", lambda: _odd_path(rng, folder)),
        ("--digits", lambda: _pick(rng, ["0", "3", "10"])),
        ("--seed", lambda: _pick(rng, ["0", "1", "12345"])),
        ("--samples", lambda: _pick(rng, ["2", "5", "20"])),
        ("--confidence", lambda: _pick(rng, ["50", "95", "99.9"])),
        ("--resample", lambda: _pick(rng, ["systems", "instances", "both"])),
        ("--rule", lambda: _pick(rng, ["overlap", "paired", "williams"])),
        ("--instances", lambda: _pick(rng, ["1", "2", "10"])),
        ("--systems", lambda: _pick(rng, ["s0", "s0,s1"])),
        ("--jobs", lambda: _pick(rng, ["1"])),
    ]
    chosen = rng.sample(options, rng.randint(0, 6))
    for flag, value in chosen:
        argv += [flag, value()]
    # the defaults (34 measures x 6 settings x 1000 bootstrap samples) take minutes: keep runs short
    if "--samples" not in argv:
        argv += ["--samples", "20"]
    if "--measures" not in argv:
        argv += ["--measures", "ROUGE-1,ROUGE-L,ROUGE-SU4"]
    return argv + ["--quiet"] * (rng.random() < 0.8)


def _csv_file(rng: random.Random, folder: Path, column: str) -> Path:
    path = folder / f"rows{rng.randrange(10**6)}.csv"
    rows = [f'"{_text(rng)}",{rng.randrange(9)}' for _ in range(rng.randint(0, 6))]
    text = f"{column},n\n" + "\n".join(rows) + "\n"
    if rng.random() < 0.1:
        text = text[: rng.randint(0, len(text))]
    path.write_bytes(_encode(rng, text.encode()))
    return path


def _texts_file(rng: random.Random, folder: Path) -> tuple[Path, list[str]]:
    """Texts as plain lines, JSONL (with --field) or CSV (with --column), as dedup/extract read them."""
    kind = rng.random()
    if kind < 0.6:
        return _line_file(rng, folder, rng.randint(1, 8)), []
    if kind < 0.85:
        return _jsonl_file(rng, folder, ["text"]), ["--field", _pick(rng, ["text"], ["zz", ""])]
    return _csv_file(rng, folder, "text"), ["--column", _pick(rng, ["text"], ["zz", "n"])]


def _explain_argv(rng: random.Random, folder: Path) -> list[str]:
    if rng.random() < 0.6:
        argv = ["-c", _text(rng) if rng.random() > 0.03 else rng.choice(["", "x" * 100000, "\udcff"])]
        for _ in range(rng.randint(1, 2) if rng.random() > 0.03 else 0):
            argv += ["-r", _text(rng)]
    else:
        lines = rng.randint(1, 4)
        argv = ["--line", _pick(rng, [str(rng.randint(1, lines))], ["0", "-1", "99", "x", "99999999999999"])]
        argv += ["-c", str(_line_file(rng, folder, lines)), "-r", str(_line_file(rng, folder, lines))]
    options = [
        ("--measures", lambda: _measure_list(rng)),
        ("--stem", None),
        ("--stopwords", None),
        ("--word-limit", lambda: _pick(rng, ["0", "3", "10"])),
        ("--multi-ref", lambda: _pick(rng, ["sum", "best", "max", "jackknife"])),
        ("--tokenizer", lambda: _pick(rng, ["rouge155", "unicode", "whitespace"])),
        ("--lang", lambda: _pick(rng, ["en", "de", "ru", "zh"], ["xx", "klingon", ""])),
        ("--sentence-sep", lambda: _pick(rng, ["<q>", " "])),
        ("--format", lambda: _pick(rng, ["text", "json"])),
        ("--color", lambda: _pick(rng, ["never", "always", "auto"])),
    ]
    for flag, value in rng.sample(options, rng.randint(0, 4)):
        argv += [flag] if value is None else [flag, value()]
    return argv


def _dedup_argv(rng: random.Random, folder: Path) -> list[str]:
    path, field = _texts_file(rng, folder)
    argv = [str(path), *field, "--no-progress"]
    options = [
        ("--threshold", lambda: _pick(rng, ["0.5", "0.7", "0.9", "1", "0"], ["-1", "2", "nan", "x"])),
        ("--measure", lambda: _pick(rng, ["rougeL", "ROUGE-L", "ROUGE-1", "ROUGE-2", "rouge1"], ["ROUGE-X", "BLEU"])),
        ("--stem", None),
        ("--stopwords", None),
        ("-o", lambda: _odd_path(rng, folder)),
        ("--dropped", lambda: _odd_path(rng, folder)),
    ]
    for flag, value in rng.sample(options, rng.randint(0, 4)):
        argv += [flag] if value is None else [flag, value()]
    return argv


def _extract_argv(rng: random.Random, folder: Path) -> list[str]:
    queries, field = _texts_file(rng, folder)
    choices = _line_file(rng, folder, rng.randint(1, 8)) if not field else queries
    argv = [str(queries), str(choices), *field]
    options = [
        ("--measure", lambda: _pick(rng, ["rougeL", "ROUGE-L", "ROUGE-2"], ["ROUGE-X"])),
        ("--stat", lambda: _pick(rng, ["f", "recall", "precision"])),
        ("--limit", lambda: _pick(rng, ["1", "3", "100"])),
        ("--score-cutoff", lambda: _pick(rng, ["0", "0.3", "1"], ["-1", "2", "nan"])),
        ("--stem", None),
        ("-o", lambda: _odd_path(rng, folder)),
    ]
    for flag, value in rng.sample(options, rng.randint(0, 4)):
        argv += [flag] if value is None else [flag, value()]
    return argv


F2R_ODD_ARGS = ["-Z", "-r", "", "-n x"]


def _files2rouge_argv(rng: random.Random, folder: Path) -> list[str]:
    lines = rng.randint(1, 4)
    argv = [str(_line_file(rng, folder, lines)), str(_line_file(rng, folder, lines + (rng.random() < 0.1)))]
    options = [
        ("-n", lambda: _pick(rng, ["1", "2", "4"])),
        ("-nol", None),
        ("-a", lambda: _pick(rng, ["-c 95 -r 20 -n 2 -a", "-c 95 -r 5 -n 1 -a -m", "-n 2 -a -x"], F2R_ODD_ARGS)),
        ("-s", lambda: _odd_path(rng, folder)),
        ("-e", lambda: _pick(rng, [".", "<q>", "!"], ["", " "])),
        ("-nm", None),
        ("-ir", None),
        ("-is", None),
        ("-v", None),
    ]
    chosen = rng.sample(options, rng.randint(0, 4))
    for flag, value in chosen:
        argv += [flag] if value is None else [flag, value()]
    if "-a" not in argv:
        argv += ["-a", "-c 95 -r 20 -n 2 -a"]  # the default 1000 resamples are slow for a fuzz
    return argv


def _report_argv(rng: random.Random, folder: Path) -> list[str]:
    argv = _score_argv(rng, folder, rng.random() < 0.7)
    argv = [a for a in argv if a not in ("--per-pair", "-q")] if rng.random() < 0.9 else argv
    if "-o" in argv:
        argv = argv[: argv.index("-o")] + argv[argv.index("-o") + 2 :]
    argv += ["-o", _odd_path(rng, folder) if rng.random() < 0.2 else str(folder / "report.html")]
    argv += ["--trials", _pick(rng, ["2", "10", "50"]), "--resamples", _pick(rng, ["2", "20", "100"])]
    if rng.random() < 0.5:
        argv += ["--highlights", _pick(rng, ["0", "3", "all"], ["-1", "x"])]
    if rng.random() < 0.2:
        argv += ["--title", _pick(rng, ["a <b> & c", "x" * 1000])]
    return argv


def random_argv(rng: random.Random, folder: Path) -> list[str]:
    """One random command line (files written into ``folder``)."""
    command = rng.choice(
        ["rouge155", "rouge155", "score", "score", "compare", "correlate", "protocol"]
        + ["explain", "dedup", "extract", "files2rouge", "report"]
    )
    if command == "rouge155":
        argv = _rouge155_argv(rng, folder)
    elif command in ("score", "compare"):
        argv = _score_argv(rng, folder, command == "compare")
    elif command == "correlate":
        argv = _correlate_argv(rng, folder)
    elif command == "protocol":
        argv = _protocol_argv(rng, folder)
    else:
        argv = {
            "explain": _explain_argv,
            "dedup": _dedup_argv,
            "extract": _extract_argv,
            "files2rouge": _files2rouge_argv,
            "report": _report_argv,
        }[command](rng, folder)
    if rng.random() < 0.05:  # a stray word somewhere
        argv.insert(rng.randint(0, len(argv)), rng.choice(["--", "-", "-Z", "--nope", "x" * 100000]))
    return [command, *argv]


# -- running -----------------------------------------------------------------------------------


# lines a command may print before its error: ROUGE-1.5.5's own warnings (rouge155 repeats them
# where the script does) and the notes of correlate
_WARNING = re.compile(r"^(readText: |readBE: |\*ROUGE Warning|rougekit \w+: (note|warning): )")


class _Timeout(Exception):
    pass


def _alarm(signum, frame):
    raise _Timeout


def check(argv: list[str], code: int | None, stderr: str, seconds: float) -> str | None:
    """The problem with one run, or None when it is fine."""
    if "Traceback" in stderr:
        return "traceback"
    if code not in (0, 2):
        return f"exit code {code}"
    if code == 2:
        lines = stderr.splitlines()
        if not stderr.endswith("\n") or not lines or ": error: " not in lines[-1]:
            return "the error is not one line at the end of stderr"
        if any(not _WARNING.match(line) for line in lines[:-1]):
            return "the error is not exactly one line"
    if code == 2 and len(stderr) > 2000:
        return "an error message over 2000 characters"
    if seconds > TIME_CAP:
        return f"took {seconds:.1f} s (cap {TIME_CAP:g} s)"
    return None


def run_in_process(argv: list[str]) -> Outcome:
    from rougekit.cli.main import main

    out, err = io.StringIO(), io.StringIO()
    started = time.monotonic()
    use_alarm = hasattr(signal, "SIGALRM") and threading_is_main()
    if use_alarm:
        previous = signal.signal(signal.SIGALRM, _alarm)
        signal.setitimer(signal.ITIMER_REAL, TIME_CAP * 2)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(list(argv))
    except _Timeout:
        code, err = None, io.StringIO(f"hang: stopped after {TIME_CAP * 2:g} s\n")
    except BaseException as exc:  # noqa: BLE001 - anything escaping main is a finding
        code = None
        err.write("Traceback (escaped main):\n" + "".join(traceback.format_exception(exc)))
    finally:
        if use_alarm:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)
    seconds = time.monotonic() - started
    stderr = err.getvalue()
    problem = check(argv, code, stderr, seconds) if code is not None or "Traceback" in stderr else "hang"
    return Outcome(argv, code, stderr, seconds, problem, out.getvalue())


def threading_is_main() -> bool:
    import threading

    return threading.current_thread() is threading.main_thread()


def run_subprocess(argv: list[str], memory_mb: int = 1024) -> Outcome:
    """One run as its own process, with an address-space cap (POSIX) and a time cap."""

    def limit():  # pragma: no cover - runs in the child
        import resource

        cap = memory_mb * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (cap, cap))

    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        [str(Path(__import__("rougekit").__file__).resolve().parents[1])] + [env.get("PYTHONPATH", "")]
    )
    started = time.monotonic()
    try:
        proc = subprocess.run(
            [sys.executable, "-m", "rougekit", *argv],
            capture_output=True,
            timeout=TIME_CAP * 2,
            env=env,
            preexec_fn=limit if os.name == "posix" else None,
        )
        code, stderr = proc.returncode, proc.stderr.decode("utf-8", "replace")
    except subprocess.TimeoutExpired:
        return Outcome(argv, None, "", time.monotonic() - started, "hang")
    seconds = time.monotonic() - started
    problem = check(argv, code, stderr, seconds)
    if problem is None and "MemoryError" in stderr:
        problem = "MemoryError"
    return Outcome(argv, code, stderr, seconds, problem)


RUNS = [0]  # runs done by the last fuzz()


def fuzz(
    iterations: int, seed: int, subprocesses: bool = False, stop_after: int = 5, log=None, seconds: float = 0
) -> list[Outcome]:
    """Run ``iterations`` random command lines from ``seed`` (or until ``seconds`` have passed, when
    given); the runs with a problem (at most ``stop_after``)."""
    with fuzz_limits():
        return _fuzz(iterations, seed, subprocesses, stop_after, log, seconds)


def _reset_reader_limits() -> None:
    with contextlib.suppress(ImportError):  # a tree without the reader: nothing to reset
        from rougekit.io.reader import reset_limits

        reset_limits()


@contextlib.contextmanager
def fuzz_limits():
    """``FUZZ_LIMITS`` in ``os.environ`` (where not set already) while the block runs, the variables as
    they were afterwards; the reader's cached limits are dropped on the way in and out."""
    saved = {name: os.environ.get(name) for name in FUZZ_LIMITS}
    for name, value in FUZZ_LIMITS.items():
        os.environ.setdefault(name, value)
    _reset_reader_limits()
    try:
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
        _reset_reader_limits()


def _fuzz(iterations, seed, subprocesses, stop_after, log, seconds) -> list[Outcome]:
    found: list[Outcome] = []
    started = time.monotonic()
    RUNS[0] = 0
    for k in range(iterations):
        if seconds and time.monotonic() - started > seconds:
            if log:
                log(f"stopped after {k} iterations ({seconds:g} s)")
            break
        rng = random.Random(f"{seed}:{k}")  # each iteration reproducible on its own
        with tempfile.TemporaryDirectory(prefix="rougekit-fuzz-") as tmp:
            argv = random_argv(rng, Path(tmp))
            here = os.getcwd()
            os.chdir(tmp)  # a relative output path (e.g. --plot nan) lands in the temporary folder
            try:
                outcome = run_subprocess(argv) if subprocesses else run_in_process(argv)
            finally:
                os.chdir(here)
        RUNS[0] += 1
        if outcome.problem:
            outcome.argv = [a if len(a) < 200 else a[:60] + f"...({len(a)} chars)" for a in argv]
            found.append(outcome)
            if log:
                log(f"iteration {k}: {outcome.problem}: {outcome.argv}\n{outcome.stderr[-3000:]}")
            if len(found) >= stop_after:
                break
    return found


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--iterations", type=int, default=1000)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--subprocess", action="store_true", help="each run in its own process, 1 GB address-space cap")
    p.add_argument("--stop-after", type=int, default=50)
    p.add_argument("--seconds", type=float, default=0, help="stop after this long (0: run every iteration)")
    args = p.parse_args(argv)
    started = time.monotonic()
    found = fuzz(
        args.iterations,
        args.seed,
        args.subprocess,
        args.stop_after,
        log=lambda s: print(s, flush=True),
        seconds=args.seconds,
    )
    print(
        f"{RUNS[0]} runs (seed {args.seed}, backend {os.environ.get('ROUGEKIT_BACKEND', 'default')}) in "
        f"{time.monotonic() - started:.0f} s: {len(found)} problems"
    )
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
