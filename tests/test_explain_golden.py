"""Golden explanations of ROUGE-1.5.5 sample-test pairs, with the matches worked out by hand.

Three pairs of the sample test (SL2003, SEE files): peer 24 of SL062003-01, SL062003-24 and
SL062003-04, each against models A-D of its EVAL (the other two: see their tests). For the
first, ROUGE-1.5.5.pl run on this one EVAL with ``-n 2 -2 4 -U -w 1.2 -a -d``
(and with ``-m``) prints the per-pair R and P below; with the token counts they give the hits:

    peer (15 tokens): world countries is fact is that developed countries put pressure on that they should be
    A (8):  poor nations demand trade subsidies from developed nations
    B (9):  poor nations pressurise developed countries into granting trade subsidies
    C (10): developed countries should be pressurized business exemptions to poor nations
    D (11): world s poor decide to urge developed nations for business concessions

    ROUGE-1   R 0.23684 P 0.15000: 9/38 and 9/(15*4) -> 9 hits     (-m: R 0.26316 = 10/38)
    ROUGE-2   R 0.08824 P 0.05357: 3/34 and 3/56     -> 3 hits
    ROUGE-L   R 0.23684 P 0.15000: 9/38              -> 9 hits
    ROUGE-S4  R 0.02308: 3/130 (25+30+35+40 pairs)   -> 3 hits     (-m: R 0.03846 = 5/130)
    ROUGE-SU4 R 0.06707: 11/164 (plus 7+8+9+10 unigrams) -> 11 hits
    ROUGE-W-1.2 R 0.15032 P 0.14989

Which units those hits are was worked out by hand from the texts (comments in each test).
"""

from __future__ import annotations

import pytest
from _paths import SHARED, shared_missing

import rougekit
from rougekit.text.rouge155 import read_sentences

SL2003 = SHARED / "data" / "rouge155-sample-test" / "sample-test" / "SL2003"
# ROUGE-1.5.5's sample test: not redistributable, so not in tests/data (run with pytest -m shared)
pytestmark = [pytest.mark.shared, pytest.mark.skipif(not SL2003.exists(), reason=shared_missing(SL2003))]
MEASURES = ["ROUGE-1", "ROUGE-2", "ROUGE-L", "ROUGE-W-1.2", "ROUGE-S4", "ROUGE-SU4"]


def _summary(path) -> str:
    return "\n".join(s.decode("ascii") for s in read_sentences(str(path), "SEE"))


def _pair(eval_id: str = "SL062003-01"):
    peer = _summary(SL2003 / "systems" / f"SL.P.10.R.24.{eval_id}.html")
    models = [_summary(SL2003 / "models" / f"SL.P.10.R.{m}.{eval_id}.html") for m in "ABCD"]
    return peer, models


def rp(d: dict) -> tuple[float, float]:
    return d["recall"], d["precision"]


def runs_of(d: dict) -> list[tuple[int, int]]:
    """ROUGE-W: (reference, run length) of each run, in the kernel's order."""
    return [(x["reference"], x["count"]) for x in d["matches"]]


def units(d: dict) -> dict[int, dict[str, int]]:
    """Per reference: the matched unit (tokens joined by spaces) -> its count."""
    out: dict[int, dict[str, int]] = {}
    for x in d["matches"]:
        out.setdefault(x["reference"], {})[" ".join(x["tokens"])] = x["count"]
    return out


def test_sample_pair():
    peer, models = _pair()
    e = rougekit.explain(peer, models, measures=MEASURES).to_dict()["measures"]
    # ROUGE-1, 9 hits: A developed; B developed countries; C developed countries should be; D world developed
    r1 = {0: {"developed": 1}, 1: {"developed": 1, "countries": 1}, 3: {"world": 1, "developed": 1}}
    r1[2] = {"developed": 1, "countries": 1, "should": 1, "be": 1}
    assert units(e["ROUGE-1"]) == r1
    assert (e["ROUGE-1"]["recall"], e["ROUGE-1"]["precision"]) == (0.23684, 0.15)
    # ROUGE-2, 3 hits: "developed countries" in B and C, "should be" in C
    assert units(e["ROUGE-2"]) == {1: {"developed countries": 1}, 2: {"developed countries": 1, "should be": 1}}
    assert (e["ROUGE-2"]["recall"], e["ROUGE-2"]["precision"]) == (0.08824, 0.05357)
    # ROUGE-L, 9 hits: one sentence per side, so the LCS of each model: the ROUGE-1 tokens, in order
    assert units(e["ROUGE-L"]) == r1 and e["ROUGE-L"]["recall"] == 0.23684
    # in D the LCS takes "world" (model position 0) and "developed" (model position 6)
    assert [x["reference_positions"] for x in e["ROUGE-L"]["matches"] if x["reference"] == 3] == [
        [[[0, 0]]],
        [[[0, 6]]],
    ]
    # ROUGE-W-1.2: runs of consecutive model positions: A developed (1); B developed countries (2);
    # C developed countries should be (4); D world, developed (two runs of 1)
    runs = [(x["reference"], x["count"]) for x in e["ROUGE-W-1.2"]["matches"]]
    assert runs == [(0, 1), (1, 2), (2, 4), (3, 1), (3, 1)]
    assert (e["ROUGE-W-1.2"]["recall"], e["ROUGE-W-1.2"]["precision"]) == (0.15032, 0.14989)
    # ROUGE-S4, 3 hits: B (developed, countries); C (developed, countries), (should, be). C's other pairs
    # of these four tokens lie 6 or more tokens apart in the peer (developed at 7, should at 14)
    assert units(e["ROUGE-S4"]) == {1: {"developed countries": 1}, 2: {"developed countries": 1, "should be": 1}}
    assert e["ROUGE-S4"]["recall"] == 0.02308
    # ROUGE-SU4, 11 hits: those 3 pairs plus 8 unigrams. The script gives no unigram to the last token
    # of a summary: "be" is the peer's last token, so C's "be" does not count as a unigram
    su = units(e["ROUGE-SU4"])
    assert su[2] == {"developed": 1, "countries": 1, "should": 1, "developed countries": 1, "should be": 1}
    assert su[0] == {"developed": 1} and su[1] == {"developed": 1, "countries": 1, "developed countries": 1}
    assert su[3] == {"world": 1, "developed": 1}
    assert (e["ROUGE-SU4"]["recall"], e["ROUGE-SU4"]["precision"]) == (0.06707, 0.03716)


def test_sample_pair_stemmed():
    peer, models = _pair()
    e = rougekit.explain(peer, models, measures=["ROUGE-1", "ROUGE-S4"], stem=True).to_dict()["measures"]
    # -m: pressure (peer) and pressurized (C) both stem to "pressur": a 10th unigram hit in C
    assert units(e["ROUGE-1"])[2] == {"develop": 1, "countri": 1, "should": 1, "be": 1, "pressur": 1}
    assert e["ROUGE-1"]["recall"] == 0.26316
    # and two more skip-bigrams in C: (develop, pressur), (countri, pressur); should and be come after
    # pressure in the peer, so (should, pressur) and (be, pressur) are not in it
    assert units(e["ROUGE-S4"])[2] == {
        "develop countri": 1,
        "develop pressur": 1,
        "countri pressur": 1,
        "should be": 1,
    }
    assert e["ROUGE-S4"]["recall"] == 0.03846


def test_sample_pair_sl062003_24():
    """Peer 24 of SL062003-24: four tokens. ROUGE-1.5.5.pl on this one EVAL, ``-n 2 -2 4 -U -w 1.2 -a -d``:

    peer (4 tokens, one sentence): roadways bus and impact
    A (9):  4 killed in accident between roadway bus and maruti
    B (10): 4 dead in collision between roadways bus and maruti car
    C (10): four killed in accident between roadways bus and maruti car
    D (8):  roadways bus and a maruti collide 4 dead

    ROUGE-1     R 0.29730 P 0.68750  = 11/37 and 11/(4*4)
    ROUGE-2     R 0.21212 P 0.58333  = 7/33 and 7/(3*4)
    ROUGE-L     R 0.29730 P 0.68750  = 11/37
    ROUGE-W-1.2 R 0.19062 P 0.68930
    ROUGE-S4    R 0.08000 P 0.41667  = 10/125 (30+35+35+25 pairs) and 10/(6*4)
    ROUGE-SU4   R 0.13291 P 0.58333  = 21/158 (plus 8+9+9+7 unigrams) and 21/(9*4)
    """
    peer, models = _pair("SL062003-24")
    e = rougekit.explain(peer, models, measures=MEASURES).to_dict()["measures"]
    # ROUGE-1, 11 hits: A has "roadway", not "roadways": bus and; B, C, D: roadways bus and
    three = {"roadways": 1, "bus": 1, "and": 1}
    r1 = {0: {"bus": 1, "and": 1}, 1: three, 2: three, 3: three}
    assert units(e["ROUGE-1"]) == r1 and rp(e["ROUGE-1"]) == (0.2973, 0.6875)
    # ROUGE-2, 7 hits: bus and (A); roadways bus, bus and (B, C, D)
    two = {"roadways bus": 1, "bus and": 1}
    assert units(e["ROUGE-2"]) == {0: {"bus and": 1}, 1: two, 2: two, 3: two}
    assert rp(e["ROUGE-2"]) == (0.21212, 0.58333)
    # ROUGE-L, 11 hits: the same tokens, in the same order on both sides; in A model positions 6-7,
    # in B and C 5-7, in D 0-2
    assert units(e["ROUGE-L"]) == r1 and rp(e["ROUGE-L"]) == (0.2973, 0.6875)
    where = [x["reference_positions"][0][0][1] for x in e["ROUGE-L"]["matches"]]
    assert where == [6, 7, 5, 6, 7, 5, 6, 7, 0, 1, 2]
    # ROUGE-W-1.2: one run per model: 2 (A), 3 (B, C, D); hits 2^1.2 + 3 * 3^1.2. The script's model
    # count is (sum of |r|^1.2)^1.2 per model: R = (hits / sum((L^1.2)^1.2 for L = 9, 10, 10, 8))^(1/1.2)
    assert runs_of(e["ROUGE-W-1.2"]) == [(0, 2), (1, 3), (2, 3), (3, 3)]
    assert e["ROUGE-W-1.2"]["hits"] == pytest.approx(2**1.2 + 3 * 3**1.2, rel=1e-15)
    assert rp(e["ROUGE-W-1.2"]) == (0.19062, 0.6893)
    # ROUGE-S4, 10 hits: bus-and (A); roadways-bus, roadways-and, bus-and (B, C, D), all within 4
    pairs = {"roadways bus": 1, "roadways and": 1, "bus and": 1}
    assert units(e["ROUGE-S4"]) == {0: {"bus and": 1}, 1: pairs, 2: pairs, 3: pairs}
    assert rp(e["ROUGE-S4"]) == (0.08, 0.41667)
    # ROUGE-SU4, 21 hits: those 10 pairs and 11 unigrams (impact, the peer's last token, gets none)
    su = units(e["ROUGE-SU4"])
    assert su[0] == {"bus": 1, "and": 1, "bus and": 1}
    assert su[1] == su[2] == su[3] == {**three, **pairs}
    assert rp(e["ROUGE-SU4"]) == (0.13291, 0.58333)


def test_sample_pair_sl062003_04():
    """Peer 24 of SL062003-04, where the orders differ and "and" repeats. ROUGE-1.5.5.pl as above:

    peer (12): india and rest of world for good and evil struggle because living
    A (9):  war against terror for india and world will continue
    B (10): india along with others continue to fight against evil elements
    C (10): fight against evil everlasting for india and rest of world
    D (12): struggle against evil continues in india and the rest of the world

    ROUGE-1     R 0.48780 P 0.41667  = 20/41 and 20/(12*4)
    ROUGE-2     R 0.18919 P 0.15909  = 7/37 and 7/(11*4)
    ROUGE-L     R 0.36585 P 0.31250  = 15/41 and 15/48
    ROUGE-W-1.2 R 0.21617 P 0.29496
    ROUGE-SU4   R 0.23077 P 0.18750  = 42/182 and 42/(56*4)
    """
    peer, models = _pair("SL062003-04")
    e = rougekit.explain(peer, models, measures=MEASURES).to_dict()["measures"]
    # ROUGE-1, 20 hits: "and" is twice in the peer, once in each model: clipped to 1
    c = {"evil": 1, "for": 1, "india": 1, "and": 1, "rest": 1, "of": 1, "world": 1}
    r1 = {0: {"for": 1, "india": 1, "and": 1, "world": 1}, 1: {"india": 1, "evil": 1}, 2: c}
    r1[3] = {"struggle": 1, "evil": 1, "india": 1, "and": 1, "rest": 1, "of": 1, "world": 1}
    assert units(e["ROUGE-1"]) == r1 and rp(e["ROUGE-1"]) == (0.4878, 0.41667)
    # ROUGE-2, 7 hits: india and (A); none in B; india and, and rest, rest of, of world (C);
    # india and, rest of (D: "the" breaks the others)
    r2 = {0: {"india and": 1}, 2: {"india and": 1, "and rest": 1, "rest of": 1, "of world": 1}}
    r2[3] = {"india and": 1, "rest of": 1}
    assert units(e["ROUGE-2"]) == r2 and rp(e["ROUGE-2"]) == (0.18919, 0.15909)
    # ROUGE-L, 15 hits: the LCS keeps the peer's order. A: india and world (3; "for" comes after
    # world in the peer); B: india ... evil (2); C: india and rest of world (5; evil and for come
    # before india in C, after it in the peer); D: india and rest of world (5; struggle and evil too)
    lcs = {0: {"india": 1, "and": 1, "world": 1}, 1: {"india": 1, "evil": 1}}
    lcs[2] = lcs[3] = {"india": 1, "and": 1, "rest": 1, "of": 1, "world": 1}
    assert units(e["ROUGE-L"]) == lcs and rp(e["ROUGE-L"]) == (0.36585, 0.3125)
    d = [x["reference_positions"][0][0][1] for x in e["ROUGE-L"]["matches"] if x["reference"] == 3]
    assert d == [5, 6, 8, 9, 11]  # D's positions: "the" at 7 and 10 splits them
    # ROUGE-W-1.2: runs of consecutive model positions: A 4-6 (3); B 0 and 8 (1, 1); C 5-9 (5);
    # D 5-6, 8-9, 11 (2, 2, 1)
    assert runs_of(e["ROUGE-W-1.2"]) == [(0, 3), (1, 1), (1, 1), (2, 5), (3, 2), (3, 2), (3, 1)]
    assert rp(e["ROUGE-W-1.2"]) == (0.21617, 0.29496)
    # ROUGE-SU4, 42 hits. A (8): unigrams for, india, and, world; pairs for-and (peer 5, 7),
    # india-and, india-world, and-world (peer 0, 1, 4). B (2): india, evil; B's india and evil are
    # 8 apart, beyond a skip of 4
    su = units(e["ROUGE-SU4"])
    assert su[0] == {**r1[0], "for and": 1, "india and": 1, "india world": 1, "and world": 1}
    assert su[1] == {"india": 1, "evil": 1}
    # C (17): unigrams evil for india and rest of (world is C's last token: none); pairs for-and,
    # then india, and, rest, of with each later one of and rest of world (4 + 3 + 2 + 1); evil
    # comes after all of them in the peer
    later = ["india", "and", "rest", "of", "world"]
    ordered = {f"{a} {b}": 1 for i, a in enumerate(later) for b in later[i + 1 :]}
    assert su[2] == {**{w: 1 for w in ["evil", "for", "india", "and", "rest", "of"]}, "for and": 1, **ordered}
    # D (15): unigrams struggle evil india and rest of; pairs india-and, india-rest, india-of
    # (india-world is 6 apart in D), and the ordered pairs of and rest of world
    d_pairs = {k: 1 for k in ordered if not k.startswith("india")}
    d_pairs.update({"india and": 1, "india rest": 1, "india of": 1})
    assert su[3] == {**{w: 1 for w in ["struggle", "evil", "india", "and", "rest", "of"]}, **d_pairs}
    assert sum(sum(v.values()) for v in su.values()) == 42
    assert rp(e["ROUGE-SU4"]) == (0.23077, 0.1875)
