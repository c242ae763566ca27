"""ROUGE-1.5.5 evaluation configurations: the XML file and the ``-z`` file lists.

The XML is parsed with defusedxml (no DTD entities, no external entities). Element names match
case-insensitively, as in the script; a repeated EVAL ID merges into the first entry.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from xml.etree.ElementTree import Element

from defusedxml import ElementTree as SafeET
from defusedxml.common import DefusedXmlException

from rougekit.errors import InputError
from rougekit.io.files import read_bytes

_FORMATS = re.compile(r"^(SEE|ISI|SPL|SIMPLE)$", re.IGNORECASE)
_TRIM = " \t\n\r\f\v"


@dataclass
class Evaluation:
    """One EVAL: a peer file per system ID and the model files, in document order."""

    eval_id: str
    input_format: str | None = None
    peer_root: str | None = None
    model_root: str | None = None
    peers: dict[str, str] = field(default_factory=dict)
    model_ids: list[str] = field(default_factory=list)
    model_files: dict[str, str] = field(default_factory=dict)
    from_list: bool = False

    def peer_path(self, peer_id: str) -> str:
        if self.from_list:
            return self.peers[peer_id]
        return f"{self.peer_root or ''}/{self.peers[peer_id]}"

    def model_paths(self) -> list[str]:
        if self.from_list:
            return [self.model_files[m] for m in self.model_ids]
        return [f"{self.model_root or ''}/{self.model_files[m]}" for m in self.model_ids]


@dataclass
class Config:
    """All evaluations in file order, and every peer ID seen."""

    evaluations: list[Evaluation]
    peer_ids: list[str]


def _local(tag) -> str:
    return tag.rsplit("}", 1)[-1].upper() if isinstance(tag, str) else ""


def _text(node: Element) -> str:
    return (node.text or "").strip(_TRIM)


def read_xml_config(path: str) -> Config:
    """Read a ROUGE-EVAL XML configuration (the script's default input)."""
    try:
        root = SafeET.parse(path).getroot()
    except FileNotFoundError:
        raise InputError(f"cannot open configuration {path}: no such file") from None
    except DefusedXmlException as exc:
        raise InputError(f"{path}: refused unsafe XML ({type(exc).__name__})") from None
    except SafeET.ParseError as exc:
        raise InputError(f"{path}: malformed XML ({exc})") from None
    except OSError as exc:
        raise InputError(f"cannot open configuration {path}: {exc.strerror}") from None
    evals: dict[str, Evaluation] = {}
    peer_ids: dict[str, None] = {}

    def need(eval_id, what):
        if eval_id is None:
            raise InputError(f"{path}: <{what}> outside an <EVAL>")
        return evals[eval_id]

    def attribute(node, name, what):
        value = node.get(name)
        if value is None:
            raise InputError(f"{path}: <{what}> has no {name} attribute")
        return value

    def walk(node: Element, eval_id: str | None) -> None:
        name = _local(node.tag)
        if name == "EVAL":
            eval_id = attribute(node, "ID", "EVAL")
            evals.setdefault(eval_id, Evaluation(eval_id))
            for child in node:
                walk(child, eval_id)
        elif name == "INPUT-FORMAT":
            fmt = attribute(node, "TYPE", "INPUT-FORMAT")
            if not _FORMATS.match(fmt):
                raise InputError(f"{path}: unknown input type {fmt!r} (use SEE, SPL, ISI or SIMPLE)")
            need(eval_id, "INPUT-FORMAT").input_format = fmt
        elif name == "PEER-ROOT":
            need(eval_id, "PEER-ROOT").peer_root = _text(node)
        elif name == "MODEL-ROOT":
            need(eval_id, "MODEL-ROOT").model_root = _text(node)
        elif name == "PEERS":
            ev = need(eval_id, "PEERS")
            for child in node:
                if _local(child.tag) == "P":
                    peer_id = attribute(child, "ID", "P")
                    peer_ids.setdefault(peer_id)
                    ev.peers[peer_id] = _text(child)
        elif name == "MODELS":
            ev = need(eval_id, "MODELS")
            for child in node:
                if _local(child.tag) == "M":
                    model_id = attribute(child, "ID", "M")
                    ev.model_ids.append(model_id)
                    ev.model_files[model_id] = _text(child)
        else:
            for child in node:
                walk(child, eval_id)

    walk(root, None)
    return Config(list(evals.values()), list(peer_ids))


def read_file_list(path: str, input_format: str, peer_id: str) -> Config:
    """Read a ``-z`` list: one ``peer model1 [model2 ...]`` line per evaluation, IDs 1, 2, ...

    Lines starting with ``#`` and blank lines are skipped; models are named M.1, M.2, ...
    """
    data = read_bytes(path, "file list")
    evaluations = []
    for number, raw in enumerate(data.split(b"\n"), start=1):
        line = raw.decode("utf-8", "surrogateescape")
        if line.startswith("#") or not line.strip(_TRIM):
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
