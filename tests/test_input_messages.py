"""Inputs read as meant, or refused with a message that says what the file is and what to do
(qa21b F2, F13, F4, F20, F21): each test fails on the message (or the silent reading) before."""

from __future__ import annotations

import bz2
import gzip
import io
import lzma
import sys

import pytest
from _cli import run

CANDS = "police kill the gunman\nthe cat sat\n"
REFS = "police killed the gunman\nthe cat sat on the mat\n"


COMPRESSED = {
    "gz": (gzip.compress, "gzip-compressed", "zcat"),
    "bz2": (bz2.compress, "bzip2-compressed", "bzcat"),
    "xz": (lzma.compress, "xz-compressed", "xzcat"),
    # zstd is not in the standard library: its frame's magic number, then bytes as a frame has them
    "zst": (lambda data: b"\x28\xb5\x2f\xfd\x24\x00\x01\x00\x00" + data, "zstd-compressed", "zstdcat"),
}


@pytest.mark.parametrize("kind", sorted(COMPRESSED))
def test_compressed_inputs_are_named_with_the_fix(tmp_path, capsys, monkeypatch, kind):
    squeeze, what, tool = COMPRESSED[kind]
    packed = tmp_path / f"c.txt.{kind}"
    packed.write_bytes(squeeze(CANDS.encode()))
    refs = tmp_path / "r.txt"
    refs.write_text(REFS)
    jsonl = tmp_path / f"x.jsonl.{kind}"
    jsonl.write_bytes(squeeze(b'{"p": "a b", "r": "a b"}\n'))
    expected = f"{packed} is {what}: decompress it first, or pipe it in as '-' ({tool} {packed} | rougekit ... -)"
    for argv in (
        ["score", "-c", packed, "-r", refs],  # streamed
        ["score", "-c", packed, "-r", refs, "--per-pair", "--format", "json"],  # read whole
        ["score", "-c", refs, "-r", packed],
        ["dedup", packed],
    ):
        code, _, err = run(*argv)
        assert code == 2
        assert err.strip() == f"rougekit {argv[0]}: error: {expected}", argv
    code, _, err = run(*["score", "--jsonl", jsonl, "--candidate-field", "p", "--reference-field", "r"])
    assert code == 2 and f"{jsonl} is {what}: decompress it first" in err
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(packed.read_bytes())))
    code, _, err = run(*["score", "-c", "-", "-r", refs])
    assert code == 2
    assert f"standard input is {what}: decompress it first ({tool} FILE | rougekit ... -)" in err


def test_text_that_starts_like_a_magic_number_is_read(tmp_path, capsys):
    # "BZh9..." and "PAR1 ..." are words a text may start with: only the whole magic number refuses
    path = tmp_path / "c.txt"
    path.write_text("BZh9 is a word\nPAR1 too\n")
    code, out, err = run(*["score", "-c", path, "-r", path, "--per-pair", "--format", "csv", "--measures", "ROUGE-1"])
    assert code == 0, err
    assert out.splitlines()[1:] == ["c,1,1.0,1.0,1.0", "c,2,1.0,1.0,1.0"]


def _jsonl(tmp_path, name, text):
    path = tmp_path / name
    path.write_bytes(text.encode() if isinstance(text, str) else text)
    return path


@pytest.mark.parametrize(
    ("refs", "expected"),
    [
        (
            '[{"text": "a b", "id": 3}]',
            "item 0 of field 'refs' is an object: each reference is a string or a list of sentence strings "
            "(to read each item's 'text': --reference-field refs.*.text)",
        ),
        ('["a b", null]', "item 1 of field 'refs' is null: each reference is a string or a list of sentence strings"),
        ('[["a b", 3]]', "item 0 of field 'refs' is a list holding a number (its item 1): each reference is"),
        (
            '{"text": "a b"}',
            "field 'refs' is an object: it must be a string (one reference) or a non-empty list of references "
            "(to read its 'text': --reference-field refs.text)",
        ),
    ],
)
def test_a_reference_of_the_wrong_shape_is_named_by_its_item(tmp_path, capsys, refs, expected):
    path = _jsonl(tmp_path, "x.jsonl", f'{{"p": "a b", "refs": {refs}}}\n')
    code, _, err = run(*["score", "--jsonl", path, "--candidate-field", "p", "--reference-field", "refs"])
    assert code == 2
    assert f"{path}, line 1: {expected}" in err


def test_the_dotted_field_the_message_suggests_reads_the_reference(tmp_path, capsys):
    path = _jsonl(tmp_path, "x.jsonl", '{"p": "a b c", "refs": [{"text": "a b", "id": 3}]}\n')
    argv = ["score", "--jsonl", path, "--candidate-field", "p", "--reference-field", "refs.0.text"]
    code, out, err = run(*[*argv, "--per-pair", "--format", "csv", "--measures", "ROUGE-1"])
    assert code == 0, err
    assert out.splitlines()[1] == "p,1,1.0,0.66667,0.8"  # 2 of 2 reference words, 2 of 3 candidate ones


def test_every_item_of_a_list_of_objects_is_a_reference_with_star(tmp_path, capsys):
    path = _jsonl(tmp_path, "x.jsonl", '{"p": "a b c", "refs": [{"text": "a b"}, {"text": "c d", "n": 1}]}\n')
    argv = ["score", "--jsonl", path, "--candidate-field", "p", "--reference-field", "refs.*.text"]
    code, out, err = run(*[*argv, "--per-pair", "--format", "csv", "--measures", "ROUGE-1"])
    assert code == 0, err
    # two references summed: a, b of the first and c of the second match (3 of 4 reference words);
    # 3 candidate words against each of the 2 references: P = 3 / 6; F = 2 * 0.75 * 0.5 / 1.25
    assert out.splitlines()[1] == "p,1,0.75,0.5,0.6"
    path.write_text('{"p": "a b c", "refs": [{"text": "a b"}, {"txt": "c d"}]}\n')
    code, _, err = run(*argv)
    assert code == 2
    assert f"{path}, line 1: no field 'refs.*.text': item 1 of 'refs' has no 'text' (it holds fields 'txt')" in err
    path.write_text('{"p": "a b c", "refs": [{"text": "a b"}, {"text": {"t": "c d"}}]}\n')
    code, _, err = run(*argv)
    assert code == 2
    assert "item 1 of field 'refs.*.text' is an object" in err and "--reference-field refs.*.text.t)" in err


def test_a_candidate_object_suggests_its_text_field(tmp_path, capsys):
    path = _jsonl(tmp_path, "x.jsonl", '{"p": {"lang": "en", "text": "a b"}, "r": "a b"}\n')
    code, _, err = run(*["score", "--jsonl", path, "--candidate-field", "p", "--reference-field", "r"])
    assert code == 2
    assert f"{path}, line 1: field 'p' is an object: it must be a string or a list of sentence strings" in err
    assert "(to read its 'text': --candidate-field p.text)" in err


def test_a_byte_order_mark_starting_a_later_jsonl_line_is_skipped(tmp_path, capsys):
    # two JSONL files concatenated, the second saved with a UTF-8 byte order mark (line 2)
    path = _jsonl(tmp_path, "ab.jsonl", b'{"p": "a b", "r": "a b"}\n\xef\xbb\xbf{"p": "a c", "r": "a b"}\n')
    argv = ["score", "--jsonl", path, "--candidate-field", "p", "--reference-field", "r"]
    code, out, err = run(*[*argv, "--per-pair", "--format", "csv", "--measures", "ROUGE-1"])
    assert code == 0, err
    assert out.splitlines()[1:] == ["p,1,1.0,1.0,1.0", "p,2,0.5,0.5,0.5"]
    kept = tmp_path / "kept.jsonl"
    code, _, err = run(*["dedup", path, "--field", "p", "-o", kept])  # the streamed JSONL reader
    assert code == 0, err
    assert "kept 2 of 2" in err


@pytest.mark.parametrize(
    ("value", "kind"), [("null", "null"), ("[1]", "a list"), ('{"n": 1}', "an object"), ("true", "true/false")]
)
def test_an_id_that_is_no_string_or_number_is_refused_naming_the_line(tmp_path, capsys, value, kind):
    path = _jsonl(
        tmp_path, "id.jsonl", f'{{"id": "a", "p": "a b", "r": "a b"}}\n{{"id": {value}, "p": "a c", "r": "a b"}}\n'
    )
    argv = ["score", "--jsonl", path, "--candidate-field", "p", "--reference-field", "r", "--id-field", "id"]
    code, out, err = run(*[*argv, "--per-pair", "--format", "jsonl"])
    assert code == 2 and out == ""
    assert err.strip() == f"rougekit score: error: {path}, line 2: field 'id' is {kind}: an id is a string or a number"


def test_ids_that_are_numbers_are_written_as_json_writes_them(tmp_path, capsys):
    path = _jsonl(tmp_path, "id.jsonl", '{"id": 7, "p": "a b", "r": "a b"}\n{"id": "x7", "p": "a c", "r": "a b"}\n')
    argv = ["score", "--jsonl", path, "--candidate-field", "p", "--reference-field", "r", "--id-field", "id"]
    code, out, err = run(*[*argv, "--per-pair", "--format", "csv", "--measures", "ROUGE-1"])
    assert code == 0, err
    assert out.splitlines()[1:] == ["p,7,1.0,1.0,1.0", "p,x7,0.5,0.5,0.5"]


def test_a_repeated_id_is_refused_when_per_pair_rows_are_keyed_by_it(tmp_path, capsys):
    path = _jsonl(tmp_path, "id.jsonl", '{"id": 1, "p": "a b", "r": "a b"}\n\n{"id": 1, "p": "a c", "r": "a b"}\n')
    argv = ["score", "--jsonl", path, "--candidate-field", "p", "--reference-field", "r", "--id-field", "id"]
    code, out, err = run(*[*argv, "--per-pair", "--format", "csv"])
    assert code == 2 and out == ""
    assert f"{path}, line 3: id '1' (field 'id') repeats line 1: the per-pair rows are keyed by it" in err
    code, out, err = run(*[*argv, "--measures", "ROUGE-1", "--bootstrap", "none"])  # corpus numbers only
    assert code == 0, err
    assert "p       ROUGE-1       0.75000   0.75000  0.75000" in out  # (1 + 0.5) / 2


def test_explain_reads_a_non_utf8_line_with_the_option_its_error_names(tmp_path, capsys):
    cand, ref = tmp_path / "c.txt", tmp_path / "r.txt"
    cand.write_bytes(b"caf\xe9 kill the gunman\n")
    ref.write_text("police killed the gunman\n")
    argv = ["explain", "--line", "1", "-c", cand, "-r", ref, "--measures", "ROUGE-1", "--format", "json"]
    code, _, err = run(*argv)
    assert code == 2
    assert f"{cand}, line 1: invalid UTF-8 at byte 3 (use --encoding-errors replace to read it anyway)" in err
    code, out, err = run(*[*argv, "--encoding-errors", "replace"])
    assert code == 0, err
    assert '"tokens": ["caf", "kill", "the", "gunman"]' in out  # U+FFFD is no letter: "caf" then the words
    code, _, err = run(*["explain", "-c", "a b", "-r", "a b", "--encoding-errors", "replace"])
    assert code == 2 and "--encoding-errors applies to files read with --line" in err


@pytest.mark.parametrize("name", ["pr.csv", "pr.jsonl"])
def test_score_jsonl_given_a_csv_says_it_is_csv(tmp_path, capsys, name):
    path = _jsonl(tmp_path, name, "pred,ref\npolice kill the gunman,police killed the gunman\n")
    code, _, err = run(*["score", "--jsonl", path, "--candidate-field", "pred", "--reference-field", "ref"])
    assert code == 2
    assert f"{path} is CSV (columns: 'pred', 'ref'), not JSON: --jsonl reads JSONL or JSON; convert it" in err


def test_a_csv_with_carriage_return_line_ends_given_as_jsonl(tmp_path):
    # Excel's "CSV (Macintosh)": the header check split at \n only, and the csv module raised a traceback
    path = tmp_path / "mac.csv"
    path.write_bytes(b"p,r\rthe cat,the cat sat\r")
    code, _, err = run("score", "--jsonl", path, "--candidate-field", "p", "--reference-field", "r")
    assert code == 2
    assert "mac.csv is CSV (columns: 'p', 'r'), not JSON" in err
