# cubed-xarray's test suite, tag v0.0.9 (commit 287bb3e7d7b86f139dfdb1829eb609f98457c78c),
# https://github.com/cubed-dev/cubed-xarray, cubed_xarray/tests/test_wrapping.py.
# Copyright the cubed-xarray authors; licensed under the Apache License, Version 2.0 (the
# LICENSE file beside this one). Modified for Cubed for Java (each changed line is marked
# "adapted"); nothing else was changed, no test was added, removed or edited otherwise:
#   - imports: `cubed` is `cubed_java`; CubedManager is cubed_java's CubedJavaChunkManager;
#     `cubed.runtime.create.create_executor` is not imported;
#   - the chunk manager's name "cubed" is "cubed-java" (chunked_array_type=, list_chunkmanagers);
#   - `cubed.Spec(...)` is `cubed.configure(...)` (same keywords: it sets the session's spec);
#   - executors are named ("threads", "processes") instead of made by create_executor, and the
#     fixture's ids are those names;
#   - the Dataset accessor is `ds.cubed_java` (the package's name) instead of `ds.cubed`.
# Tests needing a package the build's test environment lacks are skipped by conftest.py here
# (with the reason), not edited.
import sys

import cubed_java as cubed  # adapted: import
import numpy as np
import pytest
import xarray as xr
from numpy.testing import assert_array_equal
from xarray.namedarray.parallelcompat import list_chunkmanagers
from xarray.tests import assert_allclose, create_test_data

from cubed_java.xarray_chunkmanager import CubedJavaChunkManager as CubedManager  # adapted: import

EXECUTORS = ["threads"]  # adapted: executor names

if sys.version_info >= (3, 11):
    EXECUTORS.append("processes")  # adapted: executor names


@pytest.fixture(
    scope="module",
    params=EXECUTORS,
    ids=EXECUTORS,  # adapted: executor names
)
def executor(request):
    return request.param


def assert_identical(a, b):
    """A version of this function which accepts numpy arrays"""
    __tracebackhide__ = True
    from xarray.testing import assert_identical as assert_identical_

    if hasattr(a, "identical"):
        assert_identical_(a, b)
    else:
        assert_array_equal(a, b)


class TestDiscoverCubedManager:
    def test_list_cubedmanager(self):
        chunkmanagers = list_chunkmanagers()
        assert "cubed-java" in chunkmanagers
        assert isinstance(chunkmanagers["cubed-java"], CubedManager)

    def test_chunk(self):
        da = xr.DataArray([1, 2], dims="x")
        chunked = da.chunk(x=1, chunked_array_type="cubed-java")
        assert isinstance(chunked.data, cubed.Array)
        assert chunked.chunksizes == {"x": (1, 1)}

    # TODO test cubed is default when dask not installed

    # TODO test dask is default over cubed when both installed


def test_to_zarr(tmpdir, executor):
    spec = cubed.configure(allowed_mem="200MB", executor=executor)  # adapted: Spec

    original = create_test_data().chunk(
        chunked_array_type="cubed-java", from_array_kwargs={"spec": spec}
    )

    filename = tmpdir / "out.zarr"
    original.to_zarr(filename)

    with xr.open_dataset(
        filename,
        chunks="auto",
        engine="zarr",
        chunked_array_type="cubed-java",
        from_array_kwargs={"spec": spec},
    ) as restored:
        assert isinstance(restored.var1.data, cubed.Array)
        computed = restored.compute()
        assert_allclose(original, computed)


# based on test_write_region
def test_write_region(tmpdir):
    zeros = xr.Dataset({"u": (("x",), np.zeros(10))}).chunk(
        2, chunked_array_type="cubed-java"
    )
    nonzeros = xr.Dataset({"u": (("x",), np.arange(1, 11))}).chunk(
        2, chunked_array_type="cubed-java"
    )

    store = tmpdir / "out.zarr"
    zeros.to_zarr(
        store,
        encoding={"u": dict(chunks=2)},
    )
    with xr.open_zarr(store) as actual:
        assert_identical(actual, zeros)
    for i in range(0, 10, 2):
        region = {"x": slice(i, i + 2)}
        nonzeros.isel(region).to_zarr(store, region=region)
    with xr.open_zarr(store) as actual:
        assert_identical(actual, nonzeros)


def test_dataset_accessor_visualize(tmp_path):
    spec = cubed.configure(allowed_mem="200MB")  # adapted: Spec

    ds = create_test_data().chunk(
        chunked_array_type="cubed-java", from_array_kwargs={"spec": spec}
    )
    assert not (tmp_path / "cubed.svg").exists()
    ds.cubed_java.visualize(  # adapted: accessor name
        filename=tmp_path / "cubed")
    assert (tmp_path / "cubed.svg").exists()


def identity(x):
    return x


# based on test_apply_dask_parallelized_one_arg
def test_apply_ufunc_parallelized_one_arg():
    array = cubed.ones((2, 2), chunks=(1, 1))
    data_array = xr.DataArray(array, dims=("x", "y"))

    def parallel_identity(x):
        return xr.apply_ufunc(
            identity,
            x,
            output_dtypes=[x.dtype],
            dask="parallelized",
            dask_gufunc_kwargs={"allow_rechunk": False},
        )

    actual = parallel_identity(data_array)
    assert isinstance(actual.data, cubed.Array)
    assert actual.data.chunks == array.chunks
    assert_identical(data_array, actual)

    computed = data_array.compute()
    actual = parallel_identity(computed)
    assert_identical(computed, actual)
