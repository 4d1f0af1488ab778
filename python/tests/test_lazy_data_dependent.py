"""Data-dependent functions (nonzero, unique_*, boolean masks) are lazy: their JVM call, which
runs the counting pass, happens when a result is first needed, not when the function is called."""
import gc

import numpy as np
import pytest

import cubed_java
import cubed_java._bridge as bridge
import cubed_java.array_api as xp

DATA_DEPENDENT = ("Xp.nonzero", "Xp.getMask", "Xp.uniqueValues", "Xp.uniqueCounts",
                  "Xp.uniqueInverse", "Xp.uniqueAll")


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


def _dd(calls):
    return [n for n in calls if n in DATA_DEPENDENT]


def test_calls_run_when_a_result_is_needed(calls):
    a = np.array([[3, 0, 1, 7], [1, 0, 3, 0], [0, 5, 5, 2]])
    x = xp.asarray(a, chunks=2)
    mask = x > 1
    nz = xp.nonzero(x)
    ua = xp.unique_all(x)
    uc = xp.unique_counts(x)
    ui = xp.unique_inverse(x)
    uv = xp.unique_values(x)
    m = x[mask]
    rows = x[xp.asarray([True, False, True])]
    m0 = x[xp.asarray(True)]
    assert _dd(calls) == []  # before: each of these ran its counting pass here
    assert "unknown until computed" in repr(uv)
    assert [v.dtype for v in nz] == [np.dtype(np.int64)] * 2
    dtypes = [v.dtype for v in (*ua, *uc, *ui, uv, m, rows, m0)]

    np.testing.assert_array_equal(uv.compute(), np.unique(a))
    assert _dd(calls) == ["Xp.uniqueValues"]
    np.testing.assert_array_equal(nz[1].compute(), np.nonzero(a)[1])
    np.testing.assert_array_equal(nz[0].compute(), np.nonzero(a)[0])
    assert _dd(calls).count("Xp.nonzero") == 1  # the outputs of one call share it
    want = np.unique_all(a)
    for got, w in zip(ua, want):
        np.testing.assert_array_equal(np.asarray(got), w)
    assert _dd(calls).count("Xp.uniqueAll") == 1
    np.testing.assert_array_equal(uc.counts.compute(), np.unique_counts(a).counts)
    np.testing.assert_array_equal(ui.inverse_indices.compute(),
                                  np.unique_inverse(a).inverse_indices)
    np.testing.assert_array_equal(m.compute(), a[a > 1])
    assert rows.shape == (2, 4)  # reading the shape runs the call too
    np.testing.assert_array_equal(rows.compute(), a[[True, False, True]])
    np.testing.assert_array_equal(m0.compute(), a[np.True_])
    # the dtypes given before the call ran are the engine's
    assert dtypes == [v.dtype for v in (*ua, *uc, *ui, uv, m, rows, m0)]
    assert "unknown" not in repr(uv) and uv.shape == (6,)


def test_a_later_assignment_does_not_change_a_pending_result():
    a = np.arange(6.0)
    x = xp.asarray(a, chunks=4)
    mask = xp.asarray(a > 2)
    sel = x[mask]
    u = xp.unique_values(x)
    x[...] = 1.0  # rebinds the wrapper x only
    mask[...] = False
    np.testing.assert_array_equal(sel.compute(), [3.0, 4.0, 5.0])
    np.testing.assert_array_equal(u.compute(), a)


def test_errors_are_raised_when_called():
    with pytest.raises(ValueError, match="0-d"):
        xp.nonzero(xp.asarray(3))
    with pytest.raises(IndexError, match="mask shape"):
        xp.asarray(np.ones((2, 3)))[xp.asarray(np.ones((3,), dtype=bool))]


def test_an_output_dropped_before_the_call_runs_frees_its_handle():
    s = cubed_java.session()
    x = xp.asarray(np.array([2, 1, 2, 3]), chunks=2)
    s.call("echo", 0)
    before = s.call("handles")
    for _ in range(20):
        values = xp.unique_all(x).values  # the other three outputs are dropped at once
        values.compute()
        del values
        gc.collect()
    s.call("echo", 0)  # flushes the pending frees
    assert s.call("handles") - before < 5
    for _ in range(20):
        xp.unique_all(x)  # never run: nothing held in the JVM but the pinned input
    gc.collect()
    s.call("echo", 0)
    assert s.call("handles") - before < 5
