"""Drop-in for files2rouge 2.1.0 (pltrdy/files2rouge at d3d09c8, with the pyrouge fork it installs).

``rougekit files2rouge REFERENCES SUMMARIES`` (:mod:`rougekit.cli.files2rouge`) prints what
``files2rouge REFERENCES SUMMARIES`` prints, and :func:`run` is its ``files2rouge.run`` (summaries
first, as there). Nothing is written to disk and no Perl runs: the evaluation goes through the
code of :mod:`rougekit.compat.pyrouge` (rougekit's ``rouge155`` engine). What files2rouge does is
kept:

* lines: both files are read as Python's ``open`` reads text (UTF-8 here; ``\\r\\n`` and ``\\r``
  end lines too); their line counts must match; each line is stripped; an empty reference line
  (then an empty summary line) is an error unless ``ignore_empty_reference`` (``ignore_empty_summary``)
  skips that line;
* sentences: a line's sentences end where ``" " + eos`` occurs (the eos stays in its sentence);
* evaluations: line ``i`` (from 0) is the file pair ``s.<i>.txt``/``m.A.<i>.txt`` and the
  evaluations follow the file names sorted as strings (``s.0``, ``s.1``, ``s.10``, ...), which
  decides the script's bootstrap;
* arguments: ``-e <data> -c 95 -r 1000 -n <rouge_n> -a`` (``-x`` added by ``no_rouge_l``), or
  ``-e <data>`` and ``rouge_args``; then ``-m`` unless ``stemming=False``;
* stemming: files2rouge's data folder ships an empty WordNet exception DB, so ``-m`` there is the
  script's modified Porter stemmer alone (``went`` stays ``went``, where ROUGE-1.5.5 with its full
  DB gives ``go``);
* ``verbose`` (``-v``): the pyrouge fork's log lines on standard error, in its format
  (``<time> [MainThread  ] [INFO ]  <message>``), one per step it takes: the ROUGE home, writing
  and converting the summaries (one line per file), the configuration file, the ROUGE command.
  rougekit writes no file and runs no Perl, so the folders those lines name are in memory:
  ``memory:lines`` for the one-file-per-line folders files2rouge writes, ``memory:html`` for
  pyrouge's converted copies, ``memory:config`` for its configuration folder and
  ``memory:rouge-1.5.5`` for the ROUGE home; the files are listed in evaluation order
  (files2rouge lists them in the order the file system gives).
"""

from __future__ import annotations

import io
import sys
import threading
import time

from rougekit.compat.pyrouge import Rouge155, run_script
from rougekit.errors import InputError, OptionError
from rougekit.io.reader import read_bytes
from rougekit.io.rouge155_config import Config, Evaluation
from rougekit.text.rouge155 import sentences_from_lines

__all__ = ["DEFAULT_ROUGE_N", "split_lines", "run", "evaluate", "verbose_log"]

DEFAULT_ROUGE_N = 2
SYSTEM_ID = "1"


def _read_lines(path: str, what: str) -> list[str]:
    """The lines of a file as files2rouge iterates over ``open(path)`` (UTF-8, universal newlines)."""
    data = read_bytes(path, f"{what} file")  # within the reader's limits: /dev/zero stops at once
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise InputError(f"{path}: line {line} is not UTF-8 text ({exc.reason})") from None
    lines = list(io.StringIO(text, newline=None))
    if not lines:
        raise InputError(f"{path}: empty {what} file (files2rouge needs one line per summary)")
    return lines


def split_lines(
    references: list[str],
    summaries: list[str],
    eos: str = ".",
    ignore_empty_reference: bool = False,
    ignore_empty_summary: bool = False,
    paths: tuple[str, str] = ("references", "summaries"),
) -> tuple[dict[int, tuple[str, str]], list[int]]:
    """files2rouge's ``split_files`` in memory: ``{line index: (model text, system text)}`` and the
    1-based numbers of the ignored lines. A text's sentences are separated by newlines."""
    if len(references) != len(summaries):
        raise InputError(
            f"Model and System line counts must match, {len(references)} != {len(summaries)} "
            f"({paths[0]} has {len(references)} lines, {paths[1]} {len(summaries)})"
        )
    mark = f" {eos}"
    texts, ignored = {}, []
    for i, (model, system) in enumerate(zip(references, summaries)):
        model, system = model.strip(), system.strip()
        if model == "":
            if ignore_empty_reference:
                ignored.append(i + 1)
                continue
            raise InputError(
                f"{paths[0]}: Empty reference at line {i + 1}. Use `--ignore_empty_reference` to ignore it"
            )
        if system == "":
            if ignore_empty_summary:
                ignored.append(i + 1)
                continue
            raise InputError(f"{paths[1]}: Empty summary at line {i + 1}. Use `--ignore_empty_summary` to ignore it")
        texts[i] = (f"{mark}\n".join(model.split(mark)), f"{mark}\n".join(system.split(mark)))
    return texts, ignored


def rouge_arguments(rouge_args: str | None, rouge_n: int, no_rouge_l: bool) -> list[str]:
    """The script's words before ``-m <config>``, as files2rouge assembles them (``-e`` included)."""
    if rouge_args is not None:
        if rouge_n != DEFAULT_ROUGE_N:
            raise OptionError("'rouge_n' should not be set with 'rouge_args'")
        if no_rouge_l:
            raise OptionError("'no_rouge_l' should not be set with 'rouge_args'")
    if not rouge_args:
        rouge_args = f"-c 95 -r 1000 -n {rouge_n} -a" + (" -x" if no_rouge_l else "")
    return ["-e", "data", *rouge_args.split()]


def evaluate(texts: dict[int, tuple[str, str]], options: list[str], stemming: bool = True) -> str:
    """ROUGE-1.5.5's output for the pairs of :func:`split_lines`, as the pyrouge fork runs it."""
    if not texts:  # every line ignored: pyrouge finds no system file
        raise InputError("no lines left to score: every line was empty and ignored")
    sentences = {}
    evaluations = []
    for name in sorted(f"s.{i}.txt" for i in texts):  # pyrouge: sorted(os.listdir(system_dir))
        i = int(name[2:-4])
        model_name = f"m.A.{i}.txt"
        for path, text in ((f"model/{model_name}", texts[i][0]), (f"system/{name}", texts[i][1])):
            html = Rouge155.convert_text_to_rouge_format(text).encode("utf-8").split(b"\n")
            sentences[path] = sentences_from_lines([line + b"\n" for line in html[:-1]] + [html[-1]], "SEE")
        evaluation = Evaluation(
            eval_id=str(len(evaluations) + 1),
            input_format="SEE",
            peer_root="system",
            model_root="model",
            peers={SYSTEM_ID: name},
            model_ids=["A"],
        )
        evaluation.model_files = {"A": model_name}
        evaluations.append(evaluation)
    config = Config(evaluations, [SYSTEM_ID])
    return run_script(
        config, SYSTEM_ID, options, lambda path, fmt: sentences[path], stem=stemming, stem_exceptions=False
    )


HOME, LINES, HTML, CONFIG = "memory:rouge-1.5.5", "memory:lines", "memory:html", "memory:config"


def verbose_log(texts: dict[int, tuple[str, str]], options: list[str], stemming: bool) -> list[str]:
    """The messages the pyrouge fork logs at INFO when files2rouge runs with ``-v``, in its order.

    Its folders are named as rougekit holds them (in memory, see the module's docstring).
    """
    names = sorted(f"s.{i}.txt" for i in texts)  # the evaluation order
    command = [f"{HOME}/ROUGE-1.5.5.pl", *(f"{HOME}/data" if word == "data" else word for word in options[:2])]
    command += [*options[2:], *(["-m"] if stemming else []), f"{CONFIG}/rouge_conf.xml"]
    messages = [f"Set ROUGE home directory to {HOME}.", "Writing summaries."]
    messages.append(f"Processing summaries. Saving system files to {HTML}/system and model files to {HTML}/model.")
    for role, files in (("system", names), ("model", [f"m.A.{name[2:]}" for name in names])):
        messages.append(f"Processing files in {LINES}/{role}.")
        messages += [f"Processing {name}." for name in files]
        messages.append(f"Saved processed files to {HTML}/{role}.")
    messages.append(f"Written ROUGE configuration to {CONFIG}/rouge_conf.xml")
    messages.append("Running ROUGE with command " + " ".join(command))
    return messages


def _log(messages: list[str], err) -> None:
    """``messages`` as pyrouge's console logger prints them (``logging``'s asctime, thread, level)."""
    thread = threading.current_thread().name
    for message in messages:
        now = time.time()
        stamp = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(now)) + ",%03d" % int(now % 1 * 1000)
        err.write("%s [%-12.12s] [%-5.5s]  %s\n" % (stamp, thread, "INFO", message))


def run(
    summ_path: str,
    ref_path: str,
    rouge_args: str | None = None,
    verbose: bool = False,
    saveto: str | None = None,
    rouge_n: int = DEFAULT_ROUGE_N,
    no_rouge_l: bool = False,
    eos: str = ".",
    ignore_empty_reference: bool = False,
    ignore_empty_summary: bool = False,
    stemming: bool = True,
    out=None,
    err=None,
) -> str:
    """files2rouge's ``run`` (summaries first): print its report to ``out`` (default stdout), also
    write the ROUGE output to ``saveto``, and return that output. ``verbose``: files2rouge's ``-v``,
    the pyrouge fork's log lines on ``err`` (default stderr; :func:`verbose_log`)."""
    out = out or sys.stdout
    start = time.time()
    options = rouge_arguments(rouge_args, rouge_n, no_rouge_l)
    references = _read_lines(ref_path, "reference")
    summaries = _read_lines(summ_path, "summary")
    texts, ignored = split_lines(
        references, summaries, eos, ignore_empty_reference, ignore_empty_summary, paths=(ref_path, summ_path)
    )
    output = evaluate(texts, options, stemming)
    if saveto is not None:
        try:
            with open(saveto, "w", encoding="utf-8") as handle:
                handle.write(output + "\n")
        except OSError as exc:
            raise InputError(f"cannot write --saveto file {saveto}: {exc.strerror or exc}") from None
    if verbose:  # once it has all worked, so that an error stays the only line on stderr
        _log(verbose_log(texts, options, stemming), err or sys.stderr)
    out.write(f"Preparing documents... {len(ignored)} line(s) ignored\nRunning ROUGE...\n{output}\n")
    out.write("Elapsed time: %.3f seconds\n" % (time.time() - start))
    return output
