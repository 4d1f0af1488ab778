"""An xarray user's everyday workflow in Dask, Python Cubed and cubed-java, side by side.

    python scripts/perf/xarray_workflow.py DIR [--nt 4000] [--ny 360] [--nx 360]
        [--engines dask,cubed,cubed-java] [--workflows anom,anom_rolling] [--allowed-mem 2GB]
        [--python PYTHON] [--repeat 1] [--timeout 3600] [--max-rss 16GB] [--check-tiles 3]
        [--tile-points 0]

Writes (once) DIR/input-NTxNYxNX.zarr: float32 ``tas`` (time, lat, lon), a daily time axis, a
seasonal cycle plus noise, ~10% of the grid NaN (land) and 1% random NaNs, written by xarray
with zarr-python's defaults (Zarr v3, zstd, the chunks zarr picks for the whole array; written in
time slabs appended one after another, so memory stays small at any size). Then, for each
workflow and engine, in a fresh process (one at a time, in the order given):

    ds = xr.open_zarr(input, chunks={"time": 100}, chunked_array_type=ENGINE)
    anom = ds.groupby("time.month") - ds.groupby("time.month").mean()
    anom = anom.rolling(time=30).mean()                         # workflow anom_rolling only
    anom.chunk({"time": 100, "lat": -1, "lon": -1}).to_zarr(DIR/out-...zarr)

(``.chunk`` runs under ``xr.set_options(chunk_manager=ENGINE)``, so it keeps the engine). The
wall time is the process's (imports and JVM start included) and the workflow's own (open to
written); the peak RSS is the sum of VmRSS over the whole process tree (Python, the JVM, its
Python workers), sampled every 100 ms. Every output is compared with Dask's (same NaNs, values
within 16 float32 epsilons of the input's magnitude); where Dask gave no result (not run, or
stopped by ``--timeout`` or ``--max-rss``, which kill the run's whole process tree), the output is
compared instead with Dask's result of the same workflow on ``--check-tiles`` lat/lon tiles of the
input over the whole time axis, each tile in Dask chunks of 1000 time steps (each grid point
depends only on its own time series); ``--tile-points P`` makes each tile the first PxP grid points
of its chunk tile (Dask's graph for the workflow grows with the time axis, not the tile: about 50
tasks per time step for the rolling workflow, so small tiles keep the check to minutes).
Prints a markdown table.

Engines: ``dask`` (threads), ``cubed`` (Python Cubed through cubed-xarray, threads executor,
``allowed_mem``), ``cubed-java`` (this repository: ``python/`` and the built jars, found through
CUBED_JAVA_HOME, default the repository's root; the ``xarray.chunkmanagers`` entry point is
registered through a small dist-info folder in DIR, so no install is needed), and
``cubed-java-1plan``: the same, written by ``cubed_java.to_zarr_dataset`` (the whole write one
plan) instead of xarray's ``to_zarr`` (which goes through the chunk manager's ``store``).
``--python`` is the interpreter with xarray, zarr-python 3, Dask and (for ``cubed``) cubed + cubed-xarray; default
/work/pyenv-anchors/bin/python when it exists, else this interpreter.
"""
import argparse
import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
WORKFLOWS = ("anom", "anom_rolling")
ENGINES = ("dask", "cubed", "cubed-java", "cubed-java-1plan")
UNITS = {"KB": 10**3, "MB": 10**6, "GB": 10**9}


def _bytes(s):
    s = s.strip().upper()
    for u, f in UNITS.items():
        if s.endswith(u):
            return int(float(s[:-len(u)]) * f)
    return int(s)


# ---------------------------------------------------------------------------------------------
# children (run under --python)

def write_input(path, nt, ny, nx):
    """The input, in time slabs appended to one store (chunks: zarr's guess for the whole)."""
    import numpy as np
    import pandas as pd
    import xarray as xr
    from zarr.core.chunk_grids import _guess_chunks

    chunks = _guess_chunks((nt, ny, nx), 4)
    rng = np.random.default_rng(42)
    land = rng.random((ny, nx)) < 0.10
    slab = chunks[0] * max(1, int(250e6 // (chunks[0] * ny * nx * 4)))
    times = pd.date_range("2000-01-01", periods=nt, freq="D")
    for t0 in range(0, nt, slab):
        t = times[t0:t0 + slab]
        doy = t.dayofyear.values.astype(np.float32)
        lat = np.linspace(-89.5, 89.5, ny, dtype=np.float32)
        base = 288 - 30 * np.abs(np.sin(np.deg2rad(lat)))[None, :, None]
        season = (10 * np.sin(2 * np.pi * doy / 365.25))[:, None, None]
        x = (base + season + rng.standard_normal((len(t), ny, nx), dtype=np.float32)).astype(
            np.float32)
        x[:, land] = np.nan
        x[rng.random(x.shape) < 0.01] = np.nan
        ds = xr.Dataset({"tas": (("time", "lat", "lon"), x)},
                        coords={"time": t, "lat": lat, "lon": np.arange(nx, dtype=np.float32)})
        if t0 == 0:
            ds.to_zarr(path, mode="w", encoding={"tas": {"chunks": chunks}}, consolidated=True)
        else:
            ds.to_zarr(path, append_dim="time", consolidated=True)
    print(json.dumps({"written": path, "chunks": list(chunks)}))


def _anomalies(ds, workflow):
    """The workflow's lazy result on any chunk manager (the lines timed by run_workflow)."""
    anom = ds.groupby("time.month") - ds.groupby("time.month").mean()
    if workflow == "anom_rolling":
        anom = anom.rolling(time=30).mean()
    return anom


def run_workflow(engine, workflow, src, out, allowed_mem, work_dir):
    t_start = time.time()
    import xarray as xr

    one_plan = engine == "cubed-java-1plan"
    engine = "cubed-java" if one_plan else engine
    open_kw = {"chunks": {"time": 100}}
    if engine == "cubed":
        import cubed

        spec = cubed.Spec(work_dir=work_dir, allowed_mem=allowed_mem, executor_name="threads")
        open_kw.update(chunked_array_type="cubed", from_array_kwargs={"spec": spec})
    elif engine == "cubed-java":
        import cubed_java

        cubed_java.configure(allowed_mem=allowed_mem)
        open_kw.update(chunked_array_type="cubed-java")
    t0 = time.time()
    with xr.set_options(chunk_manager=engine):
        ds = xr.open_zarr(src, **open_kw)
        anom = _anomalies(ds, workflow).chunk({"time": 100, "lat": -1, "lon": -1})
        built = time.time() - t0
        figures = None
        if engine == "cubed-java":
            from cubed_java.xarray_groupby import plan_figures

            figures = plan_figures(anom)
        if one_plan:
            cubed_java.to_zarr_dataset(anom, out, overwrite=True)
        else:
            anom.to_zarr(out, mode="w", consolidated=True)
    t1 = time.time()
    print(json.dumps({"engine": "cubed-java-1plan" if one_plan else engine, "workflow": workflow, "workflow_seconds": t1 - t0,
                      "build_seconds": built, "process_seconds_inside": t1 - t_start,
                      "plan": figures}))


def check(reference, other, src):
    """Max abs difference and whether NaNs agree, slab by slab (bounded memory)."""
    import numpy as np
    import xarray as xr

    a = xr.open_zarr(reference, chunks=None).tas
    b = xr.open_zarr(other, chunks=None).tas
    s = xr.open_zarr(src, chunks=None).tas
    assert a.shape == b.shape, (a.shape, b.shape)
    worst, nan_ok, scale = 0.0, True, 0.0
    step = 500
    for t0 in range(0, a.shape[0], step):
        x = a[t0:t0 + step].values
        y = b[t0:t0 + step].values
        scale = max(scale, float(np.nanmax(np.abs(s[t0:t0 + step].values))))
        nan_ok &= bool((np.isnan(x) == np.isnan(y)).all())
        d = np.abs(x - y)
        if np.isfinite(d).any():
            worst = max(worst, float(np.nanmax(d)))
    tol = 16 * np.finfo(np.float32).eps * scale  # Dask averages in float32, cubed-java in float64
    print(json.dumps({"max_abs_diff": float(worst), "nan_equal": bool(nan_ok), "tolerance": float(tol),
                      "equal": bool(nan_ok and worst <= tol)}))


def check_tiles(other, src, workflow, ntiles, points=0):
    """Equality with Dask where Dask cannot do the whole array in its time or memory: the same
    workflow run by Dask on ``ntiles`` lat/lon tiles of the input (the whole time axis; each
    grid point's result depends only on its own time series), compared with those tiles of
    ``other``. Tiles: the input's chunk grid in lat/lon, chosen by a fixed seed, the first always
    the grid's first tile; ``points`` > 0 cuts each tile to its first points x points grid
    points."""
    import numpy as np
    import xarray as xr

    s = xr.open_zarr(src, chunks=None).tas
    ty, tx = s.encoding["chunks"][1:]
    ny, nx = s.shape[1] // ty, s.shape[2] // tx
    picks = [0] + [int(i) for i in np.random.default_rng(7).choice(
        np.arange(1, ny * nx), size=max(0, min(ntiles, ny * nx) - 1), replace=False)]
    b = xr.open_zarr(other, chunks=None).tas
    worst, nan_ok, tiles, scale = 0.0, True, [], 0.0
    for k in picks:
        iy, ix = divmod(k, nx)
        py, px = (min(points, ty), min(points, tx)) if points > 0 else (ty, tx)
        sel = {"lat": slice(iy * ty, iy * ty + py), "lon": slice(ix * tx, ix * tx + px)}
        # few Dask chunks per tile: Dask's groupby without flox is slow on many small chunks, and
        # its rolling mean holds the window axis (30x a chunk) in memory
        tile = s.isel(sel).chunk({"time": 1000, "lat": -1, "lon": -1})
        ref = _anomalies(tile.to_dataset(), workflow).tas.compute(scheduler="threads").values
        got = b.isel(sel).values
        scale = max(scale, float(np.nanmax(np.abs(s.isel(sel).values))))
        nan_ok &= bool((np.isnan(ref) == np.isnan(got)).all())
        d = np.abs(ref - got)
        if np.isfinite(d).any():
            worst = max(worst, float(np.nanmax(d)))
        tiles.append([iy * ty, ix * tx])
    tol = 16 * np.finfo(np.float32).eps * scale
    print(json.dumps({"max_abs_diff": float(worst), "nan_equal": bool(nan_ok),
                      "tolerance": float(tol), "equal": bool(nan_ok and worst <= tol),
                      "tiles": tiles, "tile_shape": [s.shape[0], py, px]}))


# ---------------------------------------------------------------------------------------------
# the parent

def _child(python, env, *args, timeout=None, max_rss=None):
    """Runs this script's sub-command in a fresh process; returns (last JSON line, wall seconds,
    peak tree RSS bytes, return code, stderr tail). The child is killed after ``timeout`` seconds
    or when its process tree's RSS passes ``max_rss`` bytes (the stderr tail then says which)."""
    sys.path.insert(0, HERE)
    from tree_rss import tree_rss

    t0 = time.time()
    p = subprocess.Popen([python, os.path.abspath(__file__), *args], env=env,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    peak = 0
    stopped = None
    import threading

    out, err = [], []
    threads = [threading.Thread(target=lambda: out.append(p.stdout.read())),
               threading.Thread(target=lambda: err.append(p.stderr.read()))]
    for t in threads:
        t.start()
    while p.poll() is None:
        peak = max(peak, tree_rss(p.pid)[0])
        if timeout and time.time() - t0 > timeout:
            stopped = f"stopped: not done in {timeout:.0f} s"
        elif max_rss and peak > max_rss:
            stopped = f"stopped: process tree RSS over {max_rss / 1e9:.1f} GB"
        if stopped:
            _kill_tree(p.pid)
            break
        time.sleep(0.1)
    p.wait()
    for t in threads:
        t.join()
    wall = time.time() - t0
    lines = [ln for ln in "".join(out).splitlines() if ln.startswith("{")]
    rec = json.loads(lines[-1]) if lines else None
    tail = "".join(err).strip().splitlines()[-3:]
    return rec, wall, peak, p.returncode, [stopped] if stopped else tail


def _kill_tree(pid):
    """Kills the child and every process it started (a JVM under the Python child)."""
    import signal

    kids = []
    try:
        out = subprocess.run(["ps", "-o", "pid=", "--ppid", str(pid)], capture_output=True,
                             text=True).stdout
        kids = [int(x) for x in out.split()]
    except OSError:
        pass
    for k in kids:
        _kill_tree(k)
    try:
        os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


def _entry_point_dir(d):
    """A dist-info folder registering cubed-java's xarray chunk manager (no install needed)."""
    info = os.path.join(d, "ep", "cubed_java_bench-0.dist-info")
    os.makedirs(info, exist_ok=True)
    with open(os.path.join(info, "METADATA"), "w") as f:
        f.write("Metadata-Version: 2.1\nName: cubed-java-bench\nVersion: 0\n")
    with open(os.path.join(info, "entry_points.txt"), "w") as f:
        f.write("[xarray.chunkmanagers]\n"
                "cubed-java = cubed_java.xarray_chunkmanager:CubedJavaChunkManager\n")
    return os.path.join(d, "ep")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("dir")
    ap.add_argument("--nt", type=int, default=4000)
    ap.add_argument("--ny", type=int, default=360)
    ap.add_argument("--nx", type=int, default=360)
    ap.add_argument("--engines", default=",".join(ENGINES))
    ap.add_argument("--workflows", default=",".join(WORKFLOWS))
    ap.add_argument("--allowed-mem", default="2GB")
    default_py = "/work/pyenv-anchors/bin/python"
    ap.add_argument("--python", default=default_py if os.path.exists(default_py)
                    else sys.executable)
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--timeout", type=float, default=3600)
    ap.add_argument("--max-rss", default=None,
                    help="stop a run whose process tree's RSS passes this (e.g. 16GB)")
    ap.add_argument("--check-tiles", type=int, default=3,
                    help="where no Dask result of the whole array is there to compare with, "
                         "compare N lat/lon tiles with Dask's result on those tiles (0: none)")
    ap.add_argument("--tile-points", type=int, default=0,
                    help="with --check-tiles: each tile's first PxP grid points only (0: the "
                         "whole chunk tile)")
    a = ap.parse_args()
    os.makedirs(a.dir, exist_ok=True)
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        [_entry_point_dir(a.dir), os.path.join(ROOT, "python")]
        + ([env["PYTHONPATH"]] if env.get("PYTHONPATH") else []))
    env.setdefault("CUBED_JAVA_HOME", ROOT)
    src = os.path.join(a.dir, f"input-{a.nt}x{a.ny}x{a.nx}.zarr")
    if not os.path.exists(os.path.join(src, "zarr.json")):
        rec, wall, _, rc, err = _child(a.python, env, "_write", src, str(a.nt), str(a.ny),
                                       str(a.nx))
        if rc:
            sys.exit(f"writing the input failed: {err}")
        print(f"wrote {src} ({a.nt * a.ny * a.nx * 4 / 1e9:.2f} GB, chunks {rec['chunks']})"
              f" in {wall:.0f} s", flush=True)
    gb = a.nt * a.ny * a.nx * 4 / 1e9
    rows = []
    for wf in a.workflows.split(","):
        ref = None
        for eng in a.engines.split(","):
            for rep in range(a.repeat):
                out = os.path.join(a.dir, f"out-{wf}-{eng}.zarr")
                work = os.path.join(a.dir, f"work-{eng}")
                os.makedirs(work, exist_ok=True)
                rec, wall, peak, rc, err = _child(
                    a.python, env, "_run", eng, wf, src, out, str(_bytes(a.allowed_mem)), work,
                    timeout=a.timeout, max_rss=_bytes(a.max_rss) if a.max_rss else None)
                row = {"workflow": wf, "engine": eng, "repeat": rep, "process_seconds": wall,
                       "peak_tree_rss": peak, "ok": rc == 0 and rec is not None}
                if row["ok"]:
                    row.update(rec)
                    if eng == "dask" and ref is None:
                        ref = out
                    elif ref is not None:
                        c, _, _, rc2, err2 = _child(a.python, env, "_check", ref, out, src)
                        row["check"] = c if rc2 == 0 else {"error": err2}
                    elif eng != "dask" and a.check_tiles > 0:
                        c, _, _, rc2, err2 = _child(a.python, env, "_check_tiles", out, src, wf,
                                                    str(a.check_tiles), str(a.tile_points))
                        row["check"] = c if rc2 == 0 else {"error": err2}
                else:
                    row["error"] = err
                rows.append(row)
                print(json.dumps(row), flush=True)
    print()
    print(f"tas float32 {a.nt}x{a.ny}x{a.nx} ({gb:.2f} GB), allowed_mem {a.allowed_mem}, "
          f"{os.cpu_count()} cores; one process at a time")
    print()
    print("| workflow | engine | workflow time (s) | process time (s) | peak RSS, process tree"
          " (GB) | plan (ops / tasks) | equal to Dask |")
    print("|---|---|---|---|---|---|---|")
    for r in rows:
        if not r["ok"]:
            err = " ".join(r.get("error") or [])[-120:].replace("|", "/")
            print(f"| {r['workflow']} | {r['engine']} | failed after {r['process_seconds']:.0f}"
                  f" s | | {r['peak_tree_rss'] / 1e9:.2f} | | {err} |")
            continue
        plan = r.get("plan")
        plan = f"{plan['ops']} / {plan['tasks']}" if plan else ""
        chk = r.get("check")
        eq = "(reference)" if r["engine"] == "dask" else (
            "?" if not chk else "error" if "error" in chk else
            f"{'yes' if chk['equal'] else 'NO'} (max diff {chk['max_abs_diff']:.1e}"
            + (f", Dask on {len(chk['tiles'])} tiles of {'x'.join(map(str, chk['tile_shape']))}"
               if "tiles" in chk else "") + ")")
        print(f"| {r['workflow']} | {r['engine']} | {r['workflow_seconds']:.1f} |"
              f" {r['process_seconds']:.1f} | {r['peak_tree_rss'] / 1e9:.2f} | {plan} | {eq} |")


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "_write":
        write_input(sys.argv[2], *map(int, sys.argv[3:6]))
    elif len(sys.argv) > 1 and sys.argv[1] == "_run":
        run_workflow(sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5], int(sys.argv[6]),
                     sys.argv[7])
    elif len(sys.argv) > 1 and sys.argv[1] == "_check":
        check(*sys.argv[2:5])
    elif len(sys.argv) > 1 and sys.argv[1] == "_check_tiles":
        check_tiles(sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5]),
                    int(sys.argv[6]) if len(sys.argv) > 6 else 0)
    else:
        main()
