"""The ROUGE-EVAL XML reader: its fast path, its expat reader and a tree-walking reference agree.

The reference is the reader rougekit had before (ElementTree, then a walk over the tree), kept
here: on every generated document without a DOCTYPE the new reader must give the same
configuration or the same error message, and the fast path must either decline (None) or give
exactly what the expat reader gives.
"""

from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET

import pytest

from rougekit.errors import InputError
from rougekit.io import rouge155_config as rc

_FORMATS = re.compile(r"^(SEE|ISI|SPL|SIMPLE)$", re.IGNORECASE)
_TRIM = " \t\n\r\f\v"


def reference_read(data: bytes, path: str) -> rc.Config:
    """The previous reader: parse to a tree (ElementTree), then walk it."""
    try:
        root = ET.fromstring(data)
    except ET.ParseError as exc:
        raise InputError(f"{path}: malformed XML ({exc})") from None
    evals: dict[str, rc.Evaluation] = {}
    peer_ids: dict[str, None] = {}

    def local(tag) -> str:
        return tag.rsplit("}", 1)[-1].upper() if isinstance(tag, str) else ""

    def text(node) -> str:
        return (node.text or "").strip(_TRIM)

    def need(eval_id, what):
        if eval_id is None:
            raise InputError(f"{path}: <{what}> outside an <EVAL>")
        return evals[eval_id]

    def attribute(node, name, what):
        value = node.get(name)
        if value is None:
            raise InputError(f"{path}: <{what}> has no {name} attribute")
        return value

    def walk(node, eval_id):
        name = local(node.tag)
        if name == "EVAL":
            eval_id = attribute(node, "ID", "EVAL")
            evals.setdefault(eval_id, rc.Evaluation(eval_id))
            for child in node:
                walk(child, eval_id)
        elif name == "INPUT-FORMAT":
            fmt = attribute(node, "TYPE", "INPUT-FORMAT")
            if not _FORMATS.match(fmt):
                raise InputError(f"{path}: unknown input type {fmt!r} (use SEE, SPL, ISI or SIMPLE)")
            need(eval_id, "INPUT-FORMAT").input_format = fmt
        elif name == "PEER-ROOT":
            need(eval_id, "PEER-ROOT").peer_root = text(node)
        elif name == "MODEL-ROOT":
            need(eval_id, "MODEL-ROOT").model_root = text(node)
        elif name == "PEERS":
            ev = need(eval_id, "PEERS")
            for child in node:
                if local(child.tag) == "P":
                    peer_id = attribute(child, "ID", "P")
                    peer_ids.setdefault(peer_id)
                    ev.peers[peer_id] = text(child)
        elif name == "MODELS":
            ev = need(eval_id, "MODELS")
            for child in node:
                if local(child.tag) == "M":
                    model_id = attribute(child, "ID", "M")
                    ev.model_ids.append(model_id)
                    ev.model_files[model_id] = text(child)
        else:
            for child in node:
                walk(child, eval_id)

    walk(root, None)
    return rc.Config(list(evals.values()), list(peer_ids))


def outcome(read, *args):
    try:
        return read(*args)
    except InputError as exc:
        return f"error: {exc}"


# -- a generator of configurations: mostly the usual layout, with all kinds of variations ---------
_WORDS = [
    "d1",
    "x",
    "sys 1",
    "a.b",
    "é",
    "A&amp;B",
    "C&#65;",
    "<![CDATA[q<r]]>",
    "tab\there",
    "",
    " pad ",
    "a>b",
    "q'uote",
    "line\nbreak",
    "back\\slash",
    "%s",
    "]]",
    "\u2028",
    "1",
    "01",
    "EVAL",
]


class _Rng(random.Random):
    """random.Random with a noise level: 0 keeps to the usual layout, 1 varies everything."""

    noise = 1.0

    def rare(self, p: float) -> bool:
        return self.random() < p * self.noise


def _value(rng: _Rng) -> str:
    return rng.choice(_WORDS) if rng.rare(0.3) else rng.choice(["1", "2", "A", "B", "sys", "p1", "D00001"])


def _ws(rng: _Rng) -> str:
    return rng.choice(["", "\n", "\n  ", " ", "\t", "\n\n"] + (["\r\n"] if rng.rare(1) else []))


def _attr(rng: random.Random, name: str, value: str) -> str:
    if rng.rare(0.03):
        return ""  # missing attribute
    quote = "'" if rng.rare(0.05) else '"'
    eq = " = " if rng.rare(0.2) else "="
    name = name.lower() if rng.rare(0.03) else name
    return f" {name}{eq}{quote}{value.replace(quote, '')}{quote}"


def _tag(rng: random.Random, name: str) -> str:
    if rng.rare(0.03):
        return name.lower()
    if rng.rare(0.02):
        return f"x:{name}"
    return name


def _element(rng: random.Random, name: str, attrs: str, content: str) -> str:
    tag = _tag(rng, name)
    if not content and rng.random() < 0.3:
        return f"<{tag}{attrs}/>"
    close = tag + "X" if rng.rare(0.01) else tag
    return f"<{tag}{attrs}>{content}</{close}>"


def _eval(rng: random.Random, eval_id: str) -> str:
    parts = [
        _element(rng, "PEER-ROOT", "", _ws(rng) + rng.choice(["peers", "/tmp/p q", "é/ü", ""]) + _ws(rng)),
        _element(rng, "MODEL-ROOT", "", _ws(rng) + rng.choice(["models", "m", ""]) + _ws(rng)),
        _element(
            rng,
            "INPUT-FORMAT",
            _attr(
                rng,
                "TYPE",
                rng.choice(["SPL", "SEE", "spl", "ISI", "SIMPLE"] + (["HTML", "\u017fPL"] if rng.rare(1) else [])),
            ),
            rng.choice(["", "", "\n", " x "]),
        ),
        _element(
            rng,
            "PEERS",
            "",
            "".join(
                _ws(rng) + _element(rng, "P", _attr(rng, "ID", _value(rng)), _value(rng) + ".spl")
                for _ in range(rng.choice([0, 1, 1, 2, 3]))
            )
            + _ws(rng),
        ),
        _element(
            rng,
            "MODELS",
            "",
            "".join(
                _ws(rng) + _element(rng, "M", _attr(rng, "ID", _value(rng)), _value(rng) + ".spl")
                for _ in range(rng.choice([0, 1, 1, 2]))
            )
            + _ws(rng),
        ),
    ]
    if rng.random() < 0.2:
        rng.shuffle(parts)
    if rng.rare(0.05):
        parts.insert(
            rng.randrange(len(parts) + 1),
            rng.choice(
                [
                    "<!-- note -->",
                    "<X/>",
                    "<EVAL ID='n'><PEER-ROOT>z</PEER-ROOT></EVAL>",
                    "text",
                    "&amp;",
                    "<?pi x?>",
                    "<P ID='loose'>f</P>",
                    "<PEERS><Q ID='q'/><P ID='in'>f<b/>tail</P></PEERS>",
                    "<![CDATA[cd]]>",
                    "<MODEL-ROOT>a<!-- c -->b</MODEL-ROOT>",
                ]
            ),
        )
    body = "".join(_ws(rng) + p for p in parts) + _ws(rng)
    return _element(rng, "EVAL", _attr(rng, "ID", eval_id), body)


def random_config(rng: _Rng) -> bytes:
    evals = "".join(
        _ws(rng) + _eval(rng, rng.choice([str(i), str(i), "1", _value(rng)]))
        for i in range(rng.choice([0, 1, 2, 3, 5]))
    )
    root_attrs = rng.choice(
        ["", ' version="1.0"', ' version="1.0" x="y"']
        + ([' version="1" version="2"', ' xmlns="urn:x"', ' xmlns:x="urn:x"'] if rng.rare(0.5) else [])
    )
    root = rng.choice(["ROUGE-EVAL", "ROUGE_EVAL"] + (["EVAL", "x:R", "PEERS"] if rng.rare(0.3) else []))
    doc = f"<{root}{root_attrs}>{evals}{_ws(rng)}</{root}>{_ws(rng)}"
    head = rng.choice(
        ["", "", '<?xml version="1.0"?>\n', '<?xml version="1.0" encoding="UTF-8"?>']
        + (
            ['<?xml version="1.0" encoding="iso-8859-1"?>', "\ufeff", " ", "<!-- c -->", "<?xml version='1.0'?>"]
            if rng.rare(0.5)
            else []
        )
    )
    doc = head + doc
    if rng.rare(0.03):
        doc = doc[: rng.randrange(len(doc) + 1)]  # truncated
    elif rng.rare(0.03):
        i = rng.randrange(len(doc) + 1)
        doc = doc[:i] + rng.choice(["\x01", "\x0c", "\ufffe", "]]>", "<", "&", "\x85", "\r"]) + doc[i:]
    encoding = "iso-8859-1" if "iso-8859-1" in head else "utf-8"
    return doc.encode(encoding, "replace")


@pytest.mark.parametrize("seed", range(40))
def test_readers_agree_on_generated_configs(seed, tmp_path):
    rng = _Rng(seed)
    path = str(tmp_path / "c.xml")
    fast_taken = 0
    for _ in range(100):
        rng.noise = rng.choice([0.0, 0.2, 1.0])
        data = random_config(rng)
        with open(path, "wb") as handle:
            handle.write(data)
        expected = outcome(reference_read, data, path)
        assert outcome(rc._read_expat, data, path) == expected, data
        assert outcome(rc.read_xml_config, path) == expected, data
        fast = rc._read_simple(data)
        if fast is not None:
            fast_taken += 1
            assert fast == expected, data
    assert fast_taken > 20  # the usual layout is common in the generated documents


USUAL = (
    b'<ROUGE-EVAL version="1.0">\n<EVAL ID="1">\n<PEER-ROOT>\npeers\n</PEER-ROOT>\n<MODEL-ROOT>models'
    b'</MODEL-ROOT>\n<INPUT-FORMAT TYPE="SEE">\n</INPUT-FORMAT>\n<PEERS>\n<P ID="C">p.html</P>\n'
    b'<P ID="D">q.html</P>\n</PEERS>\n<MODELS>\n<M ID="A">m.html</M>\n</MODELS>\n</EVAL>\n</ROUGE-EVAL>\n'
)


def test_usual_layout_takes_the_fast_path():
    config = rc._read_simple(USUAL)
    assert config is not None and config == reference_read(USUAL, "c.xml")
    (ev,) = config.evaluations
    assert (ev.peer_root, ev.model_root, ev.input_format) == ("peers", "models", "SEE")
    assert ev.peers == {"C": "p.html", "D": "q.html"} and ev.model_paths() == ["models/m.html"]
    assert config.peer_ids == ["C", "D"]


@pytest.mark.parametrize(
    "doc",
    [
        b'<?xml version="1.0"?><!DOCTYPE r><r/>',
        b'<!DOCTYPE r [<!ENTITY e "x">]><r>&e;</r>',
        b'<!DOCTYPE r SYSTEM "r.dtd"><ROUGE-EVAL/>',
        '<!DOCTYPE r [<!ENTITY e "x">]><r>&e;</r>'.encode("utf-16"),
    ],
)
def test_doctype_refused(doc, tmp_path):
    (tmp_path / "d.xml").write_bytes(doc)
    with pytest.raises(InputError, match=r"d\.xml: refused unsafe XML"):
        rc.read_xml_config(str(tmp_path / "d.xml"))


def test_error_messages(tmp_path):
    cases = {
        b"<r><EVAL>": "malformed XML (no element found: line 1, column 9)",
        b"<r><EVAL/></r>": "<EVAL> has no ID attribute",
        b"<r><PEER-ROOT>x</PEER-ROOT></r>": "<PEER-ROOT> outside an <EVAL>",
        b"<r><EVAL ID='1'><INPUT-FORMAT TYPE='X'/></EVAL></r>": "unknown input type 'X'",
        b"<r><EVAL ID='1'><INPUT-FORMAT TYPE='X'/></EVAL><bad></r>": "malformed XML (mismatched tag",
    }
    for doc, message in cases.items():
        (tmp_path / "e.xml").write_bytes(doc)
        with pytest.raises(InputError, match=re.escape(message)):
            rc.read_xml_config(str(tmp_path / "e.xml"))
    with pytest.raises(InputError, match="no such file"):
        rc.read_xml_config(str(tmp_path / "missing.xml"))
