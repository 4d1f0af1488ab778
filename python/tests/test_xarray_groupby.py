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
    # plain xarray takes the same path (without it xarray's non-flox groupby has ops per group)
    plain = plan_figures(lazy.groupby("time.dayofyear").mean())
    assert plain == by_day


@pytest.mark.parametrize("how", ["time.month", "time.dayofyear"])
@pytest.mark.parametrize("func", FUNCS)
def test_plain_groupby_takes_the_bounded_path(func, how):
    ds = _dataset()
    lazy = ds.chunk({"time": 30}, chunked_array_type="cubed-java")
    with count_computes() as n:
        got = getattr(_grouped(lazy, how), func)()
    assert n.count == 0, f"building the reduction computed: {n.names}"
    assert all(isinstance(got[v].data, cubed_java.Array) for v in ("u", "v", "w"))
    # the bounded path: a handful of ops whatever the number of groups (365 days of the year)
    assert plan_figures(got)["ops"] < 30
    xr.testing.assert_allclose(got.compute(), getattr(_grouped(ds, how), func)())
    da = getattr(_grouped(lazy.u, how), func)()
    assert isinstance(da.data, cubed_java.Array)
    xr.testing.assert_allclose(da.compute(), getattr(_grouped(ds.u, how), func)())


def test_plain_groupby_keeps_attrs_and_other_forms_fall_back():
    ds = _dataset()
    ds.u.attrs["units"] = "K"
    lazy = ds.chunk({"time": 30}, chunked_array_type="cubed-java")
    got = lazy.groupby("time.month").mean()
    assert got.u.attrs == {"units": "K"}
    want = ds.groupby("time.month").mean()
    assert want.u.attrs == got.u.attrs and want.attrs == got.attrs
    xr.testing.assert_allclose(got.compute(), want)
    # a reduction over another dimension: xarray's own path, still right
    other = lazy.u.groupby("time.month").mean(dim=["time", "x"])
    xr.testing.assert_allclose(other.compute(), ds.u.groupby("time.month").mean(dim=["time", "x"]))


def _anomaly_input(days=1000, seed=3):
    rng = np.random.default_rng(seed)
    x = (280 + rng.standard_normal((days, 6, 8))).astype("float32")
    x[:, 0, :2] = np.nan  # land
    x[rng.random(x.shape) < 0.01] = np.nan
    t = pd.date_range("2000-01-01", periods=days)
    return xr.Dataset({"tas": (("time", "lat", "lon"), x)}, coords={"time": t})


def test_anomalies_equal_numpy_xarray():
    ds = _anomaly_input()
    lazy = ds.chunk({"time": 100, "lat": 3, "lon": 4}, chunked_array_type="cubed-java")
    with count_computes() as n, xr.set_options(chunk_manager="cubed-java"):
        anom = lazy.groupby("time.month") - lazy.groupby("time.month").mean()
        out = anom.chunk({"time": 100, "lat": -1, "lon": -1})
    assert n.count == 0, f"building the anomalies computed: {n.names}"
    assert isinstance(out.tas.data, cubed_java.Array)
    assert out.tas.data.chunks == ((100,) * 10, (6,), (8,))
    want = ds.groupby("time.month") - ds.groupby("time.month").mean()
    got = out.compute()
    assert bool((got.tas.isnull() == want.tas.isnull()).all())
    # float32 data near 280: the climatology is summed in float64 here, in float32 by NumPy
    assert float(abs(got.tas - want.tas).max()) <= 16 * np.finfo(np.float32).eps * 300
    xr.testing.assert_allclose(got, want, rtol=0, atol=16 * np.finfo(np.float32).eps * 300)


def test_gather_of_the_climatology_is_one_op_per_block():
    ds = _anomaly_input()
    lazy = ds.chunk({"time": 100, "lat": 3, "lon": 4}, chunked_array_type="cubed-java")
    clim = lazy.groupby("time.month").mean()
    anom = lazy.groupby("time.month") - clim
    c, a = plan_figures(clim), plan_figures(anom)
    blocks = 10 * 2 * 2
    # the gather clim.isel(month=codes) and the subtraction: one op of one task per block of ds
    # (each task reads the 12-month climatology once), no rechunk of the gathered array
    assert a["ops"] == c["ops"] + 1
    assert a["tasks"] == c["tasks"] + blocks
    # and joining the blocks along lat/lon for the write fuses into that op too
    with xr.set_options(chunk_manager="cubed-java"):
        out = plan_figures(anom.chunk({"time": 100, "lat": -1, "lon": -1}))
    assert out["ops"] == c["ops"] + 1
    assert out["tasks"] == c["tasks"] + 10


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


@pytest.mark.parametrize("func", ["var", "std"])
@pytest.mark.parametrize("ddof", [0, 1])
def test_var_std_take_the_bounded_path_and_equal_numpy_xarray(func, ddof):
    ds = _dataset()
    lazy = ds.chunk({"time": 30}, chunked_array_type="cubed-java")
    for skipna in (None, False):
        got = getattr(lazy.groupby("time.month"), func)(ddof=ddof, skipna=skipna)
        assert isinstance(got.u.data, cubed_java.Array)
        want = getattr(ds.groupby("time.month"), func)(ddof=ddof, skipna=skipna)
        xr.testing.assert_allclose(got.compute(), want)
    by_accessor = getattr(lazy.cubed_java.groupby("time.month"), func)(ddof=ddof)
    # the engine's path: the same plan as the plain form, a few ops whatever the groups
    assert plan_figures(by_accessor) == plan_figures(
        getattr(lazy.groupby("time.month"), func)(ddof=ddof))
    assert plan_figures(by_accessor)["ops"] <= 6


@pytest.mark.parametrize("func", FUNCS + ["var", "std"])
def test_plain_resample_is_blockwise_and_equals_numpy_xarray(func):
    # sorted codes (flox's "blockwise"): per block the states of the bins it touches, the bins
    # straddling block edges merged; bins of 7 days over blocks of 30
    ds = _dataset()
    lazy = ds.chunk({"time": 30}, chunked_array_type="cubed-java")
    with count_computes() as n:
        got = getattr(lazy.resample(time="7D"), func)()
    assert n.count == 0, f"building the reduction computed: {n.names}"
    assert all(isinstance(got[v].data, cubed_java.Array) for v in ("u", "v", "w"))
    assert plan_figures(got.u)["ops"] <= 3
    want = getattr(ds.resample(time="7D"), func)()
    xr.testing.assert_allclose(got.compute(), want)
    if func != "count":
        got = getattr(lazy.u.resample(time="7D"), func)(skipna=False)
        assert isinstance(got.data, cubed_java.Array)
        xr.testing.assert_allclose(got.compute(), getattr(ds.u.resample(time="7D"), func)(
            skipna=False))


def test_resample_plan_of_the_everyday_input_is_three_ops_at_most():
    # p(1095, 90) chunked by 100 days: xarray's own path was one op per bin (~158) and a concat
    rng = np.random.default_rng(1)
    p = xr.DataArray(rng.random((1095, 90)), dims=("time", "x"),
                     coords={"time": pd.date_range("2000-01-01", periods=1095)})
    lazy = p.chunk({"time": 100}, chunked_array_type="cubed-java")
    got = lazy.resample(time="7D").mean()
    figures = plan_figures(got)
    assert figures["ops"] <= 3, figures
    xr.testing.assert_allclose(got.compute(), p.resample(time="7D").mean())


def test_plain_resample_with_empty_bins_is_xarrays():
    # a gap of 30 days: xarray's own path (without flox: with flox installed, cubed-java data
    # takes xarray's path without it, whose count of an empty bin differs from flox's)
    ds = _dataset().isel(time=np.r_[0:100, 130:400])
    lazy = ds.chunk({"time": 30}, chunked_array_type="cubed-java")
    for func in ("mean", "count", "sum"):
        got = getattr(lazy.resample(time="7D"), func)()
        with xr.set_options(use_flox=False):
            want = getattr(ds.resample(time="7D"), func)()
        xr.testing.assert_allclose(got.compute(), want)


@pytest.mark.parametrize("func", ["mean", "sum", "count", "max", "std"])
def test_with_flox_installed_cubed_java_data_takes_the_engine_not_flox(func):
    # flox (xarray's default when installed) knows Dask and Python Cubed arrays, not these: its
    # NumPy-only calls failed (AttributeError 'reshape'); the reduction goes to the engine instead
    pytest.importorskip("flox")
    ds = _dataset()
    lazy = ds.chunk({"time": 30}, chunked_array_type="cubed-java")
    assert xr.get_options()["use_flox"]
    for grouped, eager in ((lazy.groupby("time.month"), ds.groupby("time.month")),
                           (lazy.resample(time="7D"), ds.resample(time="7D"))):
        got = getattr(grouped, func)()
        assert isinstance(got.u.data, cubed_java.Array)
        assert plan_figures(got.u)["ops"] <= 3  # the engine's groupby: a few ops per variable
        xr.testing.assert_allclose(got.compute(), getattr(eager, func)())

