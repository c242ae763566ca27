"""``rougekit variants``: every popular ROUGE implementation's numbers on the same outputs.

The rows come from :func:`rougekit.variants.variants`; ``--target`` searches the option space for a
reported table, ``--explain A B`` splits the difference between two rows into factors.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import replace

from rougekit.cli._options import add_repeated, command_parser, input_files, refuse_output_over_input, write_output
from rougekit.errors import OptionError
from rougekit.io import inputs
from rougekit.signature import Signature

DESCRIPTION = """Which ROUGE was it? One row per implementation as people run it (ROUGE-1.5.5.pl with and
without -m, pyrouge, files2rouge, rouge-score with and without the stemmer, rougeL and rougeLsum,
Hugging Face evaluate, torchmetrics, pltrdy's rouge, XL-Sum's multilingual scorer), each computed by
rougekit's bit-identical reimplementation, with the call or command that gives it and the version it
reproduces. Scores are fractions."""

EXAMPLES = """examples:
  rougekit variants -c system.txt -r reference.txt
  rougekit variants --jsonl data.jsonl --candidate-field prediction --reference-field references --format json
  # which settings print a paper's table? (percent or fractions; F unless --target-stat)
  rougekit variants -c system.txt -r reference.txt --target R1=39.53,R2=17.28,RL=36.38
  # why do two packages disagree? (factors switched one at a time; --shapley averages over orders)
  rougekit variants -c system.txt -r reference.txt --explain rouge155-m rouge-score-lsum-stem
"""


def build_parser() -> argparse.ArgumentParser:
    p = command_parser("rougekit variants", DESCRIPTION, EXAMPLES)
    src = p.add_argument_group("inputs (candidates first, references second)")
    src.add_argument("-c", "--candidates", metavar="FILE", help="one candidate summary per line ('-': standard input)")
    add_repeated(
        src,
        "-r",
        "--references",
        metavar="FILE",
        help="one reference per line, aligned with the candidates; repeat for more references",
    )
    src.add_argument("--jsonl", "--json", metavar="FILE", help="JSONL input, or a JSON list of objects")
    src.add_argument("--candidate-field", metavar="NAME", help="field of the candidate summary")
    add_repeated(src, "--reference-field", metavar="NAME", help="field of the reference(s)")
    src.add_argument(
        "--sentence-sep", default=None, metavar="MARK", help="marker splitting sentences inside a line, e.g. '<q>'"
    )
    src.add_argument("--encoding-errors", choices=["strict", "replace"], default="strict")
    opt = p.add_argument_group("rows")
    opt.add_argument("--measures", default="ROUGE-1,ROUGE-2,ROUGE-L", help="among ROUGE-1 .. ROUGE-4, ROUGE-L")
    opt.add_argument("--rows", default=None, metavar="NAMES", help="comma-separated row names (default: all)")
    opt.add_argument("--lang", default=None, help="XL-Sum's language for the multilingual-rouge row, e.g. hindi")
    opt.add_argument("--seed", type=int, default=0, help="seed of the bootstrap medians (evaluate's load(seed=))")
    tgt = p.add_argument_group("which settings reproduce a reported number")
    tgt.add_argument("--target", metavar="SPEC", help="reported values, e.g. R1=39.53,R2=17.28,RL=36.38 (or 0.3953)")
    tgt.add_argument("--target-stat", default="f", choices=["f", "recall", "precision"], help="default: f")
    exp = p.add_argument_group("why two rows differ")
    exp.add_argument("--explain", nargs=2, metavar=("A", "B"), help="two row names: B's numbers minus A's, by factor")
    exp.add_argument("--shapley", action="store_true", help="each factor's share averaged over every order")
    out = p.add_argument_group("output")
    out.add_argument(
        "--format",
        choices=["text", "json", "html"],
        default="text",
        help="html: one self-contained page (the table, the matches, --explain's bars and pairs)",
    )
    out.add_argument("-o", "--output", metavar="FILE", help="write to FILE instead of standard output")
    return p


def _load(args) -> tuple[list[str], list[list[str]]]:
    if bool(args.candidates) == bool(args.jsonl):
        raise OptionError("give -c/-r files or --jsonl (one of them)")
    if args.candidates:
        if not args.references:
            raise OptionError("give at least one reference file with -r")
        if [args.candidates, *args.references].count(inputs.STDIN) > 1:
            raise OptionError("standard input (-) can be read only once")
        ref_lists = [inputs.read_lines(f, args.sentence_sep, args.encoding_errors) for f in args.references]
        cands = inputs.read_lines(args.candidates, args.sentence_sep, args.encoding_errors)
        return cands, inputs.aligned(cands, args.candidates, ref_lists, args.references)
    if not args.candidate_field or not args.reference_field:
        raise OptionError("--jsonl needs --candidate-field and --reference-field")
    _, systems, refs = inputs.read_jsonl(
        args.jsonl, [args.candidate_field], args.reference_field, None, args.encoding_errors, args.sentence_sep
    )
    for i, r in enumerate(refs, start=1):
        if not r:
            raise OptionError(f"{args.jsonl}: row {i} has no reference")
    return systems[args.candidate_field], refs


def compute(
    cands,
    refs,
    measures,
    *,
    rows=None,
    lang=None,
    seed=0,
    target=None,
    target_stat="f",
    sentence_sep=None,
    explain=None,
    shapley=False,
):
    """(result, its ``--format json`` data, the decompositions of ``explain`` or None) for these pairs:
    what ``rougekit variants`` prints, and what ``rougekit report --variants`` shows."""
    from rougekit.variants import variants
    from rougekit.variants.space import Space

    if explain and rows is not None:
        rows = list(dict.fromkeys([*rows, *explain]))
    elif explain and not target:
        rows = list(explain)  # only the two rows are needed
    space = Space(cands, refs, measures, seed=seed) if (target or explain) else None
    result = variants(
        cands,
        refs,
        measures,
        rows=rows,
        lang=lang,
        seed=seed,
        target=target,
        target_stat=target_stat,
        space=space,
    )
    sent = {r.name: str(Signature.parse(r.signature).with_sentences(sentence_sep)) for r in result.rows}
    result.rows = [replace(r, signature=sent[r.name]) for r in result.rows]  # sentences this command split
    decompositions = None
    if explain:
        from rougekit.variants.factors import decompose

        assert space is not None
        row_a, row_b = explain
        decompositions = decompose(result, space, row_a, row_b, shapley=shapley)
    data = result.to_dict()
    if decompositions is not None:
        data["explain"] = [d.to_dict() for d in decompositions]
    return result, data, decompositions


def run(argv: list[str]) -> int:
    args = build_parser().parse_args(argv)
    measures = [m.strip() for m in args.measures.split(",") if m.strip()]
    rows = [r.strip() for r in args.rows.split(",") if r.strip()] if args.rows else None
    refuse_output_over_input(args.output, input_files(args))
    cands, refs = _load(args)
    result, data, decompositions = compute(
        cands,
        refs,
        measures,
        rows=rows,
        lang=args.lang,
        seed=args.seed,
        target=args.target,
        target_stat=args.target_stat,
        sentence_sep=args.sentence_sep,
        explain=args.explain,
        shapley=args.shapley,
    )
    for name, why in result.skipped:
        print(f"rougekit variants: row {name} left out: {why}", file=sys.stderr)
    if args.format in ("json", "html"):
        print(f"rougekit variants: {result.pairs} pairs", file=sys.stderr)
        if args.format == "json":
            write_output(args.output, json.dumps(data, indent=1, ensure_ascii=False) + "\n")
        else:
            from rougekit.report import html_variants

            explained = tuple(args.explain) if args.explain else None
            page = html_variants.page(
                data,
                pairs=result.pairs,
                explain_rows=explained,
                skipped=list(result.skipped) + list(getattr(result.search, "left_out", None) or ()),
                stat=args.target_stat,
            )
            write_output(args.output, page)
        return 0
    text = text_report(result)
    if decompositions is not None:
        from rougekit.variants.factors import table

        text += "\nwhy " + " and ".join(args.explain) + " differ (B - A):\n" + table(decompositions)
    write_output(args.output, text)
    return 0


def _cell(scores: dict) -> str:
    return "/".join("   -   " if scores[k] is None else f"{scores[k]:.5f}" for k in ("recall", "precision", "f"))


def text_report(result) -> str:
    """The table (R/P/F per measure), each row's command and signature, and the target's matches."""
    name_w = max([len(r.name) for r in result.rows] + [4])
    pkg_w = max([len(f"{r.package} {r.version}") for r in result.rows] + [7])
    head = f"{'row':<{name_w}}  {'package':<{pkg_w}}  {'aggregation':<16}"
    head += "".join(f"  {m + ' R/P/F':<23}" for m in result.measures)
    lines = [f"{result.pairs} pairs; scores are fractions (recall/precision/f)", "", head]
    for r in result.rows:
        line = f"{r.name:<{name_w}}  {r.package + ' ' + r.version:<{pkg_w}}  {r.aggregation:<16}"
        line += "".join(f"  {_cell(r.scores[m]):<23}" for m in result.measures)
        lines.append(line.rstrip())
    lines += ["", "commands:"]
    for r in result.rows:
        lines.append(f"  {r.name}: {r.command}")
    lines += ["", "signatures:"]
    for r in result.rows:
        lines.append(f"  {r.name}: {r.signature}")
    if result.target is not None:
        lines += ["", _target_text(result)]
    return "\n".join(lines) + "\n"


def _target_text(result) -> str:
    t, report = result.target, result.search
    wanted = ", ".join(f"{m}={text}" for m, (text, _) in t.values.items())
    unit = "percent: a value is above 1" if t.scale == 100 else "fractions: every value is at most 1"
    lines = [f"target ({t.stat}, {unit}): {wanted}", "rows by distance:"]
    for name, d in report.ranking:
        said = "prints the target" if d == 0 else f"{d:.4f} off" if d != float("inf") else f"gives no {t.stat}"
        lines.append(f"  {name:<28} {said}")
    lines.append(
        f"searched {report.evaluated} of the grid's {report.grid} settings over {report.counted} counting choices "
        f"(the rest pruned as unable to match) in {report.seconds:.1f} s"
    )
    lines += [f"left out of the search: {why}" for _, why in report.left_out]
    if report.matched:
        lines.append("settings that print the target:")
    else:
        lines.append("no setting prints the target; the nearest (largest difference, in the target's unit):")
    for m in result.matches:
        how = f" ({m.rounding.rstrip('e')}ed)" if m.rounding else f" (off by {m.distance:.4f})"
        lines.append(f"  {m.name}{how}")
        lines.append(f"    {m.command}")
    return "\n".join(lines)
