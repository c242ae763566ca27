"""The one backend switch: compiled Cython kernels or their pure-Python twins.

``ROUGEKIT_BACKEND`` (``auto``, ``compiled``, ``python``) is read once, by
:mod:`rougekit._core.backend` (the kernels' layer, where text and the measures find their
kernels too); this module is the switch every layer from the engine up asks: :func:`name`,
:func:`compiled`, :func:`batch_module`, :func:`bootstrap_module`, :func:`process_kernels`,
:func:`marks_kernel` (``VARIABLE`` and ``_reset_for_tests`` for the tests). None reads the
environment itself.

>>> name() in ("compiled", "python")
True
"""

from __future__ import annotations

from types import ModuleType

from rougekit._core.backend import VARIABLE as VARIABLE
from rougekit._core.backend import _reset_for_tests as _reset_for_tests
from rougekit._core.backend import bootstrap_module as bootstrap_module
from rougekit._core.backend import compiled
from rougekit._core.backend import marks_kernel as marks_kernel
from rougekit._core.backend import name as name
from rougekit._core.backend import process_kernels as process_kernels
from rougekit.engine import batch


def batch_module() -> ModuleType | None:
    """:mod:`rougekit.engine.batch` when the compiled batch engine is in use, else None."""
    return batch if compiled() else None
