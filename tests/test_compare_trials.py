"""compare --trials: 1 refused as score's --resamples 1 is, too few for the interval said (qa21a F7)."""

from __future__ import annotations

import contextlib
import io

import pytest

from rougekit.cli.main import main


def _compare(tmp_path, *extra):
    (tmp_path / "a.txt").write_text("police kill the gunman\nthe cat\nrain today\n")
    (tmp_path / "b.txt").write_text("police killed the gunman\nthe cat sat\nheavy rain today\n")
    (tmp_path / "r.txt").write_text("police killed the gunman\nthe cat sat\nheavy rain today\n")
    out, err = io.StringIO(), io.StringIO()
    argv = ["compare", "-c", str(tmp_path / "a.txt"), "-c", str(tmp_path / "b.txt"), "-r", str(tmp_path / "r.txt")]
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main([*argv, "--measures", "ROUGE-1", "-q", *extra])
        except SystemExit as stop:
            code = stop.code
    return code, out.getvalue(), err.getvalue()


def test_one_trial_is_refused(tmp_path):
    code, out, err = _compare(tmp_path, "--trials", "1")
    assert code == 2 and out == ""
    assert "--trials must be within 2 and 100000, got 1" in err


@pytest.mark.parametrize(
    "trials,confidence,enough,p_floor",
    [("2", "95", 40, "0.3333"), ("39", "95", 40, None), ("150", "99", 200, None), ("4", "90", 20, "0.2000")],
)
def test_too_few_trials_for_the_interval_are_said(tmp_path, trials, confidence, enough, p_floor):
    # 2 / (1 - confidence): the trials that leave one resample beyond each end of the interval
    code, out, err = _compare(tmp_path, "--trials", trials, "--confidence", confidence)
    assert code == 0 and "interval of delta" in out
    assert f"--trials {trials} is too few for a {confidence}% interval of delta" in err
    assert f"use --trials {enough} or more" in err
    assert (f"1/(trials+1) = {p_floor}" in err) == (p_floor is not None)


@pytest.mark.parametrize("trials,confidence", [("40", "95"), ("200", "99")])
def test_enough_trials_say_nothing(tmp_path, trials, confidence):
    code, _, err = _compare(tmp_path, "--trials", trials, "--confidence", confidence)
    assert code == 0 and "too few" not in err
