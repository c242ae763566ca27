"""`rougekit rouge155` reproduces the official ROUGE-1.5.5 sample outputs and the SummEval goldens
byte for byte.

* ``../shared/data/rouge155-sample-test``: the 17 expected outputs shipped with ROUGE-1.5.5, with
  the commands from its README, run from inside its (read-only) ``sample-test/`` folder.
* ``../shared/data/summeval/rouge155_goldens``: raw stdout of ROUGE-1.5.5.pl on 100 docs x 16
  systems x 11 references, ``-f A`` and ``-f B``. The inputs are rebuilt from ``inputs.json`` as
  SPL files (one sentence a line) with an XML config whose EVAL IDs are the doc IDs (this
  rebuild was checked to give the goldens byte for byte with the Perl script).

Skips when ``../shared`` is missing. No Perl needed.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest
from _paths import SHARED, shared_missing
from reference_rouge import first_difference, rougekit_available, run_rougekit

SAMPLE = SHARED / "data" / "rouge155-sample-test"
SUMMEVAL = SHARED / "data" / "summeval" / "rouge155_goldens"

_BASE = "-c 95 -2 -1 -U -r 1000 -n 4 -w 1.2".split()

# expected output file -> the script's arguments (README of rouge155-sample-test)
SAMPLE_CASES: dict[str, list[str]] = {
    "ROUGE-test-c95-2-1-U-r1000-n4-w1.2-a.out": [*_BASE, "-a", "ROUGE-test.xml"],
    "ROUGE-test-c95-2-1-U-r1000-n4-w1.2-a-m.out": [*_BASE, "-a", "-m", "ROUGE-test.xml"],
    "ROUGE-test-c95-2-1-U-r1000-n4-w1.2-a-m-s.out": [*_BASE, "-a", "-m", "-s", "ROUGE-test.xml"],
    "ROUGE-test-c95-2-1-U-r1000-n4-w1.2-l10-a.out": [*_BASE, "-l", "10", "-a", "ROUGE-test.xml"],
    "ROUGE-test-c95-2-1-U-r1000-n4-w1.2-l10-a-m.out": [*_BASE, "-l", "10", "-a", "-m", "ROUGE-test.xml"],
    "ROUGE-test-c95-2-1-U-r1000-n4-w1.2-l10-a-m-s.out": [*_BASE, "-l", "10", "-a", "-m", "-s", "ROUGE-test.xml"],
    "ROUGE-test-c95-2-1-U-r1000-n4-w1.2-b75-a.out": [*_BASE, "-b", "75", "-a", "ROUGE-test.xml"],
    "ROUGE-test-c95-2-1-U-r1000-n4-w1.2-b75-a-m.out": [*_BASE, "-b", "75", "-a", "-m", "ROUGE-test.xml"],
    "ROUGE-test-c95-2-1-U-r1000-n4-w1.2-b75-a-m-s.out": [*_BASE, "-b", "75", "-a", "-m", "-s", "ROUGE-test.xml"],
    "verify-c95-2-1-U-r1000-n4-w1.2-b75-a-m-s.out": [*_BASE, "-b", "75", "-a", "-m", "-s", "verify.xml"],
    "verify-spl-c95-2-1-U-r1000-n4-w1.2-b75-a-m-s.out": [*_BASE, "-b", "75", "-a", "-m", "-s", "verify-spl.xml"],
    "DUC2002-ROUGE.in.26.spl.out": ["-n", "4", "DUC2002-ROUGE.in.26.spl.xml", "26"],
    "DUC2002-ROUGE.in.26.spl.lst.out": ["-n", "4", "-z", "SPL", "DUC2002-ROUGE.in.26.spl.lst", "26"],
    "DUC2002-BE-F.in.26.simple.out": ["-3", "HM", "DUC2002-BE-F.in.26.simple.xml", "26"],
    "DUC2002-BE-L.in.26.simple.out": ["-3", "HM", "DUC2002-BE-L.in.26.simple.xml", "26"],
    "DUC2002-BE-F.in.26.lst.out": ["-3", "HM", "-z", "SIMPLE", "DUC2002-BE-F.in.26.lst", "26"],
    "DUC2002-BE-L.in.26.lst.out": ["-3", "HM", "-z", "SIMPLE", "DUC2002-BE-L.in.26.lst", "26"],
}

SUMMEVAL_CASES = {
    "A": "-c 95 -r 1000 -n 4 -w 1.2 -2 4 -u -m -a -d -f A".split(),
    "B": "-c 95 -r 1000 -n 2 -2 4 -u -m -s -a -d -f B".split(),
}


def _need_rougekit():
    ok, why = rougekit_available()
    if not ok:
        pytest.skip(why)


@pytest.mark.shared  # the sample test's notice does not allow redistribution: not in tests/data
@pytest.mark.parametrize("expected_name", sorted(SAMPLE_CASES))
def test_official_sample_output(expected_name):
    if not SAMPLE.is_dir():
        pytest.skip(shared_missing(SAMPLE))
    _need_rougekit()
    expected = (SAMPLE / "sample-output" / expected_name).read_bytes()
    args = SAMPLE_CASES[expected_name]
    rc, out, err = run_rougekit(args, cwd=SAMPLE / "sample-test")
    assert rc == 0, f"rougekit rouge155 {' '.join(args)} exited {rc}: {err.decode('utf-8', 'replace')[-2000:]}"
    assert out == expected, f"rougekit rouge155 {' '.join(args)}\n" + first_difference(expected, out)


def write_summeval_inputs(dest: Path) -> Path:
    """Write the SummEval ROUGE inputs (SPL files + cfg.xml) into ``dest``; return the config path."""
    data = json.loads((SUMMEVAL / "inputs.json").read_text(encoding="utf-8"))
    (dest / "models").mkdir(parents=True, exist_ok=True)
    (dest / "peers").mkdir(parents=True, exist_ok=True)

    def write(path: Path, sentences: list[str]) -> None:
        path.write_bytes(b"".join(s.encode("utf-8") + b"\n" for s in sentences))

    lines = ['<ROUGE-EVAL version="1.0">']
    for k, doc in enumerate(data["docs"]):
        lines += [
            f'<EVAL ID="{doc["doc_id"]}">',
            "<PEER-ROOT>peers</PEER-ROOT>",
            "<MODEL-ROOT>models</MODEL-ROOT>",
            '<INPUT-FORMAT TYPE="SPL"/>',
            "<PEERS>",
        ]
        for sid, sentences in doc["peers"].items():
            write(dest / "peers" / f"{k}.{sid}", sentences)
            lines.append(f'<P ID="{sid}">{k}.{sid}</P>')
        lines += ["</PEERS>", "<MODELS>"]
        for mid, sentences in zip(doc["model_ids"], doc["model_sentences"]):
            write(dest / "models" / f"{k}.{mid}", sentences)
            lines.append(f'<M ID="{mid}">{k}.{mid}</M>')
        lines += ["</MODELS>", "</EVAL>"]
    lines.append("</ROUGE-EVAL>")
    cfg = dest / "cfg.xml"
    cfg.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return cfg


@pytest.fixture(scope="module")
def summeval_dir(tmp_path_factory):
    if not (SUMMEVAL / "inputs.json").is_file():
        pytest.skip(shared_missing(SUMMEVAL / "inputs.json"))
    dest = tmp_path_factory.mktemp("summeval")
    write_summeval_inputs(dest)
    return dest


@pytest.mark.parametrize("config", sorted(SUMMEVAL_CASES))
def test_summeval_golden(config, summeval_dir):
    _need_rougekit()
    expected = gzip.decompress((SUMMEVAL / f"config{config}_raw_output.txt.gz").read_bytes())
    args = [*SUMMEVAL_CASES[config], "cfg.xml"]
    rc, out, err = run_rougekit(args, cwd=summeval_dir)
    assert rc == 0, f"rougekit rouge155 {' '.join(args)} exited {rc}: {err.decode('utf-8', 'replace')[-2000:]}"
    assert out == expected, f"rougekit rouge155 {' '.join(args)} (SummEval config {config})\n" + first_difference(
        expected, out
    )
