"""Text handling exactly as ROUGE-1.5.5.pl does it: sentence readers, length limits, cleaning, tokens.

Everything works on bytes, as the script does (it never decodes its input): each byte >= 0x80
is a separator, lowercasing is ASCII only, and white space is ``[ \\t\\n\\r\\f\\v]``.
The rules, with examples: docs/rouge155/tokens.md.

>>> tokenize(clean(b"well-known u.s. don't 3.5 caf\\xc3\\xa9"))
['well', 'known', 'u', 's', 'don', 't', '3', '5', 'caf']
"""

from __future__ import annotations

import os
import re
from typing import Iterable

from rougekit.errors import InputError
from rougekit.io.reader import read_bytes

_LOWER = bytes.maketrans(b"ABCDEFGHIJKLMNOPQRSTUVWXYZ", b"abcdefghijklmnopqrstuvwxyz")
_WS_RUN = re.compile(rb"\s+")  # bytes patterns: \s is ASCII [ \t\n\r\f\v], as in Perl on bytes
_NOT_WORD = re.compile(rb"[^A-Za-z0-9\-]")
_SEE_SIZED = re.compile(rb'<a size="[0-9]+" name="[0-9]+">\[([0-9]+)\]</a>\s+<a href="#[0-9]+" id=[0-9]+>([^<]+)')
_SEE_PLAIN = re.compile(rb'<a name="[0-9]+">\[([0-9]+)\]</a>\s+<a href="#[0-9]+" id=[0-9]+>([^<]+)')
_ISI = re.compile(rb'<S SNTNO="[0-9a-z,]+">([^<]+)</S>')

SENTENCE_FORMATS = ("SEE", "SPL", "ISI")


def lower_ascii(text: bytes) -> bytes:
    """Lowercase A-Z only (the script's ``tr/A-Z/a-z/``)."""
    return text.translate(_LOWER)


def split_fields(text: bytes) -> list[bytes]:
    """Perl's ``split(/\\s+/, text)``: a leading empty field is kept, trailing empty ones dropped."""
    fields = _WS_RUN.split(text)
    while fields and not fields[-1]:
        fields.pop()
    return fields


def _read_lines(path: str) -> list[bytes]:
    return _split_keep_newline(read_bytes(path))


def _split_keep_newline(data: bytes) -> list[bytes]:
    """Split on b"\\n" only (as Perl's line reader does), keeping each line's newline."""
    lines = data.split(b"\n")
    out = [line + b"\n" for line in lines[:-1]]
    if lines[-1]:
        out.append(lines[-1])
    return out


def sentences_from_lines(lines: Iterable[bytes], fmt: str) -> list[bytes]:
    """Extract the lowercased raw sentences of one summary in SEE, SPL or ISI format.

    SEE keeps a line only if it starts with the anchor tags, and takes the text up to the first
    ``<``; SPL takes every non-empty line without its newline; ISI takes ``<S SNTNO="..">text</S>``.
    """
    kind = fmt.upper()
    out: list[bytes] = []
    if kind == "SEE":
        for line in lines:
            match = _SEE_SIZED.match(line) or _SEE_PLAIN.match(line)
            if match:
                out.append(lower_ascii(match.group(2)))
    elif kind == "ISI":
        for line in lines:
            match = _ISI.match(line)
            if match:
                out.append(lower_ascii(match.group(1)))
    elif kind == "SPL":
        for line in lines:
            if line.endswith(b"\n"):
                line = line[:-1]
            if line:
                out.append(lower_ascii(line))
    else:
        raise InputError(f"unknown input format {fmt!r} (use SEE, SPL or ISI)")
    return out


def read_sentences(path: str, fmt: str) -> list[bytes]:
    """Read one summary file as the script does (bytes, line by line); an unknown format is
    refused before the file is opened."""
    if fmt.upper() not in SENTENCE_FORMATS:
        raise InputError(f"unknown input format {fmt!r} (use SEE, SPL or ISI)")
    return sentences_from_lines(_read_lines(path), fmt)


def read_be_lines(path: str, fmt: str) -> list[bytes]:
    """Read a Basic-Element file: SIMPLE gives one ``head|mod|rel`` line each (newline removed).

    The format is checked before the file is opened: only a SIMPLE file is read. The script takes
    nothing from an ISI file here, so it is only checked to exist.
    """
    kind = fmt.upper()
    if kind == "SIMPLE":
        return [line[:-1] if line.endswith(b"\n") else line for line in _read_lines(path)]
    if kind == "ISI":
        if not os.path.isfile(path):
            raise InputError(f"cannot open {path}: no such file")
        return []
    raise InputError(f"unknown input format {fmt!r} for Basic Elements (use SIMPLE)")


def limit_joined(sentences: list[bytes], word_limit: int = 0, byte_limit: int = 0) -> bytes | None:
    """The script's ``readText``: sentences joined by spaces, cut to ``-l`` words or ``-b`` bytes.

    Returns None where a limit leaves nothing (the script's "empty text").
    """
    if not word_limit and not byte_limit:
        return b" ".join(sentences)
    parts: list[bytes] = []
    used = 0
    for sentence in sentences:
        if word_limit:
            fields = split_fields(sentence)
            size = len(fields)
            limit = word_limit
        else:
            size = len(sentence)
            limit = byte_limit
        if used + size < limit:
            if used != 0:
                parts.append(b" ")
            parts.append(sentence)
            used += size
        else:
            if used > 0:
                parts.append(b" ")
            if word_limit:
                parts.append(b" ".join(fields[: limit - used]))
            else:
                parts.append(sentence[: limit - used])
            break
    text = b"".join(parts)
    return text if text else None


def limit_sentences(sentences: list[bytes], word_limit: int = 0, byte_limit: int = 0) -> list[bytes]:
    """The script's ``readText_LCS``: the sentence list cut by ``-l`` words or ``-b`` bytes.

    With ``-b`` the script never advances its byte count, so every sentence shorter than the limit
    is kept whole and the first one at least as long is cut to the limit (a script bug, kept on purpose:
    see docs/rouge155/tokens.md#sentence-unit-reader).
    """
    if not word_limit and not byte_limit:
        return list(sentences)
    out: list[bytes] = []
    used = 0
    for sentence in sentences:
        if word_limit:
            fields = split_fields(sentence)
            if used + len(fields) < word_limit:
                used += len(fields)
                out.append(sentence)
            else:
                out.append(b" ".join(fields[: word_limit - used]))
                break
        else:
            if len(sentence) < byte_limit:
                out.append(sentence)
            else:
                out.append(sentence[:byte_limit])
                break
    return out


def clean(text: bytes) -> bytes:
    """Hyphens become tokens, every byte outside ``[A-Za-z0-9-]`` a space; white space squeezed."""
    text = _NOT_WORD.sub(b" ", text.replace(b"-", b" - "))
    return b" ".join(text.split())


def tokenize(cleaned: bytes, stopwords: frozenset[str] | None = None, stem=None) -> list[str]:
    """Tokens of a cleaned string: drop stopwords (``-s``), drop ``-``, stem (``-m``) if longer than 3."""
    out: list[str] = []
    for raw in cleaned.split(b" "):
        if not raw:
            continue
        token = raw.decode("ascii")
        if stopwords is not None and token in stopwords:
            continue
        if token == "-":
            continue
        if stem is not None and len(token) > 3:
            token = stem(token)
        out.append(token)
    return out


def summary_tokens(
    sentences: list[bytes], word_limit: int = 0, byte_limit: int = 0, stopwords: frozenset[str] | None = None, stem=None
) -> tuple[list[str] | None, list[list[str]]]:
    """What the script's two readers give for one summary: (readText tokens, readText_LCS units).

    The first is None where a limit leaves no text (the script's "empty text"; score it as no tokens).
    """
    joined = limit_joined(sentences, word_limit, byte_limit)
    tokens = None if joined is None else tokenize(clean(joined), stopwords, stem)
    units = [tokenize(clean(x), stopwords, stem) for x in limit_sentences(sentences, word_limit, byte_limit)]
    return tokens, units
