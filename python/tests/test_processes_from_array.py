"""In-memory data (``from_array``/``asarray``, ``ds.chunk(...)``) on the processes executor: the
engine writes the array's blocks to the compute's work directory once, in the bridge's JVM, and
each worker JVM reads only the blocks of its tasks (before, such a plan was refused: "holds a
dev.cubed.nd.NDArray, which is not Serializable")."""
import re

import numpy as np
import pytest

import cubed_java
import cubed_java.array_api as xp


@pytest.fixture
def processes():
    """configure(executor="processes") for this test (it lasts for the session, as in
    cubed-xarray's test_to_zarr[processes]); the threads executor and memory restored after."""
    was = re.search(r"allowedMem=(\d+), reservedMem=(\d+)", cubed_java.configure()).groups()
    cubed_java.configure(executor="processes", workers=2, allowed_mem="200MB")
    yield
    cubed_java.configure(executor="threads", allowed_mem=was[0], reserved_mem=was[1])


def test_from_array_data_computes_on_worker_processes(processes):
    a = np.arange(20_000, dtype=np.float64).reshape(100, 200) % 97
    x = xp.asarray(a, chunks=(30, 70))
    got = xp.sum(x * x, axis=0).compute()
    np.testing.assert_array_equal(got, (a * a).sum(axis=0))
    # the task events name worker JVMs: the tasks did run in worker processes
    tasks = []

    class Tasks:
        def on_task_end(self, event):
            tasks.append(event.worker)

    np.testing.assert_array_equal(
        (x + 1).compute(callbacks=[Tasks()]), a + 1)
    assert tasks and all(w.startswith("worker pid ") for w in tasks), tasks


def test_xarray_chunked_data_mean_and_write_on_worker_processes(processes, tmp_path):
    xr = pytest.importorskip("xarray")
    rng = np.random.default_rng(0)
    ds = xr.Dataset({"u": (("time", "x"), rng.random((24, 10))),
                     "v": (("time", "x"), rng.integers(0, 9, (24, 10)))},
                    coords={"time": np.arange(24)})
    lazy = ds.chunk({"time": 5}, chunked_array_type="cubed-java")
    assert isinstance(lazy.u.data, cubed_java.Array)
    xr.testing.assert_allclose((lazy * 2).mean("time").compute(), (ds * 2).mean("time"))
    # a write of in-memory data (what test_write_region does after test_to_zarr[processes])
    cubed_java.to_zarr_dataset(lazy, str(tmp_path / "out.zarr"))
    back = cubed_java.open_dataset(str(tmp_path / "out.zarr"))
    xr.testing.assert_equal(back.compute(), ds)
