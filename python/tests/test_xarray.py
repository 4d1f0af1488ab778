"""The xarray chunk manager "cubed-java": the blog post's Quadratic Means and friends."""
import numpy as np
import pytest

xr = pytest.importorskip("xarray")

import cubed_java  # noqa: E402
import cubed_java.array_api as xp  # noqa: E402

DIMS = ["time", "face", "j", "i"]


@pytest.fixture
def uv(rng):
    T, Y, X = 12, 6, 8
    return rng.random((T, 1, Y, X)), rng.random((T, 1, Y, X))


def test_the_chunk_manager_is_registered():
    from xarray.namedarray.parallelcompat import list_chunkmanagers

    assert "cubed-java" in list_chunkmanagers()


def test_quadratic_means_after_ds_chunk(uv):
    u, v = uv
    ds = xr.Dataset(dict(anom_u=(DIMS, u), anom_v=(DIMS, v)))
    ds = ds.chunk({"time": 5}, chunked_array_type="cubed-java")
    assert isinstance(ds.anom_u.data, cubed_java.Array)
    assert ds.anom_u.chunks == ((5, 5, 2), (1,), (6,), (8,))
    quad = ds**2
    quad["uv"] = ds.anom_u * ds.anom_v
    result = quad.mean("time", skipna=False).compute()
    np.testing.assert_allclose(result.anom_u.values, (u**2).mean(0), rtol=1e-12)
    np.testing.assert_allclose(result.anom_v.values, (v**2).mean(0), rtol=1e-12)
    np.testing.assert_allclose(result.uv.values, (u * v).mean(0), rtol=1e-12)


def test_quadratic_means_on_zarr_written_by_the_jvm_and_read_back(tmp_path, uv):
    u, v = uv
    # the JVM writes the dataset (one Zarr v3 group, dimension_names set) ...
    src = xr.Dataset(dict(anom_u=(DIMS, u), anom_v=(DIMS, v)))
    cubed_java.to_zarr_dataset(src.chunk({"time": 4}, chunked_array_type="cubed-java"),
                               tmp_path / "uv.zarr")
    # ... and reads it back lazily, as the blog post's from_zarr + Dataset does
    ds = cubed_java.open_dataset(tmp_path / "uv.zarr", chunks={"time": 3})
    assert ds.anom_u.dims == tuple(DIMS)
    assert ds.anom_u.chunks[0] == (3, 3, 3, 3)
    quad = ds**2
    quad["uv"] = ds.anom_u * ds.anom_v
    result = quad.mean("time", skipna=False).compute()
    np.testing.assert_allclose(result.uv.values, (u * v).mean(0), rtol=1e-12)
    # the result written by the JVM and read back again
    cubed_java.to_zarr_dataset(quad.mean("time", skipna=False), tmp_path / "out.zarr")
    back = cubed_java.open_dataset(tmp_path / "out.zarr")
    np.testing.assert_allclose(back.anom_v.values, (v**2).mean(0), rtol=1e-12)


def test_anchor_style_from_zarr_then_dataset(tmp_path, uv):
    u, v = uv
    for name, a in (("U", u), ("V", v)):
        xp.to_zarr(xp.asarray(a, chunks=(5, 1, 6, 8)), tmp_path / f"{name}.zarr")
    uu, vv = (cubed_java.from_zarr(tmp_path / f"{n}.zarr") for n in ("U", "V"))
    ds = xr.Dataset(dict(anom_u=(DIMS, uu), anom_v=(DIMS, vv)))
    quad = ds**2
    quad["uv"] = ds.anom_u * ds.anom_v
    result = quad.mean("time", skipna=False).compute()
    np.testing.assert_allclose(result.anom_u.values, (u**2).mean(0), rtol=1e-12)


def test_reductions_arithmetic_rechunk(uv):
    u, _ = uv
    da = xr.DataArray(u, dims=DIMS).chunk({"time": 4, "j": 3}, chunked_array_type="cubed-java")
    np.testing.assert_allclose(da.sum("time").values, u.sum(0))
    np.testing.assert_allclose(da.std("j").values, u.std(2), rtol=1e-10)
    np.testing.assert_allclose(da.max().values, u.max())
    np.testing.assert_allclose(da.mean(["j", "i"]).values, u.mean((2, 3)), rtol=1e-12)
    np.testing.assert_allclose(((da - da.mean("time")) / 2).values, (u - u.mean(0)) / 2,
                               rtol=1e-12)
    re = da.chunk({"time": 6})
    assert re.chunks[0] == (6, 6) and isinstance(re.data, cubed_java.Array)
    np.testing.assert_allclose(da.isel(time=slice(2, 9, 3), i=0).values, u[2:9:3, :, :, 0])


def test_apply_ufunc_parallelized(uv):
    u, _ = uv
    da = xr.DataArray(u, dims=DIMS).chunk({"time": 5}, chunked_array_type="cubed-java")
    out = xr.apply_ufunc(np.cbrt, da, dask="parallelized", output_dtypes=[np.float64])
    assert isinstance(out.data, cubed_java.Array)
    np.testing.assert_allclose(out.values, np.cbrt(u), rtol=1e-12)


def test_store_honours_xarrays_regions_and_appends():
    """to_zarr(region=...) and to_zarr(append_dim=...) reach the chunk manager as store(...,
    regions=[tuple of slices]) through xarray's own ArrayWriter: each source lands in its region
    (it used to be written at the target's origin: [9, 10, 0, 0, ...])."""
    from xarray.backends.common import ArrayWriter

    target = np.zeros((10, 4))
    a = np.arange(16.0).reshape(4, 4) + 1
    w = ArrayWriter()
    w.add(cubed_java.from_array(a, (3, 2)), target, region=(slice(2, 6), slice(None)))
    w.sync()
    want = np.zeros((10, 4))
    want[2:6] = a
    np.testing.assert_array_equal(target, want)
    # an append: xarray grows the target, then writes the new part as a region at its end
    grown = np.concatenate([target, np.zeros((3, 4))])
    b = -np.arange(12.0).reshape(3, 4)
    w.add(cubed_java.from_array(b, (2, 4)), grown, region=(slice(10, None), slice(0, 4)))
    w.sync()
    want = np.concatenate([want, b])
    np.testing.assert_array_equal(grown, want)


def test_store_refuses_a_region_that_does_not_fit_and_writes_nothing():
    from cubed_java.xarray_chunkmanager import CubedJavaChunkManager

    cm = CubedJavaChunkManager()
    x = cubed_java.from_array(np.ones((4, 4)), (2, 2))
    y = cubed_java.from_array(np.ones((2, 4)), (2, 2))
    t1, t2 = np.zeros((10, 4)), np.zeros((10, 4))
    with pytest.raises(ValueError, match="dimension 0 spans 2..5 but the source has 2"):
        cm.store([x, y], [t1, t2], regions=[(slice(0, 4), slice(None)),
                                             (slice(2, 5), slice(None))])
    assert not t1.any() and not t2.any()
    with pytest.raises(ValueError, match="step 1"):
        cm.store(x, t1, regions=(slice(0, 8, 2), slice(None)))
    delayed = cm.store(x, t1, compute=False)  # a delayed write (test_xarray_store.py)
    assert not t1.any()
    delayed.compute()
    assert t1[:4].all() and not t1[4:].any()
