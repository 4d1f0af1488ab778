"""The 44-operation check (issue 26): typical xarray operations on a chunked Dataset, each
compared with the same operation on NumPy-backed xarray and marked lazy or not.

The same list runs on either backend, so one list measures both:

    python python/tests/xarray_ops44.py --backend cubed-java   # this package
    python python/tests/xarray_ops44.py --backend cubed        # Python Cubed + cubed-xarray

Each operation ends in one status:

- ``lazy``: the result's data (every data variable, every output) is still the backend's chunked
  array and building it ran no compute of the engine (counted: ``cubed_java.testing.
  count_computes`` here, ``FinalizedPlan.execute`` calls in Python Cubed); its computed value
  equals NumPy-backed xarray's. For the two operations that store by nature (``persist``, a Zarr
  round trip) the computes of the store are expected; lazy means the data read back is chunked.
- ``eager``: the value is right, but building the result computed (or the result is NumPy).
- ``fails``: it raised, or its value differs from NumPy-backed xarray's.

``test_xarray_44ops.py`` asserts this package's status of each operation and that more are lazy
here than on Python Cubed (whose figures, measured with this script, docs/python.md lists).
"""
from __future__ import annotations

import argparse
import contextlib
import os
import pickle
import sys
import tempfile

import numpy as np
import xarray as xr

CHUNKS = {"time": 6, "x": 5, "y": 3}


def dataset():
    """The NumPy-backed input: t(time, x, y) with NaNs, p(time, x), a time axis of days, a
    numeric label coordinate ``zone`` along x."""
    rng = np.random.default_rng(2024)
    t = rng.random((24, 10, 6))
    t[3, 2, 1] = t[10, 7, 4] = t[0, 0, 0] = np.nan
    p = rng.random((24, 10))
    return xr.Dataset(
        {"t": (("time", "x", "y"), t), "p": (("time", "x"), p)},
        coords={"time": np.arange("2024-01-01", "2024-01-25", dtype="datetime64[D]")
                .astype("datetime64[ns]"),
                "x": np.arange(10) * 1.5, "y": np.arange(6),
                "zone": ("x", np.array([0, 0, 1, 1, 1, 2, 2, 0, 1, 2]))})


class Backend:
    """What differs between the two engines: the chunk manager's name, the array class, how to
    count computes, and a Zarr round trip."""

    def __init__(self, name):
        self.name = name
        if name == "cubed-java":
            import cubed_java
            import cubed_java.testing

            self.array_cls = cubed_java.Array
            self._counting = cubed_java.testing.count_computes
        elif name == "cubed":
            import cubed

            self.array_cls = cubed.Array
            self._counting = _python_cubed_counting
        else:
            raise ValueError(f"unknown backend {name!r}: cubed-java or cubed")

    def chunk(self, obj):
        """obj chunked; its label coordinate ``zone`` stays in memory (as labels usually are:
        xarray refuses to group by chunked labels without being given them)."""
        return obj.chunk(CHUNKS, chunked_array_type=self.name).assign_coords(
            zone=("x", obj.zone.values))

    @contextlib.contextmanager
    def counting(self):
        with self._counting() as c:
            yield c

    def zarr_roundtrip(self, ds, folder):
        """Writes ds to a Zarr store and opens it back as chunked arrays: through xarray and
        zarr-python where zarr-python is installed, else (cubed-java only) through the
        package's own Zarr reader and writer (cubed_java.to_zarr_dataset/open_dataset)."""
        path = os.path.join(folder, "rt.zarr")
        try:
            import zarr  # noqa: F401
        except ImportError:
            if self.name != "cubed-java":
                raise
            import cubed_java

            cubed_java.to_zarr_dataset(ds, path)
            return cubed_java.open_dataset(path, chunks=dict(ds.chunks))
        ds.to_zarr(path)
        return xr.open_zarr(path, chunked_array_type=self.name, chunks={})


class _Count:
    def __init__(self):
        self.count = 0


@contextlib.contextmanager
def _python_cubed_counting():
    from cubed.core.plan import FinalizedPlan

    counter = _Count()
    orig = FinalizedPlan.execute

    def counted(self, *args, **kwargs):
        counter.count += 1
        return orig(self, *args, **kwargs)

    FinalizedPlan.execute = counted
    try:
        yield counter
    finally:
        FinalizedPlan.execute = orig


def _sin(a):
    return np.sin(a)


def _two(a):
    return a + 1, a * 2


def _pairs(a):
    return np.stack([a, a * 2], axis=-1)


# name -> f(obj, backend, tmp) where obj is the input Dataset (NumPy-backed or chunked); the
# same function gives the expected value on the NumPy-backed input. ``stores``: computes expected.
OPS = {}
STORES = {"persist", "zarr_roundtrip"}


def op(name):
    def deco(f):
        OPS[name] = f
        return f
    return deco


def _weights(ds):
    return xr.DataArray(np.linspace(1.0, 2.0, ds.sizes["x"]), dims="x")


op("rechunk")(lambda ds, b, tmp: ds if b is None
              else ds.chunk({"time": 12, "x": 10}, chunked_array_type=b.name))
op("arithmetic")(lambda ds, b, tmp: ds.t * 2 + ds.t ** 2 - 1)
op("numpy_ufunc")(lambda ds, b, tmp: np.sqrt(abs(ds.t)))
op("where")(lambda ds, b, tmp: ds.t.where(ds.t > 0.5))
op("isel_slice")(lambda ds, b, tmp: ds.isel(time=slice(2, 10), x=3))
op("isel_list")(lambda ds, b, tmp: ds.t.isel(x=[3, 1, 4]))
op("sel_labels")(lambda ds, b, tmp: ds.sel(x=[1.5, 3.0]))
op("sel_nearest")(lambda ds, b, tmp: ds.t.sel(x=[1.4, 6.1], method="nearest"))
op("mean_skipna")(lambda ds, b, tmp: ds.t.mean("time"))
op("sum_skipna_false")(lambda ds, b, tmp: ds.p.sum(["x"], skipna=False))
op("std")(lambda ds, b, tmp: ds.t.std("x"))
op("argmax")(lambda ds, b, tmp: ds.p.argmax("time"))
op("count")(lambda ds, b, tmp: ds.t.count("time"))
op("groupby_mean")(lambda ds, b, tmp: ds.t.groupby("zone").mean())
op("groupby_sum")(lambda ds, b, tmp: ds.t.groupby("zone").sum())
op("groupby_min")(lambda ds, b, tmp: ds.t.groupby("zone").min())
op("groupby_max")(lambda ds, b, tmp: ds.t.groupby("zone").max())
op("groupby_count")(lambda ds, b, tmp: ds.t.groupby("zone").count())
op("groupby_dayofweek")(lambda ds, b, tmp: ds.p.groupby("time.dayofweek").mean())
op("groupby_bins")(lambda ds, b, tmp: ds.p.groupby_bins("x", bins=[0, 5, 10, 15]).mean())
op("resample")(lambda ds, b, tmp: ds.p.resample(time="7D").mean())
op("rolling")(lambda ds, b, tmp: ds.t.rolling(time=3).mean())
op("shift")(lambda ds, b, tmp: ds.t.shift(time=2))
op("diff")(lambda ds, b, tmp: ds.t.diff("time"))
op("cumsum")(lambda ds, b, tmp: ds.p.cumsum("time"))
op("weighted_mean")(lambda ds, b, tmp: ds.t.weighted(_weights(ds)).mean("x"))
op("quantile")(lambda ds, b, tmp: ds.p.chunk({"time": -1}).quantile(0.3, dim="time")
               if b is not None else ds.p.quantile(0.3, dim="time"))
op("interp")(lambda ds, b, tmp: ds.p.interp(x=[1.0, 2.2]))
op("concat")(lambda ds, b, tmp: xr.concat([ds.t.isel(time=slice(0, 10)),
                                           ds.t.isel(time=slice(10, None))], "time"))
op("merge")(lambda ds, b, tmp: xr.merge([ds.t, (ds.p * 2).rename("q")]))
op("transpose")(lambda ds, b, tmp: ds.t.transpose("y", "x", "time"))
op("stack")(lambda ds, b, tmp: ds.p.stack(s=("time", "x")))
op("coarsen")(lambda ds, b, tmp: ds.t.coarsen(time=2).mean())
op("apply_ufunc")(lambda ds, b, tmp: xr.apply_ufunc(_sin, ds.p, dask="parallelized",
                                                    output_dtypes=[float]))
op("apply_ufunc_core_dims")(lambda ds, b, tmp: xr.apply_ufunc(
    lambda a: a.mean(-1), ds.p, input_core_dims=[["time"]], dask="parallelized",
    output_dtypes=[float], dask_gufunc_kwargs={"allow_rechunk": True}))
op("apply_ufunc_two_outputs")(lambda ds, b, tmp: xr.merge([
    r.rename(n) for r, n in zip(xr.apply_ufunc(_two, ds.p, output_core_dims=[[], []],
                                               dask="parallelized",
                                               output_dtypes=[float, float]), ("a", "b"))]))
op("apply_ufunc_output_sizes")(lambda ds, b, tmp: xr.apply_ufunc(
    _pairs, ds.p, output_core_dims=[["k"]], dask="parallelized", output_dtypes=[float],
    dask_gufunc_kwargs={"output_sizes": {"k": 2}}))
op("dot")(lambda ds, b, tmp: xr.dot(ds.t, ds.p, dim=("time", "x")))
op("clip")(lambda ds, b, tmp: ds.t.clip(0.2, 0.8))
op("fillna")(lambda ds, b, tmp: ds.t.fillna(0.0))
op("reindex_fill")(lambda ds, b, tmp: ds.p.reindex(x=[0.0, 1.5, 2.0, 3.0], fill_value=-1.0))
op("zarr_roundtrip")(lambda ds, b, tmp: ds if b is None else b.zarr_roundtrip(ds, tmp))
op("persist")(lambda ds, b, tmp: (ds.t + 1).persist())
op("pickle")(lambda ds, b, tmp: pickle.loads(pickle.dumps(ds.t * 3)))


def _datas(obj):
    if isinstance(obj, xr.Dataset):
        return [v.data for v in obj.data_vars.values()]
    return [obj.data]


def run_one(name, b, eager_ds, lazy_ds, tmp):
    """(status, detail) of one operation on backend b."""
    f = OPS[name]
    try:
        want = f(eager_ds, None, tmp)
        if hasattr(want, "compute"):
            want = want.compute()
        with b.counting() as n:
            got = f(lazy_ds, b, tmp)
        built_computes = n.count
        chunked = all(isinstance(d, b.array_cls) for d in _datas(got))
        value = got.compute()
        xr.testing.assert_allclose(want, value)
    except Exception as e:  # the operation failed on this backend
        return "fails", f"{type(e).__name__}: {str(e).splitlines()[0][:160] if str(e) else ''}"
    if chunked and (built_computes == 0 or name in STORES):
        return "lazy", ""
    why = []
    if not chunked:
        why.append("result is " + ", ".join(sorted({type(d).__name__ for d in _datas(got)})))
    if built_computes and name not in STORES:
        why.append(f"{built_computes} compute(s) while building")
    return "eager", "; ".join(why)


def run(backend):
    """{operation: (status, detail)} for the backend's name ("cubed-java" or "cubed")."""
    b = backend if isinstance(backend, Backend) else Backend(backend)
    eager_ds = dataset()
    lazy_ds = b.chunk(eager_ds)
    out = {}
    with tempfile.TemporaryDirectory(prefix="ops44-") as tmp:
        for name in OPS:
            sub = os.path.join(tmp, name)
            os.makedirs(sub)
            out[name] = run_one(name, b, eager_ds, lazy_ds, sub)
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--backend", default="cubed-java", choices=["cubed-java", "cubed"])
    args = ap.parse_args(argv)
    res = run(args.backend)
    for name, (status, detail) in res.items():
        print(f"{name:26s} {status:6s} {detail}")
    counts = {s: sum(1 for v in res.values() if v[0] == s) for s in ("lazy", "eager", "fails")}
    print(f"{args.backend}: {len(res)} operations: {counts['lazy']} lazy, {counts['eager']} eager,"
          f" {counts['fails']} fail")
    return 0


if __name__ == "__main__":
    sys.exit(main())
