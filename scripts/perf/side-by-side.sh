#!/usr/bin/env bash
# Runs the five workloads of docs/benchmarks.md on NumPy, Dask, Python Cubed and this engine,
# interleaved, and writes the table into docs/performance.md. --help lists the options.
# The logic is in side_by_side.py beside this script.
set -euo pipefail
exec python3 "$(dirname "$0")/side_by_side.py" "$@"
