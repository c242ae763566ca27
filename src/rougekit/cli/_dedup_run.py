"""The rule of ``rougekit dedup`` (rouge-score's rougeL) over texts read a chunk at a time, with
progress on a terminal and a checkpoint file to resume from.

Two passes over the texts: the first tokenizes them (only their token ids are held: 4 bytes a
token and 8 a text, the bytes per text said at the end) and counts each token for the rarest-first
order of the prefix index; the second feeds them to :class:`rougekit.process.Greedy` a block at a
time, in input order.

A checkpoint holds the decisions made so far (each text's match, or -1 when kept, and its score),
the input's fingerprint (a SHA-256 of its texts) and the options. Resuming feeds the kept texts of
the checkpoint again (they are kept again: a text's fate depends only on the texts kept before it),
then goes on from the first undecided text, so the result is that of an uninterrupted run. The
Greedy state itself is never saved: a Ctrl-C in the middle of a block loses that block only.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import time

import numpy as np

from rougekit.cli._systems import forget_progress_line, progress_line
from rougekit.errors import OptionError

_MAGIC = b"rougekit dedup checkpoint 1\n"
BLOCK = 1024  # texts per Greedy.feed call: the step of the progress line and of the checkpoints
READ_CHUNK = 4096  # texts tokenized at a time in the first pass


class Progress:
    """One line on stderr, redrawn at most 4 times a second: texts read, candidate pairs, rate, ETA."""

    def __init__(self, shown: bool) -> None:
        self.shown = shown
        self._last = 0.0
        self._width = 0

    def show(self, line: str, force: bool = False) -> None:
        if not self.shown:
            return
        now = time.monotonic()
        if not force and now - self._last < 0.25:
            return
        self._last = now
        progress_line(line.ljust(self._width))  # a warning printed next starts a line of its own
        self._width = len(line)

    def close(self) -> None:
        if self.shown and self._width:
            progress_line(" " * self._width + "\r")
            forget_progress_line()
            self._width = 0


def _duration(seconds: float) -> str:
    seconds = int(round(seconds))
    if seconds < 60:
        return f"{seconds}s"
    if seconds < 3600:
        return f"{seconds // 60}m{seconds % 60:02d}s"
    return f"{seconds // 3600}h{seconds % 3600 // 60:02d}m"


class Checkpoint:
    """The file of ``--checkpoint``: a header line, a JSON line, the match (int64) and score (float64)
    of the texts decided so far, and a SHA-256 of everything before it."""

    def __init__(self, path: str, header: dict) -> None:
        self.path = path
        self.header = header  # input fingerprint, text count and options: must match to resume

    def load(self) -> tuple[np.ndarray, np.ndarray] | None:
        """(match, score) of the texts decided, or None when there is no such file yet."""
        try:
            with open(self.path, "rb") as handle:
                data = handle.read()
        except FileNotFoundError:
            return None
        except IsADirectoryError:
            raise OptionError(f"--checkpoint {self.path}: it is a directory") from None
        except OSError as exc:
            raise OptionError(f"--checkpoint {self.path}: cannot read it: {exc.strerror or exc}") from None
        bad = OptionError(f"--checkpoint {self.path} is not a rougekit dedup checkpoint or is damaged (delete it)")
        if not data.startswith(_MAGIC) or len(data) < len(_MAGIC) + 32:
            raise bad
        body, digest = data[:-32], data[-32:]
        if hashlib.sha256(body).digest() != digest:
            raise bad
        end = body.find(b"\n", len(_MAGIC))
        try:
            header = json.loads(body[len(_MAGIC) : end])
            seen = int(header.pop("decided"))
        except (ValueError, KeyError, TypeError):
            raise bad from None
        arrays = body[end + 1 :]
        if seen < 0 or len(arrays) != 16 * seen:
            raise bad
        for key, want in self.header.items():
            if header.get(key) != want:
                if key in ("input", "texts"):
                    what = "was written for other input"
                else:
                    what = f"was written with other options ({key} {header.get(key)!r} there, {want!r} here)"
                raise OptionError(
                    f"--checkpoint {self.path} {what}: give the same input and options, or another checkpoint file"
                )
        if set(header) != set(self.header):
            raise bad
        match = np.frombuffer(arrays[: 8 * seen], dtype="<i8").astype(np.int64)
        score = np.frombuffer(arrays[8 * seen :], dtype="<f8").astype(np.float64)
        if np.any(match >= np.arange(seen)) or np.any(match < -1):
            raise bad
        return match, score

    def save(self, match: np.ndarray, score: np.ndarray) -> None:
        """Write the decisions (atomically: beside the file, then moved over it)."""
        header = dict(self.header, decided=len(match))
        body = (
            _MAGIC
            + json.dumps(header, sort_keys=True).encode()
            + b"\n"
            + np.ascontiguousarray(match, dtype="<i8").tobytes()
            + np.ascontiguousarray(score, dtype="<f8").tobytes()
        )
        partial = self.path + ".partial"
        try:
            with open(partial, "wb") as handle:
                handle.write(body + hashlib.sha256(body).digest())
            os.replace(partial, self.path)
        except OSError as exc:
            raise OptionError(f"--checkpoint {self.path}: cannot write it: {exc.strerror or exc}") from None

    def remove(self) -> None:
        try:
            os.remove(self.path)
        except FileNotFoundError:
            pass


class Outcome:
    """The decisions of every text: ``match[i]`` (-1: kept) and ``score[i]`` (0 when kept)."""

    def __init__(self, match: np.ndarray, score: np.ndarray, held_bytes: int) -> None:
        self.match, self.score = match, score
        self.held_bytes = held_bytes  # the token ids held for the n texts

    @property
    def kept(self) -> np.ndarray:
        return self.match < 0


def tokenize_all(source, encoder, progress: Progress):
    """First pass: every text's token ids (CSR), and the SHA-256 of the texts as read."""
    from rougekit.process.encode import Encoded

    digest = hashlib.sha256()
    ids: list[np.ndarray] = []
    lengths: list[np.ndarray] = []
    n = 0
    started = time.monotonic()
    for chunk in source.chunks(READ_CHUNK):
        for text in chunk:
            digest.update(text.encode("utf-8", "surrogatepass"))
            digest.update(b"\0")
        encoded = encoder.encode(chunk)
        ids.append(encoded.ids)
        lengths.append(encoded.lengths)
        n += len(chunk)
        rate = n / max(1e-9, time.monotonic() - started)
        progress.show(f"dedup: reading: {n:,} texts ({rate:,.0f}/s)")
    off = np.zeros(n + 1, dtype=np.int64)
    if n:
        np.cumsum(np.concatenate(lengths), out=off[1:])
    flat = np.concatenate(ids).astype(np.int32, copy=False) if ids else np.zeros(0, np.int32)
    return Encoded(flat, off, np.ones(n, dtype=np.int32)), digest.hexdigest()


def run_rule(
    source,
    *,
    threshold: float,
    options: dict,
    progress: Progress,
    checkpoint: str | None = None,
    every: float = 60.0,
    interrupt=None,
    workers: int = -1,
) -> Outcome:
    """The decisions of every text of ``source`` (see the module). ``interrupt(decided)`` is called
    after each block (tests raise KeyboardInterrupt from it, as a Ctrl-C would). ``workers``: the
    threads probing the index (-1: every core; the decisions are the same for any count)."""
    from rougekit.process import Encoder, Greedy, rank_by_frequency

    encoder = Encoder("rougeL", **options)
    encoded, fingerprint = tokenize_all(source, encoder, progress)
    encoder.say_wordless()
    n = len(encoded)
    header = {
        "input": fingerprint,
        "texts": n,
        "threshold": threshold,
        "measure": "rougeL",
        "stem": bool(options.get("stem", False)),
        "tokenizer": options.get("tokenizer"),
    }
    saver = Checkpoint(checkpoint, header) if checkpoint else None
    match = np.full(n, -1, dtype=np.int64)
    score = np.zeros(n, dtype=np.float64)
    rank = rank_by_frequency(encoded)
    greedy = Greedy(threshold, rank, workers=workers)
    # the input index of each Greedy id: the kept texts of a checkpoint first, then texts from ``start``
    kept_before = np.zeros(0, dtype=np.int64)
    start = 0
    loaded = saver.load() if saver is not None else None
    if loaded is not None:
        start = len(loaded[0])
        match[:start], score[:start] = loaded
        kept_before = np.flatnonzero(match[:start] < 0)
        for k in range(0, len(kept_before), BLOCK):
            again = greedy.feed(encoded.take(kept_before[k : k + BLOCK]))[0]
            if not again.all():  # impossible for decisions this rule made on these texts
                raise OptionError(f"--checkpoint {checkpoint} does not hold this rule's decisions (delete it)")
            progress.show(f"dedup: resuming: {k + len(again):,} of {len(kept_before):,} kept texts indexed")
    offset = len(kept_before)

    def to_input(gid: np.ndarray) -> np.ndarray:
        out = gid - offset + start
        early = gid < offset
        out[early] = kept_before[gid[early]]
        return out

    decided = start
    started, last_save = time.monotonic(), time.monotonic()
    try:
        while decided < n:
            stop = min(n, decided + BLOCK)
            keep, gid, best = greedy.feed(encoded.slice(decided, stop))
            drop = ~keep
            match[decided:stop][drop] = to_input(gid[drop])
            score[decided:stop][drop] = best[drop]
            decided = stop
            now = time.monotonic()
            rate = (decided - start) / max(1e-9, now - started)
            eta = (n - decided) / rate if rate > 0 else 0.0
            progress.show(
                f"dedup: {decided:,} of {n:,} texts ({100 * decided / n:.1f}%), {greedy.lcs_computed:,} candidate "
                f"pairs, {rate:,.0f} texts/s, ETA {_duration(eta)}",
                force=decided == n,
            )
            if saver is not None and now - last_save >= every:
                saver.save(match[:decided], score[:decided])
                last_save = now
            if interrupt is not None:
                interrupt(decided)
    except KeyboardInterrupt:
        if saver is not None:
            saver.save(match[:decided], score[:decided])
        progress.close()
        raise
    if saver is not None:
        saver.save(match, score)  # all decided: an interrupt while writing resumes to the writing
    progress.close()
    return Outcome(match, score, encoded.ids.nbytes + encoded.off.nbytes)


def peak_memory_mb() -> float | None:
    """This process's peak resident memory in MB (None where unknown)."""
    try:
        import resource
    except ImportError:  # pragma: no cover - Windows
        return None
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / (1024 * 1024) if sys.platform == "darwin" else peak / 1024


def check_checkpoint_options(measure: str, checkpoint: str | None) -> None:
    if checkpoint is not None and measure != "rougeL":
        raise OptionError(f"--checkpoint takes --measure rougeL (the default), not {measure}")


__all__ = ["BLOCK", "Checkpoint", "Outcome", "Progress", "run_rule", "peak_memory_mb"]
