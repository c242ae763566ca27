#!/usr/bin/env python3
"""Regenerate the Perl-free goldens in tests/goldens/ with the reference ROUGE-1.5.5.pl.

Each case is written to ``tests/goldens/<name>/``:

* the inputs (``peers/``, ``models/`` and ``config.xml``, or ``list.lst`` for ``-z SPL``),
* ``command.txt``: how it was produced (date, script md5, perl version, the exact command line),
  plus two machine-readable lines that tests/test_goldens.py uses:
  ``args: <the script's arguments, shell-quoted>`` and ``exit: <exit code of the script>``,
* ``expected.out``: the script's stdout, byte for byte.

The texts are the worked examples E1-E20 (one small case per quirk of docs/rouge155/), plus cases that
cover every option (-a/system ID, -b, -c, -d, -f, -l, -m, -M, -n, -p, -r, -s, -t, -u, -U, -w,
-x, -z SPL, -2 -1/0/1/4/9), SEE and SPL inputs, missing peers and eval IDs whose string sort
differs from their numeric sort.

Needs the reference (run tools/setup_reference_rouge.sh first).  Usage:
    python tools/make_goldens.py            # rewrite every golden
    python tools/make_goldens.py e01 e17    # only cases whose name starts with these
"""

from __future__ import annotations

import datetime
import hashlib
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))

from reference_rouge import (  # noqa: E402
    perl_path,
    reference_available,
    reference_command,
    run_reference,
    script_path,
)

GOLDENS = REPO / "tests" / "goldens"

E1_REF = ["police killed the gunman"]
S2 = ["police kill the gunman"]
S3 = ["the gunman kill police"]
S4 = ["the gunman police killed"]


def ev(eval_id, peers, models):
    """One EVAL: peers {peer ID: sentences}, models [(model ID, sentences)] or [sentences]."""
    if models and not isinstance(models[0], tuple):
        models = [(chr(ord("A") + i), m) for i, m in enumerate(models)]
    return {"id": str(eval_id), "peers": peers, "models": models}


# name -> dict(desc, fmt ("SPL" | "SEE" | "Z"), evals, opts, sysid (None -> -a))
CASES: dict[str, dict] = {
    "e01_paper_example": dict(
        desc="E1: the paper's example, ROUGE-1/2/L/W-1.2/S4/SU4 (-U), 3 evals",
        fmt="SPL",
        evals=[ev(1, {"sys": S2}, [E1_REF]), ev(2, {"sys": S3}, [E1_REF]), ev(3, {"sys": S4}, [E1_REF])],
        opts="-n 2 -2 4 -U -w 1.2 -r 1000 -d -a",
    ),
    "e01b_stemming": dict(
        desc="E1b: the paper's example with -m",
        fmt="SPL",
        evals=[ev(1, {"sys": S2}, [E1_REF]), ev(2, {"sys": S3}, [E1_REF]), ev(3, {"sys": S4}, [E1_REF])],
        opts="-n 2 -2 4 -U -w 1.2 -m -d -a",
    ),
    "e02_rouge_w2": dict(
        desc="E2: the paper's ROUGE-W example, -w 2 (Y1 and Y2 score the same), SEE input",
        fmt="SEE",
        evals=[ev(1, {"Y1": ["A B C D H I K"], "Y2": ["A H B K C I D"]}, [["A B C D E F G"]])],
        opts="-n 1 -w 2 -d -a",
    ),
    "e03_union_lcs": dict(
        desc="E3: union LCS over two candidate sentences",
        fmt="SPL",
        evals=[ev(1, {"c": ["w1 w2 w6 w7 w8", "w1 w3 w8 w9 w5"]}, [["w1 w2 w3 w4 w5"]])],
        opts="-n 1 -d -a",
    ),
    "e04_lcs_tiebreak": dict(
        desc="E4: LCS tie-break leans to earlier reference positions",
        fmt="SPL",
        evals=[ev(1, {"P1": ["gunman police", "police"], "P2": ["gunman police", "gunman"]}, [["police gunman"]])],
        opts="-n 1 -d -a",
    ),
    "e05_lcs_clipping": dict(
        desc="E5: union LCS clipped by peer unigram counts",
        fmt="SPL",
        evals=[ev(1, {"c": ["the cat"]}, [["the cat sat", "the cat ran"]])],
        opts="-n 1 -d -a",
    ),
    "e06_su_last_token": dict(
        desc="E6/E8b: SU drops the last token; F from rounded R and P",
        fmt="SPL",
        evals=[ev(1, {"G": ["gunman"], "PG": ["police gunman"]}, [E1_REF])],
        opts="-n 1 -2 4 -U -d -a",
    ),
    "e07_skip_distance": dict(
        desc="E7: -2 4 allows up to 4 words between; no ROUGE-L (-x)",
        fmt="SPL",
        evals=[ev(1, {"AF": ["a f"], "AG": ["a g"]}, [["a b c d e f g"]])],
        opts="-x -2 4 -d -a",
    ),
    "e08_w_run_not_broken": dict(
        desc="E8: a clipped position neither breaks nor ends a ROUGE-W run",
        fmt="SPL",
        evals=[ev(1, {"c": ["p q r"]}, [["q", "p q z r"]])],
        opts="-w 2 -d -a",
    ),
    "e09_tokenisation": dict(
        desc="E9: tokenisation (hyphens, U.S., 3.5, non-ASCII, $); SEE '<' cut and &amp; kept",
        fmt="SEE",
        evals=[
            ev(
                1,
                {"c": ["Well-known U.S. state-of-the-art don't 3.5 café $100"]},
                [["well known us state of the art don t 3 5 caf 100"]],
            ),
            ev(
                2,
                {"c": ["Tom &amp; Jerry <b>bold</b> text", "\u4e2d\u6587 \u041c\u043e\u0441\u043a\u0432\u0430 ok"]},
                [["tom amp jerry bold text", "ok"]],
            ),
        ],
        opts="-n 2 -d -a",
    ),
    "e10_word_limit": dict(
        desc="E10: -l 3 counts raw white-space words (punctuation included)",
        fmt="SPL",
        evals=[ev(1, {"c": ["Hello , world and more words"]}, [["hello world and"]])],
        opts="-n 1 -l 3 -d -a",
    ),
    "e10b_word_limit_models_and_blanks": dict(
        desc="E10b/c: -l 2 cuts the references too; leading blanks count as a word",
        fmt="SPL",
        evals=[
            ev(1, {"c": ["police killed"]}, [E1_REF]),
            ev(2, {"c": ["  police killed the gunman"]}, [["police killed"]]),
        ],
        opts="-n 1 -l 2 -d -a",
    ),
    "e11_byte_limit_lcs_bug": dict(
        desc="E11: -b 10, readText_LCS never counts bytes (ROUGE-L R 0.6 for identical texts)",
        fmt="SPL",
        evals=[ev(1, {"c": ["aaa bbb", "ccc ddd", "eee"]}, [["aaa bbb", "ccc ddd", "eee"]])],
        opts="-n 1 -b 10 -d -a",
    ),
    "e12_two_refs_f_A": dict(
        desc="E12: two references, -f A (sums over references)",
        fmt="SPL",
        evals=[ev(1, {"c": S2}, [E1_REF, ["the gunman was shot by police"]])],
        opts="-n 2 -f A -d -a",
    ),
    "e12b_two_refs_f_B": dict(
        desc="E12: two references, -f B (best reference by recall)",
        fmt="SPL",
        evals=[ev(1, {"c": S2}, [E1_REF, ["the gunman was shot by police"]])],
        opts="-n 2 -f B -d -a",
    ),
    "e13_duplicate_reference": dict(
        desc="E13: a duplicated reference changes nothing (-f A)",
        fmt="SPL",
        evals=[ev(1, {"c": S2}, [E1_REF, E1_REF])],
        opts="-n 2 -d -a",
    ),
    "e14_empty_candidates": dict(
        desc="E14: empty, punctuation-only, empty-line and blank candidates score 0",
        fmt="SPL",
        evals=[ev(1, {"EMPTY": [], "PUNCT": ["...", "!!"], "NL": [""], "BLANK": ["   "]}, [E1_REF])],
        opts="-n 2 -2 4 -u -w 1.2 -d -a",
    ),
    "e15_empty_reference": dict(
        desc="E15: reference '...' gives 0 for ROUGE-1 and ROUGE-L",
        fmt="SPL",
        evals=[ev(1, {"c": S2}, [["..."]])],
        opts="-n 1 -d -a",
    ),
    "e15b_empty_reference_w_dies": dict(
        desc="E15b: reference '...' with -w: the script dies (division by zero)",
        fmt="SPL",
        evals=[ev(1, {"c": S2}, [["..."]])],
        opts="-n 1 -w 1.2 -a",
    ),
    "e16_alpha_p0": dict(
        desc="E16: -p 0 gives F = R",
        fmt="SPL",
        evals=[ev(1, {"c": ["police kill the gunman today"]}, [E1_REF])],
        opts="-n 1 -p 0 -d -a",
    ),
    "e16b_alpha_p1": dict(
        desc="E16: -p 1 gives F = P",
        fmt="SPL",
        evals=[ev(1, {"c": ["police kill the gunman today"]}, [E1_REF])],
        opts="-n 1 -p 1 -d -a",
    ),
    "e17_t1": dict(
        desc="E17: -t 1 (ratio of summed counts; -d lines are raw counts; W not through f^-1)",
        fmt="SPL",
        evals=[ev(1, {"sys": S2}, [E1_REF]), ev(2, {"sys": S3}, [E1_REF]), ev(3, {"sys": S4}, [E1_REF])],
        opts="-n 1 -w 1.2 -2 4 -u -t 1 -d -a",
    ),
    "e17b_t2": dict(
        desc="E17: -t 2 (summed raw counts, truncated)",
        fmt="SPL",
        evals=[ev(1, {"sys": S2}, [E1_REF]), ev(2, {"sys": S3}, [E1_REF]), ev(3, {"sys": S4}, [E1_REF])],
        opts="-n 1 -w 1.2 -t 2 -d -a",
    ),
    "e18_stemming": dict(
        desc="E18: -m (WordNet exceptions, modified Porter, tokens <= 3 chars untouched)",
        fmt="SPL",
        evals=[
            ev(
                1,
                {"c": ["agreement went children better generalization hopeful running ran cats"]},
                [["agreem go child well gener hope run run cat"]],
            ),
            ev(
                2,
                {"c": ["went were running criteria better geese mice women men ran was better"]},
                [["go be run criterion well goose mouse woman man run be good"]],
            ),
        ],
        opts="-n 1 -m -d -a",
    ),
    "e19_stopwords": dict(
        desc="E19: -s removes SMART stopwords",
        fmt="SPL",
        evals=[ev(1, {"c": ["the police have killed the gunman"]}, [["a police officer killed gunman"]])],
        opts="-n 1 -s -d -a",
    ),
    "e20_bootstrap_ids": dict(
        desc="E20: the printed average depends on the eval IDs (A: 1,2,3 -> 0.83333; B reversed -> 0.83350)",
        fmt="SPL",
        evals=[
            ev(1, {"A": S2}, [E1_REF]),
            ev(2, {"A": S3}, [E1_REF]),
            ev(3, {"A": S4}, [E1_REF]),
            ev(4, {"B": S4}, [E1_REF]),
            ev(5, {"B": S3}, [E1_REF]),
            ev(6, {"B": S2}, [E1_REF]),
        ],
        opts="-n 1 -a",
    ),
    "opt_ids_sort_missing_peer_c90_r10": dict(
        desc="eval IDs 1,2,10,11 (string vs numeric sort), a peer missing from one EVAL, -c 90 -r 10",
        fmt="SPL",
        evals=[
            ev(1, {"s1": S2, "s2": S3}, [E1_REF]),
            ev(2, {"s1": S3, "s2": S4}, [E1_REF, ["the gunman was shot by police"]]),
            ev(10, {"s1": S4, "s2": ["police police gunman"]}, [E1_REF]),
            ev(11, {"s1": ["a gunman was killed by the police"]}, [["the gunman was shot by police"]]),
        ],
        opts="-n 2 -c 90 -r 10 -d -a",
    ),
    "opt_M_w15_c99_r100": dict(
        desc="-M (stem models only) with -2 1 -u -w 1.5 -c 99 -r 100",
        fmt="SEE",
        evals=[
            ev(
                1,
                {"c": ["the officers killed gunmen running away", "children went home"]},
                [
                    ["police officers killed the gunmen who were running", "the children went home"],
                    ["Gunmen killed by officers", "kids going home"],
                ],
            ),
            ev(
                2,
                {"c": ["agreements were signed", "arguments continued"]},
                [["the agreement was signed", "the argument continues"]],
            ),
        ],
        opts="-2 1 -u -w 1.5 -M -c 99 -r 100 -d -a",
    ),
    "opt_z_spl_list_sysid": dict(
        desc="-z SPL file list with system ID 26, -n 2 -2 0 -U -b 40",
        fmt="Z",
        sysid="26",
        evals=[
            ev(
                1,
                {"26": ["police kill the gunman", "then they left the city ."]},
                [E1_REF + ["they left the city afterwards"], ["the gunman was shot by police ."]],
            ),
            ev(2, {"26": ["the storm hit the coast on monday"]}, [["a storm hit the coast"]]),
        ],
        opts="-n 2 -2 0 -U -b 40 -d",
    ),
    "opt_sysid_r1_fB_p03_s9": dict(
        desc="one system ID (no -a), -r 1 (distorted interval), -f B, -p 0.3, -t 0, -2 9 -u",
        fmt="SPL",
        sysid="B",
        evals=[
            ev(1, {"A": S2, "B": S3}, [E1_REF, ["the gunman was shot by police"]]),
            ev(2, {"A": S4, "B": ["police kill the gunman"]}, [E1_REF]),
        ],
        opts="-2 9 -u -f B -p 0.3 -t 0 -r 1 -d",
    ),
    "opt_n4_sstar_m_s_l20_see": dict(
        desc="-n 4 -2 -1 -U -m -s -l 20 on SEE input, three references",
        fmt="SEE",
        evals=[
            ev(
                1,
                {
                    "11": ["The Officers said the gunmen were killed .", "Children went home early on Monday ."],
                    "12": ["Police killed two gunmen", "The children were sent home"],
                },
                [
                    ["Two gunmen were killed by police officers on Monday .", "Schools sent children home ."],
                    ["Police shot dead two gunmen .", "Children went home ."],
                    ["Gunmen killed ; children home"],
                ],
            ),
            ev(
                2,
                {
                    "11": ["Prices rose 3.5 percent in the U.S. market ."],
                    "12": ["U.S. prices rose sharply", "analysts were surprised"],
                },
                [["US prices rose by 3.5 % last month ."], ["Prices in the U.S. went up ."], ["Market prices rising"]],
            ),
        ],
        opts="-n 4 -2 -1 -U -m -s -l 20 -c 95 -r 1000 -a",
    ),
}


def _spl(sentences):
    return "".join(s + "\n" for s in sentences).encode("utf-8")


def _see(title, sentences):
    lines = ["<html>", "<head>", f"<title>{title}</title>", "</head>", '<body bgcolor="white">']
    for i, s in enumerate(sentences, 1):
        lines.append(f'<a name="{i}">[{i}]</a> <a href="#{i}" id={i}>{s}</a>')
    lines += ["</body>", "</html>"]
    return ("\n".join(lines) + "\n").encode("utf-8")


def write_inputs(case: dict, d: Path) -> list[str]:
    """Write the inputs of one case into d; return the script's arguments."""
    fmt = case["fmt"]
    file_fmt = "SPL" if fmt == "Z" else fmt
    ext = ".html" if file_fmt == "SEE" else ".spl"
    enc = (lambda name, s: _see(name, s)) if file_fmt == "SEE" else (lambda name, s: _spl(s))
    (d / "peers").mkdir(parents=True)
    (d / "models").mkdir(parents=True)
    xml = ['<ROUGE-EVAL version="1.0">']
    lst = []
    for e in case["evals"]:
        xml += [
            f'<EVAL ID="{e["id"]}">',
            "<PEER-ROOT>peers</PEER-ROOT>",
            "<MODEL-ROOT>models</MODEL-ROOT>",
            f'<INPUT-FORMAT TYPE="{file_fmt}"/>',
            "<PEERS>",
        ]
        peer_files = []
        for pid, sents in e["peers"].items():
            fn = f"{e['id']}.{pid}{ext}"
            (d / "peers" / fn).write_bytes(enc(fn, sents))
            xml.append(f'<P ID="{pid}">{fn}</P>')
            peer_files.append("peers/" + fn)
        xml += ["</PEERS>", "<MODELS>"]
        model_files = []
        for mid, sents in e["models"]:
            fn = f"{e['id']}.{mid}{ext}"
            (d / "models" / fn).write_bytes(enc(fn, sents))
            xml.append(f'<M ID="{mid}">{fn}</M>')
            model_files.append("models/" + fn)
        xml += ["</MODELS>", "</EVAL>"]
        lst.append(" ".join(peer_files[:1] + model_files))
    xml.append("</ROUGE-EVAL>")
    opts = shlex.split(case["opts"])
    sysid = [case["sysid"]] if case.get("sysid") else []
    if fmt == "Z":
        (d / "list.lst").write_text("\n".join(lst) + "\n")
        return [*opts, "-z", "SPL", "list.lst", *sysid]
    (d / "config.xml").write_text("\n".join(xml) + "\n", encoding="utf-8")
    return [*opts, "config.xml", *sysid]


def main(argv: list[str]) -> int:
    ok, why = reference_available()
    if not ok:
        print(f"reference not available: {why}", file=sys.stderr)
        return 1
    script = script_path()
    md5 = hashlib.md5(script.read_bytes()).hexdigest()
    perl_version = subprocess.run([perl_path(), "-e", "print $^V"], capture_output=True, text=True).stdout
    today = datetime.date.today().isoformat()
    names = [n for n in CASES if not argv or any(n.startswith(a) for a in argv)]
    for name in names:
        case = CASES[name]
        d = GOLDENS / name
        if d.exists():
            shutil.rmtree(d)
        d.mkdir(parents=True)
        args = write_inputs(case, d)
        rc, out, err = run_reference(args, cwd=d)
        cmd = reference_command(args)
        cmd_shown = ["perl", "ROUGE-1.5.5.pl", "-e", "<data folder>", *cmd[4:]]
        (d / "expected.out").write_bytes(out)
        (d / "command.txt").write_text(
            f"# {case['desc']}\n"
            f"# produced {today} by tools/make_goldens.py with ROUGE-1.5.5.pl (md5 {md5}) on perl {perl_version}\n"
            f"# <data folder> = WordNet-2.0.exc.db + smart_common_words.txt (tools/setup_reference_rouge.sh)\n"
            f"cd tests/goldens/{name} && {shlex.join(cmd_shown)}\n"
            f"args: {shlex.join(args)}\n"
            f"exit: {rc}\n"
        )
        status = "ok" if rc == 0 else f"exit {rc}: {err.decode('utf-8', 'replace').strip().splitlines()[-1:]}"
        print(f"{name:40s} {len(out):6d} bytes  {status}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
