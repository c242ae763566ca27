"""Hand-computed checks of rougekit.metrics.lin_hovy (Lin & Hovy 2003, eqs. 2-6).

Every expected value below is worked out by hand in the comments; the same examples
appear in docs/measures/ngram.md and docs/measures/bleu.md.
"""

import math

import pytest

from rougekit.errors import InputError, OptionError
from rougekit.metrics.lin_hovy import (
    BleuScore,
    bleu,
    brevity_penalty,
    ngram_cooccurrence_precisions,
    ngram_counts,
    ngram_coverage,
    ngram_score,
    sentence_bleu,
)

T = str.split

# ----------------------------------------------------------------- §4.1 of the paper
MODEL = T("United States Japan and Taiwan")  # "United States, Japan, and Taiwan"
PEER = T("United States Taiwan and Japan")  # "United States, Taiwan, and Japan"


def test_paper_section_4_1_united_states_japan_taiwan():
    # "and" ignored = every n-gram containing "and" is dropped (on both sides).
    # unigrams  model {United, States, Japan, Taiwan}, all in the peer        -> 4/4 = 1
    # bigrams   model {United States, States Japan}   (Japan-and, and-Taiwan dropped)
    #           peer  {United States, States Taiwan}  -> 1 match / 2          = 0.5
    # trigrams  model {United States Japan}, peer {United States Taiwan}      -> 0/1 = 0
    # 4-grams   every 4-gram contains "and"                                    -> 0/0 := 0
    cs = ngram_cooccurrence_precisions(PEER, [MODEL], 1, 4, stopwords={"and"})
    assert cs == (1.0, 0.5, 0.0, 0.0)  # the paper: "unigram 1, bi-gram 0.5, tri/4-gram 0"
    # "The weighted average n-gram score for the candidate string is 0."
    assert ngram_score(PEER, [MODEL], 1, 4, stopwords={"and"}) == 0.0
    assert ngram_score(PEER, [MODEL], 1, 1, stopwords={"and"}) == 1.0
    assert ngram_score(PEER, [MODEL], 2, 2, stopwords={"and"}) == 0.5
    # Ngram(1,2) = exp(1/2 log 1 + 1/2 log 0.5) = sqrt(0.5)
    assert ngram_score(PEER, [MODEL], 1, 2, stopwords={"and"}) == pytest.approx(math.sqrt(0.5))


def test_removing_stopwords_first_does_not_give_the_papers_bigram_score():
    # Deleting "and" before forming n-grams joins Japan-Taiwan / Taiwan-Japan:
    # model bigrams {United States, States Japan, Japan Taiwan}, peer {United States,
    # States Taiwan, Taiwan Japan} -> 1/3, not the paper's 0.5.
    model = [w for w in MODEL if w != "and"]
    peer = [w for w in PEER if w != "and"]
    assert ngram_coverage(peer, [model], 2) == pytest.approx(1 / 3)
    assert ngram_coverage(peer, [model], 3) == 0.0  # 0 of 2 model trigrams


def test_paper_section_4_1_united_states_of_america():
    # Reference "United States of America"; peer A "United States", peer B the full name.
    ref = T("United States of America")
    a, b = T("United States"), T("United States of America")
    # A: C1 = 2/4, C2 = 1/3 (United-States, 1 of 3 model bigrams), C3 = 0/2, C4 = 0/1
    assert ngram_cooccurrence_precisions(a, [ref]) == pytest.approx((0.5, 1 / 3, 0.0, 0.0))
    assert ngram_score(a, [ref], 1, 4) == 0.0
    # Ngram(1,2) of A = sqrt(1/2 * 1/3) = sqrt(1/6)
    assert ngram_score(a, [ref], 1, 2) == pytest.approx(math.sqrt(1 / 6))
    # B matches everything -> 1, so Ngram(1,4) "favors" the longer name, as the paper says
    assert ngram_score(b, [ref], 1, 4) == 1.0
    assert ngram_score(a, [ref], 1, 1) == 0.5 < ngram_score(b, [ref], 1, 1) == 1.0


# ----------------------------------------------------------------- C_n, eq. (5)
CAND = T("the cat sat on the mat")
REF1 = T("the cat is on the mat")
REF2 = T("there is a cat on the mat")


def test_cn_is_recall_over_references():
    # C1: REF1 has 6 unigrams: the x2 (cand has 2 -> 2), cat 1, is 0, on 1, mat 1 -> 5
    #     REF2 has 7: there 0, is 0, a 0, cat 1, on 1, the 1, mat 1 -> 4
    #     C1 = (5 + 4) / (6 + 7) = 9/13
    assert ngram_coverage(CAND, [REF1, REF2], 1) == pytest.approx(9 / 13)
    # C2: REF1 bigrams the-cat cat-is is-on on-the the-mat; cand has the-cat on-the the-mat -> 3/5
    #     REF2 bigrams there-is is-a a-cat cat-on on-the the-mat -> on-the the-mat 2/6
    #     C2 = (3 + 2) / (5 + 6) = 5/11
    assert ngram_coverage(CAND, [REF1, REF2], 2) == pytest.approx(5 / 11)
    # Ngram(1,2) = exp(1/2 log 9/13 + 1/2 log 5/11) = sqrt(45/143)
    assert ngram_score(CAND, [REF1, REF2], 1, 2) == pytest.approx(math.sqrt(45 / 143))
    # brevity bonus multiplies, weights replace 1/(j-i+1)
    assert ngram_score(CAND, [REF1, REF2], 1, 2, 0.5) == pytest.approx(0.5 * math.sqrt(45 / 143))
    assert ngram_score(CAND, [REF1, REF2], 1, 2, weights=(1, 0)) == pytest.approx(9 / 13)
    # denominators are reference-side: swapping roles changes the value (precision vs recall)
    # cand as reference: 6 unigrams, REF1 matches the x2 cat on mat -> 5/6
    assert ngram_coverage(REF1, [CAND], 1) == pytest.approx(5 / 6)


def test_cn_clips_per_model_unit():
    # Eq. (5) sums over model units; each is clipped on its own.
    # Units "the cat" and "the dog", peer "the cat":
    #   per unit: (the 1 + cat 1) + (the 1 + dog 0) = 3 of 4 -> 0.75
    #   one unit "the cat the dog": the min(1, 2) = 1, cat 1 -> 2 of 4 -> 0.5
    peer = T("the cat")
    assert ngram_coverage(peer, [T("the cat"), T("the dog")], 1) == 0.75
    assert ngram_coverage(peer, [T("the cat the dog")], 1) == 0.5


def test_cn_zero_denominator_and_log_zero():
    assert ngram_coverage(T("a b"), [T("a")], 2) == 0.0  # reference has no bigram: 0/0 := 0
    assert ngram_coverage(T("a"), [T("a b")], 2) == 0.0  # 0/1
    assert ngram_coverage([], [T("a b")], 1) == 0.0
    # a zero C_n with positive weight -> 0; with zero weight it is ignored
    assert ngram_score(T("a"), [T("a b")], 1, 2) == 0.0
    assert ngram_score(T("a"), [T("a b")], 1, 2, weights=(1.0, 0.0)) == 0.5


def test_ngram_counts_and_options():
    assert ngram_counts(T("a b a b"), 2) == {("a", "b"): 2, ("b", "a"): 1}
    with pytest.raises(OptionError):
        ngram_score(CAND, [REF1], 2, 1)
    with pytest.raises(OptionError):
        ngram_score(CAND, [REF1], 1, 2, weights=(1.0,))
    with pytest.raises(OptionError):
        ngram_counts(CAND, 0)


# ----------------------------------------------------------------- BLEU, eqs. (2)-(4)


def test_brevity_penalty():
    assert brevity_penalty(7, 6) == 1.0
    assert brevity_penalty(6, 6) == 1.0  # exp(1 - 6/6)
    assert brevity_penalty(3, 6) == pytest.approx(math.exp(-1))  # exp(1 - 6/3)
    assert brevity_penalty(0, 6) == 0.0


def test_bleu_sentence_full_n4():
    # cand "the cat sat on the mat", ref "the cat sat on a mat"
    # p1: the min(2,1)=1 cat sat on mat -> 5/6
    # p2: the-cat cat-sat sat-on match, on-the the-mat not -> 3/5
    # p3: the-cat-sat cat-sat-on match, sat-on-the on-the-mat not -> 2/4
    # p4: the-cat-sat-on matches, the other two not -> 1/3
    # |c| = |r| = 6 -> BP = 1;  BLEU = (5/6 * 3/5 * 1/2 * 1/3) ** (1/4) = (1/12) ** 0.25
    r = sentence_bleu(CAND, [T("the cat sat on a mat")])
    assert isinstance(r, BleuScore)
    assert r.matches == (5, 3, 2, 1) and r.totals == (6, 5, 4, 3)
    assert r.precisions == pytest.approx((5 / 6, 3 / 5, 1 / 2, 1 / 3))
    assert r.brevity_penalty == 1.0
    assert r.score == pytest.approx((1 / 12) ** 0.25)
    assert float(r) == r.score


def test_bleu_papineni_clipping_example():
    # "the" x7 against REF1 (the x2) and REF2 (the x1): Count_clip = max ref count = 2
    cand = ["the"] * 7
    r = sentence_bleu(cand, [REF1, REF2], max_n=1)
    assert r.precisions == (2 / 7,)
    # |c| = 7, reference lengths 6 and 7 -> closest is 7 -> BP = exp(1 - 7/7) = 1
    assert r.reference_length == 7 and r.brevity_penalty == 1.0
    assert r.score == pytest.approx(2 / 7)
    # with N = 4: p2 = 0/6 ("the the" is in no reference) -> log 0 -> BLEU = 0
    assert sentence_bleu(cand, [REF1, REF2]).score == 0.0


def test_bleu_reference_length_rules():
    cand = T("a b c d e f")  # |c| = 6, p1 = 6/6 against the second reference
    refs = [T("a b c d"), T("a b c d e f g")]  # lengths 4 and 7
    # closest: |6-4| = 2, |6-7| = 1 -> r = 7 -> BP = exp(1 - 7/6) = exp(-1/6)
    r = sentence_bleu(cand, refs, max_n=1)
    assert r.reference_length == 7
    assert r.score == pytest.approx(math.exp(-1 / 6))
    # shortest: r = 4 < 6 -> BP = 1
    assert sentence_bleu(cand, refs, max_n=1, ref_length="shortest").score == 1.0
    # tie (|5-4| = |5-6| = 1) goes to the shorter reference: r = 4 -> BP = 1
    r = sentence_bleu(T("a b c d e"), [T("a b c d"), T("a b c d e f")], max_n=1)
    assert r.reference_length == 4 and r.brevity_penalty == 1.0
    with pytest.raises(OptionError):
        sentence_bleu(cand, refs, ref_length="average")


def test_bleu_corpus_sums_counts():
    # c1 "a b" / ref "a b":         p1 2/2, p2 1/1
    # c2 "x y z w" / ref "x q z w":  p1 3/4 (x z w), p2 1/3 (z-w)
    # corpus: p1 = 5/6, p2 = 2/4; |c| = |r| = 6 -> BP 1; BLEU = sqrt(5/6 * 1/2) = sqrt(5/12)
    cands = [T("a b"), T("x y z w")]
    refs = [[T("a b")], [T("x q z w")]]
    r = bleu(cands, refs, max_n=2)
    assert r.matches == (5, 2) and r.totals == (6, 4)
    assert r.score == pytest.approx(math.sqrt(5 / 12))
    # not the mean of sentence scores: (1 + sqrt(3/4 * 1/3)) / 2 = 0.75
    mean = (sentence_bleu(cands[0], refs[0], max_n=2).score + sentence_bleu(cands[1], refs[1], max_n=2).score) / 2
    assert mean == pytest.approx(0.75)
    # corpus BP uses summed lengths: c = 2 + 4 = 6, r = 2 + 4 = 6
    assert (r.candidate_length, r.reference_length) == (6, 6)


def test_bleu_zero_cases():
    # candidate shorter than N: p3 = p4 = 0/0 := 0 -> BLEU 0 (no smoothing)
    r = sentence_bleu(T("a b"), [T("a b")])
    assert r.precisions == (1.0, 1.0, 0.0, 0.0) and r.score == 0.0
    # with weights ignoring orders 3 and 4 it is 1
    assert sentence_bleu(T("a b"), [T("a b")], weights=(0.5, 0.5, 0, 0)).score == 1.0
    # empty candidate: BP = 0, precisions 0
    assert sentence_bleu([], [T("a b")]).score == 0.0
    assert bleu([], []).score == 0.0
    with pytest.raises(InputError):
        bleu([T("a")], [])
    with pytest.raises(InputError):
        sentence_bleu(T("a"), [])
