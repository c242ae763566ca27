"""Counting kernels of rougekit: compiled (Cython) or their pure-Python twins (``_pure``).

Which one runs is decided once by :mod:`rougekit._core.backend` (``ROUGEKIT_BACKEND``; the
engine's switch :mod:`rougekit.engine.backend` asks the same).
The names below resolve on first use to the chosen implementation: the kernels listed in
``_pure.__all__`` (:func:`ngram_stats`, :func:`skip_bigram_stats`, :func:`lcs_union_hits`,
:func:`wlcs_union_hits`, :func:`wlcs_weight`), each also an entry point of the compiled engine
(``_batch.pyx``, pair.pxi), and ``BACKEND`` (``"compiled"`` or ``"python"``).
"""

from rougekit._core import backend
from rougekit._core._pure import __all__ as _pure_names

_KERNELS = tuple(_pure_names)

__all__ = ["BACKEND", *_KERNELS]


def __getattr__(name: str):
    if name == "BACKEND":
        return backend.name()
    if name in _KERNELS:
        value = getattr(backend.kernels(), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'rougekit._core' has no attribute {name!r}")
