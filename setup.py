"""Build the Cython kernels of rougekit.

``ROUGEKIT_BACKEND`` steers the build as it steers the engine at run time (rougekit/engine/backend.py):

* unset or ``auto``: build the kernels; if that fails, print why (pip shows it with ``-v``) and
  install anyway: rougekit then runs its pure-Python twins (the same numbers, much slower) and warns
  once at run time;
* ``compiled``: a failed build is an error (CI sets this);
* ``python``: build nothing.
"""

import os
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

VARIABLE = "ROUGEKIT_BACKEND"
# every compiled module; _stem155/_stemnltk are the test hooks of the stemmers _batch includes (.pxi)
MODULES = ("_batch", "_bootstrap", "_stem155", "_stemnltk", "_process", "_segment_zh", "_segment_th", "_edit")


def backend() -> str:
    value = os.environ.get(VARIABLE, "").strip().lower() or "auto"
    if value not in ("auto", "compiled", "python"):
        sys.exit(f"rougekit: {VARIABLE}={os.environ[VARIABLE]!r}: use one of auto, compiled, python")
    return value


BACKEND = backend()


def not_built(what: str, exc: BaseException) -> None:
    """Fail under ROUGEKIT_BACKEND=compiled; otherwise say loudly that the pure-Python twins will run."""
    if BACKEND == "compiled":
        raise SystemExit(f"rougekit: {what} failed and {VARIABLE}=compiled: {exc}") from exc
    bar = "!" * 100
    sys.stderr.write(
        f"\n{bar}\nrougekit: {what} failed ({exc}).\nrougekit will run its pure-Python kernels: the same numbers, "
        f"much slower. Install a C compiler and Cython, or set {VARIABLE}=compiled to make this an error.\n{bar}\n\n"
    )


class OptionalBuildExt(build_ext):
    """Build the extensions; a failure is fatal only under ROUGEKIT_BACKEND=compiled."""

    def run(self):
        try:
            super().run()
        except Exception as exc:  # pragma: no cover - depends on the build machine
            not_built("building the compiled kernels", exc)

    def build_extension(self, ext):
        try:
            super().build_extension(ext)
        except Exception as exc:  # pragma: no cover
            not_built(f"building {ext.name}", exc)


def extensions():
    if BACKEND == "python":
        return []
    try:
        from Cython.Build import cythonize
    except ImportError as exc:  # pragma: no cover
        not_built("importing Cython", exc)
        return []
    # no FMA contraction: R/P/F and ROUGE-W must round exactly as the script and the Python twins do
    flags = ["-O3", "-ffp-contract=off"] if sys.platform != "win32" else []
    # the engine's loops on 64-byte boundaries: the speed of a hot loop (ROUGE-W's DP) does not depend
    # on where unrelated code moves it (adding ND/LD moved it: ROUGE-W 9% slower without this)
    aligned = ["-falign-loops=64"] if flags else []
    exts = [
        Extension(
            f"rougekit._core.{name}",
            [f"src/rougekit/_core/{name}.pyx"],
            extra_compile_args=flags + (aligned if name == "_batch" else []),
        )
        for name in MODULES
    ]
    try:
        return cythonize(
            exts,
            language_level=3,
            compiler_directives={"boundscheck": False, "wraparound": False, "cdivision": True},
        )
    except Exception as exc:  # pragma: no cover - a broken Cython install or a .pyx that does not compile
        not_built("Cython", exc)
        return []


setup(ext_modules=extensions(), cmdclass={"build_ext": OptionalBuildExt})
