"""The Array API namespace against NumPy on the same data (chunked with partial edge blocks)."""
import math

import numpy as np
import pytest

import cubed_java
import cubed_java.array_api as xp
from cubed_java import errors

DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
          "float32", "float64", "complex64", "complex128"]


def sample(rng, dtype, shape=(5, 7)):
    dt = np.dtype(dtype)
    if dt.kind == "b":
        return rng.random(shape) < 0.5
    if dt.kind in "iu":
        return rng.integers(1, 50, size=shape).astype(dt)
    if dt.kind == "f":
        return (rng.random(shape) * 10 + 0.5).astype(dt)
    return (rng.random(shape) + 1j * rng.random(shape) + 0.5).astype(dt)


@pytest.mark.parametrize("dtype", DTYPES)
def test_every_dtype_crosses_both_ways(rng, dtype):
    a = sample(rng, dtype)
    x = xp.asarray(a, chunks=(2, 3))
    assert x.dtype == a.dtype
    assert x.shape == a.shape
    assert x.chunks == ((2, 2, 1), (3, 3, 1))
    out = np.asarray(x)
    assert out.dtype == a.dtype
    np.testing.assert_array_equal(out, a)


@pytest.mark.parametrize("dtype", ["int32", "int64", "uint8", "float32", "float64", "complex128"])
@pytest.mark.parametrize("op", ["+", "-", "*", "/", "==", "<", "**"])
def test_operators_match_numpy(rng, dtype, op):
    if op in ("<",) and dtype.startswith("complex"):
        pytest.skip("complex numbers are not ordered")
    a, b = sample(rng, dtype), sample(rng, dtype)
    x, y = xp.asarray(a, chunks=(2, 3)), xp.asarray(b, chunks=(3, 2))
    f = eval(f"lambda p, q: p {op} q")
    if op == "**" and not dtype.startswith("complex"):
        b = b % 3  # keep integer powers in range
        y = xp.asarray(b, chunks=(3, 2))
    expect = f(a, b)
    got = f(x, y).compute()
    assert got.dtype == expect.dtype, (op, dtype)
    np.testing.assert_allclose(got, expect, rtol=1e-5)


def test_scalars_follow_the_standard(rng):
    a = sample(rng, "int8")
    x = xp.asarray(a, chunks=2)
    assert (x + 2).dtype == np.int8
    assert (3 * x).dtype == np.int8
    f = xp.asarray(sample(rng, "float32"))
    assert (f * 2.5).dtype == np.float32
    np.testing.assert_allclose((2.5 - f).compute(), 2.5 - np.asarray(f))
    assert (-x).dtype == np.int8
    np.testing.assert_array_equal(abs(-x).compute(), a)


@pytest.mark.parametrize("fn", ["sin", "exp", "log", "sqrt", "floor", "isnan", "sign", "square"])
def test_unary_functions(rng, fn):
    a = sample(rng, "float64", (6, 4))
    got = getattr(xp, fn)(xp.asarray(a, chunks=(4, 3))).compute()
    np.testing.assert_allclose(got, getattr(np, fn)(a), rtol=1e-12)


@pytest.mark.parametrize("axis", [None, 0, 1, (0, 1), -1])
@pytest.mark.parametrize("keepdims", [False, True])
def test_reductions(rng, axis, keepdims):
    a = sample(rng, "float64", (7, 5))
    x = xp.asarray(a, chunks=(3, 2))
    for name in ["sum", "prod", "min", "max", "mean"]:
        got = getattr(xp, name)(x, axis=axis, keepdims=keepdims).compute()
        np.testing.assert_allclose(got, getattr(np, name)(a, axis=axis, keepdims=keepdims),
                                   rtol=1e-12, err_msg=name)
    np.testing.assert_allclose(xp.std(x, axis=axis, correction=1, keepdims=keepdims).compute(),
                               np.std(a, axis=axis, ddof=1, keepdims=keepdims), rtol=1e-10)
    np.testing.assert_allclose(xp.var(x, axis=axis, keepdims=keepdims).compute(),
                               np.var(a, axis=axis, keepdims=keepdims), rtol=1e-10)


def test_sum_of_small_ints_is_int64(rng):
    x = xp.asarray(sample(rng, "int8"), chunks=2)
    assert xp.sum(x).dtype == np.int64
    assert int(xp.sum(x)) == int(np.sum(np.asarray(x), dtype=np.int64))


@pytest.mark.parametrize("key", [
    (slice(1, None), slice(None, None, 2)), (0,), (-1, slice(None, None, -1)),
    (None, Ellipsis, 2), (slice(2, 5), None, slice(1, 6, 3)), (Ellipsis,), (slice(9, 1),)])
def test_basic_indexing(rng, key):
    a = sample(rng, "float64", (6, 8))
    x = xp.asarray(a, chunks=(4, 3))
    np.testing.assert_array_equal(x[key].compute(), a[key])


def test_boolean_mask_indexing(rng):
    a = sample(rng, "float64", (6, 8))
    x = xp.asarray(a, chunks=(4, 3))
    np.testing.assert_array_equal(x[x > 5].compute(), a[a > 5])


def test_manipulation(rng):
    a = sample(rng, "int64", (4, 6))
    x = xp.asarray(a, chunks=(3, 4))
    np.testing.assert_array_equal(xp.reshape(x, (3, 8)).compute(), a.reshape(3, 8))
    np.testing.assert_array_equal(xp.permute_dims(x, (1, 0)).compute(), a.T)
    np.testing.assert_array_equal(x.T.compute(), a.T)
    np.testing.assert_array_equal(xp.concat([x, x], axis=1).compute(), np.concatenate([a, a], 1))
    np.testing.assert_array_equal(xp.stack([x, x]).compute(), np.stack([a, a]))
    np.testing.assert_array_equal(xp.flip(x, axis=0).compute(), np.flip(a, 0))
    np.testing.assert_array_equal(xp.roll(x, 2, axis=1).compute(), np.roll(a, 2, 1))
    np.testing.assert_array_equal(xp.expand_dims(x, axis=1).compute(), a[:, None])
    np.testing.assert_array_equal(xp.broadcast_to(x[0], (3, 6)).compute(),
                                  np.broadcast_to(a[0], (3, 6)))
    np.testing.assert_array_equal(xp.where(x > 20, x, 0).compute(), np.where(a > 20, a, 0))
    np.testing.assert_array_equal(xp.cumulative_sum(x, axis=1).compute(), np.cumsum(a, 1))
    np.testing.assert_array_equal(xp.argmax(x, axis=1).compute(), np.argmax(a, 1))
    np.testing.assert_array_equal(xp.matmul(x, x.T).compute(), a @ a.T)
    np.testing.assert_array_equal((x @ x.T).compute(), a @ a.T)
    np.testing.assert_array_equal(x.rechunk((2, 5)).compute(), a)
    assert x.rechunk((2, 5)).chunks == ((2, 2), (5, 1))


def test_creation():
    np.testing.assert_array_equal(xp.arange(10, chunks=3).compute(), np.arange(10))
    np.testing.assert_allclose(xp.linspace(0, 1, 11).compute(), np.linspace(0, 1, 11))
    np.testing.assert_array_equal(xp.zeros((3, 4), dtype=xp.int32).compute(),
                                  np.zeros((3, 4), np.int32))
    np.testing.assert_array_equal(xp.full((2, 2), 7).compute(), np.full((2, 2), 7))
    np.testing.assert_array_equal(xp.eye(4, k=1).compute(), np.eye(4, k=1))
    assert xp.ones((5,), chunks=2).chunks == ((2, 2, 1),)


def test_namespace_and_info(rng):
    x = xp.asarray(sample(rng, "float64"))
    assert x.__array_namespace__() is xp
    info = xp.__array_namespace_info__()
    assert info.default_dtypes()["real floating"] == xp.float64
    assert "float32" in info.dtypes(kind="real floating")
    assert xp.isdtype(xp.int8, "signed integer") and not xp.isdtype(xp.uint8, "signed integer")
    assert xp.result_type(xp.int8, xp.uint8) == xp.int16
    assert xp.can_cast(xp.int8, xp.int64) and not xp.can_cast(xp.float64, xp.int8)
    assert float(xp.sum(x)) == pytest.approx(float(np.sum(np.asarray(x))))


def test_errors_carry_the_java_message(rng):
    x = xp.asarray(sample(rng, "float64", (3, 4)))
    with pytest.raises(ValueError) as e:
        xp.reshape(x, (5,))
    assert isinstance(e.value, errors.JavaError)
    assert e.value.java_class.endswith("IllegalArgumentException")
    assert "12" in str(e.value) and "5" in str(e.value), str(e.value)
    with pytest.raises(ValueError, match="bool"):
        xp.mean(xp.asarray(np.array([True, False])))


def test_sort_and_unique_match_numpy(rng):
    a = np.round(sample(rng, "float64", (5, 7)) * 4)
    x = xp.asarray(a, chunks=(2, 3))
    np.testing.assert_array_equal(xp.sort(x, axis=0, descending=True).compute(),
                                  -np.sort(-a, axis=0))
    np.testing.assert_array_equal(xp.argsort(x).compute(), np.argsort(a, stable=True))
    u = xp.unique_all(x)
    assert u._fields == ("values", "indices", "inverse_indices", "counts")
    want = np.unique_all(a)
    for got, w in zip(u, want):
        np.testing.assert_array_equal(got.compute(), w)
    np.testing.assert_array_equal(xp.unique_values(x).compute(), np.unique_values(a))


def test_unknown_functions_name_themselves():
    x = xp.asarray(np.arange(4.0))
    with pytest.raises(NotImplementedError, match="no bridge function 'Xp.noSuch'"):
        cubed_java.session().call("Xp.noSuch", x)


def test_linalg_results_match_numpy(rng):
    a = sample(rng, "float64", (5, 5)) + 5 * np.eye(5)
    x = xp.asarray(a, chunks=(2, 5))
    np.testing.assert_allclose(xp.linalg.inv(x).compute(), np.linalg.inv(a), rtol=1e-10)
    np.testing.assert_allclose(xp.linalg.det(x).compute(), np.linalg.det(a), rtol=1e-10)
    s = xp.linalg.slogdet(x)
    assert s._fields == ("sign", "logabsdet")
    np.testing.assert_allclose(s.logabsdet.compute(), np.linalg.slogdet(a).logabsdet, rtol=1e-10)
    q, r = xp.linalg.qr(x)
    np.testing.assert_allclose((q @ r).compute(), a, atol=1e-10)
    u = xp.linalg.svd(x, full_matrices=False)
    assert u._fields == ("U", "S", "Vh")
    np.testing.assert_allclose(u.S.compute(), np.linalg.svd(a, compute_uv=False), rtol=1e-10)
    sym = a + a.T
    w = xp.linalg.eigh(xp.asarray(sym))
    np.testing.assert_allclose(w.eigenvalues.compute(), np.linalg.eigvalsh(sym), rtol=1e-10)
    np.testing.assert_allclose(xp.linalg.vector_norm(x, axis=1, keepdims=True).compute(),
                               np.linalg.vector_norm(a, axis=1, keepdims=True), rtol=1e-12)
    np.testing.assert_allclose(xp.linalg.matrix_norm(x, ord=1).compute(),
                               np.linalg.matrix_norm(a, ord=1), rtol=1e-12)
    np.testing.assert_allclose(xp.linalg.trace(x, offset=1).compute(), np.trace(a, offset=1))


def test_linalg_rtol_array_and_sum_dtype(rng):
    a = sample(rng, "float64", (3, 4, 4))
    a[1, 3] = a[1, 2] * 1e-3
    r = np.array([1e-15, 1e-2, 0.5])
    np.testing.assert_allclose(xp.linalg.pinv(xp.asarray(a), rtol=xp.asarray(r)).compute(),
                               np.linalg.pinv(a, rtol=r), atol=1e-10)
    np.testing.assert_array_equal(xp.linalg.matrix_rank(xp.asarray(a), rtol=xp.asarray(r))
                                  .compute(), np.linalg.matrix_rank(a, rtol=r))
    u = np.array([100, 200, 3], dtype=np.uint8)
    s = xp.sum(xp.asarray(u), dtype=xp.uint8)
    assert s.dtype == np.uint8 and int(s) == int(np.sum(u, dtype=np.uint8))


def test_fft_matches_numpy(rng):
    a = sample(rng, "float64", (6, 8))
    x = xp.asarray(a, chunks=(2, 3))
    np.testing.assert_allclose(xp.fft.fft(x, axis=0).compute(), np.fft.fft(a, axis=0),
                               atol=1e-12)
    np.testing.assert_allclose(xp.fft.rfftn(x, norm="ortho").compute(),
                               np.fft.rfftn(a, norm="ortho"), atol=1e-12)
    np.testing.assert_allclose(xp.fft.fftshift(x, axes=1).compute(), np.fft.fftshift(a, axes=1))
    np.testing.assert_allclose(xp.fft.fftfreq(7, d=0.5).compute(), np.fft.fftfreq(7, d=0.5))


def test_integer_array_indexing(rng):
    a = sample(rng, "float32", (6, 5, 3))
    x = xp.asarray(a, chunks=(4, 2, 3))
    i = np.array([[5, 0], [-1, 2]])
    np.testing.assert_array_equal(x[xp.asarray(i)].compute(), a[i])
    np.testing.assert_array_equal(x[1, xp.asarray([4, 0, 4]), ...].compute(), a[1, [4, 0, 4]])
    # mixed with slices (any axis; test_xarray_ops.py has NumPy's other mixed forms)
    np.testing.assert_array_equal(x[:, xp.asarray([0, 4, 0]), 1:].compute(), a[:, [0, 4, 0], 1:])


def test_setitem_rebinds_to_a_new_lazy_array(rng):
    a = sample(rng, "float64", (4, 6))
    x = xp.asarray(a, chunks=(3, 4))
    before = x + 0
    v = sample(rng, "float64", (2, 3))
    x[1:3, ::-2] = xp.asarray(v)
    x[..., 0] = -1.0
    x[xp.asarray(a > 0.5)] = 7.0
    b = a.copy()
    b[1:3, ::-2] = v
    b[..., 0] = -1.0
    b[a > 0.5] = 7.0
    np.testing.assert_array_equal(x.compute(), b)
    np.testing.assert_array_equal(before.compute(), a)  # built before: the old values
    with pytest.raises(IndexError):
        x[4, 0] = 1.0


def test_zarr_round_trip(tmp_path, rng):
    a = sample(rng, "float32", (9, 4))
    xp.to_zarr(xp.asarray(a, chunks=(4, 4)), tmp_path / "a.zarr")
    y = xp.from_zarr(tmp_path / "a.zarr")
    assert y.chunks == ((4, 4, 1), (4,))
    np.testing.assert_array_equal(y.compute(), a)


def test_map_blocks_runs_python_per_block(rng):
    a = sample(rng, "float64", (7, 5))
    x = xp.asarray(a, chunks=(3, 2))
    seen = []

    def f(block, k):
        seen.append(block.shape)
        return np.round(block * k, 3)

    y = cubed_java.map_blocks(f, x, 2.0)
    # lazy: in this process f only ran on an empty block, to find the output dtype (Dask's way);
    # the blocks are computed in Python worker processes
    assert seen == [(0, 0)]
    assert y.chunks == x.chunks and y.dtype == np.float64
    np.testing.assert_allclose(y.compute(), np.round(a * 2, 3))
    assert seen == [(0, 0)]
    bad = cubed_java.map_blocks(lambda b: b[:1], x)  # refused when computed, not retried
    with pytest.raises(ValueError, match="returned a block of shape"):
        bad.compute()


def test_compute_several_in_one_plan(rng):
    a = sample(rng, "float64")
    x = xp.asarray(a, chunks=2)
    s, m = cubed_java.compute(xp.sum(x), xp.max(x))
    assert s == pytest.approx(a.sum()) and m == a.max()


def test_handles_are_freed():
    s = cubed_java.session()
    before = s.call("handles")
    for _ in range(50):
        xp.asarray(np.arange(3.0)) + 1
    s.call("echo", 0)  # flushes the pending frees
    assert s.call("handles") - before < 10


@pytest.mark.parametrize("shape,dtype", [((7, 3), "float64"), ((3, 6), "float64"),
                                         ((2, 5, 3), "float64"), ((4, 2), "complex128")])
def test_svd_full_matrices_of_non_square_matrices(rng, shape, dtype):
    a = sample(rng, dtype, shape)
    x = xp.asarray(a, chunks=(2,) * len(shape))
    u, s, vh = xp.linalg.svd(x, full_matrices=True)
    m, n = shape[-2], shape[-1]
    uu, ss, vv = u.compute(), s.compute(), vh.compute()
    assert uu.shape == shape[:-2] + (m, m) and vv.shape == shape[:-2] + (n, n)
    np.testing.assert_allclose(ss, np.linalg.svd(a, compute_uv=False), rtol=1e-10)
    eye_m = np.broadcast_to(np.eye(m), uu.shape)
    np.testing.assert_allclose(np.conj(np.swapaxes(uu, -1, -2)) @ uu, eye_m, atol=1e-10)
    np.testing.assert_allclose(vv @ np.conj(np.swapaxes(vv, -1, -2)),
                               np.broadcast_to(np.eye(n), vv.shape), atol=1e-10)
    k = min(m, n)
    recon = (uu[..., :, :k] * ss[..., None, :]) @ vv[..., :k, :]
    np.testing.assert_allclose(recon, a, atol=1e-10)
