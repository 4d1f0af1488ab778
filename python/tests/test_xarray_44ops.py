"""The 44-operation check (issue 26): xarray_ops44's list of typical xarray operations on the
"cubed-java" chunk manager, each compared with NumPy-backed xarray (a wrong value is a failure)
and marked lazy or not; more of them must be lazy here than on Python Cubed (measured with the
same list: ``python python/tests/xarray_ops44.py --backend cubed``, docs/python.md)."""
import importlib.util

import pytest

pytest.importorskip("xarray")

import xarray_ops44  # noqa: E402

#: Python Cubed 0.27.0 with cubed-xarray 0.0.9 on the same list (29 lazy, 7 eager, 8 fail),
#: measured once with xarray_ops44.py --backend cubed (docs/python.md lists each operation).
PYTHON_CUBED_LAZY = 29

#: interp needs SciPy (its Python function then runs as tasks like apply_ufunc's); without SciPy
#: it fails with ModuleNotFoundError, never a wrong value.
NEEDS_SCIPY = {"interp"}


@pytest.fixture(scope="module")
def results():
    return xarray_ops44.run("cubed-java")


def test_the_list_has_44_operations():
    assert len(xarray_ops44.OPS) == 44


@pytest.mark.parametrize("name", list(xarray_ops44.OPS))
def test_operation(results, name):
    status, detail = results[name]
    if name in NEEDS_SCIPY and importlib.util.find_spec("scipy") is None:
        assert status == "fails" and detail.startswith("ModuleNotFoundError"), detail
        return
    assert status == "lazy", f"{name}: {status} ({detail})"


def test_more_operations_are_lazy_than_on_python_cubed(results):
    lazy = sorted(n for n, (s, _) in results.items() if s == "lazy")
    assert len(lazy) >= PYTHON_CUBED_LAZY + 1, (len(lazy), lazy)
