"""Skips (with the reason) the cubed-xarray tests that need a package the test environment lacks;
the test files themselves are not edited for it."""
import importlib.util

import pytest

#: test name prefix -> (module that must be importable, why)
_NEEDS = {
    "test_to_zarr": ("zarr", "needs zarr-python (xarray's Zarr backend), which the build's package"
                             " index does not have"),
    "test_write_region": ("zarr", "needs zarr-python (xarray's Zarr backend), which the build's"
                                  " package index does not have"),
}


def pytest_collection_modifyitems(config, items):
    for item in items:
        if "cubed_xarray_suite" not in str(item.fspath):
            continue
        need = _NEEDS.get(item.originalname if hasattr(item, "originalname") else item.name)
        if need and importlib.util.find_spec(need[0]) is None:
            item.add_marker(pytest.mark.skip(reason=need[1]))


@pytest.fixture(autouse=True, scope="module")
def _engine_settings_back():
    """cubed-xarray's tests set the session's spec (``configure(allowed_mem="200MB", ...)``, the
    adaptation of ``cubed.Spec(...)``) and the settings would stay for the rest of the session:
    each module of the suite gives them back when it ends."""
    import cubed_java

    before = cubed_java.settings()
    yield
    cubed_java.configure(**before)


@pytest.fixture(autouse=True)
def _cubed_java_is_the_default_chunk_manager():
    """cubed-xarray runs this suite where cubed is the only chunk manager, so xarray's ``chunk()``
    without ``chunked_array_type`` (``DataArray([1, 2]).chunk()``, the first ``chunk({"x": 2})``
    of ``test_rechunk``) chunks with it. Where Dask is installed too, xarray's default is Dask and
    those calls would test Dask arrays: the default is "cubed-java" here, as upstream's is
    "cubed"."""
    import xarray as xr

    with xr.set_options(chunk_manager="cubed-java"):
        yield
