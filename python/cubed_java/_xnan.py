"""xarray's NaN-skipping ``count`` and ``sum`` of floating cubed_java arrays as the engine's
one-pass kernels:

- ``count`` (``duck_array_ops.count``: ``sum(logical_not(isnull(x)))``) is ``Xp.nancount``: each
  block's non-NaN elements counted straight into the states of a tree reduction, where the
  composition makes a bool array, its negation and an int64 copy per block before summing.
- ``sum`` with ``skipna`` (``nanops.nansum``: ``sum(where(isnull(x), zeros_like(x), x))``, then
  ``min_count``'s masking) is ``Xp.nansum``: each block's non-NaN elements added in one pass;
  ``min_count`` is applied by xarray's own code on that result.

Other calls (non-floating data, other arrays) are xarray's own. Installed once when the chunk
manager is imported (before the plain groupby route, which recognises xarray's count function by
identity and so sees this one).
"""
from __future__ import annotations

import numpy as np

from ._array import Array, _call
from ._bridge import Ints


def install():
    """Wraps ``xarray.core.duck_array_ops.count`` and xarray's ``nanops.nansum`` (once each; a
    function missing from this xarray's layout is left alone)."""
    _install_count()
    _install_nansum()


def _install_nansum():
    try:
        from xarray.computation import nanops
    except ImportError:
        try:
            from xarray.core import nanops
        except ImportError:
            return
    original = getattr(nanops, "nansum", None)
    if original is None or getattr(original, "_cubed_java_nansum", False):
        return

    def nansum(a, axis=None, dtype=None, out=None, min_count=None):
        axes = _axes(a, axis)
        if axes is None or out is not None or not hasattr(nanops, "_maybe_null_out"):
            return original(a, axis=axis, dtype=dtype, out=out, min_count=min_count)
        from . import _nan

        result = _nan.nansum(a, axis=axes, dtype=dtype)
        if min_count is None:
            return result
        from xarray.core.duck_array_ops import isnull

        return nanops._maybe_null_out(result, axis, isnull(a), min_count)

    nansum.__doc__ = original.__doc__
    nansum._cubed_java_nansum = True
    nanops.nansum = nansum


def _install_count():
    from xarray.core import duck_array_ops as dao

    original = dao.count
    if getattr(original, "_cubed_java_count", False):
        return

    def count(data, axis=None):
        axes = _axes(data, axis)
        if axes is None:
            return original(data, axis=axis)
        return _call("Xp.nancount", data, Ints(axes))

    count.__doc__ = original.__doc__
    count._cubed_java_count = True
    dao.count = count


def _axes(data, axis):
    """The distinct non-negative axes to count along (all for None) the engine's way, else None."""
    if not isinstance(data, Array) or data.dtype.kind != "f" or data.ndim == 0:
        return None
    axes = tuple(range(data.ndim)) if axis is None else (
        tuple(axis) if isinstance(axis, (tuple, list)) else (axis,))
    if not axes or not all(isinstance(a, (int, np.integer)) for a in axes):
        return None
    if not all(-data.ndim <= int(a) < data.ndim for a in axes):
        return None
    out = tuple(sorted({int(a) % data.ndim for a in axes}))
    return out if len(out) == len(axes) else None
