"""xarray's ``diff``, ``shift``, ``count`` and NaN-skipping ``sum`` on cubed-java against
NumPy-backed xarray (NaNs included), and their plans: one op per block, nothing stored but the
output (diff and shift read each block and the neighbouring block's edge; count and sum count or
add each block straight, no bool, zero-filled or int copies); and a groupby mean over a stored
array in at most two ops."""
import numpy as np
import pandas as pd
import pytest

xr = pytest.importorskip("xarray")

import cubed_java  # noqa: E402
from cubed_java.testing import count_computes  # noqa: E402
from cubed_java.xarray_groupby import plan_figures  # noqa: E402


def _data(nt=95, seed=3):
    rng = np.random.default_rng(seed)
    t = rng.random((nt, 4, 5))
    t[rng.random(t.shape) < 0.1] = np.nan
    t[10:20, 0, 0] = np.nan
    return xr.Dataset({"t": (("time", "x", "y"), t)},
                      coords={"time": pd.date_range("2001-01-01", periods=nt),
                              "zone": ("x", [0, 1, 0, 2])})


def _lazy(ds, chunks=None):
    return ds.chunk(chunks or {"time": 20}, chunked_array_type="cubed-java")


@pytest.mark.parametrize("n,label", [(1, "upper"), (1, "lower"), (2, "upper")])
def test_diff_equals_numpy_xarray(n, label):
    ds = _data()
    with count_computes() as c:
        got = _lazy(ds).t.diff("time", n=n, label=label)
    assert c.count == 0
    assert isinstance(got.data, cubed_java.Array)
    xr.testing.assert_identical(got.compute(), ds.t.diff("time", n=n, label=label))


def test_diff_along_an_inner_axis_and_of_a_computed_array():
    ds = _data()
    lazy = _lazy(ds, {"time": 20, "y": 2})
    xr.testing.assert_allclose((lazy.t * 2).diff("y").compute(), (ds.t * 2).diff("y"))


def test_diff_is_one_op_storing_only_its_output():
    ds = _data()
    got = _lazy(ds).t.diff("time")
    f = plan_figures(got)
    assert f["ops"] == 1
    assert f["intermediate_bytes"] == 0
    # on the input's grid (the last block one shorter), not the refinement (19, 1, 19, 1, ...)
    assert got.chunks[0] == (20, 20, 20, 20, 14)


@pytest.mark.parametrize("k", [2, -3, 25])
def test_shift_equals_numpy_xarray_and_keeps_the_grid(k):
    ds = _data()
    got = _lazy(ds).t.shift(time=k)
    assert got.chunks == _lazy(ds).t.chunks
    f = plan_figures(got)
    assert f["ops"] == 1 and f["intermediate_bytes"] == 0
    xr.testing.assert_identical(got.compute(), ds.t.shift(time=k))


def test_shifted_minus_unshifted_is_one_op():
    ds = _data()
    lazy = _lazy(ds).t
    got = lazy - lazy.shift(time=1)
    assert plan_figures(got)["ops"] == 1
    xr.testing.assert_allclose(got.compute(), ds.t - ds.t.shift(time=1))


@pytest.mark.parametrize("dim", ["time", "y", None])
def test_count_equals_numpy_xarray(dim):
    ds = _data()
    got = _lazy(ds).t.count(dim)
    assert isinstance(got.data, cubed_java.Array)
    want = ds.t.count(dim)
    xr.testing.assert_identical(got.compute(), want)
    assert got.dtype == want.dtype


@pytest.mark.parametrize("dim", [("x", "y"), ("time", "y")])
def test_count_over_several_dims_equals_numpy_xarray(dim):
    ds = _data()
    got = _lazy(ds).t.count(dim)
    xr.testing.assert_identical(got.compute(), ds.t.count(dim))


@pytest.mark.parametrize("dim", ["time", "y", ("x", "y"), None])
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_nan_skipping_sum_equals_numpy_xarray(dim, dtype):
    ds = _data().astype(dtype)
    got = _lazy(ds).t.sum(dim)
    assert isinstance(got.data, cubed_java.Array)
    want = ds.t.sum(dim)
    assert got.dtype == want.dtype
    xr.testing.assert_allclose(got.compute(), want, rtol=1e-5 if dtype == np.float32 else 1e-12)


@pytest.mark.parametrize("min_count", [1, 4, 5])
def test_sum_with_min_count_masks_as_numpy_xarray(min_count):
    ds = _data()
    # over y (5 elements, about 10% NaN): min_count 4 and 5 mask some sums
    got = _lazy(ds, {"time": 20, "y": 2}).t.sum("y", min_count=min_count).compute()
    want = ds.t.sum("y", min_count=min_count)
    xr.testing.assert_allclose(got, want)
    assert (int(np.isnan(want.values).sum()) > 0) == (min_count > 1)


def test_sum_and_count_read_each_block_once_with_no_mask_arrays():
    ds = _data()
    lazy = _lazy(ds).t
    for got in (lazy.sum("time"), lazy.count("time"), lazy.sum("time", skipna=False)):
        f = plan_figures(got)
        # per-block states merged 4 blocks per task, then the finish: at most two ops and the
        # states of 5 blocks stored
        assert f["ops"] <= 2, f
        assert f["intermediate_bytes"] <= 5 * 4 * 5 * 8, f
    # the sum is the engine's nansum (the one-pass kernel), not xarray's where over isnull
    from xarray.computation import nanops

    assert getattr(nanops.nansum, "_cubed_java_nansum", False)


def test_count_counts_each_block_in_one_op():
    ds = _data()
    f = plan_figures(_lazy(ds).t.count("time"))
    # per-block counts (5 blocks: merged 4 per task, then the rest with the finish)
    assert f["ops"] <= 2
    assert f["intermediate_bytes"] <= 2 * 4 * 5 * 8


def _zarr3():
    try:
        import zarr
    except ImportError:
        return None
    return zarr if int(zarr.__version__.split(".")[0]) >= 3 else None


@pytest.mark.skipif(_zarr3() is None, reason="xarray's Zarr backend needs zarr-python 3, which"
                    " this environment lacks (the engine's own test: XpGroupbyTest)")
def test_groupby_mean_over_a_stored_array_is_two_ops_at_most(tmp_path):
    ds = _data()
    ds.drop_vars("zone").to_zarr(tmp_path / "d.zarr", encoding={"t": {"chunks": (20, 4, 5)}})
    lazy = xr.open_zarr(tmp_path / "d.zarr", chunks={"time": 20},
                        chunked_array_type="cubed-java").assign_coords(zone=ds.zone)
    for how in ("time.month", "zone"):
        got = lazy.t.groupby(how).mean()
        assert plan_figures(got)["ops"] <= 2
        xr.testing.assert_allclose(got.compute(), ds.t.groupby(how).mean())
