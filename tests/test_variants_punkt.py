"""The rows and the part of the ``--target`` search that need nltk's Punkt: computed with the model
nltk finds (here the test model; nothing is downloaded), or, without one, named as left out with the
reason in the JSON (never a row of zeros, never a silently smaller search)."""

from __future__ import annotations

import json

import nltk
import pytest
from test_variants import PUNKT, lines_pairs, real_rouge_score, run_cli

from rougekit.variants import Settings, Space, variants
from rougekit.variants.target import grid_size

PUNKT_ROWS = ["rouge-score-lsum-punkt-stem", "torchmetrics-lsum"]


@pytest.fixture
def no_punkt(monkeypatch, tmp_path):
    monkeypatch.setattr(nltk.data, "path", [str(tmp_path)])  # nltk looks in an empty folder only


def test_without_punkt_the_rows_and_the_search_say_what_is_left_out(no_punkt, tmp_path):
    cands, refs = lines_pairs(6, 12)
    (tmp_path / "c.txt").write_text("\n".join(c.replace("\n", "<q>") for c in cands) + "\n")
    (tmp_path / "r.txt").write_text("\n".join(r.replace("\n", "<q>") for r in refs) + "\n")
    code, out, err = run_cli(
        "-c", tmp_path / "c.txt", "-r", tmp_path / "r.txt", "--sentence-sep", "<q>", "--format", "json",
        "--rows", ",".join(["rouge-score", *PUNKT_ROWS]), "--target", "R1=40.00,R2=10.00,RL=30.00",
    )  # fmt: skip
    assert code == 0, err
    data = json.loads(out)
    assert [r["name"] for r in data["rows"]] == ["rouge-score"]
    reasons = {s["name"]: s["reason"] for s in data["skipped"]}
    assert set(reasons) == {*PUNKT_ROWS, "search:split=punkt"}
    assert all("punkt_tab" in why for why in reasons.values())
    for name in PUNKT_ROWS:
        assert f"row {name} left out" in err
    assert all(m["settings"]["split"] != "punkt" for m in data["matches"])


def test_with_punkt_the_rows_are_computed_and_the_search_covers_its_sentences(monkeypatch):
    monkeypatch.setattr(nltk.data, "path", [str(PUNKT)])
    cands, refs = lines_pairs(8, 30)
    result = variants(cands, refs, rows=PUNKT_ROWS)
    assert [r.name for r in result.rows] == PUNKT_ROWS and not result.skipped

    def split(t):
        return "\n".join(nltk.sent_tokenize(" ".join(t.split("\n"))))

    theirs, _ = real_rouge_score([split(c) for c in cands], [split(r) for r in refs], ["rougeLsum"], True, "f")
    assert result.row(PUNKT_ROWS[0]).scores["ROUGE-L"]["f"] == theirs["rougeLsum"]
    # a table printed by rouge-score's rougeLsum on Punkt sentences (stemmed, per-pair mean) is found
    space = Space(cands, refs)
    s = Settings("rouge-score", "porter", split="punkt", multi_ref="max")
    target = ",".join(f"{k}={100 * space.value(s, m)[2]:.2f}" for k, m in zip(("R1", "R2", "RL"), space.measures))
    found = variants(cands, refs, rows=[], target=target, space=Space(cands, refs), max_matches=None)
    assert found.search.grid == grid_size(False) and not found.search.left_out
    assert any(m.settings["split"] == "punkt" and m.settings["tokenizer"] == "rouge-score" for m in found.matches)
    assert "skipped" not in found.to_dict()


def test_the_search_reads_the_rows_punkt_sentences_split_once(monkeypatch):
    """With a target, the Punkt row's split texts are the search's (each text split once per run),
    and the search gives the Punkt points the numbers of a Space that split the texts itself."""
    from rougekit.variants import space as space_module

    monkeypatch.setattr(nltk.data, "path", [str(PUNKT)])
    cands, refs = lines_pairs(9, 25)
    s = Settings("rouge-score", "porter", split="punkt", multi_ref="max")
    alone = Space(cands, refs)
    target = ",".join(f"{k}={100 * alone.value(s, m)[2]:.2f}" for k, m in zip(("R1", "R2", "RL"), alone.measures))
    split = space_module.punkt_lines
    calls = []
    monkeypatch.setattr(space_module, "punkt_lines", lambda t: calls.append(t) or split(t))
    space = Space(cands, refs)
    found = variants(cands, refs, rows=[PUNKT_ROWS[0]], target=target, space=space, max_matches=None)
    assert len(calls) == 2 * len(cands)  # every candidate and reference once, not once more for the search
    assert all(space.value(s, m) == alone.value(s, m) for m in space.measures)
    assert any(m.settings["split"] == "punkt" for m in found.matches)
