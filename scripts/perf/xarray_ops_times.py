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

import xarray as xr

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "python", "tests"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import xarray_ops44  # noqa: E402
from xarray_timing import add_size_arguments, dataset, interleaved, register_chunk_manager  # noqa: E402

EXTRA = {
    # the list's coarsen(time=2) needs an even length; 1095 days are trimmed to 1094
    "coarsen": lambda ds, b, tmp: ds.t.coarsen(time=2, boundary="trim").mean(),
    "rolling7": lambda ds, b, tmp: ds.t.rolling(time=7).mean(),
    "rolling30": lambda ds, b, tmp: ds.t.rolling(time=30).mean(),
}


class Dask:
    name = None

    def zarr_roundtrip(self, ds, folder):
        path = os.path.join(folder, "rt.zarr")
        ds.to_zarr(path)
        return xr.open_zarr(path, chunks={})


class CubedJava(xarray_ops44.Backend):
    def __init__(self):
        super().__init__("cubed-java")


def run(f, ds, b, folder, repeat):
    """Round r of operation `f` on backend `b`: builds the result (in its folder, `folder` formatted
    with r, made here for every round beforehand) and computes it; interleaved() times both."""
    for r in range(repeat):
        os.makedirs(folder.format(r))

    def go(r):
        return f(ds, b, folder.format(r)).compute()
    return go


def check(r, values):
    """The first round's cubed-java result must match Dask's."""
    if r == 0:
        xr.testing.assert_allclose(values[0], values[1])


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_size_arguments(ap, repeat=3)
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
            times = ([], [])
            note = ""
            try:
                times = interleaved(
                    [run(f, lazy[b], b, os.path.join(tmp, f"{name}-{{}}-{k}"), args.repeat)
                     for b, k in ((dask_b, "d"), (cj_b, "j"))],
                    args.repeat, check=check)
            except Exception as e:  # report and go on with the next operation
                note = f"{type(e).__name__}: {str(e).splitlines()[0][:100] if str(e) else ''}"
            if note or len(times[1]) < args.repeat:
                print(f"{name:26s} {note}", flush=True)
                continue
            d, j = statistics.median(times[0]), statistics.median(times[1])
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
