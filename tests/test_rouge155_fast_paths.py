"""The shortcuts of ``rougekit rouge155`` give exactly what the readable code gives.

* SPL files go to the batch scorer as they are (it lowercases and takes the non-empty lines),
  not as the sentences of ``rougekit.text.rouge155``: same scores, also on odd files.
* The report sorts the ``-d`` keys with a key function equal to the script's comparison, and
  formats R/P/F through a cache.
* The bootstraps run on the engine's threads (no threads of their own); their errors still surface.
* Files are read with ``os.read``; a missing model is still reported before a missing peer.
"""

from __future__ import annotations

import contextlib
import functools
import io
import random

import pytest

from rougekit.cli.main import main
from rougekit.errors import InputError
from rougekit.io.reader import read_bytes
from rougekit.measures import Measure
from rougekit.report import rouge155 as report
from rougekit.rouge155 import _SENTENCE_FORMATS, Rouge155Run, Settings
from rougekit.text import rouge155 as text


def run_cli(*argv):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["rouge155", *map(str, argv)])
    return code, out.getvalue(), err.getvalue()


def test_sentence_formats_constant():
    assert _SENTENCE_FORMATS == text.SENTENCE_FORMATS


# -- SPL files as they are -----------------------------------------------------------------------
_PIECES = [
    b"Police",
    b"kill",
    b"the",
    b"GUNMAN",
    b"gunmen",
    b"killed",
    b"well-known",
    b"U.S.",
    b"caf\xc3\xa9",
    b"\xff\xfe",
    b"x\xe9y",
    b"3.5",
    b"...",
    b"-",
    b"running",
    b"ran",
    b"children",
    b"The",
    b"a",
    b"of",
]
_GAPS = [b" ", b" ", b"  ", b"\t", b"\r", b"\x0b", b"\x0c", b" \r"]


def _spl_file(rng: random.Random) -> bytes:
    lines = []
    for _ in range(rng.choice([0, 1, 1, 2, 3, 5])):
        r = rng.random()
        if r < 0.1:
            lines.append(b"")  # a blank line: no sentence
        elif r < 0.2:
            lines.append(rng.choice([b" ", b"\r", b"\t\t", b"..."]))  # a sentence without tokens
        else:
            words = [rng.choice(_PIECES) for _ in range(rng.choice([1, 2, 4, 7]))]
            line = words[0]
            for w in words[1:]:
                line += rng.choice(_GAPS) + w
            lines.append(line)
    data = b"\n".join(lines)
    if lines and rng.random() < 0.7:
        data += rng.choice([b"\n", b"\n\n", b"\r\n"])
    return data


@pytest.mark.parametrize("stem,stopwords", [(False, False), (True, False), (False, True), (True, True)])
def test_spl_file_as_is_equals_its_sentences(tmp_path, stem, stopwords):
    batch = pytest.importorskip("rougekit.engine.batch")
    if not batch.AVAILABLE:
        pytest.skip("the compiled batch scorer is not built")
    rng = random.Random(f"{stem}{stopwords}")
    # (not ROUGE-W: the script dies on a reference without tokens; its units are those of ROUGE-L)
    measures = [Measure.parse(m) for m in ("ROUGE-1", "ROUGE-2", "ROUGE-L", "ROUGE-S4", "ROUGE-SU4")]
    scorer = batch.BatchScorer(
        measures, stem=stem, stopwords=stopwords, word_limit=0, byte_limit=0, mode="A", alpha=0.5
    )
    settings = Settings(measures=tuple(measures), stem=stem, stopwords=stopwords)
    run = Rouge155Run(None, settings)
    as_is, as_sentences = [], []
    for i in range(300):
        path = tmp_path / f"{i}.spl"
        path.write_bytes(_spl_file(rng))
        as_is.append(run.summaries.spl_text(str(path)))
        joined = b"\n".join(text.read_sentences(str(path), "SPL"))
        as_sentences.append(joined.decode("utf-8", "surrogateescape"))
    cands, refs = as_is[:150], [[r] for r in as_is[150:]]
    expected = scorer.score_arrays(as_sentences[:150], [[r] for r in as_sentences[150:]])
    assert (scorer.score_arrays(cands, refs) == expected).all()


# -- the report -----------------------------------------------------------------------------------
def test_eval_order_equals_the_scripts_comparison():
    rng = random.Random(7)
    alphabet = ["0", "1", "2", "9", "10", "007", "a", "B", ".", " ", "-", "z", "~", "é", "٣", "_", ""]
    for _ in range(300):
        keys = {
            "".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 5))) + rng.choice(["", ".sys", ".1"])
            for _ in range(rng.randrange(1, 40))
        }
        expected = sorted(sorted(keys), key=functools.cmp_to_key(report.by_eval_id))
        assert report.eval_order(keys) == expected


def test_fixed5_cache_formats_like_the_script():
    cache = report._Fixed5()
    for x in [0.0, 1.0, 0.5, 0.123455, 0.123465, 1 / 3, 2 / 3, 0.99999, 0.999995, 12.5, 1e-7]:
        assert cache[x] == f"{x:7.5f}" == cache[x]


# -- the engine: background aggregates and errors ---------------------------------------------------
@pytest.fixture
def config(tmp_path):
    (tmp_path / "peers").mkdir()
    (tmp_path / "models").mkdir()
    evals = []
    for i in range(6):
        (tmp_path / "peers" / f"{i}.x.spl").write_text(f"police kill the gunman {i}\nthe gunman ran\n")
        (tmp_path / "peers" / f"{i}.y.spl").write_text("police killed the gunman\n")
        (tmp_path / "models" / f"{i}.A.spl").write_text(f"police killed the gunman {i % 3}\n")
        evals.append(
            f'<EVAL ID="{i}"><PEER-ROOT>{tmp_path}/peers</PEER-ROOT><MODEL-ROOT>{tmp_path}/models'
            f'</MODEL-ROOT><INPUT-FORMAT TYPE="SPL"/><PEERS><P ID="x">{i}.x.spl</P><P ID="y">{i}.y.spl</P>'
            f'</PEERS><MODELS><M ID="A">{i}.A.spl</M></MODELS></EVAL>'
        )
    (tmp_path / "c.xml").write_text("<ROUGE-EVAL>" + "\n".join(evals) + "</ROUGE-EVAL>\n")
    return tmp_path / "c.xml"


def test_the_aggregates_run_on_the_engines_threads_with_the_serial_numbers(config, monkeypatch):
    """Two cores: the bootstraps go to the engine's pool (rougekit.engine.threads), never to
    threads of rouge155's own (``threading.Thread`` is made to fail), and give the one-core numbers."""
    import threading

    from rougekit import rouge155
    from rougekit.io.rouge155_config import read_xml_config

    cfg = read_xml_config(str(config))
    settings = Settings(measures=(Measure.rouge_n(1), Measure.rouge_n(2), Measure("L")), resamples=50)
    monkeypatch.setattr(rouge155, "available_cores", lambda: 1)
    serial = Rouge155Run(cfg, settings).run(["x", "y"])
    monkeypatch.setattr(rouge155, "available_cores", lambda: 2)

    def no_own_threads(*args, **kwargs):
        raise AssertionError("rouge155 started a thread of its own")

    monkeypatch.setattr(threading, "Thread", no_own_threads)
    threaded = Rouge155Run(cfg, settings).run(["x", "y"])
    assert threaded == serial
    assert all(m.bootstrap is not None for p in threaded for m in p.measures)
    assert report.format_report(threaded, "95", 0, True) == report.format_report(serial, "95", 0, True)


def test_an_aggregate_error_is_raised_by_run(config, monkeypatch):
    from rougekit import rouge155
    from rougekit.io.rouge155_config import read_xml_config

    cfg = read_xml_config(str(config))
    settings = Settings(measures=(Measure.rouge_n(1), Measure.rouge_n(2), Measure("L")), resamples=20)
    monkeypatch.setattr(rouge155, "available_cores", lambda: 2)
    engine = Rouge155Run(cfg, settings)
    original = engine._aggregate

    def failing(result):
        if result.measure.name == "ROUGE-2":
            raise ValueError("boom")
        original(result)

    monkeypatch.setattr(engine, "_aggregate", failing)
    with pytest.raises(ValueError, match="boom"):
        engine.run(["x", "y"])


def test_missing_model_is_reported_before_a_missing_peer(config, tmp_path):
    (tmp_path / "peers" / "3.x.spl").unlink()
    code, out, err = run_cli("-n", "1", "-a", config)
    assert code == 2 and "3.x.spl" in err
    (tmp_path / "models" / "3.A.spl").unlink()
    code, out, err = run_cli("-n", "1", "-a", config)
    assert code == 2 and "cannot find model summary" in err and "3.A.spl" in err
    (tmp_path / "models" / "3.A.spl").mkdir()
    code, out, err = run_cli("-n", "1", "-a", config)
    assert code == 2 and "3.x.spl" in err  # the model exists (a directory): the missing peer comes first


def test_cli_output_with_and_without_the_batch_path(config, monkeypatch):
    code, fast, _ = run_cli("-n", "2", "-m", "-d", "-r", "30", "-a", config)
    from rougekit.engine import backend

    monkeypatch.setenv("ROUGEKIT_BACKEND", "python")
    backend._reset_for_tests()
    try:
        code2, slow, _ = run_cli("-n", "2", "-m", "-d", "-r", "30", "-a", config)
        assert backend.name() == "python"
    finally:
        monkeypatch.delenv("ROUGEKIT_BACKEND")
        backend._reset_for_tests()
    assert code == code2 == 0 and fast == slow


# -- reading files ----------------------------------------------------------------------------------
def test_read_bytes(tmp_path):
    for size in (0, 1, 65535, 65536, 65537, 300_000):
        data = random.Random(size).randbytes(size)
        (tmp_path / "f").write_bytes(data)
        assert read_bytes(str(tmp_path / "f")) == data
    with pytest.raises(InputError, match="no such file"):
        read_bytes(str(tmp_path / "missing"), "summary")
    with pytest.raises(InputError, match="it is a directory"):
        read_bytes(str(tmp_path))


def test_rouge155_command_runs_without_numpy():
    """With the compiled kernels, `rougekit rouge155` (scoring, -d lines, bootstrap) never imports numpy."""
    import subprocess
    import sys
    from pathlib import Path

    pytest.importorskip("rougekit._core._batch", reason="compiled batch scorer not built")
    pytest.importorskip("rougekit._core._bootstrap", reason="compiled bootstrap not built")
    repo = Path(__file__).resolve().parents[1]
    code = (
        "import sys, contextlib, io\n"
        "from rougekit.cli.main import main\n"
        "with contextlib.redirect_stdout(io.StringIO()) as out:\n"
        "    code = main(['rouge155', '-c', '95', '-r', '1000', '-n', '2', '-m', '-a', '-d',\n"
        "                 'examples/rouge155/config.xml'])\n"
        "assert code in (0, None), code\n"
        "assert 'ROUGE-2 Average_R' in out.getvalue()\n"
        "print('numpy' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=repo, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "False"
