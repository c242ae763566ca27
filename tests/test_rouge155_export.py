"""`score --average rouge155` prints what ROUGE-1.5.5.pl prints for the run `--export-rouge155` writes.

The differential tests run the real script (tests/reference_rouge.py) in the exported folder with
the arguments of DIR/command.txt and compare every Average_R/P/F and interval bound, as printed.
"""

from __future__ import annotations

import contextlib
import io
import json
import random
import re

import pytest
from reference_rouge import reference_available, run_reference

import rougekit
from rougekit.cli.main import main
from rougekit.errors import OptionError
from rougekit.io.rouge155_export import eval_ids, script_arguments

WORDS = "the a police gunman killed kill cat sat on mat dog ran shot was by report-ed Storm city 1990s".split()

_AVAILABLE, _WHY = reference_available()
needs_perl = pytest.mark.skipif(not _AVAILABLE, reason=_WHY)

LINE = re.compile(r"^(\S+) (\S+) Average_([RPF]): (\S+) \((\S+)%-conf\.int\. (\S+) - (\S+)\)$")


def run(*argv):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["score", *map(str, argv)])
    return code, out.getvalue(), err.getvalue()


def _summary(rng: random.Random) -> str:
    sentences = [" ".join(rng.choice(WORDS) for _ in range(rng.randint(2, 9))) for _ in range(rng.randint(1, 3))]
    return "<q>".join(sentences)


@pytest.fixture
def corpus(tmp_path):
    """Two systems and two references over 12 pairs (eval IDs 01..12: string order = input order)."""
    rng = random.Random(12)
    for name in ("sysA", "sysB", "ref1", "ref2"):
        (tmp_path / f"{name}.txt").write_text("\n".join(_summary(rng) for _ in range(12)) + "\n")
    return tmp_path


def _script_numbers(stdout: str) -> dict:
    """{(peer, measure): {"recall": (avg, low, high), ...}} from the script's output, as printed."""
    out: dict = {}
    for line in stdout.splitlines():
        m = LINE.match(line)
        if m:
            key = {"R": "recall", "P": "precision", "F": "f"}[m.group(3)]
            out.setdefault((m.group(1), m.group(2)), {})[key] = (m.group(4), m.group(6), m.group(7))
    return out


def _ours(systems: dict) -> dict:
    out = {}
    for peer, measures in systems.items():
        for name, v in measures.items():
            out[(peer, name)] = {
                k: tuple(f"{x:7.5f}" for x in (v[k], v["interval"][k]["low"], v["interval"][k]["high"]))
                for k in ("recall", "precision", "f")
            }
    return out


OPTION_SETS = [
    ["--measures", "ROUGE-1,ROUGE-2,ROUGE-L", "--stem"],
    ["--measures", "ROUGE-1,ROUGE-W-1.2,ROUGE-SU4", "--multi-ref", "best", "--alpha", "0.8"],
    ["--measures", "ROUGE-2,ROUGE-S4,ROUGE-SU4", "--stopwords", "--word-limit", "6", "--confidence", "90"],
    ["--measures", "ROUGE-L,ROUGE-S*", "--byte-limit", "30", "--resamples", "333", "--confidence", "97.5"],
]


@needs_perl
@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: o[1])
def test_average_rouge155_is_what_the_script_prints_for_the_export(corpus, options):
    export = corpus / "run"
    files = ["-c", corpus / "sysA.txt", "-c", corpus / "sysB.txt", "-r", corpus / "ref1.txt", "-r", corpus / "ref2.txt"]
    code, out, err = run(
        *files,
        "--sentence-sep",
        "<q>",
        *options,
        "--average",
        "rouge155",
        "--format",
        "json",
        "--export-rouge155",
        export,
    )
    assert code == 0, err
    ours = _ours(json.loads(out)["systems"])
    args = (export / "command.txt").read_text().split()
    rc, stdout, stderr = run_reference(args, cwd=export)
    assert rc == 0, stderr.decode()
    script = _script_numbers(stdout.decode())
    assert set(ours) <= set(script) and {peer for peer, _ in script} == {"sysA", "sysB"}
    for key, values in ours.items():
        assert values == script[key], key
    # the default corpus number is the plain mean, and it is labelled as such
    code, out, _ = run(*files, "--sentence-sep", "<q>", *options, "--format", "json")
    plain = json.loads(out)
    assert plain["average"] == "mean of per-pair scores"
    assert "avg:pairs" in plain["signature"]


@needs_perl
def test_given_ids_are_the_eval_ids_sorted_as_strings(tmp_path):
    # IDs d1, d10, d2, ...: the script bootstraps over them sorted as strings, and so does rougekit
    rng = random.Random(5)
    rows = [
        {"id": f"d{k}", "a": _summary(rng), "b": _summary(rng), "refs": [_summary(rng), _summary(rng)]}
        for k in range(1, 13)
    ]
    data = tmp_path / "data.jsonl"
    data.write_text("".join(json.dumps(r) + "\n" for r in rows))
    export = tmp_path / "run"
    code, out, err = run(
        "--jsonl", data, "--candidate-field", "a", "--candidate-field", "b", "--reference-field", "refs",
        "--id-field", "id", "--sentence-sep", "<q>", "--measures", "ROUGE-1,ROUGE-2", "--average", "rouge155",
        "--format", "json", "--export-rouge155", export,
    )  # fmt: skip
    assert code == 0, err
    config = (export / "config.xml").read_text()
    assert '<EVAL ID="d10">' in config and '<P ID="a">' in config
    rc, stdout, stderr = run_reference((export / "command.txt").read_text().split(), cwd=export)
    assert rc == 0, stderr.decode()
    assert _ours(json.loads(out)["systems"]) == _script_numbers(stdout.decode())


def test_export_layout_and_command(corpus):
    export = corpus / "run"
    code, _, err = run(
        "-c", corpus / "sysA.txt", "-r", corpus / "ref1.txt", "--measures", "ROUGE-2,ROUGE-SU4", "--stem",
        "--export-rouge155", export,
    )  # fmt: skip
    assert code == 0, err
    assert (export / "command.txt").read_text() == "-c 95 -r 1000 -n 2 -x -2 4 -u -m -f A -p 0.5 -t 0 -a config.xml\n"
    config = (export / "config.xml").read_text()
    assert [int(i) for i in re.findall(r'<EVAL ID="(\d\d)">', config)] == list(range(1, 13))
    first_ref = (corpus / "ref1.txt").read_text().splitlines()[0]
    assert (export / "models" / "01.1.txt").read_text() == first_ref + "\n"  # no --sentence-sep: one sentence
    # not over an earlier export
    code, _, err = run("-c", corpus / "sysA.txt", "-r", corpus / "ref1.txt", "--export-rouge155", export)
    assert code == 2 and "is not empty" in err


def test_eval_ids_are_zero_padded_positions():
    assert eval_ids(None, 3) == ["1", "2", "3"]
    assert eval_ids(None, 12)[:3] == ["01", "02", "03"]
    assert sorted(eval_ids(None, 120)) == eval_ids(None, 120)
    assert eval_ids(["b", "a"], 2) == ["b", "a"]


@pytest.mark.parametrize(
    "options, message",
    [
        ({"measures": ["BLEU"]}, "does not compute BLEU"),
        ({"multi_ref": "jackknife"}, "jackknife"),
        ({"multi_ref": "max"}, "max"),
        ({"tokenizer": "unicode"}, "tokenizer"),
        ({"measures": ["ROUGE-S4", "ROUGE-SU9"]}, "one skip distance"),
    ],
)
def test_options_the_script_lacks_are_refused(options, message):
    with pytest.raises(OptionError, match=message):
        script_arguments(rougekit.Scorer(**options))


def test_average_rouge155_needs_the_scripts_bootstrap():
    with pytest.raises(OptionError, match="bootstrap='rouge155'"):
        rougekit.Scorer(average="rouge155", bootstrap="percentile")
    with pytest.raises(OptionError, match="average must be one of pairs, tokens, rouge155"):
        rougekit.Scorer(average="mean")


def test_average_rouge155_in_input_order_without_ids():
    # 12 pairs without ids: eval IDs 01..12, so the script's order is the input order
    from rougekit.stats.perl_bootstrap import perl_bootstrap

    cands = ["a b c d"] * 6 + ["a"] * 6
    r = rougekit.score(cands, ["a b c d"] * 12, measures=["ROUGE-1"], average="rouge155")
    rows = [[1.0, 1.0, 1.0]] * 6 + [[0.25, 1.0, 0.4]] * 6
    expected = perl_bootstrap(rows, 1000, 95).average
    assert tuple(r.to_dict()["ROUGE-1"][k] for k in ("recall", "precision", "f")) == expected
    assert r.to_dict()["ROUGE-1"]["recall"] != pytest.approx(sum(x[0] for x in rows) / 12, abs=1e-9)
    assert "avg:rouge155" in str(r.signature)


@needs_perl
def test_format_rouge155_is_the_scripts_output_whatever_the_measures_order(corpus):
    """`--format rouge155 --per-pair` is the script's `-d` output byte for byte, its blocks in the script's
    order (N, L, W, SU) though --measures names them otherwise (they came in --measures order)."""
    export = corpus / "run"
    measures = "ROUGE-SU4,ROUGE-L,ROUGE-W-1.2,ROUGE-2,ROUGE-1"
    files = ["-c", corpus / "sysA.txt", "-r", corpus / "ref1.txt", "-r", corpus / "ref2.txt", "--sentence-sep", "<q>"]
    code, out, err = run(
        *files, "--measures", measures, "--average", "rouge155", "--format", "rouge155", "--per-pair",
        "--export-rouge155", export,
    )  # fmt: skip
    assert code == 0, err
    args = (export / "command.txt").read_text().split()
    rc, stdout, stderr = run_reference(["-d", *args], cwd=export)
    assert rc == 0, stderr.decode()
    assert out == stdout.decode()
