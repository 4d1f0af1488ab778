#!/usr/bin/env bash
# Builds the Python environment in which scripts/perf/side-by-side.sh runs Dask and Python Cubed.
#
#   scripts/perf/make-anchors-env.sh VENV_DIR SRC_DIR
#
# VENV_DIR  the virtualenv to create (outside the repository, e.g. /work/pyenv-anchors).
# SRC_DIR   a directory holding git clones (or bare git directories) of the projects built from
#           source, each in a sub-directory named after the project:
#             zarr-python   (tag v3.1.6)   cubed         (tag 0.27.0)
#             cubed-xarray  (tag v0.0.9)   aiostream     (tag v0.7.1)
#             flox          (tag v0.11.2)  numpy-groupies (tag v0.11.3)
#           A sub-directory may be the clone itself or hold the git directory as repo/. flox and
#           numpy-groupies are optional (xarray uses flox for Dask's groupby when it is installed,
#           as most users' environments have it): left out when their sub-directories are missing.
#
# Everything else (dask 2026.8.0, xarray 2026.9.0, numcodecs, pandas, psutil, ...) is installed
# from the local wheel directory ANCHORS_WHEELS (default /opt/pypi/files); no index is reached.
# The venv sees the system site-packages (for NumPy).
set -euo pipefail
if [ $# -ne 2 ] || [ "${1:-}" = "--help" ] || [ "${1:-}" = "-h" ]; then
  sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'
  [ $# -eq 2 ] || exit 2
  exit 0
fi
venv="$1"; src="$2"
python3 -m venv --system-site-packages "$venv"
pip="$venv/bin/pip"
# The wheels come from the local wheel directory (no package index is reached).
wheels="${ANCHORS_WHEELS:-/opt/pypi/files}"
pipi() { "$pip" install -q --no-index --find-links "$wheels" "$@"; }
pipi "dask==2026.8.0" "xarray==2026.9.0" "numcodecs==0.16.5" "pandas==3.0.6" "psutil==7.2.2" \
  google-crc32c donfig typing_extensions packaging array-api-compat cloudpickle mypy_extensions ndindex \
  networkx tenacity toolz hatchling hatch-vcs setuptools_scm wheel
pipi --upgrade "setuptools>=77"   # the one a new venv brings is too old for the PEP 639 licence fields
build=$(mktemp -d)
trap 'rm -rf "$build"' EXIT
export_tag() { # name tag version
  local dir="$src/$1"
  [ -d "$dir/repo" ] && dir="$dir/repo"
  mkdir -p "$build/$1"
  git -C "$dir" archive "$2" | tar -x -C "$build/$1"
  # The archive has no git metadata: tell setuptools_scm / hatch-vcs the version.
  SETUPTOOLS_SCM_PRETEND_VERSION="$3" pipi --no-deps --no-build-isolation "$build/$1"
}
export_tag aiostream v0.7.1 0.7.1
export_tag zarr-python v3.1.6 3.1.6
export_tag cubed 0.27.0 0.27.0
export_tag cubed-xarray v0.0.9 0.0.9
if [ -d "$src/flox" ] && [ -d "$src/numpy-groupies" ]; then
  export_tag numpy-groupies v0.11.3 0.11.3
  export_tag flox v0.11.2 0.11.2
fi
"$venv/bin/python" -c 'import dask, xarray, zarr, cubed, cubed_xarray, psutil; print("anchors env ok: dask", dask.__version__, "xarray", xarray.__version__, "zarr", zarr.__version__, "cubed", cubed.__version__)'
