"""Python functions as bounded-memory tasks: map_blocks, blockwise and xarray's apply_ufunc with a
Python function are lazy ops of the plan whose tasks run in Python worker processes started by the
JVM (docs/python.md, "Python functions as tasks")."""
import os
import re
import signal
import threading
import time

import numpy as np
import pytest

import cubed_java
import cubed_java.array_api as xp
from cubed_java.errors import JavaError

MB = 10**6


@pytest.fixture
def spec():
    """configure(**settings) for this test; the session's allowed/reserved memory restored after."""
    was = re.search(r"allowedMem=(\d+), reservedMem=(\d+)", cubed_java.configure()).groups()
    yield lambda **kw: cubed_java.configure(**kw)
    cubed_java.configure(allowed_mem=was[0], reserved_mem=was[1])


class History:
    """A compute callback keeping the task events."""

    def __init__(self):
        self.tasks = []
        self.ops = []

    def on_task_end(self, e):
        self.tasks.append(e)

    def on_operation_start(self, e):
        self.ops.append(e)

    def pids(self, prefix="py_"):
        return {int(e.worker.rsplit(" ", 1)[1]) for e in self.tasks
                if e.name.startswith(prefix) and (e.worker or "").startswith("python worker pid")}


def _jvm_pid():
    return cubed_java.session()._proc.pid


def _alive(pid):
    try:
        with open(f"/proc/{pid}/status") as s:
            return "zombie" not in s.read()
    except FileNotFoundError:
        return False


def triple(block):
    """Holds three copies of its block at once (3x its input), then their mean."""
    t = np.empty((3,) + block.shape, dtype=block.dtype)
    t[0] = block
    t[1] = block
    t[1] *= 2.0
    t[2] = block
    t[2] *= 3.0
    return t.mean(axis=0)


def test_apply_ufunc_refused_at_small_allowed_mem_runs_at_larger_in_workers(spec, rng):
    import xarray as xr

    a = rng.random((8, 1000, 250))  # blocks of 2 x 1000 x 250 float64: 4 MB
    block = 2 * 1000 * 250 * 8
    declared = {"extra_projected_mem": 3 * block}

    def run(allowed, **gufunc_kwargs):
        spec(allowed_mem=str(allowed), reserved_mem=str(100 * MB))
        da = xr.DataArray(a, dims=("t", "y", "x")).chunk({"t": 2}, chunked_array_type="cubed-java")
        return xr.apply_ufunc(triple, da, dask="parallelized", output_dtypes=[np.float64],
                              dask_gufunc_kwargs=gufunc_kwargs)

    small = 134 * MB  # undeclared: 128,857,600 B; declared: 140,857,600 B
    # without the declaration the plan fits the small allowed_mem; with it, it does not: the
    # declared 12 MB are counted, and the plan is refused before anything runs
    undeclared = run(small)
    refused = run(small, **declared)
    assert isinstance(refused.data, cubed_java.Array)
    with pytest.raises(JavaError, match=r"needs a projected .* more than allowedMem") as e:
        refused.compute()
    assert "nothing was run" in str(e.value)
    h0 = History()
    undeclared.data.compute(callbacks=[h0])
    proj0 = h0.ops[0].projected_mem

    out = run(1000 * MB, **declared)
    h = History()
    got = out.data.compute(callbacks=[h])
    want = xr.apply_ufunc(triple, xr.DataArray(a, dims=("t", "y", "x")))
    np.testing.assert_allclose(got, want.values, rtol=1e-12)
    xr.testing.assert_allclose(out.compute(), want)
    # the declared memory is in the op's projection: exactly 3 blocks more
    assert h.ops[0].projected_mem - proj0 == 3 * block
    assert proj0 <= small < h.ops[0].projected_mem
    # the four tasks ran in Python worker processes: neither this process nor the JVM
    pids = h.pids()
    assert len([t for t in h.tasks if t.name.startswith("py_")]) == 4
    assert pids and os.getpid() not in pids and _jvm_pid() not in pids
    # their peak resident set is reported, within the plan's bound
    assert all(0 < t.peak_rss <= 1000 * MB for t in h.tasks)


def sleep_once_then_add(block, marker, client_pid):
    """The first task to create ``marker`` writes its pid there and waits to be killed."""
    if os.getpid() == client_pid:
        raise RuntimeError("the function ran in the client process, not in a worker")
    try:
        fd = os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600)
    except FileExistsError:
        return block + 1
    os.write(fd, str(os.getpid()).encode())
    os.close(fd)
    deadline = time.monotonic() + 600
    while time.monotonic() < deadline:  # until the test kills this worker
        time.sleep(0.05)
    raise RuntimeError("not killed")


def test_worker_killed_mid_task_is_replaced_and_answer_is_right(tmp_path, rng):
    a = rng.random((6, 40))
    x = xp.asarray(a, chunks=(2, 40))
    marker = str(tmp_path / "victim.pid")
    y = cubed_java.map_blocks(sleep_once_then_add, x, marker, os.getpid(), dtype=np.float64)
    killed = []

    def killer():
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline:
            try:
                with open(marker) as f:
                    text = f.read()
                if text:
                    pid = int(text)
                    if pid != os.getpid() and pid != _jvm_pid():
                        os.kill(pid, signal.SIGKILL)
                        killed.append(pid)
                    return
            except FileNotFoundError:
                pass
            time.sleep(0.05)

    t = threading.Thread(target=killer)
    t.start()
    h = History()
    try:
        got = y.compute(callbacks=[h])
    finally:
        t.join()
    np.testing.assert_array_equal(got, a + 1)
    assert len(killed) == 1
    victim = killed[0]
    deadline = time.monotonic() + 120
    while _alive(victim) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _alive(victim)
    # the killed task was tried again on another worker
    retried = [e for e in h.tasks if e.attempts == 2]
    assert len(retried) == 1
    assert victim not in h.pids() and h.pids()


def record_and_scale(block, log, factor):
    with open(log, "a") as f:
        f.write(f"{os.getpid()}\n")
    return block * factor


def row_sums(block, log):
    with open(log, "a") as f:
        f.write(f"{os.getpid()}\n")
    return block.sum(axis=1)


def test_python_ops_are_lazy_and_mix_with_jvm_ops_in_one_plan(tmp_path, rng):
    a = rng.random((9, 12))
    b = rng.random((9, 12))
    x = xp.asarray(a, chunks=(4, 5))
    y = xp.asarray(b, chunks=(3, 12))  # other chunks: blockwise aligns them
    log = str(tmp_path / "calls.log")
    m = cubed_java.map_blocks(record_and_scale, x * 2.0, log, 3.0, dtype=np.float64)
    assert not os.path.exists(log)  # map_blocks ran nothing
    w = cubed_java.blockwise(record_and_scale, "ij", xp.sin(y), "ij", log, None, 0.5, None,
                             dtype=np.float64)
    r = cubed_java.blockwise(row_sums, "i", m + w, "ij", log, None, dtype=np.float64)
    total = xp.sum(r)
    assert r.shape == (9,) and r.chunks == ((4, 4, 1),)
    assert not os.path.exists(log)  # nor did blockwise: the ops are in the plan only
    h = History()
    (got_r, got_total) = cubed_java.compute(r, total, callbacks=[h])
    want_r = (a * 2.0 * 3.0 + np.sin(b) * 0.5).sum(axis=1)
    np.testing.assert_allclose(got_r, want_r, rtol=1e-12)
    np.testing.assert_allclose(got_total, want_r.sum(), rtol=1e-12)
    with open(log) as f:
        ran = {int(p) for p in f.read().split()}
    assert ran and os.getpid() not in ran and _jvm_pid() not in ran
    names = {e.name.split("-")[0] for e in h.ops}
    assert any(n.startswith("py_") for n in names)
    assert names - {n for n in names if n.startswith("py_")}  # JVM ops in the same plan


def allocate(block, nbytes):
    big = np.ones(nbytes // 8)  # touched: resident
    return block + big[:1].sum() - 1.0


def test_worker_over_its_bound_is_killed_with_a_clear_message(spec, rng):
    spec(allowed_mem=str(300 * MB), reserved_mem=str(50 * MB))
    a = rng.random((4, 10))
    x = xp.asarray(a, chunks=(2, 10))
    # declares nothing, allocates 600 MB: the plan fits, the worker passes allowed_mem
    y = cubed_java.map_blocks(allocate, x, 600 * MB, dtype=np.float64)
    with pytest.raises(JavaError) as e:
        y.compute(attempts=2)
    msg = str(e.value)
    assert re.search(r"Python worker pid \d+ used [\d,]+ bytes", msg), msg
    assert "more than its bound of 300,000,000 bytes" in msg
    assert "killed (SIGKILL)" in msg and "extra_projected_mem" in msg
    assert "after 2 attempt(s)" in msg
    # the killed workers are replaced: a function within the bound runs
    ok = cubed_java.map_blocks(allocate, x, 8 * MB, dtype=np.float64)
    np.testing.assert_allclose(ok.compute(), a)


def fail_on_block_while_flag(block, log, flag):
    if block[0, 0] == 15.0 and os.path.exists(flag):
        raise RuntimeError("failing while the flag exists")
    with open(log, "a") as f:
        f.write(f"{block[0, 0]}\n")
    return block * 2


def test_python_op_resumes_like_jvm_ops(tmp_path):
    """A compute failing in one Python task keeps the blocks its other tasks wrote; resume=True
    runs only the missing tasks (the op's name comes from its content: the pickled function)."""
    a = np.arange(24.0).reshape(4, 6)
    x = xp.asarray(a, chunks=(2, 3))
    log, flag = str(tmp_path / "log"), str(tmp_path / "flag")
    open(flag, "w").close()
    y = cubed_java.map_blocks(fail_on_block_while_flag, x, log, flag, dtype=np.float64)
    with pytest.raises(JavaError, match="failing while the flag exists"):
        y.compute(attempts=1)
    with open(log) as f:
        first = f.read().split()
    os.remove(flag)
    h = History()
    np.testing.assert_array_equal(y.compute(resume=True, callbacks=[h]), a * 2)
    with open(log) as f:
        done = f.read().split()
    # the resumed compute ran only the tasks the first did not finish, once each
    assert set(done) == {str(v) for v in (0.0, 3.0, 12.0, 15.0)}
    assert first and len(h.tasks) < 4
    assert len(done) - len(first) == len(h.tasks)
