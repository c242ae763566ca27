"""Issue 25, finding 10: names other packages and papers use for ROUGE measures (rougeLsum, rougeL,
rouge1, R-1, ROUGE-LSUM, ...) are refused with the rougekit measure each one is and what to write;
rougekit's own names keep their meaning."""

from __future__ import annotations

import subprocess
import sys

import pytest
from _paths import subprocess_env

import rougekit
from rougekit.errors import OptionError
from rougekit.measures.registry import parse


@pytest.mark.parametrize(
    ("name", "ours"),
    [
        ("rougeLsum", "ROUGE-L"),
        ("ROUGE-Lsum", "ROUGE-L"),
        ("ROUGE-LSUM", "ROUGE-L"),
        ("rouge-lsum", "ROUGE-L"),
        ("rougeL", "ROUGE-L"),
        ("rouge1", "ROUGE-1"),
        ("rouge2", "ROUGE-2"),
        ("R-1", "ROUGE-1"),
        ("R-L", "ROUGE-L"),
        ("R-SU4", "ROUGE-SU4"),
        ("RL", "ROUGE-L"),
        ("ROUGE_1", "ROUGE-1"),
        ("rougeW", "ROUGE-W-1.2"),
    ],
)
def test_other_packages_names_are_refused_with_the_measure_they_are(name, ours):
    with pytest.raises(OptionError) as info:
        parse(name)
    message = str(info.value)
    assert message.startswith(f"unknown measure {name!r}: {name} ")
    assert f"use {ours}" in message
    assert "did you mean" not in message  # never a look-alike such as ROUGE-SU4 for ROUGE-Lsum
    assert parse(ours).name == ours  # and what it says to write is a measure


def test_rouge_score_names_say_which_lcs_they_are():
    with pytest.raises(OptionError, match=r"rougeLsum is rouge-score's summary-level LCS .* that is ROUGE-L"):
        rougekit.score(["a"], ["a"], measures=["ROUGE-1", "rougeLsum"], bootstrap=None)
    with pytest.raises(OptionError, match=r"rougeL is rouge-score's LCS over the whole summary as one sequence"):
        rougekit.score(["a"], ["a"], measures=["rougeL"], bootstrap=None)
    with pytest.raises(OptionError, match=r"rougekit\.compat\.rouge_scorer"):
        rougekit.score(["a"], ["a"], measures=["rouge1"], bootstrap=None)


def test_valid_names_keep_their_meaning():
    for name, canonical in [("rouge-l", "ROUGE-L"), ("rouge-1", "ROUGE-1"), ("rouge-su4", "ROUGE-SU4"),
                            ("ROUGE-W-1.2", "ROUGE-W-1.2"), ("rouge-s4", "ROUGE-S4")]:  # fmt: skip
        assert parse(name).name == canonical
    with pytest.raises(OptionError, match=r"did you mean ROUGE-L\?"):  # plain typos still get a look-alike
        parse("ROUGE-X")


def test_cli_names_the_mapping_in_one_line(tmp_path):
    (tmp_path / "a.txt").write_text("a\n", encoding="utf-8")
    files = ["-c", str(tmp_path / "a.txt"), "-r", str(tmp_path / "a.txt")]
    out = subprocess.run(
        [sys.executable, "-m", "rougekit", "score", *files, "--measures", "ROUGE-1,rougeLsum"],
        capture_output=True,
        text=True,
        env=subprocess_env(),
    )
    assert out.returncode == 2
    assert len(out.stderr.splitlines()) == 1
    assert "rougeLsum is rouge-score's summary-level LCS" in out.stderr and "use ROUGE-L" in out.stderr


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("R-0", "ROUGE-N needs N >= 1"),
        ("rouge0", "ROUGE-N needs N >= 1"),
        ("R-W-0", "the ROUGE-W weight must be within 1 and 5"),
        ("rougeW-7", "the ROUGE-W weight must be within 1 and 5"),
    ],
)
def test_a_name_mapped_to_a_measure_rougekit_refuses_names_no_measure_to_use(name, why):
    """'R-0' was answered 'use ROUGE-0', itself refused."""
    with pytest.raises(OptionError) as err:
        parse(name)
    message = str(err.value)
    assert message.startswith(f"unknown measure '{name}': it would be ROUGE-") and why in message
    assert "; use " not in message
