"""Counting kernels of rougekit: compiled (Cython) when available, pure Python otherwise.

Exposes :func:`ngram_stats`, :func:`skip_bigram_stats`, :func:`lcs_union_hits`,
:func:`wlcs_union_hits` and :func:`wlcs_weight`, plus ``BACKEND`` (``"cython"`` or
``"python"``).  Setting the environment variable ``ROUGEKIT_PURE_PYTHON=1`` before the
first import forces the pure-Python kernels.  Both backends give identical results.
"""

import os as _os

from . import _pure

_compiled = None
if _os.environ.get("ROUGEKIT_PURE_PYTHON", "").strip().lower() not in ("1", "true", "yes"):
    try:
        from . import _kernels as _compiled  # type: ignore[attr-defined]
    except ImportError:  # not built: fall back to the pure-Python twins
        _compiled = None

_impl = _compiled if _compiled is not None else _pure
BACKEND = "cython" if _compiled is not None else "python"

ngram_stats = _impl.ngram_stats
skip_bigram_stats = _impl.skip_bigram_stats
lcs_union_hits = _impl.lcs_union_hits
wlcs_union_hits = _impl.wlcs_union_hits
wlcs_weight = _impl.wlcs_weight

__all__ = [
    "BACKEND",
    "ngram_stats",
    "skip_bigram_stats",
    "lcs_union_hits",
    "wlcs_union_hits",
    "wlcs_weight",
]
