"""Hand-computed checks of rougekit.metrics.hori (Hori, Hirao & Isozaki 2004).

The word-level examples use the paper's Table 1 / Fig. 1; the sentence-level ones use
sentence ids.  Every expected value is worked out by hand in the comments; the same
examples appear in docs/measures/{accy,nrstaccy,prec-n,sumaccy,wsumaccy,kappa}.md.
"""

import math
import random

import pytest

from rougekit.errors import InputError, OptionError
from rougekit.metrics.hori import (
    EditCounts,
    SummaryNetwork,
    accy,
    edit_counts,
    kappa,
    nrst_accy,
    prec_n,
    sum_accy,
    wsum_accy,
)

T = str.split

# Table 1.  Source positions (0-based):
#   The0 beautiful1 cherry2 blossoms3 in4 Japan5 bloom6 in7 spring8
SOURCE = T("The beautiful cherry blossoms in Japan bloom in spring")
A = T("The cherry blossoms in Japan")  # 0 2 3 4 5
B = T("cherry blossoms in Japan bloom")  # 2 3 4 5 6
C = T("beautiful cherry bloom in spring")  # 1 2 6 7 8
D = T("beautiful cherry blossoms in spring")  # 1 2 3 4 8 (leftmost) or 1 2 3 7 8 (rightmost)
E = T("The beautiful cherry blossoms bloom")  # 0 1 2 3 6
REFS = [A, B, C, D, E]
NEW = T("cherry blossoms bloom in spring")  # the paper's sentence found only in the network


# ----------------------------------------------------------------- ACCY, eq. (1)


def test_accy_against_each_table1_reference():
    # NEW vs A: del The, cherry blossoms, ins bloom, in, sub Japan/spring -> 3 errors, (5-3)/5
    assert edit_counts(NEW, A) == EditCounts(substitutions=1, insertions=1, deletions=1, length=5)
    assert accy(NEW, A) == 0.4
    # vs B: cherry blossoms, then [in Japan bloom] vs [bloom in spring]: LCS 1 -> 3 errors
    #       (ins bloom, in, sub Japan/spring, del bloom)
    assert edit_counts(NEW, B) == EditCounts(1, 1, 1, 5)
    assert accy(NEW, B) == 0.4
    # vs C: del beautiful, cherry, ins blossoms, bloom in spring -> 2 errors -> 3/5
    #       (two substitutions also cost 2; the tie-break reports fewest substitutions)
    assert edit_counts(NEW, C) == EditCounts(0, 1, 1, 5)
    assert accy(NEW, C) == 0.6
    # vs D: del beautiful, cherry blossoms, ins bloom, in spring -> 2 errors -> 3/5
    assert accy(NEW, D) == 0.6
    # vs E: del The, del beautiful, cherry blossoms bloom, ins in, ins spring -> 4 -> 1/5
    assert edit_counts(NEW, E) == EditCounts(0, 2, 2, 5)
    assert accy(NEW, E) == pytest.approx(0.2)


def test_accy_sentence_ids_and_edge_cases():
    assert accy([1, 2, 3], [1, 2, 4]) == pytest.approx(2 / 3)  # one substitution
    assert accy([1, 2, 3], [1, 2, 3]) == 1.0
    # insertions can drive ACCY below 0: [1,2,3,4] vs [5] = 1 sub + 3 ins -> (1-4)/1
    assert accy([1, 2, 3, 4], [5]) == -3.0
    assert accy([], [1, 2]) == 0.0  # two deletions -> (2-2)/2
    # Len = 0 convention
    assert accy([], []) == 1.0
    assert accy([1], []) == 0.0
    assert edit_counts("ab", "bc").errors == 2  # del a + ins c, not two substitutions
    assert edit_counts("ab", "bc") == EditCounts(0, 1, 1, 2)


# ----------------------------------------------------------------- NrstACCY


def test_nrst_accy():
    # distances of NEW to A..E: 3, 3, 2, 2, 4 -> closest C (or D), accuracy 3/5
    assert nrst_accy(NEW, REFS) == 0.6
    # sentence ids: [1,2,3,5] vs [1,2,4] (sub+ins = 2, acc 1/3), [2,3,5] (ins 1, acc 2/3),
    # [1,3,5] (ins 1, acc 2/3) -> 2/3
    assert nrst_accy([1, 2, 3, 5], [[1, 2, 4], [2, 3, 5], [1, 3, 5]]) == pytest.approx(2 / 3)
    # equal distance 1 to [1] (acc 0) and to [1,2,3] (acc 2/3): tie goes to higher accuracy
    assert nrst_accy([1, 2], [[1], [1, 2, 3]]) == pytest.approx(2 / 3)
    with pytest.raises(InputError):
        nrst_accy([1], [])


# ----------------------------------------------------------------- PREC_n, eqs. (2)-(3)


def test_prec_n_table1():
    # U_1 = all words of A..E; every unigram of NEW is there -> 5/5
    assert prec_n(NEW, REFS, 1) == 1.0
    # bigrams of NEW: cherry-blossoms (A), blossoms-bloom (E), bloom-in (C), in-spring (C, D)
    assert prec_n(NEW, REFS, 2) == 1.0
    # trigrams: cherry-blossoms-bloom (E) yes, blossoms-bloom-in no, bloom-in-spring (C) yes
    assert prec_n(NEW, REFS, 3) == pytest.approx(2 / 3)
    # 4-grams: cherry..in, blossoms..spring: neither in a reference -> 0/2
    assert prec_n(NEW, REFS, 4) == 0.0
    assert prec_n(NEW, REFS, 5) == 0.0  # 0/1
    assert prec_n(NEW, REFS, 6) == 0.0  # M - n + 1 = 0: defined as 0
    # with A and C only: bigrams cherry-blossoms (A), bloom-in, in-spring (C); not
    # blossoms-bloom -> 3/4
    assert prec_n(NEW, [A, C], 2) == 0.75


def test_prec_n_is_membership_not_clipped():
    # the unigram 1 occurs twice in the candidate and once in a reference: both count
    assert prec_n([1, 1, 2], [[1, 3]], 1) == pytest.approx(2 / 3)
    with pytest.raises(OptionError):
        prec_n([1], [[1]], 0)


# ----------------------------------------------------------------- network, SumACCY


def test_table1_network_arcs():
    net = SummaryNetwork(REFS, SOURCE)
    S, END = -1, len(SOURCE)
    # <s> -> The (A, E), <s> -> beautiful (C, D), <s> -> cherry (B)
    assert net.arcs[(S, 0)] == 2 and net.arcs[(S, 1)] == 2 and net.arcs[(S, 2)] == 1
    # cherry -> blossoms: A, B, D, E
    assert net.arcs[(2, 3)] == 4
    # blossoms -> bloom (E only), bloom -> in2 (C), in2 -> spring (C; D too if rightmost)
    assert net.arcs[(3, 6)] == 1 and net.arcs[(6, 7)] == 1 and net.arcs[(7, 8)] == 1
    # leftmost alignment puts D's "in" at position 4: blossoms -> in1 (A, B, D), in1 -> spring
    assert net.reference_positions[3] == (1, 2, 3, 4, 8)
    assert net.arcs[(3, 4)] == 3 and net.arcs[(4, 8)] == 1
    # end arcs: Japan (A), bloom (B, E), spring (C, D)
    assert net.arcs[(5, END)] == 1 and net.arcs[(6, END)] == 2 and net.arcs[(8, END)] == 2
    assert len(net.arcs) == 18
    right = SummaryNetwork(REFS, SOURCE, alignment="rightmost")
    assert right.reference_positions[3] == (1, 2, 3, 7, 8)
    assert right.arcs[(7, 8)] == 2 and (4, 8) not in right.arcs


def test_sumaccy_cherry_blossoms_bloom_in_spring():
    # "Cherry blossoms bloom in spring" is not among the manual answers ...
    assert NEW not in REFS
    # ... but the network has <s>->cherry (B), cherry->blossoms (A,B,D,E), blossoms->bloom (E),
    # bloom->in (C), in->spring (C), spring-></s> (C, D): a path spelling it -> SumACCY 1.0
    assert sum_accy(NEW, REFS, SOURCE) == 1.0
    match = SummaryNetwork(REFS, SOURCE).best_path(NEW)
    assert match.positions == (2, 3, 6, 7, 8) and match.distance == 0
    assert SummaryNetwork(REFS, SOURCE).accepts(NEW)
    # whereas the best single reference only gives 0.6
    assert nrst_accy(NEW, REFS) == 0.6
    # every reference is itself a path
    for ref in REFS:
        assert sum_accy(ref, REFS, SOURCE) == 1.0


def test_sumaccy_with_errors():
    # "cherry in spring": cherry has no arc to either "in"; the closest paths are
    #   cherry blossoms in1 spring (2 3 4 8) and cherry bloom in2 spring (2 6 7 8),
    #   both 4 units at distance 1 (one deletion) -> SumACCY = (4 - 1)/4 = 0.75
    #   (the only 3-unit paths, cherry blossoms bloom / The cherry bloom / beautiful cherry
    #   bloom, are all at distance >= 2; longer paths are at distance >= L - 3 >= 2)
    assert sum_accy(T("cherry in spring"), REFS, SOURCE) == 0.75
    # a word the source does not have is an insertion: "cherry blossoms bloom in spring
    # today" -> distance 1 against the 5-unit path -> (5 - 1)/5
    assert sum_accy(NEW + ["today"], REFS, SOURCE) == pytest.approx(0.8)


SENT_SOURCE = [1, 2, 3, 4, 5, 6]  # sentence ids of an article
SENT_REFS = [[1, 2, 4], [2, 3, 5], [1, 3, 5]]


def test_sumaccy_sentence_level():
    # arcs: <s>->1 (x2), <s>->2, 1->2, 1->3, 2->3, 2->4, 3->5 (x2), 4-></s>, 5-></s> (x2)
    # [1,2,3,5] = <s>->1->2->3->5-></s>: a path, in no reference -> 1.0 (NrstACCY is 2/3)
    assert sum_accy([1, 2, 3, 5], SENT_REFS, SENT_SOURCE) == 1.0
    # [1,2,4,6]: sentence 6 is on no path; closest path 1 2 4 with one insertion -> 2/3
    assert sum_accy([1, 2, 4, 6], SENT_REFS, SENT_SOURCE) == pytest.approx(2 / 3)
    # [3] alone: closest paths have 3 units and 2 deletions ([2,3,5] or [1,3,5]) -> 1/3
    assert sum_accy([3], SENT_REFS, SENT_SOURCE) == pytest.approx(1 / 3)


# ----------------------------------------------------------------- WSumACCY, eqs. (4)-(5)


def test_wsumaccy_sentence_level():
    # H_R = 3; word-to-word arc ratios: 1->2 1/3, 1->3 1/3, 2->3 1/3, 2->4 1/3, 3->5 2/3
    # candidate path 1 2 3 5: P = (1/3 * 1/3 * 2/3) ** (1/2) ... over M-1 = 3 factors:
    #   P = (2/27) ** (1/3)
    # most reliable path: 1 2 4 -> (1/9)^(1/2) = 1/3, 2 3 5 and 1 3 5 -> (2/9)^(1/2) = 0.4714,
    #   1 2 3 5 -> (2/27)^(1/3) = 0.4200                      => max = (2/9) ** 0.5
    # WSumACCY = (2/27)^(1/3) * 1.0 / (2/9)^(1/2) = 0.8909
    expected = (2 / 27) ** (1 / 3) / (2 / 9) ** 0.5
    assert wsum_accy([1, 2, 3, 5], SENT_REFS, SENT_SOURCE) == pytest.approx(expected)
    assert round(expected, 4) == 0.8909
    net = SummaryNetwork(SENT_REFS, SENT_SOURCE)
    assert net.max_reliability() == pytest.approx((2 / 9) ** 0.5)
    # [1,2,4,6]: target 1 2 4, P = (1/3 * 1/3) ** (1/2) = 1/3, SumACCY 2/3
    #   -> (1/3) * (2/3) / (sqrt(2)/3) = sqrt(2)/3
    assert wsum_accy([1, 2, 4, 6], SENT_REFS, SENT_SOURCE) == pytest.approx(math.sqrt(2) / 3)


def test_wsumaccy_sentence_level_with_boundary_arcs():
    # counting <s>/</s> arcs too: <s>->1 2/3, <s>->2 1/3, 4-></s> 1/3, 5-></s> 2/3
    # candidate <s> 1 2 3 5 </s>: 2/3 * 1/3 * 1/3 * 2/3 * 2/3 = 8/243, 5 factors
    # best: <s> 1 3 5 </s>: 2/3 * 1/3 * 2/3 * 2/3 = 8/81, 4 factors -> (8/81)^(1/4) = 0.5606
    #   (<s>235</s> (4/81)^(1/4) = 0.4714, <s>124</s> (2/81)^(1/4) = 0.3964,
    #    <s>1235</s> (8/243)^(1/5) = 0.5053)
    expected = (8 / 243) ** (1 / 5) / (8 / 81) ** (1 / 4)  # = 0.9013
    got = wsum_accy([1, 2, 3, 5], SENT_REFS, SENT_SOURCE, boundary_arcs=True)
    assert got == pytest.approx(expected)
    assert round(got, 4) == 0.9013


def test_wsumaccy_table1_leftmost():
    # H_R = 5, leftmost alignment (D = 1 2 3 4 8).  Word-to-word arc ratios:
    #   The->cherry .2, The->beautiful .2, beautiful->cherry .6, cherry->blossoms .8,
    #   cherry->bloom .2, blossoms->in1 .6, blossoms->bloom .2, in1->Japan .4,
    #   in1->spring .2, Japan->bloom .2, bloom->in2 .2, in2->spring .2
    # target "cherry blossoms bloom in spring": (.8 * .2 * .2 * .2) ** (1/4) = (4/625)^(1/4)
    # most reliable path: beautiful cherry blossoms in Japan (<s> via C/D, </s> via A):
    #   (.6 * .8 * .6 * .4) ** (1/4) = .1152 ** .25 = 0.5826
    #   (cherry blossoms in Japan: .192 ** (1/3) = 0.5769; beautiful cherry blossoms in
    #    spring: .0576 ** .25 = 0.4899; The beautiful cherry blossoms in Japan: .02304 ** .2)
    # WSumACCY = ((4/625) / .1152) ** (1/4) * 1.0 = (1/18) ** (1/4) = 0.4855
    net = SummaryNetwork(REFS, SOURCE)
    assert net.max_reliability() == pytest.approx(0.1152**0.25)
    assert net.best_path(NEW).reliability == pytest.approx((4 / 625) ** 0.25)
    assert wsum_accy(NEW, REFS, SOURCE) == pytest.approx((1 / 18) ** 0.25)
    # "cherry in spring": SumACCY 0.75 on two paths; WSumACCY takes the more reliable one,
    #   cherry blossoms in1 spring: (.8 * .6 * .2) ** (1/3) = .096 ** (1/3) = 0.4579
    #   (cherry bloom in2 spring: (.2 * .2 * .2) ** (1/3) = 0.2)
    # -> .096 ** (1/3) * .75 / .1152 ** .25 = 0.5895
    m = net.best_path(T("cherry in spring"))
    assert m.positions == (2, 3, 4, 8)
    got = wsum_accy(T("cherry in spring"), REFS, SOURCE)
    assert got == pytest.approx(0.096 ** (1 / 3) * 0.75 / 0.1152**0.25)
    assert round(got, 4) == 0.5895


def test_wsumaccy_table1_rightmost():
    # rightmost alignment (D = 1 2 3 7 8) moves one vote: blossoms->in1 .4, in2->spring .4,
    #   blossoms->in2 .2 (new), in1->spring gone
    # target: (.8 * .2 * .2 * .4) ** (1/4) = .0128 ** .25
    # best: beautiful cherry blossoms in Japan (.6 * .8 * .4 * .4) ** .25 = .0768 ** .25
    #   (cherry blossoms in Japan .128 ** (1/3) = 0.5040 < 0.5264)
    # WSumACCY = (.0128 / .0768) ** .25 = (1/6) ** .25 = 0.6389
    assert wsum_accy(NEW, REFS, SOURCE, alignment="rightmost") == pytest.approx((1 / 6) ** 0.25)


def test_network_positions_and_errors():
    # references given directly as source positions
    refs = [(0, 2, 3, 4, 5), (2, 3, 4, 5, 6), (1, 2, 6, 7, 8), (1, 2, 3, 7, 8), (0, 1, 2, 3, 6)]
    assert wsum_accy(NEW, refs, SOURCE, alignment="positions") == pytest.approx((1 / 6) ** 0.25)
    with pytest.raises(InputError):
        SummaryNetwork([(3, 2)], SOURCE, alignment="positions")
    with pytest.raises(InputError):
        SummaryNetwork([T("spring cherry")], SOURCE)  # not a subsequence
    with pytest.raises(InputError):
        SummaryNetwork([], SOURCE)
    with pytest.raises(OptionError):
        SummaryNetwork(REFS, SOURCE, alignment="middle")


# ----------------------------------------------------------------- DP vs brute force


def _all_paths(net):
    """Every <s>-></s> path of the network, as tuples of source positions."""
    out = []

    def walk(node, acc):
        for u, v in net.arcs:
            if u != node:
                continue
            if v == net.end:
                out.append(tuple(acc))
            else:
                walk(v, acc + [v])

    walk(-1, [])
    return out


def _distance(a, b):
    prev = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        cur = [i]
        for j, y in enumerate(b, 1):
            cur.append(min(prev[j - 1] + (x != y), prev[j] + 1, cur[j - 1] + 1))
        prev = cur
    return prev[-1]


@pytest.mark.parametrize("boundary", [False, True])
def test_dp_matches_path_enumeration(boundary):
    rng = random.Random(7)
    for _ in range(150):
        n = rng.randint(1, 8)
        source = [rng.choice("abc") for _ in range(n)]
        refs = [sorted(rng.sample(range(n), rng.randint(1, n))) for _ in range(rng.randint(1, 4))]
        cand = [rng.choice("abcd") for _ in range(rng.randint(0, 6))]
        net = SummaryNetwork(refs, source, alignment="positions", boundary_arcs=boundary)
        H = net.n_references

        def rel(path):
            chain = [-1, *path, net.end] if boundary else list(path)
            factors = [net.arcs[a] / H for a in zip(chain, chain[1:])]
            return math.prod(factors) ** (1 / len(factors)) if factors else 1.0

        paths = _all_paths(net)
        scored = []
        for p in paths:
            d = _distance(cand, [source[k] for k in p])
            acc = (len(p) - d) / len(p)
            scored.append(((d, -acc, -rel(p)), p))
        best_key, _ = min(scored)
        m = net.best_path(cand)
        assert m.distance == best_key[0]
        assert m.accuracy == pytest.approx(-best_key[1])
        assert m.reliability == pytest.approx(-best_key[2])
        assert net.max_reliability() == pytest.approx(max(rel(p) for p in paths))
        assert sum_accy(cand, refs, source, alignment="positions") == pytest.approx(-best_key[1])


# ----------------------------------------------------------------- kappa, eqs. (A-1)-(A-5)


def test_kappa_small():
    # k = 3 subjects, N = 4 units; selections {0,1}, {0,2}, {0,1}
    # n_i1 (extract) = 3, 2, 1, 0; C(3,2) = 3
    # S_i = [C(n,2) + C(3-n,2)] / 3 = 3/3, 1/3, 1/3, 3/3  -> P(A) = (8/3)/4 = 2/3
    # p_1 = 6/12 = 1/2, p_2 = 1/2 -> P(E) = 1/2
    # kappa = (2/3 - 1/2) / (1 - 1/2) = 1/3
    assert kappa([{0, 1}, {0, 2}, {0, 1}], 4) == pytest.approx(1 / 3)
    # hashable units of any kind
    assert kappa([{"s1", "s2"}, {"s1", "s3"}, {"s1", "s2"}], 4) == pytest.approx(1 / 3)


def test_kappa_table1():
    # Table 1 as source positions (D's "in" as the second one, position 7)
    ext = [{0, 2, 3, 4, 5}, {2, 3, 4, 5, 6}, {1, 2, 6, 7, 8}, {1, 2, 3, 7, 8}, {0, 1, 2, 3, 6}]
    # k = 5, N = 9, C(5,2) = 10; n_i1 per position: 2 3 5 4 2 2 3 2 2 (sum 25)
    # S_i: n=2 -> (1+3)/10, n=3 -> (3+1)/10, n=5 -> 10/10, n=4 -> (6+0)/10
    #   sum = 7 * 0.4 + 1.0 + 0.6 = 4.4 -> P(A) = 4.4/9 = 22/45
    # p_1 = 25/45 = 5/9, p_2 = 4/9 -> P(E) = 25/81 + 16/81 = 41/81
    # kappa = (22/45 - 41/81) / (40/81) = (-7/405) * (81/40) = -7/200 = -0.035
    assert kappa(ext, 9) == pytest.approx(-0.035)


def test_kappa_edges():
    # identical selections: P(A) = 1, P(E) = 1/2 -> 1
    assert kappa([{0, 1}, {0, 1}, {0, 1}], 4) == pytest.approx(1.0)
    # everybody selects nothing: P(E) = 1 -> defined as 1.0
    assert kappa([set(), set()], 3) == 1.0
    # two subjects, complementary selections: P(A) = 0, P(E) = 1/2 -> -1
    assert kappa([{0}, {1}], 2) == pytest.approx(-1.0)
    with pytest.raises(InputError):
        kappa([{0}], 3)
    with pytest.raises(InputError):
        kappa([{0, 1, 2}, {3}], 3)


def test_all_paths_helper_sanity():
    # the brute-force helper finds the 5 reference paths among the Table 1 paths
    net = SummaryNetwork(REFS, SOURCE)
    paths = set(_all_paths(net))
    assert set(net.reference_positions) <= paths
    assert (2, 3, 6, 7, 8) in paths


@pytest.mark.parametrize("measure", ["SumACCY", "WSumACCY"])
def test_a_reference_that_is_not_an_extract_names_its_token(measure):
    # "a x y" in "a b c d": token 2 ("x") is not in the source after "a" (before: the error printed
    # the reference's internal token ids, e.g. [3, 4])
    import rougekit

    with pytest.raises(
        InputError, match=r"^pair 1: reference token 2 of 3 is not in the source after the ones before it"
    ):
        rougekit.score(["a b c"], ["a x y"], sources=["a b c d"], measures=[measure], bootstrap=None)
