"""The nan-functions (issue 26): cubed_java.array_api.nan* against NumPy, and xarray's default
skipna reductions on cubed-java variables staying lazy (computed by the engine, not by NumPy)."""
import warnings

import numpy as np
import pytest

import cubed_java
import cubed_java.array_api as xp


def _with_nans(rng, shape, frac=0.3):
    a = rng.standard_normal(shape)
    a[rng.random(shape) < frac] = np.nan
    return a


@pytest.fixture
def a(rng):
    a = _with_nans(rng, (7, 9, 5))
    a[:, 2, 3] = np.nan  # a slice of NaNs only along axis 0
    a[1, :, 0] = np.nan  # ... along axis 1
    a[:, 4, :] = np.nan  # ... along axes (0, 2)
    return a


REDUCTIONS = ["nansum", "nanprod", "nanmean", "nanmin", "nanmax", "nanvar", "nanstd"]
AXES = [None, 0, 1, 2, (0, 2), (1, 2), -1]
CHUNKS = [(7, 9, 5), (2, 3, 2), (3, 4, 1)]


@pytest.mark.parametrize("chunks", CHUNKS)
@pytest.mark.parametrize("axis", AXES)
@pytest.mark.parametrize("name", REDUCTIONS)
def test_nan_reductions_match_numpy(a, name, axis, chunks):
    x = xp.asarray(a, chunks=chunks)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # NumPy warns on all-NaN slices
        want = getattr(np, name)(a, axis=axis)
        want_kd = getattr(np, name)(a, axis=axis, keepdims=True)
    got = getattr(xp, name)(x, axis=axis)
    assert isinstance(got, cubed_java.Array)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the engine gives NaN without a warning
        g = got.compute()
    assert g.shape == np.shape(want) and g.dtype == np.asarray(want).dtype
    np.testing.assert_allclose(g, want, rtol=1e-12, atol=1e-13)
    kd = getattr(xp, name)(x, axis=axis, keepdims=True).compute()
    assert kd.shape == want_kd.shape
    np.testing.assert_allclose(kd, want_kd, rtol=1e-12, atol=1e-13)


@pytest.mark.parametrize("ddof", [0, 1, 2, 5])
def test_nanvar_and_nanstd_with_ddof(a, ddof):
    x = xp.asarray(a, chunks=(2, 4, 3))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        np.testing.assert_allclose(xp.nanvar(x, axis=0, ddof=ddof).compute(),
                                   np.nanvar(a, axis=0, ddof=ddof), rtol=1e-12)
        np.testing.assert_allclose(xp.nanstd(x, axis=(0, 1), correction=ddof).compute(),
                                   np.nanstd(a, axis=(0, 1), ddof=ddof), rtol=1e-12)
    with pytest.raises(NotImplementedError, match="fractional"):
        xp.nanvar(x, axis=0, ddof=0.5)


@pytest.mark.parametrize("chunks", CHUNKS)
@pytest.mark.parametrize("name", ["nanargmax", "nanargmin"])
def test_nanarg_match_numpy_and_refuse_all_nan_slices(rng, name, chunks):
    a = _with_nans(rng, (7, 9, 5))
    a[:, :, 2] = rng.standard_normal((7, 9))  # every slice along axes 0, 1 and 2 has a value
    x = xp.asarray(a, chunks=chunks)
    for axis in (0, 1, 2, None):
        got = getattr(xp, name)(x, axis=axis).compute()
        np.testing.assert_array_equal(got, getattr(np, name)(a, axis=axis))
    assert getattr(xp, name)(x, axis=1, keepdims=True).shape == (7, 1, 5)
    a[3, :, 1] = np.nan
    with pytest.raises(ValueError):
        getattr(np, name)(a, axis=1)
    lazy = getattr(xp, name)(xp.asarray(a, chunks=chunks), axis=1)  # built: fine
    with pytest.raises(ValueError, match="All-NaN slice encountered"):
        lazy.compute()


@pytest.mark.parametrize("name", ["nancumsum", "nancumprod"])
def test_nancumulative_match_numpy(a, name):
    x = xp.asarray(a, chunks=(3, 4, 2))
    for axis in (0, 1, 2):
        np.testing.assert_allclose(getattr(xp, name)(x, axis=axis).compute(),
                                   getattr(np, name)(a, axis=axis), rtol=1e-12)
    np.testing.assert_allclose(getattr(xp, name)(x).compute(), getattr(np, name)(a), rtol=1e-12)


def test_integer_inputs_behave_like_numpy(rng):
    a = rng.integers(-50, 50, (6, 8)).astype(np.int32)
    x = xp.asarray(a, chunks=(4, 3))
    for name in REDUCTIONS + ["nanargmax", "nanargmin"]:
        got = getattr(xp, name)(x, axis=0).compute()
        want = getattr(np, name)(a, axis=0)
        assert got.dtype == want.dtype, name
        np.testing.assert_allclose(got, want, rtol=1e-12, err_msg=name)
    np.testing.assert_allclose(xp.nanmean(xp.asarray(a > 0, chunks=(4, 3)), axis=1).compute(),
                               np.nanmean(a > 0, axis=1))


def test_float32_and_complex(rng):
    a = _with_nans(rng, (6, 8)).astype(np.float32)
    x = xp.asarray(a, chunks=(4, 3))
    for name in ("nanmean", "nanmax", "nanstd", "nansum"):
        got = getattr(xp, name)(x, axis=0).compute()
        assert got.dtype == np.float32, name
        np.testing.assert_allclose(got, getattr(np, name)(a, axis=0), rtol=1e-5, err_msg=name)
    c = _with_nans(rng, (6, 8)) + 1j * _with_nans(rng, (6, 8), 0.2)
    z = xp.asarray(c, chunks=(4, 3))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        for name in ("nansum", "nanmean", "nanvar", "nanstd"):
            np.testing.assert_allclose(getattr(xp, name)(z, axis=0).compute(),
                                       getattr(np, name)(c, axis=0), rtol=1e-12, err_msg=name)


# ---------------------------------------------------------------- xarray, default skipna

try:
    import xarray as xr
except ImportError:  # the NumPy comparisons above still run
    xr = None
needs_xarray = pytest.mark.skipif(xr is None, reason="xarray is not installed")


@pytest.fixture
def da_pair(rng):
    """A variable with NaNs (some all-NaN along time), NumPy-backed and cubed-java-backed."""
    u = _with_nans(rng, (12, 6, 8))
    u[:, 2, 3] = np.nan
    ref = xr.DataArray(u, dims=["time", "y", "x"],
                       coords={"time": np.arange(12) % 3})
    return ref, ref.chunk({"time": 5, "x": 3}, chunked_array_type="cubed-java")


@pytest.fixture
def no_eager(monkeypatch):
    """Fails any conversion of a cubed_java.Array to NumPy while active (the eager path: NumPy's
    nanmean on the array pulls it whole into Python through __array__)."""
    def refuse(self, *args, **kwargs):
        raise AssertionError("a cubed_java.Array was converted to NumPy (eager path)")

    monkeypatch.setattr(cubed_java.Array, "__array__", refuse)
    return monkeypatch


SKIPNA = [("mean", {}), ("max", {}), ("min", {}), ("sum", {}), ("std", {}), ("var", {}),
          ("std", {"ddof": 1}), ("prod", {})]


@needs_xarray
@pytest.mark.parametrize("method,kwargs", SKIPNA)
@pytest.mark.parametrize("dim", ["time", ["time", "x"], None])
def test_xarray_skipna_reductions_stay_lazy(da_pair, no_eager, method, kwargs, dim):
    ref, da = da_pair
    lazy = getattr(da, method)(dim, **kwargs)  # default skipna: xarray's nan-functions
    assert isinstance(lazy.data, cubed_java.Array), type(lazy.data)
    no_eager.undo()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        want = getattr(ref, method)(dim, **kwargs)
    xr.testing.assert_allclose(lazy.compute(), want, rtol=1e-12)


@needs_xarray
@pytest.mark.parametrize("method", ["argmax", "argmin"])
def test_xarray_skipna_arg_reductions_stay_lazy(rng, no_eager, method):
    u = _with_nans(rng, (12, 6, 8))
    u[0] = rng.standard_normal((6, 8))  # no slice of NaNs only along time
    ref = xr.DataArray(u, dims=["time", "y", "x"])
    da = ref.chunk({"time": 5, "x": 3}, chunked_array_type="cubed-java")
    lazy = getattr(da, method)("time")
    assert isinstance(lazy.data, cubed_java.Array), type(lazy.data)
    no_eager.undo()
    xr.testing.assert_equal(lazy.compute(), getattr(ref, method)("time"))


@needs_xarray
def test_xarray_cumsum_and_groupby_mean_stay_lazy(da_pair, no_eager):
    ref, da = da_pair
    cs = da.cumsum("time")
    gm = da.groupby("time").mean()
    assert isinstance(cs.data, cubed_java.Array), type(cs.data)
    assert isinstance(gm.data, cubed_java.Array), type(gm.data)
    no_eager.undo()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        xr.testing.assert_allclose(cs.compute(), ref.cumsum("time"), rtol=1e-12)
        xr.testing.assert_allclose(gm.compute(), ref.groupby("time").mean(), rtol=1e-12)


@needs_xarray
def test_dataset_mean_over_time_is_lazy_and_nanmean(da_pair, no_eager):
    ref, da = da_pair
    ds = xr.Dataset({"u": da, "u2": da * 2})
    m = ds.mean("time")
    assert isinstance(m.u.data, cubed_java.Array) and isinstance(m.u2.data, cubed_java.Array)
    no_eager.undo()
    out = m.compute()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        np.testing.assert_allclose(out.u.values, np.nanmean(ref.values, axis=0), rtol=1e-12)
    assert np.isnan(out.u.values[2, 3])  # the slice of NaNs only
