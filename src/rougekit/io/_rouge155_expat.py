"""The general reader of ROUGE-EVAL XML configurations: expat, with the walk of the script.

:func:`rougekit.io.rouge155_config.read_xml_config` comes here for any document its fast path
does not take. A DOCTYPE is refused (so no DTD, no entity declarations, no external entities).
"""

from __future__ import annotations

from xml.parsers import expat

from rougekit.errors import InputError
from rougekit.io.rouge155_model import INPUT_FORMATS, TRIM, Config, Evaluation

# what an open element does with its children: walk them, skip them, or take only their P / M
_WALK, _SKIP, _PEERS, _MODELS = range(4)


class _ConfigHandler:
    """Expat callbacks that build the evaluations while the XML streams by.

    The result is what walking the parsed tree would give: an element's text is its character
    data before its first child (trimmed); the children of INPUT-FORMAT, PEER-ROOT, MODEL-ROOT,
    P and M are not looked at, and of PEERS and MODELS only the P and M children. The first
    error is kept and raised once the whole document has parsed, so malformed XML anywhere is
    reported first, as with a parse-then-walk reader.
    """

    def __init__(self, path: str, parser):
        self.path = path
        self.parser = parser
        parser.StartElementHandler = self.start
        parser.EndElementHandler = self.end
        self.evals: dict[str, Evaluation] = {}
        self.peer_ids: dict[str, None] = {}
        self.error: InputError | None = None
        self._stack: list[tuple[int, str | None]] = [(_WALK, None)]  # (children rule, EVAL ID) per open element
        self._names: dict[str, str] = {}  # expat name ("uri}local") -> upper-cased local name
        self._text: list[str] | None = None  # character data of the element being read, while it is read
        self._into: tuple = ()  # (dict or object, key) that receives that text

    def _fail(self, message: str) -> None:
        self.error = InputError(f"{self.path}: {message}")
        parser = self.parser  # the rest of the document only needs to be well-formed
        parser.StartElementHandler = parser.EndElementHandler = parser.CharacterDataHandler = None

    def _attribute(self, attrs: dict, name: str, what: str) -> str | None:
        value = attrs.get(name)
        if value is None:
            self._fail(f"<{what}> has no {name} attribute")
        return value

    def _need(self, eval_id: str | None, what: str) -> Evaluation | None:
        if eval_id is None:
            self._fail(f"<{what}> outside an <EVAL>")
            return None
        return self.evals[eval_id]

    def _read_text(self, target, key) -> None:
        self._text = []
        self._into = (target, key)
        self.parser.CharacterDataHandler = self._text.append

    def _store_text(self) -> None:
        self.parser.CharacterDataHandler = None
        target, key = self._into
        value = "".join(self._text).strip(TRIM)
        if isinstance(target, dict):
            target[key] = value
        else:
            setattr(target, key, value)
        self._text = None

    def start(self, tag: str, attrs: dict) -> None:
        if self._text is not None:  # a child ends the text of its parent
            self._store_text()
        stack = self._stack
        rule, eval_id = stack[-1]
        if rule == _SKIP:
            stack.append((_SKIP, eval_id))
            return
        name = self._names.get(tag)
        if name is None:
            name = self._names[tag] = tag.rsplit("}", 1)[-1].upper()
        if rule != _WALK:  # inside PEERS or MODELS
            stack.append((_SKIP, eval_id))
            if rule == _PEERS and name == "P":
                peer_id = self._attribute(attrs, "ID", "P")
                if peer_id is not None:
                    self.peer_ids.setdefault(peer_id)
                    peers = self.evals[eval_id].peers
                    peers[peer_id] = ""
                    self._read_text(peers, peer_id)
            elif rule == _MODELS and name == "M":
                model_id = self._attribute(attrs, "ID", "M")
                if model_id is not None:
                    ev = self.evals[eval_id]
                    ev.model_ids.append(model_id)
                    ev.model_files[model_id] = ""
                    self._read_text(ev.model_files, model_id)
        elif name == "EVAL":
            new_id = self._attribute(attrs, "ID", "EVAL")
            if new_id is not None:
                self.evals.setdefault(new_id, Evaluation(new_id))
                stack.append((_WALK, new_id))
        elif name == "INPUT-FORMAT":
            fmt = self._attribute(attrs, "TYPE", "INPUT-FORMAT")
            if fmt is None:
                return
            if not INPUT_FORMATS.match(fmt):
                self._fail(f"unknown input type {fmt!r} (use SEE, SPL, ISI or SIMPLE)")
                return
            ev = self._need(eval_id, "INPUT-FORMAT")
            if ev is not None:
                ev.input_format = fmt
                stack.append((_SKIP, eval_id))
        elif name == "PEER-ROOT" or name == "MODEL-ROOT":
            ev = self._need(eval_id, name)
            if ev is not None:
                self._read_text(ev, "peer_root" if name == "PEER-ROOT" else "model_root")
                stack.append((_SKIP, eval_id))
        elif name == "PEERS" or name == "MODELS":
            if self._need(eval_id, name) is not None:
                stack.append((_PEERS if name == "PEERS" else _MODELS, eval_id))
        else:
            stack.append((_WALK, eval_id))

    def end(self, tag: str) -> None:
        if self._text is not None:
            self._store_text()
        self._stack.pop()


def _refuse_doctype(*args) -> None:
    raise _Unsafe("a DOCTYPE declaration (DTDs and entities are not allowed)")


def _refuse_external(*args) -> None:
    raise _Unsafe("an external entity reference")


class _Unsafe(Exception):
    pass


def read_expat(data: bytes, path: str) -> Config:
    """Read the configuration with expat (any well-formed document without a DOCTYPE)."""
    parser = expat.ParserCreate(None, "}")  # namespaces as ElementTree sees them ("uri}local")
    parser.buffer_text = True
    parser.StartDoctypeDeclHandler = _refuse_doctype
    parser.ExternalEntityRefHandler = _refuse_external
    handler = _ConfigHandler(path, parser)
    try:
        parser.Parse(data, True)
    except _Unsafe as exc:
        raise InputError(f"{path}: refused unsafe XML ({exc})") from None
    except expat.ExpatError as exc:
        raise InputError(f"{path}: malformed XML ({exc})") from None
    if handler.error is not None:
        raise handler.error
    return Config(list(handler.evals.values()), list(handler.peer_ids))
