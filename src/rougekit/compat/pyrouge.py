"""Drop-in for ``pyrouge`` 0.1.3 (``from pyrouge import Rouge155``), with no Perl and no temporary files.

Switch by changing one import::

    # from pyrouge import Rouge155
    from rougekit.compat.pyrouge import Rouge155

    r = Rouge155()
    r.system_dir = "summaries/system"
    r.model_dir = "summaries/reference"
    r.system_filename_pattern = r"doc.(\\d+).txt"
    r.model_filename_pattern = "doc.[A-Z].#ID#.txt"
    output = r.convert_and_evaluate()
    print(output)
    scores = r.output_to_dict(output)   # {"rouge_1_recall": ..., "rouge_1_recall_cb": ..., ...}

It prints what pyrouge prints when it runs ROUGE-1.5.5.pl on the same folders, byte for byte,
and returns the same dict: the evaluation runs in rougekit's ``rouge155`` engine (the code of
``rougekit rouge155``). What pyrouge does around the script is kept:

* pairing: the system files are ``sorted(os.listdir(system_dir))`` whose name matches
  ``system_filename_pattern`` at its start (``re.match``); the first group is the document ID;
  the models of a document are the files of ``model_dir`` matching ``model_filename_pattern``
  with ``#ID#`` replaced by that ID, sorted, named A, B, C...; evaluation i is the i-th system file;
* ``convert_and_evaluate``: each file (UTF-8) is one sentence per line (split on ``"\\n"``) and
  is turned into the SEE HTML pyrouge writes, then read as the script reads SEE (in memory);
  ``evaluate`` reads the folders as SEE files already;
* arguments: by default ``-e <data> -c 95 -2 -1 -U -r 1000 -n 4 -w 1.2 -a``; ``rouge_args``
  given to the constructor win over those given to ``evaluate``; ``-m`` (stemming) is always
  added, as pyrouge adds ``-m <config file>``.

Differences: no ROUGE home directory, settings file or Perl is needed (``rouge_dir`` and ``-e``
are accepted and ignored); ``system_dir``/``model_dir`` keep the folders you set (pyrouge points
them at its temporary HTML copies after ``convert_and_evaluate``); only the files the patterns
select are read; ``-e`` is not required in ``rouge_args``. Errors: pyrouge's own ones (no
matching file, a missing folder) keep their messages and are :class:`rougekit.errors.InputError`
(an ``Exception``, as pyrouge raises); where the script would die (bad ``rouge_args``, no ``-a``,
ROUGE-W against an empty reference) :class:`RougeScriptError` is both an ``InputError`` and the
``subprocess.CalledProcessError`` pyrouge raises then, with a one-line reason.
"""

from __future__ import annotations

import codecs
import dataclasses
import os
import re
import subprocess

from rougekit.cli.rouge155 import build_settings, parse_getopts
from rougekit.errors import InputError, OptionError, RougeKitError
from rougekit.io.rouge155_config import Config, Evaluation
from rougekit.report.rouge155 import format_report
from rougekit.rouge155 import Rouge155Run
from rougekit.text.rouge155 import sentences_from_lines

__all__ = ["Rouge155", "RougeScriptError", "DEFAULT_ROUGE_ARGS", "run_script"]


class RougeScriptError(InputError, subprocess.CalledProcessError):
    """Where ROUGE-1.5.5.pl would die, so that pyrouge raises ``subprocess.CalledProcessError``.

    Both an :class:`~rougekit.errors.InputError` and a ``CalledProcessError`` (return code 255,
    the script's ``die``), with rougekit's one-line reason as its message.
    """

    def __init__(self, message: str):
        subprocess.CalledProcessError.__init__(self, 255, "ROUGE-1.5.5.pl", b"", message.encode("utf-8"))
        self.args = (message,)

    def __str__(self) -> str:
        return self.args[0]


#: the arguments pyrouge passes to ROUGE-1.5.5.pl after ``-e <data dir>`` (then ``-m <config>``)
DEFAULT_ROUGE_ARGS = "-c 95 -2 -1 -U -r 1000 -n 4 -w 1.2 -a"

_OUTPUT_LINE = re.compile(r"(\d+) (ROUGE-\S+) (Average_\w): (\d.\d+) \(95%-conf.int. (\d.\d+) - (\d.\d+)\)")
_STATISTIC = {"Average_R": "recall", "Average_P": "precision", "Average_F": "f_score"}


class _Folder:
    """A folder setting of :class:`Rouge155` (a property): setting a path that does not exist raises
    pyrouge's error naming the ``kind`` of folder."""

    def __init__(self, kind: str, doc: str):
        self.kind, self.__doc__ = kind, doc

    def __set_name__(self, owner, name: str) -> None:
        self.attribute = "_" + name

    def __get__(self, obj, owner=None):
        return self if obj is None else getattr(obj, self.attribute)

    def __set__(self, obj, path) -> None:
        _verify_dir(path, self.kind)
        setattr(obj, self.attribute, path)


class Rouge155:
    """pyrouge's ``Rouge155``: pair summaries by file name patterns and score them as ROUGE-1.5.5.

    Args:
        rouge_dir: accepted for compatibility (no ROUGE installation is needed).
        rouge_args: the script's options as one string, used instead of the defaults by every
            evaluation (one pair of enclosing double quotes is removed, as pyrouge does).
    """

    def __init__(self, rouge_dir=None, rouge_args=None):
        self._home_dir = rouge_dir
        self.args = _strip_quotes(rouge_args)
        self._system_dir = None
        self._model_dir = None
        #: regex matched at the start of system file names; its first group is the document ID
        self.system_filename_pattern = None
        #: regex of model file names, with ``#ID#`` standing for the document ID
        self.model_filename_pattern = None

    # ------------------------------------------------------------------ settings

    system_dir = _Folder("system", "Folder of the system (peer) summaries; setting a missing path raises.")
    model_dir = _Folder("model", "Folder of the model (reference) summaries; setting a missing path raises.")

    # ------------------------------------------------------------------ evaluation

    def convert_and_evaluate(self, system_id=1, split_sentences=False, rouge_args=None):
        """Score plain-text summaries (one sentence per line) and return ROUGE-1.5.5's output.

        ``split_sentences=True`` first splits each text with NLTK's Punkt (English), as pyrouge
        does; it needs ``nltk`` and its punkt data.
        """
        splitter = _punkt() if split_sentences else None

        def read_converted(path, fmt):
            with codecs.open(path, "r", encoding="UTF-8") as handle:  # no newline translation, as pyrouge
                text = handle.read()
            if splitter is not None:  # pyrouge's clean-up first: newlines, "|" and white space runs to " "
                text = "\n".join(splitter(re.sub(r"\s+", " ", re.sub("[\n|\r]", " ", text)).strip()))
            lines = self.convert_text_to_rouge_format(text).encode("utf-8").split(b"\n")
            return sentences_from_lines([line + b"\n" for line in lines[:-1]] + [lines[-1]], fmt)

        return self._evaluate(system_id, rouge_args, read_converted)

    def evaluate(self, system_id=1, rouge_args=None):
        """Score summaries already in ROUGE's SEE HTML format and return ROUGE-1.5.5's output."""
        return self._evaluate(system_id, rouge_args, None)

    def output_to_dict(self, output):
        """The ``Average_R/P/F`` lines of an output as ``{"rouge_1_recall": 0.5, "rouge_1_recall_cb": ...}``."""
        results = {}
        for line in output.split("\n"):
            match = _OUTPUT_LINE.match(line)
            if match:
                _, name, statistic, value, low, high = match.groups()
                key = f"{name.lower().replace('-', '_')}_{_STATISTIC[statistic]}"
                results[key] = float(value)
                results[f"{key}_cb"] = float(low)
                results[f"{key}_ce"] = float(high)
        return results

    # ------------------------------------------------------------------ SEE conversion (pyrouge's format)

    @staticmethod
    def convert_text_to_rouge_format(text, title="dummy title"):
        """The SEE HTML of a text with one sentence per line, as pyrouge writes it."""
        lines = [
            f'<a name="{i}">[{i}]</a> <a href="#{i}" id={i}>{sentence}</a>'
            for i, sentence in enumerate(text.split("\n"), start=1)
        ]
        body = "\n".join(lines)
        return f'<html>\n<head>\n<title>{title}</title>\n</head>\n<body bgcolor="white">\n{body}\n</body>\n</html>'

    @staticmethod
    def convert_summaries_to_rouge_format(input_dir, output_dir):
        """Write the SEE HTML of every file of ``input_dir`` to ``output_dir`` (same names)."""
        os.makedirs(output_dir, exist_ok=True)
        for name in os.listdir(input_dir):
            with codecs.open(os.path.join(input_dir, name), "r", encoding="UTF-8") as handle:
                text = handle.read()
            with codecs.open(os.path.join(output_dir, name), "w", encoding="UTF-8") as handle:
                handle.write(Rouge155.convert_text_to_rouge_format(text))

    # ------------------------------------------------------------------ internals

    def _evaluate(self, system_id, rouge_args, read_sentences):
        if not system_id:
            system_id = 1
        config = self._config(str(system_id))
        if self.args:
            options = self.args.split()
        elif rouge_args:
            options = rouge_args.split()
        else:
            options = ["-e", "data", *DEFAULT_ROUGE_ARGS.split()]
        return run_script(config, str(system_id), options, read_sentences)

    def _config(self, system_id: str) -> Config:
        """The evaluations pyrouge would write into its configuration file."""
        pattern = re.compile(self.system_filename_pattern)
        evaluations = []
        for name in sorted(os.listdir(self._system_dir)):
            match = pattern.match(name)
            if not match:
                continue
            doc_id = match.groups(0)[0]
            models = sorted(self._model_files(doc_id))
            evaluation = Evaluation(
                eval_id=str(len(evaluations) + 1),
                input_format="SEE",
                peer_root=self._system_dir,
                model_root=self._model_dir,
                peers={system_id: name},
                model_ids=[chr(65 + i) for i in range(len(models))],
            )
            evaluation.model_files = dict(zip(evaluation.model_ids, models))
            evaluations.append(evaluation)
        if not evaluations:
            raise InputError(
                f"Did not find any files matching the pattern {pattern.pattern} "
                f"in the system summaries directory {self._system_dir}."
            )
        return Config(evaluations, [system_id])

    def _model_files(self, doc_id):
        pattern = re.compile(self.model_filename_pattern.replace("#ID#", doc_id))
        names = [name for name in os.listdir(self._model_dir) if pattern.match(name)]
        if not names:
            raise InputError(
                f"Could not find any model summaries for the system summary with ID {doc_id}. "
                f"Specified model filename pattern was: {self.model_filename_pattern}"
            )
        return names


def run_script(config: Config, system_id: str, options: list, read_sentences=None, stem=True, stem_exceptions=True):
    """ROUGE-1.5.5's output for ``config``, run as pyrouge runs the script: ``options`` then
    ``-m`` (if ``stem``) and the configuration file. ``stem_exceptions=False`` stems as the script
    does with an empty WordNet exception DB (the Porter stem alone). Errors: :class:`RougeScriptError`.
    """
    try:
        opts, positional = parse_getopts([*options, *(["-m"] if stem else []), "rouge_conf.xml"])
        if positional[1:]:
            raise OptionError(f"rouge_args: unexpected {' '.join(positional[1:])!r} after the options")
        if "z" in opts:
            raise OptionError("rouge_args: -z (a file list) does not apply: Rouge155 writes an XML configuration")
        if "a" not in opts:  # pyrouge gives the script no system ID: it needs -a
            raise OptionError("rouge_args: give -a (pyrouge passes no system ID to evaluate)")
        settings = dataclasses.replace(build_settings(opts), stem_exceptions=stem_exceptions)
        engine = Rouge155Run(config, settings, read_sentences=read_sentences)
        return format_report(engine.run([system_id]), str(opts.get("c", "95")), settings.average, "d" in opts)
    except RougeKitError as exc:
        raise RougeScriptError(str(exc)) from exc


def _verify_dir(path, name):
    if not os.path.exists(path):
        raise InputError(f"Cannot set {name} directory because the path {path} does not exist.")


def _strip_quotes(rouge_args):
    """pyrouge's clean-up: the text inside the first and the last double quote, if it starts with one."""
    if not rouge_args:
        return None
    match = re.match(r'"(.+)"', rouge_args)
    return match.group(1) if match else rouge_args


def _punkt():
    """NLTK's English Punkt ``tokenize`` (pyrouge's sentence splitter), or a clear ImportError."""
    try:
        from nltk.tokenize import PunktTokenizer
    except ImportError as exc:
        raise ImportError("split_sentences=True needs nltk (pip install nltk) and its punkt_tab data") from exc
    return PunktTokenizer("english").tokenize
