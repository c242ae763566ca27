"""The layer order of docs/architecture.md: no module imports up a layer, no imports make a circle.

Every module under src/rougekit is parsed with ``ast`` (nothing is imported). The layers hold
every import statement: at the top, inside a function or under ``if TYPE_CHECKING:`` (an
annotation names the upper layer's type too), absolute or relative; ``from package import
name`` is an import of ``package.name`` when that is a module, else of the package. The circles
are those of what importing runs: without the ``TYPE_CHECKING`` imports (type checkers read
such cycles in any order), with the packages whose ``__init__`` runs first (importing
``a.b.c`` runs ``a.b``'s). There is no list of exceptions.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

SRC = Path(__file__).resolve().parent.parent / "src"

#: lowest first; a module belongs to the layer of its longest listed prefix
LAYERS = [
    ("rougekit.errors", "rougekit._version", "rougekit._late", "rougekit._sums"),
    ("rougekit._core",),
    ("rougekit.limits", "rougekit.io"),
    ("rougekit.text",),
    ("rougekit.measures", "rougekit.metrics"),
    ("rougekit.engine",),
    ("rougekit.scoring",),
    ("rougekit.stats",),
    ("rougekit.signature", "rougekit.results"),
    ("rougekit.api",),
    (
        "rougekit.explanation",
        "rougekit.report",
        "rougekit.meta",
        "rougekit.compat",
        "rougekit.process",
        "rougekit.dask",
        "rougekit.spark",
        "rougekit.variants",
        "rougekit.rouge155",
        "rougekit.rewards",
        "rougekit.cli.rouge155",  # the script's option grammar: the CLI's and compat.pyrouge's
    ),
    ("rougekit", "rougekit.__main__", "rougekit.cli"),
]
#: _core imports nothing of rougekit but these (the BRIEF)
CORE_MAY_IMPORT = ("rougekit.errors",)


def _modules(root: Path = SRC) -> dict[str, tuple[Path, bool]]:
    """Dotted name -> (file, is a package) for every .py file of the package."""
    out = {}
    for path in sorted((root / "rougekit").rglob("*.py")):
        parts = list(path.relative_to(root).with_suffix("").parts)
        package = parts[-1] == "__init__"
        if package:
            parts = parts[:-1]
        out[".".join(parts)] = (path, package)
    return out


def _from_module(module: str, package: bool, node: ast.ImportFrom) -> str:
    """The absolute name of the module a ``from ... import`` statement in ``module`` reads from."""
    if not node.level:
        return node.module or ""
    base = module.split(".") if package else module.split(".")[:-1]
    base = base[: len(base) - node.level + 1]
    return ".".join(base + ([node.module] if node.module else []))


def _targets(module: str, package: bool, node, modules) -> list[str]:
    """The rougekit modules one import statement imports."""
    if isinstance(node, ast.Import):
        names = [a.name for a in node.names]
    else:
        where = _from_module(module, package, node)
        names = [f"{where}.{a.name}" if f"{where}.{a.name}" in modules else where for a in node.names]
    out = []
    for name in names:
        if name != "rougekit" and not name.startswith("rougekit."):
            continue
        while name not in modules and "." in name:  # a name inside a module: the module
            name = name.rsplit(".", 1)[0]
        out.append(name)
    return out


def _packages_run(module: str, target: str) -> list[str]:
    """The packages whose ``__init__`` importing ``target`` runs first: those above it, up to the
    root (whose ``__init__`` imports nothing eagerly) and not counting ``module``'s own."""
    parts = target.split(".")
    out = []
    for i in range(2, len(parts)):
        package = ".".join(parts[:i])
        if module != package and not module.startswith(package + "."):
            out.append(package)
    return out


def _typing_only(tree) -> set[int]:
    """The ids of the import statements under ``if TYPE_CHECKING:`` (or ``typing.TYPE_CHECKING``)."""
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and ast.unparse(node.test) in ("TYPE_CHECKING", "typing.TYPE_CHECKING"):
            for stmt in node.body:
                out |= {id(n) for n in ast.walk(stmt) if isinstance(n, (ast.Import, ast.ImportFrom))}
    return out


_CYTHON_IMPORT = re.compile(r"^\s*(from\s+[\w.]+\s+c?import\s|c?import\s+[\w.]+)")


def _cython_tree(path: Path) -> ast.Module:
    """The import statements of a .pyx/.pxi file (``cimport`` read as ``import``) as a Python tree
    whose line numbers are the file's. Cython is not Python, so the lines are picked out first; a
    line that only looks like one (in a docstring) and does not parse is not an import."""
    lines = path.read_text(encoding="utf-8").splitlines()
    body: list[ast.stmt] = []
    for number, line in enumerate(lines, 1):
        if not _CYTHON_IMPORT.match(line):
            continue
        text, end = line.strip(), number
        while text.count("(") > text.count(")") and end < len(lines):
            text, end = text + " " + lines[end].strip(), end + 1
        text = re.sub(r"\bcimport\b", "import", text)
        try:
            stmt = ast.parse(text).body[0]
        except SyntaxError:
            continue
        ast.increment_lineno(stmt, number - 1)
        body.append(stmt)
    return ast.Module(body=body, type_ignores=[])


def _cython_sources(root: Path) -> dict[str, tuple[Path, bool]]:
    """The compiled modules' sources, named as modules (an included ``.pxi`` by its file name, as
    it has no module of its own: ``rougekit._core.kinds.pxi``)."""
    out = {}
    for path in sorted([*(root / "rougekit").rglob("*.pyx"), *(root / "rougekit").rglob("*.pxi")]):
        dotted = ".".join(path.relative_to(root).with_suffix("").parts)
        out[dotted + ".pxi" if path.suffix == ".pxi" else dotted] = (path, False)
    return out


def import_graph(root: Path = SRC, *, run_time: bool = False) -> dict[str, dict[str, int]]:
    """module -> {imported module: line of its first import}. ``run_time=True``: what importing
    runs, i.e. without the imports under ``if TYPE_CHECKING:`` and with the packages whose
    ``__init__`` runs first. The Cython sources are read too (their Python-level imports and
    ``cimport`` statements)."""
    modules = _modules(root)
    graph: dict[str, dict[str, int]] = {}
    for module, (path, package) in {**modules, **_cython_sources(root)}.items():
        edges = graph.setdefault(module, {})
        if path.suffix == ".py":
            tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        else:
            tree = _cython_tree(path)
            module = module.removesuffix(".pxi")  # relative imports resolve from its folder
        skip = _typing_only(tree) if run_time else set()
        for node in ast.walk(tree):
            if isinstance(node, (ast.Import, ast.ImportFrom)) and id(node) not in skip:
                for target in _targets(module, package, node, modules):
                    for name in [target, *(_packages_run(module, target) if run_time else [])]:
                        if name != module:
                            edges.setdefault(name, node.lineno)
    return graph


def layer(module: str) -> int:
    best, found = -1, None
    for i, prefixes in enumerate(LAYERS):
        for p in prefixes:
            inside = module == p or (module.startswith(p + ".") and p != "rougekit")  # the root: itself only
            if inside and len(p) > best:
                best, found = len(p), i
    assert found is not None, f"{module} has no layer: add it to LAYERS and docs/architecture.md"
    return found


def cycles(graph: dict[str, dict[str, int]]) -> list[list[str]]:
    """One circle (a -> ... -> a) of every strongly connected set of two or more modules."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph.get(v, {}):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            part = set()
            while True:
                w = stack.pop()
                on_stack.discard(w)
                part.add(w)
                if w == v:
                    break
            if len(part) > 1:
                found.append(_circle(graph, part))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def _circle(graph, part: set[str]) -> list[str]:
    """A shortest path from the smallest module of ``part`` back to itself."""
    start = min(part)
    paths = {start: [start]}
    todo = [start]
    while todo:
        v = todo.pop(0)
        for w in sorted(graph[v]):
            if w == start:
                return paths[v] + [start]
            if w in part and w not in paths:
                paths[w] = paths[v] + [w]
                todo.append(w)
    raise AssertionError(part)


def upward_imports(graph) -> list[str]:
    bad = []
    for module, edges in sorted(graph.items()):
        for target, line in sorted(edges.items()):
            if layer(target) > layer(module):
                bad.append(f"{module}:{line} imports {target} (layer {layer(module)} -> {layer(target)})")
            elif module.startswith("rougekit._core") and not target.startswith("rougekit._core"):
                if target not in CORE_MAY_IMPORT:
                    bad.append(f"{module}:{line} imports {target} (_core imports only {CORE_MAY_IMPORT})")
    return bad


def test_no_import_runs_up_a_layer():
    bad = upward_imports(import_graph())
    assert not bad, "imports up a layer (docs/architecture.md):\n" + "\n".join(bad)


def test_no_import_circle():
    found = cycles(import_graph(run_time=True))
    assert not found, "import circles:\n" + "\n".join(" -> ".join(c) for c in found)


def test_every_module_has_a_layer():
    graph = import_graph()
    assert len(graph) > 100 and "rougekit.engine.planner" in graph  # the real package was read
    for module in graph:
        layer(module)


def test_the_checks_see_what_they_must(tmp_path):
    """A made-up package: a relative, a function-local and a TYPE_CHECKING import are all seen."""
    pkg = tmp_path / "rougekit"
    (pkg / "_core").mkdir(parents=True)
    (pkg / "engine").mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "_core" / "__init__.py").write_text("def f():\n    from ..engine import backend\n")
    (pkg / "engine" / "__init__.py").write_text("")
    (pkg / "engine" / "backend.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from rougekit.engine import planner\n"
    )
    (pkg / "engine" / "planner.py").write_text("import rougekit.engine.backend\nfrom . import backend\n")
    (pkg / "engine" / "batch.py").write_text("def f():\n    from .options import X\n")
    (pkg / "engine" / "options.py").write_text("from rougekit.engine.batch import f\n")
    graph = import_graph(tmp_path)
    assert graph["rougekit._core"] == {"rougekit.engine.backend": 2}
    assert graph["rougekit.engine.backend"] == {"rougekit.engine.planner": 3}
    assert graph["rougekit.engine.planner"] == {"rougekit.engine.backend": 1}
    assert upward_imports(graph) == ["rougekit._core:2 imports rougekit.engine.backend (layer 1 -> 5)"]
    assert cycles(graph) == [
        ["rougekit.engine.backend", "rougekit.engine.planner", "rougekit.engine.backend"],
        ["rougekit.engine.batch", "rougekit.engine.options", "rougekit.engine.batch"],
    ]
    run = import_graph(tmp_path, run_time=True)
    assert run["rougekit._core"] == {"rougekit.engine.backend": 2, "rougekit.engine": 2}
    assert cycles(run) == [["rougekit.engine.batch", "rougekit.engine.options", "rougekit.engine.batch"]]


def test_the_checks_read_cython_sources(tmp_path):
    """A function-local import in a .pyx and a relative ``cimport`` in a .pxi are seen; a
    docstring line that reads like an import but does not parse, and C libraries, are not."""
    pkg = tmp_path / "rougekit"
    (pkg / "_core").mkdir(parents=True)
    (pkg / "text").mkdir()
    for init in (pkg / "__init__.py", pkg / "_core" / "__init__.py", pkg / "text" / "__init__.py"):
        init.write_text("")
    (pkg / "text" / "stemming.py").write_text("")
    (pkg / "_core" / "inputs.py").write_text("")
    (pkg / "_core" / "_stem.pyx").write_text(
        '"""Docs.\n\nfrom the word list, import it\n"""\n'
        "from libc.stdint cimport int32_t\n"
        "cdef f():\n"
        "    from rougekit.text.stemming import (\n"
        "        load_exceptions,\n"
        "    )\n"
    )
    (pkg / "_core" / "kinds.pxi").write_text("from . cimport inputs\nfrom .. import text\n")
    graph = import_graph(tmp_path)
    assert graph["rougekit._core._stem"] == {"rougekit.text.stemming": 7}
    assert graph["rougekit._core.kinds.pxi"] == {"rougekit._core.inputs": 1, "rougekit.text": 2}
    assert upward_imports(graph) == [
        "rougekit._core._stem:7 imports rougekit.text.stemming (layer 1 -> 3)",
        "rougekit._core.kinds.pxi:2 imports rougekit.text (layer 1 -> 3)",
    ]


# -- one door: front ends reach counting only through rougekit.engine.door --------------------

#: the modules that face users; every import they make, at any depth, is checked
FRONT_ENDS = (
    "rougekit.api",
    "rougekit.compat",
    "rougekit.rouge155",
    "rougekit.process",
    "rougekit.explanation",
    "rougekit.variants",
    "rougekit.report",
    "rougekit.meta",
    "rougekit.dask",
    "rougekit.spark",
    "rougekit.rewards",
    "rougekit.cli",
)
#: what lies below the door: the kernels, the measures' kernels, the engine and the counting functions
BELOW_THE_DOOR = ("rougekit._core", "rougekit.measures", "rougekit.metrics", "rougekit.engine", "rougekit.scoring")
#: the names a front end may import from below the door, each listed (no ignore list)
DOOR = (
    "EnginePlan",
    "plan",
    "process_kernels",
    "ids_without_kernel",
    "inputs",
    "Kind",
    "kernel_spec",
    "SEQUENCE_LCS",
    "VOCABULARY_LIMIT",
    "available_cores",
    "on_threads",
    "run_tasks",
    "check_trace_size",
    "Doc",
    "PairScore",
    "RefStats",
    "Match",
    "combine",
    "f_measure_array",
    "round5_array",
    "final_scores",
    "kept_reference",
    "pair_score",
    "ratios",
    "reference_stats",
    "score_pair",
    "lcs_hits",
    "ngram_counts",
    "pair_counts",
    "kind_counts",
    "backend_name",
)
ALLOWED_BELOW = {
    "rougekit.engine.door": set(DOOR),
    "rougekit.engine": {"door"},
    "rougekit.engine.options": {"ScoringOptions", "MULTI_REF"},  # what a front end asks for
    "rougekit.measures": {"Measure", "split_measure_list", "BE_MODES"},  # a measure's name and parser
}


def _inside(module: str, prefixes) -> bool:
    return any(module == p or module.startswith(p + ".") for p in prefixes)


def door_violations(root: Path = SRC) -> list[str]:
    """Every import by a front-end module of a name below the door that is not in ALLOWED_BELOW:
    ``module:line imports where.name`` (``import a.b`` of a module below the door: ``a.b``)."""
    bad = []
    for module, (path, package) in _modules(root).items():
        if not _inside(module, FRONT_ENDS):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                for a in node.names:
                    if _inside(a.name, BELOW_THE_DOOR):
                        bad.append(f"{module}:{node.lineno} imports {a.name}")
            elif isinstance(node, ast.ImportFrom):
                where = _from_module(module, package, node)
                for a in node.names:
                    full = f"{where}.{a.name}"
                    if not (_inside(where, BELOW_THE_DOOR) or _inside(full, BELOW_THE_DOOR)):
                        continue
                    if a.name not in ALLOWED_BELOW.get(where, ()):
                        bad.append(f"{module}:{node.lineno} imports {full}")
    return bad


def test_front_ends_reach_counting_only_through_the_door():
    bad = door_violations()
    assert not bad, "front ends must import counting from rougekit.engine.door only:\n" + "\n".join(bad)


def test_the_door_lists_what_it_opens():
    """The allowed names are the door's ``__all__``, each of them there (an explicit list, kept in step)."""
    from rougekit.engine import door

    assert list(door.__all__) == list(DOOR)
    for name in DOOR:
        assert hasattr(door, name), name


def test_the_door_check_sees_what_it_must(tmp_path):
    """A made-up package: a relative, a function-local, a TYPE_CHECKING and a plain import of what
    is below the door are each found; the door's names and the other layers are not."""
    pkg = tmp_path / "rougekit"
    for sub in ("_core", "engine", "compat", "text"):
        (pkg / sub).mkdir(parents=True)
        (pkg / sub / "__init__.py").write_text("")
    (pkg / "__init__.py").write_text("")
    for name in ("engine/door.py", "engine/planner.py", "_core/inputs.py", "scoring.py", "text/intern.py"):
        (pkg / name).write_text("")
    (pkg / "api.py").write_text(
        "from typing import TYPE_CHECKING\n"
        "from rougekit.engine.door import plan, inputs\n"
        "from rougekit.text.intern import Vocabulary\n"
        "if TYPE_CHECKING:\n"
        "    from rougekit.engine.planner import Plan\n"
        "def f():\n"
        "    from rougekit.scoring import final_scores\n"
    )
    (pkg / "compat" / "rouge.py").write_text(
        "from ..engine import door\nfrom .._core import inputs\nimport rougekit._core.inputs\n"
        "from rougekit.engine.door import _private\n"
    )
    assert door_violations(tmp_path) == [
        "rougekit.api:5 imports rougekit.engine.planner.Plan",
        "rougekit.api:7 imports rougekit.scoring.final_scores",
        "rougekit.compat.rouge:2 imports rougekit._core.inputs",
        "rougekit.compat.rouge:3 imports rougekit._core.inputs",
        "rougekit.compat.rouge:4 imports rougekit.engine.door._private",
    ]


# -- private names stay in their module ----------------------------------------------------------

#: the packages whose modules use no other module's private (``_name``) names: what two modules
#: share is public in one of them (a private module, such as ``compat._tokenize``, may be imported)
OWN_PRIVATES = (
    "rougekit.compat",
    "rougekit.text",
    "rougekit.report",
    "rougekit.meta",
    "rougekit.rouge155",
    "rougekit.scoring",
    "rougekit.io",
    "rougekit.explanation",
)


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def private_uses(root: Path = SRC, packages=OWN_PRIVATES) -> list[str]:
    """Every use in ``packages`` of another rougekit module's private name: ``from m import _x``
    (``_x`` not a module) or ``m._x`` with ``m`` an imported rougekit module: ``module:line m._x``."""
    modules = _modules(root)
    bad = []
    for module, (path, package) in modules.items():
        if not _inside(module, packages):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        bound = {}  # local name -> the rougekit module it is
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                for a in node.names:
                    if a.name in modules:
                        bound[a.asname or a.name.split(".")[0]] = a.name if a.asname else a.name.split(".")[0]
            elif isinstance(node, ast.ImportFrom):
                where = _from_module(module, package, node)
                if where not in modules:
                    continue
                for a in node.names:
                    full = f"{where}.{a.name}"
                    if full in modules:
                        bound[a.asname or a.name] = full
                    elif _private(a.name) and where != module:
                        bad.append(f"{module}:{node.lineno} {full}")
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and _private(node.attr):
                owner = bound.get(node.value.id)
                if owner is not None and owner != module and f"{owner}.{node.attr}" not in modules:
                    bad.append(f"{module}:{node.lineno} {owner}.{node.attr}")
    return sorted(set(bad))


def test_no_module_uses_another_modules_private_names():
    bad = private_uses()
    assert not bad, "a name two modules share is public in one of them:\n" + "\n".join(bad)


def test_the_private_name_check_sees_what_it_must(tmp_path):
    pkg = tmp_path / "rougekit"
    (pkg / "compat").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "compat" / "__init__.py").write_text("")
    (pkg / "compat" / "_porter.py").write_text("_CACHE_MAX = 1\nstem = len\n")
    (pkg / "compat" / "scorer.py").write_text("def _scores(): pass\n")
    (pkg / "compat" / "ml.py").write_text(
        "from . import _porter\n"  # a private module: allowed
        "from ._porter import stem\n"  # its public name: allowed
        "from .scorer import _scores\n"
        "import rougekit.compat._porter as porter\n"
        "def f(x):\n"
        "    return _porter._CACHE_MAX, porter._CACHE_MAX, x._y, _scores\n"
    )
    (pkg / "other.py").write_text("from rougekit.compat.scorer import _scores\n")  # outside the packages
    assert private_uses(tmp_path, ("rougekit.compat",)) == [
        "rougekit.compat.ml:3 rougekit.compat.scorer._scores",
        "rougekit.compat.ml:6 rougekit.compat._porter._CACHE_MAX",
    ]
