"""The result path and the fixed cost of a compute, cubed-java beside Dask (threads), interleaved.

    CUBED_JAVA_HOME=$PWD PYTHONPATH=$PWD/python python scripts/perf/compute_overhead.py \
        [--nt 1095 --nx 90 --ny 180 --chunk 100] [--repeat 5]

Rows:
- ``t + 1``: xarray ``(ds.t + 1).compute()`` of a float64 (nt, nx, ny) array chunked
  ``{"time": chunk}``: a full-size result, so its time is mostly the path from the tasks' blocks to
  the NumPy array Python receives.
- ``tiny``: xarray ``(da + 1).compute()`` of 10 float64 in 2 chunks: the fixed cost of a compute
  end to end (Python, the bridge, planning, running, the reply).
- ``tiny, JVM only``: the same compute timed inside the JVM (the bridge's ``timeCompute``: the
  engine's share of the fixed cost), and ``echo``: one bridge round trip doing nothing.

Each row runs Dask and cubed-java alternately ``--repeat`` times; the medians and the ratio
cubed-java / Dask are printed.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys

import numpy as np
import xarray as xr

import cubed_java  # noqa: F401  (the package; its bridge starts on first use)
from cubed_java import _bridge

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from xarray_timing import add_size_arguments, interleaved, register_chunk_manager, timed  # noqa: E402


def row(name, dask_f, cj_f, repeat):
    d, j = interleaved([lambda r: dask_f(), lambda r: cj_f()], repeat, warm=True)
    md, mj = statistics.median(d), statistics.median(j)
    print(f"{name:22s} {md * 1e3:10.1f} {mj * 1e3:14.1f} {mj / md:7.2f}", flush=True)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_size_arguments(ap, repeat=5)
    args = ap.parse_args(argv)
    register_chunk_manager()
    rng = np.random.default_rng(1)
    t = xr.DataArray(rng.random((args.nt, args.nx, args.ny)), dims=("time", "x", "y"))
    small = xr.DataArray(np.arange(10.0), dims=("x",))
    lazy = {b: (t.chunk({"time": args.chunk}, chunked_array_type=b),
                small.chunk({"x": 5}, chunked_array_type=b)) for b in ("dask", "cubed-java")}
    print(f"{'row':22s} {'dask ms':>10s} {'cubed-java ms':>14s} {'ratio':>7s}  "
          f"(median of {args.repeat}, interleaved)", flush=True)
    row("t + 1", lambda: (lazy["dask"][0] + 1).compute(),
        lambda: (lazy["cubed-java"][0] + 1).compute(), args.repeat)
    row("tiny", lambda: (lazy["dask"][1] + 1).compute(),
        lambda: (lazy["cubed-java"][1] + 1).compute(), args.repeat * 4)
    s = _bridge.session()
    y = lazy["cubed-java"][1].data + 1
    jvm = s.call("timeCompute", y, args.repeat * 4)
    echo = statistics.median(timed(s.call, "echo", 1)[0] for _ in range(args.repeat * 4))
    print(f"tiny, JVM only: min {jvm[0] / 1e6:.1f} ms, median {jvm[1] / 1e6:.1f} ms; "
          f"echo round trip {echo * 1e3:.2f} ms", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
