"""`rougekit dedup` read lazily, with progress on a terminal and a checkpoint to resume from.

The expected decisions are those of ``process.dedup`` on the same texts (itself checked against the
brute-force loop in test_process_dedup.py); the one worked by hand: "give 3 tips for staying healthy"
against "give three tips for staying healthy" is LCS 5 of 6 and 6 tokens, F = 5/6 > 0.7.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import threading

import pytest
from _paths import subprocess_env

from rougekit import process
from rougekit.cli import _dedup_run, dedup
from rougekit.cli.main import main
from rougekit.errors import InputError
from rougekit.io import stream

WORDS = "the cat sat on mat dog ran far away big small red blue green house tree car road river city".split()


def corpus(n: int = 600, seed: int = 5) -> list[str]:
    """Seeded texts with many near repeats (one word changed) and exact repeats."""
    rng = random.Random(seed)
    base = [" ".join(rng.choice(WORDS) for _ in range(rng.randint(5, 12))) for _ in range(n // 3)]
    out = []
    for _ in range(n):
        words = rng.choice(base).split()
        if rng.random() < 0.5:
            words[rng.randrange(len(words))] = rng.choice(WORDS)
        out.append(" ".join(words))
    return out


@pytest.fixture()
def small_blocks(monkeypatch):
    monkeypatch.setattr(_dedup_run, "BLOCK", 16)
    monkeypatch.setattr(_dedup_run, "READ_CHUNK", 50)


def _files(folder, name: str) -> tuple[bytes, bytes]:
    return (folder / f"{name}.out").read_bytes(), (folder / f"{name}.dropped").read_bytes()


def _argv(src, folder, name: str, *extra) -> list[str]:
    return [str(src), "-o", str(folder / f"{name}.out"), "--dropped", str(folder / f"{name}.dropped"), *extra]


class Stop(Exception):
    pass


@pytest.mark.parametrize("kind", ["txt", "jsonl", "csv"])
def test_interrupted_and_resumed_runs_give_the_bytes_of_one_run(tmp_path, small_blocks, capsys, kind):
    texts = corpus()
    head = b""
    if kind == "txt":
        src = tmp_path / "in.txt"
        src.write_text("\n".join(texts) + "\n", encoding="utf-8")
        extra: list[str] = []
    elif kind == "jsonl":
        src = tmp_path / "in.jsonl"
        src.write_text("".join(json.dumps({"id": i, "text": t}) + "\n" for i, t in enumerate(texts)), encoding="utf-8")
        extra = ["--field", "text"]
    else:
        src = tmp_path / "in.csv"
        head = b"id,text\n"
        src.write_bytes(head + "".join(f"{i},{t}\n" for i, t in enumerate(texts)).encode())
        extra = ["--column", "text"]
    field = extra[1] if kind == "jsonl" else None
    column = extra[1] if kind == "csv" else None
    assert isinstance(dedup.read_rows(str(src), field, column, lazy=True), dedup.LineStream)
    assert dedup.run(_argv(src, tmp_path, "whole", *extra)) == 0
    whole = _files(tmp_path, "whole")
    want = process.dedup(texts, threshold=0.7)
    assert 100 < len(want.kept) < 500  # decisions both ways
    kept_rows = src.read_bytes()[len(head) :].splitlines(keepends=True)
    assert whole[0] == head + b"".join(kept_rows[i] for i in want.kept)
    dropped = [json.loads(line) for line in whole[1].splitlines()]
    assert [(d["index"], d["match_index"], d["score"]) for d in dropped] == [tuple(d) for d in want.dropped]

    checkpoint = tmp_path / "ck"
    for stops in ([16], [48, 400], [160, 320, 480], [592], [600]):  # blocks of 16 texts: several interrupts
        pending = list(stops)

        def interrupt(decided: int) -> None:
            if pending and decided >= pending[0]:
                pending.pop(0)
                raise KeyboardInterrupt

        argv = _argv(src, tmp_path, "resumed", *extra, "--checkpoint", str(checkpoint))
        runs = 0
        while True:
            runs += 1
            try:
                assert dedup.run(argv, interrupt=interrupt) == 0
                break
            except KeyboardInterrupt:
                assert checkpoint.exists()
        assert runs == len(stops) + 1
        assert _files(tmp_path, "resumed") == whole
        assert not checkpoint.exists()  # removed once the output is written
    capsys.readouterr()


def test_a_checkpoint_of_other_input_or_options_or_damaged_stops_with_one_line(tmp_path, small_blocks, capsys):
    texts = corpus(200)
    src, other = tmp_path / "in.txt", tmp_path / "other.txt"
    src.write_text("\n".join(texts) + "\n", encoding="utf-8")
    other.write_text("\n".join(texts[:-1] + ["a different last text here"]) + "\n", encoding="utf-8")
    checkpoint = tmp_path / "ck"

    def interrupt(decided: int) -> None:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        dedup.run([str(src), "-o", str(tmp_path / "k"), "--checkpoint", str(checkpoint)], interrupt=interrupt)
    saved = checkpoint.read_bytes()
    cases = [
        ([str(other)], "was written for other input"),
        ([str(src), "--threshold", "0.8"], "was written with other options (threshold 0.7 there, 0.8 here)"),
        ([str(src), "--stem"], "was written with other options (stem False there, True here)"),
        ([str(src), "--measure", "ROUGE-L"], "--checkpoint takes --measure rougeL"),
    ]
    for args, message in cases:
        capsys.readouterr()
        assert main(["dedup", *args, "-o", str(tmp_path / "k"), "--checkpoint", str(checkpoint)]) == 2
        err = capsys.readouterr().err
        assert message in err and len(err.splitlines()) == 1, err
    for damage in (saved[:-1], saved[:40] + bytes([saved[40] ^ 1]) + saved[41:], b"", b"hello\n"):
        checkpoint.write_bytes(damage)
        assert main(["dedup", str(src), "-o", str(tmp_path / "k"), "--checkpoint", str(checkpoint)]) == 2
        err = capsys.readouterr().err
        assert "is not a rougekit dedup checkpoint or is damaged" in err and len(err.splitlines()) == 1
    checkpoint.write_bytes(saved)  # intact: resumes
    assert main(["dedup", str(src), "-o", str(tmp_path / "k"), "--checkpoint", str(checkpoint)]) == 0
    assert (tmp_path / "k").read_text() == "".join(texts[i] + "\n" for i in process.dedup(texts).kept)


_SIGINT_RUN = """
import os, signal, sys
from rougekit import process
from rougekit.cli import _dedup_run
from rougekit.cli.main import main
from rougekit.errors import InputError
from rougekit.io import stream
_dedup_run.BLOCK = 8
feed, calls = process.Greedy.feed, [0]
def feed_then_interrupt(self, block):
    calls[0] += 1
    if calls[0] == int(sys.argv[1]):
        os.kill(os.getpid(), signal.SIGINT)  # a real Ctrl-C, delivered during the run
    return feed(self, block)
process.Greedy.feed = feed_then_interrupt
sys.exit(main(sys.argv[2:]))
"""


def test_ctrl_c_exits_130_quietly_and_the_checkpoint_resumes(tmp_path):
    texts = corpus(300)
    src = tmp_path / "in.txt"
    src.write_text("\n".join(texts) + "\n", encoding="utf-8")
    checkpoint = tmp_path / "ck"
    argv = ["dedup", str(src), "-o", str(tmp_path / "k.txt"), "--checkpoint", str(checkpoint)]
    # SIGINT's default action in the command, as in a terminal: started from a process that ignores
    # SIGINT (a background job, a pytest-xdist worker of one) it would inherit SIG_IGN and run to the end
    run = subprocess.run(
        [sys.executable, "-c", _SIGINT_RUN, "5", *argv],
        capture_output=True,
        text=True,
        env=subprocess_env(),
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    assert run.returncode == 130 and run.stderr.strip() == "" and "Traceback" not in run.stderr
    assert checkpoint.exists()
    run = subprocess.run(
        [sys.executable, "-c", _SIGINT_RUN, "0", *argv], capture_output=True, text=True, env=subprocess_env()
    )
    assert run.returncode == 0, run.stderr
    assert (tmp_path / "k.txt").read_text() == "".join(texts[i] + "\n" for i in process.dedup(texts).kept)


def test_progress_on_a_terminal_only_and_the_bytes_per_text(tmp_path):
    pty = pytest.importorskip("pty")
    texts = ["Give three tips for staying healthy.", "Give 3 tips for staying healthy.", "dogs bark"]
    src = tmp_path / "in.txt"
    src.write_text("\n".join(texts) + "\n", encoding="utf-8")

    def stderr_of(*args) -> str:
        leader, follower = pty.openpty()
        proc = subprocess.Popen(
            [sys.executable, "-m", "rougekit", "dedup", str(src), "-o", str(tmp_path / "k"), *args],
            stderr=follower,
            env=subprocess_env(),
        )
        os.close(follower)
        chunks = []
        while True:
            try:
                data = os.read(leader, 4096)
            except OSError:  # the terminal closed
                break
            if not data:
                break
            chunks.append(data)
        proc.wait()
        os.close(leader)
        assert proc.returncode == 0
        return b"".join(chunks).decode()

    shown = stderr_of()
    assert "candidate pairs" in shown and "texts/s" in shown and "ETA" in shown
    # 3 texts of 6, 6 and 2 tokens: 14 ids of 4 bytes and 4 offsets of 8 bytes, over 3 texts
    assert f"held {(14 * 4 + 4 * 8) / 3:.0f} bytes per text (token ids)" in shown
    assert "kept 2 of 3 texts" in shown
    assert stderr_of("--quiet") == ""
    assert "candidate pairs" not in stderr_of("--no-progress")


def test_a_file_of_lines_is_read_as_it_comes(tmp_path):
    """The first texts come before the file ends: a pipe fed 10 lines, the rest held back."""
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    more = threading.Event()

    def write() -> None:
        with open(fifo, "w") as handle:
            handle.write("".join(f"text {i}\n" for i in range(10)))
            handle.flush()
            more.wait(20)
            handle.write("last one\n")

    writer = threading.Thread(target=write)
    writer.start()
    try:
        chunks = dedup.LineStream(str(fifo)).chunks(10)
        assert next(chunks) == [f"text {i}" for i in range(10)]  # the writer still holds the rest
    finally:
        more.set()
    assert list(chunks) == [["last one"]]
    writer.join()


def test_the_streamed_reader_refuses_as_the_whole_file_reader(tmp_path, capsys):
    cases = [
        (b"a b\n\nc d\n", [], "in.txt, line 2: empty line"),
        (b"a b\n\xff\n", [], "in.txt, line 2: invalid UTF-8 at byte 0"),
        (b"a b\nc\0d\n", [], "in.txt, line 2: holds a NUL byte"),
    ]
    for content, args, message in cases:
        (tmp_path / "in.txt").write_bytes(content)
        assert main(["dedup", str(tmp_path / "in.txt"), *args]) == 2
        err = capsys.readouterr().err
        assert message in err and len(err.splitlines()) == 1, err
    jsonl = [
        (b'{"t": "a b"}\n{"u": "c"}\n', "in.jsonl, line 2: no field 't'"),
        (b'{"t": "a b"}\n{"t": ""}\n', "in.jsonl, line 2: field 't' must be a non-empty string"),
        (b'{"t": "a b"}\nnot json\n', "in.jsonl, line 2: not valid JSON"),
    ]
    for content, message in jsonl:
        (tmp_path / "in.jsonl").write_bytes(content)
        assert main(["dedup", str(tmp_path / "in.jsonl"), "--field", "t"]) == 2
        err = capsys.readouterr().err
        assert message in err and len(err.splitlines()) == 1, err
    # a UTF-8 byte order mark is dropped, CRLF endings are kept as read, and -o may name the input
    (tmp_path / "in.txt").write_bytes(b"\xef\xbb\xbfthe cat sat on the mat\r\nthe cat sat on a mat\r\ndogs bark")
    assert main(["dedup", str(tmp_path / "in.txt"), "-o", str(tmp_path / "in.txt")]) == 0
    assert (tmp_path / "in.txt").read_bytes() == b"the cat sat on the mat\r\ndogs bark"


def test_workers_gives_the_bytes_of_one_thread(tmp_path, capsys):
    """``--workers 1`` and ``--workers 2`` write the same kept rows and dropped rows (the block's
    probes on two threads, resolved in order), those of ``process.dedup``; ``--workers 0`` is refused."""
    texts = corpus(900, seed=11)
    src = tmp_path / "in.txt"
    src.write_text("".join(t + "\n" for t in texts))
    for workers in ("1", "2", "-1"):
        assert main(["dedup", *_argv(src, tmp_path, f"w{workers}", "--workers", workers)]) == 0
    one = _files(tmp_path, "w1")
    assert _files(tmp_path, "w2") == one and _files(tmp_path, "w-1") == one
    expected = process.dedup(texts, threshold=0.7, workers=1)
    assert 100 < len(expected.kept) < 800
    assert one[0].decode().splitlines() == [texts[k] for k in expected.kept]
    dropped = [json.loads(line) for line in one[1].decode().splitlines()]
    assert len(dropped) == len(expected.dropped)
    capsys.readouterr()
    assert main(["dedup", str(src), "-o", str(tmp_path / "k"), "--workers", "0"]) == 2
    assert "workers" in capsys.readouterr().err


def test_more_workers_than_cores_are_the_cores(tmp_path):
    """``--workers 1000000`` (or ``workers=10**6``) runs on the cores this process may use, with the
    same decisions: each worker holds a vocabulary-sized scratch, so a million would exhaust memory
    (it did: MemoryError from the threads, then a hang)."""
    from rougekit.engine.cores import available_cores
    from rougekit.process.blocks import workers_count

    assert workers_count(10**6) == available_cores()
    assert workers_count(1) == 1
    texts = corpus(300, seed=5)
    src = tmp_path / "in.txt"
    src.write_text("".join(t + "\n" for t in texts))
    assert main(["dedup", *_argv(src, tmp_path, "many", "--workers", "1000000")]) == 0
    assert main(["dedup", *_argv(src, tmp_path, "one", "--workers", "1")]) == 0
    assert _files(tmp_path, "many") == _files(tmp_path, "one")
    assert process.dedup(texts, threshold=0.7, workers=10**6).kept == process.dedup(texts, threshold=0.7).kept
    big = process.cdist(texts[:40], texts, workers=10**6)
    assert (big == process.cdist(texts[:40], texts, workers=1)).all()


CSV_CASES = {
    "plain": b"id,text\n1,the cat sat\n2,a dog ran\n3,the cat sat down\n",
    "quoted, over lines": b'id,text\n1,"the cat, it sat\non the mat"\n2,"a ""dog"" ran"\n3,b c\n',
    "CRLF and a BOM": b"\xef\xbb\xbfid,text\r\n1,the cat\r\n2,a dog\r\n",
    "CR alone ends lines": b"id,text\r1,the cat\r2,a dog\r\n3,x y\r\r\n4,z\n",
    "blank rows, no last ending": b"id,text\n\n1,the cat\n , \n2,a dog",
    "a TSV": b"id\ttext\n1\tthe cat, sat\n2\ta dog\n",
    "header only": b"id,text\n",
}
CSV_ERRORS = {
    "a short row": b"id,text\n1,the cat\n2\n",
    "no such column": b"id,body\n1,the cat\n",
    "an empty cell": b"id,text\n1,the cat\n2, \n",
    "invalid UTF-8": b"id,text\n1,the cat\n2,a \xff dog\n",
    "a NUL byte": b"id,text\n1,the\0cat\n",
    "an open quote": b'id,text\n1,"the cat\n',
    "empty": b"",
}


def _csv_file(tmp_path, name: str, content: bytes) -> str:
    path = tmp_path / ("in.tsv" if "TSV" in name else "in.csv")
    path.write_bytes(content)
    return str(path)


@pytest.mark.parametrize("name", sorted(CSV_CASES))
def test_csv_is_streamed_with_the_rows_and_bytes_of_the_whole_file_reader(tmp_path, name):
    path = _csv_file(tmp_path, name, CSV_CASES[name])
    whole = dedup.read_rows(path, None, "text", lazy=False)
    stream = dedup.read_rows(path, None, "text", lazy=True)
    assert isinstance(stream, dedup.CsvStream)
    assert [t for chunk in stream.chunks(2) for t in chunk] == whole.texts
    assert stream.count == whole.count
    assert list(stream.rows()) == list(whole.rows())
    for keep in ([True] * whole.count, [i % 2 == 0 for i in range(whole.count)], [False] * whole.count):
        whole.write_kept(str(tmp_path / "whole.out"), keep)
        stream.write_kept(str(tmp_path / "stream.out"), keep)
        assert (tmp_path / "stream.out").read_bytes() == (tmp_path / "whole.out").read_bytes()


def test_csv_rows_by_hand(tmp_path):
    """The texts and lines read from a CSV file with a quoted field over two lines and a lone CR."""
    path = _csv_file(tmp_path, "by hand", b'id,text\n1,"a, b\nc"\r2,d e\n\n3,f\n')
    stream = dedup.read_rows(path, None, "text", lazy=True)
    assert list(stream.rows()) == [(2, "line 2", "a, b\nc"), (4, "line 4", "d e"), (6, "line 6", "f")]


@pytest.mark.parametrize("name", sorted(CSV_ERRORS))
def test_csv_streamed_refuses_as_the_whole_file_reader(tmp_path, name):
    path = _csv_file(tmp_path, name, CSV_ERRORS[name])
    with pytest.raises(InputError) as whole:
        rows = dedup.read_rows(path, None, "text", lazy=False)
        list(rows.chunks(2))
    with pytest.raises(InputError) as streamed:
        list(dedup.read_rows(path, None, "text", lazy=True).chunks(2))
    assert str(streamed.value) == str(whole.value)


def test_csv_dedup_command_streams_and_keeps_the_rows_of_process_dedup(tmp_path, small_blocks, capsys):
    texts = corpus()
    src = tmp_path / "in.csv"
    rows = [f'{i},"{t}, said {i % 3}"\r\n' for i, t in enumerate(texts)]
    src.write_bytes(("id,text\r\n" + "".join(rows)).encode())
    assert isinstance(dedup.read_rows(str(src), None, "text", lazy=True), dedup.CsvStream)
    assert dedup.run(_argv(src, tmp_path, "csv", "--column", "text")) == 0
    want = process.dedup([f"{t}, said {i % 3}" for i, t in enumerate(texts)], threshold=0.7)
    assert 100 < len(want.kept) < 500
    out, dropped = _files(tmp_path, "csv")
    assert out == ("id,text\r\n" + "".join(rows[i] for i in want.kept)).encode()
    assert [(d["index"], d["match_index"]) for d in map(json.loads, dropped.splitlines())] == [
        (d.index, d.match) for d in want.dropped
    ]
    capsys.readouterr()


def test_a_quote_left_open_to_the_end_is_refused_not_one_text(tmp_path, capsys):
    """A stray quote would make the csv module read every later line into one cell: 3 texts as 1."""
    path = _csv_file(tmp_path, "open", b'id,text\n1,"the cat sat\n2,a dog ran\n3,a bird sang\n')
    assert main(["dedup", path, "--column", "text"]) == 2
    err = capsys.readouterr().err
    assert "in.csv, line 2: a quoted cell is not closed before the end of the file" in err, err
    assert len(err.splitlines()) == 1


@pytest.mark.parametrize(
    "first",
    ["[INST] give three tips for staying healthy [/INST]", '{"a": "b', "{placeholder} the cat sat", "[1, 2] cats"],
)
def test_text_whose_first_line_starts_like_json_is_still_streamed(tmp_path, capsys, first):
    """A file of lines starting with [ or { that cannot be JSON (Llama prompts, a cut JSON line) is
    read lazily, with the rows and output of the whole-file reader."""
    texts = [first, *corpus(200, seed=3)]
    src = tmp_path / "in.txt"
    src.write_text("\n".join(texts) + "\n", encoding="utf-8")
    stream = dedup.read_rows(str(src), None, None, lazy=True)
    assert isinstance(stream, dedup.LineStream)
    assert [t for chunk in stream.chunks(50) for t in chunk] == dedup.read_rows(str(src), None, None).texts
    assert main(["dedup", str(src), "-o", str(tmp_path / "out.txt"), "-q"]) == 0
    want = process.dedup(texts, threshold=0.7)
    assert (tmp_path / "out.txt").read_text(encoding="utf-8") == "".join(texts[i] + "\n" for i in want.kept)
    capsys.readouterr()


@pytest.mark.parametrize("size", [3, 5000])
def test_json_without_field_is_still_refused_long_or_short(tmp_path, capsys, size):
    """A JSON array or JSON lines in a .txt file (over 64 KB too) are JSON: refused without --field."""
    rows = [{"text": f"text number {i} " + "word " * 10} for i in range(size)]
    for name, content in (
        ("array.txt", json.dumps(rows, indent=1)),
        ("lines.txt", "".join(json.dumps(r) + "\n" for r in rows)),
    ):
        (tmp_path / name).write_text(content, encoding="utf-8")
        assert dedup._streamed(str(tmp_path / name), None, None) is None
        assert main(["dedup", str(tmp_path / name)]) == 2
        assert "holds JSON rows: give --field" in capsys.readouterr().err


WIDE = {
    "utf-16-le": b"\xff\xfe",
    "utf-16-be": b"\xfe\xff",
    "utf-32-le": b"\xff\xfe\x00\x00",
    "utf-32-be": b"\x00\x00\xfe\xff",
}


@pytest.mark.parametrize("codec", sorted(WIDE))
@pytest.mark.parametrize("kind", ["txt", "jsonl", "csv"])
def test_utf16_and_utf32_files_are_streamed_with_the_rows_of_the_whole_file_reader(tmp_path, codec, kind):
    texts = corpus(300, seed=7) + ["caf\u00e9 na\u00efve \U0001f600 smile"]
    if kind == "txt":
        body, field, column = "\r\n".join(texts) + "\n", None, None
    elif kind == "jsonl":
        body, field, column = "".join(json.dumps({"t": t}, ensure_ascii=False) + "\n" for t in texts), "t", None
    else:
        body, field, column = "id,t\n" + "".join(f'{i},"{t}"\n' for i, t in enumerate(texts)), None, "t"
    src = tmp_path / f"in.{kind}"
    src.write_bytes(WIDE[codec] + body.encode(codec))
    whole = dedup.read_rows(str(src), field, column, lazy=False)
    lazy = dedup.read_rows(str(src), field, column, lazy=True)
    assert isinstance(lazy, dedup.LineStream) and lazy.codec == codec
    assert whole.texts == texts
    assert [t for chunk in lazy.chunks(64) for t in chunk] == texts
    assert list(lazy.rows()) == list(whole.rows())
    keep = [i % 3 != 1 for i in range(len(texts))]
    whole.write_kept(str(tmp_path / "whole.out"), keep)
    lazy.write_kept(str(tmp_path / "lazy.out"), keep)
    assert (tmp_path / "lazy.out").read_bytes() == (tmp_path / "whole.out").read_bytes()


@pytest.mark.parametrize(
    "content",
    [
        b"\xff\xfe" + "a b\nc d\n".encode("utf-16-le") + b"\x00\xdc" + "x\n".encode("utf-16-le"),  # lone surrogate
        b"\xff\xfe" + "a b\nc d\n".encode("utf-16-le") + b"z",  # odd byte at the end
        b"\xff\xfe" + "a b\nc\0d\n".encode("utf-16-le"),  # a NUL
        b"\xff\xfe" + "a b\n\nc d\n".encode("utf-16-le"),  # an empty line
        b"\x00\x00\xfe\xff" + "a b\nc\n".encode("utf-32-be") + b"\x00\x11\x00\x00",  # past U+10FFFF
    ],
)
def test_utf16_and_utf32_streamed_refuse_as_the_whole_file_reader(tmp_path, content):
    src = tmp_path / "in.txt"
    src.write_bytes(content)
    with pytest.raises(InputError) as whole:
        dedup.read_rows(str(src), None, None, lazy=False)
    with pytest.raises(InputError) as streamed:
        list(dedup.read_rows(str(src), None, None, lazy=True).chunks(2))
    assert str(streamed.value) == str(whole.value)


def _stdin_run(tmp_path, name: str, content: bytes, *extra: str) -> subprocess.CompletedProcess:
    argv = [sys.executable, "-m", "rougekit", "dedup", "-", "-o", str(tmp_path / f"{name}.out")]
    argv += ["--dropped", str(tmp_path / f"{name}.dropped"), *extra]
    return subprocess.run(argv, input=content, capture_output=True, env=subprocess_env(), timeout=120)


@pytest.mark.parametrize("kind", ["txt", "jsonl", "csv"])
def test_standard_input_is_streamed_with_the_output_of_the_file(tmp_path, kind, monkeypatch):
    texts = corpus(400, seed=9)
    if kind == "txt":
        content, extra = ("\n".join(texts) + "\n").encode(), []
    elif kind == "jsonl":
        content, extra = "".join(json.dumps({"t": t}) + "\n" for t in texts).encode(), ["--field", "t"]
    else:
        content, extra = ("id,t\r\n" + "".join(f"{i},{t}\r\n" for i, t in enumerate(texts))).encode(), ["--column", "t"]
    src = tmp_path / f"in.{kind}"
    src.write_bytes(content)
    monkeypatch.setattr(sys, "stdin", __import__("io").TextIOWrapper(__import__("io").BytesIO(content)))
    lazy = dedup.read_rows(
        "-", *(extra[1:] if kind == "jsonl" else [None]), *(extra[1:] if kind == "csv" else [None]), lazy=True
    )
    assert isinstance(lazy, dedup.LineStream)
    assert [t for chunk in lazy.chunks(100) for t in chunk] == texts
    assert main(["dedup", *_argv(src, tmp_path, "file", *extra)]) == 0
    done = _stdin_run(tmp_path, "stdin", content, *extra)
    assert done.returncode == 0, done.stderr
    assert _files(tmp_path, "stdin") == _files(tmp_path, "file")
    want = process.dedup(texts, threshold=0.7)
    assert 50 < len(want.kept) < 350
    assert len((tmp_path / "stdin.dropped").read_bytes().splitlines()) == len(want.dropped)


def test_standard_input_resumes_when_given_again_and_refuses_other_input(tmp_path, small_blocks, monkeypatch, capsys):
    import io

    texts = corpus(300, seed=4)
    content = ("\n".join(texts) + "\n").encode()
    checkpoint = tmp_path / "ck"

    def stdin(data: bytes) -> None:
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))

    stdin(content)
    assert dedup.run(["-", "-o", str(tmp_path / "one.out")]) == 0

    def interrupt(decided: int) -> None:
        if decided >= 100:
            raise KeyboardInterrupt

    argv = ["-", "-o", str(tmp_path / "two.out"), "--checkpoint", str(checkpoint)]
    stdin(content)
    with pytest.raises(KeyboardInterrupt):
        dedup.run(argv, interrupt=interrupt)
    assert checkpoint.exists()
    stdin(content.replace(texts[0].encode(), b"another first text"))
    assert main(["dedup", *argv]) == 2
    assert "was written for other input" in capsys.readouterr().err
    stdin(content)
    assert dedup.run(argv) == 0
    assert (tmp_path / "two.out").read_bytes() == (tmp_path / "one.out").read_bytes()
    assert not checkpoint.exists()
    capsys.readouterr()


@pytest.mark.parametrize(
    ("content", "extra", "message"),
    [
        (b"a b\n\nc d\n", [], "standard input, line 2: empty line"),
        (b"a b\n\xff\n", [], "standard input, line 2: invalid UTF-8 at byte 0"),
        (b'{"t": "a b"}\n{"u": "c"}\n', ["--field", "t"], "standard input, line 2: no field 't'"),
        (b"id,t\n1,a b\n2\n", ["--column", "t"], "standard input, line 3: 1 cell(s), the header has 2"),
        (b'[{"t": "a"}, 3]', ["--field", "t"], "standard input, item 2: each row must be a JSON object"),
    ],
)
def test_standard_input_streamed_refuses_with_one_line_naming_it(content, extra, message, monkeypatch, capsys):
    import io

    for lazy in (True, False):
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(content)))
        with pytest.raises(InputError) as caught:
            list(
                dedup.read_rows(
                    "-",
                    *(extra[1:] if extra[:1] == ["--field"] else [None]),
                    *(extra[1:] if extra[:1] == ["--column"] else [None]),
                    lazy=lazy,
                ).chunks(10)
            )
        assert message in str(caught.value)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(content)))
    assert main(["dedup", "-", *extra]) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.splitlines()) == 1, err


ARRAYS = {
    "indented": lambda rows: json.dumps(rows, indent=2),
    "one line": lambda rows: json.dumps(rows),
    "CRLF, one a line": lambda rows: "[\r\n" + ",\r\n".join(json.dumps(r) for r in rows) + "\r\n]\r\n",
    "blank lines around": lambda rows: (
        "\n\n  [" + " ,\n".join(json.dumps(r, ensure_ascii=False) for r in rows) + "]\n\n"
    ),
}


@pytest.mark.parametrize("name", sorted(ARRAYS))
@pytest.mark.parametrize("codec", ["utf-8", "utf-16-le"])
def test_json_arrays_are_streamed_with_the_rows_and_bytes_of_the_whole_file_reader(tmp_path, name, codec, monkeypatch):
    monkeypatch.setattr(stream, "CHUNK", 1000)  # items cut across chunks
    texts = corpus(300, seed=2) + ['caf\u00e9 \U0001f600 "quoted" \\ back']
    rows = [{"id": i, "t": t, "n": [1.5e3, None, True]} for i, t in enumerate(texts)]
    src = tmp_path / "in.json"
    src.write_bytes((WIDE.get(codec, b"")) + ARRAYS[name](rows).encode(codec))
    whole = dedup.read_rows(str(src), "t", None, lazy=False)
    lazy = dedup.read_rows(str(src), "t", None, lazy=True)
    assert isinstance(lazy, dedup.ArrayStream)
    assert [t for chunk in lazy.chunks(64) for t in chunk] == texts == whole.texts
    assert list(lazy.rows()) == list(whole.rows())
    for keep in ([i % 3 != 1 for i in range(len(texts))], [True] * len(texts), [False] * len(texts)):
        whole.write_kept(str(tmp_path / "whole.out"), keep)
        lazy.write_kept(str(tmp_path / "lazy.out"), keep)
        assert (tmp_path / "lazy.out").read_bytes() == (tmp_path / "whole.out").read_bytes()


@pytest.mark.parametrize("name", sorted(ARRAYS))
def test_json_arrays_are_decoded_once_for_their_texts(tmp_path, name, monkeypatch):
    # the first pass learns the array's shape (its items' places, its line endings) as it reads:
    # no pass of its own before the first item (before: two decodings of the whole input)
    src = tmp_path / "in.json"
    src.write_text(ARRAYS[name]([{"t": t} for t in corpus(50, seed=3)]), encoding="utf-8")
    lazy = dedup.read_rows(str(src), "t", None, lazy=True)
    calls = []
    real = stream.decoded_chunks
    monkeypatch.setattr(stream, "decoded_chunks", lambda *a: calls.append(1) or real(*a))
    assert len([t for chunk in lazy.chunks(8) for t in chunk]) == 50
    assert len(calls) == 1
    whole = dedup.read_rows(str(src), "t", None, lazy=False)
    assert list(lazy.rows()) == list(whole.rows()) and len(calls) == 2


@pytest.mark.parametrize(
    "content",
    [
        '[{"t": "a b"},\n {"t": "c d"}',  # not closed
        '[{"t": "a b"},\n {"t": "c d"} {"t": "e"}]',  # no comma
        '[{"t": "a b"},\n {"t": "c d"}] x',  # text after
        '[{"t": "a b"},\n {"t": "c \n d"}]',  # a line break in a string
        '[{"t": "a b"},\n {"t": "c d", }]',  # a trailing comma
        '[{"t": "a b"},\n {"u": "c d"}]',  # no field
        '[{"t": "a b"},\n "c d"]',  # not an object
        '[{"t": "a b"}, {"t": ""}]',  # an empty text, one line
        '[{"t": "a b"},\n' + "[" * 100000 + "]" * 100000 + "]",  # nested too deeply
        '[{"t": "a b"},\n {"t": "c d"}, 12',  # a number at the end
        '[{"t": "a b"},\n {"t": "c d"}, tru',  # a cut literal
    ],
)
def test_json_arrays_streamed_refuse_as_the_whole_file_reader(tmp_path, content, monkeypatch):
    monkeypatch.setattr(stream, "CHUNK", 7)
    src = tmp_path / "in.json"
    src.write_bytes(content.encode())
    with pytest.raises(InputError) as whole:
        dedup.read_rows(str(src), "t", None, lazy=False)
    with pytest.raises(InputError) as streamed:
        list(dedup.read_rows(str(src), "t", None, lazy=True).chunks(2))
    assert str(streamed.value) == str(whole.value)


def _holds_stdin_copy(pid: int) -> bool:
    """Whether process ``pid`` has its copy of standard input open (Linux: /proc/PID/fd)."""
    try:
        return any("rougekit-stdin-" in os.readlink(f"/proc/{pid}/fd/{fd}") for fd in os.listdir(f"/proc/{pid}/fd"))
    except OSError:
        return False


@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="Linux: the open copy is seen in /proc")
def test_the_stdin_copy_leaves_no_file_even_when_the_process_is_killed(tmp_path):
    """The copy of standard input is unlinked as soon as it is made (read through its descriptor):
    a SIGTERM (a job scheduler's stop, `timeout`) while it is being read leaves nothing in TMPDIR."""
    import time

    env = dict(subprocess_env(), TMPDIR=str(tmp_path))
    proc = subprocess.Popen(
        [sys.executable, "-m", "rougekit", "dedup", "-", "-o", os.devnull, "-q"],
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=env,
    )
    proc.stdin.write(b"the cat sat on the mat\n" * 1000)  # more is to come: the command waits for it
    proc.stdin.flush()
    deadline = time.monotonic() + 60
    while not _holds_stdin_copy(proc.pid) and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    assert _holds_stdin_copy(proc.pid)  # the copy is made and open
    proc.send_signal(signal.SIGTERM)
    proc.wait(timeout=60)
    proc.stdin.close()
    assert proc.returncode != 0  # killed while reading
    assert [p.name for p in tmp_path.iterdir()] == []


@pytest.mark.parametrize("command", [["dedup", "-", "-o", "-"], ["score", "-c", "-", "-r", "refs.txt"]])
def test_a_closed_standard_input_is_one_line(tmp_path, command):
    (tmp_path / "refs.txt").write_text("a b\n")
    done = subprocess.run(
        [sys.executable, "-m", "rougekit", *command],
        stdin=None,
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=subprocess_env(),
        preexec_fn=lambda: os.close(0),
    )
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        f"rougekit {command[0]}: error: standard input is closed: give the input as a file, or pipe it"
    ]


@pytest.mark.parametrize("step", [1, 2, 3, 5])
@pytest.mark.parametrize("codec", ["utf-16", "utf-32", "utf-8-sig"])
def test_a_byte_order_mark_cut_by_short_reads_is_still_told(codec, step):
    """A handle that gives a few bytes a read (a pipe, a raw stream): the mark is told from the first
    4 bytes and the text after a mark read alone is not taken for the end of the input."""
    import io

    class Trickle(io.RawIOBase):
        def __init__(self, data: bytes) -> None:
            self.data, self.at = data, 0

        def readable(self) -> bool:
            return True

        def read(self, size: int = -1) -> bytes:
            out = self.data[self.at : self.at + step]
            self.at += len(out)
            return out

    text = "the cat\nsat on the mat\n"
    handle = Trickle(text.encode(codec))
    assert "".join(stream.decoded_chunks(handle, "x.txt", stream.reader.Guard("x.txt", True))) == text
