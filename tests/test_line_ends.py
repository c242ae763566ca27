"""Line files with carriage-return line ends (qa21b F1): a file of ``\\r`` line ends and no ``\\n``
("classic Mac") is read as lines, as Python's universal newlines (files2rouge, pltrdy's
FilesRouge) read it; a lone ``\\r`` inside a line of an ``\\n`` file is kept as today and said.

Expected values: the same summaries written with ``\\n`` line ends (scored by the same command), and
ROUGE-1 counted by hand: "police kill the gunman" / "police killed the gunman": 3 of 4 unigrams
(R = P = F = 0.75); "the cat sat" / "the cat sat on the mat": 3 of 6 reference unigrams, 3 of 3
candidate ones (R 0.5, P 1, F 2/3 = 0.66667).
"""

from __future__ import annotations

import io
import sys

import pytest

from rougekit.cli.main import main
from rougekit.io import inputs, reader

CANDS = ["police kill the gunman", "the cat sat"]
REFS = ["police killed the gunman", "the cat sat on the mat"]
BY_HAND = ["1,0.75,0.75,0.75", "2,0.5,1.0,0.66667"]


def run(argv, capsys):
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def write(path, lines, end):
    path.write_bytes("".join(line + end for line in lines).encode())
    return path


def rows(out):
    return [line.split(",", 1)[1] for line in out.splitlines()[1:]]


@pytest.mark.parametrize("fmt", ["csv", "json"])  # csv: streamed (iter_aligned); json: read whole (read_lines)
def test_cr_only_files_score_as_lines(tmp_path, capsys, fmt):
    c, r = write(tmp_path / "c.txt", CANDS, "\r"), write(tmp_path / "r.txt", REFS, "\r")
    lf_c, lf_r = write(tmp_path / "lc.txt", CANDS, "\n"), write(tmp_path / "lr.txt", REFS, "\n")
    common = ["--per-pair", "--format", fmt, "--measures", "ROUGE-1", "--bootstrap", "none"]
    code, out, err = run(["score", "-c", str(c), "-r", str(r), *common], capsys)
    assert code == 0, err
    _, lf_out, _ = run(["score", "-c", str(lf_c), "-r", str(lf_r), *common], capsys)
    assert out.replace('"c"', '"lc"').replace("\nc,", "\nlc,") == lf_out
    if fmt == "csv":
        assert rows(out) == BY_HAND
    assert "warning" not in err


def test_cr_only_standard_input_scores_as_lines(tmp_path, capsys, monkeypatch):
    r = write(tmp_path / "r.txt", REFS, "\r")
    data = "".join(c + "\r" for c in CANDS).encode()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
    code, out, err = run(
        ["score", "-c", "-", "-r", str(r), "--per-pair", "--format", "csv", "--measures", "ROUGE-1"], capsys
    )
    assert code == 0, err
    assert rows(out) == BY_HAND


def test_a_lone_cr_inside_a_line_is_kept_and_said(tmp_path, capsys):
    # line 2 holds a lone \r: still one line (as before), read as a space; said once, naming the line
    c = tmp_path / "c.txt"
    c.write_bytes(b"police kill the gunman\r\nthe cat\rsat\r\n")
    r = write(tmp_path / "r.txt", REFS, "\n")
    for fmt in ("csv", "json"):
        code, out, err = run(
            ["score", "-c", str(c), "-r", str(r), "--per-pair", "--format", fmt, "--measures", "ROUGE-1"], capsys
        )
        assert code == 0, err
        if fmt == "csv":
            assert rows(out) == BY_HAND
        assert f"{c}, line 2: a carriage return (\\r) inside a line" in err
        assert err.count("carriage return") == 1


def test_crlf_and_trailing_cr_are_not_warned(tmp_path, capsys):
    c = tmp_path / "c.txt"
    c.write_bytes(b"police kill the gunman\r\r\nthe cat sat\r")  # a doubled \r before \n, none at the end
    r = write(tmp_path / "r.txt", REFS, "\r\n")
    code, out, err = run(
        ["score", "-c", str(c), "-r", str(r), "--per-pair", "--format", "csv", "--measures", "ROUGE-1"], capsys
    )
    assert code == 0, err
    assert rows(out) == BY_HAND
    assert "warning" not in err


def test_a_streamed_cr_file_with_a_later_lf_is_refused_naming_the_line(tmp_path, monkeypatch):
    # the first block decides the line ends; a \n after it is an error, never a silent merge
    monkeypatch.setattr(inputs, "_BLOCK", 8)
    path = tmp_path / "c.txt"
    path.write_bytes(b"aaaa\rbbbb\rcccc\rdddd\neeee\n")
    with pytest.raises(Exception, match=r"c\.txt, line 4: a \\n line end in a file whose lines end in \\r"):
        list(inputs._iter_lines(str(path), None, "strict"))


def test_a_cr_only_file_is_held_to_the_limit_per_line_by_its_lines(tmp_path, monkeypatch):
    monkeypatch.setenv("ROUGEKIT_MAX_LINE_BYTES", "64")
    reader.reset_limits()
    try:
        path = tmp_path / "c.txt"
        path.write_bytes(b"".join(b"line %d of the file\r" % k for k in range(100)))  # 2 KiB, lines < 64 bytes
        assert len(reader.lines(reader.read_text(str(path)))) == 100
        assert len(list(inputs._iter_lines(str(path), None, "strict"))) == 100
    finally:
        monkeypatch.delenv("ROUGEKIT_MAX_LINE_BYTES")
        reader.reset_limits()


def test_dedup_and_extract_read_cr_only_lines(tmp_path, capsys):
    texts = tmp_path / "d.txt"
    texts.write_bytes(b"a b c\rd e f\ra b c\r")
    kept = tmp_path / "k.txt"
    code, _, err = run(["dedup", str(texts), "-o", str(kept)], capsys)
    assert code == 0, err
    assert "kept 2 of 3 texts, dropped 1" in err
    assert kept.read_bytes() == b"a b c\rd e f\r"  # written back as read
    queries = tmp_path / "q.txt"
    queries.write_bytes(b"d e f\r")
    code, out, err = run(["extract", str(queries), str(texts), "--limit", "1"], capsys)
    assert code == 0, err
    assert '"line": 2' in out and '"choice": "d e f"' in out


def test_reader_lines_of_each_kind():
    assert reader.lines("a\rb\r") == ["a", "b"]
    assert reader.lines("a\r\rb") == ["a", "", "b"]
    assert reader.lines_with_ends("a\rb") == ["a\r", "b"]
    assert reader.lines("a\r\nb\r\n") == ["a", "b"]
    assert reader.lone_cr_line("a\r\nb\rc\r\n") == 2
    assert reader.lone_cr_line(b"a\r\r\nb\r") == 0


@pytest.mark.parametrize(
    ("data", "line"),
    [
        ("a\r\nb\rc\r\n", 2),  # as many \r as line ends, one of them lone: searched, found
        ("a\r\nb\r\nc\r", 0),  # stops before its last \n (a block of the streamed reader)
        ("a\r\nb\r\r\n", 0),  # a doubled \r before \n: a line end, not inside the line
        ("a\nb\nc\rd", 3),
    ],
)
def test_lone_cr_line_counts_then_searches(data, line):
    assert reader.lone_cr_line(data) == line
    assert reader.lone_cr_line(data.encode()) == line
