"""xarray operations that need integer-array indexing on any axis, pad and sliding windows
(issue 26): each on the "cubed-java" chunk manager against NumPy-backed xarray, the result still
lazy (a cubed_java.Array) before it is computed, and nothing computed while it is built."""
import numpy as np
import pytest

xr = pytest.importorskip("xarray")

import cubed_java  # noqa: E402
import cubed_java._bridge as bridge  # noqa: E402

CJ = "cubed-java"


@pytest.fixture
def computes(monkeypatch):
    """The names of the bridge calls that run a plan (or pull values to Python), in order."""
    seen = []
    orig = bridge.Bridge.call

    def counting(self, name, *args):
        if name in ("compute", "computeWith", "toZarr", "writeDataset"):
            seen.append(name)
        return orig(self, name, *args)

    monkeypatch.setattr(bridge.Bridge, "call", counting)
    return seen


def _pair(rng, nan=False):
    a = rng.random((6, 10))
    if nan:
        a[1, 4] = a[3, 0] = np.nan
    eager = xr.DataArray(a, dims=("t", "x"),
                         coords={"t": np.arange(6), "x": np.arange(10) * 1.5}, name="v")
    return eager, eager.chunk({"t": 4, "x": 3}, chunked_array_type=CJ)


def _check(eager, lazy, op, computes):
    want = op(eager)
    got = op(lazy)
    assert computes == [], f"building the result computed: {computes}"
    assert isinstance(got.data, cubed_java.Array), type(got.data)
    xr.testing.assert_identical(want, got.compute())


# ---- 1. integer-array indexing on any axis ----

@pytest.mark.parametrize("op", [
    pytest.param(lambda d: d.isel(x=[3, 1, 4]), id="isel-x-unsorted"),
    pytest.param(lambda d: d.isel(x=[7, 7, 0, -1, -10]), id="isel-x-repeated-negative"),
    pytest.param(lambda d: d.isel(t=[5, 0, 2]), id="isel-t"),
    pytest.param(lambda d: d.isel(t=[4, 1], x=[9, 2, 2]), id="isel-both-orthogonal"),
    pytest.param(lambda d: d.isel(x=np.array([], dtype=int)), id="isel-empty"),
    pytest.param(lambda d: d[:, [3, 1, 4]], id="getitem-second-axis"),
    pytest.param(lambda d: d.sel(x=[2.9, 7.6, 0.2], method="nearest"), id="sel-nearest"),
    pytest.param(lambda d: d.reindex(x=[3.0, 0.0, 4.5]), id="reindex-existing-labels"),
    pytest.param(lambda d: d.reindex(t=[5, 1, 7], x=[3.0, 0.0, 16.5]), id="reindex-two-dims"),
    pytest.param(lambda d: d.variable[[0, 1], [0, 1, 2]], id="variable-orthogonal-lists"),
])
def test_integer_array_indexing_on_any_axis(rng, computes, op):
    eager, lazy = _pair(rng)
    _check(eager, lazy, op, computes)


@pytest.mark.parametrize("key", [
    (slice(None), [3, 1, 4]),
    (None, slice(1, 3), [0, -1]),
    ([1, 0], slice(None), None),
    (1, [2, 2]),
    ([0, 2], [1, 3]),
    ([0, 2], 5),
    (Ellipsis, [9, 0]),
    ([[0, 1], [2, 3]], slice(2, 5)),
    (slice(None, None, -1), np.array([0, 5])),
    (slice(None), [[1], [2]]),
], ids=repr)
def test_array_getitem_mixes_integer_arrays_with_basic_indices_as_numpy(rng, key):
    a = rng.random((6, 10))
    x = cubed_java.array_api.asarray(a, chunks=(4, 3))
    r = x[key]
    assert isinstance(r, cubed_java.Array)
    want = a[key]
    assert r.shape == want.shape
    np.testing.assert_array_equal(r.compute(), want)


@pytest.mark.parametrize("key", [(slice(None), [10]), (slice(None), [0, -11]), ([6], 0)], ids=repr)
def test_integer_array_index_out_of_range_is_index_error(rng, key):
    x = cubed_java.array_api.asarray(rng.random((6, 10)), chunks=(4, 3))
    with pytest.raises(IndexError, match="out of bounds"):
        x[key]


def test_isel_out_of_range_is_index_error(rng):
    _, lazy = _pair(rng)
    with pytest.raises(IndexError):
        lazy.isel(x=[0, 10])


# ---- 2. pad, shift, rolling ----

@pytest.mark.parametrize("op", [
    pytest.param(lambda d: d.shift(x=2), id="shift-x"),
    pytest.param(lambda d: d.shift(t=-3), id="shift-t-back"),
    pytest.param(lambda d: d.shift(x=1, fill_value=-1.0), id="shift-fill"),
    pytest.param(lambda d: d.pad(x=(1, 2)), id="pad-constant-nan"),
    pytest.param(lambda d: d.pad(t=(2, 0), x=(0, 1), mode="edge"), id="pad-edge"),
    pytest.param(lambda d: d.pad(x=(2, 2), mode="reflect"), id="pad-reflect"),
    pytest.param(lambda d: d.pad(x=(3, 1), mode="wrap"), id="pad-wrap"),
    pytest.param(lambda d: d.pad(t=(1, 1), mode="symmetric"), id="pad-symmetric"),
    pytest.param(lambda d: d.rolling(x=3).mean(), id="rolling-mean"),
    pytest.param(lambda d: d.rolling(x=3).sum(), id="rolling-sum"),
    pytest.param(lambda d: d.rolling(x=3).max(), id="rolling-max"),
    pytest.param(lambda d: d.rolling(t=2, center=True).min(), id="rolling-t-center-min"),
    pytest.param(lambda d: d.rolling(x=4, min_periods=2).mean(), id="rolling-min-periods"),
    pytest.param(lambda d: d.rolling(x=3).construct("w"), id="rolling-construct"),
    pytest.param(lambda d: d.diff("x", label="upper"), id="diff"),
])
@pytest.mark.parametrize("nan", [False, True], ids=["plain", "with-nan"])
def test_shift_pad_rolling(rng, computes, op, nan):
    eager, lazy = _pair(rng, nan=nan)
    want = op(eager)
    got = op(lazy)
    assert computes == [], f"building the result computed: {computes}"
    assert isinstance(got.data, cubed_java.Array), type(got.data)
    got = got.compute()
    # rolling sums and means come from a moving-window kernel (compensated running sums), whose
    # additions are not NumPy's window-by-window order: values agree to 1e-12, NaNs, dims,
    # coordinates and attributes exactly
    xr.testing.assert_allclose(want, got, rtol=1e-12, atol=1e-15)
    xr.testing.assert_identical(want.isnull(), got.isnull())
    assert want.dims == got.dims and want.attrs == got.attrs and want.dtype == got.dtype


def test_shift_of_int_data_promotes_like_numpy(computes):
    eager = xr.DataArray(np.arange(12).reshape(3, 4), dims=("t", "x"))
    lazy = eager.chunk({"x": 2}, chunked_array_type=CJ)
    _check(eager, lazy, lambda d: d.shift(x=1), computes)


def test_pad_refuses_what_it_cannot_do_lazily(rng):
    x = cubed_java.array_api.asarray(rng.random((3, 4)), chunks=(2, 2))
    xp = cubed_java.array_api
    with pytest.raises(NotImplementedError, match="mode 'mean'"):
        xp.pad(x, 1, mode="mean")
    with pytest.raises(ValueError, match="at most n-1"):
        xp.pad(x, ((3, 0), (0, 0)), mode="reflect")
    with pytest.raises(ValueError, match="does not fit"):
        xp.pad(x, ((1, 1), (1, 1), (1, 1)))
    np.testing.assert_array_equal(xp.pad(x, ((1, 0), (2, 1)), constant_values=5).compute(),
                                  np.pad(x.compute(), ((1, 0), (2, 1)), constant_values=5))


# ---- 3. einsum: xr.dot and weighted ----

def _weights(rng):
    w = xr.DataArray(rng.random(10), dims=("x",), coords={"x": np.arange(10) * 1.5})
    return w, w.chunk({"x": 4}, chunked_array_type=CJ)


@pytest.mark.parametrize("op", [
    pytest.param(lambda d, w: xr.dot(d, w), id="dot"),
    pytest.param(lambda d, w: xr.dot(d, w, dim=...), id="dot-all"),
    pytest.param(lambda d, w: xr.dot(d, d, dim="t"), id="dot-self-t"),
    pytest.param(lambda d, w: d.dot(w * d), id="dataarray-dot"),
])
def test_dot(rng, computes, op):
    eager, lazy = _pair(rng)
    w, lw = _weights(rng)
    want = op(eager, w)
    got = op(lazy, lw)
    assert computes == []
    assert isinstance(got.data, cubed_java.Array)
    xr.testing.assert_allclose(want, got.compute(), rtol=1e-12)


@pytest.mark.parametrize("op", [
    pytest.param(lambda d, w: d.weighted(w).mean("x"), id="mean-x"),
    pytest.param(lambda d, w: d.weighted(w).sum("x"), id="sum-x"),
    pytest.param(lambda d, w: d.weighted(w).mean(), id="mean-all"),
    pytest.param(lambda d, w: d.weighted(w).sum_of_weights("x"), id="sum-of-weights"),
    pytest.param(lambda d, w: d.weighted(w).var("x"), id="var-x"),
    pytest.param(lambda d, w: d.weighted(w).std("x"), id="std-x"),
])
@pytest.mark.parametrize("nan", [False, True], ids=["plain", "with-nan"])
def test_weighted(rng, computes, op, nan):
    eager, lazy = _pair(rng, nan=nan)
    w, lw = _weights(rng)
    want = op(eager, w)
    got = op(lazy, lw)
    # xarray checks non-dask weights for NaN (one boolean computed) each time it builds a
    # Weighted object: var and std build a second one for the weighted mean
    assert computes in ([], ["compute"], ["compute", "compute"]), computes
    assert isinstance(got.data, cubed_java.Array), type(got.data)
    xr.testing.assert_allclose(want, got.compute(), rtol=1e-12)


@pytest.mark.parametrize("subscripts,shapes", [
    ("ij,jk->ik", [(4, 5), (5, 3)]),
    ("ij,jk", [(4, 5), (5, 3)]),
    ("...ab,...b->...a", [(2, 4, 5), (5,)]),
    ("bij,bjk->bik", [(3, 4, 5), (3, 5, 2)]),
    ("i,i,i->", [(7,), (7,), (7,)]),
    ("ij->ji", [(4, 5)]),
    ("ij->", [(4, 5)]),
    ("i,j->ij", [(4,), (3,)]),
], ids=repr)
def test_einsum_matches_numpy(rng, subscripts, shapes):
    xp = cubed_java.array_api
    arrays = [rng.random(s) for s in shapes]
    got = xp.einsum(subscripts, *[xp.asarray(a, chunks=tuple(max(1, n // 2) for n in a.shape))
                                  for a in arrays])
    assert isinstance(got, cubed_java.Array)
    np.testing.assert_allclose(got.compute(), np.einsum(subscripts, *arrays), rtol=1e-12)


def test_einsum_refuses_diagonals(rng):
    xp = cubed_java.array_api
    with pytest.raises(ValueError, match="diagonals are not supported"):
        xp.einsum("ii->i", xp.asarray(rng.random((3, 3))))


@pytest.mark.parametrize("op", [
    pytest.param(np.sqrt, id="sqrt"),
    pytest.param(np.absolute, id="absolute"),
    pytest.param(lambda d: np.arctan2(d, d + 1), id="arctan2"),
    pytest.param(lambda d: np.ones(10) + d, id="ndarray-plus"),
])
def test_numpy_ufuncs_stay_lazy(rng, computes, op):
    eager, lazy = _pair(rng)
    got = op(lazy)
    assert computes == []
    assert isinstance(got.data, cubed_java.Array)
    xr.testing.assert_allclose(op(eager), got.compute(), rtol=1e-14)  # atan2 within an ulp


# ---- 4. quantile ----

@pytest.mark.parametrize("name", ["quantile", "nanquantile"])
@pytest.mark.parametrize("q,axis,keepdims", [
    (0.3, 1, False), ([0.1, 0.5, 1.0], (0, 2), False), (0.5, None, True),
    (np.array([0.2, 0.7]), -1, True), (0.0, 0, False),
], ids=repr)
def test_quantile_matches_numpy(rng, name, q, axis, keepdims):
    a = rng.random((4, 9, 3))
    a[1, 3, 0] = a[2, :, 1] = np.nan
    x = cubed_java.array_api.asarray(a, chunks=(2, 4, 2))
    got = getattr(cubed_java.array_api, name)(x, q, axis=axis, keepdims=keepdims)
    want = getattr(np, name)(a, q, axis=axis, keepdims=keepdims)
    assert isinstance(got, cubed_java.Array)
    assert got.shape == want.shape
    np.testing.assert_allclose(got.compute(), want, rtol=1e-12, equal_nan=True)


@pytest.mark.parametrize("op", [
    pytest.param(lambda d: d.quantile(0.3, dim="x"), id="skipna-scalar-q"),
    pytest.param(lambda d: d.quantile([0.5, 0.8], dim="x", skipna=False), id="no-skipna"),
    pytest.param(lambda d: d.to_dataset().quantile([0.25], dim="x"), id="dataset"),
])
def test_xarray_quantile_is_lazy(rng, computes, op):
    eager, lazy = _pair(rng, nan=True)
    # without dask, xarray's quantile runs apply_ufunc(dask="parallelized"), which wants the
    # reduced dimension in one block (its own check, before the chunk manager is asked)
    lazy = lazy.chunk({"x": -1})
    want = op(eager)
    got = op(lazy)
    assert computes == []
    data = got["v"].data if isinstance(got, xr.Dataset) else got.data
    assert isinstance(data, cubed_java.Array), type(data)
    xr.testing.assert_allclose(want, got.compute(), rtol=1e-12)


# ---- 6. first/last (the chunk manager's reduction), np.take, Zarr attributes ----

@pytest.mark.parametrize("skipna", [None, False])
@pytest.mark.parametrize("how", ["first", "last"])
def test_groupby_first_last_is_lazy(rng, computes, how, skipna):
    eager, lazy = _pair(rng, nan=True)
    eager = eager.assign_coords(g=("t", [0, 0, 1, 1, 1, 2]))
    lazy = lazy.assign_coords(g=("t", [0, 0, 1, 1, 1, 2]))
    eager[:, 5] = np.nan  # an all-NaN lane: NaN, as NumPy-backed xarray gives
    lazy = lazy.copy(data=cubed_java.from_array(eager.values, chunks=(4, 3)))
    _check(eager, lazy, lambda d: getattr(d.groupby("g"), how)(skipna=skipna), computes)


def test_np_take_on_a_lazy_array_stays_lazy(rng, computes):
    a = rng.random((6, 10))
    x = cubed_java.from_array(a, chunks=(4, 3))
    for indices, axis in [(0, 0), (-1, 1), ([7, 2, 2], 1), (np.array([5]), 0)]:
        got = np.take(x, indices, axis=axis)
        assert isinstance(got, cubed_java.Array)
        assert computes == []
        np.testing.assert_array_equal(got.compute(), np.take(a, indices, axis=axis))
        computes.clear()


def test_zarr_dataset_keeps_attributes_datetimes_and_coordinates(tmp_path):
    eager = xr.Dataset(
        {"v": (("t", "x"), np.arange(12.0).reshape(4, 3), {"units": "K", "scale": 2.5})},
        coords={"t": np.arange("2024-01-01", "2024-01-05", dtype="datetime64[D]")
                .astype("datetime64[ns]"), "x": [10, 20, 30],
                "lat": ("x", [1.5, 2.5, 3.5])},
        attrs={"title": "a test", "levels": [1, 2]})
    lazy = eager.chunk({"t": 2}, chunked_array_type=CJ)
    cubed_java.to_zarr_dataset(lazy, str(tmp_path / "d.zarr"))
    back = cubed_java.open_dataset(str(tmp_path / "d.zarr"), chunks={"t": 2})
    assert isinstance(back.v.data, cubed_java.Array) and "lat" in back.coords
    xr.testing.assert_identical(eager, back.compute())
