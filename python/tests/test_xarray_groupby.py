"""Bounded groupby/resample reductions: ``ds.cubed_java.groupby(...)`` and ``.resample(...)``
(``cubed_java.xarray_groupby``, the engine's ``XpGroupby.groupbyReduce``) against NumPy-backed
xarray, the plan's size against the number of groups, and the memory bound."""
import re

import numpy as np
import pandas as pd
import pytest

xr = pytest.importorskip("xarray")

import cubed_java  # noqa: E402
from cubed_java.testing import count_computes  # noqa: E402
from cubed_java.xarray_groupby import plan_figures  # noqa: E402

FUNCS = ["mean", "sum", "min", "max", "count"]


def _dataset(days=400, seed=0):
    rng = np.random.default_rng(seed)
    u = rng.random((days, 4, 3))
    u[rng.random(u.shape) < 0.1] = np.nan
    u[40:45, 0, 0] = np.nan  # a lane of NaN
    v = rng.random((3, days)).astype("float32")
    w = rng.integers(-50, 50, (days, 2))
    t = pd.date_range("2001-01-01", periods=days)
    return xr.Dataset(
        {"u": (("time", "y", "x"), u), "v": (("x", "time"), v), "w": (("time", "z"), w)},
        coords={"time": t, "label": ("x", ["a", "b", "c"])})


def _grouped(obj, how):
    if how == "resample":
        return obj.resample(time="1MS")
    return obj.groupby(how)


@pytest.mark.parametrize("how", ["time.month", "time.dayofyear", "resample"])
@pytest.mark.parametrize("func", FUNCS)
def test_equals_numpy_xarray(func, how):
    ds = _dataset()
    lazy = ds.chunk({"time": 30}, chunked_array_type="cubed-java")
    acc = (lazy.cubed_java.resample(time="1MS") if how == "resample"
           else lazy.cubed_java.groupby(how))
    with count_computes() as n:
        got = getattr(acc, func)()
    assert n.count == 0, f"building the reduction computed: {n.names}"
    assert all(isinstance(got[v].data, cubed_java.Array) for v in got.data_vars)
    want = getattr(_grouped(ds, how), func)()
    xr.testing.assert_allclose(got.compute(), want)
    assert got.u.dtype == want.u.dtype and got.v.dtype == want.v.dtype
    if func != "count":
        got = getattr(acc, func)(skipna=False)
        xr.testing.assert_allclose(got.compute(), getattr(_grouped(ds, how), func)(skipna=False))


def test_dataarray_and_other_position_of_time():
    ds = _dataset()
    lazy = ds.chunk({"time": 50}, chunked_array_type="cubed-java")
    got = lazy.v.cubed_java.groupby("time.season").mean()
    assert isinstance(got.data, cubed_java.Array)
    xr.testing.assert_allclose(got.compute(), ds.v.groupby("time.season").mean())


def test_plan_does_not_grow_with_groups():
    ds = _dataset(days=730)
    lazy = ds[["u"]].chunk({"time": 30}, chunked_array_type="cubed-java")
    by_month = plan_figures(lazy.cubed_java.groupby("time.month").mean())
    by_day = plan_figures(lazy.cubed_java.groupby("time.dayofyear").mean())
    assert by_month["ops"] == by_day["ops"]
    assert by_month["tasks"] == by_day["tasks"]
    # xarray's own path (no flox) has ops per group: the reason for the accessor
    plain = plan_figures(lazy.groupby("time.dayofyear").mean())
    assert plain["ops"] > 300 > by_day["ops"]


@pytest.fixture
def allowed_mem():
    was = re.search(r"allowedMem=(\d+), reservedMem=(\d+)", cubed_java.configure()).groups()
    yield lambda **kw: cubed_java.configure(**kw)
    cubed_java.configure(allowed_mem=was[0], reserved_mem=was[1])


def test_projected_memory_within_allowed_mem(allowed_mem):
    allowed_mem(allowed_mem="4000000", reserved_mem="0")
    t = pd.date_range("2001-01-01", periods=3650)
    data = np.random.default_rng(1).random((3650, 40, 50))
    ds = xr.Dataset({"u": (("time", "y", "x"), data)}, coords={"time": t})
    lazy = ds.chunk({"time": 30, "y": 20, "x": 25}, chunked_array_type="cubed-java")
    got = lazy.cubed_java.groupby("time.month").mean()
    f = plan_figures(got)
    assert 0 < f["max_projected_mem"] <= 4000000
    sub = got.isel(y=slice(0, 3), x=slice(0, 3)).compute()
    xr.testing.assert_allclose(sub, ds.isel(y=slice(0, 3), x=slice(0, 3)).groupby("time.month")
                               .mean())


def test_partials_too_large_are_refused(allowed_mem):
    # 365 groups x a 40 x 50 block in float64 is 5.8 MB per partial: over 4 MB
    allowed_mem(allowed_mem="4000000", reserved_mem="0")
    t = pd.date_range("2001-01-01", periods=730)
    ds = xr.Dataset({"u": (("time", "y", "x"), np.zeros((730, 40, 50)))}, coords={"time": t})
    lazy = ds.chunk({"time": 10}, chunked_array_type="cubed-java")
    got = lazy.cubed_java.groupby("time.dayofyear").sum()
    assert plan_figures(got)["max_projected_mem"] > 4000000
    with pytest.raises(Exception, match="(?i)mem"):
        got.compute()


def test_unknown_function_is_refused():
    ds = _dataset().chunk({"time": 30}, chunked_array_type="cubed-java")
    from cubed_java.xarray_groupby import groupby_reduce
    with pytest.raises(ValueError, match="not one of"):
        groupby_reduce(ds, "median", lambda o: o.groupby("time.month"))
