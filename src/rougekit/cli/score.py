"""``rougekit score``: score candidate files against reference files (or JSON/JSONL, or folders).

The command reads the input, calls :class:`rougekit.Scorer` and writes the report; see EXAMPLES.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import sys
import warnings

from rougekit.api import DEFAULT_MEASURES, Scorer
from rougekit.cli import _parquet_out
from rougekit.cli._options import (
    add_repeated,
    add_text_options,
    command_parser,
    input_files,
    refuse_output_over_input,
    scoring_options,
    sentence_marker,
    write_output,
)
from rougekit.cli._output import output_file, output_path
from rougekit.cli._systems import each_system, end_progress_line, progress_line
from rougekit.errors import IdleOptionWarning, InputError, OptionError
from rougekit.io import arrow, inputs, reader
from rougekit.io.rouge155_export import export
from rougekit.measures import split_measure_list
from rougekit.report.formats import AVERAGE_LABELS, WRITERS, PairRowWriter

DESCRIPTION = f"""Score candidate summaries against references with ROUGE.

-c/-r name candidate and reference files here; in `rougekit rouge155` they are the script's
confidence level and resamples. The corpus number is the {AVERAGE_LABELS["pairs"]} unless
--average says otherwise: --average rouge155 gives the number ROUGE-1.5.5.pl prints for the
evaluation that --export-rouge155 DIR writes."""

EXAMPLES = r"""examples:
  # line-aligned files: one summary per line; repeat -r for more references, -c for more systems
  rougekit score -c system.txt -r ref1.txt -r ref2.txt --stem --measures ROUGE-1,ROUGE-2,ROUGE-L
  # sentences marked inside a line; read the candidates from standard input
  cat system.txt | rougekit score -c - -r ref.txt --sentence-sep '<q>' --format json
  # JSONL: "references": ["ref A", "ref B"] is two references; [["s1", "s2"], ["s1"]] two as sentence lists
  rougekit score --jsonl data.jsonl --candidate-field prediction --reference-field references --format csv
  # Parquet (or --arrow: Arrow IPC) read a record batch at a time; per-pair scores written back as Parquet
  rougekit score --parquet data.parquet --candidate-column prediction --reference-column references \
                 --per-pair --format parquet -o scores.parquet
  # per-summary rows keyed by system and instance, ready for `rougekit correlate`
  rougekit score -c a.txt -c b.txt -r ref.txt --format csv --per-pair -o scores.csv
  # the number ROUGE-1.5.5.pl prints, and the evaluation to run the script on
  rougekit score -c a.txt -r ref.txt --average rouge155 --export-rouge155 run/
  # folders of files as pyrouge names them: group 1 of the candidate pattern is the ID
  rougekit score --candidate-dir sys/ --candidate-pattern 'doc\.(\d+)\.txt' \
                 --reference-dir refs/ --reference-pattern 'doc\.[A-Z]\.#ID#\.txt' --format rouge155
"""


def build_parser() -> argparse.ArgumentParser:
    p = command_parser("rougekit score", DESCRIPTION, EXAMPLES)
    src = p.add_argument_group("inputs (candidates first, references second)")
    add_repeated(
        src,
        "-c",
        "--candidates",
        metavar="FILE",
        help="one candidate summary per line ('-': standard input); repeat for several systems",
    )
    add_repeated(
        src,
        "-r",
        "--references",
        metavar="FILE",
        help="one reference per line, aligned with the candidates ('-': standard input); repeat for more references",
    )
    src.add_argument(
        "--sentence-sep",
        default=None,
        type=sentence_marker,
        metavar="MARK",
        help="marker splitting sentences inside a line or a JSON string, e.g. '<q>' (default: a line is one "
        "sentence; in JSON, a string's lines are its sentences)",
    )
    src.add_argument(
        "--jsonl",
        "--json",
        metavar="FILE",
        help="JSONL input, or a JSON list of objects ('-': standard input); name the fields with the flags below",
    )
    src.add_argument(
        "--json-shape",
        choices=["rows", "columns"],
        default=None,
        help="how one JSON object whose fields are lists is read: one row (lists of sentences/references) or "
        "columns (one row per position); asked only when both readings fit",
    )
    add_repeated(
        src,
        "--candidate-field",
        metavar="NAME",
        help="field of a system's summary: a string or a list of sentences (repeat for several systems); a dotted "
        "name reads a nested field (pred.text, choices.0.text)",
    )
    add_repeated(
        src,
        "--reference-field",
        metavar="NAME",
        help="field of the references: a string (one reference) or a list of references, each a string or a "
        "list of sentences (refs.*.text: the text of each object in a list)",
    )
    src.add_argument(
        "--id-field", default=None, metavar="NAME", help="field with the instance ID (default: 1, 2, ... in order)"
    )
    src.add_argument(
        "--parquet",
        metavar="FILE",
        help="Parquet input, read a record batch at a time (needs pyarrow; '-': standard input, copied to a "
        "temporary file first); name the columns with the flags below",
    )
    src.add_argument("--arrow", metavar="FILE", help="Arrow IPC input (file or stream format), as --parquet")
    src.add_argument(
        "--candidate-column",
        action="append",
        default=[],
        metavar="NAME",
        help="column of a system's summaries: strings (string, large_string, dictionary-encoded) or lists of "
        "sentences (repeat for several systems); a dotted name is a struct column's field (pred.text)",
    )
    src.add_argument(
        "--reference-column",
        action="append",
        default=[],
        metavar="NAME",
        help="column of the references: a string (one reference) or a list of references per row, each a string "
        "or a list of sentences (repeat: more references)",
    )
    src.add_argument(
        "--id-column", default=None, metavar="NAME", help="column with the instance ID (default: the row, from 1)"
    )
    src.add_argument("--source-column", metavar="NAME", help="column with the original text (SumACCY, WSumACCY)")
    src.add_argument("--candidate-dir", metavar="DIR")
    src.add_argument("--candidate-pattern", metavar="REGEX", help="file names; group 1 is the summary ID")
    src.add_argument("--reference-dir", metavar="DIR")
    src.add_argument("--reference-pattern", metavar="REGEX", help="file names; #ID# stands for the summary ID")
    src.add_argument("--sources", metavar="FILE", help="original texts, one per line (SumACCY, WSumACCY)")
    src.add_argument("--source-field", metavar="NAME", help="JSONL field with the original text")
    src.add_argument(
        "--encoding-errors",
        choices=["strict", "replace"],
        default="strict",
        help="invalid UTF-8: stop with an error naming file and line (strict) or replace it",
    )
    opt = p.add_argument_group("scoring")
    opt.add_argument(
        "--measures",
        default=",".join(DEFAULT_MEASURES),
        help="comma-separated, e.g. ROUGE-1,ROUGE-2,ROUGE-L,ROUGE-W-1.2,ROUGE-SU4",
    )
    add_text_options(opt)
    opt.add_argument(
        "--average",
        choices=["pairs", "tokens", "rouge155"],
        default="pairs",
        help="the corpus number: pairs = mean of per-pair scores (default); tokens = ratio of summed counts (-t 1); "
        "rouge155 = the bootstrap average ROUGE-1.5.5.pl prints (-t 0) for the run --export-rouge155 writes",
    )
    opt.add_argument("--bootstrap", choices=["rouge155", "percentile", "none"], default="rouge155")
    opt.add_argument("--resamples", type=int, default=_Unset(1000), help="bootstrap resamples (the script's -r)")
    opt.add_argument(
        "--confidence", type=float, default=_UnsetFloat(95.0), help="interval level in percent (the script's -c)"
    )
    opt.add_argument("--seed", type=int, default=_Unset(0), help="seed of the percentile bootstrap")
    opt.add_argument(
        "--jobs",
        type=int,
        default=None,
        help="threads for the compiled scoring path (default: every core this process may use)",
    )
    out = p.add_argument_group("output")
    out.add_argument(
        "--format",
        choices=sorted([*WRITERS, "parquet"]),
        default="text",
        help="parquet: per-pair rows (--per-pair) to a file (-o), a row group at a time, columns as csv's and the "
        "signature in the file's metadata (needs pyarrow)",
    )
    out.add_argument(
        "--per-pair",
        action="store_true",
        help="one row per summary, keyed by system and instance (csv, jsonl: as `rougekit correlate` reads them)",
    )
    out.add_argument("-o", "--output", metavar="FILE", help="write here instead of standard output ('-')")
    out.add_argument(
        "--export-rouge155",
        metavar="DIR",
        help="also write the evaluation as ROUGE-1.5.5.pl's XML config and files, with DIR/command.txt",
    )
    out.add_argument("-q", "--quiet", action="store_true", help="no progress output")
    return p


def _load_sources(args, count: int) -> list[str] | None:
    if args.sources:
        sources = inputs.read_lines(args.sources, args.sentence_sep, args.encoding_errors)
        if len(sources) != count:
            raise OptionError(f"{args.sources} has {len(sources)} lines but there are {count} candidates")
        return sources
    if args.source_column:
        out: list[str] = []
        columns = _table_columns(args)
        for batch in columns.batches([], references=False):
            out.extend(batch.sources)
        return out
    if args.source_field:
        if not args.jsonl:
            raise OptionError("--source-field goes with --jsonl")
        if args.jsonl == inputs.STDIN:
            raise OptionError("--source-field cannot read standard input a second time: give the JSONL as a file")
        _, fields, _ = inputs.read_jsonl(
            args.jsonl, [args.source_field], [], None, args.encoding_errors, args.sentence_sep, args.json_shape
        )
        return fields[args.source_field]
    return None


def _load(args) -> tuple[dict[str, list[str]], list[list[str]], list[str] | None]:
    if _table_file(args):
        return _load_table(args)
    if args.candidates:
        if not args.references:
            raise OptionError("give at least one reference file with -r")
        ref_lists = [inputs.read_lines(f, args.sentence_sep, args.encoding_errors) for f in args.references]
        systems, refs = {}, None
        for path, name in system_names(args.candidates):
            cands = inputs.read_lines(path, args.sentence_sep, args.encoding_errors)
            refs = inputs.aligned(cands, path, ref_lists, args.references)
            systems[name] = cands
        return systems, refs, None
    if args.jsonl:
        if not args.candidate_field or not args.reference_field:
            raise OptionError("--jsonl needs --candidate-field and --reference-field")
        ids, systems, refs = inputs.read_jsonl(
            args.jsonl,
            args.candidate_field,
            args.reference_field,
            args.id_field,
            args.encoding_errors,
            args.sentence_sep,
            args.json_shape,
            unique_ids=getattr(args, "per_pair", False),  # the per-pair rows are keyed by the ids
        )
        return systems, refs, ids if args.id_field else None
    for flag in ("candidate_pattern", "reference_dir", "reference_pattern"):
        if not getattr(args, flag):
            raise OptionError(f"--candidate-dir needs --{flag.replace('_', '-')}")
    ids, cands, refs = inputs.read_folders(
        args.candidate_dir,
        args.candidate_pattern,
        args.reference_dir,
        args.reference_pattern,
        args.encoding_errors,
        args.sentence_sep,
    )
    return {printable_name(os.path.basename(os.path.normpath(args.candidate_dir))): cands}, refs, ids


def _table_file(args) -> str | None:
    """The --parquet or --arrow file, after checking that one input style is given with its options."""
    styles = [bool(args.candidates), bool(args.jsonl), bool(args.candidate_dir), bool(args.parquet), bool(args.arrow)]
    if sum(styles) != 1:
        raise OptionError("give exactly one input style: -c/-r files, --jsonl, --parquet, --arrow, or --candidate-dir")
    for flag in ("candidate_field", "reference_field", "candidate_column", "reference_column"):
        names = getattr(args, flag)
        twice = next((name for i, name in enumerate(names) if name in names[:i]), None)
        if twice is not None:
            raise OptionError(f"--{flag.replace('_', '-')} {twice} is given twice: give each one once")
    table = args.parquet or args.arrow
    column_flags = [args.candidate_column, args.reference_column, args.id_column, args.source_column]
    if not table and any(column_flags):
        raise OptionError(
            "--candidate-column, --reference-column, --id-column and --source-column go with --parquet or --arrow"
        )
    if table and (args.candidate_field or args.reference_field or args.id_field or args.source_field):
        raise OptionError("--parquet and --arrow name columns with --candidate-column, --reference-column, --id-column")
    if table and args.sources:
        raise OptionError("--parquet and --arrow read the original texts from a column: give --source-column")
    if table and (not args.candidate_column or not args.reference_column):
        flag = "--parquet" if args.parquet else "--arrow"
        raise OptionError(f"{flag} needs --candidate-column and --reference-column")
    return table


def _table_columns(args) -> arrow.PairColumns:
    kind, path = ("parquet", args.parquet) if args.parquet else ("arrow", args.arrow)
    table = arrow.ColumnFile(path, kind)
    return arrow.PairColumns(
        table, args.candidate_column, args.reference_column, args.id_column, args.source_column, args.sentence_sep
    )


def _load_table(args) -> tuple[dict[str, list[str]], list[list[str]], list[str] | None]:
    """Every row of a Parquet/Arrow file in memory (for the outputs that need them all)."""
    columns = _table_columns(args)
    ids: list[str] = []
    systems: dict[str, list[str]] = {c: [] for c in args.candidate_column}
    refs: list[list[str]] = []
    for batch in columns.batches():
        if batch.ids is not None:
            ids.extend(batch.ids)
        for name, cands in batch.candidates.items():
            systems[name].extend(cands)
        refs.extend(batch.references)
    path = columns.table.path
    if not refs:
        raise InputError(f"{path} has no rows: no summaries to score")
    for name, cands in systems.items():
        reader.warn_blank(path, cands, f"{name!r} candidate", "row")
    reader.warn_blank_lines(path, reader.blank_reference_rows(refs), f"{_reference_label(columns)} reference", "row")
    return systems, refs, ids if args.id_column else None


def _table_pairs(columns: arrow.PairColumns, system: str, ids: list[str] | None):
    """(candidate, references[, source]) of one system's column, read a record batch at a time;
    the IDs of the rows read are appended to ``ids``."""
    path = columns.table.path
    blank: list[int] = []
    blank_refs: list[int] | None = [] if system == columns.candidates[0] else None  # said once, not per system
    rows = 0
    for batch in columns.batches([system]):
        cands = batch.candidates[system]
        if ids is not None and batch.ids is not None:
            ids.extend(batch.ids)
        blank += [batch.first + k for k, c in enumerate(cands) if not c or c.isspace()]
        if blank_refs is not None:
            blank_refs += reader.blank_reference_rows(batch.references, batch.first)
        rows += len(cands)
        if batch.sources is not None:
            yield from zip(cands, batch.references, batch.sources)
        else:
            yield from zip(cands, batch.references)
    if not rows:
        raise InputError(f"{path} has no rows: no summaries to score")
    reader.warn_blank_lines(path, blank, f"{system!r} candidate", "row")
    if blank_refs:
        reader.warn_blank_lines(path, blank_refs, f"{_reference_label(columns)} reference", "row")


def _reference_label(columns: arrow.PairColumns) -> str:
    """The reference columns as a warning names them ('r', or 'r1'/'r2')."""
    return "/".join(map(repr, columns.references))


def printable_name(name: str) -> str:
    """A file name as text: undecodable bytes (surrogate escapes) become U+FFFD."""
    return name.encode("utf-8", "surrogateescape").decode("utf-8", "replace")


def system_names(paths: list[str]) -> list[tuple[str, str]]:
    """(path, system name) of each candidate file: its name without extension, made unique (a file
    given twice is two systems, the second named ``a'``).

    Bytes of the name that are not UTF-8 show as U+FFFD (the name is printed, not opened).
    """
    names: list[tuple[str, str]] = []
    for path in paths:
        name = "stdin" if path == inputs.STDIN else printable_name(os.path.splitext(os.path.basename(path))[0])
        while any(name == taken for _, taken in names):
            name += "'"
        names.append((path, name))
    return names


def _progress(name: str, enabled: bool):
    if not enabled:
        return None

    def show(done: int) -> None:
        progress_line(f"scoring {name}: {done:,} pairs")

    return show


def _check_stdin(args) -> None:
    readers = [*args.candidates, *args.references, args.jsonl, args.sources]
    if readers.count(inputs.STDIN) > 1:
        raise OptionError("standard input (-) can be read only once")


def run(argv: list[str]) -> int:
    args = build_parser().parse_args(argv)
    try:
        return _run(args)
    except InputError as exc:  # a Parquet/Arrow row, or a line of line files, is its pair: named so
        table, found = args.parquet or args.arrow, re.match(r"pair (\d+): (.*)", str(exc), re.S)
        if table and found:
            name = "standard input" if table == "-" else printable_name(table)
            raise InputError(f"{name}, row {found[1]}: {found[2]}") from None
        if args.candidates and found:
            files = [printable_name(f) for f in (*args.candidates, *args.references)]
            raise InputError(f"line {found[1]} of {', '.join(files)}: {found[2]}") from None
        raise


def _run(args) -> int:
    if args.format == "rouge155" and args.bootstrap != "rouge155":
        raise OptionError("--format rouge155 needs --bootstrap rouge155")
    if args.format == "parquet":
        _parquet_out.check_options(args)
    if args.export_rouge155 == "-":
        raise OptionError("--export-rouge155 writes a folder of files: give it a folder name, not '-'")
    _check_stdin(args)
    refuse_output_over_input(args.output, input_files(args))
    progress = not args.quiet and sys.stderr.isatty()
    table = _table_file(args)
    if table and not args.export_rouge155:
        streamed = _score_table_streamed(args, progress)
        if streamed is not None:
            return streamed
    if args.candidates and args.references and not args.export_rouge155:  # line-aligned files: streamed
        scorer = _scorer(args)
        if args.per_pair and args.format in _STREAMED_FORMATS:
            streams = [
                (
                    name,
                    scorer.score_chunks(_aligned_pairs(args, path), jobs=args.jobs, progress=_progress(name, progress)),
                    None,
                )
                for path, name in system_names(args.candidates)
            ]
            return _write_pairs_while_scoring(args, scorer, streams)
        results = {}
        for name, path in each_system((name, path) for path, name in system_names(args.candidates)):
            pairs = _aligned_pairs(args, path)
            needs_tokens = any(m.family.corpus_needs_tokens for m in scorer.measures)
            keep = args.per_pair or scorer.bootstrap is not None or needs_tokens
            results[name] = scorer.score_stream(
                pairs, jobs=args.jobs, progress=_progress(name, progress), keep_pairs=keep
            )
            end_progress_line()
        return _write(args, results)
    systems, refs, ids = _load(args)
    scorer = _scorer(args)
    sources = _load_sources(args, len(refs))
    if args.export_rouge155:
        export(args.export_rouge155, systems, refs, ids, scorer)
    results = {}
    for n, (name, cands) in enumerate(each_system(systems.items()), start=1):
        if progress:
            progress_line(f"scoring {name} ({n}/{len(systems)}, {len(cands)} summaries)")
        results[name] = scorer.score(cands, refs, ids=ids, sources=sources, jobs=args.jobs)
    end_progress_line()
    return _write(args, results)


def _aligned_pairs(args, path: str):
    """(candidate, references[, source]) of line-aligned files, read lazily."""
    pairs = inputs.iter_aligned(
        path,
        args.references + ([args.sources] if args.sources else []),
        args.sentence_sep,
        args.encoding_errors,
    )
    if args.sources:  # the last aligned file is the source
        return ((cand, rest[:-1], rest[-1]) for cand, rest in pairs)
    return pairs


_STREAMED_FORMATS = (*PairRowWriter.FORMATS, "parquet")
_CHUNK = 20000  # pairs scored at a time from a Parquet/Arrow file (Scorer.score_chunks' default)


def _score_table_streamed(args, progress: bool) -> int | None:
    """A Parquet/Arrow input scored a record batch at a time, when the output allows it (the corpus
    numbers; per-pair csv, jsonl or parquet); None otherwise."""
    scorer = _scorer(args)
    if args.per_pair:
        if args.format == "parquet" or args.format in PairRowWriter.FORMATS:
            columns = _table_columns(args)
            streams = []
            for name in args.candidate_column:
                ids: list[str] | None = [] if args.id_column else None
                streams.append((name, _table_chunks(scorer, columns, name, ids, args.jobs, progress), ids))
            return _write_pairs_while_scoring(args, scorer, streams)
        return None
    columns = _table_columns(args)
    results = {}
    needs_tokens = any(m.family.corpus_needs_tokens for m in scorer.measures)
    keep = scorer.bootstrap is not None or needs_tokens
    for name, _ in each_system((c, c) for c in args.candidate_column):
        # the IDs order the 1.5.5 bootstrap and average (-t 0), as with the rows read into memory
        ids: list[str] | None = [] if args.id_column and keep else None
        kept_rpf = keep and ids is None and not needs_tokens and scorer.options.average != "tokens"
        if kept_rpf and _reads_arrow(scorer, columns, name):
            # the report reads each pair's recall, precision and f (its bootstrap) and the column sums:
            # only those kept, each chunk scored into one array reused (a million pairs of 3 measures:
            # 72 MB of fresh pages, not the 144 MB of every pair's statistics); with IDs (they order the
            # bootstrap) every pair's statistics are kept, below
            scratch = _zeros(_CHUNK, len(scorer.measures))
            chunks = _table_chunks(scorer, columns, name, None, args.jobs, progress, scratch=scratch, chunk=_CHUNK)
            # a text report of the 1.5.5 bootstrap prints the intervals of f only: only f kept (24 MB)
            f_only = (
                args.format == "text" and scorer.options.bootstrap == "rouge155" and scorer.options.average == "pairs"
            )
            results[name] = scorer.collect_rpf(chunks, columns.table.rows, f_only)
        elif _reads_arrow(scorer, columns, name):  # no BLEU here: no token pairs to keep
            # kept pairs: the engine scores each chunk into its rows of one array (no chunk copied)
            whole = _zeros(columns.table.rows, len(scorer.measures)) if keep and columns.table.rows else None
            chunks = _table_chunks(scorer, columns, name, ids, args.jobs, progress, whole)
            results[name] = scorer.collect(
                ((data, []) for data in chunks), keep_pairs=keep, rows=columns.table.rows, whole=whole, ids=ids
            )
        else:
            pairs = _table_pairs(columns, name, ids)
            results[name] = scorer.score_stream(
                pairs, jobs=args.jobs, progress=_progress(name, progress), keep_pairs=keep, ids=ids
            )
        end_progress_line()
    return _write(args, results)


def _reads_arrow(scorer: Scorer, columns: arrow.PairColumns, system: str) -> bool:
    """True when the engine reads ``system``'s pairs from the Arrow buffers (``ROUGEKIT_ARROW=0``: never,
    to compare the two paths)."""
    if os.environ.get("ROUGEKIT_ARROW") == "0":
        return False
    return scorer.reads_arrow() and columns.arrow_ready(system)


def _zeros(rows: int, measures: int):
    import numpy as np  # here: rougekit rouge155 never loads numpy

    return np.zeros((rows, measures, 6), dtype=np.float64)


def _table_chunks(
    scorer: Scorer,
    columns: arrow.PairColumns,
    system: str,
    ids: list[str] | None,
    jobs,
    progress,
    into=None,
    scratch=None,
    chunk: int = 20000,
):
    """Per-pair statistics of one system's column, ``chunk`` rows at a time: read by the engine from the
    Arrow buffers when the scorer and the columns allow it (no Python str per row), else as Python
    strings; ``into`` or ``scratch`` (see ``Scorer.arrow_chunks``): the array the Arrow path scores the
    chunks into."""
    show = _progress(system, progress)
    if not _reads_arrow(scorer, columns, system):
        yield from scorer.score_chunks(_table_pairs(columns, system, ids), chunk, jobs=jobs, progress=show)
        return
    path = columns.table.path
    blank: list[int] = []
    blank_refs: list[int] | None = [] if system == columns.candidates[0] else None  # said once, not per system
    rows = [0]

    def batches():
        for cands, refs in columns.text_arrays(system, ids):
            if blank_refs is not None:
                blank_refs.extend(rows[0] + k + 1 for k in arrow.blank_rows(refs))
            rows[0] += len(cands)
            yield cands, refs

    def read_all():  # what _table_pairs says once every row is read
        if not rows[0]:
            raise InputError(f"{path} has no rows: no summaries to score")
        reader.warn_blank_lines(path, [k + 1 for k in blank], f"{system!r} candidate", "row")
        if blank_refs:
            reader.warn_blank_lines(path, blank_refs, f"{_reference_label(columns)} reference", "row")

    yield from scorer.arrow_chunks(
        batches(), chunk, jobs=jobs, progress=show, blank=blank, before_warnings=read_all, into=into, scratch=scratch
    )


def _write_pairs_while_scoring(args, scorer: Scorer, streams) -> int:
    """``--per-pair`` CSV/JSONL/Parquet rows written chunk by chunk as the pairs are scored (none
    kept). ``streams`` holds (system name, per-pair statistics chunks, IDs): the IDs (or None: 1, 2,
    ...) are a list the chunks fill as their rows are read. A run stopped by an error or an interrupt
    leaves no partial output file (:mod:`rougekit.cli._output`)."""
    if args.format == "parquet":
        with output_path(args.output) as path:
            rows = _parquet_out.ParquetPairWriter(path, scorer.measures, scorer.signature, shown=args.output)
            try:
                _write_streams(rows, streams)
            except BaseException:
                with contextlib.suppress(OSError):  # a full disk fails the footer too
                    rows.close()
                raise
            rows.close()
    else:
        with output_file(args.output) as handle:
            _write_streams(PairRowWriter(handle, args.format, scorer.measures), streams)
    return 0


def _write_streams(rows, streams) -> None:
    for name, chunks, ids in streams:
        first = 1
        for data in chunks:
            if ids is None:
                rows.write(name, first, data)
            else:
                rows.write(name, first, data, ids[: len(data)])
                del ids[: len(data)]
            first += len(data)
        end_progress_line()


class _Unset(int):
    """An option's default, told apart from the same value given (``--seed 0``)."""


class _UnsetFloat(float):
    """A float option's default, told apart from the same value given."""


def _idle_options(args) -> None:
    """Bootstrap options given where they do nothing: said, not silently ignored."""
    given = [
        f"--{n}" for n in ("resamples", "confidence", "seed") if not isinstance(getattr(args, n), (_Unset, _UnsetFloat))
    ]
    if args.bootstrap == "none" and given:
        verb = "does" if len(given) == 1 else "do"
        warnings.warn(IdleOptionWarning(f"{' and '.join(given)} {verb} nothing with --bootstrap none (no interval)"))
    elif args.bootstrap == "rouge155" and "--seed" in given:
        warnings.warn(
            IdleOptionWarning(
                "--seed does nothing with --bootstrap rouge155: the script's resamples are seeded by their number "
                "(srand(s)), so its intervals are always the same (the signature says seed:none); --bootstrap "
                "percentile takes a seed"
            ),
            stacklevel=2,
        )


def _scorer(args) -> Scorer:
    _idle_options(args)
    scorer = Scorer(
        split_measure_list(args.measures),
        **scoring_options(args),
        average=args.average,
        bootstrap=None if args.bootstrap == "none" else args.bootstrap,
        resamples=args.resamples,
        confidence=args.confidence,
        seed=args.seed,
        jobs=args.jobs,
    )
    _sources_given(args, scorer)
    scorer.blank_references_unsaid = False  # the readers say them, naming their files and lines
    return with_sentence_split(scorer, args)


def _sources_given(args, scorer: Scorer) -> None:
    """A measure that reads the original texts (SumACCY, WSumACCY) needs the option that gives them,
    named for the input style in use."""
    needing = [m.name for m in scorer.measures if m.needs_source]
    if (
        not needing
        or getattr(args, "sources", None)
        or getattr(args, "source_column", None)
        or getattr(args, "source_field", None)
    ):
        return
    if getattr(args, "parquet", None) or getattr(args, "arrow", None):
        flag = "--source-column COLUMN"
    elif getattr(args, "jsonl", None):
        flag = "--source-field FIELD"
    else:
        flag = "--sources FILE (one original text a line)"
    raise OptionError(f"--measures {','.join(needing)} reads the original texts: give {flag}")


def with_sentence_split(scorer: Scorer, args) -> Scorer:
    """The scorer, its signature saying where the command cut sentences (``sent:<q>`` for --sentence-sep)."""
    scorer.signature = scorer.signature.with_sentences(args.sentence_sep)
    return scorer


def _write(args, results) -> int:
    if args.format == "parquet":
        measures = next(iter(results.values())).measures
        with output_path(args.output) as path:
            writer = _parquet_out.ParquetPairWriter(path, measures, _signature(results), shown=args.output)
            try:
                for name, result in results.items():
                    writer.write_result(name, result)
            except BaseException:
                with contextlib.suppress(OSError):
                    writer.close()
                raise
            writer.close()
        return 0
    text = WRITERS[args.format](results, args.per_pair)
    write_output(args.output, text)
    return 0


def _signature(results):
    return next(iter(results.values())).signature
