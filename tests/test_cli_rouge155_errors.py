"""`rougekit rouge155` on bad input: one line on stderr, exit code 2, never a traceback."""

from __future__ import annotations

import contextlib
import io

import pytest

from rougekit.cli.main import main


def run(*argv):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["rouge155", *map(str, argv)])
    return code, out.getvalue(), err.getvalue()


@pytest.fixture
def config(tmp_path):
    (tmp_path / "p.spl").write_text("police kill the gunman\n")
    (tmp_path / "m.spl").write_text("police killed the gunman\n")
    xml = (
        f'<ROUGE-EVAL><EVAL ID="1"><PEER-ROOT>{tmp_path}</PEER-ROOT><MODEL-ROOT>{tmp_path}</MODEL-ROOT>'
        '<INPUT-FORMAT TYPE="SPL"/><PEERS><P ID="x">p.spl</P></PEERS><MODELS><M ID="a">m.spl</M></MODELS>'
        "</EVAL></ROUGE-EVAL>"
    )
    (tmp_path / "c.xml").write_text(xml)
    return tmp_path / "c.xml"


def one_line_error(code, out, err, *words):
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "Traceback" not in err
    for w in words:
        assert w in err


def test_ok(config):
    code, out, _ = run("-n", "1", "-a", config)
    assert code == 0 and "x ROUGE-1 Average_R: 0.75000" in out


@pytest.mark.parametrize(
    "argv,words",
    [
        (["-q", "-a"], ["unknown option -q"]),
        (["-n", "two", "-a"], ["-n", "number"]),
        (["-c", "120", "-a"], ["-c", "0 and 100"]),
        (["-p", "1.5", "-a"], ["-p"]),
        (["-r", "0", "-a"], ["-r"]),
        (["-w", "0", "-a"], ["-w"]),
        (["-l", "10", "-b", "20", "-a"], ["-l", "-b"]),
        (["-3", "XYZ", "-a"], ["-3"]),
        (["-z", "HTML"], ["-z"]),
        (["-n"], ["-n needs a value"]),
    ],
)
def test_bad_options(config, argv, words):
    code, out, err = run(*argv) if argv == ["-n"] else run(*argv, config)
    one_line_error(code, out, err, *words)


def test_needs_system_id(config):
    one_line_error(*run("-n", "1", config), "system ID")


def test_malformed_xml(tmp_path):
    (tmp_path / "bad.xml").write_text("<ROUGE-EVAL><EVAL ID='1'>")
    one_line_error(*run("-a", tmp_path / "bad.xml"), "bad.xml", "malformed XML")


def test_external_entities_refused(tmp_path):
    (tmp_path / "secret.txt").write_text("secret")
    (tmp_path / "xxe.xml").write_text(
        f'<?xml version="1.0"?><!DOCTYPE r [<!ENTITY e SYSTEM "file://{tmp_path}/secret.txt">]>'
        '<ROUGE-EVAL><EVAL ID="1"><PEER-ROOT>&e;</PEER-ROOT></EVAL></ROUGE-EVAL>'
    )
    one_line_error(*run("-a", tmp_path / "xxe.xml"), "xxe.xml", "unsafe XML")


def test_missing_files(config, tmp_path):
    one_line_error(*run("-a", tmp_path / "nope.xml"), "nope.xml")
    (tmp_path / "m.spl").unlink()
    one_line_error(*run("-n", "1", "-a", config), "m.spl")


def test_missing_peer_is_a_warning(config, tmp_path):
    code, out, err = run("-n", "1", config, "other")
    assert code == 0
    assert "*ROUGE Warning: test instance for peer other does not exist for evaluation 1" in err
    assert "other ROUGE-1 Average_R: 0.00000" in out


def test_non_utf8_bytes_are_read_as_bytes(config, tmp_path):
    (tmp_path / "p.spl").write_bytes(b"police kill the gunman caf\xe9 \xff\xfe\n")
    code, out, _ = run("-n", "1", "-a", config)
    # "caf" is a token of its own (each byte >= 0x80 separates): 3 hits of 5 candidate tokens
    assert code == 0 and "x ROUGE-1 Average_P: 0.60000" in out


def test_rouge_w_on_empty_reference_dies_cleanly(config, tmp_path):
    (tmp_path / "m.spl").write_text("...\n")
    one_line_error(*run("-w", "1.2", "-a", config), "ROUGE-W")
