"""What the xarray timing scripts (compute_overhead.py, xarray_ops_times.py) share: registering
cubed-java with xarray when the package is only on PYTHONPATH, the input size arguments, the
everyday-operations dataset, and timing two backends interleaved (one then the other, round after
round: on a busy machine only ratios from the same rounds mean anything).
"""
from __future__ import annotations

import time

import numpy as np
import xarray as xr


def register_chunk_manager():
    """Registers cubed-java with xarray when the package is on PYTHONPATH but not installed (no
    entry point): xarray then lists it as when installed."""
    from xarray.namedarray import parallelcompat

    if "cubed-java" in parallelcompat.list_chunkmanagers():
        return
    from cubed_java.xarray_chunkmanager import CubedJavaChunkManager

    listed = parallelcompat.list_chunkmanagers
    parallelcompat.list_chunkmanagers = lambda: {**listed(), "cubed-java": CubedJavaChunkManager()}


def add_size_arguments(ap, repeat):
    """--nt --nx --ny (the input's time, x and y lengths), --chunk (along time) and --repeat (rounds,
    default `repeat`)."""
    ap.add_argument("--nt", type=int, default=1095)
    ap.add_argument("--nx", type=int, default=90)
    ap.add_argument("--ny", type=int, default=180)
    ap.add_argument("--chunk", type=int, default=100)
    ap.add_argument("--repeat", type=int, default=repeat)


def dataset(nt, nx, ny):
    """t(time, x, y) float64 with ~1% NaNs and p(time, x), a daily time coordinate from 2000-01-01,
    x, y and a non-index coordinate zone(x); NumPy arrays, seeded."""
    rng = np.random.default_rng(2024)
    t = rng.random((nt, nx, ny))
    t[rng.random(t.shape) < 0.01] = np.nan
    p = rng.random((nt, nx))
    zone = np.arange(nx) % 3
    return xr.Dataset(
        {"t": (("time", "x", "y"), t), "p": (("time", "x"), p)},
        coords={"time": np.arange(nt).astype("timedelta64[D]") + np.datetime64("2000-01-01", "ns"),
                "x": np.arange(nx) * 1.5, "y": np.arange(ny), "zone": ("x", zone)})


def timed(f, *args):
    """(seconds, value) of `f(*args)`."""
    t0 = time.perf_counter()
    v = f(*args)
    return time.perf_counter() - t0, v


def interleaved(fs, repeat, warm=False, check=None):
    """Runs each function of `fs` in turn, `repeat` rounds (after one untimed round if `warm`); each
    is called with the round number. `check(r, values)` (optional) sees round r's values right after
    the round. Returns each function's list of seconds, in the order of `fs`."""
    if warm:
        for f in fs:
            f(-1)
    times = [[] for _ in fs]
    for r in range(repeat):
        values = []
        for i, f in enumerate(fs):
            dt, v = timed(f, r)
            times[i].append(dt)
            values.append(v)
        if check is not None:
            check(r, values)
    return times
