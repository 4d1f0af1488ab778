"""Data-dependent functions made lazy: ``nonzero``, ``unique_*`` and boolean-mask indexing.

The engine needs their output sizes to build the result (a counting pass over the input: how
many elements each block keeps), so the JVM call runs that pass. Here the call itself is
deferred: the function returns at once ``Array`` objects of known dtype whose shape is not known
yet (``repr`` says so), and the call runs the first time one of them is needed: when it is
computed, when its shape, chunks or handle is read, or when another operation takes it as an
input. The arrays of one call (``unique_all``'s four, ``nonzero``'s one per axis) share it: it
runs once.

The inputs are pinned when the function is called (a new handle on each input's lazy array, as
``copy.copy``), so a later ``x[...] = v``, which rebinds only the wrapper ``x``, does not change
the result, as with an eager call.

This module is the mechanism below ``Array`` (it knows no ``Array``): a pending call, and the hook
``Array.__getattr__`` runs it by. ``_array.deferred_call`` makes the pending arrays of a call.
"""
from __future__ import annotations

import weakref

from . import _bridge

#: The attributes a deferred array gets from its call when first read.
_FILLED = ("_handle", "shape", "_grid")


class Call:
    """One deferred bridge call and the arrays it returns (weakly: an output dropped before the
    call ran has its handle freed when the call runs)."""

    def __init__(self, name, args):
        self._name = name
        # pinned: a new handle on each input's lazy array
        self._args = [a.__copy__() if isinstance(a, _bridge.Handle) else a for a in args]
        self._outs = []
        self._error = None

    def add_output(self, a):
        """Makes ``a`` (an array object of known dtype, nothing else set) the call's next output:
        pending until the call runs."""
        a._deferred = self
        self._outs.append(weakref.ref(a))

    def run(self):
        if self._error is not None:
            raise self._error
        if self._args is None:
            return
        bridge = _bridge.session()
        try:
            infos = bridge.call(self._name, *self._args)
        except Exception as e:
            self._error = e
            raise
        self._args = None  # the pinned inputs are freed with the call
        infos = infos if isinstance(infos, list) else [infos]
        for ref, info in zip(self._outs, infos):
            a = ref()
            if a is None:
                bridge.release(info.handle)
                continue
            a.__dict__.pop("_deferred", None)
            a._bridge = bridge
            a.dtype = info.dtype  # as predicted (test_data_dependent_functions_are_lazy checks)
            a._handle, a.shape, a._grid = info.handle, info.shape, info.chunks


def fill(a, name):
    """``Array.__getattr__``'s hook: runs the pending call of ``a`` when ``name`` is one of the
    attributes it fills; returns whether it did."""
    c = a.__dict__.get("_deferred")
    if c is None or name not in _FILLED:
        return False
    c.run()
    return True


def pending(a):
    """Whether ``a`` is a deferred array whose call has not run yet."""
    return "_deferred" in a.__dict__
