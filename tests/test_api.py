"""The Python API: worked examples E1-E20 (tests/goldens/e*), and equality with `rougekit rouge155 -d`."""

from __future__ import annotations

import contextlib
import io
import random
import re

import numpy as np
import pytest

import rougekit
from rougekit.cli.main import main as cli_main
from rougekit.errors import OptionError

E1_REF = "police killed the gunman"


def pair(cand, refs, **kw):
    return rougekit.score([cand], [refs], bootstrap=None, **kw).per_pair()[0]


def test_e1_paper_example():
    kw = dict(measures=["ROUGE-1", "ROUGE-2", "ROUGE-L", "ROUGE-W-1.2", "ROUGE-S4", "ROUGE-SU4"])
    s2 = pair("police kill the gunman", E1_REF, **kw)
    s3 = pair("the gunman kill police", E1_REF, **kw)
    s4 = pair("the gunman police killed", E1_REF, **kw)
    assert [s["ROUGE-1"]["recall"] for s in (s2, s3, s4)] == [0.75, 0.75, 1.0]
    assert [s["ROUGE-2"]["recall"] for s in (s2, s3, s4)] == [0.33333, 0.33333, 0.66667]
    assert [s["ROUGE-L"]["recall"] for s in (s2, s3, s4)] == [0.75, 0.5, 0.5]
    assert (s2["ROUGE-W-1.2"]["recall"], s2["ROUGE-W-1.2"]["precision"]) == (0.51208, 0.67569)
    assert (s3["ROUGE-W-1.2"]["recall"], s3["ROUGE-W-1.2"]["precision"]) == (0.37893, 0.5)
    assert [s["ROUGE-S4"]["recall"] for s in (s2, s3, s4)] == [0.5, 0.16667, 0.33333]
    assert [s["ROUGE-SU4"]["recall"] for s in (s2, s3, s4)] == [0.55556, 0.22222, 0.44444]


def test_e1_system_average_is_the_scripts_bootstrap_mean():
    r = rougekit.score(
        ["police kill the gunman", "the gunman kill police", "the gunman police killed"],
        [E1_REF] * 3,
        measures=["ROUGE-L"],
    )
    assert r.rouge155_averages["ROUGE-L"]["recall"] == pytest.approx(0.58350, abs=5e-6)
    assert r.to_dict()["ROUGE-L"]["recall"] == pytest.approx(0.58333, abs=5e-6)  # the plain mean
    iv = r.intervals["ROUGE-L"]["recall"]
    assert (iv.low, iv.high, iv.level) == (0.5, 0.75, 95.0)


def test_e2_rouge_w_script_vs_paper():
    x = "a b c d e f g"
    for y in ("a b c d h i k", "a h b k c i d"):
        s = pair(y, x, measures=["ROUGE-W-2"])["ROUGE-W-2"]
        assert (s["recall"], s["precision"], s["f"]) == (0.08163, 0.57143, 0.14285)
    # the paper's normalisation (eqs. 13-15): Y1 keeps its run of 4, Y2 has four runs of 1
    y1 = pair("a b c d h i k", x, measures=["ROUGE-W-2"], wlcs="paper")["ROUGE-W-2"]
    y2 = pair("a h b k c i d", x, measures=["ROUGE-W-2"], wlcs="paper")["ROUGE-W-2"]
    assert y1["recall"] == 0.57143  # sqrt(16/49)
    assert y2["recall"] == 0.28571  # sqrt(4/49)


def test_e3_e4_e5_union_lcs():
    s = pair("w1 w2 w6 w7 w8\nw1 w3 w8 w9 w5", "w1 w2 w3 w4 w5", measures=["ROUGE-L"])["ROUGE-L"]
    assert (s["recall"], s["precision"], s["f"]) == (0.8, 0.4, 0.53333)
    a = pair("gunman police\npolice", "police gunman", measures=["ROUGE-L"])["ROUGE-L"]
    b = pair("gunman police\ngunman", "police gunman", measures=["ROUGE-L"])["ROUGE-L"]
    assert (a["recall"], a["precision"]) == (0.5, 0.33333)
    assert (b["recall"], b["precision"]) == (1.0, 0.66667)
    c = pair("the cat", "the cat sat\nthe cat ran", measures=["ROUGE-L"])["ROUGE-L"]
    assert (c["recall"], c["precision"]) == (0.33333, 1.0)


def test_e6_e7_e8b_skip_bigrams():
    assert pair("gunman", E1_REF, measures=["ROUGE-SU4"])["ROUGE-SU4"]["recall"] == 0.0
    s = pair("police gunman", E1_REF, measures=["ROUGE-SU4"])["ROUGE-SU4"]
    assert (s["recall"], s["precision"], s["f"]) == (0.22222, 1.0, 0.36363)
    assert pair("a g", "a b c d e f g", measures=["ROUGE-S4"])["ROUGE-S4"]["recall"] == 0.0
    assert pair("a f", "a b c d e f g", measures=["ROUGE-S4"])["ROUGE-S4"]["recall"] == 0.05


def test_su_with_every_unigram_is_an_option():
    # the paper's begin-of-sentence marker counts the last token's unigram too: 1 bigram + 2 unigrams
    s = pair("police gunman", E1_REF, measures=["ROUGE-SU4"], su_unigrams="all")["ROUGE-SU4"]
    # reference: 6 skip bigrams (4 tokens, d=4) + 4 unigrams = 10 units; hits: (police,gunman) + 2
    assert s["recall"] == 0.3 and s["precision"] == 1.0


def test_e9_tokens_and_e10_limits():
    s = pair(
        "Well-known U.S. state-of-the-art don't 3.5 café $100",
        "well known us state of the art don t 3 5 caf 100",
        measures=["ROUGE-1"],
    )["ROUGE-1"]
    assert (s["recall"], s["precision"]) == (0.92308, 0.85714)
    s = pair("Hello , world and more words", "hello world and", measures=["ROUGE-1"], word_limit=3)["ROUGE-1"]
    assert (s["recall"], s["precision"]) == (0.66667, 1.0)
    assert pair("police killed", E1_REF, measures=["ROUGE-1"], word_limit=2)["ROUGE-1"]["recall"] == 1.0
    s = pair("aaa bbb\nccc ddd\neee", "aaa bbb\nccc ddd\neee", measures=["ROUGE-1", "ROUGE-L"], byte_limit=10)
    assert s["ROUGE-1"]["recall"] == 1.0 and s["ROUGE-L"]["recall"] == 0.6


def test_e12_multiple_references_and_jackknife():
    refs = ["police killed the gunman", "the gunman was shot by police"]
    a = pair("police kill the gunman", refs, measures=["ROUGE-1", "ROUGE-2", "ROUGE-L"])
    assert (a["ROUGE-1"]["recall"], a["ROUGE-1"]["precision"], a["ROUGE-1"]["f"]) == (0.6, 0.75, 0.66667)
    assert (a["ROUGE-2"]["recall"], a["ROUGE-2"]["precision"]) == (0.25, 0.33333)
    assert (a["ROUGE-L"]["recall"], a["ROUGE-L"]["precision"]) == (0.5, 0.625)
    b = pair("police kill the gunman", refs, measures=["ROUGE-1"], multi_ref="best")
    assert b["ROUGE-1"]["recall"] == 0.75
    # jackknife over 2 references: each leave-one-out set has one reference, so the mean of the two
    # single-reference scores: ROUGE-1 recall 3/4 and 3/6 -> (0.75 + 0.5) / 2
    j = pair("police kill the gunman", refs, measures=["ROUGE-1"], multi_ref="jackknife")
    assert j["ROUGE-1"]["recall"] == pytest.approx(0.625)
    # three references: leave-one-out maxima are max(r2,r3), max(r1,r3), max(r1,r2)
    refs3 = refs + ["police shot a gunman"]  # recall 2/4
    j3 = pair("police kill the gunman", refs3, measures=["ROUGE-1"], multi_ref="jackknife")
    assert j3["ROUGE-1"]["recall"] == pytest.approx((0.5 + 0.75 + 0.75) / 3)


def test_jackknife_with_the_token_average_is_refused():
    """average='tokens' sums each pair's counts; the jackknife has none: it printed multi_ref='sum''s numbers
    labelled refs:jackknife. The per-pair average of the jackknife stays: (0.625 + 1) / 2 by hand."""
    refs = [["police killed the gunman", "the gunman was shot by police"], ["a cat", "a cat"]]
    with pytest.raises(OptionError, match="average='tokens'.*jackknife"):
        rougekit.score(
            ["police kill the gunman", "a cat"], refs, measures=["ROUGE-1"], multi_ref="jackknife", average="tokens"
        )
    got = rougekit.score(
        ["police kill the gunman", "a cat"], refs, measures=["ROUGE-1"], multi_ref="jackknife", bootstrap=None
    )
    assert got.corpus("ROUGE-1")["recall"] == pytest.approx((0.625 + 1.0) / 2)


def test_e14_empty_and_e16_alpha_and_e18_e19():
    for cand in ("", "...\n!!"):
        s = pair(cand, E1_REF, measures=["ROUGE-1", "ROUGE-2", "ROUGE-SU4", "ROUGE-W-1.2", "ROUGE-L"])
        assert all(v == {"recall": 0.0, "precision": 0.0, "f": 0.0} for v in s.values())
    assert pair("police kill the gunman today", E1_REF, measures=["ROUGE-1"], alpha=0)["ROUGE-1"]["f"] == 0.75
    assert pair("police kill the gunman today", E1_REF, measures=["ROUGE-1"], alpha=1)["ROUGE-1"]["f"] == 0.6
    s = pair(
        "agreement went children better generalization hopeful running ran cats",
        "agreem go child well gener hope run run cat",
        measures=["ROUGE-1"],
        stem=True,
    )["ROUGE-1"]
    assert (s["recall"], s["precision"]) == (0.88889, 0.88889)
    s = pair(
        "the police have killed the gunman", "a police officer killed gunman", measures=["ROUGE-1"], stopwords=True
    )["ROUGE-1"]
    assert (s["recall"], s["precision"]) == (0.75, 1.0)


def test_signature_and_options_errors():
    r = rougekit.score(["a b"], ["a b"], measures=["ROUGE-1"], stem=True, bootstrap="percentile", seed=7)
    sig = rougekit.Signature.parse(str(r.signature))
    assert sig == r.signature and sig.stem and sig.seed == "7"
    with pytest.raises(OptionError, match="did you mean ROUGE-L"):
        rougekit.score(["a"], ["a"], measures=["ROUGE-LL"])
    with pytest.raises(OptionError, match="2 candidates but 1"):
        rougekit.score(["a", "b"], ["a"])


def test_percentile_bootstrap_is_seeded():
    cands = ["a b c", "a c", "b d e f", "a"]
    refs = ["a b c d", "a b", "d e f", "b"]
    one = rougekit.score(cands, refs, bootstrap="percentile", seed=3).intervals
    two = rougekit.score(cands, refs, bootstrap="percentile", seed=3).intervals
    assert one == two
    assert one["ROUGE-1"]["recall"].low <= one["ROUGE-1"]["recall"].high


# -- property: the API equals `rougekit rouge155 -d` on random inputs ---------------------------
WORDS = (
    "police killed the gunman was shot by officers went children running agreement "
    "u.s. state-of-the-art don't 3.5 café a an of and it's reuters news cats geese"
).split()


def _summary(rng):
    return "\n".join(" ".join(rng.choice(WORDS) for _ in range(rng.randint(0, 9))) for _ in range(rng.randint(1, 4)))


def _rouge155_d(tmp_path, cands, refs, args):
    systems, models = tmp_path / "sys", tmp_path / "mod"
    systems.mkdir(exist_ok=True)
    models.mkdir(exist_ok=True)
    evals = []
    for i, (c, rs) in enumerate(zip(cands, refs), start=1):
        (systems / f"{i}.spl").write_text(c)
        ms = []
        for j, r in enumerate(rs):
            (models / f"{i}.{j}.spl").write_text(r)
            ms.append(f'<M ID="{j}">{i}.{j}.spl</M>')
        evals.append(
            f'<EVAL ID="{i}"><PEER-ROOT>{systems}</PEER-ROOT><MODEL-ROOT>{models}</MODEL-ROOT>'
            f'<INPUT-FORMAT TYPE="SPL"/><PEERS><P ID="X">{i}.spl</P></PEERS>'
            f"<MODELS>{''.join(ms)}</MODELS></EVAL>"
        )
    config = tmp_path / "c.xml"
    config.write_text("<ROUGE-EVAL>" + "".join(evals) + "</ROUGE-EVAL>")
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        assert cli_main(["rouge155", *args, "-d", "-r", "10", "-a", str(config)]) == 0
    found = {}
    for m in re.finditer(r"^X (\S+) Eval (\d+)\.X R:(\S+) P:(\S+) F:(\S+)$", out.getvalue(), re.M):
        found[(m[1], int(m[2]))] = (float(m[3]), float(m[4]), float(m[5]))
    return found


@pytest.mark.parametrize("case", range(40))
def test_api_equals_rouge155_per_pair(tmp_path, case):
    rng = random.Random(case)
    n = rng.randint(1, 6)
    cands = [_summary(rng) for _ in range(n)]
    refs = [[_summary(rng) for _ in range(rng.randint(1, 3))] for _ in range(n)]
    skip = rng.choice([-1, 0, 1, 4, 9])
    weight = rng.choice(["1.2", "1.5", "2"])
    shown = "*" if skip < 0 else str(skip)
    args, kw = ["-n", "3", "-2", str(skip), "-U", "-w", weight], {}
    measures = ["ROUGE-1", "ROUGE-2", "ROUGE-3", "ROUGE-L", f"ROUGE-W-{weight}", f"ROUGE-S{shown}", f"ROUGE-SU{shown}"]
    if rng.random() < 0.5:
        args.append("-m")
        kw["stem"] = True
    if rng.random() < 0.3:
        args.append("-s")
        kw["stopwords"] = True
    if rng.random() < 0.4:
        args += ["-f", "B"]
        kw["multi_ref"] = "best"
    if rng.random() < 0.3:
        args += ["-l", "6"]
        kw["word_limit"] = 6
    elif rng.random() < 0.3:
        args += ["-b", "25"]
        kw["byte_limit"] = 25
    alpha = rng.choice([0.5, 0.2, 1.0])
    args += ["-p", str(alpha)]
    # ROUGE-W dies on references without tokens; keep every reference non-empty for this property
    refs = [[r if re.search(r"[a-z]{3}", r) else "police " + r for r in rs] for rs in refs]
    if "stopwords" in kw or "word_limit" in kw or "byte_limit" in kw:
        measures.remove(f"ROUGE-W-{weight}")
        i = args.index("-w")
        del args[i : i + 2]
    expected = _rouge155_d(tmp_path, cands, refs, args)
    for fast in (True, False):  # the compiled batch path (when built) and the readable path
        got = rougekit.score(cands, refs, measures=measures, alpha=alpha, bootstrap=None, fast=fast, **kw).per_pair()
        for (name, i), triple in expected.items():
            g = got[i - 1][name]
            assert (g["recall"], g["precision"], g["f"]) == triple, (name, i, fast)
    assert len(expected) == n * len(measures)


def test_stream_without_pairs_gives_the_same_corpus_numbers():
    rng = random.Random(99)
    cands = [_summary(rng) for _ in range(50)]
    refs = [[_summary(rng), _summary(rng)] for _ in range(50)]
    scorer = rougekit.Scorer(["ROUGE-1", "ROUGE-L", "ACCY"], bootstrap=None)
    full = scorer.score(cands, refs).to_dict()
    flat = scorer.score_stream(zip(cands, refs), chunk_size=7, keep_pairs=False)
    assert len(flat) == 0 and flat.total_pairs == 50
    for name, values in flat.to_dict().items():
        for key, v in values.items():
            assert v == pytest.approx(full[name][key], abs=1e-12), (name, key)
    with pytest.raises(OptionError):
        rougekit.Scorer(["ROUGE-1"]).score_stream(zip(cands, refs), keep_pairs=False)  # bootstrap needs pairs


def test_bootstrap_sees_instances_in_the_scripts_order():
    # the script sorts "<evalID>.<peerID>": "1-2.X" < "1.X" because "-" < "."; plain "1" < "1-2" would differ
    from rougekit.stats.perl_bootstrap import perl_bootstrap

    # recall: "1" -> 4/4, "1-2" -> 3/4, "10" -> 3/4
    r = rougekit.score(["a b c d", "a b c", "a b d"], ["a b c d"] * 3, ids=["1", "1-2", "10"], measures=["ROUGE-1"])
    script_order = np.array([[0.75, 1.0, 0.85714], [1.0, 1.0, 1.0], [0.75, 1.0, 0.85714]])  # 1-2, 1, 10
    plain_order = script_order[[1, 0, 2]]  # 1, 1-2, 10
    expected = perl_bootstrap(script_order, 1000, 95).average[0]
    assert expected != perl_bootstrap(plain_order, 1000, 95).average[0]
    assert r.rouge155_averages["ROUGE-1"]["recall"] == expected


_WORDS = [
    "Москва",
    "город",
    "κόσμος",
    "λόγος",
    "नमस्ते",
    "दुनिया",
    "北京",
    "大学",
    "東京",
    "police",
    "Gunman",
    "kill",
    "the",
]


def _multilingual(rng: random.Random) -> str:
    sentences = []
    for _ in range(rng.randint(0, 3)):
        sentences.append(" ".join(rng.choice(_WORDS) for _ in range(rng.randint(0, 8))))
    return "\n".join(sentences)


@pytest.mark.parametrize("case", range(30))
def test_other_tokenizers_count_in_the_engine_as_in_the_readable_path(case):
    """unicode / cjk / a callable: tokenized in Python, counted by the compiled engine from token ids
    (when built); the numbers equal the readable path's, bit for bit."""
    from rougekit.engine import backend

    rng = random.Random(1000 + case)
    n = rng.randint(1, 8)
    cands = [_multilingual(rng) for _ in range(n)]
    refs = [[_multilingual(rng) for _ in range(rng.randint(1, 3))] for _ in range(n)]
    tokenizer = rng.choice(["unicode", "cjk", str.split])
    kw = {"stem": rng.random() < 0.5, "stopwords": rng.random() < 0.3, "multi_ref": rng.choice(["sum", "best"])}
    if rng.random() < 0.3:
        kw["word_limit"] = rng.randint(1, 6)
    skip = rng.choice(["*", "0", "4"])
    measures = ["ROUGE-1", "ROUGE-2", "ROUGE-L", f"ROUGE-S{skip}", f"ROUGE-SU{skip}"]
    if not kw.get("word_limit") and not kw["stopwords"] and all(re.search(r"\w", r) for rs in refs for r in rs):
        measures.append("ROUGE-W-1.2")  # W dies on a reference with no tokens
    fast = rougekit.Scorer(measures, tokenizer=tokenizer, bootstrap=None, **kw)
    slow = rougekit.Scorer(measures, tokenizer=tokenizer, bootstrap=None, fast=False, **kw)
    assert (fast._batch() is not None) == (backend.name() == "compiled")
    try:
        expected = slow.score(cands, refs)
    except rougekit.errors.InputError:  # ROUGE-W on a reference that tokenizes to nothing
        with pytest.raises(rougekit.errors.InputError):
            fast.score(cands, refs)
        return
    got = fast.score(cands, refs)
    assert got.per_pair() == expected.per_pair()
    assert got.counts() == expected.counts()


def test_a_blank_reference_is_said_by_score():
    """A blank reference (a missing or shifted row, most often) scores its pair 0: said, naming the pairs,
    as the command line says it of files (rougekit.score was silent). An empty candidate is a summary."""
    from rougekit.errors import BlankReferencesWarning

    with pytest.warns(BlankReferencesWarning, match=r"2 pair\(s\) have a blank reference .*: pair 2, 3$"):
        got = rougekit.score(["", "a b", "c"], ["a b", "  ", ["c", ""]], measures=["ROUGE-1"], bootstrap=None)
    # by hand: nothing in the candidate (0); nothing in the reference (0); "c" against "c" and nothing,
    # counts summed (-f A): hits 1 of 1 reference token, the candidate counted once per reference (P 1/2): F 2/3
    assert got.values("ROUGE-1").tolist() == [0.0, 0.0, 0.66667]
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        rougekit.score(["", "a b"], ["a b", "a"], measures=["ROUGE-1"], bootstrap=None)  # no blank reference


def test_blank_references_of_a_stream_are_said_once():
    """score_chunks / score_stream say the blank references of every chunk in one warning (one a chunk before)."""
    import warnings

    from rougekit.api import Scorer
    from rougekit.errors import BlankReferencesWarning

    pairs = [("a b", [""]), ("a b", ["a b"])] * 3
    scorer = Scorer(["ROUGE-1"], bootstrap=None)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        chunks = list(scorer.score_chunks(iter(pairs), chunk_size=2))
    said = [str(w.message) for w in caught if issubclass(w.category, BlankReferencesWarning)]
    assert said == [
        "3 pair(s) have a blank reference (empty or white space: no words), and score 0 against it: pair 1, 3, 5"
    ]
    assert [row[0, 5] for chunk in chunks for row in chunk] == [0.0, 1.0] * 3  # F of each pair, by hand
