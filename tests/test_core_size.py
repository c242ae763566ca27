"""The counter stays readable (issue 24): no file of ``_core/`` over 900 lines and no function
there over 150, measured by parsing the sources (.py through ``ast``; .pyx/.pxi by their
``def``/``cdef``/``cpdef`` headers, a body ending at the next line indented no deeper)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import rougekit._core

CORE = Path(rougekit._core.__file__).parent
MAX_FILE = 900
MAX_FUNCTION = 150

_HEADER = re.compile(r"^(\s*)(?:cpdef|cdef|def)\s+(?!class\b|struct\b|enum\b|extern\b|union\b)")


def _sources():
    return sorted(p for p in CORE.iterdir() if p.suffix in (".py", ".pyx", ".pxi"))


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def cython_functions(text: str) -> list[tuple[str, int, int]]:
    """(name, first line, line count) of every function defined in Cython source ``text``."""
    lines = text.splitlines()
    out = []
    i = 0
    while i < len(lines):
        m = _HEADER.match(lines[i])
        if not m or "(" not in lines[i]:
            i += 1
            continue
        # the header: up to the line where the parentheses close; a function when it ends with ":"
        depth, j = 0, i
        while True:
            code = lines[j].split("#", 1)[0]
            depth += code.count("(") + code.count("[") - code.count(")") - code.count("]")
            if depth <= 0 or j + 1 == len(lines):
                break
            j += 1
        if not lines[j].split("#", 1)[0].rstrip().endswith(":"):
            i = j + 1
            continue
        name = re.search(r"(\w+)\s*\(", lines[i]).group(1)
        end = j + 1
        while end < len(lines) and (not lines[end].strip() or _indent(lines[end]) > len(m.group(1))):
            end += 1
        while end > j + 1 and not lines[end - 1].strip():
            end -= 1
        out.append((name, i + 1, end - i))
        i = j + 1
    return out


def python_functions(text: str) -> list[tuple[str, int, int]]:
    tree = ast.parse(text)
    return [
        (node.name, node.lineno, node.end_lineno - node.lineno + 1)
        for node in ast.walk(tree)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
    ]


def functions(path: Path) -> list[tuple[str, int, int]]:
    text = path.read_text(encoding="utf-8")
    return python_functions(text) if path.suffix == ".py" else cython_functions(text)


def test_the_parser_measures_cython_functions():
    text = (
        "cdef struct S:\n    int a\n\n"
        "cdef int f(int a,\n          int b) noexcept nogil:\n    cdef int c = g(a)\n\n    return c\n\n\n"
        "cdef class K:\n    def m(self):\n        return 1\n\n    cdef int n(self) except -1:\n"
        "        # a comment\n        return 2\n"
        "cdef double x = h(1)\n"
    )
    assert cython_functions(text) == [("f", 4, 5), ("m", 12, 2), ("n", 15, 3)]


def test_no_core_file_over_900_lines():
    sizes = {p.name: len(p.read_text(encoding="utf-8").splitlines()) for p in _sources()}
    assert sizes and {name: n for name, n in sizes.items() if n > MAX_FILE} == {}


def test_no_core_function_over_150_lines():
    long = [(p.name, *f) for p in _sources() for f in functions(p) if f[2] > MAX_FUNCTION]
    assert long == []


def test_the_counter_is_measured():
    # the parser sees the counting entry and its kinds' functions (a parser that finds nothing
    # would pass the test above)
    names = {f[0]: f[2] for p in _sources() for f in functions(p)}
    assert {"_score_pair", "_count_n", "_count_l", "_count_w", "_count_ld", "batch_marks"} <= names.keys()
    assert 10 < names["_score_pair"] <= MAX_FUNCTION
