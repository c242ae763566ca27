"""`rougekit dedup`: formats kept as read, the dropped file, one-line errors; the pure-Python backend.

Expected decisions are worked by hand with rouge-score's formula: "give 3 tips for staying healthy"
against "give three tips for staying healthy" has an LCS of 5 of 6 and 6 tokens, F = 5/6 > 0.7;
"tell me the capital of france" against "what is the capital of france": LCS 4 of 6 and 6, F = 2/3.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from _paths import subprocess_env

import rougekit.errors
from rougekit import process

TEXTS = [
    "Give three tips for staying healthy.",
    "Give 3 tips for staying healthy.",
    "What is the capital of France?",
    "Tell me the capital of France.",
]


def dedup(*args, cwd, env=None):
    return subprocess.run(
        [sys.executable, "-m", "rougekit", "dedup", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=env or subprocess_env(),
    )


def test_text_lines_and_dropped_file(tmp_path):
    (tmp_path / "in.txt").write_text("\n".join(TEXTS) + "\n", encoding="utf-8")
    run = dedup("in.txt", "-o", "kept.txt", "--dropped", "dropped.jsonl", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert (tmp_path / "kept.txt").read_text(encoding="utf-8") == "".join(TEXTS[i] + "\n" for i in (0, 2, 3))
    (record,) = [json.loads(line) for line in (tmp_path / "dropped.jsonl").read_text().splitlines()]
    assert record == {
        "index": 1,
        "line": 2,
        "where": "line 2",
        "match_index": 0,
        "match_line": 1,
        "match_where": "line 1",
        "score": 2 * (5 / 6) * (5 / 6) / (5 / 6 + 5 / 6),
        "text": TEXTS[1],
        "match": TEXTS[0],
    }
    assert run.stderr.strip() == "rougekit dedup: kept 3 of 4 texts, dropped 1 (rougeL F > 0.7)"  # no bar: no TTY
    run = dedup("in.txt", "--threshold", "0.6", cwd=tmp_path)  # 2/3 > 0.6: the last one goes too
    assert run.stdout == "".join(TEXTS[i] + "\n" for i in (0, 2))


def test_jsonl_and_csv_rows_kept_as_read(tmp_path):
    rows = [{"id": i, "instruction": t, "extra": [i]} for i, t in enumerate(TEXTS)]
    lines = [json.dumps(r) for r in rows]
    (tmp_path / "in.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    run = dedup("in.jsonl", "--field", "instruction", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert run.stdout == "".join(lines[i] + "\n" for i in (0, 2, 3))
    (tmp_path / "in.csv").write_text(
        "id,text\n" + "".join(f'{i},"{t}"\n' for i, t in enumerate(TEXTS)), encoding="utf-8"
    )
    run = dedup("in.csv", "--column", "text", "-o", "kept.csv", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    # the kept rows as read (quotes and line endings included)
    assert (tmp_path / "kept.csv").read_text() == "id,text\n" + "".join(f'{i},"{TEXTS[i]}"\n' for i in (0, 2, 3))


@pytest.mark.parametrize(
    "content, args, message",
    [
        (
            '{"instruction": "a b"}\n{"input": "c"}\n',
            ["--field", "instruction"],
            "in.x, line 2: no field 'instruction'",
        ),
        ('{"instruction": "a b"}\n{"instruction": ""}\n', ["--field", "instruction"], "line 2: field 'instruction'"),
        ('{"instruction": "a b"}\nnot json\n', ["--field", "instruction"], "line 2: not valid JSON"),
        ("id,text\n1,a\n", ["--column", "txt"], "no column 'txt'"),
        ("id,text\n1,a\n2,\n", ["--column", "text"], "line 3: column 'text' is missing or empty"),
        ("a b\n\nc d\n", [], "in.x, line 2: empty line"),
        ("a b\n", ["--threshold", "1.5"], "threshold must be within 0 and 1"),
        ("a b\n", ["--measure", "ROUGE-Q"], "ROUGE-Q"),
        ("a b\n", ["--stopwords"], "stopwords"),
    ],
)
def test_bad_input_is_one_line_exit_2(tmp_path, content, args, message):
    (tmp_path / "in.x").write_text(content, encoding="utf-8")
    run = dedup("in.x", *args, cwd=tmp_path)
    assert run.returncode == 2
    assert message in run.stderr
    assert len(run.stderr.strip().splitlines()) == 1 and "Traceback" not in run.stderr


def test_missing_file(tmp_path):
    run = dedup("nope.txt", cwd=tmp_path)
    assert run.returncode == 2 and "cannot open nope.txt: no such file" in run.stderr


def test_progress_bar_goes_to_stderr(capsys):
    pytest.importorskip("tqdm", reason="the progress bar needs tqdm (the progress extra)")
    assert process.dedup(TEXTS, progress=True).kept == [0, 2, 3]
    captured = capsys.readouterr()
    assert "dedup" in captured.err and captured.out == ""


def test_pure_python_backend_gives_the_same_results(tmp_path):
    code = (
        "import json, sys; from rougekit import process; from rougekit.engine import backend;"
        "t = json.load(sys.stdin); r = process.dedup(t, threshold=0.5);"
        "m = process.cdist(t, t, measure='rougeL', dtype='float64', score_cutoff=0.3);"
        "l = process.cdist(t[:3], t, dtype='float64');"
        "print(json.dumps([backend.name(), r.kept, [list(d) for d in r.dropped], m.tolist(), l.tolist()]))"
    )
    texts = TEXTS + ["Give three tips for staying fit.", "What is the capital city of France?"]
    out = {}
    for name in ("python", "compiled"):
        env = subprocess_env(ROUGEKIT_BACKEND=name)
        run = subprocess.run(
            [sys.executable, "-c", code], input=json.dumps(texts), capture_output=True, text=True, env=env
        )
        assert run.returncode == 0, run.stderr
        out[name] = json.loads(run.stdout)
        assert out[name][0] == name
    assert out["python"][1:] == out["compiled"][1:]
    assert out["compiled"][1] == [0, 2]  # 3 (F 2/3), 4 and 5 score above 0.5 against 0 or 2


def test_extract_command(tmp_path):
    (tmp_path / "q.txt").write_text("Tips for staying healthy?\nthe capital of France\n", encoding="utf-8")
    (tmp_path / "c.txt").write_text("\n".join(TEXTS) + "\n", encoding="utf-8")
    run = subprocess.run(
        [sys.executable, "-m", "rougekit", "extract", "q.txt", "c.txt", "--limit", "2", "--score-cutoff", "0.5"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=subprocess_env(),
    )
    assert run.returncode == 0, run.stderr
    first, second = map(json.loads, run.stdout.splitlines())
    # "tips for staying healthy" (4) in both "give ... tips for staying healthy" (6): LCS 4, F = 2 * 1 * 4/6 / (1 + 4/6)
    f = 2 * 1.0 * (4 / 6) / (1.0 + 4 / 6)
    assert [(m["index"], m["line"], m["score"]) for m in first["matches"]] == [(0, 1, f), (1, 2, f)]
    # "the capital of france" (4) in questions 2 and 3 (6 tokens each): the same F, the earlier first
    assert [m["index"] for m in second["matches"]] == [2, 3] and second["query_line"] == 2
    bad = subprocess.run(
        [sys.executable, "-m", "rougekit", "extract", "q.txt", "c.txt", "--score-cutoff", "-1"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=subprocess_env(),
    )
    assert bad.returncode == 2 and "--score-cutoff must be within 0 and 1, got -1.0" in bad.stderr  # the option named


@pytest.mark.parametrize("measure", ["ROUGE-L", "ROUGE-1"])
def test_unreadable_letters_are_counted_over_the_input_once(tmp_path, measure):
    """dedup/extract with a rougekit measure score pair by pair: the warning counted each call's pairs
    ("24 of 48 summaries" for 2 lines of 60; extract said nothing). Now once, over the texts read."""
    rng = __import__("random").Random(1)
    words = "the cat sat on mat dog ran fast slow river house".split()
    lines = [" ".join(rng.choice(words) for _ in range(8)) for _ in range(60)]
    lines[5] += " yûki"
    lines[40] += " yûki"
    (tmp_path / "in.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    run = dedup("in.txt", "--measure", measure, "-q", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert run.stderr.count("warning:") == 1 and "2 of 60 summaries (3.3%) have letters outside ASCII" in run.stderr
    run = subprocess.run(
        [sys.executable, "-m", "rougekit", "extract", "in.txt", "in.txt", "--measure", measure],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=subprocess_env(),
    )
    assert run.returncode == 0, run.stderr
    assert run.stderr.count("warning:") == 1 and "4 of 120 summaries" in run.stderr  # the queries and the choices


def test_rouge_l_of_rouge_score_says_texts_it_cannot_read_and_lang_dedups_them(tmp_path):
    """rouge-score's tokenizer (the default rougeL) keeps a-z and 0-9: Chinese texts had no token and
    nothing was ever dropped, silently. Now said, with the way out: --measure ROUGE-L --lang zh."""
    lines = ["今天天气很好", "今天天气很好。", "今天天气很好啊", "完全不同的句子"]
    (tmp_path / "zh.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    run = dedup("zh.txt", "-q", cwd=tmp_path)
    assert run.returncode == 0 and run.stdout.splitlines() == lines
    assert "4 of 4 texts have letters but no tokens under rouge-score's tokenizer" in run.stderr
    assert "--measure ROUGE-L --lang LANG" in run.stderr
    run = dedup("zh.txt", "--measure", "ROUGE-L", "--lang", "zh", "-q", cwd=tmp_path)
    # by hand (jieba: 今天 天气 很 好): the 2nd adds 。 (no token: the same 4 tokens, F 1), the 3rd adds 啊 (F 8/9)
    assert run.returncode == 0 and run.stdout.splitlines() == [lines[0], lines[3]] and run.stderr == ""
    run = dedup("zh.txt", "--lang", "zh", cwd=tmp_path)
    assert run.returncode == 2 and "--lang applies to rougekit's measures" in run.stderr
    with pytest.warns(rougekit.errors.EmptyTokensWarning, match="2 of 2 texts have letters but no tokens"):
        assert process.dedup(["東京 大阪", "東京 大阪 京都"]).kept == [0, 1]


def test_extract_quiet_silences_its_warnings(tmp_path):
    (tmp_path / "zh.txt").write_text("今天天气很好\n完全不同的句子\n", encoding="utf-8")
    args = [sys.executable, "-m", "rougekit", "extract", "zh.txt", "zh.txt", "--limit", "1"]
    loud = subprocess.run(args, capture_output=True, text=True, cwd=tmp_path, env=subprocess_env())
    quiet = subprocess.run([*args, "-q"], capture_output=True, text=True, cwd=tmp_path, env=subprocess_env())
    assert loud.returncode == quiet.returncode == 0 and loud.stdout == quiet.stdout
    assert "no tokens" in loud.stderr and quiet.stderr == ""


def test_options_of_rougekit_measures_with_rouge_score_s_rougel_say_the_way_that_works(tmp_path, capsys):
    """--stopwords with the default rougeL said "give tokenizer=" (an option the command lacks), and
    process.dedup(lang=...) advised tokenizer=, which lang= refuses beside it; both now advise
    the measure that takes them, and that advice works."""
    from rougekit.cli.main import main

    (tmp_path / "t.txt").write_text("the cat sat\nthe cat sat on\n")
    assert main(["dedup", str(tmp_path / "t.txt"), "--stopwords", "-q"]) == 2
    err = capsys.readouterr().err
    assert err == (
        "rougekit dedup: error: --stopwords applies to rougekit's measures, not to rouge-score's rougeL: "
        "give --measure ROUGE-L (or ROUGE-1, ROUGE-2, ...) with it\n"
    )
    assert main(["dedup", str(tmp_path / "t.txt"), "--stopwords", "--measure", "ROUGE-L", "-q"]) == 0
    # by hand, SMART stopwords out: "cat sat" and "cat sat": F 1 > 0.7, the second dropped
    assert capsys.readouterr().out == "the cat sat\n"
    with pytest.raises(rougekit.errors.OptionError) as info:
        process.dedup(["der Hund"], lang="de")
    assert str(info.value) == (
        "option 'lang' applies to rougekit's measures, not to rouge-score's rougeL (a-z and 0-9 tokens): "
        "give measure='ROUGE-L' (or 'ROUGE-1', 'ROUGE-2', ...) with it"
    )
    assert process.dedup(["der Hund bellt", "Der Hund bellt!"], measure="ROUGE-L", lang="de").kept == [0]
    with pytest.raises(rougekit.errors.OptionError, match="'stopwords' .* with it, or a rougekit tokenizer= for"):
        process.dedup(["a b"], stopwords=True)
    assert process.dedup(["the cat", "a cat"], stopwords=True, tokenizer="unicode").kept == [0]
