"""`rougekit correlate --level system` says why a correlation is nan (the metric's system means all equal,
here 0.3 exactly though the floats of 0.1 + 0.5 and 0.2 + 0.4 differ), instead of a bare nan."""

from __future__ import annotations

from rougekit.cli.main import main


def test_a_nan_system_level_correlation_is_explained(tmp_path, capsys):
    metric = tmp_path / "m.csv"
    human = tmp_path / "h.csv"
    metric.write_text("system,instance,ROUGE-1_f\nA,1,0.1\nA,2,0.5\nB,1,0.2\nB,2,0.4\nC,1,0.3\nC,2,0.3\n")
    human.write_text("system,instance,rel\nA,1,1\nA,2,1\nB,1,2\nB,2,2\nC,1,3\nC,2,3\n")
    assert main(["correlate", str(metric), str(human), "--level", "system", "--coefficient", "kendall"]) == 0
    out, err = capsys.readouterr()
    assert out.split("\n")[-2].split() == ["ROUGE-1_f", "rel", "kendall", "nan"]
    assert (
        "rougekit correlate: note: ROUGE-1_f against rel: system-level correlation undefined: "
        "the metric's system means (over paired instances) are all 0.3\n"
    ) in err


def test_no_note_when_the_correlation_is_defined(tmp_path, capsys):
    metric = tmp_path / "m.csv"
    human = tmp_path / "h.csv"
    metric.write_text("system,instance,ROUGE-1_f\nA,1,0.1\nA,2,0.5\nB,1,0.2\nB,2,0.4\nC,1,0.9\nC,2,0.9\n")
    human.write_text("system,instance,rel\nA,1,1\nA,2,1\nB,1,2\nB,2,2\nC,1,3\nC,2,3\n")
    assert main(["correlate", str(metric), str(human), "--level", "system", "--coefficient", "kendall"]) == 0
    out, err = capsys.readouterr()
    assert "undefined" not in err
    assert out.split("\n")[-2].split() == ["ROUGE-1_f", "rel", "kendall", "0.8165"]  # scipy: A and B tied at 0.3
