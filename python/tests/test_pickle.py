"""Lazy arrays pickle by plan, not by data: pickle, cloudpickle and copy.deepcopy of arrays and
of xarray objects holding them; unpickling in this process and in another Python process."""
import copy
import os
import pickle
import subprocess
import sys

import numpy as np
import pytest

import cubed_java
import cubed_java._bridge as bridge
import cubed_java.array_api as xp

#: the bridge calls that run a plan
_RUNS = ("compute", "computeWith", "toZarr", "writeDataset", "timeCompute")


@pytest.fixture
def calls(monkeypatch):
    """The names of the bridge calls made, in order."""
    seen = []
    orig = bridge.Bridge.call

    def recording(self, name, *args):
        seen.append(name)
        return orig(self, name, *args)

    monkeypatch.setattr(bridge.Bridge, "call", recording)
    return seen


def _expr(x):
    return xp.sum(xp.sin(x) * 2 + x.T.T, axis=1)


def test_round_trip_of_an_expression_over_from_array_data(calls):
    v = np.arange(60.0).reshape(6, 10)
    y = _expr(xp.asarray(v, chunks=(4, 3)))
    data = pickle.dumps(y)
    assert "serialize" in calls and not set(calls) & set(_RUNS)  # nothing computed
    z = pickle.loads(data)
    assert isinstance(z, cubed_java.Array) and z._handle != y._handle
    assert (z.shape, z.dtype, z.chunks) == (y.shape, y.dtype, y.chunks)
    np.testing.assert_allclose(z.compute(), (np.sin(v) * 2 + v).sum(axis=1))


def test_round_trip_over_a_zarr_input_reads_the_store_when_computed(tmp_path, calls):
    v = np.arange(48.0).reshape(8, 6)
    path = str(tmp_path / "in.zarr")
    xp.asarray(v, chunks=(3, 4)).to_zarr(path)
    y = xp.from_zarr(path) * 10 - 1
    del calls[:]
    data = pickle.dumps(y)
    assert not set(calls) & set(_RUNS)
    assert len(data) < 64 * 1024  # the store is referenced, its data not copied
    # the store is read when the unpickled array computes: a change shows
    xp.asarray(v + 1, chunks=(3, 4)).to_zarr(path, overwrite=True)
    np.testing.assert_array_equal(pickle.loads(data).compute(), (v + 1) * 10 - 1)


def test_every_kind_of_op_pickles(calls):
    """A sweep over op kinds (a captured value that cannot be serialized fails here first):
    each unpickled array computes what the original does."""
    import cubed_java.fft as fft
    import cubed_java.linalg as la

    v = np.random.default_rng(0).random((6, 8))
    x = xp.asarray(v, chunks=(4, 3))
    i = xp.asarray(np.array([3, 0, 2]))
    made = [xp.sort(x, axis=1), x[:, i], xp.where(x > 0.5, x, -x), xp.concat([x, x]),
            xp.cumulative_sum(x, axis=1), xp.var(x), xp.argmax(x, axis=1), x @ x.T,
            la.qr(x)[0], fft.fft(x, axis=1), x.rechunk((2, 8)), x[x > 0.5],
            xp.unique_values(xp.round(x * 3)), xp.linspace(0, 1, 11, chunks=4),
            x * (1 + 2j), xp.full((3, 4), 1 - 1j, chunks=2), xp.roll(x, 2, axis=1)]
    del calls[:]  # (a mask and unique_values count their sizes when called)
    data = [pickle.dumps(y) for y in made]
    assert not set(calls) & set(_RUNS)
    for y, d in zip(made, data):
        np.testing.assert_array_equal(pickle.loads(d).compute(), y.compute())


def test_cloudpickle_round_trip():
    cloudpickle = pytest.importorskip("cloudpickle")
    v = np.arange(20, dtype=np.int32).reshape(4, 5)
    y = xp.asarray(v, chunks=(2, 2)) + 1
    np.testing.assert_array_equal(cloudpickle.loads(cloudpickle.dumps(y)).compute(), v + 1)


def test_deepcopy_and_copy_are_new_wrappers_of_the_same_plan(calls):
    v = np.arange(12.0).reshape(3, 4)
    y = xp.asarray(v, chunks=(2, 2)) * 3
    c, d = copy.copy(y), copy.deepcopy({"a": [y]})["a"][0]
    assert not set(calls) & set(_RUNS)
    assert c._handle != y._handle and d._handle != y._handle
    np.testing.assert_array_equal(d.compute(), v * 3)


def test_the_pickle_of_a_billion_element_expression_is_small(calls):
    x = xp.ones((1000, 1000, 1000), dtype=xp.float64, chunks=(10, 100, 100))  # 8 GB
    e = x * 2 + xp.arange(1000, dtype=xp.float64)
    m = xp.mean(e, axis=0)
    data = pickle.dumps((e, m))
    assert not set(calls) & set(_RUNS)
    assert len(data) < 32 * 1024, len(data)
    e2, m2 = pickle.loads(data)
    assert (e2.shape, m2.shape, e2.chunksize) == (e.shape, m.shape, (10, 100, 100))
    np.testing.assert_array_equal(e2[0, :2, :3].compute(), 2 + np.tile(np.arange(3.0), (2, 1)))


def test_the_spec_travels_with_the_array():
    import re

    was = re.search(r"allowedMem=(\d+), reservedMem=(\d+)", cubed_java.configure()).groups()
    v = np.arange(64.0).reshape(8, 8)
    cubed_java.configure(allowed_mem="1000", reserved_mem="0")
    try:
        y = xp.asarray(v, chunks=(8, 8)) + 1  # a task needs 1.5 kB: more than 1000 B
    finally:
        cubed_java.configure(allowed_mem=was[0], reserved_mem=was[1])
    z = pickle.loads(pickle.dumps(y))  # unpickled under the session's larger spec
    with pytest.raises(cubed_java.JavaError, match=r"more than allowedMem 1\.0 kB"):
        z.compute()
    np.testing.assert_array_equal(pickle.loads(pickle.dumps(xp.asarray(v) + 1)).compute(), v + 1)


_CHILD = r"""
import pickle, sys
import numpy as np
with open(sys.argv[1], "rb") as f:
    a = pickle.load(f)
np.save(sys.argv[2], a.compute())
"""


def test_unpickled_in_another_python_process(tmp_path):
    v = np.arange(60.0).reshape(6, 10)
    zpath = str(tmp_path / "in.zarr")
    xp.asarray(v * 2, chunks=(3, 5)).to_zarr(zpath)
    y = _expr(xp.asarray(v, chunks=(4, 3))) + xp.sum(xp.from_zarr(zpath), axis=1)
    (tmp_path / "a.pkl").write_bytes(pickle.dumps(y))
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in [os.path.dirname(os.path.dirname(
        os.path.abspath(cubed_java.__file__))), env.get("PYTHONPATH")] if p)
    r = subprocess.run([sys.executable, "-c", _CHILD, str(tmp_path / "a.pkl"),
                        str(tmp_path / "out.npy")], env=env, capture_output=True, text=True,
                       timeout=600)
    assert r.returncode == 0, r.stderr[-3000:]
    np.testing.assert_allclose(np.load(tmp_path / "out.npy"),
                               (np.sin(v) * 2 + v).sum(axis=1) + (v * 2).sum(axis=1))


def test_bytes_that_are_not_a_pickled_array_are_refused():
    with pytest.raises(ValueError, match="not a pickled cubed_java array"):
        cubed_java._array._unpickle(1, b"something else", {"shape": (), "dtype": "<f8"})
    with pytest.raises(ValueError, match="reads format 1"):
        cubed_java._array._unpickle(99, b"", {})


# ---- xarray: Datasets holding cubed-java arrays ----

def _dataset():
    xr = pytest.importorskip("xarray")
    v = np.arange(48.0).reshape(6, 8)
    ds = xr.Dataset({"u": (("x", "y"), v), "w": (("x",), v[:, 0] * 2)},
                    coords={"x": np.arange(6), "c": ("x", v[:, 1] + 0.5)})
    return ds, ds.chunk({"x": 4}, chunked_array_type="cubed-java")


def test_pickle_of_a_dataset_with_lazy_variables_and_coordinates(calls):
    ds, lazy = _dataset()
    assert isinstance(lazy.c.data, cubed_java.Array)  # a lazy coordinate
    del calls[:]
    data = pickle.dumps(lazy * 2)
    assert not set(calls) & set(_RUNS)
    back = pickle.loads(data)
    assert isinstance(back.u.data, cubed_java.Array) and isinstance(back.c.data, cubed_java.Array)
    assert back.chunks == lazy.chunks
    import xarray as xr

    xr.testing.assert_identical(back.compute(), (ds * 2).compute())


def test_deepcopy_of_a_dataset(calls):
    ds, lazy = _dataset()
    del calls[:]
    deep = copy.deepcopy(lazy.coarsen(x=2).mean())
    assert not set(calls) & set(_RUNS)
    import xarray as xr

    xr.testing.assert_allclose(deep.compute(), ds.coarsen(x=2).mean())
