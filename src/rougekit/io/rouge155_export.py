"""Writing a scoring run as a ROUGE-1.5.5 evaluation: XML config, SPL summary files, command line.

``rougekit score ... --export-rouge155 DIR`` writes ``DIR/config.xml`` (one EVAL per input pair,
every system a peer of every EVAL), the summaries under ``DIR/peers`` and ``DIR/models`` (SPL: one
sentence per line) and ``DIR/command.txt``: the script's arguments that follow ``-e DATA``, paths
relative to DIR. Run in DIR, ``ROUGE-1.5.5.pl -e DATA $(cat command.txt)`` prints the numbers
that ``--average rouge155`` gives.

The script bootstraps over the evaluations sorted as strings by ``"<evalID>.<peerID>"``. The
eval IDs are the given IDs, or the input positions zero-padded to one width (``01``, ``02``,
...), which sort in input order.
"""

from __future__ import annotations

import os
from xml.sax.saxutils import escape, quoteattr

from rougekit.errors import OptionError

CONFIG = "config.xml"
COMMAND = "command.txt"


def eval_ids(ids: list[str] | None, count: int) -> list[str]:
    """The eval IDs of ``count`` pairs: the given IDs, or 1..count zero-padded to one width."""
    if ids is not None:
        return list(ids)
    width = len(str(count))
    return [str(i).zfill(width) for i in range(1, count + 1)]


def script_arguments(scorer) -> list[str]:
    """ROUGE-1.5.5.pl's flags for a :class:`rougekit.Scorer`'s options (what follows ``-e DATA``,
    before the config file). Options the script does not have raise :class:`OptionError`."""
    for option, value in (("tokenizer", scorer.pre.name), ("su_unigrams", scorer.su_unigrams), ("wlcs", scorer.wlcs)):
        if value != "rouge155":
            raise OptionError(f"ROUGE-1.5.5.pl has no {option}={value!r}: export with the script's default")
    if scorer.multi_ref not in ("sum", "best"):
        raise OptionError(f"ROUGE-1.5.5.pl has no multi_ref={scorer.multi_ref!r} (only sum, -f A, and best, -f B)")
    args = ["-c", f"{scorer.confidence:g}", "-r", str(scorer.resamples)]
    kinds = {m.kind for m in scorer.measures}
    unknown = [m.name for m in scorer.measures if m.kind not in ("N", "L", "W", "S", "SU")]
    if unknown:
        raise OptionError(f"ROUGE-1.5.5.pl does not compute {', '.join(unknown)}")
    ngrams = [m.n for m in scorer.measures if m.kind == "N"]
    if ngrams:
        args += ["-n", str(max(ngrams))]
    if "L" not in kinds:
        args.append("-x")
    weights = sorted({m.weight for m in scorer.measures if m.kind == "W"})
    if len(weights) > 1:
        raise OptionError("ROUGE-1.5.5.pl computes one ROUGE-W weight per run")
    if weights:
        args += ["-w", f"{weights[0]:g}"]
    skips = sorted({m.skip for m in scorer.measures if m.kind in ("S", "SU")})
    if len(skips) > 1:
        raise OptionError("ROUGE-1.5.5.pl computes one skip distance (-2) per run")
    if skips:
        args += ["-2", str(skips[0])]
        if kinds >= {"S", "SU"}:
            args.append("-U")
        elif "SU" in kinds:
            args.append("-u")
    if scorer.pre.stem:
        args.append("-m")
    if scorer.pre.stopwords:
        args.append("-s")
    if scorer.pre.word_limit:
        args += ["-l", str(scorer.pre.word_limit)]
    if scorer.pre.byte_limit:
        args += ["-b", str(scorer.pre.byte_limit)]
    args += ["-f", "B" if scorer.multi_ref == "best" else "A", "-p", f"{scorer.alpha:g}"]
    args += ["-t", "1" if scorer.average == "tokens" else "0"]
    return [*args, "-a", CONFIG]


def _check_ids(ids: list[str], systems: list[str]) -> None:
    seen: set[str] = set()
    for i in ids:
        if not i.strip() or i != i.strip():
            raise OptionError(f"eval ID {i!r} is empty or has white space around it")
        if i in seen:
            raise OptionError(f"eval ID {i!r} repeats: ROUGE-1.5.5.pl would merge the two evaluations")
        seen.add(i)
    plain = sorted(ids, key=lambda i: i + ".")
    for peer in systems:  # with a "." in an ID the order could depend on the peer's name
        if sorted(ids, key=lambda i: f"{i}.{peer}") != plain:
            raise OptionError(f"eval IDs with '.' sort differently for peer {peer!r}: use IDs without '.'")


def _write(path: str, text: str) -> None:
    with open(path, "w", encoding="utf-8", newline="\n") as handle:
        handle.write(text)


def _spl(summary: str) -> str:
    return summary + "\n" if summary and not summary.endswith("\n") else summary


def export(
    directory: str,
    systems: dict[str, list[str]],
    references: list[list[str]],
    ids: list[str] | None,
    scorer,
) -> list[str]:
    """Write the evaluation of ``systems`` (name -> candidates) against ``references`` into
    ``directory``; return the script's arguments (also written to ``command.txt``)."""
    args = script_arguments(scorer)
    count = len(references)
    names = list(systems)
    evals = eval_ids(ids, count)
    _check_ids(evals, names)
    for k, refs in enumerate(references):
        if not refs:
            raise OptionError(f"pair {evals[k]} has no reference: ROUGE-1.5.5.pl needs one per evaluation")
    try:
        os.makedirs(directory, exist_ok=True)
        if os.listdir(directory):
            raise OptionError(f"--export-rouge155: {directory} is not empty")
        os.makedirs(os.path.join(directory, "peers"))
        os.makedirs(os.path.join(directory, "models"))
        width = len(str(count))
        lines = ['<ROUGE-EVAL version="1.0">']
        for k, eval_id in enumerate(evals):
            pos = str(k + 1).zfill(width)
            lines += [
                f"<EVAL ID={quoteattr(eval_id)}>",
                "<PEER-ROOT>peers</PEER-ROOT>",
                "<MODEL-ROOT>models</MODEL-ROOT>",
                '<INPUT-FORMAT TYPE="SPL"></INPUT-FORMAT>',
                "<PEERS>",
            ]
            for s, name in enumerate(names, start=1):
                _write(os.path.join(directory, "peers", f"{pos}.{s}.txt"), _spl(systems[name][k]))
                lines.append(f"<P ID={quoteattr(name)}>{escape(f'{pos}.{s}.txt')}</P>")
            lines.append("</PEERS>")
            lines.append("<MODELS>")
            for j, ref in enumerate(references[k], start=1):
                _write(os.path.join(directory, "models", f"{pos}.{j}.txt"), _spl(ref))
                lines.append(f'<M ID="{j}">{pos}.{j}.txt</M>')
            lines += ["</MODELS>", "</EVAL>"]
        lines.append("</ROUGE-EVAL>")
        _write(os.path.join(directory, CONFIG), "\n".join(lines) + "\n")
        _write(os.path.join(directory, COMMAND), " ".join(args) + "\n")
    except OSError as exc:
        raise OptionError(f"--export-rouge155 {directory}: {exc.strerror or exc}") from None
    return args
