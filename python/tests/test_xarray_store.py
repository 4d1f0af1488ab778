"""The chunk manager's ``store`` (xarray's ``to_zarr``/``to_netcdf``): every source and target in
ONE plan, run once; region writes; ``to_zarr(compute=False)`` then region writes from separate
processes, as with Dask. The tests that go through xarray's Zarr backend need zarr-python 3 (what
xarray's backend takes); the rest need none."""
import collections
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest
import xarray as xr

import cubed_java
import cubed_java.array_api as xp
from cubed_java.diagnostics import Callback
from cubed_java.testing import count_computes, raise_if_computes
from cubed_java.xarray_chunkmanager import CubedJavaChunkManager


def _zarr3():
    try:
        import zarr
    except ImportError:
        return None
    return zarr if int(zarr.__version__.split(".")[0]) >= 3 else None


needs_zarr3 = pytest.mark.skipif(_zarr3() is None, reason="xarray's Zarr backend needs"
                                 " zarr-python 3, which this environment lacks")


class OpStarts(Callback):
    """Counts the operations started, by name, over every compute while registered."""

    def __init__(self):
        self.starts = collections.Counter()

    def on_operation_start(self, e):
        self.starts[e.name] += 1


def _anomalies(rng, nt=24):
    x = rng.random((nt, 6, 5))
    ds = xr.Dataset({"a": (("t", "y", "x"), x), "b": (("t", "y", "x"), x * 2 + 1)},
                    coords={"t": np.arange(nt)})
    lazy = ds.chunk({"t": 4}, chunked_array_type="cubed-java")
    # every output block needs the mean over the whole time axis: upstream of each block
    return ds - ds.mean("t"), lazy - lazy.mean("t")


def test_store_into_numpy_targets_is_one_plan_whose_ops_run_once(rng):
    """Targets the engine cannot write (NumPy arrays here) get their blocks from one plan; before,
    each of the 12 output blocks was a plan of its own, recomputing the mean each time."""
    want, lazy = _anomalies(rng)
    targets = [np.zeros(want.a.shape), np.zeros(want.b.shape)]
    ops = OpStarts()
    with count_computes() as n, ops:
        CubedJavaChunkManager().store([lazy.a.data, lazy.b.data], targets)
    assert n.count == 1, n.names
    assert ops.starts and max(ops.starts.values()) == 1, ops.starts
    np.testing.assert_allclose(targets[0], want.a.values)
    np.testing.assert_allclose(targets[1], want.b.values)


def test_store_region_not_on_chunk_boundaries_keeps_the_rest_of_the_target(rng):
    v = rng.random((5, 7))
    t = np.full((20, 7), -1.0)
    CubedJavaChunkManager().store([xp.asarray(v, chunks=(2, 7))], [t],
                                  regions=[(slice(6, 11), slice(None))])
    want = np.full((20, 7), -1.0)
    want[6:11] = v
    np.testing.assert_array_equal(t, want)


def test_store_refuses_a_wrong_region_and_unknown_options_before_writing(rng):
    t = np.zeros((4, 3))
    src = xp.asarray(np.ones((2, 3)), chunks=(1, 3))
    cm = CubedJavaChunkManager()
    with pytest.raises(ValueError, match="spans 0..3 but the source has 2"):
        cm.store([src], [t], regions=[(slice(0, 3), slice(None))])
    with pytest.raises(TypeError, match="unsupported option.*'bogus'"):
        cm.store([src], [t], bogus=1)
    with pytest.raises(ValueError, match=r"shape \(2, 3\) at \(3, 0\) does not fit .* \(4, 3\)"):
        cm.store([src, src], [t, t], regions=[None, (slice(3, 5), slice(None))])
    assert not t.any()


def test_store_compute_false_writes_when_computed(rng):
    t = np.zeros((4, 3))
    src = xp.asarray(np.arange(12.0).reshape(4, 3), chunks=(2, 3)) * 2
    with raise_if_computes():
        delayed = CubedJavaChunkManager().store([src], [t], compute=False)
    assert not t.any()
    with count_computes() as n:
        delayed.compute()
    assert n.count == 1
    np.testing.assert_array_equal(t, np.arange(12.0).reshape(4, 3) * 2)


@needs_zarr3
@pytest.mark.parametrize("zarr_format", [2, 3])
def test_to_zarr_is_one_plan_and_upstream_ops_run_once(rng, tmp_path, zarr_format):
    """``to_zarr`` of two anomaly variables: one compute; no op of the plan starts twice (the mean
    over time is computed once for both variables and all blocks); the engine writes the
    zarr-python arrays xarray made, and xarray reads back what NumPy gives."""
    want, lazy = _anomalies(rng)
    ops = OpStarts()
    with count_computes() as n, ops:
        lazy.to_zarr(tmp_path / "o.zarr", zarr_format=zarr_format, mode="w")
    assert n.count == 1, n.names
    assert max(ops.starts.values()) == 1, ops.starts
    assert any("store_region" in k for k in ops.starts), ops.starts
    back = xr.open_zarr(tmp_path / "o.zarr").load()
    xr.testing.assert_allclose(back, want)


@needs_zarr3
def test_to_zarr_region_rechunks_to_the_target_chunks(rng, tmp_path):
    """A slab whose chunks differ from the store's: rechunked to the target's chunks in the plan
    (each target chunk written by one task), the rest of the store unchanged."""
    x = rng.random((24, 6))
    ds = xr.Dataset({"a": (("t", "y"), x)}, coords={"t": np.arange(24)})
    ds.chunk({"t": 8}).to_zarr(tmp_path / "s.zarr", mode="w")  # Dask: zarr chunks of 8
    slab = (ds.isel(t=slice(8, 16)) * 10).chunk({"t": 3}, chunked_array_type="cubed-java")
    with count_computes() as n:
        slab.drop_vars("t").to_zarr(tmp_path / "s.zarr", region={"t": slice(8, 16)},
                                    safe_chunks=False)
    assert n.count == 1
    got = xr.open_zarr(tmp_path / "s.zarr").a.values
    want = x.copy()
    want[8:16] *= 10
    np.testing.assert_allclose(got, want)


_REGION_WRITER = textwrap.dedent("""
    import sys, warnings
    import numpy as np, xarray as xr
    warnings.simplefilter("ignore")
    path, start, stop, kind = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
    nt = 24
    x = np.arange(nt * 6 * 5, dtype="f8").reshape(nt, 6, 5)
    ds = xr.Dataset({"a": (("t", "y", "x"), x)}, coords={"t": np.arange(nt)})
    kw = {"chunked_array_type": "cubed-java"} if kind == "cubed-java" else {}
    slab = (ds.chunk({"t": 4}, **kw) ** 2).isel(t=slice(start, stop)).drop_vars("t")
    slab.to_zarr(path, region={"t": slice(start, stop)})
""")


def _template_then_two_processes(tmp_path, kind):
    nt = 24
    x = np.arange(nt * 6 * 5, dtype="f8").reshape(nt, 6, 5)
    ds = xr.Dataset({"a": (("t", "y", "x"), x)}, coords={"t": np.arange(nt)})
    kw = {"chunked_array_type": "cubed-java"} if kind == "cubed-java" else {}
    path = str(tmp_path / f"{kind}.zarr")
    with raise_if_computes():
        delayed = (ds.chunk({"t": 4}, **kw) ** 2).to_zarr(path, compute=False)
    assert hasattr(delayed, "compute")
    script = tmp_path / "writer.py"
    script.write_text(_REGION_WRITER)
    procs = [subprocess.Popen([sys.executable, str(script), path, str(a), str(b), kind],
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=os.environ)
             for a, b in ((0, 12), (12, 24))]
    for p in procs:
        out = p.communicate(timeout=300)[0]
        assert p.returncode == 0, out.decode(errors="replace")[-3000:]
    return xr.open_zarr(path).load(), x ** 2


@needs_zarr3
def test_to_zarr_compute_false_then_region_writes_from_two_processes_as_with_dask(tmp_path):
    pytest.importorskip("dask")
    got, want = _template_then_two_processes(tmp_path, "cubed-java")
    dask_got, _ = _template_then_two_processes(tmp_path, "dask")
    np.testing.assert_array_equal(got.a.values, want)
    xr.testing.assert_identical(got, dask_got)


@needs_zarr3
def test_to_zarr_compute_false_returns_a_delayed_write(rng, tmp_path):
    pytest.importorskip("dask")
    want, lazy = _anomalies(rng)
    with raise_if_computes():
        delayed = lazy.to_zarr(tmp_path / "d.zarr", compute=False)
    assert np.isnan(xr.open_zarr(tmp_path / "d.zarr").a.values).all()  # the template only
    with count_computes() as n:
        delayed.compute()
    assert n.count == 1
    xr.testing.assert_allclose(xr.open_zarr(tmp_path / "d.zarr").load(), want)


@needs_zarr3
def test_to_zarr_append_dim_writes_the_new_part_in_one_plan(rng, tmp_path):
    """The appended slab starts inside a chunk of the store (7 of chunks of 5): that chunk is read,
    merged and rewritten by one task."""
    x = rng.random((12, 5))
    ds = xr.Dataset({"a": (("t", "y"), x)}, coords={"t": np.arange(12)})
    lazy = ds.chunk({"t": 5}, chunked_array_type="cubed-java")
    lazy.isel(t=slice(0, 7)).to_zarr(tmp_path / "ap.zarr", mode="w")
    with count_computes() as n:
        lazy.isel(t=slice(7, 12)).to_zarr(tmp_path / "ap.zarr", append_dim="t")
    assert n.count == 1
    np.testing.assert_array_equal(xr.open_zarr(tmp_path / "ap.zarr").a.values, x)


def test_to_netcdf_fills_its_variables_from_one_plan(rng, tmp_path):
    pytest.importorskip("scipy")
    want, lazy = _anomalies(rng)
    with count_computes() as n:
        lazy.to_netcdf(tmp_path / "o.nc", engine="scipy")
    assert n.count == 1
    with xr.open_dataset(tmp_path / "o.nc", engine="scipy") as back:
        xr.testing.assert_allclose(back.load(), want)
