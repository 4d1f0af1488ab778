"""Compute times of the everyday xarray operations (python/tests/xarray_ops44.py's list, plus
rolling(time=7) and rolling(time=30) means) on Dask (threads) and on cubed-java, side by side.

    CUBED_JAVA_HOME=$PWD PYTHONPATH=$PWD/python python scripts/perf/xarray_ops_times.py \
        [--nt 1095 --nx 90 --ny 180 --chunk 100] [--repeat 3] [--only rolling,diff]

Input: t(time, x, y) float64 with ~1% NaNs and p(time, x), daily time coordinate, NumPy arrays
chunked by each backend with ``{"time": chunk}`` (x and y whole). Per operation and backend the
time is building the result plus ``.compute()`` (so an operation that computes while building is
charged for it); the two backends run interleaved (Dask, cubed-java, Dask, ...) ``--repeat``
times and the median of each is printed with the ratio cubed-java / Dask. The cubed-java result is
checked against Dask's (``xr.testing.assert_allclose``); a mismatch or failure is printed instead
of a time. The last lines give the median ratio and the operations above 3x.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time

import numpy as np
import xarray as xr

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "python", "tests"))
import xarray_ops44  # noqa: E402

EXTRA = {
    # the list's coarsen(time=2) needs an even length; 1095 days are trimmed to 1094
    "coarsen": lambda ds, b, tmp: ds.t.coarsen(time=2, boundary="trim").mean(),
    "rolling7": lambda ds, b, tmp: ds.t.rolling(time=7).mean(),
    "rolling30": lambda ds, b, tmp: ds.t.rolling(time=30).mean(),
}


def register_chunk_manager():
    """Registers cubed-java with xarray when the package is on PYTHONPATH but not installed (no
    entry point): xarray then lists it as when installed."""
    from xarray.namedarray import parallelcompat

    if "cubed-java" in parallelcompat.list_chunkmanagers():
        return
    from cubed_java.xarray_chunkmanager import CubedJavaChunkManager

    listed = parallelcompat.list_chunkmanagers
    parallelcompat.list_chunkmanagers = lambda: {**listed(), "cubed-java": CubedJavaChunkManager()}


def dataset(nt, nx, ny):
    rng = np.random.default_rng(2024)
    t = rng.random((nt, nx, ny))
    t[rng.random(t.shape) < 0.01] = np.nan
    p = rng.random((nt, nx))
    zone = np.arange(nx) % 3
    return xr.Dataset(
        {"t": (("time", "x", "y"), t), "p": (("time", "x"), p)},
        coords={"time": np.arange(nt).astype("timedelta64[D]") + np.datetime64("2000-01-01", "ns"),
                "x": np.arange(nx) * 1.5, "y": np.arange(ny), "zone": ("x", zone)})


class Dask:
    name = None

    def zarr_roundtrip(self, ds, folder):
        path = os.path.join(folder, "rt.zarr")
        ds.to_zarr(path)
        return xr.open_zarr(path, chunks={})


class CubedJava(xarray_ops44.Backend):
    def __init__(self):
        super().__init__("cubed-java")


def timed(f, ds, b, tmp):
    t0 = time.perf_counter()
    r = f(ds, b, tmp)
    v = r.compute()
    return time.perf_counter() - t0, v


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--nt", type=int, default=1095)
    ap.add_argument("--nx", type=int, default=90)
    ap.add_argument("--ny", type=int, default=180)
    ap.add_argument("--chunk", type=int, default=100)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--only", default="", help="comma-separated operation names")
    args = ap.parse_args(argv)
    register_chunk_manager()
    ops = dict(xarray_ops44.OPS, **EXTRA)
    if args.only:
        ops = {k: ops[k] for k in args.only.split(",")}
    eager = dataset(args.nt, args.nx, args.ny)
    chunks = {"time": args.chunk}
    dask_b, cj_b = Dask(), CubedJava()
    lazy = {}
    for b in (dask_b, cj_b):
        lazy[b] = eager.chunk(chunks, chunked_array_type=b.name).assign_coords(
            zone=("x", eager.zone.values))
    print(f"input t{eager.t.shape} float64 + p{eager.p.shape}, chunks {chunks}, "
          f"median of {args.repeat} interleaved runs (build + compute)", flush=True)
    print(f"{'operation':26s} {'dask s':>8s} {'cubed-java s':>12s} {'ratio':>6s}", flush=True)
    ratios = {}
    with tempfile.TemporaryDirectory(prefix="opstimes-") as tmp:
        for name, f in ops.items():
            times = {dask_b: [], cj_b: []}
            note = ""
            try:
                for r in range(args.repeat):
                    vals = {}
                    for b in (dask_b, cj_b):
                        sub = os.path.join(tmp, f"{name}-{r}-{'d' if b is dask_b else 'j'}")
                        os.makedirs(sub)
                        dt, vals[b] = timed(f, lazy[b], b, sub)
                        times[b].append(dt)
                    if r == 0:
                        xr.testing.assert_allclose(vals[dask_b], vals[cj_b])
            except Exception as e:  # report and go on with the next operation
                note = f"{type(e).__name__}: {str(e).splitlines()[0][:100] if str(e) else ''}"
            if note or not times[cj_b] or len(times[cj_b]) < args.repeat:
                print(f"{name:26s} {note}", flush=True)
                continue
            d, j = statistics.median(times[dask_b]), statistics.median(times[cj_b])
            ratios[name] = j / d
            print(f"{name:26s} {d:8.3f} {j:12.3f} {j / d:6.1f}", flush=True)
    if ratios:
        print(f"median ratio {statistics.median(ratios.values()):.2f} over {len(ratios)} "
              f"operations; above 3x: "
              + ", ".join(f"{k} {v:.1f}" for k, v in sorted(ratios.items(), key=lambda kv: -kv[1])
                          if v > 3), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
