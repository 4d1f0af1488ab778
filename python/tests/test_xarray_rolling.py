"""xarray's rolling reductions on cubed-java arrays: equal to NumPy-backed xarray (NaNs,
min_periods, center=True), and planned without the window axis (the plan's intermediates at most
the input's size)."""
import numpy as np
import pytest

xr = pytest.importorskip("xarray")
import cubed_java  # noqa: E402
from cubed_java.xarray_groupby import plan_figures  # noqa: E402


def _data(shape=(120, 5, 4), dtype=np.float32, seed=0):
    rng = np.random.default_rng(seed)
    a = (rng.normal(size=shape) * 10 + 280).astype(dtype)
    a[rng.random(shape) < 0.15] = np.nan
    a[:, 0, 0] = np.nan  # a lane of NaN only
    a[30:45, 1, 1] = np.nan  # a run of NaN longer than small windows
    return xr.DataArray(a, dims=("time", "lat", "lon"))


@pytest.mark.parametrize("kwargs", [dict(time=7), dict(time=7, min_periods=3),
                                    dict(time=6, center=True), dict(time=5, center=True,
                                                                    min_periods=1),
                                    dict(lon=3), dict(time=30)])
def test_rolling_reductions_equal_numpy_backed_xarray(kwargs):
    da = _data()
    c = da.chunk({"time": 25, "lat": 3}, chunked_array_type="cubed-java")
    methods = ["sum", "mean", "std", "var", "min", "max", "count"]
    got = [getattr(c.rolling(**kwargs), m)() for m in methods]
    for m, g in zip(methods, got):
        assert isinstance(g.data, cubed_java.Array), m  # lazy
    values = cubed_java.compute(*(g.data for g in got))
    for m, v in zip(methods, values):
        want = getattr(da.rolling(**kwargs), m)().values
        assert v.dtype == want.dtype, (m, v.dtype, want.dtype)
        np.testing.assert_allclose(v, want, rtol=2e-5, atol=1e-4, equal_nan=True,
                                   err_msg=f"{m} {kwargs}")


def test_rolling_of_integers_and_a_dataset():
    rng = np.random.default_rng(1)
    ds = xr.Dataset({"i": (("t", "x"), rng.integers(-50, 50, size=(40, 3))),
                     "f": (("t", "x"), rng.normal(size=(40, 3)))})
    c = ds.chunk({"t": 9}, chunked_array_type="cubed-java")
    for m in ["sum", "mean", "max", "std"]:
        got = getattr(c.rolling(t=4, min_periods=2), m)().compute()
        want = getattr(ds.rolling(t=4, min_periods=2), m)()
        xr.testing.assert_allclose(got, want)


def test_construct_still_gives_the_window_axis():
    da = _data(shape=(20, 3, 2))
    c = da.chunk({"time": 6}, chunked_array_type="cubed-java")
    got = c.rolling(time=4).construct("w")
    assert got.dims == ("time", "lat", "lon", "w")
    want = da.rolling(time=4).construct("w")
    np.testing.assert_array_equal(got.values, want.values)
    # an elementwise use of the window axis, then a reduction over another axis
    np.testing.assert_allclose((got * 2).max("time").values, (want * 2).max("time").values)


@pytest.mark.parametrize("method", ["mean", "sum", "std", "var", "min", "max", "count"])
def test_rolling_plans_no_window_axis(method):
    """rolling(time=30) of 1000x90x180 float32 in chunks of time=100, at the default settings: the
    window axis would be 30 times the data; the plan's intermediates stay at most the input's size
    (the mean's sum and rolling counts read the same input blocks, counted once per task)."""
    a = np.zeros((1000, 90, 180), np.float32)
    c = xr.DataArray(a, dims=("time", "lat", "lon")).chunk(
        {"time": 100}, chunked_array_type="cubed-java")
    r = getattr(c.rolling(time=30), method)()
    f = plan_figures(r)
    assert f["intermediate_bytes"] <= a.nbytes, f


@pytest.mark.parametrize("kwargs,chunks", [(dict(time=2), {"time": 20}),
                                           (dict(time=4, boundary="trim"), {"time": 12}),
                                           (dict(lat=2), {"time": 25, "lat": 2}),
                                           (dict(time=3, boundary="trim"), {"time": 10})])
def test_coarsen_equals_numpy_backed_xarray(kwargs, chunks):
    """coarsen's reshape splits one axis; where every block holds whole windows it is a
    block-to-block op fused with the reduction (one op, nothing stored), else the general
    reshape: equal values either way."""
    da = _data(shape=(120, 6, 4))
    c = da.chunk(chunks, chunked_array_type="cubed-java")
    for m in ["mean", "sum", "max", "std"]:
        got = getattr(c.coarsen(**kwargs), m)()
        assert isinstance(got.data, cubed_java.Array), m
        want = getattr(da.coarsen(**kwargs), m)()
        np.testing.assert_allclose(got.values, want.values, rtol=2e-5, atol=1e-4,
                                   equal_nan=True, err_msg=f"{m} {kwargs}")


def test_coarsen_with_aligned_blocks_stores_nothing():
    a = np.zeros((1000, 90, 180), np.float32)
    c = xr.DataArray(a, dims=("time", "lat", "lon")).chunk(
        {"time": 100}, chunked_array_type="cubed-java")
    f = plan_figures(c.coarsen(time=2).mean())
    assert f["intermediate_bytes"] == 0 and f["ops"] == 1, f


@pytest.mark.parametrize("kwargs", [dict(time=3), dict(time=30), dict(time=7, min_periods=2),
                                    dict(time=6, center=True, min_periods=4)])
def test_rolling_mean_sum_std_var_are_one_op_with_the_count_inside(kwargs):
    """xarray's rolling mean is its rolling sum of fillna(x) over a rolling count of notnull(x),
    each masked by a second count >= min_periods; the chunk manager runs it as one moving-window
    op (NaN-skipping kernel with min_periods as its minimum count over x padded with NaN), nothing
    stored, with NumPy-backed xarray's values (NaN, +-inf, all-NaN lanes)."""
    da = _data(dtype=np.float64)
    da[50:53, 2, 2] = np.inf
    da[60, 3, 3] = -np.inf
    da.attrs["units"] = "K"
    c = da.chunk({"time": 25}, chunked_array_type="cubed-java")
    for m in ["mean", "sum", "std", "var"]:
        r = getattr(c.rolling(**kwargs), m)()
        assert isinstance(r.data, cubed_java.Array), m
        f = plan_figures(r)
        assert f["ops"] == 1 and f["intermediate_bytes"] == 0, (m, f)
        want = getattr(da.rolling(**kwargs), m)()
        got = r.compute()
        assert got.dtype == want.dtype and got.attrs == want.attrs
        xr.testing.assert_allclose(got, want)
    got = c.rolling(**kwargs).std(ddof=1).compute()
    xr.testing.assert_allclose(got, da.rolling(**kwargs).std(ddof=1))


def test_anomalies_then_rolling30_intermediates_stay_near_the_input():
    """The everyday workflow: monthly anomalies, then rolling(time=30).mean(); its plan's
    intermediates (the groupby's per-block states) stay well under twice the input (the window
    axis, or the rolling counts stored beside the sum, made them many times the input)."""
    import pandas as pd

    rng = np.random.default_rng(4)
    x = (280 + rng.standard_normal((1000, 36, 36))).astype("float32")
    x[:, :4, :] = np.nan
    x[rng.random(x.shape) < 0.01] = np.nan
    ds = xr.Dataset({"tas": (("time", "lat", "lon"), x)},
                    coords={"time": pd.date_range("2000-01-01", periods=1000)})
    lazy = ds.chunk({"time": 100}, chunked_array_type="cubed-java")
    with xr.set_options(chunk_manager="cubed-java"):
        anom = lazy.groupby("time.month") - lazy.groupby("time.month").mean()
        out = anom.rolling(time=30).mean()
    f = plan_figures(out)
    assert f["intermediate_bytes"] <= 2 * x.nbytes, (f, x.nbytes)
    want = (ds.groupby("time.month") - ds.groupby("time.month").mean()).rolling(time=30).mean()
    # float32: NumPy sums the windows in float32, the kernel in float64
    xr.testing.assert_allclose(out.compute(), want, rtol=0, atol=1e-3)
