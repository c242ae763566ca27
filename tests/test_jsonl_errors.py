"""Issue 24 (one JSONL reader, one error format): a bad line in any of the JSONL readers -- the score
inputs (io.inputs), the meta-evaluation tables (meta.tables), the protocol's data sets
(meta.protocol_data) and ``rougekit dedup`` -- is named ``FILE, line N: message``, N being the line of
the file the row starts on (counted by hand in each test), and the CLI exits 2 with that one line.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from _paths import subprocess_env

from rougekit.errors import InputError
from rougekit.io.inputs import read_jsonl
from rougekit.meta.protocol_data import load_jsonl, load_realsumm, load_summeval
from rougekit.meta.tables import read_table

BAD_JSON = '{"a": 1\n'  # an object that is not closed


def _write(path, lines: list[str]) -> str:
    path.write_text("".join(lines), encoding="utf-8")
    return str(path)


def _row(**fields) -> str:
    return json.dumps(fields) + "\n"


def _judged(**extra) -> dict:
    row = {"system": "s1", "instance": "d1", "candidate": "the cat", "references": ["a cat"], "human": {"q": 3}}
    return {**row, **extra}


# -- a line that is not JSON: the same words from every reader ----------------------------------------


def test_inputs_reader_names_the_bad_line(tmp_path):
    path = _write(tmp_path / "in.jsonl", [_row(c="the cat", r="a cat"), "\n", BAD_JSON])
    with pytest.raises(InputError, match=rf"^{path}, line 3: not valid JSON \("):
        read_jsonl(path, ["c"], ["r"])


def test_tables_reader_names_the_bad_line(tmp_path):
    path = _write(tmp_path / "t.jsonl", [_row(system="s1", instance="d1", x=1.0), BAD_JSON])
    with pytest.raises(InputError, match=rf"^{path}, line 2: not valid JSON \("):
        read_table(path)


def test_protocol_reader_names_the_bad_line(tmp_path):
    path = _write(tmp_path / "p.jsonl", [_row(**_judged()), "\n", "\n", BAD_JSON])
    with pytest.raises(InputError, match=rf"^{path}, line 4: not valid JSON \("):
        load_jsonl(path)


# -- a row the loader refuses: its line in the file, not its row number --------------------------------
# (on main these were "FILE:2: ..." -- a row count, off by the blank line before it)


def test_protocol_jsonl_names_the_line_of_a_bad_row(tmp_path):
    row = _judged()
    del row["candidate"]
    path = _write(tmp_path / "p.jsonl", [_row(**_judged()), "\n", _row(**row)])
    with pytest.raises(InputError) as err:
        load_jsonl(path)
    assert str(err.value) == f"{path}, line 3: missing field 'candidate'"


def test_protocol_jsonl_names_the_line_of_a_bad_score(tmp_path):
    path = _write(tmp_path / "p.jsonl", ["\n", _row(**_judged(human={"q": "high"}))])
    with pytest.raises(InputError) as err:
        load_jsonl(path)
    assert str(err.value) == f"{path}, line 2: a human score must be a number or null, got 'high'"


def test_protocol_jsonl_names_the_item_of_an_array(tmp_path):
    row = _judged(instance="d2")
    del row["references"]
    path = tmp_path / "p.json"
    path.write_text("[\n" + json.dumps(_judged()) + ",\n" + json.dumps(row) + "\n]\n", encoding="utf-8")
    with pytest.raises(InputError) as err:
        load_jsonl(path)
    assert str(err.value) == f"{path}, item 2 (line 3): missing field 'references'"


def test_summeval_names_the_line_of_a_bad_row(tmp_path):
    good = {"doc_id": "d1", "ref_summs": ["a cat"], "sys_summs": {"M1": {"sys_summ": "the cat", "scores": {}}}}
    path = _write(tmp_path / "summeval.jsonl", [_row(**good), "\n", _row(doc_id="d2", ref_summs=["x"])])
    with pytest.raises(InputError) as err:
        load_summeval(path)
    assert str(err.value) == f"{path}, line 3: expected SummEval fields doc_id, ref_summs, sys_summs"


def test_realsumm_names_the_line_of_a_bad_row(tmp_path):
    (tmp_path / "parity").mkdir()
    (tmp_path / "scores").mkdir()
    parity = {"subset": "abs", "system": "m1", "doc_id": 1, "peer_sentences": ["a"], "model_sentences": ["b"]}
    scores = {"subset": "abs", "system": "m1", "doc_id": 1, "scores": {"litepyramid_recall": 0.5}}
    _write(tmp_path / "scores" / "realsumm_summaries.jsonl", [_row(**scores)])
    path = _write(tmp_path / "parity" / "realsumm_rouge155_parity.jsonl", ["\n", _row(subset="abs", system="m2")])
    _write(tmp_path / "parity" / "ok.jsonl", [_row(**parity)])
    with pytest.raises(InputError) as err:
        load_realsumm(tmp_path)
    assert str(err.value) == f"{path}, line 2: missing field 'doc_id'"
    bad_score = dict(scores, scores={"litepyramid_recall": "x"})
    scores_path = _write(tmp_path / "scores" / "realsumm_summaries.jsonl", [_row(**scores), "\n", _row(**bad_score)])
    with pytest.raises(InputError) as err:
        load_realsumm(tmp_path / "parity" / "ok.jsonl")
    assert str(err.value) == f"{scores_path}, line 3: a human score must be a number or null, got 'x'"


def test_tables_name_standard_input_as_the_other_readers_do(monkeypatch):
    """A table read from standard input is named ``standard input`` in every message, as the reader names it."""
    import io

    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"system,x\n")))
    with pytest.raises(InputError) as err:
        read_table("-", instance_column=None)
    assert str(err.value) == "standard input, line 1: no rows"


# -- the CLI: that one line on stderr, exit 2 ---------------------------------------------------------


def _rk(*argv):
    return subprocess.run(
        [sys.executable, "-m", "rougekit", *map(str, argv)],
        capture_output=True,
        text=True,
        env=subprocess_env(),
        timeout=120,
    )


@pytest.mark.parametrize(
    "command",
    [
        lambda p: ("dedup", p, "--field", "text"),
        lambda p: ("protocol", "--dataset", "jsonl", p),
        lambda p: ("correlate", p, p),
    ],
    ids=["dedup", "protocol", "correlate"],
)
def test_cli_names_the_bad_line_and_exits_2(tmp_path, command):
    path = _write(tmp_path / "in.jsonl", [_row(text="the cat", system="s1", instance="d1", x=1.0), "\n", BAD_JSON])
    run = _rk(*command(path))
    assert run.returncode == 2, run.stderr
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1 and f"{path}, line 3: not valid JSON (" in lines[0], run.stderr
