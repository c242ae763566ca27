"""rougekit.compat.pyrouge against pyrouge 0.1.3 itself driving the reference ROUGE-1.5.5.pl.

The same folders go through both; the printed outputs must be byte-identical and the dicts of
``output_to_dict`` equal. pyrouge needs a ROUGE home (the script and its ``data`` folder): a
temporary one points at the reference installed by tools/setup_reference_rouge.sh.
"""

from __future__ import annotations

import logging
import random
import re
import subprocess
import tempfile

import pytest
from _paths import SHARED, shared_missing
from reference_rouge import data_dir, perl_path, reference_available, script_path

from rougekit.compat import pyrouge as ours

pyrouge = pytest.importorskip("pyrouge", reason="pyrouge is not installed (pip install pyrouge==0.1.3)")

SL2003 = SHARED / "data" / "rouge155-sample-test" / "sample-test" / "SL2003"
DUC2004 = SHARED / "data" / "peer-rouge-test-suites" / "diego999-py-rouge" / "summaries_1"
DATA = data_dir()  # read before the tests move HOME


@pytest.fixture
def real(tmp_path, monkeypatch):
    """A factory of pyrouge Rouge155 objects running the reference script (skips without Perl)."""
    ok, why = reference_available()
    if not ok:
        pytest.skip(f"the reference ROUGE-1.5.5.pl cannot run: {why}")
    home = tmp_path / "rouge_home"
    home.mkdir()
    wrapper = home / "ROUGE-1.5.5.pl"  # pyrouge runs <home>/ROUGE-1.5.5.pl directly
    wrapper.write_text(f'#!/bin/sh\nexec "{perl_path()}" "{script_path()}" "$@"\n')
    wrapper.chmod(0o755)
    (home / "data").symlink_to(DATA)
    monkeypatch.setenv("HOME", str(tmp_path))  # pyrouge writes ~/.pyrouge/settings.ini
    monkeypatch.setenv("ROUGE_EVAL_HOME", str(DATA))
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))  # its HTML copies and configuration files
    logging.getLogger("global").setLevel(logging.WARNING)
    return lambda **kwargs: pyrouge.Rouge155(str(home), **kwargs)


def configured(rouge, system_dir, model_dir, system_pattern, model_pattern):
    rouge.system_dir = str(system_dir)
    rouge.model_dir = str(model_dir)
    rouge.system_filename_pattern = system_pattern
    rouge.model_filename_pattern = model_pattern
    return rouge


def assert_same(real, folders, method="convert_and_evaluate", init=None, **kwargs):
    theirs = getattr(configured(real(**(init or {})), *folders), method)(**kwargs)
    mine = getattr(configured(ours.Rouge155(**(init or {})), *folders), method)(**kwargs)
    assert mine == theirs
    assert ours.Rouge155().output_to_dict(mine) == pyrouge.Rouge155.output_to_dict(None, theirs)
    return theirs


WORDS = "The cat sat on a mat dog ran fast and Slow | <b> & x.y , 's running runs é Über 1999".split()


def generated(tmp_path, seed, docs=6):
    """Plain-text summaries, one sentence per line, with CRLF, blank lines, '<', '&', '|' and non-ASCII."""
    rng = random.Random(seed)

    def text():
        lines = [" ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 14))) for _ in range(rng.randint(1, 4))]
        lines[0] = "summary " + lines[0]  # at least one word (ROUGE-W dies on an empty reference)
        if rng.random() < 0.3:
            lines.insert(rng.randrange(len(lines)), "")
        return rng.choice(["\n", "\r\n"]).join(lines) + rng.choice(["", "\n", "\r\n"])

    system_dir, model_dir = tmp_path / f"system{seed}", tmp_path / f"model{seed}"
    system_dir.mkdir()
    model_dir.mkdir()
    for d in range(1, docs + 1):
        (system_dir / f"doc.{d}.txt").write_bytes(text().encode())
        for m in "ABCD"[: rng.randint(1, 4)]:
            (model_dir / f"doc.{m}.{d}.txt").write_bytes(text().encode())
    (system_dir / "notes.md").write_text("not a summary\n")  # not matched by the pattern
    return system_dir, model_dir, r"doc.(\d+).txt", "doc.[A-Z].#ID#.txt"


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_generated_folders_default_arguments(real, tmp_path, seed):
    output = assert_same(real, generated(tmp_path, seed))
    assert "1 ROUGE-SU* Average_F" in output and "1 ROUGE-W-1.2 Average_R" in output


def test_generated_folders_other_arguments(real, tmp_path):
    folders = generated(tmp_path, 7)
    assert_same(real, folders, system_id="sysX")
    data = f"-e {DATA} "
    assert_same(real, folders, rouge_args=data + "-c 90 -n 2 -a -f B -d -p 0.3")
    assert_same(real, folders, rouge_args=data + "-n 3 -x -2 4 -u -s -a -r 100")
    assert_same(real, folders, init={"rouge_args": f'"{data}-n 1 -l 10 -a"'})  # quotes removed, as pyrouge


@pytest.mark.shared  # ROUGE-1.5.5's sample test: not redistributable, not in tests/data
def test_summaries_already_in_see_format_sl2003(real):
    """ROUGE-1.5.5's sample-test SL2003 folders (pyrouge's own docstring example), read by evaluate()."""
    if not SL2003.is_dir():
        pytest.skip(shared_missing(SL2003))
    system_pattern, model_pattern = r"SL.P.10.R.11.SL062003-(\d+).html", "SL.P.10.R.[A-Z].SL062003-#ID#.html"
    output = assert_same(
        real, (SL2003 / "systems", SL2003 / "models", system_pattern, model_pattern), method="evaluate"
    )
    assert output.count("Average_R") == 8  # ROUGE-1..4, L, W-1.2, S*, SU*


@pytest.mark.shared  # DUC 2004 reference summaries (NIST data): not in tests/data
def test_duc2004_plain_text_summaries(real):
    """DUC 2004 task 2 summaries (one system, 4 references each), clusters 0-9, as plain text."""
    if not DUC2004.is_dir():
        pytest.skip(shared_missing(DUC2004))
    folders = (DUC2004 / "system", DUC2004 / "references", r"([0-9]).txt", "#ID#[a-d].txt")
    output = assert_same(real, folders)
    assert output.count("Average_F") == 8


def outcome(call):
    try:
        return "ok", call()
    except Exception as exc:  # noqa: BLE001 -- the types are compared
        return exc, str(exc)


def test_errors_keep_their_types_and_messages(real, tmp_path):
    system_dir, model_dir, system_pattern, model_pattern = generated(tmp_path, 11, docs=2)
    for make in (real, ours.Rouge155):  # pyrouge's own checks: the same messages
        with pytest.raises(Exception, match="Cannot set system directory because the path .* does not exist"):
            make().system_dir = str(tmp_path / "missing")
    messages = []
    for make in (real, ours.Rouge155):
        rouge = configured(make(), system_dir, model_dir, "nothing(\\d+)", model_pattern)
        messages.append(outcome(rouge.convert_and_evaluate)[1])
        rouge = configured(make(), system_dir, model_dir, system_pattern, "other.#ID#.txt")
        messages.append(outcome(rouge.convert_and_evaluate)[1])
    messages = [re.sub(r"directory \S+", "directory <dir>", m) for m in messages]  # pyrouge names its HTML copy
    assert messages[:2] == messages[2:] and "Did not find any files" in messages[0]
    # where the script dies, pyrouge raises CalledProcessError: no -a, ROUGE-W of an empty reference
    (model_dir / "doc.A.1.txt").write_text("\n")
    for args in (f"-e {DATA} -n 2", None):
        theirs = outcome(
            lambda: configured(real(), system_dir, model_dir, system_pattern, model_pattern).convert_and_evaluate(
                rouge_args=args
            )
        )
        mine = outcome(
            lambda: configured(
                ours.Rouge155(), system_dir, model_dir, system_pattern, model_pattern
            ).convert_and_evaluate(rouge_args=args)
        )
        assert isinstance(theirs[0], subprocess.CalledProcessError)
        assert isinstance(mine[0], subprocess.CalledProcessError) and isinstance(mine[0], ours.InputError)
        assert mine[1] and "\n" not in mine[1]


def test_output_to_dict_and_html_without_perl():
    output = (
        "---------------------------------------------\n"
        "1 ROUGE-1 Average_R: 0.43750 (95%-conf.int. 0.40000 - 0.47500)\n"
        "1 ROUGE-SU* Average_F: 0.12000 (95%-conf.int. 0.10000 - 0.14000)\n"
    )
    expected = {
        "rouge_1_recall": 0.4375,
        "rouge_1_recall_cb": 0.4,
        "rouge_1_recall_ce": 0.475,
        "rouge_su*_f_score": 0.12,
        "rouge_su*_f_score_cb": 0.1,
        "rouge_su*_f_score_ce": 0.14,
    }
    assert ours.Rouge155().output_to_dict(output) == expected == pyrouge.Rouge155.output_to_dict(None, output)
    text = "First line <b>\r\nsecond & last\n"
    assert ours.Rouge155.convert_text_to_rouge_format(text) == pyrouge.Rouge155.convert_text_to_rouge_format(text)
    assert ours.Rouge155.convert_text_to_rouge_format(text, "t") == pyrouge.Rouge155.convert_text_to_rouge_format(
        text, "t"
    )
    assert ours.DEFAULT_ROUGE_ARGS == "-c 95 -2 -1 -U -r 1000 -n 4 -w 1.2 -a"


@pytest.mark.parametrize(
    ("system_pattern", "model_pattern", "error"),
    [
        (r"doc.\d+.txt", "doc.[A-Z].#ID#.txt", IndexError),  # no group for the document ID
        (r"doc.(\d+.txt", "doc.[A-Z].#ID#.txt", re.error),  # not a regular expression
        (r"doc.(\d+).txt", "doc.[A-Z.#ID#.txt", re.error),
    ],
)
def test_pattern_errors_are_pyrouges(tmp_path, system_pattern, model_pattern, error):
    """Issue 25, finding 11: a bad pattern raises what pyrouge raises (kept on purpose, documented in
    docs/migrating/pyrouge.md): pyrouge's own config writer, no Perl needed, against rougekit."""
    (tmp_path / "sys").mkdir()
    (tmp_path / "mod").mkdir()
    (tmp_path / "sys" / "doc.1.txt").write_text("a b c\n", encoding="utf-8")
    (tmp_path / "mod" / "doc.A.1.txt").write_text("a b\n", encoding="utf-8")
    system_dir, model_dir = str(tmp_path / "sys"), str(tmp_path / "mod")
    with pytest.raises(error) as theirs:
        pyrouge.Rouge155.write_config_static(
            system_dir, system_pattern, model_dir, model_pattern, str(tmp_path / "config.xml"), 1
        )
    r = ours.Rouge155()
    r.system_dir, r.model_dir = system_dir, model_dir
    r.system_filename_pattern, r.model_filename_pattern = system_pattern, model_pattern
    with pytest.raises(error) as mine:
        r.convert_and_evaluate()
    assert str(mine.value) == str(theirs.value)
