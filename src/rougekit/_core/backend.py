"""Which implementation of the kernels runs: the compiled Cython modules or their pure-Python twins.

``ROUGEKIT_BACKEND`` is read here and nowhere else, once, on first use:

* ``auto`` (or unset): the compiled engine when it is built, else the pure-Python twins with
  one warning saying how to get the compiled build;
* ``compiled``: the compiled engine, or an error if it is not built;
* ``python``: the pure-Python twins (the same numbers, slower).

The decision sits in ``_core`` because the layers below the engine (text's segmenters and
interner, the measures' per-pair kernels) run kernels too; everything above reaches it through
:mod:`rougekit.engine.backend`, the engine's switch, which adds the batch driver. The same
variable steers ``setup.py`` at build time (``python`` skips the build, ``compiled`` makes a
failed build an error).

>>> name() in ("compiled", "python")
True
"""

from __future__ import annotations

import importlib
import os
import sys
import warnings
from types import ModuleType

from rougekit.errors import OptionError

VARIABLE = "ROUGEKIT_BACKEND"
CHOICES = ("auto", "compiled", "python")
#: the compiled modules of the engine; all must import for the compiled backend
COMPILED_MODULES = ("_batch", "_bootstrap", "_process", "_segment_zh", "_segment_th", "_edit")
HOW_TO_BUILD = "reinstall with a C compiler available (pip install --force-reinstall --no-cache-dir rougekit)"

_resolved: str | None = None


class BackendError(OptionError):
    """The backend asked for cannot be used (bad ROUGEKIT_BACKEND value, or compiled but not built)."""


def requested() -> str:
    """The value of ``ROUGEKIT_BACKEND``, checked: one of ``auto``, ``compiled``, ``python``."""
    value = os.environ.get(VARIABLE, "").strip().lower() or "auto"
    if value not in CHOICES:
        raise BackendError(f"{VARIABLE}={os.environ.get(VARIABLE)!r}: use one of {', '.join(CHOICES)}")
    return value


def _compiled_missing() -> str | None:
    """Why the compiled engine cannot be used, or None when every module imports."""
    for module in COMPILED_MODULES:
        try:
            importlib.import_module(f"rougekit._core.{module}")
        except ImportError as exc:
            return f"rougekit._core.{module} is not built ({exc})"
    return None


def name() -> str:
    """``"compiled"`` or ``"python"``: the backend of this process, decided once."""
    global _resolved
    if _resolved is None:
        want = requested()
        if want == "python":
            _resolved = "python"
        else:
            missing = _compiled_missing()
            if missing is None:
                _resolved = "compiled"
            elif want == "compiled":
                raise BackendError(f"{VARIABLE}=compiled but {missing}; {HOW_TO_BUILD}")
            else:
                warnings.warn(
                    f"rougekit: the compiled engine is not available ({missing}); running the pure-Python twins, "
                    f"which give the same numbers but are much slower. To get it: {HOW_TO_BUILD}",
                    RuntimeWarning,
                    stacklevel=2,
                )
                _resolved = "python"
    return _resolved


def compiled() -> bool:
    """True when the compiled engine is in use."""
    return name() == "compiled"


def kernels() -> ModuleType:
    """The per-pair counting kernels: the batch engine's per-pair entry points (``_core._batch``,
    pair.pxi: one candidate against one reference through its ``_score_pair``), or ``_core._pure``."""
    return importlib.import_module("rougekit._core._batch" if compiled() else "rougekit._core._pure")


def process_kernels() -> ModuleType:
    """The kernels of :mod:`rougekit.process`: ``_core._process`` (compiled) or ``_core._process_pure``."""
    return importlib.import_module("rougekit._core._process" if compiled() else "rougekit._core._process_pure")


def marks_kernel() -> ModuleType:
    """The highlights' kernel ``batch_marks``: the batch engine's (``_core._batch``, marks.pxi: each
    entry through its ``_score_pair``) or ``_core._explain`` (the twin)."""
    return importlib.import_module("rougekit._core._batch" if compiled() else "rougekit._core._explain")


def segment_zh_module() -> ModuleType:
    """jieba's cut over jieba's own tables: ``_core._segment_zh`` (compiled) or ``_core._segment_zh_pure``."""
    return importlib.import_module("rougekit._core._segment_zh" if compiled() else "rougekit._core._segment_zh_pure")


def segment_th_module() -> ModuleType:
    """pythainlp's newmm over pythainlp's own data: ``_core._segment_th`` (compiled) or ``_core._segment_th_pure``."""
    return importlib.import_module("rougekit._core._segment_th" if compiled() else "rougekit._core._segment_th_pure")


def edit_module() -> ModuleType:
    """The edit counts of Hori et al.'s ACCY (:mod:`rougekit.metrics.hori`): ``_core._edit`` or ``_core._edit_pure``."""
    return importlib.import_module("rougekit._core._edit" if compiled() else "rougekit._core._edit_pure")


def bootstrap_module() -> ModuleType | None:
    """The compiled bootstrap loop (``_core._bootstrap``), or None for the numpy twin."""
    return importlib.import_module("rougekit._core._bootstrap") if compiled() else None


def _reset_for_tests() -> None:
    """Forget the decision, so a test can change ``ROUGEKIT_BACKEND`` (tests only), and the kernels
    ``rougekit._core`` resolved under it (they resolve again, under the next decision, on first use)."""
    global _resolved
    _resolved = None
    core = sys.modules.get("rougekit._core")
    for name in getattr(core, "_KERNELS", ()):
        core.__dict__.pop(name, None)
