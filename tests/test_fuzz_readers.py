"""Reader fuzz (issue 17): malformed files (truncated, binary, huge lines, mutations of valid ones)
give a value or an ``InputError`` naming the file, never another exception.

Readers: the ROUGE-EVAL XML configuration, the ``-z`` file lists, SEE/SPL/ISI summaries and
Basic-Element (SIMPLE) files, the line and JSONL inputs of ``rougekit score``, the score tables
of ``rougekit correlate`` and the JSONL datasets of ``rougekit protocol``. A longer run:
``ROUGEKIT_HYPOTHESIS_EXAMPLES=2000 pytest tests/test_fuzz_readers.py``.
"""

from __future__ import annotations

import os
import tempfile

import pytest

pytest.importorskip("hypothesis", reason="the reader fuzz needs hypothesis (the test extra)")
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from rougekit.errors import InputError  # noqa: E402
from rougekit.io import inputs  # noqa: E402
from rougekit.io.rouge155_config import read_file_list, read_xml_config  # noqa: E402
from rougekit.meta.protocol import load_jsonl  # noqa: E402
from rougekit.meta.tables import read_table  # noqa: E402
from rougekit.text import rouge155 as text  # noqa: E402
from rougekit.text.basic_elements import be_keys  # noqa: E402

EXAMPLES = int(os.environ.get("ROUGEKIT_HYPOTHESIS_EXAMPLES", "40"))
PROFILE = settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

CONFIG = (
    b'<?xml version="1.0"?>\n<ROUGE-EVAL version="1.0">\n<EVAL ID="1">\n<PEER-ROOT>p</PEER-ROOT>\n'
    b'<MODEL-ROOT>m</MODEL-ROOT>\n<INPUT-FORMAT TYPE="SPL">\n</INPUT-FORMAT>\n<PEERS>\n<P ID="A">a.spl</P>\n'
    b'</PEERS>\n<MODELS>\n<M ID="1">b.spl</M>\n<M ID="2">c.spl</M>\n</MODELS>\n</EVAL>\n</ROUGE-EVAL>\n'
)
SEE = b'<html>\n<a name="1">[1]</a> <a href="#1" id=1>the cat sat</a>\n<a name="2">[2]</a> <a href="#2" id=2>x</a>\n'
ISI = b'<S SNTNO="1">the cat sat</S>\n<S SNTNO="2">on the mat</S>\n'
JSONL = b'{"c": "the cat", "r": ["the cat sat", "a dog"], "id": 1}\n{"c": ["a", "b"], "r": [["x"], "y"]}\n'
TABLE = b"system,instance,m,h\nA,1,0.5,1\nA,2,0.25,2\nB,1,0.75,3\n"
DATASET = (
    b'{"system": "A", "instance": "1", "candidate": "the cat", "references": ["the cat sat"], "human": {"h": 1}}\n'
    b'{"system": "B", "instance": "1", "candidate": "a dog", "references": "the cat", "human": {"h": 2.5}}\n'
)


@st.composite
def mutated(draw, seed: bytes):
    """``seed`` truncated, with bytes flipped, inserted or deleted, a huge line, or random bytes."""
    kind = draw(st.sampled_from(["truncate", "flip", "insert", "delete", "huge", "binary", "repeat"]))
    data = bytearray(seed)
    if kind == "binary":
        return draw(st.binary(max_size=300))
    if kind == "huge":
        at = draw(st.integers(0, len(data)))
        return bytes(data[:at] + b"x" * draw(st.sampled_from([70_000, 1_000_000])) + data[at:])
    if kind == "repeat":
        return bytes(data * draw(st.integers(2, 50)))
    if kind == "truncate":
        return bytes(data[: draw(st.integers(0, len(data)))])
    for _ in range(draw(st.integers(1, 6))):
        at = draw(st.integers(0, max(len(data) - 1, 0)))
        if kind == "flip" and data:
            data[at] = draw(st.integers(0, 255))
        elif kind == "insert":
            data[at:at] = draw(st.binary(min_size=1, max_size=8))
        elif data:
            del data[at : at + draw(st.integers(1, 8))]
    return bytes(data)


def _with_file(data: bytes, suffix: str, read):
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "input" + suffix)
        with open(path, "wb") as handle:
            handle.write(data)
        try:
            return read(path)
        except InputError as exc:
            message = str(exc)
            assert "\n" not in message and "Traceback" not in message
            return None


@PROFILE
@given(mutated(CONFIG))
def test_xml_config(data):
    config = _with_file(data, ".xml", read_xml_config)
    if config is not None:
        assert all(ev.eval_id is not None for ev in config.evaluations)


@PROFILE
@given(mutated(b"# list\np1.spl m1.spl m2.spl\n\np2.spl m3.spl\n"), st.sampled_from(["SEE", "SPL", "ISI", "SIMPLE"]))
def test_file_list(data, fmt):
    _with_file(data, ".lst", lambda p: read_file_list(p, fmt, "X"))


@PROFILE
@given(st.sampled_from([("SEE", SEE), ("ISI", ISI), ("SPL", b"the cat sat\n\non the mat\n")]), st.data())
def test_summary_formats(fmt_seed, data):
    fmt, seed = fmt_seed
    got = _with_file(data.draw(mutated(seed)), "." + fmt.lower(), lambda p: text.read_sentences(p, fmt))
    assert got is None or all(isinstance(s, bytes) for s in got)


@PROFILE
@given(mutated(b"cat|black|mod\ndog|nil|nil\nran|dog|subj\n"), st.sampled_from(["H", "HM", "HMR", "HM1", "HMR2"]))
def test_basic_elements(data, mode):
    def read(path):
        return be_keys(text.read_be_lines(path, "SIMPLE"), mode, None, path)

    got = _with_file(data, ".be", read)
    assert got is None or all(isinstance(v, int) for v in got.values())


@PROFILE
@given(mutated(JSONL), st.sampled_from(["strict", "replace"]))
def test_score_jsonl(data, errors):
    got = _with_file(data, ".jsonl", lambda p: inputs.read_jsonl(p, ["c"], ["r"], "id", errors))
    if got is not None:
        ids, cands, refs = got
        assert len(ids) == len(cands["c"]) == len(refs) > 0


@PROFILE
@given(mutated(b"the cat sat\r\nthe dog<q>ran\n"), st.sampled_from(["strict", "replace"]))
def test_score_lines(data, errors):
    whole = _with_file(data, ".txt", lambda p: inputs.read_lines(p, "<q>", errors))
    streamed = _with_file(data, ".txt", lambda p: [c for c, _ in inputs.iter_aligned(p, [], "<q>", errors)])
    assert whole == streamed or (whole == [] and streamed is None)


@PROFILE
@given(
    st.sampled_from([(".csv", TABLE), (".jsonl", b'{"system": "A", "m": 0.5}\n{"system": "B", "m": 1}\n')]), st.data()
)
def test_correlate_tables(suffix_seed, data):
    suffix, seed = suffix_seed
    _with_file(data.draw(mutated(seed)), suffix, read_table)


@PROFILE
@given(mutated(DATASET))
def test_protocol_dataset(data):
    _with_file(data, ".jsonl", load_jsonl)


@PROFILE
@given(
    mutated(b"the cat sat\r\nthe d\xc3\xa9g<q>ran\n\nlast"), st.sampled_from(["strict", "replace"]), st.integers(1, 9)
)
def test_score_lines_read_in_small_blocks(data, errors, block):
    """Lines cut across the reader's blocks (here 1-9 bytes) read as when read whole, and an
    invalid line gets the same message (its number, the byte) as from read_lines."""

    def outcome(read):
        with tempfile.TemporaryDirectory() as folder:
            path = os.path.join(folder, "input.txt")
            with open(path, "wb") as handle:
                handle.write(data)
            try:
                return read(path)
            except InputError as exc:
                return str(exc).replace(path, "FILE")

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(inputs, "_BLOCK", block)
        streamed = outcome(lambda p: [c for c, _ in inputs.iter_aligned(p, [], "<q>", errors)])
    whole = outcome(lambda p: inputs.read_lines(p, "<q>", errors))
    assert streamed == whole or (whole == [] and "is empty" in streamed)


# -- issue 25: every shape and encoding of the same summaries reads as the same summaries ------------

SUMMARY = st.text(alphabet="ab cé東\t<q>/", max_size=12).map(str.strip)
CODECS = [("utf-8", ""), ("utf-8-sig", ""), ("utf-16", ""), ("utf-16-le", "\ufeff"), ("utf-16-be", "\ufeff")]
CODECS += [("utf-32", ""), ("utf-32-be", "\ufeff")]


def _write(text: str, suffix: str, codec: str, mark: str, crlf: bool) -> str:
    if crlf:
        text = text.replace("\n", "\r\n")
    fd, path = tempfile.mkstemp(suffix=suffix)
    with os.fdopen(fd, "wb") as handle:
        handle.write((mark + text).encode(codec))
    return path


@PROFILE
@given(
    st.lists(st.tuples(SUMMARY, SUMMARY), min_size=1, max_size=6),
    st.sampled_from(CODECS),
    st.booleans(),
    st.sampled_from(["lines", "jsonl", "array", "pretty", "columns"]),
)
@pytest.mark.filterwarnings("ignore:.*blank candidate line")
def test_every_shape_and_encoding_reads_the_same_pairs(pairs, codec, crlf, shape):
    import json

    cands = [c for c, _ in pairs]
    refs = [[r] for _, r in pairs]
    if shape == "lines":
        paths = [_write("".join(c + "\n" for c in cands), ".txt", *codec, crlf)]
        paths.append(_write("".join(r + "\n" for r in [r[0] for r in refs]), ".txt", *codec, crlf))
    else:
        rows = [{"c": c, "r": r[0]} for c, r in zip(cands, refs)]
        text = {
            "jsonl": "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows),
            "array": json.dumps(rows, ensure_ascii=False),
            "pretty": json.dumps(rows, ensure_ascii=False, indent=2),
            "columns": json.dumps({"c": cands, "r": [r[0] for r in refs]}, ensure_ascii=False, indent=1),
        }[shape]
        paths = [_write(text, ".json", *codec, crlf)]
    try:
        if shape == "lines":
            got_c = inputs.read_lines(paths[0])
            got_r = inputs.aligned(got_c, paths[0], [inputs.read_lines(paths[1])], [paths[1]])
            streamed = list(inputs.iter_aligned(paths[0], [paths[1]]))
            assert [c for c, _ in streamed] == got_c and [r for _, r in streamed] == got_r
        else:
            # one object of lists of texts also reads as one row: the reader asks, the user says columns
            # (lists of one text are one pair either way: read without being told)
            told = "columns" if shape == "columns" and len(pairs) > 1 else None
            _, fields, got_r = inputs.read_jsonl(paths[0], ["c"], ["r"], json_shape=told)
            got_c = fields["c"]
    finally:
        for p in paths:
            os.unlink(p)
    assert got_c == cands and got_r == refs
