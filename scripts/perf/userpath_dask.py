#!/usr/bin/env python3
"""The user-path inputs (written by zarr-python) and the expressions' Dask counterparts.

    userpath_dask.py write --size small|medium --dir DIR
    userpath_dask.py run EXPRESSION --dir DIR --out OUT [--workers 2] [--size LABEL]
    userpath_dask.py floor EXPRESSION --dir DIR [--workers 2] [--size LABEL]

Run it with the anchors' Python (scripts/perf/make-anchors-env.sh builds one: zarr-python 3,
dask). `write` writes U, V (4-D), A, B (2-D), R and N (3-D) float64 and the mask M (bool, U's
shape) as DIR/NAME.zarr with `zarr.create_array(..., dtype=...)` and no codec arguments
(zarr-python's defaults: Zarr v3, zstd), block by block, from the formulas of docs/benchmarks.md
(the code of workloads_numpy.py; M is V > 0.5, N is R's formula with NaN where (t + y + x) % 10 == 0);
DIR/inputs.json records the arrays written, and a second `write` of the same size writes only
those missing. `run` runs one expression in Dask (threads scheduler, --workers threads) on those
stores and prints one JSON line with the fields of ./cubed bench (wall_seconds of the timed
phase, peak_rss_bytes of this process, checksums). `floor` reads and decodes the expression's
inputs once, chunk file by chunk file with numcodecs' zstd into a reused buffer per thread
(--workers threads), and prints the same JSON line: the Python side of the read-once floor. The
same expressions on this engine: dev.cubed.bench.userpath.UserPath (./cubed bench-user); the
checksums are the same quantities.
"""
import argparse
import json
import os
import resource
import shutil
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import workloads_numpy as formulas  # noqa: E402  (the input formulas: one copy of them)

SIZES = {
    # U, V: (T, 1, Y, X) chunks (tchunk, 1, Y, X); A, B: (n, n) chunks (c, c); R: (RT, RY, RX)
    # chunks (1, RY, RX); N: R's shape, chunks (10, RY, RX); M: U's shape and chunks (bool)
    "small": dict(T=50, Y=247, X=480, tchunk=10, n=2500, c=500, RT=200, RY=300, RX=300),
    "medium": dict(T=100, Y=987, X=1920, tchunk=10, n=12000, c=2000, RT=500, RY=600, RX=600),
}
EXPRESSIONS = ["quadratic_means", "where_chain", "std_time", "mean_argmax", "rechunk",
               "add_to_zarr", "broadcast_row", "slice_sum", "concat_sum", "cumsum_to_zarr",
               "slice_row_mean", "concat_mean", "where_mask_sum", "nanmean_time"]
INPUTS = {"quadratic_means": "UV", "where_chain": "UV", "std_time": "U", "mean_argmax": "A",
          "rechunk": "R", "add_to_zarr": "AB", "broadcast_row": "AB", "slice_sum": "A",
          "concat_sum": "AB", "cumsum_to_zarr": "R", "slice_row_mean": "AB", "concat_mean": "AB",
          "where_mask_sum": "MU", "nanmean_time": "N"}
ARRAYS = "UVMABRN"


def nan_tenth(block, t0):
    """block (k, Y, X) of N starting at time t0, NaN where (t + y + x) % 10 == 0: a tenth of the
    elements, a tenth of each time series (none is all NaN)."""
    k, y, x = block.shape
    t = np.arange(t0, t0 + k)[:, None, None]
    block[(t + np.arange(y)[None, :, None] + np.arange(x)[None, None, :]) % 10 == 0] = np.nan
    return block


def write(size, d):
    import zarr
    p = SIZES[size]
    marker = os.path.join(d, "inputs.json")
    want = {"size": size, "params": p, "writer": "zarr-python " + zarr.__version__}
    done = []
    if os.path.exists(marker):
        with open(marker) as f:
            have = json.load(f)
        if {k: have.get(k) for k in want} == want:
            done = have.get("arrays", list("UVABR"))
    todo = [n for n in ARRAYS if n not in done]
    if not todo:
        print("userpath inputs: %s already holds size %s" % (d, size), file=sys.stderr)
        return
    os.makedirs(d, exist_ok=True)

    def create(name, shape, chunks, dtype="float64"):
        return zarr.create_array(store=os.path.join(d, name + ".zarr"), shape=shape,
                                 chunks=chunks, dtype=dtype, overwrite=True)

    T, Y, X, tc = p["T"], p["Y"], p["X"], p["tchunk"]
    if any(n in todo for n in "UVM"):
        u = create("U", (T, 1, Y, X), (tc, 1, Y, X)) if "U" in todo else None
        v = create("V", (T, 1, Y, X), (tc, 1, Y, X)) if "V" in todo else None
        m = create("M", (T, 1, Y, X), (tc, 1, Y, X), "bool") if "M" in todo else None
        for t0 in range(0, T, tc):
            k = min(tc, T - t0)
            bu, bv = formulas.make_uv(k, Y, X, t0)
            for z, block in ((u, bu), (v, bv), (m, bv > 0.5)):
                if z is not None:
                    z[t0:t0 + k] = block
    n, c = p["n"], p["c"]
    for name, make in (("A", formulas.make_a), ("B", formulas.make_b)):
        if name in todo:
            z = create(name, (n, n), (c, c))
            for i0 in range(0, n, c):
                z[i0:i0 + min(c, n - i0)] = make(min(c, n - i0), n, i0)
    RT, RY, RX = p["RT"], p["RY"], p["RX"]
    if "R" in todo:
        r = create("R", (RT, RY, RX), (1, RY, RX))
        for t0 in range(0, RT, 10):
            k = min(10, RT - t0)
            r[t0:t0 + k] = formulas.make_x(k, RY, RX, t0)
    if "N" in todo:
        z = create("N", (RT, RY, RX), (10, RY, RX))
        for t0 in range(0, RT, 10):
            k = min(10, RT - t0)
            z[t0:t0 + k] = nan_tenth(formulas.make_x(k, RY, RX, t0), t0)
    want["arrays"] = done + todo
    with open(marker, "w") as f:
        json.dump(want, f)
    print("userpath inputs: wrote %s of size %s into %s" % (", ".join(todo), size, d),
          file=sys.stderr)


def total(x):
    return float(np.sum(np.asarray(x, dtype=np.float64)))


def run(expr, d, out, workers):
    """The expression in Dask; returns (wall seconds of the timed phase, checksums)."""
    import dask
    import dask.array as da

    def open_(name):
        return da.from_zarr(os.path.join(d, name + ".zarr"))

    os.makedirs(out, exist_ok=True)
    for name in ("rechunked.zarr", "sum_ab.zarr", "cumsum.zarr"):
        shutil.rmtree(os.path.join(out, name), ignore_errors=True)
    with dask.config.set(scheduler="threads", num_workers=workers):
        t0 = time.perf_counter()
        if expr == "quadratic_means":
            u, v = open_("U"), open_("V")
            uu, vv, uv = dask.compute((u * u).mean(0), (v * v).mean(0), (u * v).mean(0))
            sums = {"sum_uu": total(uu), "sum_vv": total(vv), "sum_uv": total(uv)}
        elif expr == "where_chain":
            u, v = open_("U"), open_("V")
            s = da.where(u > 0.5, da.sqrt(u * v), da.exp(-u)).sum().compute()
            sums = {"sum": float(s)}
        elif expr == "std_time":
            u = open_("U")
            std = da.sqrt(((u - u.mean(0, keepdims=True)) ** 2).mean(0)).compute()
            sums = {"sum": total(std)}
        elif expr == "mean_argmax":
            a = open_("A")
            mean, am = dask.compute(a.mean(0), a.argmax(1))
            i = np.arange(am.shape[0])
            sums = {"mean_sum": total(mean), "argmax_sum": int(am.sum()),
                    "argmax_weighted": int((am * (i % 1000)).sum())}
        elif expr == "rechunk":
            r = open_("R")
            target = (r.shape[0], max(1, r.shape[1] // 6), max(1, r.shape[2] // 6))
            r.rechunk(target).to_zarr(os.path.join(out, "rechunked.zarr"), overwrite=True)
            sums = {"chunks": list(target)}
        elif expr == "add_to_zarr":
            a, b = open_("A"), open_("B")
            (a + b).to_zarr(os.path.join(out, "sum_ab.zarr"), overwrite=True)
            sums = {"sum": float(da.from_zarr(os.path.join(out, "sum_ab.zarr")).sum().compute())}
        elif expr == "broadcast_row":
            a, b = open_("A"), open_("B")
            sums = {"sum": float((a * b[0, :]).sum().compute())}
        elif expr == "slice_sum":
            a = open_("A")
            n = a.shape[0]
            sums = {"sum": float(a[n // 12:3 * n // 4:2, ::3].sum().compute())}
        elif expr == "concat_sum":
            a, b = open_("A"), open_("B")
            sums = {"sum": float(da.concatenate([a, b], axis=0).sum().compute())}
        elif expr == "cumsum_to_zarr":
            r = open_("R")
            da.cumsum(r, axis=0).to_zarr(os.path.join(out, "cumsum.zarr"), overwrite=True)
            sums = {}
        elif expr == "slice_row_mean":
            a, b = open_("A"), open_("B")
            sums = {"sum": total((a[1::2, :] * b[0, :]).mean(axis=0).compute())}
        elif expr == "concat_mean":
            a, b = open_("A"), open_("B")
            sums = {"sum": total(da.concatenate([a, b], axis=0).mean(axis=0).compute())}
        elif expr == "where_mask_sum":
            m, u = open_("M"), open_("U")
            sums = {"sum": total(da.where(m, u, 0).sum(axis=0).compute())}
        elif expr == "nanmean_time":
            nn = open_("N")
            sums = {"sum": total(da.nanmean(nn, axis=0).compute())}
        else:
            raise SystemExit("userpath_dask.py: unknown expression %r (known: %s)"
                             % (expr, ", ".join(EXPRESSIONS)))
        wall = time.perf_counter() - t0
        if expr == "rechunk":  # after the timed phase, as on the engine
            back = da.from_zarr(os.path.join(out, "rechunked.zarr"))
            sums["chunks"] = list(back.chunksize)
            sums["sum"] = float(back.sum().compute())
        if expr == "cumsum_to_zarr":
            back = da.from_zarr(os.path.join(out, "cumsum.zarr"))
            sums["sum"] = float(back.sum().compute())
            sums["last_sum"] = float(back[-1].sum().compute())
    return wall, sums


def floor(expr, d, workers):
    """Reads and decodes the expression's inputs once (numcodecs' zstd, chunk files in --workers
    threads, one reused output buffer per thread); returns (wall seconds, decoded bytes)."""
    import zstd_chunks

    jobs = []
    for name in INPUTS[expr]:
        root = os.path.join(d, name + ".zarr")
        codecs, size = zstd_chunks.layout(root)
        if codecs != ["bytes", "zstd"]:
            raise SystemExit("userpath_dask.py floor: %s has codecs %s, not zarr-python's default "
                             "bytes + zstd" % (root, codecs))
        jobs += zstd_chunks.chunk_files(root, size)
    t0 = time.perf_counter()
    n = zstd_chunks.decode_all(jobs, workers)
    return time.perf_counter() - t0, n


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    w = sub.add_parser("write", help="write the inputs with zarr-python's defaults")
    w.add_argument("--size", choices=sorted(SIZES), default="small")
    w.add_argument("--dir", required=True)
    r = sub.add_parser("run", help="run one expression in Dask and print its JSON line")
    r.add_argument("expression", choices=EXPRESSIONS)
    r.add_argument("--dir", required=True)
    r.add_argument("--out", required=True, help="directory for the arrays it writes")
    r.add_argument("--workers", type=int, default=2)
    r.add_argument("--size", default="custom", help="size label for the JSON line")
    f = sub.add_parser("floor", help="read and decode the expression's inputs once (numcodecs)")
    f.add_argument("expression", choices=EXPRESSIONS)
    f.add_argument("--dir", required=True)
    f.add_argument("--workers", type=int, default=2)
    f.add_argument("--size", default="custom", help="size label for the JSON line")
    a = ap.parse_args()
    if a.cmd == "write":
        write(a.size, a.dir)
        return
    if a.cmd == "floor":
        wall, n = floor(a.expression, a.dir, a.workers)
        rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
        print(json.dumps({"workload": a.expression + ":floor", "size": a.size,
                          "executor": "numcodecs-threads", "workers": a.workers,
                          "wall_seconds": round(wall, 4), "peak_rss_bytes": rss,
                          "checksums": {"decoded_bytes": n}}))
        return
    wall, sums = run(a.expression, a.dir, a.out, a.workers)
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    print(json.dumps({"workload": a.expression, "size": a.size, "params": {},
                      "executor": "dask-threads", "workers": a.workers, "allowed_mem": None,
                      "wall_seconds": round(wall, 4), "peak_rss_bytes": rss,
                      "intermediate_bytes": 0, "tasks": 0, "max_projected_mem": None,
                      "checksums": sums}))


if __name__ == "__main__":
    main()
