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
