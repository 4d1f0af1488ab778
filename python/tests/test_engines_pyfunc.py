"""Python functions on the Spark and Beam executors: an xarray ``apply_ufunc`` with a SciPy function
runs in Python worker processes started beside the engine's own task processes (Spark executor
JVMs of a standalone cluster; the TaskManager of a Flink cluster), gives NumPy-backed xarray's
answer, and reports those workers in the task events (docs/python.md, "Python functions on Spark
and Beam").

The clusters are started by the Java tests that run this file (cubed-spark's
``SparkPythonClusterTest``, cubed-beam's ``FlinkPythonTest``), which give their addresses in the
environment and the bridge a class path holding the executor (``CUBED_JAVA_CLASSPATH``); without
them these tests are skipped.
"""
import os
import re

import numpy as np
import pytest

import cubed_java
import cubed_java.array_api as xp

SPARK_MASTER = os.environ.get("CUBED_TEST_SPARK_MASTER")
FLINK_MASTER = os.environ.get("CUBED_TEST_FLINK_MASTER")

xr = pytest.importorskip("xarray")
special = pytest.importorskip("scipy.special")


def _spark_options():
    return {"spark.master": SPARK_MASTER,
            "auth_secret_file": os.environ["CUBED_TEST_SPARK_SECRET_FILE"],
            "spark.executor.memory": "1g"}


def _flink_options():
    return {"beam.runner": "FlinkRunner", "beam.flinkMaster": FLINK_MASTER,
            "beam.parallelism": "2", "beam.filesToStage": os.environ["CUBED_TEST_FLINK_STAGE"]}


ENGINES = [
    pytest.param("spark", _spark_options, marks=pytest.mark.skipif(
        not SPARK_MASTER, reason="no Spark cluster: run by cubed-spark's SparkPythonClusterTest")),
    pytest.param("beam", _flink_options, marks=pytest.mark.skipif(
        not FLINK_MASTER, reason="no Flink cluster: run by cubed-beam's FlinkPythonTest")),
]


class Events:
    """A compute callback keeping the task events."""

    def __init__(self):
        self.tasks = []

    def on_task_end(self, e):
        self.tasks.append(e)

    def python(self):
        return [e for e in self.tasks if e.name.startswith("py_")]


def _worker_pid(event):
    m = re.match(r"python worker pid (\d+) ", event.worker or "")
    assert m, f"task {event.name} {event.key} ran in {event.worker!r}, not a Python worker"
    return int(m.group(1))


def _parent(pid):
    """The parent's pid and command line of a live process."""
    with open(f"/proc/{pid}/stat") as f:
        ppid = int(f.read().rsplit(")", 1)[1].split()[1])
    with open(f"/proc/{ppid}/cmdline", "rb") as f:
        return ppid, f.read().replace(b"\0", b" ").decode(errors="replace")


def _inputs():
    """The same 60 x 50 values lazily in the engine (made there, no in-memory data) and in
    NumPy."""
    a = xp.reshape(xp.linspace(-3.0, 3.0, 60, chunks=15), (60, 1))
    b = xp.reshape(xp.linspace(0.5, 1.5, 50, chunks=25), (1, 50))
    lazy = xr.DataArray(a * b, dims=("y", "x"))
    here = xr.DataArray(np.linspace(-3.0, 3.0, 60)[:, None] * np.linspace(0.5, 1.5, 50)[None, :],
                        dims=("y", "x"))
    return lazy, here


def fail_once_then_erf(block, marker):
    """The first call anywhere (the first to create ``marker``) raises; the others give erf."""
    try:
        os.close(os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))
    except FileExistsError:
        return special.erf(block)
    raise RuntimeError("failing once on purpose")


@pytest.mark.parametrize("engine,options", ENGINES)
def test_apply_ufunc_with_scipy_runs_in_python_workers_beside_the_engine(engine, options,
                                                                         tmp_path):
    lazy, here = _inputs()
    assert isinstance(lazy.data, cubed_java.Array)
    out = xr.apply_ufunc(special.erf, lazy, dask="parallelized", output_dtypes=[np.float64])
    # and a Python function raising once, in the same compute: retried by the engine
    marker = str(tmp_path / "failed-once")
    retried = xr.apply_ufunc(fail_once_then_erf, lazy, kwargs={"marker": marker},
                             dask="parallelized", output_dtypes=[np.float64])
    # and in-memory data (from_array: NumPy-backed xarray chunked by the chunk manager), which
    # the compute writes to its work directory once for the executors to read
    held = here.chunk({"y": 15, "x": 25}, chunked_array_type="cubed-java")
    assert isinstance(held.data, cubed_java.Array)
    from_memory = xr.apply_ufunc(special.erf, held, dask="parallelized",
                                 output_dtypes=[np.float64])
    events = Events()
    got, got_retried, got_held = cubed_java.compute(
        out.data, retried.data, from_memory.data, executor=engine, executor_options=options(),
        callbacks=[events])
    want = xr.apply_ufunc(special.erf, here)
    xr.testing.assert_equal(out.copy(data=got), want)
    xr.testing.assert_equal(retried.copy(data=got_retried), want)
    xr.testing.assert_equal(from_memory.copy(data=got_held), want)

    tasks = events.python()
    assert len(tasks) == 24  # 4 x 2 blocks of 15 x 25, three ops
    assert os.path.exists(marker)
    assert sorted(e.attempts for e in tasks) == [1] * 23 + [2]
    pids = {_worker_pid(e) for e in tasks}
    bridge = cubed_java.session()._proc.pid
    # neither this client nor the driver (the bridge's JVM, which launched the compute)
    assert os.getpid() not in pids and bridge not in pids
    assert all(e.peak_rss > 0 for e in tasks), [e.peak_rss for e in tasks]
    for pid in pids:
        # the worker is still idle (kept for the next task) under the JVM that ran its tasks
        ppid, cmdline = _parent(pid)
        assert ppid not in (os.getpid(), bridge)
        if engine == "spark":
            assert "CoarseGrainedExecutorBackend" in cmdline, cmdline
            assert all(" in spark executor " in e.worker for e in tasks), tasks[0].worker
        else:
            assert ppid == int(os.environ["CUBED_TEST_FLINK_PID"]), (ppid, cmdline)


@pytest.mark.skipif(bool(SPARK_MASTER or FLINK_MASTER), reason="the bridge has the executors here")
@pytest.mark.parametrize("engine", ["spark", "beam"])
def test_an_executor_missing_from_the_bridges_class_path_is_refused_saying_what_to_do(engine):
    from cubed_java.errors import JavaError

    x = xp.arange(10, chunks=5)
    with pytest.raises(JavaError, match=f"unknown executor '{engine}'.*CUBED_JAVA_CLASSPATH"):
        x.compute(executor=engine)
