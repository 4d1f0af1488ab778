#!/usr/bin/env python3
"""The five workloads of docs/benchmarks.md in plain NumPy, in memory: the baseline for ./cubed bench.

Usage: workloads_numpy.py WORKLOAD --size small|medium
Prints the one JSON line of docs/benchmarks.md. Stored inputs (quadratic_means, rechunk) are built
before the timed phase; generated inputs (add, matmul, reduce) are built inside it, as the
workload definitions say. NumPy holds whole arrays in memory, so peak RSS is the whole problem.
"""
import argparse
import json
import resource
import sys
import time

import numpy as np

G = 0.6180339887498949
S = 0.41421356237309515

SIZES = {
    "quadratic_means": {"small": dict(T=50, Y=247, X=480, tchunk=10),
                        "medium": dict(T=100, Y=987, X=1920, tchunk=10)},
    "add": {"small": dict(n=2500, m=2500, c=500), "medium": dict(n=14000, m=14000, c=2000)},
    "matmul": {"small": dict(n=2500, c=500), "medium": dict(n=12000, c=2000)},
    "rechunk": {"small": dict(T=200, Y=250, X=250, yc=50, xc=50),
                "medium": dict(T=1000, Y=600, X=600, yc=100, xc=100)},
    "reduce": {"small": dict(n=3500, m=3500, c=700), "medium": dict(n=20000, m=20000, c=2000)},
}


def idx(n, start=0):
    """The indices start .. start+n-1 as float64 (exact below 2**53)."""
    return np.arange(start, start + n, dtype=np.float64)


# The formulas of docs/benchmarks.md; the optional origins give the block of an array whose first
# element has those global indices (scripts/perf/write_inputs_zarr_python.py writes block by block).

def make_a(n, m, i0=0, j0=0):
    return 0.5 + 0.5 * np.sin(G * idx(n, i0)[:, None] + idx(m, j0)[None, :])


def make_b(n, m, i0=0, j0=0):
    return 0.5 + 0.5 * np.cos(G * idx(n, i0)[:, None] - idx(m, j0)[None, :])


def make_x(T, Y, X, t0=0, y0=0, x0=0):
    return 0.5 + 0.5 * np.sin(G * idx(T, t0)[:, None, None] + S * idx(Y, y0)[None, :, None]
                             + idx(X, x0)[None, None, :])


def _tyx4(T, Y, X, t0, y0, x0):
    return (idx(T, t0)[:, None, None, None], idx(Y, y0)[None, None, :, None],
            idx(X, x0)[None, None, None, :])


def make_u(T, Y, X, t0=0, y0=0, x0=0):
    t, y, x = _tyx4(T, Y, X, t0, y0, x0)
    return 0.5 + 0.5 * np.sin(G * t + S * y + x)


def make_v(T, Y, X, t0=0, y0=0, x0=0):
    t, y, x = _tyx4(T, Y, X, t0, y0, x0)
    return 0.5 + 0.5 * np.cos(G * t - S * y + x)


def make_uv(T, Y, X, t0=0):
    return make_u(T, Y, X, t0), make_v(T, Y, X, t0)


def run(workload, p):
    if workload == "quadratic_means":
        u, v = make_uv(p["T"], p["Y"], p["X"])
        t0 = time.perf_counter()
        uu = np.mean(u * u, axis=0)
        vv = np.mean(v * v, axis=0)
        uv = np.mean(u * v, axis=0)
        sums = {"sum_uu": float(uu.sum()), "sum_vv": float(vv.sum()), "sum_uv": float(uv.sum())}
        return time.perf_counter() - t0, sums
    if workload == "add":
        t0 = time.perf_counter()
        c = make_a(p["n"], p["m"]) + make_b(p["n"], p["m"])
        sums = {"sum": float(c.sum())}
        return time.perf_counter() - t0, sums
    if workload == "matmul":
        t0 = time.perf_counter()
        r = make_a(p["n"], p["n"]) @ make_b(p["n"], p["n"])
        sums = {"sum": float(r.sum())}
        return time.perf_counter() - t0, sums
    if workload == "rechunk":
        x = make_x(p["T"], p["Y"], p["X"])
        t0 = time.perf_counter()
        out = np.ascontiguousarray(x)  # in memory a rechunk is a copy
        T, Y, X = out.shape
        w = ((idx(T)[:, None, None] + 2 * idx(Y)[None, :, None] + 3 * idx(X)[None, None, :]) % 7)
        sums = {"sum": float(out.sum()), "weighted_sum": float((out * w).sum()),
                "chunks": [p["T"], p["yc"], p["xc"]]}
        return time.perf_counter() - t0, sums
    if workload == "reduce":
        t0 = time.perf_counter()
        a = make_a(p["n"], p["m"])
        mean = a.mean(axis=0)
        am = a.argmax(axis=1)
        i = np.arange(am.shape[0])
        sums = {"mean_sum": float(mean.sum()), "mean_sumsq": float((mean * mean).sum()),
                "argmax_sum": int(am.sum()), "argmax_weighted": int((am * (i % 1000)).sum())}
        return time.perf_counter() - t0, sums
    raise SystemExit(f"unknown workload {workload}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("workload", choices=sorted(SIZES))
    ap.add_argument("--size", choices=["small", "medium"], default="small")
    a = ap.parse_args()
    p = SIZES[a.workload][a.size]
    wall, sums = run(a.workload, p)
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    print(json.dumps({"workload": a.workload, "size": a.size, "params": p, "executor": "numpy",
                      "workers": 1, "allowed_mem": None, "wall_seconds": round(wall, 4),
                      "peak_rss_bytes": rss, "intermediate_bytes": 0, "tasks": 0,
                      "max_projected_mem": None, "checksums": sums, "inputs": "numpy"}))


if __name__ == "__main__":
    main()
