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


#: xarray's rolling reductions taken whole by :func:`route_xarray_rolling`, by xarray's names
_ROUTED = {"mean": "nanmean", "sum": "nansum", "std": "nanstd", "var": "nanvar"}


def route_xarray_rolling():
    """Wraps xarray's ``DataArrayRolling._array_reduce`` (once) so that ``rolling(dim=w).mean()``
    (also ``sum``, ``std``, ``var``, with ``center`` and ``min_periods``) of a floating cubed_java
    array along one dimension is one engine op: the array padded with NaN as xarray pads it and
    ``XpWindow.movingReduce`` with the NaN-skipping reduction and ``min_periods`` as its minimum
    count. xarray itself reduces the windows of ``fillna(x)`` and a rolling count of ``notnull(x)``
    (twice for a mean: its sum and its count) and masks by ``count >= min_periods``: three halo
    ops over the same array, the count's mask stored between them. Same values; any other call
    (several dimensions, other reductions, ``skipna=False``, integer data, NumPy or Dask data) is
    xarray's own."""
    from xarray.computation import rolling as r

    cls = r.DataArrayRolling
    if getattr(cls._array_reduce, "_cubed_java_route", False):
        return
    original = cls._array_reduce

    import functools

    @functools.wraps(original)
    def _array_reduce(self, array_agg_func, bottleneck_move_func, numbagg_move_func,
                      rolling_agg_func, keep_attrs, fillna, **kwargs):
        out = _whole(self, array_agg_func, rolling_agg_func, keep_attrs, kwargs)
        if out is not None:
            return out
        return original(self, array_agg_func, bottleneck_move_func, numbagg_move_func,
                        rolling_agg_func, keep_attrs, fillna, **kwargs)

    _array_reduce._cubed_java_route = True
    cls._array_reduce = _array_reduce


def _whole(rolling, array_agg_func, rolling_agg_func, keep_attrs, kwargs):
    """The routed reduction of :func:`route_xarray_rolling`, or None when it does not apply."""
    obj = rolling.obj
    data = obj.data
    if not isinstance(data, Array) or len(rolling.dim) != 1 or data.dtype.kind != "f":
        return None
    if rolling_agg_func is not None:
        name = "mean" if getattr(rolling_agg_func, "__name__", None) == "_mean" else None
    else:
        name = getattr(array_agg_func, "__name__", None)
    if name not in _ROUTED:
        return None
    rest = dict(kwargs)
    rest.pop("sliding_window_view_kwargs", None)
    ddof = rest.pop("ddof", 0)
    if rest.pop("skipna", None) not in (None, True) or rest:
        return None
    if not isinstance(ddof, (int, np.integer)) or ddof < 0 or (ddof and name not in ("std", "var")):
        return None
    (w,) = rolling.window
    (center,) = rolling.center
    axis = obj.get_axis_num(rolling.dim[0])
    start = w // 2 if center else w - 1
    widths = [(0, 0)] * obj.ndim
    widths[axis] = (start, w - 1 - start)
    # NaN padding as xarray pads (Xp.pad's constant mode, as _xops.pad calls it; _xops is a
    # layer above this module)
    padded = _call("Xp.pad", data, [_bridge.Ints((int(b), int(a))) for b, a in widths],
                   "constant", float("nan"))
    r = _call("XpWindow.movingReduce", padded, axis, w, _ROUTED[name], int(ddof),
              int(rolling.min_periods))
    out = obj.copy(data=r)
    out.attrs = dict(obj.attrs) if keep_attrs else {}
    return out
