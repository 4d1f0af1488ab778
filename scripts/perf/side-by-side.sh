#!/usr/bin/env bash
# Runs the five workloads of docs/benchmarks.md on NumPy, Dask, Python Cubed and this engine,
# interleaved, and writes the table into docs/performance.md; with --user-path, the user-path
# expressions (public API, zarr-python inputs) and the five workloads on both input sets beside
# Dask, in JVM defaults and the documented options. --help lists the options.
# The logic is in side_by_side.py beside this script.
set -euo pipefail
exec python3 "$(dirname "$0")/side_by_side.py" "$@"
