"""The points the --target search gained: ROUGE-1.5.5's ``-p`` (F's weight) under ``-t 0``,
``-t 1`` and ``-t 2``, the paper's jackknife, and torchmetrics' ``accumulate="avg"``; each
against the script itself, rougekit's API, or the torchmetrics reimplementation.
"""

from __future__ import annotations

import contextlib
import io

import numpy as np
import pytest
from _texts import pairs
from reference_rouge import reference_available, run_reference
from test_variants import _script_numbers, lines_pairs

from rougekit.api import Scorer
from rougekit.cli.main import main
from rougekit.compat import torchmetrics
from rougekit.variants.space import Settings, Space

MEASURES = ("ROUGE-1", "ROUGE-2", "ROUGE-L")
_AVAILABLE, _WHY = reference_available()


@pytest.mark.skipif(not _AVAILABLE, reason=_WHY)
@pytest.mark.parametrize("alpha", [0.2, 0.8])
@pytest.mark.parametrize("unit", ["0", "1", "2"])
def test_alpha_and_counting_units_are_what_the_script_prints(tmp_path, alpha, unit):
    cands, refs = lines_pairs(4, 25)
    (tmp_path / "c.txt").write_text("\n".join(c.replace("\n", "<q>") for c in cands) + "\n", encoding="utf-8")
    (tmp_path / "r.txt").write_text("\n".join(r.replace("\n", "<q>") for r in refs) + "\n", encoding="utf-8")
    export = tmp_path / "run"
    with contextlib.redirect_stdout(io.StringIO()):
        code = main(
            ["score", "-c", str(tmp_path / "c.txt"), "-r", str(tmp_path / "r.txt"), "--sentence-sep", "<q>"]
            + ["--stem", "--average", "rouge155", "--export-rouge155", str(export)]
        )
    assert code == 0
    args = (export / "command.txt").read_text().split()
    args = args[:-1] + ["-p", str(alpha), "-t", unit, args[-1]]  # before the configuration file
    rc, stdout, stderr = run_reference(args, cwd=export)
    assert rc == 0, stderr.decode()
    space = Space(cands, refs, MEASURES)
    aggregation = {"0": "rouge155-average", "1": "rouge155-token-average", "2": "tokens"}[unit]
    s = Settings(stemmer="porter+wordnet", aggregation=aggregation, alpha=alpha)
    if unit == "2":  # the summed counts (model, peer, hits); R, P and F are computed from them by hand
        totals = {}
        for line in stdout.decode().splitlines():
            parts = line.split()
            if len(parts) == 8 and parts[2] == "M_count:":
                totals[parts[1]] = (int(parts[3]), int(parts[5]), int(parts[7]))
        assert set(totals) == set(MEASURES)
        for m in MEASURES:
            model, peer, hits = totals[m]
            r, p = hits / model, hits / peer
            assert space.value(s, m) == (r, p, p * r / ((1 - alpha) * p + alpha * r))
        return
    script = _script_numbers(stdout.decode())
    assert script
    mine = {key: f"{space.value(s, key[0])[('recall', 'precision', 'f').index(key[1])]:.5f}" for key in script}
    assert mine == script
    assert mine[("ROUGE-1", "f")] != f"{space.value(s.replace(alpha=0.5), 'ROUGE-1')[2]:.5f}"  # -p changed F


def test_jackknife_is_rougekits_jackknife():
    cands, refs = pairs(8, 30, 3)
    space = Space(cands, refs, MEASURES)
    for m in MEASURES:
        result = Scorer([m], multi_ref="jackknife").score(cands, refs)
        corpus = result.corpus(m)
        assert space.value(Settings(multi_ref="jackknife"), m) == tuple(corpus[k] for k in ("recall", "precision", "f"))
        best = space.value(Settings(multi_ref="best"), m)
        assert space.value(Settings(multi_ref="jackknife"), m) != best


def test_avg_is_torchmetrics_accumulate_avg():
    cands, refs = pairs(9, 30, 2)
    space = Space(cands, refs, MEASURES)
    theirs = torchmetrics.rouge_score(cands, refs, accumulate="avg", rouge_keys=("rouge1", "rouge2", "rougeL"))
    best = torchmetrics.rouge_score(cands, refs, accumulate="best", rouge_keys=("rouge1", "rouge2", "rougeL"))
    s = Settings("rouge-score", split="none", multi_ref="avg", precision="float32")
    for m, key in zip(MEASURES, ("rouge1", "rouge2", "rougeL")):
        mine = space.value(s, m)
        for k, name in enumerate(("recall", "precision", "fmeasure")):
            # float32 per reference and mean in torchmetrics; here the float64 mean, then float32
            assert mine[k] == pytest.approx(float(theirs[f"{key}_{name}"]), abs=2e-7)
        assert abs(float(best[f"{key}_fmeasure"]) - mine[2]) > 1e-3  # avg is not best on these pairs


def test_the_search_finds_a_jackknife_table_and_prints_runnable_commands():
    from rougekit.variants import variants

    cands, refs = pairs(12, 20, 2)
    space = Space(cands, refs, MEASURES)
    s = Settings(multi_ref="jackknife", aggregation="mean")
    target = ",".join(f"{m}={100 * space.value(s, m)[2]:.2f}" for m in MEASURES)
    result = variants(cands, refs, MEASURES, rows=[], target=target, max_matches=None, space=space)
    found = {m.name: m for m in result.matches}
    name = "search:multi_ref=jackknife"
    assert name in found and "--multi-ref jackknife" in found[name].command
    assert np.isclose(found[name].scores["ROUGE-1"]["f"], space.value(s, "ROUGE-1")[2])


def test_round5_array_is_the_scripts_printf():
    from rougekit.variants.space import round5_array

    rng = np.random.default_rng(3)
    hits, counts = rng.integers(0, 400, 50_000), rng.integers(1, 400, 50_000)
    values = np.concatenate([rng.random(50_000), np.arange(200_001) / 200_000, np.arange(65) / 64, hits / counts])
    assert np.array_equal(round5_array(values), [float("%7.5f" % x) for x in values.tolist()])
    assert round5_array(np.array([0.015625, 0.046875]))[0] == 0.01562  # ties (exact in binary) go to even


def test_bootstrap_rows_resampled_together_equal_each_alone():
    """rouge-score's bootstrap row and XL-Sum's share one set of draws when both are computed;
    each equals its row computed alone (which test_variants holds to the package) to the bit."""
    from rougekit.variants import variants

    cands, refs = pairs(21, 300)
    names = ["rouge-score-stem-bootstrap", "multilingual-rouge"]
    for seed in (0, 7):
        together = variants(cands, refs, MEASURES, rows=names, seed=seed)
        for name in names:
            alone = variants(cands, refs, MEASURES, rows=[name], seed=seed).row(name)
            assert together.row(name).scores == alone.scores


def test_shared_bootstrap_pass_changes_no_bit():
    """``Space.prepare`` (every bootstrap aggregate of a search from one pass of draws, the settings'
    columns stacked, the gathers on two threads) gives each setting the bits a fresh Space gives it
    alone, for rouge-score's median (float64 and float32) and the script's -a average (both orders)."""
    cands, refs = lines_pairs(11, 130)
    base = [Settings(), Settings(stemmer="porter+wordnet"), Settings(stopwords=True, split="none")]
    base += [Settings("rouge-score", "porter", split="none"), Settings(alpha=0.2)]
    walk = [b.replace(aggregation="bootstrap-median") for b in base]
    walk += [walk[3].replace(precision="float32"), base[0].replace(aggregation="mean")]
    walk += [b.replace(aggregation="rouge155-average", order=o) for b in base for o in ("input", "file-names")]
    shared = Space(cands, refs, MEASURES, seed=3, jobs=2)
    shared.prepare(walk)
    for s in walk:
        alone = Space(cands, refs, MEASURES, seed=3, jobs=1)
        for m in MEASURES:
            assert np.array(shared.value(s, m)).tobytes() == np.array(alone.value(s, m)).tobytes(), (s, m)


def test_stacked_draws_are_the_draws_of_each_column_alone():
    """The two shared passes against the functions they stand for: rouge-score's draws
    (``global_resample_means`` after ``np.random.seed``) on 2 threads, and the script's compiled
    resampling loop past the row count from which it reads codes of the values (20,000 rows)."""
    from rougekit.compat.scoring import global_resample_means, global_seed
    from rougekit.stats.perl_bootstrap import perl_bootstrap_columns
    from rougekit.variants.space import resample_means

    rng = np.random.default_rng(5)
    values = np.round(rng.random((20_000, 9)) ** 3, 5)  # 5-decimal per-pair values, as the script's
    for width in (3, 9):
        with global_seed(7):
            alone = global_resample_means(np.ascontiguousarray(values[:, :3]), 1000)
        with global_seed(7):
            shared = resample_means(np.ascontiguousarray(values[:, :width]), 1000, 2)
        assert alone.tobytes() == np.ascontiguousarray(shared[:, :3]).tobytes()
    stacked = perl_bootstrap_columns(values, 1000, 95.0)
    for k in range(3):
        assert stacked[3 * k : 3 * k + 3] == perl_bootstrap_columns(np.ascontiguousarray(values[:, 3 * k : 3 * k + 3]))


@pytest.mark.parametrize("multi", [False, True])
def test_evaluate_row_through_the_shared_draws_is_evaluates_compute(multi):
    """The evaluate rows resample through the threaded draws: equal to rougekit.compat.evaluate's
    own compute (held to the recorded evaluate) on 1,500 pairs, one reference or several."""
    from rougekit.compat import evaluate
    from rougekit.variants.rows import _evaluate_compute, evaluate_types

    cands, refs = lines_pairs(21, 1500)
    references = [[r, cands[(i + 7) % len(cands)]] for i, r in enumerate(refs)] if multi else refs
    types = evaluate_types(MEASURES)
    theirs = evaluate.load("rouge", seed=4).compute(predictions=cands, references=references, rouge_types=types)
    mine = _evaluate_compute(cands, references, types, 4)
    assert list(mine) == list(theirs) and all(np.float64(mine[t]) == np.float64(theirs[t]) for t in types)
    assert all(mine[t].hex() == float(theirs[t]).hex() for t in types)
