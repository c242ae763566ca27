"""Runnable commands for a point of the option space: the package's call where one has it, else rougekit's."""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

if TYPE_CHECKING:
    from rougekit.variants.space import Settings

# rougekit's measure names -> rouge-score's type names (ROUGE-L by the sentence split)
_RS_TYPES = {"ROUGE-1": "rouge1", "ROUGE-2": "rouge2", "ROUGE-3": "rouge3", "ROUGE-4": "rouge4"}
_SPLIT_NOTE = {
    "none": "each summary on one line (newlines replaced by spaces)",
    "punkt": "one sentence per line by nltk.sent_tokenize",
    "eos": "each summary on one line, a new sentence after each ' .' (files2rouge's --eos)",
    "newline": "",
}


def rouge_score_types(measures: Sequence[str], split: str) -> list[str]:
    return [_RS_TYPES.get(m, "rougeL" if split == "none" else "rougeLsum") for m in measures]


def perl_options(measures: Sequence[str], s: "Settings") -> str:
    """ROUGE-1.5.5.pl's options for these settings (before the configuration file)."""
    orders = [int(m[6:]) for m in measures if m != "ROUGE-L"]
    words = ["-e", "data", "-c", "95", "-r", "1000", "-n", str(max(orders) if orders else 1)]
    if "ROUGE-L" not in measures:
        words.append("-x")
    if s.stemmer != "none":
        words.append("-m")
    if s.stopwords:
        words.append("-s")
    if s.word_limit:
        words += ["-l", str(s.word_limit)]
    if s.byte_limit:
        words += ["-b", str(s.byte_limit)]
    if s.multi_ref == "best":
        words += ["-f", "B"]
    if s.alpha != 0.5:
        words += ["-p", f"{s.alpha:g}"]
    if s.aggregation == "tokens":  # the summed counts; R = H/M, P = H/P and F computed from them
        words += ["-t", "2"]
    if s.aggregation == "rouge155-token-average":
        words += ["-t", "1"]
    return " ".join([*words, "-a"])


#: what the script prints with -t 2 (aggregation "tokens"): counts, from which the ratios are divided by hand
T2_NOTE = " [-t 2 prints the counts M_count, P_count, H_count, no R/P/F: R = H_count/M_count, P = H_count/P_count]"


def perl_command(measures: Sequence[str], s: "Settings", db: str = "") -> str:
    """ROUGE-1.5.5.pl's command line for these settings, with what -t 2 prints said beside it."""
    note = T2_NOTE if s.aggregation == "tokens" else ""
    return f"ROUGE-1.5.5.pl {perl_options(measures, s)} config.xml{db}{note}"


def reference_files(references: int | None) -> str:
    """rougekit score's reference input: ``-r`` per reference file (``references<k>.txt``, aligned with
    the candidates), or, when pairs have different numbers of references (None), a JSONL file."""
    if references is None:
        return "--jsonl pairs.jsonl --candidate-field candidate --reference-field references"
    if references == 1:
        return "-c candidates.txt -r references.txt"
    return "-c candidates.txt " + " ".join(f"-r references{k}.txt" for k in range(1, references + 1))


def _python_references(references: int | None) -> str:
    if references is None:
        return "[json.loads(x)['references'] for x in open('pairs.jsonl')]"
    if references == 1:
        return "r('references.txt')"
    files = ", ".join(f"r('references{k}.txt')" for k in range(1, references + 1))
    return f"[list(x) for x in zip({files})]"


def command_of(s: "Settings", measures: Sequence[str], references: int | None = 1) -> str:
    """One line that reproduces ``s`` (prefixed by how to prepare the texts when the split asks for it),
    on pairs of ``references`` references each (None: a varying number, read from JSONL)."""
    note = _SPLIT_NOTE[s.split] if "ROUGE-L" in measures else ""
    prefix = f"[texts: {note}] " if note else ""
    if s.order == "file-names":
        prefix += "[pairs as files <i>.txt, bootstrapped in file-name order, as pyrouge and files2rouge] "
    suffix = " [value as printed with %.5f]" if s.rounding == "round5" else ""
    suffix += " [float32 values and mean, as torchmetrics]" if s.precision == "float32" else ""
    if s.tokenizer == "rouge155":
        return prefix + _rouge155_command(s, measures, references) + suffix
    return prefix + _rouge_score_command(s, measures, references) + suffix


def python_command(s: "Settings", measures: Sequence[str], references: int | None = 1) -> str:
    """rougekit's own evaluation of any point of the option space (where no package's command gives it)."""
    fields = ", ".join(f"{k}={v!r}" for k, v in s.describe().items() if v != getattr(type(s)(), k))
    cands = "[json.loads(x)['candidate'] for x in open('pairs.jsonl')]" if references is None else "r('candidates.txt')"
    return (
        'python -c "import json, rougekit.variants as v; from rougekit.io.inputs import read_lines as r; '
        f"s = v.Space({cands}, {_python_references(references)}, {list(measures)!r}); "
        f'print([s.value(v.Settings({fields}), m) for m in s.measures])"'
    )


def _rouge155_command(s: "Settings", measures: Sequence[str], references: int | None) -> str:
    if s.stemmer == "porter":  # the empty WordNet exception DB files2rouge installs
        perl = perl_command(measures, s, " (with an empty WordNet exception DB)")
        if s.aggregation == "rouge155-average" and s.order == "file-names" and s.multi_ref == "sum":
            if s.split == "eos" and not (s.stopwords or s.word_limit or s.byte_limit) and references == 1:
                return f"files2rouge references.txt summaries.txt; or: {perl}"
        if s.aggregation in ("rouge155-average", "rouge155-token-average", "tokens") and s.multi_ref in ("sum", "best"):
            return perl
        return python_command(s, measures, references)
    words = [f"rougekit score {reference_files(references)}", f"--measures {','.join(measures)}"]
    if s.stemmer == "porter+wordnet":
        words.append("--stem")
    if s.stopwords:
        words.append("--stopwords")
    if s.word_limit:
        words.append(f"--word-limit {s.word_limit}")
    if s.byte_limit:
        words.append(f"--byte-limit {s.byte_limit}")
    if s.multi_ref != "sum":
        words.append(f"--multi-ref {s.multi_ref}")
    if s.alpha != 0.5:
        words.append(f"--alpha {s.alpha:g}")
    average = {"mean": "pairs", "tokens": "tokens", "rouge155-average": "rouge155"}.get(s.aggregation)
    if s.aggregation == "rouge155-token-average" and s.multi_ref in ("sum", "best") and s.order == "input":
        return perl_command(measures, s)
    if average is None or s.order == "file-names":
        return python_command(s, measures, references)
    words.append(f"--average {average}")
    own = " ".join(words)
    if s.aggregation == "mean" or s.multi_ref in ("max", "jackknife"):
        return own
    return f"{perl_command(measures, s)}; or: {own}"


def _rouge_score_command(s: "Settings", measures: Sequence[str], references: int | None) -> str:
    types = rouge_score_types(measures, s.split)
    stem = ", use_stemmer=True" if s.stemmer != "none" else ""
    scorer = f"scorer = rouge_scorer.RougeScorer({types!r}{stem})"
    extra = []
    if s.stopwords or s.word_limit or s.byte_limit:
        extra.append(
            "tokens as rougekit's --stopwords/--word-limit/--byte-limit leave them (rouge-score has no such option)"
        )
    if s.multi_ref == "avg" and s.aggregation == "mean" and not extra:
        keys = tuple(types)
        return (
            f"torchmetrics.functional.text.rouge.rouge_score(candidates, references, rouge_keys={keys!r}, "
            f"accumulate='avg'{', use_stemmer=True' if stem else ''})"
            + ("" if s.precision == "float32" else " (its float32 values; rougekit's float64 mean of the references)")
        )
    if s.multi_ref != "max":
        extra.append(f"several references combined as rougekit's --multi-ref {s.multi_ref}")
    if extra or s.aggregation in ("tokens", "rouge155-average"):
        return python_command(s, measures, references)
    per_pair = "scores = [scorer.score_multi(refs, cand) for cand, refs in zip(candidates, references)]"
    if s.aggregation == "mean":
        tail = "mean of each score over the pairs (numpy.mean)"
    elif s.aggregation == "bootstrap-median":
        tail = "agg = scoring.BootstrapAggregator(); [agg.add_scores(x) for x in scores]; agg.aggregate()[type].mid"
    elif s.aggregation == "tokens":
        tail = "hits and counts summed over the pairs (rougekit --average tokens)"
    else:
        tail = "ROUGE-1.5.5's -a bootstrap average of the per-pair values (rougekit --average rouge155)"
    text = f"from rouge_score import rouge_scorer, scoring; {scorer}; {per_pair}; {tail}"
    return text + (f" [{'; '.join(extra)}]" if extra else "")
