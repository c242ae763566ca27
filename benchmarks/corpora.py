"""Corpora for the rougekit benchmarks.

A corpus is a :class:`Corpus`: candidates (one string each) and, per candidate, a list of
reference strings. A summary's sentences are its lines (``"\\n"`` between them), which is what
rougekit's API, ``rougekit rouge155`` (SPL files) and ``rougeLsum`` of rouge-score-style tools
read as sentence boundaries.

Sources:

* :func:`summeval` -- SummEval (100 CNN/DM documents x 16 systems, the original highlight as the
  reference), from ``shared/data/summeval/summeval.jsonl``;
* :func:`realsumm` -- REALSumm (100 documents x 25 systems), from
  ``shared/data/realsumm/parity/realsumm_rouge155_parity.jsonl`` (explicit sentence lists);
* :func:`synthetic` -- seeded CNN/DM-sized pairs (reference ~55 words in 4 sentences, candidate
  ~60 words in 3-4 sentences) over a Zipfian vocabulary of inflected English words, names,
  numbers and punctuation, for any number of pairs;
* :func:`long_documents` -- 1,000-word summaries of 40 sentences, 4 references each;
* :func:`huge_pair` -- one 30,000-token candidate and one 30,000-token reference, one sentence each;
* :func:`write_line_files` -- ``candidates.txt`` / ``references.txt`` with one synthetic summary
  per line (sentences joined by spaces), written in chunks, for the streaming scenario.

Everything synthetic is a pure function of its seed (numpy's PCG64 generator).
"""

from __future__ import annotations

import itertools
import json
import random
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

import numpy as np

SHARED = Path(__file__).resolve().parents[2] / "shared"
SUMMEVAL_FILE = SHARED / "data" / "summeval" / "summeval.jsonl"
REALSUMM_FILE = SHARED / "data" / "realsumm" / "parity" / "realsumm_rouge155_parity.jsonl"


@dataclass
class Corpus:
    name: str
    candidates: list[str]
    references: list[list[str]]

    def __len__(self) -> int:
        return len(self.candidates)

    def head(self, n: int) -> "Corpus":
        return Corpus(self.name, self.candidates[:n], self.references[:n])

    def words(self) -> tuple[float, float]:
        """Mean whitespace-separated words of a candidate and of one reference."""
        c = sum(len(x.split()) for x in self.candidates) / max(len(self), 1)
        refs = [r for rs in self.references for r in rs]
        return c, sum(len(x.split()) for x in refs) / max(len(refs), 1)

    def to_json(self, path: Path) -> None:
        path.write_text(
            json.dumps({"name": self.name, "candidates": self.candidates, "references": self.references}),
            encoding="utf-8",
        )

    @staticmethod
    def from_json(path: Path) -> "Corpus":
        d = json.loads(Path(path).read_text(encoding="utf-8"))
        return Corpus(d["name"], d["candidates"], d["references"])


# ---------------------------------------------------------------------------------------------
# real data

_SENT_END = re.compile(r"(?<= [.!?]) ")  # the texts are tokenised: split after " . ", " ! ", " ? "


def _split_tokenised(text: str) -> str:
    return "\n".join(s.strip() for s in _SENT_END.split(text.strip()) if s.strip())


def summeval() -> Corpus | None:
    """1,600 SummEval pairs (16 systems x 100 docs) vs the original CNN/DM highlight, or None."""
    if not SUMMEVAL_FILE.is_file():
        return None
    cands, refs = [], []
    with SUMMEVAL_FILE.open(encoding="utf-8") as fh:
        for line in fh:
            doc = json.loads(line)
            ref = _split_tokenised(doc["ref_summ"])
            for sys_id in sorted(doc["sys_summs"]):
                cands.append(_split_tokenised(doc["sys_summs"][sys_id]["sys_summ"]))
                refs.append([ref])
    return Corpus("summeval", cands, refs)


def realsumm() -> Corpus | None:
    """2,500 REALSumm pairs (25 systems x 100 docs) with their own references, or None."""
    if not REALSUMM_FILE.is_file():
        return None
    cands, refs = [], []
    with REALSUMM_FILE.open(encoding="utf-8") as fh:
        for line in fh:
            row = json.loads(line)
            cands.append("\n".join(row["peer_sentences"]))
            refs.append(["\n".join(row["model_sentences"])])
    return Corpus("realsumm", cands, refs)


def real_pairs() -> Corpus | None:
    """SummEval followed by REALSumm (whichever are present): about 4,100 real CNN/DM pairs."""
    parts = [c for c in (summeval(), realsumm()) if c is not None]
    if not parts:
        return None
    return Corpus(
        "+".join(p.name for p in parts),
        [x for p in parts for x in p.candidates],
        [x for p in parts for x in p.references],
    )


# ---------------------------------------------------------------------------------------------
# synthetic text

_FUNCTION = (
    "the of to and a in that is was for on 's with he it as at by said his from "
    "be have has are but an they not who were this had their after been more one "
    "which will its she her would when about up we out than there two year also "
    "i new over into can people first last time some could may all you if him our "
    "told before other them so only back most many no what home police while just "
    "just like how during because where should off made years against since"
).split()
_NOUNS = (
    "child man woman family city country government official player team game club "
    "season match goal police officer court judge report company market price school "
    "student teacher hospital doctor patient child body water car road house home "
    "week month day night life death story picture video statement study scientist "
    "president minister leader party election vote law case charge prison attack "
    "soldier army war country border island beach storm fire plane flight passenger "
    "crash victim survivor witness investigation decision reason problem question "
    "money fund bank dollar pound deal contract fan supporter manager coach striker "
    "daughter son mother father wife husband friend baby dog cat animal zoo mouse "
    "tooth foot goose person leaf knife wolf life city party story library"
).split()
_VERBS = (
    "say tell ask call find show give take make come go leave win lose play score kill "
    "attack arrest charge claim report believe expect want need try help start stop "
    "move live die work run walk drive fly fall rise grow build break open close "
    "announce confirm deny reveal discover describe investigate accuse warn urge "
    "plan hope decide agree refuse appear remain become include involve receive "
    "suffer survive rescue hit shoot strike catch throw send bring buy sell pay "
    "study carry marry worry cry apply reply deliver travel cancel prefer admit "
    "see know think feel keep hold stand sit lie lay speak write read eat drink"
).split()
_ADJ = (
    "big small large great young old new long short high low early late strong weak "
    "happy sad angry quick slow easy hard good bad local national international public "
    "former senior major serious famous popular dangerous important possible recent "
    "British American royal political medical military official financial social "
    "dead alive free open close clear full safe busy heavy"
).split()
_IRREGULAR = (
    "went gone saw seen took taken gave given came ran won lost told said made found "
    "left held stood sat spoke wrote written ate eaten drank flew flown fell fallen "
    "grew grown built broke broken caught threw thrown brought bought sold paid "
    "children men women mice teeth feet geese people leaves knives wolves lives "
    "better best worse worst lay lain thought felt kept knew known"
).split()
_NAMES = (
    "Smith Jones Brown Taylor Williams Wilson Johnson Davies Robinson Wright Thompson "
    "Evans Walker White Roberts Green Hall Wood Jackson Clarke London Paris Obama "
    "Clinton Cameron Chelsea Arsenal Liverpool Manchester Barcelona Madrid Syria Iran "
    "Texas California Florida Australia China Russia Germany France Nepal Tottenham "
    "Burnley Townsend Merson Hodgson Kathmandu Koirala Basnet CNN BBC NASA ISIS"
).split()
_SYLLABLES = (
    "ba be bi bo bu ka ke ki ko ku la le li lo lu ma me mi mo mu na ne ni no nu "
    "ra re ri ro ru sa se si so su ta te ti to tu va ve vi vo vu za ze zi zo zu "
    "bar ter kin dor lan mer sol tan ven wil ash ing ock ard ton ley field"
).split()
_PUNCT_AFTER = [",", ",", ",", ";", ":", "'", '"', ")", "--", "!", "?"]


def _inflect(base: str, kind: str) -> list[str]:
    def ed(w: str) -> str:
        if w.endswith("e"):
            return w + "d"
        if w.endswith("y") and w[-2] not in "aeiou":
            return w[:-1] + "ied"
        return w + "ed"

    def ing(w: str) -> str:
        if w.endswith("ie"):
            return w[:-2] + "ying"
        if w.endswith("e") and not w.endswith("ee"):
            return w[:-1] + "ing"
        return w + "ing"

    def s(w: str) -> str:
        if w.endswith(("s", "sh", "ch", "x", "z")):
            return w + "es"
        if w.endswith("y") and w[-2] not in "aeiou":
            return w[:-1] + "ies"
        return w + "s"

    if kind == "n":
        return [base, s(base), base + "'s"]
    if kind == "v":
        return [base, s(base), ed(base), ing(base), base + "er", base + "ers"]
    return [base, base + "er", base + "est", base + "ly", base + "ness", "un" + base]


def vocabulary(seed: int = 1234, size: int = 30000) -> list[str]:
    """Word types in Zipf rank order: function words, then a seeded mix of inflected nouns,
    verbs and adjectives, irregular forms, names, numbers, hyphenated words and invented words."""
    rng = random.Random(seed)
    content: list[str] = []
    for words, kind in ((_NOUNS, "n"), (_VERBS, "v"), (_ADJ, "a")):
        for w in dict.fromkeys(words):
            content.extend(_inflect(w, kind))
    content.extend(_IRREGULAR)
    content.extend(_NAMES)
    content.extend(n + "'s" for n in _NAMES[:30])
    content.extend(str(n) for n in (1, 2, 3, 5, 10, 12, 20, 24, 30, 50, 100, 2014, 2015, 2016))
    content.extend(
        [
            "$1.5",
            "3.2",
            "10-year-old",
            "45-minute",
            "u.s.",
            "e-mail",
            "co-founder",
            "well-known",
            "long-term",
            "#7minutes",
            "@cnn",
            "0-0",
            "1-1",
            "50%",
        ]
    )
    content = list(dict.fromkeys(w for w in content if w not in _FUNCTION))
    rng.shuffle(content)
    seen = set(_FUNCTION) | set(content)
    invented: list[str] = []
    suffixes = ["", "", "", "s", "ed", "ing", "ly", "tion", "ness", "ment", "er", "ies"]
    while len(_FUNCTION) + len(content) + len(invented) < size:
        w = "".join(rng.choices(_SYLLABLES, k=rng.randint(2, 4))) + rng.choice(suffixes)
        if rng.random() < 0.08:
            w = w.capitalize()
        if w not in seen:
            seen.add(w)
            invented.append(w)
    head = list(dict.fromkeys(_FUNCTION))
    return head + content + invented


class TextGenerator:
    """Seeded Zipfian text. Word draws come from numpy in large batches; the small decisions
    (punctuation, lengths, copied spans) from a ``random.Random`` with the same seed."""

    def __init__(self, seed: int = 0, vocab_size: int = 30000, exponent: float = 1.07, batch: int = 1 << 18):
        self.np_rng = np.random.default_rng(seed)
        self.rnd = random.Random(seed)
        self.vocab = np.array(vocabulary(1234, vocab_size), dtype=object)
        ranks = np.arange(1, len(self.vocab) + 1, dtype=float)
        p = ranks**-exponent
        self.cdf = np.cumsum(p / p.sum())
        self.cdf[-1] = 1.0
        self.batch = batch
        self._buf: list[str] = []
        self._pos = 0

    def words(self, n: int) -> list[str]:
        if self._pos + n > len(self._buf):
            size = max(self.batch, n)
            idx = np.searchsorted(self.cdf, self.np_rng.random(size), side="right")
            self._buf = self._buf[self._pos :] + self.vocab[idx].tolist()
            self._pos = 0
        out = self._buf[self._pos : self._pos + n]
        self._pos += n
        return out

    def randint(self, lo: int, hi: int) -> int:
        """An integer in [lo, hi] (both included)."""
        return lo + int(self.rnd.random() * (hi - lo + 1))

    def sentence_from(self, words: list[str]) -> str:
        """Words joined with some punctuation, capitalised, with an end mark."""
        rnd = self.rnd.random
        out = list(words) or ["the"]
        for i in range(len(out) - 1):
            if rnd() < 0.06:
                out[i] += _PUNCT_AFTER[int(rnd() * len(_PUNCT_AFTER))]
        out[0] = out[0][:1].upper() + out[0][1:]
        r = rnd()
        end = " ." if r < 0.3 else ("." if r < 0.93 else ("?" if r < 0.97 else "!"))
        return " ".join(out) + end

    def sentence(self, n: int) -> str:
        return self.sentence_from(self.words(n))


def _split_lengths(gen: TextGenerator, total: int, parts: int) -> list[int]:
    """``parts`` lengths adding up to ``total``, each within +-40% of the mean (at least 3)."""
    weights = [0.6 + 0.8 * gen.rnd.random() for _ in range(parts)]
    scale = total / sum(weights)
    lens = [max(3, round(w * scale)) for w in weights]
    return lens


def _summary_pair(
    gen: TextGenerator,
    ref_words: float,
    cand_words: float,
    ref_sents: int,
    cand_sents: tuple[int, int],
    n_refs: int,
    overlap: float = 0.45,
) -> tuple[str, list[str]]:
    """One candidate and ``n_refs`` references; the candidate copies spans of the first reference
    (about ``overlap`` of its words), as abstractive summaries of the same article do."""
    rnd = gen.rnd
    refs_words: list[list[str]] = []
    refs: list[str] = []
    for _ in range(n_refs):
        total = max(ref_sents * 3, int(rnd.gauss(ref_words, ref_words * 0.2)))
        sents = [gen.words(k) for k in _split_lengths(gen, total, ref_sents)]
        refs_words.append([w for s in sents for w in s])
        refs.append("\n".join(gen.sentence_from(s) for s in sents))
    k = gen.randint(cand_sents[0], cand_sents[1])
    total = max(k * 3, int(rnd.gauss(cand_words, cand_words * 0.2)))
    pool = refs_words[0]
    lines = []
    for n in _split_lengths(gen, total, k):
        words: list[str] = []
        while len(words) < n:
            if rnd.random() < overlap:
                span = gen.randint(2, 8)
                start = gen.randint(0, max(len(pool) - span, 0))
                words.extend(pool[start : start + span])
            else:
                words.extend(gen.words(gen.randint(1, 5)))
        lines.append(gen.sentence_from(words[:n]))
    return "\n".join(lines), refs


def synthetic(n: int, seed: int = 0) -> Corpus:
    """``n`` CNN/DM-sized pairs: reference ~55 words in 4 sentences, candidate ~60 words in 3-4."""
    gen = TextGenerator(seed)
    cands, refs = [], []
    for _ in range(n):
        c, r = _summary_pair(gen, 55, 60, 4, (3, 4), 1)
        cands.append(c)
        refs.append(r)
    return Corpus(f"synthetic-cnndm(seed={seed})", cands, refs)


def long_documents(n: int, seed: int = 1) -> Corpus:
    """``n`` long pairs: 1,000-word summaries of 40 sentences, 4 references each."""
    gen = TextGenerator(seed)
    cands, refs = [], []
    for _ in range(n):
        c, r = _summary_pair(gen, 1000, 1000, 40, (40, 40), 4)
        cands.append(c)
        refs.append(r)
    return Corpus(f"long(seed={seed})", cands, refs)


def huge_pair(tokens: int = 30000, seed: int = 2) -> Corpus:
    """One candidate vs one reference, ``tokens`` words each, each a single sentence."""
    gen = TextGenerator(seed)
    ref_words = gen.words(tokens)
    cand: list[str] = []
    while len(cand) < tokens:  # about half copied spans of the reference, half new words
        if gen.rnd.random() < 0.5:
            span = gen.randint(2, 8)
            start = gen.randint(0, tokens - span)
            cand.extend(ref_words[start : start + span])
        else:
            cand.extend(gen.words(gen.randint(1, 5)))
    return Corpus(f"huge({tokens} tokens)", [" ".join(cand[:tokens])], [[" ".join(ref_words)]])


def text_pairs(n: int = 256, tokens: int = 1024, seed: int = 5) -> Corpus:
    """``n`` pairs of ``tokens`` words, one line each (the pairs of :func:`huge_pair` with seeds
    ``seed``, ``seed + 1``, ...): long completions and their references, for the rewards scenario."""
    pairs = [huge_pair(tokens, seed + k) for k in range(n)]
    return Corpus(f"{n} pairs of {tokens} words", [p.candidates[0] for p in pairs], [p.references[0] for p in pairs])


def iter_synthetic(n: int, seed: int = 3, chunk: int = 10000) -> Iterator[Corpus]:
    """``n`` synthetic CNN/DM-sized pairs in chunks (one generator: the pairs are all distinct)."""
    gen = TextGenerator(seed)
    done = 0
    while done < n:
        k = min(chunk, n - done)
        cands, refs = [], []
        for _ in range(k):
            c, r = _summary_pair(gen, 55, 60, 4, (3, 4), 1)
            cands.append(c)
            refs.append(r)
        done += k
        yield Corpus("chunk", cands, refs)


def token_ids(n: int = 256, length: int = 1024, seed: int = 4, vocab: int = 32000) -> Corpus:
    """``n`` pairs of ``length`` token ids each, as a model's tokenizer gives them (Zipf-like ids
    below ``vocab``; the reference keeps about 60% of the candidate's tokens in order). Each
    summary is written as its ids separated by spaces (digits are tokens for every tool), and
    :func:`ids_of` turns it back into an int32 array."""
    import random

    rng = random.Random(seed)
    # cumulative weights once (random.choices would add up the 32,000 weights at every call): same draws
    cum = list(itertools.accumulate(1.0 / (k + 1) for k in range(vocab)))
    cands, refs = [], []
    for _ in range(n):
        cand = rng.choices(range(vocab), cum_weights=cum, k=length)
        ref = [t if rng.random() < 0.6 else rng.choices(range(vocab), cum_weights=cum)[0] for t in cand]
        cands.append(" ".join(map(str, cand)))
        refs.append([" ".join(map(str, ref))])
    return Corpus(f"{n} pairs of {length} token ids", cands, refs)


def ids_of(text: str):
    """The int32 array of a summary written by :func:`token_ids`."""
    import numpy as np

    return np.array(text.split(), dtype=np.int32)


def write_line_files(folder: Path, n: int = 1_000_000, seed: int = 3) -> tuple[Path, Path]:
    """Write ``candidates.txt`` and ``references.txt`` (``n`` lines each, one summary per line,
    its sentences joined by a space) into ``folder``; return the two paths."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    cpath, rpath = folder / "candidates.txt", folder / "references.txt"
    with cpath.open("w", encoding="utf-8") as cf, rpath.open("w", encoding="utf-8") as rf:
        for part in iter_synthetic(n, seed):
            cf.write("".join(c.replace("\n", " ") + "\n" for c in part.candidates))
            rf.write("".join(r[0].replace("\n", " ") + "\n" for r in part.references))
    return cpath, rpath


def report_systems(n: int, seed: int = 4) -> tuple[list[str], dict[str, list[str]]]:
    """References and three systems for the HTML report scenario, one summary per line: ``sys1`` the
    synthetic candidates, ``sys2`` the same with a fifth of the words dropped, ``sys3`` the reference
    with half of its words dropped (so the systems differ, pair by pair)."""
    corpus = synthetic(n, seed)
    rng = random.Random(seed)

    def drop(text: str, share: float) -> str:
        return " ".join(w for w in text.split() if rng.random() >= share) or "x"

    refs = [r[0].replace("\n", " ") for r in corpus.references]
    cands = [c.replace("\n", " ") for c in corpus.candidates]
    return refs, {"sys1": cands, "sys2": [drop(c, 0.2) for c in cands], "sys3": [drop(r, 0.5) for r in refs]}


if __name__ == "__main__":  # a quick look at each corpus
    import time

    for make in (summeval, realsumm, lambda: synthetic(2000), lambda: long_documents(20), huge_pair):
        t = time.perf_counter()
        corpus = make()
        if corpus is None:
            continue
        cw, rw = corpus.words()
        print(
            f"{corpus.name:28s} {len(corpus):6d} pairs  cand {cw:7.1f} words  ref {rw:7.1f} words "
            f"({time.perf_counter() - t:.2f}s)"
        )
    print(synthetic(1).candidates[0], "\n--\n", synthetic(1).references[0][0])
