"""groupby/resample through xarray on a generated Zarr dataset: plan figures and wall time.

    python scripts/perf/groupby_xarray.py DIR [--days 3650] [--ny 200] [--nx 360]
        [--chunk-days 30] [--allowed-mem 2GB] [--path accessor|plain|both] [--ops mean,sum,...]

Writes (once) DIR/ds.zarr: float32 ``t`` (time, y, x) chunked (chunk-days, ny, nx) with a daily
time coordinate (3650 x 200 x 360 float32 = 1.05 GB; --ny 720 --nx 1000 gives 10.5 GB), through
the engine (``cubed_java.to_zarr_dataset``), then for each reduction builds it with xarray's own
``ds.groupby("time.month").<op>()`` ("plain": xarray's non-flox path, per group) and with
``ds.cubed_java.groupby("time.month").<op>()`` ("accessor": the engine's groupbyReduce), prints
the plan's ops and tasks and computes it (time). Run under ``/usr/bin/time -v`` for the peak RSS
of Python; the JVM's peak is printed from /proc (VmHWM of the bridge process).
"""
import argparse
import os
import time

import numpy as np
import pandas as pd
import xarray as xr

import cubed_java
import cubed_java.random
from cubed_java.xarray_groupby import plan_figures


def jvm_hwm():
    from cubed_java._bridge import session

    proc = getattr(session(), "_proc", None) or getattr(session(), "proc", None)
    pid = getattr(proc, "pid", None)
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmHWM"):
                    return line.split(":")[1].strip()
    except OSError:
        return "?"
    return "?"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir")
    ap.add_argument("--days", type=int, default=3650)
    ap.add_argument("--ny", type=int, default=200)
    ap.add_argument("--nx", type=int, default=360)
    ap.add_argument("--chunk-days", type=int, default=30)
    ap.add_argument("--allowed-mem", default="2GB")
    ap.add_argument("--path", default="both")
    ap.add_argument("--ops", default="mean,sum,min,max,count,resample_mean")
    ap.add_argument("--compute-plain", action="store_true",
                    help="also compute xarray's plain path (slow on big data)")
    a = ap.parse_args()
    cubed_java.configure(allowed_mem=a.allowed_mem)
    path = os.path.join(a.dir, "ds.zarr")
    if not os.path.exists(path):
        t0 = time.time()
        t = pd.date_range("2000-01-01", periods=a.days)
        data = cubed_java.random.random((a.days, a.ny, a.nx), chunks=(a.chunk_days, a.ny, a.nx))
        data = cubed_java.astype(data, cubed_java.float32)
        ds = xr.Dataset({"t": (("time", "y", "x"), data)}, coords={"time": t})
        cubed_java.to_zarr_dataset(ds, path)
        print(f"wrote {path}: {a.days}x{a.ny}x{a.nx} float32"
              f" ({a.days * a.ny * a.nx * 4 / 1e9:.2f} GB) in {time.time() - t0:.1f} s")
    ds = cubed_java.open_dataset(path, chunks={"time": a.chunk_days})
    paths = ["plain", "accessor"] if a.path == "both" else [a.path]
    for op in a.ops.split(","):
        for p in paths:
            src = ds if p == "plain" else ds.cubed_java
            if op.startswith("resample_"):
                g, f = src.resample(time="1MS"), op[len("resample_"):]
            else:
                g, f = src.groupby("time.month"), op
            t0 = time.time()
            r = getattr(g, f)()
            built = time.time() - t0
            fig = plan_figures(r)
            line = (f"{op:14s} {p:8s} ops={fig['ops']:5d} tasks={fig['tasks']:7d}"
                    f" max_task_mem={fig['max_projected_mem'] / 1e6:8.1f}MB build={built:6.1f}s")
            if p == "accessor" or a.compute_plain:
                t0 = time.time()
                r.compute()
                line += f" compute={time.time() - t0:7.1f}s jvm_hwm={jvm_hwm()}"
            print(line, flush=True)


if __name__ == "__main__":
    main()
