#!/usr/bin/env python3
"""Writes the inputs of the five workloads of docs/benchmarks.md with zarr-python's defaults.

Usage: write_inputs_zarr_python.py --out DIR [--size small|medium ...] [--workload NAME ...]
                                   [--force]

For each workload and size it writes DIR/<workload>-<size>/<NAME> (the names ./cubed bench uses:
quadratic_means U and V, add and matmul A and B, reduce A, rechunk X) with the formulas of
workloads_numpy.py and the chunks of the bench's parameters, block by block (memory: one block),
through `zarr.create_array(store, shape=, chunks=, dtype="float64")` with no codec arguments:
with zarr-python 3 that is Zarr v3 with its default zstd codec. With zarr-python 2 (e.g. Debian's
2.13) it writes Zarr v2 with that version's defaults (Blosc LZ4), which the bench reads as well.
A directory is complete when its .complete marker exists; complete directories are kept unless
--force. Then read them with

    ./cubed bench WORKLOAD --size SIZE --inputs zarr-python --inputs-dir DIR

Run it with a Python that has zarr-python 3, e.g. the one scripts/perf/make-anchors-env.sh makes.
"""
import argparse
import itertools
import shutil
import sys
from pathlib import Path

import numpy as np
import zarr

import workloads_numpy as w

MARKER = ".complete"


def inputs(workload, p):
    """(name, shape, chunks, block maker taking (origin, shape)) of each input of a workload."""
    if workload == "quadratic_means":
        shape = (p["T"], 1, p["Y"], p["X"])
        chunks = (p["tchunk"], 1, p["Y"], p["X"])
        return [("U", shape, chunks, lambda o, s: w.make_u(s[0], s[2], s[3], o[0], o[2], o[3])),
                ("V", shape, chunks, lambda o, s: w.make_v(s[0], s[2], s[3], o[0], o[2], o[3]))]
    if workload in ("add", "matmul", "reduce"):
        m = p["n"] if workload == "matmul" else p["m"]
        shape = (p["n"], m)
        chunks = (p["c"], p["c"])
        a = ("A", shape, chunks, lambda o, s: w.make_a(s[0], s[1], o[0], o[1]))
        b = ("B", shape, chunks, lambda o, s: w.make_b(s[0], s[1], o[0], o[1]))
        return [a] if workload == "reduce" else [a, b]
    if workload == "rechunk":
        shape = (p["T"], p["Y"], p["X"])
        chunks = (1, p["Y"], p["X"])
        return [("X", shape, chunks, lambda o, s: w.make_x(s[0], s[1], s[2], o[0], o[1], o[2]))]
    raise SystemExit(f"write_inputs_zarr_python: unknown workload {workload}")


def create(path, shape, chunks):
    """An empty float64 array at path with this zarr-python's defaults (no codec arguments)."""
    if hasattr(zarr, "create_array"):  # zarr-python 3
        return zarr.create_array(str(path), shape=shape, chunks=chunks, dtype="float64")
    return zarr.open_array(str(path), mode="w", shape=shape, chunks=chunks, dtype="float64")


def write(path, shape, chunks, make):
    z = create(path, shape, chunks)
    grid = [range(0, n, c) for n, c in zip(shape, chunks)]
    for origin in itertools.product(*grid):
        s = tuple(min(c, n - o) for o, c, n in zip(origin, chunks, shape))
        block = make(origin, s)
        z[tuple(slice(o, o + k) for o, k in zip(origin, s))] = np.ascontiguousarray(block)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", required=True, type=Path, help="the directory (--inputs-dir)")
    ap.add_argument("--size", action="append", choices=["small", "medium"],
                    help="repeatable (default: small)")
    ap.add_argument("--workload", action="append", choices=sorted(w.SIZES),
                    help="repeatable (default: all five)")
    ap.add_argument("--force", action="store_true", help="rewrite complete directories too")
    a = ap.parse_args()
    for size in a.size or ["small"]:
        for workload in a.workload or sorted(w.SIZES):
            d = a.out / f"{workload}-{size}"
            if (d / MARKER).exists() and not a.force:
                print(f"{d}: complete, kept", file=sys.stderr)
                continue
            shutil.rmtree(d, ignore_errors=True)
            d.mkdir(parents=True)
            for name, shape, chunks, make in inputs(workload, w.SIZES[workload][size]):
                write(d / name, shape, chunks, make)
            (d / MARKER).write_text(f"zarr-python {zarr.__version__}\n")
            print(f"{d}: written with zarr-python {zarr.__version__}", file=sys.stderr)


if __name__ == "__main__":
    main()
