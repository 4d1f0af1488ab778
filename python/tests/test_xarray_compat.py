"""xarray operations that cubed-xarray's test suite exercises, on the "cubed-java" chunk manager:
each against the same operation on NumPy-backed xarray (issue 26)."""
import shutil

import numpy as np
import pytest

xr = pytest.importorskip("xarray")

import cubed_java  # noqa: E402
import cubed_java._bridge as bridge  # noqa: E402
import cubed_java.array_api as xp  # noqa: E402
from cubed_java._chunks import normalize_chunks  # noqa: E402
from cubed_java.xarray_chunkmanager import CubedJavaChunkManager  # noqa: E402

CJ = "cubed-java"


def _eager_lazy(values, chunks):
    eager = xr.DataArray(values, coords={"x": np.arange(values.shape[0])}, dims=("x", "y"),
                         name="foo")
    return eager, eager.chunk(chunks, chunked_array_type=CJ)


def _assert_lazy_identical(eager, lazy):
    assert isinstance(lazy.data, cubed_java.Array)
    xr.testing.assert_identical(eager, lazy.compute())


@pytest.fixture
def computes(monkeypatch):
    """The names of the bridge calls that run a plan, in order."""
    seen = []
    orig = bridge.Bridge.call

    def counting(self, name, *args):
        if name in ("compute", "computeWith", "toZarr", "writeDataset", "persistInMemory"):
            seen.append(name)
        return orig(self, name, *args)

    monkeypatch.setattr(bridge.Bridge, "call", counting)
    return seen


# ---- 1. result_type with Python and NumPy scalars (xarray's where / reindex / fillna) ----

def test_result_type_of_scalars_follows_numpy():
    x32 = xp.asarray(np.ones(3, np.float32))
    assert xp.result_type(np.nan) == np.float64          # only scalars: NumPy's answer
    assert xp.result_type(1) == np.int64
    assert xp.result_type(True) == np.bool_
    assert xp.result_type(1, 2.5, 1j) == np.complex128
    assert xp.result_type(x32, np.nan) == np.float32     # a Python float is weak
    assert xp.result_type(x32, np.float64(1)) == np.float64  # a NumPy scalar is strong
    assert xp.result_type(xp.asarray(np.ones(2, np.int16)), np.int32(1)) == np.int32
    assert xp.result_type(x32, np.ones(2, np.float64)) == np.float64
    with pytest.raises(TypeError, match="not an array, Array API dtype"):
        xp.result_type(str)                               # xarray's promotion catches TypeError


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int64])
def test_where_reindex_fillna_match_numpy_backed_xarray(dtype):
    values = (np.arange(24).reshape(4, 6) - 7).astype(dtype)
    eager, lazy = _eager_lazy(values, {"x": 2, "y": 4})
    _assert_lazy_identical(eager.where(eager > 3), lazy.where(lazy > 3))
    _assert_lazy_identical(eager.where(eager > 3, -1), lazy.where(lazy > 3, -1))
    _assert_lazy_identical(eager.reindex(x=[1, 100, 2, 101]), lazy.reindex(x=[1, 100, 2, 101]))
    _assert_lazy_identical(eager.reindex(x=[2, 9], fill_value=5),
                           lazy.reindex(x=[2, 9], fill_value=5))
    holes = eager.where(eager > 3)
    _assert_lazy_identical(holes.fillna(2), lazy.where(lazy > 3).fillna(2))
    _assert_lazy_identical(holes.fillna(eager + 100),
                           lazy.where(lazy > 3).fillna(lazy + 100))


def test_where_with_a_lazy_condition_on_numpy_data():
    a = np.arange(10)
    lazy_cond = xr.DataArray(cubed_java.from_array(a > 3, chunks=5))
    # named: a DataArray made from a lazy array otherwise takes the array's name ("array-<n>")
    expected = xr.DataArray(a, name="v").where(a > 3)
    for data in (xr.DataArray(a, name="v"),
                 xr.DataArray(cubed_java.from_array(a, chunks=5), name="v")):
        _assert_lazy_identical(expected, data.where(lazy_cond))


# ---- 2. unify_chunks ----

def test_xr_unify_chunks_gives_common_chunks_per_dimension():
    v = np.arange(24.0).reshape(4, 6)
    a = xr.DataArray(v, dims=("x", "y")).chunk({"x": 2}, chunked_array_type=CJ)
    b = xr.DataArray(v[0], dims=("y",)).chunk({"y": 4}, chunked_array_type=CJ)
    c = xr.DataArray(v, dims=("x", "y")).chunk({"x": 3, "y": 3}, chunked_array_type=CJ)
    ua, ub, uc = xr.unify_chunks(a, b, c)
    # every block boundary of any of them: x at 2, 3, 4; y at 3, 4, 6
    assert ua.chunks == uc.chunks == ((2, 1, 1), (3, 1, 2))
    assert ub.chunks == ((3, 1, 2),)
    for u, orig in ((ua, v), (ub, v[0]), (uc, v)):
        assert isinstance(u.data, cubed_java.Array)
        np.testing.assert_array_equal(u.values, orig)
    ds = xr.Dataset({"a": a, "c": c}).unify_chunks()
    assert ds.chunks == {"x": (2, 1, 1), "y": (3, 3)}


def test_chunk_manager_unify_chunks_dask_form():
    m = CubedJavaChunkManager()
    x = xp.asarray(np.ones((4, 6)), chunks=(2, 6))
    bcast = xp.asarray(np.ones((1, 6)), chunks=(1, 2))  # length-1 axis: broadcasts
    chunkss, (ux, other, ub, un) = m.unify_chunks(x, "ij", 7, None, bcast, "ij",
                                                 np.zeros(6), "j")
    assert chunkss == {"i": (2, 2), "j": (2, 2, 2)}
    assert ux.chunks == ((2, 2), (2, 2, 2)) and other == 7
    assert ub.chunks == ((1,), (2, 2, 2)) and isinstance(un, cubed_java.Array)
    assert un.chunks == ((2, 2, 2),)
    with pytest.raises(ValueError, match="dimension 'j' has length 6 in one array and 5"):
        m.unify_chunks(x, "ij", xp.asarray(np.ones(5)), "j")


# ---- 3. byte sizes and "auto" in chunks ----

def test_byte_size_chunks_in_ds_chunk():
    values = np.arange(24.0).reshape(4, 6)
    eager, lazy = _eager_lazy(values, {"x": 2, "y": 2})
    # 16 bytes = two float64 per block; y keeps its blocks of 2, so x gets blocks of 1
    assert lazy.chunk({"x": "16B"}).chunks == ((1, 1, 1, 1), (2, 2, 2))
    assert lazy.chunk("16MB").chunks == ((4,), (6,))
    for spec in ("16B", "1KiB", "100MB", "auto"):
        for obj in (lazy, eager):
            re = obj.chunk(spec, chunked_array_type=CJ)
            assert isinstance(re.data, cubed_java.Array)
            limit = {"16B": 16, "1KiB": 1024}.get(spec, 2**26)
            assert np.prod(re.data.chunksize) * 8 <= limit, (spec, re.chunks)
            xr.testing.assert_identical(eager, re.compute())
        ds = lazy.to_dataset().chunk(spec, chunked_array_type=CJ)
        assert ds.chunks == dict(zip(("x", "y"), re.chunks))


def test_normalize_chunks_byte_sizes():
    assert normalize_chunks("1KiB", (1000,), np.float64) == ((128,) * 7 + (104,),)
    assert normalize_chunks("1kB", (1000,), np.float64)[0][0] == 125
    assert normalize_chunks(("800B", 10), (1000, 10), np.float64)[0][0] == 10
    assert normalize_chunks("1.5MiB", (10**7,), np.uint8)[0][0] == 3 * 2**19
    with pytest.raises(ValueError, match="cannot understand chunk size '16 parsecs'"):
        normalize_chunks("16 parsecs", (10,), np.float64)
    with pytest.raises(ValueError, match="byte sizes 16 and 32"):
        normalize_chunks(("16B", "32B"), (10, 10), np.float64)


# ---- 4. compute options ----

class _History:
    def __init__(self):
        self.events = []

    def on_compute_start(self, e):
        self.events.append(("start", e.num_tasks))

    def on_task_end(self, e):
        self.events.append(("task", e.name, tuple(e.key)))

    def on_compute_end(self, e):
        self.events.append(("end", e.error))


def test_compute_options_pass_through_and_unknown_ones_are_refused(computes):
    v = np.arange(24.0).reshape(4, 6)
    eager, lazy = _eager_lazy(v, {"x": 2})
    hist = _History()
    out = (lazy * 2).compute(executor="threads", workers=2, attempts=1, callbacks=[hist])
    np.testing.assert_array_equal(out.values, v * 2)
    assert computes == ["computeWith"]
    assert hist.events[0][0] == "start" and hist.events[-1] == ("end", None)
    tasks = [e for e in hist.events if e[0] == "task"]
    assert len(tasks) == hist.events[0][1] and len(tasks) >= 2  # one per block at least
    loaded = _eager_lazy(v, {"x": 2})[1].load(resume=False)  # load() fills in place
    assert isinstance(loaded.data, np.ndarray)
    np.testing.assert_array_equal(loaded.values, v)
    # Dataset.compute and cubed_java.compute take them too
    ds = lazy.to_dataset().compute(workers=1)
    np.testing.assert_array_equal(ds.foo.values, v)
    (a,) = cubed_java.compute(lazy.data, executor="threads")
    np.testing.assert_array_equal(a, v)
    with pytest.raises(TypeError, match=r"unsupported option\(s\) \['scheduler'\] for"
                                        " cubed-java; supported: executor, workers"):
        lazy.compute(scheduler="sync")
    with pytest.raises(TypeError, match="optimize_graph"):
        lazy.copy().load(optimize_graph=False)
    with pytest.raises(TypeError, match="num_workers"):
        lazy.data.compute(num_workers=2)
    with pytest.raises(ValueError, match="unknown executor 'nope'"):
        lazy.compute(executor="nope")


def test_copy_and_deepcopy_keep_the_lazy_array(computes):
    v = np.arange(24.0).reshape(4, 6)
    eager, lazy = _eager_lazy(v, {"x": 2})
    for c in (lazy.copy(deep=False), lazy.copy(deep=True), lazy.variable.copy(deep=True)):
        assert isinstance(c.data, cubed_java.Array) and c.chunks == lazy.chunks
    assert computes == []
    deep = lazy.copy(deep=True)
    deep.data[0, 0] = -1.0  # the copy's wrapper changes, the original's does not
    assert float(lazy.data[0, 0]) == 0.0 and float(deep.data[0, 0]) == -1.0
    _assert_lazy_identical(eager, lazy.copy(deep=True))


# ---- 5. reprs compute nothing and summarize ----

def test_reprs_compute_nothing_and_show_a_summary(computes):
    v = np.arange(24.0).reshape(4, 6)
    ds = xr.Dataset({"u": (("x", "y"), v), "w": (("x",), v[:, 0])},
                    coords={"x": np.arange(4), "c": ("x", v[:, 1])})
    lazy = ds.chunk({"x": 2}, chunked_array_type=CJ)
    del computes[:]
    text = repr(lazy)
    assert "u        (x, y) float64 192B cubed_java.Array<chunksize=(2, 6)>" in text
    assert "c        (x) float64 32B cubed_java.Array<chunksize=(2,)>" in text
    assert "cubed_java.Array<shape=(4, 6), dtype=float64, chunksize=(2, 6)>" in repr(lazy.u)
    repr(lazy.u.variable)
    lazy._repr_html_()
    lazy.u._repr_html_()
    str(lazy)
    assert computes == []


# ---- 6. non-numeric variables ----

def test_string_coordinate_stays_numpy_in_ds_chunk():
    ds = xr.Dataset({"u": (("x",), np.arange(3.0))},
                    coords={"name": ("x", ["a", "bb", "c"]), "x": [10, 20, 30],
                            "when": ("x", np.array(["2020-01-01"] * 3, "datetime64[ns]"))})
    lazy = ds.chunk({"x": 2}, chunked_array_type=CJ)
    assert isinstance(lazy.u.data, cubed_java.Array)
    assert isinstance(lazy.name.data, np.ndarray) and isinstance(lazy.when.data, np.ndarray)
    assert lazy.chunks == {"x": (2, 1)}
    xr.testing.assert_identical(ds, lazy.compute())
    xr.testing.assert_identical(ds.mean(), lazy.mean().compute())


# ---- 7. persist ----

@pytest.mark.parametrize("held", [True, False], ids=["in memory", "in zarr"])
def test_persist_returns_lazy_arrays_backed_by_stored_values(tmp_path, computes, held,
                                                              monkeypatch):
    from cubed_java import xarray_chunkmanager

    if not held:  # larger than what persist keeps in memory: stored in Zarr
        monkeypatch.setattr(xarray_chunkmanager, "PERSIST_MEMORY_BYTES", 100)
    v = np.arange(24.0).reshape(4, 6)
    xp.to_zarr(xp.asarray(v, chunks=(2, 3)), tmp_path / "in.zarr")
    ds = xr.Dataset({"u": (("x", "y"), cubed_java.from_zarr(tmp_path / "in.zarr"))})
    derived = (ds * 2).chunk({"x": (1, 3)})
    del computes[:]
    kept = derived.persist()
    # one plan for every variable (a persistInMemory refusing the size computes nothing)
    assert computes == (["persistInMemory"] if held else ["persistInMemory", "writeDataset"])
    assert isinstance(kept.u.data, cubed_java.Array)
    assert kept.chunks == derived.chunks == {"x": (1, 3), "y": (3, 3)}
    # the persisted values no longer depend on the input: remove it and compute
    shutil.rmtree(tmp_path / "in.zarr")
    np.testing.assert_array_equal(kept.u.values, v * 2)
    with pytest.raises(TypeError, match="persist: options"):
        CubedJavaChunkManager().persist(kept.u.data, scheduler="sync")


# ---- 8. chunk() without chunked_array_type keeps cubed-java ----

def test_chunk_without_a_type_keeps_cubed_java_and_an_explicit_type_wins():
    """xarray's default chunk manager is Dask when Dask is installed; an object whose chunked
    data are cubed_java arrays is still rechunked by cubed-java (the hook in _xhooks)."""
    da = pytest.importorskip("dask.array")
    values = np.arange(24.0).reshape(4, 6)
    eager, lazy = _eager_lazy(values, {"x": 2, "y": 3})
    for re in (lazy.chunk({"x": 1}), lazy.to_dataset().chunk({"x": 1}).foo,
               lazy.variable.chunk({"x": 1}),
               # chunked_array_type given positionally as None
               lazy.to_dataset().chunk({"x": 1}, "xarray-", None, None, False, None).foo):
        assert isinstance(re.data, cubed_java.Array), type(re.data)
        assert re.chunks == ((1, 1, 1, 1), (3, 3))
    np.testing.assert_array_equal(lazy.chunk({"x": 1}).values, values)
    # an explicit type is followed
    assert isinstance(lazy.chunk({"x": 1}, chunked_array_type="dask").data, da.Array)
    # NumPy data, and data chunked by Dask, get xarray's default
    with xr.set_options(chunk_manager="dask"):
        assert isinstance(eager.chunk({"x": 1}).data, da.Array)
        mixed = xr.Dataset({"a": lazy, "b": eager.chunk({"x": 2}, chunked_array_type="dask")})
        assert isinstance(mixed.chunk({"x": 1}).b.data, da.Array)
