"""Standard forms that were wrong (issue 26), each against NumPy 2 and the Array API standard."""
import math

import numpy as np
import pytest

import cubed_java.array_api as xp


@pytest.mark.parametrize("fn,np_fn", [("cumulative_sum", np.cumsum),
                                      ("cumulative_prod", np.cumprod)])
@pytest.mark.parametrize("dtype", ["int8", "int16", "uint8", "float32", "complex64"])
def test_cumulative_dtype_is_honoured(fn, np_fn, dtype):
    a = np.array([100, 100, 3, 100, 7], dtype=np.int16)
    x = xp.asarray(a, chunks=2)
    got = getattr(xp, fn)(x, dtype=np.dtype(dtype))
    want = np_fn(a, dtype=np.dtype(dtype))  # accumulates at that width: int8 wraps
    assert got.dtype == np.dtype(dtype)
    np.testing.assert_array_equal(got.compute(), want)
    first = getattr(xp, fn)(x, dtype=np.dtype(dtype), include_initial=True)
    assert first.dtype == np.dtype(dtype)
    np.testing.assert_array_equal(first.compute()[1:], want)


def test_asarray_copy_true_is_a_new_array_that_later_assignment_leaves_alone():
    a = np.arange(6.0)
    x = xp.asarray(a, chunks=4)
    y = xp.asarray(x, copy=True)
    assert y is not x
    x[0] = 99.0  # rebinds x only
    np.testing.assert_array_equal(y.compute(), a)
    assert float(x.compute()[0]) == 99.0
    y[1] = -1.0
    assert float(x.compute()[1]) == 1.0
    assert xp.asarray(x) is x  # copy=None reuses
    assert xp.asarray(x, copy=False) is x
    with pytest.raises(ValueError, match="copy=False"):
        xp.asarray(x, dtype=xp.float32, copy=False)  # a conversion is a copy
    with pytest.raises(ValueError, match="copy=False"):
        xp.asarray(a, copy=False)  # NumPy data crosses into the JVM as a copy


@pytest.mark.parametrize("side", ["left", "right"])
def test_searchsorted_with_a_sorter(side):
    rng = np.random.default_rng(5)
    a = rng.integers(0, 20, 17).astype(np.float64)
    order = np.argsort(a, kind="stable")
    v = np.array([-1.0, 0.0, 3.0, 7.5, 19.0, 25.0, a[3]])
    x1 = xp.asarray(a, chunks=5)
    got = xp.searchsorted(x1, xp.asarray(v, chunks=3), side=side,
                          sorter=xp.asarray(order, chunks=4))
    np.testing.assert_array_equal(got.compute(), np.searchsorted(a, v, side=side, sorter=order))
    got2 = xp.searchsorted(x1, xp.asarray(v), side=side, sorter=xp.argsort(x1))
    np.testing.assert_array_equal(got2.compute(), np.searchsorted(a, v, side=side,
                                                                  sorter=order))
    with pytest.raises(ValueError, match="sorter"):
        xp.searchsorted(x1, xp.asarray(v), sorter=xp.asarray(order[:3]))


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_unique_functions_on_complex(dtype):
    nan = math.nan
    a = np.array([2 - 1j, 1 + 1j, 0j, complex(-0.0, 0.0), 1 + 1j, complex(nan, 0),
                  complex(1, nan), 1 - 1j, complex(nan, 0), 2 - 1j, 1 + 1j],
                 dtype=dtype).reshape(11)
    x = xp.asarray(a, chunks=3)
    want = np.unique_all(a)
    got = xp.unique_all(x)
    for name in ("values", "indices", "inverse_indices", "counts"):
        np.testing.assert_array_equal(getattr(got, name).compute(), getattr(want, name), name)
    assert got.values.dtype == np.dtype(dtype)
    # NumPy 2.3+ unique_values may be unordered (the standard leaves the order open)
    np.testing.assert_array_equal(xp.unique_values(x).compute(), np.unique(a, equal_nan=False))
    c = xp.unique_counts(xp.reshape(x[:10], (2, 5)))
    wc = np.unique_counts(a[:10].reshape(2, 5))
    np.testing.assert_array_equal(c.counts.compute(), wc.counts)
    inv = xp.unique_inverse(xp.reshape(x[:10], (2, 5)))
    wi = np.unique_inverse(a[:10].reshape(2, 5))
    np.testing.assert_array_equal(inv.inverse_indices.compute(), wi.inverse_indices)
    np.testing.assert_array_equal(inv.values.compute(), wi.values)


def test_isin_scalar_forms():
    a = np.array([[1, 2, 3], [4, 5, 6]], dtype=np.int32)
    x = xp.asarray(a, chunks=2)
    r = xp.isin(2, x)
    assert r.shape == () and r.dtype == xp.bool
    assert bool(r.compute()) is True
    assert bool(xp.isin(7, x).compute()) is False
    assert bool(xp.isin(2.5, x).compute()) is False  # compared as numbers, not cast to int
    assert bool(xp.isin(2, x, invert=True).compute()) is False
    u = xp.asarray(np.array([2**63, 5], dtype=np.uint64))
    assert bool(xp.isin(2**63, u).compute()) is True  # past int64: compared as uint64
    assert bool(xp.isin(2**64 - 1, u).compute()) is False
    np.testing.assert_array_equal(xp.isin(x, 5).compute(), np.isin(a, 5))
    np.testing.assert_array_equal(xp.isin(x, 5, invert=True).compute(),
                                  np.isin(a, 5, invert=True))


@pytest.mark.parametrize("axis", [3, -4, 10])
def test_expand_dims_axis_out_of_range_is_an_index_error(axis):
    x = xp.asarray(np.zeros((2, 3)))
    with pytest.raises(IndexError, match="expand_dims"):
        xp.expand_dims(x, axis=axis)
    assert xp.expand_dims(x, axis=-3).shape == (1, 2, 3)
    assert xp.expand_dims(x, axis=2).shape == (2, 3, 1)


def test_zero_dimensional_boolean_mask():
    a = np.arange(6).reshape(2, 3)
    x = xp.asarray(a, chunks=2)
    t = x[xp.asarray(True)]
    f = x[xp.asarray(False)]
    assert t.shape == (1, 2, 3) and f.shape == (0, 2, 3)
    np.testing.assert_array_equal(t.compute(), a[np.True_])
    assert f.compute().shape == a[np.False_].shape
    s = xp.asarray(7)[xp.asarray(True)]
    assert s.shape == (1,)
    np.testing.assert_array_equal(s.compute(), [7])


@pytest.mark.parametrize("start,stop,num", [(0.1, 1.7, 7), (0, 1, 7), (-3.3, 2.9, 11),
                                            (1e-3, 5, 13), (2.0, 2.0, 4), (5, -1, 1),
                                            (0, 1, 0), (1 + 2j, 3 - 1j, 6)])
@pytest.mark.parametrize("endpoint", [True, False])
def test_linspace_matches_numpy_bit_for_bit(start, stop, num, endpoint):
    want = np.linspace(start, stop, num, endpoint=endpoint)
    got = xp.linspace(start, stop, num, endpoint=endpoint, chunks=3)
    assert got.dtype == want.dtype and got.shape == want.shape
    g = got.compute()
    assert g.tobytes() == want.tobytes(), (g, want)
    f32 = xp.linspace(start, stop, num, endpoint=endpoint, dtype=(
        xp.complex64 if isinstance(start, complex) else xp.float32)).compute()
    np.testing.assert_array_equal(f32, want.astype(f32.dtype))


def test_complex_qr_of_huge_entries_does_not_overflow():
    a = np.array([[1e308 + 1e308j]])
    q, r = xp.linalg.qr(xp.asarray(a))
    q, r = q.compute(), r.compute()
    assert np.all(np.isfinite(q)) and np.all(np.isfinite(r))
    np.testing.assert_allclose(abs(q), [[1.0]], rtol=1e-15)
    np.testing.assert_allclose(abs(r), np.abs(a), rtol=1e-15)
    np.testing.assert_allclose(q * r, a, rtol=1e-15)
    b = np.array([[1e308 + 1e308j, 1.0], [1e307j, 2.0], [3e307, -1j]])
    q, r = xp.linalg.qr(xp.asarray(b))
    q, r = q.compute(), r.compute()
    assert np.all(np.isfinite(q)) and np.all(np.isfinite(r))
    np.testing.assert_allclose(q.conj().T @ q, np.eye(2), atol=1e-14)
    np.testing.assert_allclose(q @ r, b, rtol=1e-14, atol=1e294)
    tiny = np.array([[1e-320 + 1e-320j], [2e-320 + 0j]])
    q, r = xp.linalg.qr(xp.asarray(tiny))
    q = q.compute()
    np.testing.assert_allclose(abs(q[:, 0]) ** 2 @ np.ones(2), 1.0, rtol=1e-12)


@pytest.mark.parametrize("fn", ["ones", "zeros", "empty"])
def test_zero_length_axis_takes_chunk_size_zero(fn):
    x = getattr(xp, fn)((0, 2), chunks=(0, 2))
    assert x.shape == (0, 2)
    assert x.compute().shape == (0, 2)
    y = xp.full((3, 0), 1.5, chunks=(2, 0))
    assert y.compute().shape == (3, 0)
    with pytest.raises(ValueError, match="chunk size 0"):
        xp.ones((4, 2), chunks=(0, 2))  # a non-empty axis still needs a positive size


@pytest.mark.parametrize("x_shape,mask_shape", [((), (3,)), ((2, 3), (3, 2)), ((4,), (2,))])
def test_mask_of_another_shape_is_an_index_error(x_shape, mask_shape):
    # the standard and array-api-tests' test_getitem_masking; it was a ValueError
    x = xp.asarray(np.ones(x_shape, dtype=np.float32))
    mask = xp.asarray(np.ones(mask_shape, dtype=bool))
    with pytest.raises(IndexError, match="mask shape"):
        x[mask]


def test_outer_keeps_the_sign_of_zero_products():
    # array-api-tests' test_outer compares with x1[i] * x2[j] bit for bit: -0.0 * 5.0 is -0.0
    a = np.array([-0.0, 2.0, 0.0])
    b = np.array([5.0, -1.0], dtype=np.float32)
    got = xp.linalg.outer(xp.asarray(a, chunks=2), xp.asarray(b, chunks=1)).compute()
    want = np.outer(a, b)
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(np.signbit(got), np.signbit(want))
    np.testing.assert_array_equal(got, want)
