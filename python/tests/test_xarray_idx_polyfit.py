"""idxmax/idxmin and polyfit on cubed-java arrays: lazy (nothing computed until ``.values``) and
equal to NumPy-backed xarray. Before: idxmax raised "Vectorized indexing is not supported" (a
numeric coordinate) or "Cannot index with a chunked array indexer" (a datetime one), polyfit
"any() got an unexpected keyword argument 'out'"."""
import warnings

import numpy as np
import pandas as pd
import pytest
import xarray as xr

from cubed_java.testing import raise_if_computes


@pytest.fixture
def data(rng):
    x = rng.random((12, 4, 5))
    x[3, 1, 1] = np.nan
    x[:, 2, 2] = np.nan  # an all-NaN series
    da = xr.DataArray(x, dims=("t", "y", "x"),
                      coords={"t": np.arange(12) * 1.5, "y": np.arange(4) * 10})
    return da, da.chunk({"t": 4, "y": 2}, chunked_array_type="cubed-java")


@pytest.mark.parametrize("func", ["idxmax", "idxmin"])
@pytest.mark.parametrize("dim", ["t", "y"])
def test_idxmax_idxmin_are_lazy_and_right(data, func, dim):
    eager, lazy = data
    with raise_if_computes():
        got = getattr(lazy, func)(dim)
    xr.testing.assert_identical(got.compute(), getattr(eager, func)(dim))
    with raise_if_computes():
        got = getattr(lazy, func)(dim, skipna=False)
    xr.testing.assert_identical(got.compute(), getattr(eager, func)(dim, skipna=False))


def test_idxmax_over_a_datetime_coordinate_is_refused_clearly(data):
    _, lazy = data
    lazy = lazy.assign_coords(t=pd.date_range("2000-01-01", periods=12))
    with pytest.raises(NotImplementedError, match="datetime.*argmax"):
        lazy.idxmax("t")


@pytest.mark.parametrize("kwargs", [{}, {"skipna": True}, {"full": True}, {"cov": True}])
def test_polyfit_is_lazy_and_right(data, kwargs):
    eager, lazy = data
    if "cov" in kwargs:  # xarray's covariance needs residuals of NaN-free series
        eager, lazy = eager.fillna(0.5), lazy.fillna(0.5)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with raise_if_computes():
            got = lazy.polyfit("t", 2, **kwargs)
        want = eager.polyfit("t", 2, **kwargs)
        got = got.compute()
    assert set(got.data_vars) == set(want.data_vars)
    xr.testing.assert_allclose(got, want)


def test_polyfit_without_nans_skipna_false_is_lazy_and_right(rng):
    x = rng.random((10, 3))
    da = xr.DataArray(x, dims=("t", "s"), coords={"t": np.linspace(0, 1, 10)})
    lazy = da.chunk({"t": 3}, chunked_array_type="cubed-java")
    with raise_if_computes():
        got = lazy.polyfit("t", 1, skipna=False)
    xr.testing.assert_allclose(got.compute(), da.polyfit("t", 1, skipna=False))
