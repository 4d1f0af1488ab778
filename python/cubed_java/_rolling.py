"""Rolling reductions without the window axis.

xarray's ``rolling(dim=w).sum()`` (and mean, std, var, min, max, count) on a cubed_java array pads
the array, takes ``xp.lib.stride_tricks.sliding_window_view`` of it along one axis and reduces the
new last axis (the window axis) with ``xp.sum``/``xp.max``/``xp.nanstd``/...; ``min_periods`` is a
rolling count made the same way (a sum of a boolean window view) compared with the threshold. Built
as it reads, the window view is a stack of ``w`` shifted slices: ``w`` times the data written as
intermediates.

Here ``sliding_window_view`` along one axis returns a *window view*: an ``Array`` of the view's
shape and dtype whose plan is not built yet. A reduction over its window axis alone (``sum``,
``nansum``, ``mean``, ``nanmean``, ``var``, ``std``, ``nanvar``, ``nanstd``, ``min``, ``max``,
``nanmin``, ``nanmax``) becomes one engine op over the viewed array, ``XpWindow.movingReduce``:
each task reads its block plus the neighbouring blocks its windows reach into and runs a
moving-window kernel, and nothing the size of the window axis is ever written. Any other use of
the view (an elementwise operation, another axis reduced, ``compute``,
``rolling(...).construct()`` handed to the user) builds the stack first, as NumPy's view would give: the window axis is then real.
"""
from __future__ import annotations

import operator
import weakref

import numpy as np

from . import _bridge
from . import _core as xp
from ._array import Array, _call

#: the namespace reductions that run as a moving window, by their engine name
_OPS = {"Xp.sum": "sum", "Xp.nansum": "nansum", "Xp.mean": "mean", "Xp.nanmean": "nanmean",
        "Xp.var": "var", "Xp.std": "std", "Xp.nanvar": "nanvar", "Xp.nanstd": "nanstd",
        "Xp.min": "min", "Xp.max": "max", "Xp.nanmin": "nanmin", "Xp.nanmax": "nanmax"}


class _View:
    """A window view's pending plan: the viewed array (pinned), the axis and the window length.
    ``run`` (through ``_deferred.fill``, when the view's handle or grid is first needed) builds the
    stack of shifted slices and gives its handle to the view."""

    def __init__(self, base, axis, window):
        self.base = base.__copy__()
        self.axis = axis
        self.window = window
        self.out = None

    def run(self):
        a = self.out()
        if a is None or "_deferred" not in a.__dict__:
            return
        m = stack(self.base, self.axis, self.window)
        a.__dict__.pop("_deferred", None)
        a.__dict__.pop("_window", None)
        a._bridge, a._handle, a._grid = m._bridge, m._handle, m._grid
        del m._handle  # the handle now belongs to the view (m's __del__ frees nothing)

    def getitem(self, x, key):
        """``Array.__getitem__``'s hook for view ``x``: see ``whole``."""
        return whole(x, key)


def view(x, window, axis):
    """The window view of ``x`` (``sliding_window_view(x, window, axis)``, one axis): shape
    ``x.shape`` with ``axis`` of length ``n - window + 1``, then a last axis of ``window``."""
    n = x.shape[axis]
    v = _View(x, axis, window)
    a = Array.__new__(Array)
    a._bridge = _bridge.session()
    a.dtype = x.dtype
    a.shape = tuple(n - window + 1 if d == axis else s for d, s in enumerate(x.shape)) + (window,)
    a._deferred = v
    a._window = v
    v.out = weakref.ref(a)
    return a


def is_view(x):
    """Whether ``x`` is a window view whose stack has not been built."""
    return isinstance(x, Array) and "_window" in x.__dict__ and "_deferred" in x.__dict__


def whole(x, key):
    """A new window view of the same array when ``key`` selects all of view ``x`` (full slices
    and an Ellipsis: what xarray's ``isel`` with a stride of 1 passes), else None."""
    if not is_view(x):
        return None
    for k in key:
        if k is Ellipsis:
            continue
        if not (isinstance(k, slice) and k.start in (None, 0) and k.step in (None, 1)):
            return None
    if len(key) - (Ellipsis in key) > x.ndim:
        return None
    for d, k in enumerate(key):
        if k is Ellipsis:
            break
        if k.stop is not None and k.stop < x.shape[d]:
            return None
    if Ellipsis in key:
        for d, k in zip(range(x.ndim - 1, -1, -1), reversed(key)):
            if k is Ellipsis:
                break
            if k.stop is not None and k.stop < x.shape[d]:
                return None
    v = x._window
    return view(v.base, v.window, v.axis)


def stack(x, axis, window):
    """The window axis made real: the ``window`` shifted slices of ``x`` stacked as a new last
    axis (each slice bounded like x's blocks)."""
    n = x.shape[axis]
    pieces = []
    for i in range(window):
        key = [slice(None)] * x.ndim
        key[axis] = slice(i, n - window + 1 + i)
        pieces.append(x[tuple(key)])
    return xp.stack(pieces, axis=-1)


def reduce(jname, x, axis, keepdims, dtype=None, correction=0):
    """The reduction ``jname`` (an engine name of ``_OPS``) of window view ``x`` over its window
    axis as one moving-window op, or None when ``x`` is not a pending view, the reduction is over
    other axes or is not one of ``_OPS`` (the caller then reduces as usual, building the stack)."""
    if not is_view(x) or jname not in _OPS or x.dtype.kind == "c":
        return None
    if axis is None:
        return None
    axes = (axis,) if np.ndim(axis) == 0 else tuple(axis)
    try:
        axes = tuple(sorted(operator.index(a) % x.ndim for a in axes))
    except TypeError:
        return None
    if axes != (x.ndim - 1,) or correction != int(correction):
        return None
    v = x._window
    base = v.base
    if jname in ("Xp.mean", "Xp.var", "Xp.std", "Xp.nanmean", "Xp.nanvar", "Xp.nanstd") and \
            base.dtype == np.bool_:
        base = xp.astype(base, np.float64)
    r = _call("XpWindow.movingReduce", base, v.axis, v.window, _OPS[jname], int(correction))
    if keepdims:
        r = xp.expand_dims(r, axis=-1)
    if dtype is not None and r.dtype != np.dtype(dtype):
        r = xp.astype(r, dtype)
    return r
