"""Operations between cubed-java arrays and Dask/NumPy arrays (right, or a TypeError naming both
types: never an identity comparison), the progress bar as a context manager over ``to_zarr``,
``.values`` and ``.load()``, refused ``from_array_kwargs``, the memory refusal's Python setting."""
import io

import numpy as np
import pytest
import xarray as xr

import cubed_java
import cubed_java.array_api as xp
from cubed_java.diagnostics import ProgressBar

@pytest.fixture
def pair():
    pytest.importorskip("dask.array")
    x = np.arange(6.0)
    a = xr.DataArray(x, dims="x").chunk(x=2)  # Dask
    b = xr.DataArray(x, dims="x").chunk(x=2, chunked_array_type="cubed-java")
    return x, a, b


def test_eq_and_add_between_dask_and_cubed_java_are_right(pair):
    """Before: (a == b).values was all False (== fell back to identity), a + b a bare
    TypeError."""
    x, a, b = pair
    for got in (a == b, b == a):
        assert got.values.tolist() == [True] * 6
    for got in (a + b, b + a, a.data + b.data):
        np.testing.assert_array_equal(np.asarray(got), x * 2)
    np.testing.assert_array_equal(np.asarray(b.data != a.data), np.zeros(6, bool))
    np.testing.assert_array_equal((b - x).values, np.zeros(6))  # NumPy operand


def test_an_operand_of_another_kind_is_a_type_error_naming_both_types():
    class Other:
        shape = (3,)
        dtype = np.dtype("f8")

    y = xp.asarray(np.zeros(3), chunks=(1,))
    with pytest.raises(TypeError, match=r"cubed_java\.Array and a .*Other"):
        y == Other()  # noqa: B015
    with pytest.raises(TypeError, match="'Array' and 'Other'"):
        y + Other()


def test_a_large_dask_operand_is_refused_not_computed(monkeypatch, pair):
    from cubed_java import _mixed

    _, a, b = pair
    monkeypatch.setattr(_mixed, "DASK_INPUT_MAX_BYTES", 8)
    with pytest.raises(TypeError, match=r"dask Array of 48 bytes.*chunked_array_type"):
        b.data + a.data


def test_progress_bar_as_a_context_manager_shows_to_zarr_values_and_load(tmp_path):
    buf = io.StringIO()
    ds = xr.Dataset({"v": (("t", "y"), np.arange(24.0).reshape(6, 4))}).chunk(
        {"t": 2}, chunked_array_type="cubed-java")
    with ProgressBar(file=buf, interval=0):
        np.testing.assert_array_equal((ds.v * 2).values, np.arange(24.0).reshape(6, 4) * 2)
        after_values = buf.getvalue()
        (ds.v + 1).load()
        after_load = buf.getvalue()
        if _has_zarr3():
            (ds * 3).to_zarr(tmp_path / "p.zarr")
        else:  # (xarray's Zarr backend needs zarr-python 3)
            (ds.v * 5).compute()
    assert "multiply" in after_values and "3/3" in after_values, after_values
    assert len(after_load) > len(after_values)
    assert len(buf.getvalue()) > len(after_load)
    if _has_zarr3():
        assert "store_region" in buf.getvalue()
    # unregistered after the block
    n = len(buf.getvalue())
    (ds.v - 1).values
    assert len(buf.getvalue()) == n


def test_register_and_unregister():
    buf = io.StringIO()
    bar = ProgressBar(file=buf, interval=0).register()
    try:
        xp.asarray(np.ones(4), chunks=(2,)).__add__(1).compute()
    finally:
        bar.unregister()
    assert "add" in buf.getvalue()


def _has_zarr3():
    try:
        import zarr
    except ImportError:
        return False
    return int(zarr.__version__.split(".")[0]) >= 3


def test_unknown_from_array_kwargs_are_refused_naming_the_known_ones():
    da = xr.DataArray(np.arange(4.0), dims="x")
    with pytest.raises(TypeError, match=r"\['asarray'\].*known: name, lock, inline_array, spec"):
        da.chunk(x=2, chunked_array_type="cubed-java", from_array_kwargs={"asarray": True})
    spec = cubed_java.configure()
    ok = da.chunk(x=2, chunked_array_type="cubed-java", from_array_kwargs={"spec": spec})
    np.testing.assert_array_equal(ok.values, np.arange(4.0))


def test_the_memory_refusal_names_the_python_setting():
    was = cubed_java.settings()
    try:
        cubed_java.configure(allowed_mem="2MB", reserved_mem="0")
        big = xp.asarray(np.zeros((1000, 1000)), chunks=(1000, 1000))
        with pytest.raises(Exception, match=r"cubed_java\.configure\(allowed_mem=\.\.\.\)") as e:
            (big + 1).compute()
        assert "Spec.builder()" not in str(e.value)
    finally:
        cubed_java.configure(**was)
