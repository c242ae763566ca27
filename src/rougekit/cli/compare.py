"""``rougekit compare``: is system B better than system A? Paired bootstrap and approximate
randomization on per-pair scores, with the signature of the scores compared.

    rougekit compare -c baseline.txt -c new.txt -r ref.txt --measures ROUGE-1,ROUGE-L --stem

Both p-values are two-sided (:data:`rougekit.stats.paired.NULL_HYPOTHESES` names each null);
every output (text, JSON, JSONL, CSV) says so and records the trials and the seed.
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import math
import warnings

from rougekit import limits
from rougekit._sums import mean_in_order
from rougekit.api import Scorer
from rougekit.cli._options import input_files, refuse_output_over_input, scoring_options, write_output
from rougekit.cli._systems import each_system
from rougekit.cli.score import _load, _load_sources, build_parser, with_sentence_split
from rougekit.errors import OptionError, RougeKitWarning
from rougekit.measures import split_measure_list
from rougekit.report.formats import scored_line
from rougekit.signature import Signature, number
from rougekit.stats.paired import (
    DEFAULT_TRIALS,
    NULL_HYPOTHESES,
    SIDEDNESS,
    approximate_randomization,
    describe_tests,
    paired_bootstrap,
)
from rougekit.stats.paired import signed as _signed

FORMATS = ("text", "json", "jsonl", "csv")

DESCRIPTION = f"""Is system B better than system A? Each system after the first (the baseline) is tested
against it on the mean per-pair score by two tests, both {SIDEDNESS}:
  p (AR)   approximate randomization; H0: within each pair the two systems' scores are
           exchangeable. p = share of random swaps whose |mean difference| reaches the observed.
  p (boot) paired bootstrap (Berg-Kirkpatrick et al. 2012); H0: the mean per-pair difference
           is 0. p = share of resamples, shifted to that null, whose |difference| reaches it.
with the bootstrap's --confidence interval of the difference. --trials (default {DEFAULT_TRIALS},
as `rougekit report`) and --seed are recorded in the output and the signature."""

EXAMPLES = """examples:
  rougekit compare -c baseline.txt -c new.txt -r ref.txt --measures ROUGE-1,ROUGE-L --stem
  rougekit compare --jsonl runs.jsonl --candidate-field base --candidate-field new --reference-field refs --format json
"""

# options of `rougekit score` that compare has no use for: hidden from its help, refused when given
_SCORE_ONLY = {
    "average": ("pairs", "compare tests the means of per-pair scores: --average belongs to `rougekit score`"),
    "export_rouge155": (None, "--export-rouge155 belongs to `rougekit score`"),
    "per_pair": (False, "--per-pair belongs to `rougekit score`: compare writes one row per system and measure"),
    "bootstrap": ("rouge155", "--bootstrap belongs to `rougekit score`: compare's resamples are --trials"),
    "resamples": (1000, "--resamples belongs to `rougekit score`: compare's resamples are --trials"),
}


def build_compare_parser() -> argparse.ArgumentParser:
    parser = build_parser()
    parser.prog = "rougekit compare"
    parser.description = DESCRIPTION
    parser.epilog = EXAMPLES
    for action in parser._actions:
        if action.dest in _SCORE_ONLY:
            action.help = argparse.SUPPRESS
        elif action.dest == "format":
            action.choices = FORMATS
            action.help = None  # score's words are of its per-pair Parquet output
        elif action.dest == "seed":
            action.help = "seed of the randomization and the bootstrap (default 0; recorded in the signature)"
        elif action.dest == "confidence":
            action.help = "level in percent of the bootstrap interval of the difference (default 95)"
    parser.add_argument(
        "--value", choices=["f", "recall", "precision"], default="f", help="which per-pair value to compare (default f)"
    )
    parser.add_argument(
        "--trials",
        type=int,
        default=DEFAULT_TRIALS,
        help=f"randomization trials and bootstrap resamples (default {DEFAULT_TRIALS}, as `rougekit report`)",
    )
    return parser


def _few_trials(trials: int, confidence: float) -> None:
    """A warning when the trials leave a tail of the interval without a resample beyond its end
    (fewer than 2 / (1 - confidence): 40 at 95%), saying too when no p-value can reach 1 - confidence."""
    enough = math.ceil(2 / (1 - confidence / 100) - 1e-9)
    if trials >= enough:
        return
    smallest = 1 / (trials + 1)
    p_note = f"; no p-value can fall below 1/(trials+1) = {smallest:.4f}" if smallest > 1 - confidence / 100 else ""
    warnings.warn(
        RougeKitWarning(
            f"--trials {trials} is too few for a {confidence:g}% interval of delta (each tail holds less than one "
            f"resample: its ends are interpolated between the extremes and may miss the observed delta){p_note}; "
            f"use --trials {enough} or more (default {DEFAULT_TRIALS})"
        )
    )


def run(argv: list[str]) -> int:
    args = build_compare_parser().parse_args(argv)
    for dest, (default, message) in _SCORE_ONLY.items():
        if getattr(args, dest) != default:
            raise OptionError(message)
    limits.whole("--trials", args.trials, 2, limits.MAX_RESAMPLES)  # as score's --resamples
    limits.whole("--seed", args.seed, 0, limits.MAX_SEED)
    limits.fraction("--confidence", args.confidence, 0, 100, open_ends=True)
    refuse_output_over_input(args.output, input_files(args))
    systems, refs, ids = _load(args)
    if len(systems) < 2:
        raise OptionError(
            "give at least two systems (repeat -c, or repeat --candidate-field); the first is the baseline"
        )
    _few_trials(args.trials, args.confidence)  # said once the inputs are known to be usable
    scorer = Scorer(split_measure_list(args.measures), **scoring_options(args), bootstrap=None, jobs=args.jobs)
    scorer.blank_references_unsaid = False  # the readers say them, naming their files and lines
    scorer = with_sentence_split(scorer, args)
    sources = _load_sources(args, len(refs))
    scored = {
        name: scorer.score(c, refs, ids=ids, sources=sources, jobs=args.jobs)
        for name, c in each_system(systems.items())
    }
    rows = _comparisons(args, scorer, scored)
    signature = Signature.from_options(
        scorer.options,
        test="ar+bootstrap",
        trials=args.trials,
        test_seed=str(args.seed),
        test_confidence=number(args.confidence),
    ).with_sentences(args.sentence_sep)
    text = WRITERS[args.format](args, scored, rows, str(signature))
    write_output(args.output, text)
    return 0


def _comparisons(args, scorer, scored) -> list[dict]:
    names = list(scored)
    base = names[0]
    rows = []
    for other in names[1:]:
        for m in scorer.measures:
            key = "score" if m.single_valued else args.value
            a = [p[key] for p in (x[m.name] for x in scored[base].per_pair())]
            b = [p[key] for p in (x[m.name] for x in scored[other].per_pair())]
            ar = approximate_randomization(a, b, args.trials, args.seed)
            bs = paired_bootstrap(a, b, args.trials, args.seed, args.confidence)
            rows.append(
                {
                    "baseline": base,
                    "system": other,
                    "measure": m.name,
                    "value": key,
                    "baseline_mean": mean_in_order(a, 0.0),
                    "system_mean": mean_in_order(b, 0.0),
                    "delta": ar.delta,
                    "p_randomization": ar.p_value,
                    "p_bootstrap": bs.p_value,
                    "delta_low": bs.low,
                    "delta_high": bs.high,
                }
            )
    return rows


def _test_fields(args, scored) -> dict:
    """What every row of the machine-readable outputs records besides its numbers."""
    return {
        "pairs": next(iter(scored.values())).total_pairs,
        "sided": SIDEDNESS,
        "trials": args.trials,
        "seed": args.seed,
        "confidence": args.confidence,
    }


def _json(args, scored, rows, signature: str) -> str:
    out = {
        "signature": signature,
        "scored": {"systems": len(scored), "pairs": {name: r.total_pairs for name, r in scored.items()}},
        "test": {
            "sided": SIDEDNESS,
            "null": {
                "p_randomization": NULL_HYPOTHESES["approximate-randomization"],
                "p_bootstrap": NULL_HYPOTHESES["paired-bootstrap"],
            },
            "trials": args.trials,
            "seed": args.seed,
            "confidence": args.confidence,
        },
        "comparisons": rows,
    }
    return json.dumps(out, indent=2, ensure_ascii=False) + "\n"


def _jsonl(args, scored, rows, signature: str) -> str:
    extra = {**_test_fields(args, scored), "signature": signature}
    return "".join(json.dumps({**row, **extra}, ensure_ascii=False) + "\n" for row in rows)


def _csv(args, scored, rows, signature: str) -> str:
    buffer = io.StringIO()
    extra = {**_test_fields(args, scored), "signature": signature}
    names = [*(rows[0] if rows else {}), *extra]
    writer = csv.DictWriter(buffer, fieldnames=names, lineterminator="\n")
    writer.writeheader()
    writer.writerows({**row, **extra} for row in rows)
    return buffer.getvalue()


def _text(args, scored, rows, signature: str) -> str:
    out = [
        scored_line(scored) + "\n",
        f"{'system':<12} {'measure':<12} {'baseline':>9} {'system':>9} {'delta':>9} "
        f"{'p (AR)':>8} {'p (boot)':>8}  {args.confidence:g}% interval of delta\n",
    ]
    for r in rows:
        out.append(
            f"{r['system']:<12} {r['measure']:<12} {r['baseline_mean']:9.5f} {r['system_mean']:9.5f} "
            f"{_signed(r['delta']):>9} {r['p_randomization']:8.4f} {r['p_bootstrap']:8.4f}  "
            f"[{_signed(r['delta_low'])}, {_signed(r['delta_high'])}]\n"
        )
    out += [line + "\n" for line in describe_tests(args.trials, args.seed, args.confidence)]
    for m in next(iter(scored.values())).measures:  # what compare averages is not always score's corpus number
        if m.single_valued and m.corpus_what != "mean of per-pair scores":
            out.append(
                f"{m.name}: baseline and system are means of per-pair {m.name}, not the {m.corpus_what.split(' (')[0]} "
                "`rougekit score` prints\n"
            )
    out.append(f"baseline: {next(iter(scored))}\nsignature: {signature}\n")
    return "".join(out)


WRITERS = {"text": _text, "json": _json, "jsonl": _jsonl, "csv": _csv}
