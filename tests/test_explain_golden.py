"""Golden explanations of a ROUGE-1.5.5 sample-test pair, with the matches worked out by hand.

The pair: peer 24 of SL062003-01 (SL2003, the sample test's SEE files) against models A-D, the
sample test's own EVAL. ROUGE-1.5.5.pl run on this one EVAL with ``-n 2 -2 4 -U -w 1.2 -a -d``
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
pytestmark = pytest.mark.skipif(not SL2003.exists(), reason=shared_missing(SL2003))
MEASURES = ["ROUGE-1", "ROUGE-2", "ROUGE-L", "ROUGE-W-1.2", "ROUGE-S4", "ROUGE-SU4"]


def _summary(path) -> str:
    return "\n".join(s.decode("ascii") for s in read_sentences(str(path), "SEE"))


def _pair():
    peer = _summary(SL2003 / "systems" / "SL.P.10.R.24.SL062003-01.html")
    models = [_summary(SL2003 / "models" / f"SL.P.10.R.{m}.SL062003-01.html") for m in "ABCD"]
    return peer, models


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
