"""``--explain``: the factor shares add up to the difference between two rows exactly."""

from __future__ import annotations

import contextlib
import io
import json
from fractions import Fraction

from _texts import pairs
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rougekit.cli.main import main
from rougekit.variants import variants
from rougekit.variants.factors import IMPLEMENTATION, decompose
from rougekit.variants.rows import Row
from rougekit.variants.space import Settings, Space

MEASURES = ("ROUGE-1", "ROUGE-2", "ROUGE-L")
# the rows with a point in the option space (the Punkt rows need nltk's model: test_variants covers them)
ROWS = [
    "rouge155-m",
    "rouge155",
    "pyrouge",
    "files2rouge",
    "rouge-score",
    "rouge-score-stem",
    "rouge-score-lsum",
    "rouge-score-lsum-stem",
    "rouge-score-stem-bootstrap",
    "evaluate",
    "evaluate-lsum",
    "torchmetrics",
]


def total_of(shares) -> Fraction:
    return sum((s.delta for s in shares), Fraction(0))


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10_000),
    refs_per=st.sampled_from([0, 2]),
    names=st.lists(st.sampled_from(ROWS), min_size=2, max_size=2, unique=True),
    shapley=st.booleans(),
)
def test_shares_add_up_to_the_difference_of_two_rows(seed, refs_per, names, shapley):
    a, b = names
    if refs_per and "files2rouge" in names:
        refs_per = 0  # files2rouge takes one reference
    cands, refs = pairs(seed, 10, refs_per)
    space = Space(cands, refs, MEASURES)
    result = variants(cands, refs, MEASURES, rows=names, space=space)
    stat = "f" if any(n.startswith("evaluate") for n in names) else "recall"
    for d in decompose(result, space, a, b, stat=stat, shapley=shapley, top=0):
        row_a, row_b = result.row(a).scores[d.measure][stat], result.row(b).scores[d.measure][stat]
        assert total_of(d.shares) == Fraction(row_b) - Fraction(row_a) == d.total
        residual = next(s for s in d.shares if s.factor == IMPLEMENTATION).delta
        if not any(n.startswith("evaluate") for n in names):
            assert residual == 0  # every row but evaluate's is exactly its point of the option space


class Rows:
    """Rows made here (what decompose reads of a variants result)."""

    def __init__(self, rows):
        self.rows = rows

    def row(self, name):
        return next(r for r in self.rows if r.name == name)


@st.composite
def two_settings(draw):
    def one():
        tokenizer = draw(st.sampled_from(["rouge155", "rouge-score"]))
        return Settings(
            tokenizer=tokenizer,
            stemmer=draw(st.sampled_from(["none", "porter", "porter+wordnet"])),
            stopwords=draw(st.booleans()),
            word_limit=draw(st.sampled_from([0, 0, 8])),
            split=draw(st.sampled_from(["newline", "none", "eos"])),
            multi_ref=draw(st.sampled_from(["sum", "best", "max"])),
            aggregation=draw(st.sampled_from(["mean", "tokens", "rouge155-average", "bootstrap-median"])),
            rounding=draw(st.sampled_from(["none", "round5"])),
            precision=draw(st.sampled_from(["float64", "float32"])),
            order=draw(st.sampled_from(["input", "file-names"])),
        )

    return one(), one()


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), both=two_settings(), shapley=st.booleans(), stat=st.sampled_from(["f", "recall"]))
def test_shares_add_up_between_any_two_points(seed, both, shapley, stat):
    sa, sb = both
    cands, refs = pairs(seed, 8, 2)
    space = Space(cands, refs, MEASURES)

    def row(name, s):
        scores = {m: dict(zip(("recall", "precision", "f"), space.value(s, m))) for m in MEASURES}
        return Row(name, "-", "-", "-", s.aggregation, "-", scores, s)

    for d in decompose(Rows([row("A", sa), row("B", sb)]), space, "A", "B", stat=stat, shapley=shapley, top=0):
        assert total_of(d.shares) == d.total
        assert next(s for s in d.shares if s.factor == IMPLEMENTATION).delta == 0


def test_one_factor_takes_the_whole_difference_computed_by_hand():
    # "the cats sat" vs "the cat sat": 2 of 3 unigrams match; with -m "cats" stems to "cat": 3 of 3.
    # Only the stemmer differs between the two ROUGE-1.5.5 rows; one pair's -a average is its value as
    # the script keeps it (5 decimals, summed over the 1,000 resamples: 0.66667 give or take the sum).
    cands, refs = ["the cats sat"], ["the cat sat"]
    space = Space(cands, refs, MEASURES)
    result = variants(cands, refs, MEASURES, rows=["rouge155", "rouge155-m"], space=space)
    (d,) = decompose(result, space, "rouge155", "rouge155-m", measures=["ROUGE-1"], stat="recall")
    assert abs(d.a - 0.66667) < 1e-9 and d.b == 1.0
    assert [(s.factor, s.delta) for s in d.shares] == [
        ("stemmer", Fraction(1) - Fraction(d.a)),
        (IMPLEMENTATION, Fraction(0)),
    ]
    assert d.pairs[0]["a_tokens"]["candidate"] == ["the", "cats", "sat"]
    assert d.pairs[0]["b_tokens"]["candidate"] == ["the", "cat", "sat"]


def test_shapley_and_sequential_shares_both_add_up():
    # tokenizer, stemmer, sentence split and aggregation all differ here: Shapley shares average each
    # factor's effect over the orders, and add up to the same total as the sequential ones
    cands, refs = ["Running dogs, cats."], ["the dog runs; a cat"]
    space = Space(cands, refs, MEASURES)
    result = variants(cands, refs, MEASURES, rows=["rouge155", "rouge-score-stem"], space=space)
    seq = decompose(result, space, "rouge155", "rouge-score-stem", measures=["ROUGE-1"], top=0)[0]
    sha = decompose(result, space, "rouge155", "rouge-score-stem", measures=["ROUGE-1"], shapley=True, top=0)[0]
    assert total_of(seq.shares) == total_of(sha.shares) == seq.total
    assert [s.factor for s in seq.shares] == [s.factor for s in sha.shares]


def test_cli_explain_json(tmp_path):
    (tmp_path / "c.txt").write_text("the cats sat on the mat\npolice killed the gunman\n")
    (tmp_path / "r.txt").write_text("the cat sat on a mat\npolice kill the gunman\n")
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["variants", "-c", str(tmp_path / "c.txt"), "-r", str(tmp_path / "r.txt"),
                     "--explain", "rouge155", "rouge155-m", "--format", "json"])  # fmt: skip
    assert code == 0, err.getvalue()
    data = json.loads(out.getvalue())
    assert [r["name"] for r in data["rows"]] == ["rouge155-m", "rouge155"]
    d = data["explain"][0]
    assert d["measure"] == "ROUGE-1" and [s["factor"] for s in d["shares"]] == ["stemmer", IMPLEMENTATION]
    assert d["pairs"][0]["pair"] in (1, 2)


def test_pair_tokens_are_those_counted_porter_without_wordnet_exceptions():
    # files2rouge stems with Porter alone (an empty WordNet exception DB): "went" stays "went",
    # "children" stays "children" and "goes" is "goe" (Porter's step 1a), where -m gives go/child/go
    from rougekit.variants.factors import differing_pairs

    cands, refs = ["the children went home and the mice ran away"], ["the child goes home and a mouse runs away"]
    space = Space(cands, refs, ["ROUGE-1"])
    a = Settings(stemmer="porter+wordnet")
    b = Settings(stemmer="porter")
    (pair,) = differing_pairs(space, a, b, "ROUGE-1", 0, 5)
    assert pair["b_tokens"]["candidate"] == "the children went home and the mice ran awai".split()
    assert pair["b_tokens"]["reference"] == "the child goe home and a mous run awai".split()
    assert pair["a_tokens"]["candidate"] == "the child go home and the mouse ran awai".split()
    # the shown tokens are those counted: 4 of the reference's 9 match under Porter alone
    assert pair["b"] == 0.44444  # 4 / 9, per-pair at the script's 5 decimals
