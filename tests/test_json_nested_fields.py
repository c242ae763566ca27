"""JSON fields named by a dotted path (``pred.text``, ``choices.0.text``): rows exported from chat or
eval logs keep their texts in nested objects and lists. The CLI reads them where they are, gives the
numbers of the same texts in flat fields, and names where a path stops when it does not lead to a
field. Expected numbers are worked by hand: "the cat sat" against "the cat sat down" has 3 unigram
hits of 4 reference and 3 candidate tokens (R = 0.75, P = 1, F = 6/7)."""

from __future__ import annotations

import json

import pytest

from rougekit.cli.main import main
from rougekit.errors import InputError
from rougekit.io import reader
from rougekit.io.inputs import read_jsonl

NESTED = [
    {"pred": {"text": "the cat sat"}, "refs": [{"t": "the cat sat down"}], "choices": [{"text": "a dog"}]},
    {"pred": {"text": "a dog ran"}, "refs": [{"t": "the dog ran"}], "choices": [{"text": "the dog ran"}]},
]


def _jsonl(tmp_path, rows, name="rows.jsonl") -> str:
    path = tmp_path / name
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return str(path)


def test_a_dotted_name_reads_the_nested_field_and_a_digit_a_list_item(tmp_path):
    path = _jsonl(tmp_path, NESTED)
    ids, cands, refs = read_jsonl(path, ["pred.text", "choices.0.text"], ["refs.0.t"])
    assert cands == {"pred.text": ["the cat sat", "a dog ran"], "choices.0.text": ["a dog", "the dog ran"]}
    assert refs == [["the cat sat down"], ["the dog ran"]]
    assert ids == ["1", "2"]


def test_a_key_with_dots_is_read_as_that_key_first():
    row = {"pred.text": "flat", "pred": {"text": "nested"}}
    assert reader.field_value(row, "pred.text") == "flat"
    assert reader.field_value({"pred": {"text": "nested"}}, "pred.text") == "nested"
    assert reader.field_value({"pred": ["a", "b"]}, "pred.1") == "b"
    assert reader.field_value({"pred": ["a", "b"]}, "pred.2") is reader.MISSING
    assert reader.field_value({"pred": "a"}, "pred.text") is reader.MISSING


def test_nested_fields_score_as_the_same_texts_in_flat_fields(tmp_path, capsys):
    nested = _jsonl(tmp_path, NESTED)
    flat = _jsonl(tmp_path, [{"c": r["pred"]["text"], "r": r["refs"][0]["t"]} for r in NESTED], "flat.jsonl")
    common = ["--bootstrap", "none", "--format", "json", "-q"]
    assert (
        main(["score", "--jsonl", nested, "--candidate-field", "pred.text", "--reference-field", "refs.0.t", *common])
        == 0
    )
    got = json.loads(capsys.readouterr().out)
    assert main(["score", "--jsonl", flat, "--candidate-field", "c", "--reference-field", "r", *common]) == 0
    want = json.loads(capsys.readouterr().out)
    rows = got["systems"]["pred.text"]["ROUGE-1"]
    assert rows == want["systems"]["c"]["ROUGE-1"]
    # by hand: pair 1 R 3/4 P 1; pair 2 ("a dog ran" / "the dog ran") R 2/3 P 2/3, per pair rounded to
    # 5 places as ROUGE-1.5.5 rounds them
    assert rows["recall"] == pytest.approx((0.75 + 0.66667) / 2, abs=1e-12)
    assert rows["precision"] == pytest.approx((1 + 0.66667) / 2, abs=1e-12)


@pytest.mark.parametrize(
    ("field", "said"),
    [
        ("pred.txt", "no field 'pred.txt': 'pred' holds fields 'text'"),
        ("choices.3.text", "no field 'choices.3.text': 'choices' holds a list of 1 item"),
        ("pred.text.x", "no field 'pred.text.x': 'pred.text' holds a string"),
        ("nope.text", "no field 'nope.text' (fields: 'pred', 'refs', 'choices')"),
    ],
)
def test_a_path_that_leads_nowhere_is_named_where_it_stops(tmp_path, capsys, field, said):
    path = _jsonl(tmp_path, NESTED)
    with pytest.raises(InputError, match="line 1: " + said.replace("(", r"\(").replace(")", r"\)")):
        read_jsonl(path, [field], ["refs.0.t"])
    assert main(["score", "--jsonl", path, "--candidate-field", field, "--reference-field", "refs.0.t", "-q"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and said in err[0]


def test_dedup_reads_a_nested_field(tmp_path, capsys):
    rows = [{"msg": {"text": t}} for t in ("give three tips for staying healthy", "give 3 tips for staying healthy")]
    path = _jsonl(tmp_path, rows)
    out = tmp_path / "kept.jsonl"
    assert main(["dedup", path, "--field", "msg.text", "-o", str(out), "-q"]) == 0
    # by hand: LCS 5 of 6 tokens each side, F = 5/6 > 0.7: the second row is dropped
    assert [json.loads(line)["msg"]["text"] for line in out.read_text().splitlines()] == [
        "give three tips for staying healthy"
    ]
    array = tmp_path / "rows.json"
    array.write_text(json.dumps(rows), encoding="utf-8")
    assert main(["dedup", str(array), "--field", "msg.txt", "-q"]) == 2
    assert "no field 'msg.txt': 'msg' holds fields 'text'" in capsys.readouterr().err


def test_one_json_object_with_a_nested_field_is_one_row_or_columns_by_its_top_level_lists(tmp_path):
    # {"pred": {"text": ...}, "refs": [two]}: one pair with two references (pred is not a list), as with a
    # flat "pred" string; read as columns it would pair "the cat sat" with each reference
    one = tmp_path / "one.json"
    one.write_text(json.dumps({"pred": {"text": "the cat sat"}, "refs": ["the cat sat down", "a cat sat"]}, indent=1))
    ids, cands, refs = read_jsonl(str(one), ["pred.text"], ["refs"])
    assert (cands["pred.text"], refs) == (["the cat sat"], [["the cat sat down", "a cat sat"]])
    # {"pred": [objects], "refs": [texts]}: columns, one row per position, the path read in each row
    cols = tmp_path / "cols.json"
    cols.write_text(json.dumps({"pred": [{"text": "the cat sat"}, {"text": "a dog"}], "refs": ["r one", "r two"]}))
    ids, cands, refs = read_jsonl(str(cols), ["pred.text"], ["refs"])
    assert (ids, cands["pred.text"], refs) == (["1", "2"], ["the cat sat", "a dog"], [["r one"], ["r two"]])
