"""Result files kept for reuse (_respool): a released compute result's file is written again by the
next compute of its size, which returns the right values in the mapping this process still has;
a result still referenced (by a view) is never reused; the pool's byte cap and the end of the
bridge delete kept files."""
import gc
import os

import numpy as np
import pytest

import cubed_java
import cubed_java.array_api as xp
from cubed_java import _bridge, _respool


def _shm():
    s = _bridge.session()
    if s.shm_dir is None:
        pytest.skip("shared files are off (CUBED_JAVA_SHM_DIR=off)")
    return s


def _names(s, kind):
    return sorted(n for n in os.listdir(s.shm_dir) if n.startswith(f"cubed-java-{kind}-"))


def test_a_released_result_file_takes_the_next_result_of_its_size(rng):
    s = _shm()
    a = rng.random((300, 700))
    a[rng.random(a.shape) < 0.05] = np.nan
    x = cubed_java.from_array(a, chunks=(100, 700))
    before = _respool.free_bytes()
    r1 = xp.sqrt(xp.abs(x)).compute()
    np.testing.assert_array_equal(r1, np.sqrt(np.abs(a)))
    assert len(_names(s, "held")) >= 1
    view = r1[10:20]  # a view keeps the file in use
    del r1
    gc.collect()
    assert _respool.free_bytes() == before
    del view
    gc.collect()
    assert _respool.free_bytes() == before + a.nbytes
    free = _names(s, "free")
    assert any(n.startswith(f"cubed-java-free-{a.nbytes}-") for n in free)
    r2 = (x * 2 - 1).compute()  # written into the released file: its old values overwritten
    np.testing.assert_array_equal(r2, a * 2 - 1)
    assert _respool.free_bytes() == before
    assert len(_names(s, "free")) == len(free) - 1
    r2[0, 0] = 5.0  # the caller's array, writable as before
    r3 = (x + 1).compute()  # r2 still held: a new file
    np.testing.assert_array_equal(r3, a + 1)
    assert r2[0, 0] == 5.0
    np.testing.assert_array_equal(r2.ravel()[1:], (a * 2 - 1).ravel()[1:])


def test_results_over_the_cap_are_not_kept_and_the_end_of_the_bridge_deletes_free_files(
        rng, monkeypatch):
    s = _shm()
    a = rng.random((256, 1024))
    x = cubed_java.from_array(a, chunks=(64, 1024))
    monkeypatch.setattr(_respool, "POOL_BYTES", a.nbytes - 1)
    held = len(_names(s, "held"))
    r = (x + 1).compute()
    np.testing.assert_array_equal(r, a + 1)
    assert len(_names(s, "held")) == held, "over the cap: unlinked when mapped, as before"
    del r
    monkeypatch.setattr(_respool, "POOL_BYTES", 8 * a.nbytes)
    r = (x + 2).compute()
    del r
    gc.collect()
    assert _names(s, "free")
    folder = s.shm_dir
    _bridge.restart()
    assert not os.path.exists(folder)
    assert all(os.path.dirname(e[0]) != folder for e in _respool._free.values())
    y = cubed_java.from_array(a, chunks=(64, 1024))
    np.testing.assert_array_equal((y - 1).compute(), a - 1)


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork")
def test_a_result_mapped_before_a_fork_is_never_reused_and_the_child_releases_nothing(rng):
    """A forked child shares the parent's mapping of a result: after the parent drops its array,
    the next compute of that size must not write into the file the child may still read; and the
    child dropping its copy must not hand the parent's file to the pool."""
    s = _shm()
    a = rng.random((400, 700))
    x = cubed_java.from_array(a, chunks=(100, 700))
    r1 = xp.sqrt(x).compute()
    expected = r1.copy()
    read, write = os.pipe()
    go_r, go_w = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: drops nothing of the parent's, reads r1 after the parent recomputed
        try:
            os.close(read)
            os.close(go_w)
            os.read(go_r, 1)
            ok = np.array_equal(r1, expected)
            del r1
            gc.collect()
            os.write(write, b"1" if ok and _respool.free_bytes() == 0 else b"0")
        finally:
            os._exit(0)
    os.close(write)
    os.close(go_r)
    held_before = _names(s, "held")
    pooled = _respool.free_bytes()
    del r1
    gc.collect()
    free_after_release = _respool.free_bytes() - pooled
    r2 = (x * 3.0).compute()  # same size: must not take the file the child maps
    os.write(go_w, b"g")
    child_ok = os.read(read, 1)
    os.waitpid(pid, 0)
    os.close(read)
    os.close(go_w)
    np.testing.assert_array_equal(r2, a * 3.0)
    assert held_before, "the result was not kept under a held name"
    assert free_after_release == 0, "a result mapped before a fork went to the pool"
    assert child_ok == b"1", "the child saw its array change or released the parent's file"
