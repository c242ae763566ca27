"""`rougekit correlate --level system` says why a correlation is nan (the metric's system means all equal,
here 0.3 exactly though the floats of 0.1 + 0.5 and 0.2 + 0.4 differ), instead of a bare nan."""

from __future__ import annotations

from rougekit.cli.main import main

HUMAN = "system,instance,rel\nA,1,1\nA,2,1\nB,1,2\nB,2,2\nC,1,3\nC,2,3\n"


def _kendall(tmp_path, capsys, c_scores: str) -> tuple[list[str], str]:
    """The system-level Kendall row printed for A=(0.1, 0.5), B=(0.2, 0.4), C=``c_scores``, and stderr."""
    c1, c2 = c_scores.split(",")
    metric = tmp_path / "m.csv"
    metric.write_text(f"system,instance,ROUGE-1_f\nA,1,0.1\nA,2,0.5\nB,1,0.2\nB,2,0.4\nC,1,{c1}\nC,2,{c2}\n")
    (tmp_path / "h.csv").write_text(HUMAN)
    args = ["correlate", str(metric), str(tmp_path / "h.csv"), "--level", "system", "--coefficient", "kendall"]
    assert main(args) == 0
    out, err = capsys.readouterr()
    return out.split("\n")[-2].split(), err


def test_a_nan_system_level_correlation_is_explained(tmp_path, capsys):
    row, err = _kendall(tmp_path, capsys, "0.3,0.3")
    assert row == ["ROUGE-1_f", "rel", "kendall", "nan"]
    assert (
        "rougekit correlate: note: ROUGE-1_f against rel: system-level correlation undefined: "
        "the metric's system means (over paired instances) are all 0.3\n"
    ) in err


def test_no_note_when_the_correlation_is_defined(tmp_path, capsys):
    row, err = _kendall(tmp_path, capsys, "0.9,0.9")
    assert "undefined" not in err
    assert row == ["ROUGE-1_f", "rel", "kendall", "0.8165"]  # scipy's tau-b: A and B tied at 0.3
