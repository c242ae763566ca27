"""``rougekit compare``: is system B better than system A? Paired bootstrap and approximate
randomization on per-pair scores, with the signature of the scores compared.

    rougekit compare -c baseline.txt -c new.txt -r ref.txt --measures ROUGE-1,ROUGE-L --stem
"""

from __future__ import annotations

import json
import sys

from rougekit import limits
from rougekit.api import Scorer
from rougekit.cli._options import scoring_options
from rougekit.cli.score import _load, build_parser
from rougekit.errors import OptionError
from rougekit.io.files import write_text
from rougekit.measures import split_measure_list
from rougekit.signature import Signature, number
from rougekit.stats.paired import approximate_randomization, paired_bootstrap


def run(argv: list[str]) -> int:
    parser = build_parser()
    parser.prog = "rougekit compare"
    parser.description = "Is system B better than system A? Approximate randomization and paired bootstrap."
    parser.epilog = """examples:
  rougekit compare -c baseline.txt -c new.txt -r ref.txt --measures ROUGE-1,ROUGE-L --stem
  rougekit compare --jsonl runs.jsonl --candidate-field base --candidate-field new --reference-field refs --format json
"""
    parser.add_argument(
        "--value", choices=["f", "recall", "precision"], default="f", help="which per-pair value to compare (default f)"
    )
    parser.add_argument("--trials", type=int, default=10000, help="randomization trials / bootstrap resamples")
    args = parser.parse_args(argv)
    if args.export_rouge155 or args.average != "pairs":
        raise OptionError("compare tests the means of per-pair scores: --average and --export-rouge155 belong to score")
    limits.whole("--trials", args.trials, 1, limits.MAX_RESAMPLES)
    limits.whole("--seed", args.seed, 0, limits.MAX_SEED)
    limits.fraction("--confidence", args.confidence, 0, 100, open_ends=True)
    systems, refs, ids = _load(args)
    if len(systems) < 2:
        raise OptionError(
            "give at least two systems (repeat -c, or repeat --candidate-field); the first is the baseline"
        )
    scorer = Scorer(
        split_measure_list(args.measures),
        **scoring_options(args),
        bootstrap=None,
    )
    scored = {name: scorer.score(c, refs, ids=ids) for name, c in systems.items()}
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
                    "baseline_mean": sum(a) / len(a) if a else 0.0,
                    "system_mean": sum(b) / len(b) if b else 0.0,
                    "delta": ar.delta,
                    "p_randomization": ar.p_value,
                    "p_bootstrap": bs.p_value,
                    "delta_low": bs.low,
                    "delta_high": bs.high,
                }
            )
    signature = Signature.from_options(
        scorer.options,
        test="ar+bootstrap",
        trials=args.trials,
        test_seed=str(args.seed),
        test_confidence=number(args.confidence),
    )
    out: list[str] = []
    if args.format == "json":
        out.append(json.dumps({"signature": str(signature), "comparisons": rows}, indent=2) + "\n")
    else:
        out.append(
            f"{'system':<12} {'measure':<12} {'baseline':>9} {'system':>9} {'delta':>9} "
            f"{'p (AR)':>8} {'p (boot)':>8}  {args.confidence:g}% interval of delta\n"
        )
        for r in rows:
            out.append(
                f"{r['system']:<12} {r['measure']:<12} {r['baseline_mean']:9.5f} {r['system_mean']:9.5f} "
                f"{r['delta']:+9.5f} {r['p_randomization']:8.4f} {r['p_bootstrap']:8.4f}  "
                f"[{r['delta_low']:+.5f}, {r['delta_high']:+.5f}]\n"
            )
        out.append(f"baseline: {base}\nsignature: {signature}\n")
    if args.output and args.output != "-":
        write_text(args.output, "".join(out))
    else:
        sys.stdout.write("".join(out))
    return 0
