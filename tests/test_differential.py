"""Differential test: `rougekit rouge155` against the reference ROUGE-1.5.5.pl on random inputs.

Every case is one random option set run on one random set of inputs (several EVALs, several
peers, 1-5 references each) in one Perl run; stdout must be identical byte for byte and both
must succeed or both fail.  The reference runs for all cases are done first, in parallel
(one Perl process per core), then each case is a test of its own.

Environment:
* ``ROUGEKIT_DIFF_SEED``  (default 20050526): seed of the generator; printed on failure.
* ``ROUGEKIT_DIFF_CASES`` (default 300): number of random cases.
* ``ROUGEKIT_DIFF_KEEP``  : a folder to keep the generated inputs in (for replaying a failure).
* ``ROUGE_REF_HOME``      : where tools/setup_reference_rouge.sh put the reference data.

A failing case prints the seed, the case number, the exact argument list, the folder and the
first differing lines.  Replay one case by hand with
``ROUGEKIT_DIFF_KEEP=/tmp/d python -m pytest tests/test_differential.py -k c0042``.
"""

from __future__ import annotations

import os
import random
import shlex
import shutil
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from _paths import SHARED
from reference_rouge import (
    first_difference,
    reference_available,
    reference_command,
    rougekit_available,
    run_reference,
    run_rougekit,
)

SEED = int(os.environ.get("ROUGEKIT_DIFF_SEED", "20050526"))
N_CASES = int(os.environ.get("ROUGEKIT_DIFF_CASES", "300"))

# --------------------------------------------------------------------------------------------
# vocabularies

BUILTIN_WORDS = """
the a an of to in on at by for with from and or but not no is are was were be been being am
has have had do does did will would shall should can could may might must it its he she they
them their his her we us our you your i me my this that these those there here what which who
whom whose when where why how all any both each few more most other some such only own same so
than too very just also about above after again against before below between during into out
over under up down off once then further because while until through
police officer officers gunman killed kill kills killing shot shoot shooting arrested arrest
government governments president minister election elections voted vote voters campaign party
company companies market markets price prices rose fell percent billion million dollars bank
banks said says saying told tell tells report reports reported reporting news week year years
day days city cities country countries state states world national international people person
children child men man women woman feet foot geese goose mice mouse teeth tooth criteria
criterion phenomena phenomenon analyses analysis data went go goes going gone ran run runs
running better best good well worse worst bad taken take takes taking took lying lie lay lies
was be swam swim swimming wrote write written writing ate eat eaten eating saw see seen seeing
agreement agree agreed argument argue argued accidental accident affectionate affection
generalization general generalize hopeful hope hoping happiness happy happily cats cat dogs dog
connection connected connecting connects relational relate related relation conditional
condition rational rationale decisive decision electricity electrical electric adjustment
adjust dependent depend depended independence independent communism communist activate
activation effective effectively hopefulness goodness formality formal sensitivity sensitive
generously generous plotted plotting studies studied studying flies flying flew dying died
caresses ponies ties caress cats feed agreed disabled matting mating meeting milling messing
meetings sky skies skiing skied news index tech reuters ap jan feb mon sun
storm storms weather flooding floods rain heavy rescue workers hospital injured injuries
doctor doctors patients health care law laws court judge ruling trial jury lawyer lawyers
school schools students teacher teachers education university research scientists study
water river rivers mountain mountains forest fire fires burned burning smoke area areas
military troops soldiers army war attack attacks attacked bomb explosion peace talks
leaders leader meeting summit economic economy growth trade tariffs exports imports oil
energy power nuclear plant plants climate change changes changed changing science
""".split()

SPECIAL_TOKENS = [
    ",",
    ".",
    "!",
    "?",
    ";",
    ":",
    "...",
    "--",
    "-",
    "'s",
    "n't",
    "don't",
    "won't",
    "it's",
    "U.S.",
    "u.s.",
    "3.5",
    "1990s",
    "$100",
    "50%",
    "2004",
    "07",
    "well-known",
    "state-of-the-art",
    "e-mail",
    "co-operate",
    "(",
    ")",
    '"',
    "``",
    "''",
    "&",
    "&amp;",
    "x_y",
    "A.B.C.",
    "#1",
    "café",
    "naïve",
    "Zürich",
    "中文",
    "日本語",
    "Москва",
    "Путин",
    "Ελλάδα",
    "—",
    "€5",
    "½",
    "HELLO",
    "Police",
    "GOVERNMENT",
    "McDonald",
    "iPhone",
    "O'Neil",
    "I.B.M.",
    "10-year-old",
    "no.",
    "e.g.",
    "4-3",
    "a/b",
    "+",
    "=",
    "@user",
    "'",
    "`",
    "x<y",
    "<b>",
]

# summary text pieces that test the readers
ODD_SENTENCES = ["", " ", "   ", "...", "!!", "- -", "?", "\t", "&amp;", "中文", "—"]


def _load_real_vocab() -> list[str]:
    """Words of the SummEval texts when ../shared exists (whitespace tokens, case kept)."""
    path = SHARED / "data" / "summeval" / "summeval.jsonl"
    if not path.is_file():
        return []
    import json

    words: set[str] = set()
    with path.open(encoding="utf-8") as fh:
        for i, line in enumerate(fh):
            if i >= 40:
                break
            doc = json.loads(line)
            texts = [doc.get("ref_summ", "")] + list(doc.get("ref_summs", []))
            texts += [s.get("sys_summ", "") for s in doc.get("sys_summs", {}).values()]
            for t in texts:
                words.update(w for w in t.split() if "<" not in w)
    return sorted(words)


REAL_VOCAB = _load_real_vocab()

# words for the start of every reference when -w is on (never empty, never a stopword, and
# surviving any -l >= 1 or -b >= 10 cut)
SAFE_FIRST = [
    "police",
    "gunman",
    "storm",
    "government",
    "company",
    "children",
    "running",
    "agreement",
    "scientists",
    "hospital",
    "economy",
    "soldiers",
    "weather",
]


def random_vocab(rng: random.Random, size: int) -> list[str]:
    alphabet = rng.choice(["abcde", "abcdefgh", "etaoinshr", "xyz"])
    out = []
    for _ in range(size):
        w = "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 7)))
        if rng.random() < 0.1:
            w = w.upper()
        out.append(w)
    return out


# --------------------------------------------------------------------------------------------
# case generation


@dataclass
class Case:
    index: int
    args: list[str]  # the script's arguments (without -e), config/list path last
    files: dict[str, bytes] = field(default_factory=dict)  # relative path -> content
    note: str = ""

    @property
    def name(self) -> str:
        return f"c{self.index:04d}"


def _make_word(rng: random.Random, topic: list[str], vocab: list[str]) -> str:
    x = rng.random()
    if x < 0.72:
        w = rng.choice(topic)
    elif x < 0.90:
        w = rng.choice(vocab)
    else:
        w = rng.choice(SPECIAL_TOKENS)
    y = rng.random()
    if y < 0.06:
        w = w.capitalize()
    elif y < 0.08:
        w = w.upper()
    return w


def _sentence(rng: random.Random, topic, vocab, odd_rate: float) -> str:
    if rng.random() < odd_rate:
        return rng.choice(ODD_SENTENCES)
    n = rng.choice([1, 2, 3, 4, 5, 6, 8, 10, 12, 15, 20])
    words = [_make_word(rng, topic, vocab) for _ in range(n)]
    sep = " "
    text = ""
    for i, w in enumerate(words):
        if i:
            r = rng.random()
            text += "\t" if r < 0.02 else ("  " if r < 0.05 else sep)
        text += w
    if rng.random() < 0.5:
        text += rng.choice([" .", ".", " !", "?", ""])
    if rng.random() < 0.06:
        text = rng.choice([" ", "  ", "\t"]) + text
    if rng.random() < 0.03:
        text += " "
    return text


def _perturb(rng: random.Random, sentence: str, topic, vocab) -> str:
    words = sentence.split(" ")
    out = []
    for w in words:
        r = rng.random()
        if r < 0.15:
            continue
        if r < 0.30:
            out.append(_make_word(rng, topic, vocab))
            continue
        out.append(w)
        if rng.random() < 0.05:
            out.append(_make_word(rng, topic, vocab))
    if len(out) > 2 and rng.random() < 0.3:
        i = rng.randrange(len(out) - 1)
        out[i], out[i + 1] = out[i + 1], out[i]
    return " ".join(out)


def _summary(rng, topic, vocab, n_sent, odd_rate, base: list[str] | None = None) -> list[str]:
    sents = []
    for _ in range(n_sent):
        if base and rng.random() < 0.5:
            sents.append(_perturb(rng, rng.choice(base), topic, vocab))
        else:
            sents.append(_sentence(rng, topic, vocab, odd_rate))
    if rng.random() < 0.04:
        # a raw latin-1 byte (invalid UTF-8): the script works on bytes
        sents.append("caf\udce9 au lait")
    return sents


def _encode(s: str) -> bytes:
    return s.encode("utf-8", "surrogateescape")


def _spl(sents: list[str]) -> bytes:
    return b"".join(_encode(s) + b"\n" for s in sents)


def _see(rng: random.Random, title: str, sents: list[str]) -> bytes:
    lines = ["<html>", "<head>", f"<title>{title}</title>", "</head>", '<body bgcolor="white">']
    for i, s in enumerate(sents, 1):
        tag = f'<a name="{i}">[{i}]</a>' if rng.random() < 0.9 else f'<a size="{len(s)}" name="{i}">[{i}]</a>'
        space = " " if rng.random() < 0.9 else "\t "
        lines.append(f'{tag}{space}<a href="#{i}" id={i}>{s}</a>')
    lines += ["</body>", "</html>"]
    return _encode("\n".join(lines) + "\n")


EVAL_ID_POOLS = [
    ["1", "2", "10", "11", "3", "20", "100", "9"],
    ["1", "2", "3", "4", "5", "6", "7", "8"],
    ["D061", "D062", "d100", "D07", "D1", "e2", "X"],
    ["12", "2", "110", "13b", "7a", "30"],
    ["doc-1", "doc-10", "doc-2", "doc-11", "doc-3"],
]
PEER_ID_POOLS = [
    ["1", "2", "10", "11", "21"],
    ["A", "B", "C", "sys1", "sys10", "sys2"],
    ["11", "12", "13", "14", "21", "22", "23", "24"],
    ["M0", "M1", "M10", "M2", "lead3"],
]
MODEL_IDS = ["A", "B", "C", "D", "E"]


def _options(rng: random.Random, zmode: bool) -> tuple[list[str], dict]:
    o: list[str] = []
    info: dict = {}
    if rng.random() < 0.75:
        info["n"] = rng.randint(1, 4)
        o += ["-n", str(info["n"])]
    if rng.random() < 0.18:
        o.append("-x")
        info["x"] = True
    if rng.random() < 0.35:
        info["w"] = rng.choice(["1.2", "1.5", "2", "1.2", "1.5", "2", "1.20", "1.33"])
        if rng.random() < 0.3:  # whole weights: Perl's counts are exact integers or doubles (qa21a F2)
            info["w"] = rng.choice(["3", "4", "5", "4.0", "5.0", "4e0", "1"])
        o += ["-w", info["w"]]
    r = rng.random()
    if r < 0.45:
        info["s2"] = rng.choice(["-1", "0", "1", "4", "9"])
        o += ["-2", info["s2"]]
        u = rng.random()
        if u < 0.35:
            o.append("-u")
        elif u < 0.7:
            o.append("-U")
        elif u < 0.8:
            o += ["-u", "-U"]
    elif r < 0.5:
        o.append("-u")  # without -2: no effect
    if not any(k in info for k in ("n", "w", "s2")) and info.get("x"):
        o += ["-n", "1"]
    f = rng.random()
    if f < 0.35:
        o += ["-f", "A"]
    elif f < 0.68:
        o += ["-f", "B"]
    elif f < 0.70:
        o += ["-f", "C"]  # any other value behaves like A
    if rng.random() < 0.35:
        o += ["-p", rng.choice(["0", "0.3", "0.5", "1"])]
    t = rng.random()
    if t < 0.2 or ("w" in info and t < 0.3):
        o += ["-t", "1"]
    elif t < 0.3 or ("w" in info and t < 0.45):
        o += ["-t", "2"]
    elif t < 0.4:
        o += ["-t", "0"]
    elif t < 0.42:
        o += ["-t", "3"]  # any other value means 0
    if rng.random() < 0.4:
        o += ["-c", rng.choice(["90", "95", "99", "90", "95", "99", "97.5", "50"])]
    r = rng.random()
    if r < 0.03:
        o += ["-r", "1"]
    elif r < 0.25:
        o += ["-r", "10"]
    elif r < 0.5:
        o += ["-r", "100"]
    elif r < 0.6:
        o += ["-r", "1000"]
    if rng.random() < 0.5:
        o.append("-d")
    lim = rng.random()
    if lim < 0.15:
        info["l"] = rng.choice([1, 2, 3, 5, 10, 20, 40])
        o += ["-l", str(info["l"])]
    elif lim < 0.30:
        info["b"] = rng.choice([10, 20, 40, 75, 100, 200])
        o += ["-b", str(info["b"])]
    if rng.random() < 0.35:
        o.append("-m")
        info["m"] = True
    elif rng.random() < 0.12:
        o.append("-M")
    if rng.random() < 0.25:
        o.append("-s")
        info["s"] = True
    if not zmode:
        info["all"] = rng.random() < 0.7
        if info["all"]:
            o.append("-a")
    return o, info


BE_RELATIONS = ["subj", "obj", "mod", "nn", "det", "NIL", "nil", "poss"]
BE_MODES = ["H", "HM", "HMR", "HM1", "HMR1", "HMR2"]


def _eval_block(eid, peer_root: str, fmt: str, pnames, mnames) -> list[str]:
    """The lines of one <EVAL> of a config file: its peers' and models' (ID, file name) pairs."""
    return [
        f'<EVAL ID="{eid}">',
        f"<PEER-ROOT>{peer_root}</PEER-ROOT>",
        "<MODEL-ROOT>models</MODEL-ROOT>",
        f'<INPUT-FORMAT TYPE="{fmt}"/>',
        "<PEERS>",
        *[f'<P ID="{pid}">{fn}</P>' for pid, fn in pnames],
        "</PEERS>",
        "<MODELS>",
        *[f'<M ID="{mid}">{fn}</M>' for mid, fn in mnames],
        "</MODELS>",
        "</EVAL>",
    ]


def _be_line(rng: random.Random, topic: list[str], vocab: list[str]) -> str:
    """One Basic Element, HEAD|MODIFIER|RELATION (a modifier or relation may be NIL)."""
    head = _make_word(rng, topic, vocab)
    mod = rng.choice(["NIL", "nil"]) if rng.random() < 0.25 else _make_word(rng, topic, vocab)
    rel = rng.choice(BE_RELATIONS)
    return f"{head}|{mod}|{rel}"


def make_be_case(seed: int, index: int) -> Case:
    """A -3 (Basic Elements) case: SIMPLE BE files, one BE a line, in a list (-z SIMPLE) or a config;
    -m / -M / both across several evaluations and peers (qa21a F1)."""
    rng = random.Random(f"{seed}/{index}/be")
    o = ["-3", rng.choice(BE_MODES)]
    r = rng.random()
    if r < 0.4:
        o.append("-m")
    elif r < 0.55:
        o.append("-M")
    elif r < 0.65:
        o += ["-m", "-M"]
    if rng.random() < 0.15:
        o.append("-s")
    f = rng.random()
    if f < 0.35:
        o += ["-f", "A"]
    elif f < 0.7:
        o += ["-f", "B"]
    if rng.random() < 0.25:
        o += ["-p", rng.choice(["0", "0.3", "0.5", "1"])]
    o += rng.choice([[], [], ["-t", "1"], ["-t", "2"], ["-t", "0"]])
    if rng.random() < 0.3:
        o += ["-c", rng.choice(["90", "95", "99"])]
    o += rng.choice([[], ["-r", "10"], ["-r", "100"]])
    if rng.random() < 0.5:
        o.append("-d")
    zmode = rng.random() < 0.35
    vocab = rng.choice([BUILTIN_WORDS, REAL_VOCAB or BUILTIN_WORDS, random_vocab(rng, 12)])
    eval_ids = rng.sample(rng.choice(EVAL_ID_POOLS), k=rng.randint(1, 5))
    peer_ids = [rng.choice(["X", "26", "sys"])] if zmode else rng.sample(rng.choice(PEER_ID_POOLS), k=rng.randint(1, 3))
    files: dict[str, bytes] = {}
    config_lines = ['<ROUGE-EVAL version="1.0">']
    list_lines: list[str] = []
    for e, eid in enumerate(eval_ids):
        topic = rng.sample(vocab, k=min(len(vocab), rng.choice([4, 10, 30])))
        models = []
        for _ in range(rng.randint(1, 4)):
            models.append([_be_line(rng, topic, vocab) for _ in range(rng.choice([0, 1, 2, 4, 8, 15]))])
        base = [line for m in models for line in m]
        mnames, pnames = [], []
        for j, lines in enumerate(models):
            name = f"e{e}.{MODEL_IDS[j]}"
            files[f"models/{name}"] = _spl(lines)
            mnames.append((MODEL_IDS[j], name))
        for k, pid in enumerate(peer_ids):
            n = rng.choice([0, 1, 3, 6, 12])
            lines = [rng.choice(base) if base and rng.random() < 0.5 else _be_line(rng, topic, vocab) for _ in range(n)]
            name = f"e{e}.p{k}"
            files[f"peers/{name}"] = _spl(lines)
            pnames.append((pid, name))
        if zmode:
            list_lines.append(" ".join(["peers/" + pnames[0][1]] + ["models/" + m for _, m in mnames]))
        else:
            config_lines += _eval_block(eid, "peers", "SIMPLE", pnames, mnames)
    if zmode:
        files["list.lst"] = ("\n".join(list_lines) + "\n").encode()
        args = [*o, "-z", "SIMPLE", "list.lst", peer_ids[0]]
    else:
        config_lines.append("</ROUGE-EVAL>")
        files["config.xml"] = ("\n".join(config_lines) + "\n").encode()
        args = [*o, "-a", "config.xml"] if rng.random() < 0.7 else [*o, "config.xml", rng.choice(peer_ids)]
    return Case(index, args, files, note="BE")


def make_case(seed: int, index: int) -> Case:
    if random.Random(f"{seed}/{index}/kind").random() < 0.12:
        return make_be_case(seed, index)
    rng = random.Random(f"{seed}/{index}")
    fmt = rng.choices(["SPL", "SEE", "Z"], weights=[45, 40, 15])[0]
    zmode = fmt == "Z"
    opts, info = _options(rng, zmode)
    need_tokens = "w" in info  # references must never end up without tokens (the script dies)

    vocab_kind = rng.random()
    if vocab_kind < 0.55:
        vocab = REAL_VOCAB or BUILTIN_WORDS
    elif vocab_kind < 0.8:
        vocab = BUILTIN_WORDS
    else:
        vocab = random_vocab(rng, rng.choice([8, 20, 60]))

    if rng.random() < 0.1:
        # many pairs: the bootstrap average drifts from the plain mean
        eval_ids = [str(i) for i in rng.sample(range(1, 200), k=rng.randint(10, 30))]
    else:
        eval_ids = rng.sample(rng.choice(EVAL_ID_POOLS), k=rng.randint(1, 5))
    if len(eval_ids) > 1 and rng.random() < 0.03:
        eval_ids.append(eval_ids[0])  # a repeated EVAL ID (merges into the first one)
    if zmode:
        peer_ids = [rng.choice(["X", "26", "sys"])]
    elif len(eval_ids) > 8:
        peer_ids = rng.sample(rng.choice(PEER_ID_POOLS), k=rng.randint(1, 2))
    else:
        peer_ids = rng.sample(rng.choice(PEER_ID_POOLS), k=rng.randint(1, 4))
    crlf = rng.random() < 0.04  # CRLF line ends (the script only chomps the \n)
    odd_rate = rng.choice([0.0, 0.05, 0.15])

    files: dict[str, bytes] = {}
    config_lines = ['<ROUGE-EVAL version="1.0">']
    list_lines: list[str] = []
    if zmode:
        list_lines.append("# peer model1 model2 ...")
    for e, eid in enumerate(eval_ids):
        topic = rng.sample(vocab, k=min(len(vocab), rng.choice([5, 15, 40])))
        n_models = rng.randint(1, 5)
        models: list[list[str]] = []
        for _ in range(n_models):
            sents = _summary(rng, topic, vocab, rng.randint(1, 12), odd_rate if not need_tokens else 0.0)
            if need_tokens:
                sents[0] = rng.choice(SAFE_FIRST) + " " + sents[0].lstrip(" \t")
                sents = [s if s.strip() else "storm" for s in sents]
            models.append(sents)
        base = [s for m in models for s in m]
        peers: dict[str, list[str] | None] = {}
        for pid in peer_ids:
            r = rng.random()
            if r < 0.08 and len(eval_ids) > 1 and not zmode:
                peers[pid] = None  # this peer is missing from this EVAL
            elif r < 0.12:
                peers[pid] = []  # no sentences at all
            elif r < 0.15:
                peers[pid] = list(models[0])  # identical to the first reference
            else:
                peers[pid] = _summary(rng, topic, vocab, rng.randint(1, 12), odd_rate, base)
        file_fmt = "SPL" if zmode else fmt
        ext = ".html" if file_fmt == "SEE" else ".spl"
        mnames = []
        for j, sents in enumerate(models):
            name = f"models/e{e}.{MODEL_IDS[j]}{ext}"
            files[name] = _see(rng, name, sents) if file_fmt == "SEE" else _spl(sents)
            if crlf:
                files[name] = files[name].replace(b"\n", b"\r\n")
            mnames.append((MODEL_IDS[j], name.split("/", 1)[1]))
        pnames = []
        for pid, sents in peers.items():
            if sents is None:
                continue
            name = f"peers/e{e}.p{peer_ids.index(pid)}{ext}"
            files[name] = _see(rng, name, sents) if file_fmt == "SEE" else _spl(sents)
            if crlf:
                files[name] = files[name].replace(b"\n", b"\r\n")
            pnames.append((pid, name.split("/", 1)[1]))
        if zmode:
            sep = rng.choice([" ", "\t", "  "])
            line = sep.join(["peers/" + pnames[0][1]] + ["models/" + m for _, m in mnames])
            list_lines.append(line)
            if rng.random() < 0.2:
                list_lines.append(rng.choice(["", "# comment"]))
        else:
            proot = "peers" if rng.random() < 0.8 else "\n  peers  \n"
            config_lines += _eval_block(eid, proot, fmt, pnames, mnames)
    if zmode:
        files["list.lst"] = ("\n".join(list_lines) + "\n").encode()
        args = [*opts, "-z", "SPL", "list.lst"]
        if rng.random() < 0.7:
            args.append(peer_ids[0])
    else:
        config_lines.append("</ROUGE-EVAL>")
        files["config.xml"] = ("\n".join(config_lines) + "\n").encode()
        args = [*opts, "config.xml"]
        if not info["all"]:
            present = [pid for pid in peer_ids]
            args.append(rng.choice(present))
    return Case(index, args, files, note=fmt)


def write_case(case: Case, root: Path) -> Path:
    d = root / case.name
    if d.exists():
        shutil.rmtree(d)
    for rel, content in case.files.items():
        p = d / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(content)
    (d / "args.txt").write_text(shlex.join(case.args) + "\n")
    return d


# cases where the script dies: both must fail (rougekit with exit code 2)
ERROR_CASES: dict[str, tuple[list[str], dict[str, bytes]]] = {
    "w_with_punct_only_reference": (
        ["-n", "1", "-w", "1.2", "-a", "config.xml"],
        {"m.spl": b"...\n", "p.spl": b"police kill the gunman\n"},
    ),
    "w_with_stopword_only_reference": (
        ["-w", "2", "-s", "-a", "config.xml"],
        {"m.spl": b"the of a and\n", "p.spl": b"police kill the gunman\n"},
    ),
    "w_with_empty_reference": (
        ["-w", "1.5", "-2", "4", "-u", "-a", "config.xml"],
        {"m.spl": b"\n", "p.spl": b"police kill the gunman\n"},
    ),
    "w_zero": (["-w", "0", "-a", "config.xml"], {}),
    "l_and_b": (["-l", "10", "-b", "10", "-a", "config.xml"], {}),
    "c_over_100": (["-c", "101", "-a", "config.xml"], {}),
    "p_over_1": (["-p", "2", "-a", "config.xml"], {}),
    "r_zero": (["-r", "0", "-n", "1", "-a", "config.xml"], {}),
    "no_system_id": (["-n", "1", "config.xml"], {}),
    "missing_model_file": (["-n", "1", "-a", "config.xml"], {"m.spl": None}),
    "missing_peer_file": (["-n", "1", "-a", "config.xml"], {"p.spl": None}),
    "missing_config": (["-n", "1", "-a", "nothere.xml"], {}),
}


def _write_error_case(name: str, root: Path) -> tuple[Path, list[str]]:
    args, overrides = ERROR_CASES[name]
    d = root / f"err_{name}"
    d.mkdir(parents=True, exist_ok=True)
    files = {"m.spl": b"police killed the gunman\n", "p.spl": b"police kill the gunman\n"}
    files.update(overrides)
    for fn, content in files.items():
        if content is not None:
            (d / fn).write_bytes(content)
    (d / "config.xml").write_text(
        '<ROUGE-EVAL version="1.0">\n<EVAL ID="1">\n<PEER-ROOT>.</PEER-ROOT>\n<MODEL-ROOT>.</MODEL-ROOT>\n'
        '<INPUT-FORMAT TYPE="SPL"/>\n<PEERS>\n<P ID="S">p.spl</P>\n</PEERS>\n<MODELS>\n<M ID="A">m.spl</M>\n'
        "</MODELS>\n</EVAL>\n</ROUGE-EVAL>\n"
    )
    return d, args


# --------------------------------------------------------------------------------------------
# fixtures


CASES = [make_case(SEED, i) for i in range(N_CASES)]


def _case_id(case: Case) -> str:
    opts = " ".join(a for a in case.args[:-1] if a not in ("config.xml", "list.lst"))
    return f"{case.name}[{case.note}:{opts}]"


def _skip_unless_both():
    ok, why = reference_available()
    if not ok:
        pytest.skip("reference ROUGE-1.5.5.pl not available: " + why)
    ok, why = rougekit_available()
    if not ok:
        pytest.skip(why)


@pytest.fixture(scope="module")
def workdir():
    keep = os.environ.get("ROUGEKIT_DIFF_KEEP")
    if keep:
        root = Path(keep)
        root.mkdir(parents=True, exist_ok=True)
        yield root
    else:
        root = Path(tempfile.mkdtemp(prefix="rougekit-diff-"))
        yield root
        shutil.rmtree(root, ignore_errors=True)


@pytest.fixture(scope="module")
def reference_results(workdir):
    """Run the reference on every case, in parallel; {case name: (rc, stdout, stderr, seconds)}."""
    _skip_unless_both()
    dirs = {case.name: write_case(case, workdir) for case in CASES}

    def one(case: Case):
        t0 = time.perf_counter()
        rc, out, err = run_reference(case.args, cwd=dirs[case.name])
        return case.name, (rc, out, err, time.perf_counter() - t0)

    t0 = time.perf_counter()
    with ThreadPoolExecutor(max_workers=max(1, os.cpu_count() or 1)) as pool:
        results = dict(pool.map(one, CASES))
    total = time.perf_counter() - t0
    per = sorted(r[3] for r in results.values())
    print(
        f"\n[differential] seed={SEED}: {len(CASES)} reference runs in {total:.1f}s wall "
        f"(median {per[len(per) // 2]:.2f}s, max {per[-1]:.2f}s per run)"
    )
    return results, dirs


@pytest.mark.parametrize("case", CASES, ids=_case_id)
def test_differential(case, reference_results):
    results, dirs = reference_results
    ref_rc, ref_out, ref_err, _ = results[case.name]
    cwd = dirs[case.name]
    rc, out, err = run_rougekit(case.args, cwd=cwd)
    header = (
        f"ROUGEKIT_DIFF_SEED={SEED} case {case.name} ({case.note})\n"
        f"  cd {cwd} && {shlex.join(reference_command(case.args))}\n"
        f"  rougekit rouge155 {shlex.join(case.args)}\n"
    )
    if ref_rc != 0:
        # the generator avoids known deaths; if the script still died, rougekit must fail too
        assert rc == 2, (
            header + f"reference died (exit {ref_rc}: {ref_err.decode('utf-8', 'replace').strip()[-500:]})"
            f" but rougekit exited {rc}"
        )
        return
    assert rc == 0, header + f"rougekit exited {rc}; stderr:\n{err.decode('utf-8', 'replace')[-3000:]}"
    assert out == ref_out, header + first_difference(ref_out, out)


@pytest.mark.parametrize("name", sorted(ERROR_CASES))
def test_both_fail(name, workdir):
    _skip_unless_both()
    d, args = _write_error_case(name, workdir)
    ref_rc, ref_out, ref_err = run_reference(args, cwd=d)
    rc, out, err = run_rougekit(args, cwd=d)
    msg = (
        f"cd {d} && {shlex.join(reference_command(args))}\n"
        f"reference exit {ref_rc}, stderr: {ref_err.decode('utf-8', 'replace').strip()[-300:]}\n"
        f"rougekit exit {rc}, stderr: {err.decode('utf-8', 'replace').strip()[-300:]}"
    )
    assert ref_rc != 0, "the reference was expected to die\n" + msg
    assert rc == 2, msg
    assert len(err.decode("utf-8", "replace").strip().splitlines()) >= 1, msg
