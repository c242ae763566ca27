"""A blank summary (empty, or white space only: no words, it scores 0) is said by every front end, and every
front end finds the same ones. The test "is this text blank" is written in several places (rougekit.score's
lists and its Arrow buffers, the line-file readers whole and streamed, JSONL, Parquet, folders: session
20's review); one set of texts goes through all of them here, with the white space a copy could miss (no-break
and ideographic spaces, the separators Python splits lines at), so that no copy drifts from ``str.strip``.
The messages of each front end are held by its own tests (test_api, test_cli_score, test_cli_parquet_blank)."""

from __future__ import annotations

import contextlib
import io
import json
import re
import warnings

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import rougekit
from rougekit.cli.main import main
from rougekit.errors import BlankReferencesWarning

# one text a pair: blank ones (empty; ASCII, no-break, ideographic, line and file separators, vertical tab,
# next line) and others (words; a zero-width space, which is not white space; a word after a no-break space)
TEXTS = [
    "the cat sat",
    "",
    " \t ",
    "\u00a0",
    "a dog",
    "\u3000 ",
    "\u200b",
    "\u2028\u2029",
    "\x1c\x1d\x1e\x1f",
    "\x0b\x0c\x85",
    "\u00a0the end",
    "\u2003\u202f",
]
REFERENCES = TEXTS
CANDIDATES = TEXTS[3:] + TEXTS[:3]  # other rows blank
WANT_REFERENCES = [k + 1 for k, t in enumerate(REFERENCES) if not t.strip()]
WANT_CANDIDATES = [k + 1 for k, t in enumerate(CANDIDATES) if not t.strip()]


def _rows(text: str) -> list[int]:
    """The row, line or pair numbers a warning lists: ``(line 2, 5)``, ``(row 1)``, ``pair 2, 3``."""
    found = re.search(r"(?:line|row|pair) (\d+(?:, \d+)*)", text)
    assert found, text
    return [int(n) for n in found.group(1).split(", ")]


def _cli(*argv) -> str:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        assert main(["score", *map(str, argv), "--measures", "ROUGE-1", "--bootstrap", "none"]) == 0
    return err.getvalue()


def _said(err: str, what: str) -> list[int]:
    lines = [line for line in err.splitlines() if f"blank {what}" in line]
    assert len(lines) == 1, err  # said once
    return _rows(lines[0])


def _api(fast: bool, arrow: bool):
    def run(tmp_path):
        cands, refs = CANDIDATES, REFERENCES
        if arrow:
            cands, refs = pa.array(cands), pa.array(refs)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            rougekit.Scorer(["ROUGE-1"], bootstrap=None, fast=fast).score(cands, refs)
        said = [str(w.message) for w in caught if issubclass(w.category, BlankReferencesWarning)]
        assert len(said) == 1, said
        return None, _rows(said[0])  # (rougekit.score does not warn of blank candidates: an empty output is one)

    return run


def _line_files(*extra):
    def run(tmp_path):
        (tmp_path / "c.txt").write_text("".join(t + "\n" for t in CANDIDATES), encoding="utf-8")
        (tmp_path / "r.txt").write_text("".join(t + "\n" for t in REFERENCES), encoding="utf-8")
        err = _cli("-c", tmp_path / "c.txt", "-r", tmp_path / "r.txt", *extra)
        return _said(err, "candidate line"), _said(err, "reference line")

    return run


def _jsonl(tmp_path):
    rows = [{"c": c, "r": r} for c, r in zip(CANDIDATES, REFERENCES)]
    (tmp_path / "p.jsonl").write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    err = _cli("--jsonl", tmp_path / "p.jsonl", "--candidate-field", "c", "--reference-field", "r")
    return _said(err, "'c' candidate"), _said(err, "'r' reference")


def _parquet(*extra):
    def run(tmp_path):
        pq.write_table(pa.table({"c": CANDIDATES, "r": REFERENCES}), tmp_path / "p.parquet")
        err = _cli("--parquet", tmp_path / "p.parquet", "--candidate-column", "c", "--reference-column", "r", *extra)
        return _said(err, "'c' candidate"), _said(err, "'r' reference")

    return run


def _folders(tmp_path):
    (tmp_path / "sys").mkdir()
    (tmp_path / "ref").mkdir()
    for k, (c, r) in enumerate(zip(CANDIDATES, REFERENCES), start=1):
        (tmp_path / "sys" / f"d.{k}.txt").write_text(c, encoding="utf-8")
        (tmp_path / "ref" / f"d.A.{k}.txt").write_text(r, encoding="utf-8")
    err = _cli(
        "--candidate-dir", tmp_path / "sys", "--candidate-pattern", r"d\.(\d+)\.txt",
        "--reference-dir", tmp_path / "ref", "--reference-pattern", r"d\.A\.#ID#\.txt",
    )  # fmt: skip

    def numbers(what):  # the files named, by their number
        line = next(line for line in err.splitlines() if f"blank {what} file" in line)
        return sorted(int(n) for n in re.findall(r"d\.(?:A\.)?(\d+)\.txt", line))

    return numbers("candidate"), numbers("reference")


FRONT_ENDS = {
    "score lists": _api(fast=True, arrow=False),
    "score lists, pure Python": _api(fast=False, arrow=False),
    "score Arrow": _api(fast=True, arrow=True),
    "line files streamed": _line_files(),
    "line files read whole": _line_files("--export-rouge155", "run"),  # (run/: in tmp_path)
    "jsonl": _jsonl,
    "parquet streamed": _parquet(),
    "parquet read whole": _parquet("--per-pair", "--format", "json"),
    "folders": _folders,
}


@pytest.mark.parametrize("front_end", FRONT_ENDS)
def test_every_front_end_finds_the_blank_summaries_str_strip_finds(front_end, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert WANT_REFERENCES == [2, 3, 4, 6, 8, 9, 10, 12] and WANT_CANDIDATES == [1, 3, 5, 6, 7, 9, 11, 12]
    candidates, references = FRONT_ENDS[front_end](tmp_path)
    assert references == WANT_REFERENCES
    if candidates is not None:
        assert candidates == WANT_CANDIDATES


@pytest.mark.parametrize("engine_reads_arrow", ["1", "0"])
def test_a_blank_reference_in_a_list_of_references(engine_reads_arrow, tmp_path, monkeypatch):
    """A row's list of references with one blank among them is a blank reference, in every front end that
    takes lists (the Arrow columns read by the engine or as Python lists)."""
    monkeypatch.setenv("ROUGEKIT_ARROW", engine_reads_arrow)
    refs = [["the cat", "\u3000"], ["a dog"], ["", "x"], ["\u00a0y"]]
    cands = ["the cat", "a dog", "x", "y"]
    want = [1, 3]
    for given in (refs, pa.array(refs)):
        with pytest.warns(BlankReferencesWarning) as caught:
            rougekit.score(cands if isinstance(given, list) else pa.array(cands), given, bootstrap=None)
        assert _rows(str(caught[0].message)) == want
    rows = [{"c": c, "r": r} for c, r in zip(cands, refs)]
    (tmp_path / "p.jsonl").write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    err = _cli("--jsonl", tmp_path / "p.jsonl", "--candidate-field", "c", "--reference-field", "r")
    assert _said(err, "'r' reference") == want
    pq.write_table(pa.table({"c": cands, "r": refs}), tmp_path / "p.parquet")
    for extra in ([], ["--per-pair", "--format", "csv"]):
        err = _cli("--parquet", tmp_path / "p.parquet", "--candidate-column", "c", "--reference-column", "r", *extra)
        assert _said(err, "'r' reference") == want


def test_a_streams_blank_references_are_counted_and_the_first_ten_named():
    # score_stream keeps the first 10 pairs and a count (an endless stream keeps no growing list)
    scorer = rougekit.Scorer(["ROUGE-1"], bootstrap=None)
    pairs = [("a b", [" " if i % 3 == 0 else "a c"]) for i in range(40)]  # pairs 1, 4, ..., 40: 14 blank
    with pytest.warns(rougekit.errors.BlankReferencesWarning) as said:
        scorer.score_stream(iter(pairs), chunk_size=7)
    assert str(said[0].message).endswith("pair 1, 4, 7, 10, 13, 16, 19, 22, 25, 28, ... (14 in all)")
    assert str(said[0].message).startswith("14 pair(s) have a blank reference")
