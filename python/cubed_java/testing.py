"""Test helpers: whether (and how often) the engine computes.

    with cubed_java.testing.raise_if_computes():
        y = ds.mean("time")            # building the plan must not compute anything

    with cubed_java.testing.count_computes() as n:
        ...
    n.count                           # the computes that ran inside

A compute is a bridge call that runs a plan or brings an array's values into Python (``compute``
and ``computeWith``, also from ``np.asarray``/``.values``, ``to_zarr``, ``persist``). Work the JVM
does inside another call is not counted, nor the block reads with which xarray's ``store`` fills a
target the engine cannot write (``zarrRead``: stored values, no plan).
"""
from __future__ import annotations

import contextlib

from . import _bridge


class ComputeCount:
    """The computes seen so far: ``count`` and the bridge call ``names`` in order."""

    def __init__(self):
        self.names = []

    @property
    def count(self):
        return len(self.names)

    def __call__(self, name):
        self.names.append(name)


@contextlib.contextmanager
def count_computes():
    """Counts the computes run inside the block (yields a :class:`ComputeCount`)."""
    counter = ComputeCount()
    _bridge.compute_observers.append(counter)
    try:
        yield counter
    finally:
        _bridge.compute_observers.remove(counter)


@contextlib.contextmanager
def raise_if_computes():
    """Raises RuntimeError ("'compute' was called") at the first compute inside the block, before
    it runs."""

    def refuse(name):
        raise RuntimeError(f"'compute' was called (bridge call {name!r}) inside"
                           " raise_if_computes()")

    _bridge.compute_observers.append(refuse)
    try:
        yield
    finally:
        _bridge.compute_observers.remove(refuse)


__all__ = ["ComputeCount", "count_computes", "raise_if_computes"]
