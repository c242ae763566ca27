"""Issue 25 (reading input): one reader for every command, its shapes, encodings and limits.

Each test reproduces a finding of the issue; the expected values come from the same data read
in the plain form every version reads (JSONL rows, UTF-8 files) or are counted by hand.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys

import pytest
from _paths import subprocess_env

CANDS = ["police kill the gunman", "the cat sat on the mat", "a dog ran in the park"]
REFS = ["police killed the gunman", "the cat was on the mat", "dogs ran to the park"]


def rk(*argv, cwd=None, env=None, stdin=None, memory=None):
    """Run ``rougekit ARGV`` in a subprocess (optionally with an address-space cap in bytes)."""

    def cap():
        if memory:
            resource.setrlimit(resource.RLIMIT_AS, (memory, memory))

    full_env = subprocess_env(**(env or {}))  # the rougekit under test, wherever it is installed
    return subprocess.run(
        [sys.executable, "-m", "rougekit", *map(str, argv)],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=full_env,
        stdin=stdin,
        timeout=120,
        preexec_fn=cap,
    )


def one_error(run, *needles):
    assert run.returncode == 2, (run.returncode, run.stderr[-2000:])
    assert len(run.stderr.strip().splitlines()) == 1 and "Traceback" not in run.stderr, run.stderr[-2000:]
    for needle in needles:
        assert needle in run.stderr, (needle, run.stderr)


def per_pair(run) -> list:
    assert run.returncode == 0, run.stderr
    rows = [json.loads(line) for line in run.stdout.splitlines()]
    return [{k: v for k, v in row.items() if k != "system"} for row in rows]


# -- finding 2: column-shaped JSON --------------------------------------------------------------


def test_hf_style_column_json_is_asked_its_shape_then_read_as_columns(tmp_path):
    (tmp_path / "hf.json").write_text(json.dumps({"predictions": CANDS, "references": REFS}))
    (tmp_path / "rows.jsonl").write_text(
        "".join(json.dumps({"predictions": c, "references": r}) + "\n" for c, r in zip(CANDS, REFS))
    )
    args = ["--candidate-field", "predictions", "--reference-field", "references", "--measures", "ROUGE-1"]
    args += ["--format", "jsonl", "--per-pair", "--bootstrap", "none"]
    # both readings fit (a list of sentences and a list of references is one valid row): asked
    one_error(rk("score", "--jsonl", "hf.json", *args, cwd=tmp_path), "hf.json", "two ways", "--json-shape")
    columns = per_pair(rk("score", "--jsonl", "hf.json", "--json-shape", "columns", *args, cwd=tmp_path))
    rows = per_pair(rk("score", "--jsonl", "rows.jsonl", *args, cwd=tmp_path))
    assert len(columns) == 3 and columns == rows
    # pair 1 by hand: police, the, gunman of 4 tokens each side
    assert columns[0]["ROUGE-1"]["recall"] == 0.75


def test_column_json_of_different_lengths_is_refused_with_the_fix(tmp_path):
    (tmp_path / "hf.json").write_text(json.dumps({"predictions": CANDS, "references": REFS[:2]}))
    run = rk(
        "score",
        "--jsonl",
        "hf.json",
        "--candidate-field",
        "predictions",
        "--reference-field",
        "references",
        cwd=tmp_path,
    )
    one_error(run, "hf.json", "'predictions' has 3", "'references' has 2", "--json-shape rows")


ONE_ROW = {"prediction": ["the cat sat on the mat", "it was happy"], "references": ["a cat sat on a mat", "dogs bark"]}
SCORE_ONE = ["--candidate-field", "prediction", "--reference-field", "references", "--measures", "ROUGE-1"]
SCORE_ONE += ["--format", "jsonl", "--per-pair", "--bootstrap", "none"]


@pytest.mark.parametrize("name", ["one.jsonl", "one.ndjson", "one.txt"])
def test_a_one_line_jsonl_row_of_lists_is_one_pair(tmp_path, name):
    (tmp_path / name).write_text(json.dumps(ONE_ROW) + "\n")
    pairs = per_pair(rk("score", "--jsonl", name, *SCORE_ONE, cwd=tmp_path))
    # one pair with two references, counts summed over them (ROUGE-1.5.5's -f A): "a cat sat on a
    # mat" shares cat, sat, on, mat (4 of 6 tokens), "dogs bark" nothing (0 of 2) -> recall 4/8
    assert len(pairs) == 1
    assert pairs[0]["ROUGE-1"]["recall"] == 0.5
    # lists of different lengths in a .jsonl row: still one row, not a refusal
    three = dict(ONE_ROW, prediction=[*ONE_ROW["prediction"], "then it slept"])
    (tmp_path / name).write_text(json.dumps(three) + "\n")
    assert len(per_pair(rk("score", "--jsonl", name, *SCORE_ONE, cwd=tmp_path))) == 1


def test_a_json_object_read_two_ways_is_asked_and_the_option_chooses(tmp_path):
    (tmp_path / "one.json").write_text(json.dumps(ONE_ROW, indent=2))
    one_error(rk("score", "--jsonl", "one.json", *SCORE_ONE, cwd=tmp_path), "one.json", "two ways", "--json-shape")
    as_row = per_pair(rk("score", "--jsonl", "one.json", "--json-shape", "rows", *SCORE_ONE, cwd=tmp_path))
    assert len(as_row) == 1 and as_row[0]["ROUGE-1"]["recall"] == 0.5  # as in the JSONL test above
    cols = per_pair(rk("score", "--jsonl", "one.json", "--json-shape", "columns", *SCORE_ONE, cwd=tmp_path))
    # pair 1: "the cat sat on the mat" vs "a cat sat on a mat": cat sat on mat, 4 of 6
    # pair 2: "it was happy" vs "dogs bark": nothing in common
    assert [p["ROUGE-1"]["recall"] for p in cols] == [pytest.approx(4 / 6, abs=1e-5), 0.0]


def test_a_json_object_of_one_text_a_field_is_one_pair_either_way(tmp_path):
    """Lists of one string each: as one row (one sentence, one reference) or as columns (pair 0) it is
    the same pair, so nothing is asked (the readers' property test wrote such a file and was refused)."""
    (tmp_path / "one.json").write_text(json.dumps({"prediction": ["the cat sat"], "references": ["a cat sat"]}))
    got = per_pair(rk("score", "--jsonl", "one.json", *SCORE_ONE, cwd=tmp_path))
    assert len(got) == 1 and got[0]["ROUGE-1"]["recall"] == pytest.approx(2 / 3, abs=1e-5)  # cat, sat of 3
    for shape in ("rows", "columns"):
        assert per_pair(rk("score", "--jsonl", "one.json", "--json-shape", shape, *SCORE_ONE, cwd=tmp_path)) == got


@pytest.mark.parametrize(
    "extra, field, size",
    [({"tags": ["x"], "source": "hf"}, "'tags'", 1), ({"ids": [10, 11, 12, 13]}, "'ids'", 4)],
)
def test_dedup_column_json_with_a_list_of_another_length_is_refused(tmp_path, extra, field, size):
    texts = ["the cat sat on the mat", "the cat sat on the mat", "something else entirely here"]
    (tmp_path / "c.json").write_text(json.dumps({"text": texts, **extra}))
    run = rk("dedup", "c.json", "--field", "text", cwd=tmp_path)
    one_error(run, "c.json", field, f"{size} items", "'text' has 3")


@pytest.mark.parametrize(
    "data, kept, dropped_line",
    [  # CR-only line ends (old Mac, Excel), and a lone CR inside a quoted cell of an LF file
        (b"id,text\r1,the cat sat on the mat\r2,the cat sat on the mat\r3,dogs bark loudly\r", [1, 3], 3),
        (b'id,text\n1,"the cat\rsat on the mat"\n2,the cat sat on the mat\n3,dogs bark loudly\n', [1, 3], 4),
    ],
)
def test_dedup_csv_writes_the_kept_rows_whatever_the_line_breaks(tmp_path, data, kept, dropped_line):
    (tmp_path / "d.csv").write_bytes(data)
    run = subprocess.run(
        [sys.executable, "-m", "rougekit", "dedup", "d.csv", "--column", "text", "--dropped", "x.jsonl"],
        capture_output=True,
        cwd=tmp_path,
        env=subprocess_env(),
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    header, *rows = data.replace(b"\r\n", b"\n").split(b"\n" if b"\n" in data else b"\r")
    sep = b"\n" if b"\n" in data else b"\r"
    by_id = {row.split(b",", 1)[0]: row + sep for row in rows if row}
    assert run.stdout == header + sep + b"".join(by_id[str(k).encode()] for k in kept)
    (dropped,) = [json.loads(line) for line in (tmp_path / "x.jsonl").read_text().splitlines()]
    assert (dropped["index"], dropped["line"], dropped["match_index"]) == (1, dropped_line, 0)


@pytest.mark.parametrize(
    "lines, kept",
    [  # "[Music] hello there my friends" vs "hello there my friends": rougeL F of 4 shared tokens
        # of 5 and 4 is 8/9 > 0.7, dropped; the third line of the second file repeats the first
        (["[Music] hello there my friends", "hello there my friends", "something else entirely"], [0, 2]),
        (["[1] the cat sat on the mat", "[2] dogs bark loudly", "[1] the cat sat on the mat"], [0, 1]),
    ],
)
def test_dedup_reads_text_lines_starting_with_a_bracket_as_lines(tmp_path, lines, kept):
    (tmp_path / "subs.txt").write_text("\n".join(lines) + "\n")
    run = rk("dedup", "subs.txt", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert run.stdout == "".join(lines[k] + "\n" for k in kept)


# -- finding 7: dedup reads what score reads --------------------------------------------------------


def test_dedup_jsonl_without_field_is_refused_and_lists_the_fields(tmp_path):
    (tmp_path / "d.jsonl").write_text('{"t": "the cat sat", "x": 1}\n{"t": "the cat sat", "x": 2}\n')
    one_error(rk("dedup", "d.jsonl", cwd=tmp_path), "--field", "'t', 'x'")
    one_error(rk("dedup", "d.jsonl", "--field", "y", cwd=tmp_path), "d.jsonl, line 1: no field 'y'", "'t', 'x'")


def test_dedup_reads_json_arrays_and_columns_and_writes_them_back(tmp_path):
    items = [{"t": "the cat sat on the mat"}, {"t": "the cat sat on the mat"}, {"t": "dogs bark"}]
    (tmp_path / "a.json").write_text(json.dumps(items))
    run = rk("dedup", "a.json", "--field", "t", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout) == [items[0], items[2]]
    (tmp_path / "c.json").write_text(json.dumps({"t": [i["t"] for i in items], "id": [1, 2, 3]}))
    run = rk("dedup", "c.json", "--field", "t", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout) == {"t": ["the cat sat on the mat", "dogs bark"], "id": [1, 3]}


def test_column_json_nested_in_an_object_is_asked_its_shape_then_read_as_columns(tmp_path):
    """{"data": {"predictions": [...], "references": [...]}} with dotted fields: the same question and the
    same pairs as the flat object (it was read as one row, silently: one pair of 3 sentences)."""
    doc = {"meta": {"model": "x"}, "data": {"predictions": CANDS, "references": REFS}}
    (tmp_path / "nested.json").write_text(json.dumps(doc))
    (tmp_path / "rows.jsonl").write_text(
        "".join(json.dumps({"predictions": c, "references": r}) + "\n" for c, r in zip(CANDS, REFS))
    )
    args = ["--measures", "ROUGE-1", "--format", "jsonl", "--per-pair", "--bootstrap", "none"]
    nested = ["--candidate-field", "data.predictions", "--reference-field", "data.references", *args]
    one_error(rk("score", "--jsonl", "nested.json", *nested, cwd=tmp_path), "nested.json", "two ways", "--json-shape")
    columns = per_pair(rk("score", "--jsonl", "nested.json", "--json-shape", "columns", *nested, cwd=tmp_path))
    flat = ["--candidate-field", "predictions", "--reference-field", "references", *args]
    rows = per_pair(rk("score", "--jsonl", "rows.jsonl", *flat, cwd=tmp_path))
    assert len(columns) == 3 and columns == rows
    assert columns[0]["ROUGE-1"]["recall"] == 0.75  # police, the, gunman of 4 tokens each side
    one_row = per_pair(rk("score", "--jsonl", "nested.json", "--json-shape", "rows", *nested, cwd=tmp_path))
    assert len(one_row) == 1


def test_dedup_writes_nested_column_json_back_sliced(tmp_path):
    """Column-shaped JSON whose column sits in a nested object: every list of that object (and of the
    top level) is cut to the kept rows; other objects are written as they are."""
    texts = ["the cat sat on the mat", "the cat sat on the mat", "dogs bark"]
    doc = {"meta": {"ids": [9]}, "n": 3, "data": {"t": texts, "id": [1, 2, 3]}}
    (tmp_path / "c.json").write_text(json.dumps(doc))
    run = rk("dedup", "c.json", "--field", "data.t", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    want = {"meta": {"ids": [9]}, "n": 3, "data": {"t": [texts[0], texts[2]], "id": [1, 3]}}
    assert json.loads(run.stdout) == want
    doc["data"]["id"] = [1, 2]
    (tmp_path / "c.json").write_text(json.dumps(doc))
    one_error(rk("dedup", "c.json", "--field", "data.t", cwd=tmp_path), "'data.id' is a list of 2", "'data.t' has 3")


def test_dedup_keeps_crlf_line_endings(tmp_path):
    (tmp_path / "d.txt").write_bytes(b"the cat sat\r\nthe cat sat\r\na dog ran\r\n")
    run = subprocess.run(
        [sys.executable, "-m", "rougekit", "dedup", "d.txt"],
        capture_output=True,
        cwd=tmp_path,
        env=subprocess_env(),
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout == b"the cat sat\r\na dog ran\r\n"


# -- finding 8: byte order marks -----------------------------------------------------------------


@pytest.mark.parametrize("codec", ["utf-8-sig", "utf-16", "utf-16-le", "utf-16-be", "utf-32", "utf-32-be"])
def test_files_with_a_byte_order_mark_score_as_utf8(tmp_path, codec):
    text = "".join(c + "\r\n" for c in CANDS)
    mark = {"utf-16-le": "\ufeff", "utf-16-be": "\ufeff", "utf-32-be": "\ufeff"}.get(codec, "")
    (tmp_path / "c.txt").write_bytes((mark + text).encode(codec))
    (tmp_path / "r.txt").write_text("".join(r + "\n" for r in REFS), encoding="utf-8")
    (tmp_path / "c8.txt").write_text(text, encoding="utf-8")
    args = ["-r", "r.txt", "--measures", "ROUGE-1,ROUGE-2", "--format", "jsonl", "--per-pair", "--bootstrap", "none"]
    assert per_pair(rk("score", "-c", "c.txt", *args, cwd=tmp_path)) == per_pair(
        rk("score", "-c", "c8.txt", *args, cwd=tmp_path)
    )


def test_utf16_without_a_mark_is_named(tmp_path):
    (tmp_path / "c.txt").write_bytes("".join(c + "\n" for c in CANDS).encode("utf-16-le"))
    (tmp_path / "r.txt").write_text("".join(r + "\n" for r in REFS))
    one_error(rk("score", "-c", "c.txt", "-r", "r.txt", cwd=tmp_path), "c.txt, line 1", "UTF-16", "NUL")


# -- finding 9: a blank candidate line is warned about, not dropped -------------------------------------


def test_blank_candidate_line_is_warned_with_its_line_number(tmp_path):
    (tmp_path / "c.txt").write_text("police kill the gunman\n\nthe dog\n")
    (tmp_path / "r.txt").write_text("police killed the gunman\nthe cat\nthe dog\n")
    run = rk(
        "score", "-c", "c.txt", "-r", "r.txt", "--measures", "ROUGE-1", "--format", "jsonl", "--per-pair", cwd=tmp_path
    )
    rows = per_pair(run)
    assert [r["ROUGE-1"]["recall"] for r in rows] == [0.75, 0.0, 1.0]  # aligned: 3 pairs, the blank scores 0
    assert "c.txt: 1 blank candidate line(s) (line 2)" in run.stderr


# -- finding 15: limits, quoting, correlate, dedup measures ------------------------------------------


ENDLESS = [
    ["score", "-c", "/dev/zero", "-r", "r.txt"],
    ["score", "--jsonl", "/dev/zero", "--candidate-field", "a", "--reference-field", "b"],
    ["compare", "-c", "r.txt", "-c", "r.txt", "-r", "/dev/zero"],
    ["dedup", "/dev/zero"],
    ["extract", "/dev/zero", "r.txt"],
    ["correlate", "h.csv", "/dev/zero"],
    ["protocol", "--dataset", "jsonl", "/dev/zero"],
    ["report", "--result", "/dev/zero", "-o", "x.html"],
    ["files2rouge", "r.txt", "/dev/zero"],
    ["explain", "-c", "/dev/zero", "-r", "r.txt", "--line", "1"],
]


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="needs /dev/zero")
@pytest.mark.parametrize("argv", ENDLESS, ids=lambda a: a[0])
def test_an_endless_input_stops_at_a_named_limit(tmp_path, argv):
    (tmp_path / "r.txt").write_text("police killed the gunman\n")
    (tmp_path / "h.csv").write_text("system,h\nA,1\nB,2\n")
    run = rk(*argv, cwd=tmp_path, memory=1 << 31)
    one_error(run, "/dev/zero")
    assert "limit" in run.stderr or "NUL byte" in run.stderr, run.stderr  # the line limit, or its zeros seen first


def test_limits_can_be_set_and_are_named(tmp_path):
    (tmp_path / "c.txt").write_text("a b c\n" * 50 + "x" * 20 + "\n" + "y\n" * 20)
    run = rk("dedup", "c.txt", cwd=tmp_path, env={"ROUGEKIT_MAX_LINES": "10"})
    one_error(run, "c.txt, line 11", "more than 10 lines", "ROUGEKIT_MAX_LINES")
    run = rk("dedup", "c.txt", cwd=tmp_path, env={"ROUGEKIT_MAX_FILE_BYTES": "100"})
    one_error(run, "c.txt: larger than 100 bytes", "ROUGEKIT_MAX_FILE_BYTES")
    run = rk("dedup", "c.txt", cwd=tmp_path, env={"ROUGEKIT_MAX_LINE_BYTES": "10"})
    one_error(run, "c.txt, line 51: longer than 10 bytes", "ROUGEKIT_MAX_LINE_BYTES")


def test_streamed_score_keeps_only_the_limit_per_line(tmp_path):
    # score -c/-r reads line by line in flat memory: no limit on the file's size or lines
    (tmp_path / "c.txt").write_text("a b c\n" * 50 + "x" * 20 + "\n" + "y\n" * 20)
    run = rk(
        "score", "-c", "c.txt", "-r", "c.txt", cwd=tmp_path,
        env={"ROUGEKIT_MAX_LINES": "10", "ROUGEKIT_MAX_FILE_BYTES": "100"},
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert "scored: 1 system, 71 pairs" in run.stdout
    run = rk("score", "-c", "c.txt", "-r", "c.txt", cwd=tmp_path, env={"ROUGEKIT_MAX_LINE_BYTES": "10"})
    one_error(run, "c.txt, line 51: longer than 10 bytes", "ROUGEKIT_MAX_LINE_BYTES")


@pytest.mark.parametrize("codec", ["utf-16", "utf-32-be"])
def test_utf16_and_utf32_lines_are_counted_after_decoding(tmp_path, codec):
    # U+010A is the bytes 0A 01 in UTF-16 LE (01 0A in BE): a 0x0A byte that is no line break
    lines = ["\u010a\u010a\u010a the cat", "\u010a dogs bark", "\u0a0a a bird sang"]
    (tmp_path / "d.txt").write_bytes(("\n".join(lines) + "\n").encode(codec))
    if codec == "utf-32-be":
        (tmp_path / "d.txt").write_bytes(b"\0\0\xfe\xff" + (tmp_path / "d.txt").read_bytes())
    run = rk("dedup", "d.txt", cwd=tmp_path, env={"ROUGEKIT_MAX_LINES": "3", "ROUGEKIT_MAX_LINE_BYTES": "40"})
    assert run.returncode == 0, run.stderr
    assert run.stdout == "".join(line + "\n" for line in lines)  # no two share a word: all kept
    (tmp_path / "d.txt").write_bytes(("\n".join(lines + ["one more"]) + "\n").encode("utf-16"))
    run = rk("dedup", "d.txt", cwd=tmp_path, env={"ROUGEKIT_MAX_LINES": "3"})
    one_error(run, "d.txt, line 4", "more than 3 lines")


def test_a_json_document_after_a_utf8_byte_order_mark_has_no_line_limit(tmp_path):
    items = [{"t": f"the cat sat on the mat number {k}"} for k in range(3)] + [{"t": "dogs bark"}]
    (tmp_path / "a.json").write_bytes(b"\xef\xbb\xbf" + json.dumps(items).encode())
    run = rk("dedup", "a.json", "--field", "t", cwd=tmp_path, env={"ROUGEKIT_MAX_LINE_BYTES": "50"})
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout) == [items[0], items[3]]


def test_sentence_sep_splits_folder_files_and_variants_signatures_say_so(tmp_path):
    for d, text in (("c", "the cat sat<q>on the mat\n"), ("r", "the cat sat on the mat\n")):
        (tmp_path / d).mkdir()
        (tmp_path / d / "d1.txt").write_text(text)
    argv = ["score", "--candidate-dir", "c", "--candidate-pattern", r"(d\d)\.txt", "--reference-dir", "r"]
    argv += ["--reference-pattern", r"#ID#\.txt", "--measures", "ROUGE-L", "--format", "json", "--bootstrap", "none"]
    run = rk(*argv, "--sentence-sep", "<q>", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert "warning" not in run.stderr, run.stderr
    out = json.loads(run.stdout)
    # split: "the cat sat" / "on the mat" against "the cat sat on the mat": the union LCS covers
    # all 6 reference words and the candidate has 6 words -> R = P = 1 (unsplit, "<q>" is a 7th word)
    assert out["systems"]["c"]["ROUGE-L"]["f"] == 1.0 and "sent:<q>" in out["signature"]
    (tmp_path / "c.txt").write_text("the cat sat<q>on the mat\n")
    (tmp_path / "r.txt").write_text("the cat sat on the mat\n")
    run = rk(
        "variants",
        "-c",
        "c.txt",
        "-r",
        "r.txt",
        "--sentence-sep",
        "<q>",
        "--rows",
        "rouge155",
        "--format",
        "json",
        cwd=tmp_path,
    )
    assert run.returncode == 0, run.stderr
    (row,) = json.loads(run.stdout)["rows"]
    assert "|sent:<q>|" in row["signature"], row["signature"]


def test_json_rows_are_named_by_item_not_by_a_shared_line(tmp_path):
    items = [{"t": "the cat sat on the mat"}, {"t": "dogs bark"}, {"t": "the cat sat on the mat"}]
    (tmp_path / "a.json").write_text(json.dumps(items))  # one line: every item is on line 1
    run = rk("dedup", "a.json", "--field", "t", "--dropped", "x.jsonl", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    (dropped,) = [json.loads(line) for line in (tmp_path / "x.jsonl").read_text().splitlines()]
    assert (dropped["index"], dropped["where"], dropped["match_where"]) == (2, "item 3", "item 1")
    run = rk("extract", "a.json", "a.json", "--field", "t", "--limit", "1", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    last = json.loads(run.stdout.splitlines()[-1])
    assert last["query_where"] == "item 3" and last["matches"][0]["where"] == "item 1"
    (tmp_path / "h.json").write_text(
        json.dumps([{"system": "A", "s": 1}, {"system": "B", "s": 2}, {"system": "A", "s": 3}])
    )
    (tmp_path / "m.csv").write_text("system,m\nA,1\nB,2\n")
    one_error(rk("correlate", "m.csv", "h.json", cwd=tmp_path), "h.json, item 3: system 'A' repeats item 1")
    (tmp_path / "h.json").write_text(json.dumps([{"system": "A", "s": 1}, {"system": "B", "s": "high"}]))
    one_error(rk("correlate", "m.csv", "h.json", cwd=tmp_path), "h.json, item 2: column 's': 'high' is not a number")


@pytest.mark.parametrize("argv", [["score", "-c", "b.txt", "-r", "b.txt"], ["dedup", "b.txt"]], ids=["stream", "whole"])
def test_invalid_utf8_is_named_alike_streamed_or_whole(tmp_path, argv):
    (tmp_path / "b.txt").write_bytes(b"a b\nc d\nx \xff y\n")  # the bad byte: line 3, byte 2 (0-based)
    one_error(rk(*argv, cwd=tmp_path), "b.txt, line 3: invalid UTF-8 at byte 2")


def test_dedup_never_quotes_the_file(tmp_path):
    (tmp_path / "passwd").write_text("k7q:x:0:0:private-words:/root:/bin/sh\nother:x:1:1::/:/bin/sh\n")
    run = rk("dedup", "passwd", "--column", "text", cwd=tmp_path)
    one_error(run, "passwd, line 1: no column 'text'")
    assert "k7q" not in run.stderr and "private" not in run.stderr


def test_correlate_prints_no_note_before_its_error(tmp_path):
    (tmp_path / "m.csv").write_text("system,score\nA,0.1\nB,0.2\nX,0.3\n")
    (tmp_path / "h.csv").write_text("system,human\nA,1\nB,2\nY,3\n")
    one_error(rk("correlate", "m.csv", "h.csv", "--plot", tmp_path / "no" / "such" / "p", cwd=tmp_path), "plot")


def test_correlate_reads_json_arrays_and_columns(tmp_path):
    rows = [{"system": s, "score": v} for s, v in zip("ABCD", (0.1, 0.4, 0.2, 0.3))]
    (tmp_path / "m.csv").write_text("system,score\n" + "".join(f"{r['system']},{r['score']}\n" for r in rows))
    (tmp_path / "m.json").write_text(json.dumps(rows, indent=1))
    (tmp_path / "c.json").write_text(json.dumps({"system": list("ABCD"), "score": [0.1, 0.4, 0.2, 0.3]}))
    (tmp_path / "h.csv").write_text("system,human\nA,1\nB,4\nC,3\nD,2\n")
    expected = rk("correlate", "m.csv", "h.csv", "--format", "json", cwd=tmp_path)
    assert expected.returncode == 0, expected.stderr
    # ranks 1 4 2 3 vs 1 4 3 2: spearman 1 - 6 * 2 / (4 * 15) = 0.8
    assert json.loads(expected.stdout)["score"]["human"]["spearman"] == pytest.approx(0.8)
    for name in ("m.json", "c.json"):
        run = rk("correlate", name, "h.csv", "--format", "json", cwd=tmp_path)
        assert run.returncode == 0, run.stderr
        assert run.stdout == expected.stdout


def test_dedup_refuses_measures_it_cannot_score_in_bulk(tmp_path):
    (tmp_path / "d.txt").write_text("the cat sat\nthe cat sat\na dog\n")
    one_error(rk("dedup", "d.txt", "--measure", "BLEU", cwd=tmp_path), "--measure BLEU", "rougeL")
    one_error(rk("extract", "d.txt", "d.txt", "--measure", "ACCY", cwd=tmp_path), "--measure ACCY")
    run = rk("dedup", "d.txt", "--measure", "ROUGE-1", cwd=tmp_path)
    assert run.returncode == 0 and "(ROUGE-1 F > 0.7)" in run.stderr


def test_nested_column_of_objects_reads_its_dotted_field(tmp_path):
    """{"data": {"pred": [{"text": ...}], "ref": [...]}} with --candidate-field data.pred.text: one pair a
    position (it said "no field 'data.pred.text'"). By hand: 3 of 4 and 2 of 3 reference words matched."""
    doc = {"data": {"pred": [{"text": "the cat sat"}, {"text": "a dog"}], "ref": ["the cat sat on", "a dog ran"]}}
    (tmp_path / "n.json").write_text(json.dumps(doc))
    args = ["--candidate-field", "data.pred.text", "--reference-field", "data.ref", "--measures", "ROUGE-1"]
    rows = per_pair(
        rk("score", "--jsonl", "n.json", *args, "--format", "jsonl", "--per-pair", "--bootstrap", "none", cwd=tmp_path)
    )
    assert [r["ROUGE-1"]["recall"] for r in rows] == [0.75, 0.66667]
