"""``compute(callbacks=[...])`` from Python: the JVM streams the compute's events over the bridge
(event frames before the reply) and the callbacks are called WHILE the compute runs; the engine's
own diagnostics (``cubed_java.diagnostics``: ProgressBar, HistoryCallback,
TimelineVisualizationCallback, MemoryVisualizationCallback). Before, the callbacks were called
with the events after the compute had returned, and there were no built-in callbacks."""
import io
import os
import re
import sys
import time

import numpy as np
import pytest

import cubed_java
import cubed_java.array_api as xp
from cubed_java.diagnostics import (HistoryCallback, MemoryVisualizationCallback, ProgressBar,
                                    TimelineVisualizationCallback)


@pytest.fixture
def roomy():
    """allowed_mem of 1 GB for this test (a Python op projects its worker's 100 MiB; an earlier
    test may have left a smaller allowed_mem for the session), restored after."""
    was = re.search(r"allowedMem=(\d+), reservedMem=(\d+)", cubed_java.configure()).groups()
    cubed_java.configure(allowed_mem="1GB")
    yield
    cubed_java.configure(allowed_mem=was[0], reserved_mem=was[1])


class Recorder:
    def __init__(self, on_task=None):
        self.seen = []
        self.on_task = on_task

    def on_compute_start(self, e):
        self.seen.append(("compute_start", e.num_tasks))

    def on_operation_start(self, e):
        self.seen.append(("op_start", e.name, e.num_tasks))

    def on_task_end(self, e):
        self.seen.append(("task_end", e.name, tuple(e.key)))
        if self.on_task:
            self.on_task(e)

    def on_operation_end(self, e):
        self.seen.append(("op_end", e.name, e.num_tasks))

    def on_compute_end(self, e):
        self.seen.append(("compute_end", e.error))


def test_a_callback_sees_each_task_end_while_the_compute_runs(tmp_path, roomy):
    flag = str(tmp_path / "a-task-end-reached-python")

    def f(b):
        # every block but the first waits until the client's callback has seen a task end: the
        # compute can only finish if the events reach Python while it runs
        if b.min() != 0:
            deadline = time.monotonic() + 120
            while not os.path.exists(flag):
                if time.monotonic() > deadline:
                    raise TimeoutError("no task end reached the Python callback while the"
                                       " compute ran")
                time.sleep(0.02)
        return b + 1

    x = xp.asarray(np.arange(40.0), chunks=10)
    y = cubed_java.map_blocks(f, x, dtype=x.dtype)
    rec = Recorder(on_task=lambda e: open(flag, "w").close())
    got = y.compute(callbacks=[rec], attempts=1)
    np.testing.assert_array_equal(got, np.arange(40.0) + 1)
    seen = rec.seen
    assert seen[0][0] == "compute_start" and seen[-1] == ("compute_end", None)
    # one task end per task, each between its op's start and end
    for i, ev in enumerate(seen):
        if ev[0] == "op_start":
            end = seen.index(("op_end", ev[1], ev[2]))
            tasks = [t for t in seen[i:end] if t[0] == "task_end" and t[1] == ev[1]]
            assert len(tasks) == ev[2] == len(set(tasks)), seen
    total = sum(ev[2] for ev in seen if ev[0] == "op_start")
    assert total == seen[0][1] == sum(1 for ev in seen if ev[0] == "task_end") >= 4


def test_history_and_plots_on_worker_processes(tmp_path):
    a = np.arange(6000.0).reshape(60, 100)
    x = xp.asarray(a, chunks=(20, 50))
    hist = HistoryCallback(tmp_path / "history")
    timeline = TimelineVisualizationCallback(tmp_path / "plots")
    memory = MemoryVisualizationCallback(tmp_path / "plots")
    got = xp.sum(x * 2, axis=0).compute(callbacks=[hist, timeline, memory],
                                        executor="processes", workers=2)
    np.testing.assert_array_equal(got, (a * 2).sum(axis=0))
    assert hist.compute_id and len(hist.records) >= 2
    for r in hist.records:
        assert r["worker"].startswith("worker pid "), r
        assert isinstance(r["pid"], int) and r["pid"] != os.getpid()
        assert r["measured_peak_mem"] > 0 and r["peak_rss"] > 0, r
        assert r["projected_mem"] > 0 and r["duration_ms"] >= 0
    # the engine's files, where docs/diagnostics.md says
    rows = (tmp_path / "history" / "tasks.csv").read_text().strip().splitlines()
    assert rows[0].startswith("compute,op,key,") and len(rows) - 1 == len(hist.records)
    assert (tmp_path / "history" / "ops.csv").stat().st_size > 0
    assert (tmp_path / "history" / "plan.txt").stat().st_size > 0
    for p in (timeline.path, memory.path):
        assert open(p).read().lstrip().startswith(("<?xml", "<svg")), p
    pd = pytest.importorskip("pandas")
    df = hist.events_df
    assert isinstance(df, pd.DataFrame) and len(df) == len(hist.records)
    assert {"op", "key", "worker", "pid", "measured_peak_mem", "peak_rss"} <= set(df.columns)


@pytest.mark.parametrize("with_tqdm", [True, False])
def test_progress_bar(with_tqdm, monkeypatch):
    if with_tqdm:
        pytest.importorskip("tqdm")
    else:
        monkeypatch.setitem(sys.modules, "tqdm.auto", None)  # import fails: the plain bar
    out = io.StringIO()
    x = xp.asarray(np.arange(40.0), chunks=10)
    y = xp.sum(x * 3)
    rec = Recorder()
    assert float(y.compute(callbacks=[ProgressBar(file=out), rec])) == 3 * 780.0
    text = out.getvalue()
    for ev in rec.seen:
        if ev[0] == "op_start":
            assert ev[1] in text
            assert re.search(rf"{ev[2]}/{ev[2]}\b", text), text


def test_xarray_compute_passes_callbacks():
    xr = pytest.importorskip("xarray")
    ds = xr.Dataset({"u": (("t", "x"), np.arange(60.0).reshape(6, 10))})
    lazy = ds.chunk({"t": 2}, chunked_array_type="cubed-java")
    rec = Recorder()
    out = (lazy * 2).compute(callbacks=[rec])
    xr.testing.assert_equal(out, ds * 2)
    assert sum(1 for ev in rec.seen if ev[0] == "task_end") == 3


def test_a_failing_callback_is_raised_after_the_compute_and_the_session_goes_on():
    x = xp.asarray(np.arange(10.0), chunks=5)

    class Bad:
        def on_task_end(self, e):
            raise ValueError("callback failed")

    class CallsTheEngine:
        def on_task_end(self, e):
            xp.asarray(np.ones(2)).compute()

    with pytest.raises(ValueError, match="callback failed"):
        (x + 1).compute(callbacks=[Bad()])
    with pytest.raises(RuntimeError, match="cannot call the engine while its compute runs"):
        (x + 2).compute(callbacks=[CallsTheEngine()])
    np.testing.assert_array_equal((x + 3).compute(), np.arange(10.0) + 3)
