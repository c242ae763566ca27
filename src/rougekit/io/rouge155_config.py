"""ROUGE-1.5.5 evaluation configurations: the XML file and the ``-z`` file lists.

The XML is read by a fast path when it has the usual layout, else with expat (see
:mod:`rougekit.io._rouge155_expat`), which refuses any DOCTYPE (so no DTD, no entity declarations,
no external entities). Element names match case-insensitively, as in the script; a repeated EVAL
ID merges into the first entry.
"""

from __future__ import annotations

import re
import sys

from rougekit.errors import InputError
from rougekit.io._rouge155_expat import read_expat
from rougekit.io.reader import read_bytes
from rougekit.io.rouge155_model import INPUT_FORMATS, TRIM, Config, Evaluation

__all__ = ["Config", "Evaluation", "read_file_list", "read_xml_config"]

# -- the fast path: the usual layout, read with a few regular expressions ---------------------
# It takes only documents it can read exactly as expat would (no entity or character references,
# comments, CDATA, processing instructions, DOCTYPE, carriage returns or other control characters;
# UTF-8; one root element holding only <EVAL ID="..."> elements in the usual layout) and returns
# None for anything else, which then goes to the expat reader (and its error messages).

# possessive repeats (Python 3.11+; nothing here ever needs to give characters back): faster
_P = "+" if sys.version_info >= (3, 11) else ""
_S = rf"[ \t\n]*{_P}"  # XML white space (carriage returns are refused first)
_VALUE = rf'"[^"<\t\n]*{_P}"'  # an attribute value that needs no normalisation
_TEXT = rf"[^<]*{_P}"
_NAME = r"[A-Za-z_][A-Za-z0-9_.-]*"
_DECLARATION = re.compile(rb'<\?xml version="1\.0"(?: encoding="(?i:utf-8)")?\?>')
# every byte but those the fast path refuses outright: control characters (not XML characters),
# carriage returns (expat turns CR LF into LF) and "&" (entity and character references)
_ALLOWED = bytes(
    b
    for b in range(256)
    if b not in b"\x00\x01\x02\x03\x04\x05\x06\x07\x08\x0b\x0c\r"
    b"\x0e\x0f\x10\x11\x12\x13\x14\x15\x16\x17\x18\x19\x1a\x1b\x1c\x1d\x1e\x1f&"
)
_ROOT_OPEN = re.compile(rf"{_S}<({_NAME})((?:[ \t\n]+{_NAME}={_VALUE})*){_S}>")
_ROOT_ATTRIBUTE = re.compile(rf"({_NAME})=")
_EVAL = re.compile(
    rf'{_S}<EVAL ID="([^"<\t\n]*{_P})">((?:{_S}<(?:'
    rf"PEER-ROOT>{_TEXT}</PEER-ROOT|MODEL-ROOT>{_TEXT}</MODEL-ROOT"
    rf"|INPUT-FORMAT TYPE={_VALUE}(?:/|>{_TEXT}</INPUT-FORMAT)"
    rf"|PEERS>(?:{_S}<P ID={_VALUE}>{_TEXT}</P>)*{_P}{_S}</PEERS"
    rf"|MODELS>(?:{_S}<M ID={_VALUE}>{_TEXT}</M>)*{_P}{_S}</MODELS"
    rf")>)*{_P}){_S}</EVAL>"
)
_PART = re.compile(r'<(PEER-ROOT|MODEL-ROOT)>([^<]*)|<INPUT-FORMAT TYPE="([^"]*)"|<([PM]) ID="([^"]*)">([^<]*)')
_SPECIAL = {"EVAL", "INPUT-FORMAT", "PEER-ROOT", "MODEL-ROOT", "PEERS", "MODELS"}


def _read_simple(data: bytes) -> Config | None:
    """The configuration when the document is in the usual simple layout, else None."""
    declaration = _DECLARATION.match(data)
    body = data[declaration.end() :] if declaration else data
    if body.translate(None, _ALLOWED) or b"<!" in body or b"<?" in body or b"]]>" in body:
        return None  # refused bytes; comments, CDATA, DOCTYPE, processing instructions
    if not body.isascii() and (b"\xef\xbf\xbe" in body or b"\xef\xbf\xbf" in body):
        return None  # U+FFFE and U+FFFF are not XML characters
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        return None
    root = _ROOT_OPEN.match(text)
    if root is None or root.group(1).upper() in _SPECIAL:
        return None
    names = _ROOT_ATTRIBUTE.findall(root.group(2))
    if len(set(names)) != len(names) or any(name.lower().startswith("xml") for name in names):
        return None  # a repeated attribute (malformed) or a namespace declaration
    evals: dict[str, Evaluation] = {}
    peer_ids: dict[str, None] = {}
    pos = root.end()
    match = _EVAL.match
    while (block := match(text, pos)) is not None:
        pos = block.end()
        eval_id = block.group(1)
        ev = evals.get(eval_id)
        if ev is None:
            ev = evals[eval_id] = Evaluation(eval_id)
        for name, root_text, fmt, kind, item_id, item_text in _PART.findall(block.group(2)):
            if name == "PEER-ROOT":
                ev.peer_root = root_text.strip(TRIM)
            elif name == "MODEL-ROOT":
                ev.model_root = root_text.strip(TRIM)
            elif kind == "P":
                peer_ids.setdefault(item_id)
                ev.peers[item_id] = item_text.strip(TRIM)
            elif kind == "M":
                ev.model_ids.append(item_id)
                ev.model_files[item_id] = item_text.strip(TRIM)
            elif INPUT_FORMATS.match(fmt):
                ev.input_format = fmt
            else:
                return None  # an unknown input type: the expat reader reports it
    if not re.compile(rf"{_S}</{re.escape(root.group(1))}>{_S}").fullmatch(text, pos):
        return None
    return Config(list(evals.values()), list(peer_ids))


def read_xml_config(path: str) -> Config:
    """Read a ROUGE-EVAL XML configuration (the script's default input).

    A document in the usual layout is read by a fast path; any other goes through expat, which
    refuses a DOCTYPE (so any DTD or entity declaration) and reports malformed XML.
    """
    data = read_bytes(path, "configuration")
    config = _read_simple(data)
    return config if config is not None else _read_expat(data, path)


def _read_expat(data: bytes, path: str) -> Config:
    """Read the configuration with expat (any well-formed document without a DOCTYPE)."""
    return read_expat(data, path)


def read_file_list(path: str, input_format: str, peer_id: str) -> Config:
    """Read a ``-z`` list: one ``peer model1 [model2 ...]`` line per evaluation, IDs 1, 2, ...

    Lines starting with ``#`` and blank lines are skipped; models are named M.1, M.2, ...
    """
    data = read_bytes(path, "file list")
    evaluations = []
    for number, raw in enumerate(data.split(b"\n"), start=1):
        line = raw.decode("utf-8", "surrogateescape")
        if line.startswith("#") or not line.strip(TRIM):
            continue
        files = line.split()
        if len(files) < 2:
            raise InputError(f"{path}, line {number}: a line needs a peer file and at least one model file")
        ev = Evaluation(str(len(evaluations) + 1), input_format=input_format, from_list=True)
        ev.peers[peer_id] = files[0]
        for i, model in enumerate(files[1:], start=1):
            ev.model_ids.append(f"M.{i}")
            ev.model_files[f"M.{i}"] = model
        evaluations.append(ev)
    return Config(evaluations, [peer_id])
