"""xarray's ``count`` (``duck_array_ops.count``: ``sum(logical_not(isnull(x)))``) of a floating
cubed_java array along one axis as one engine op per block: the engine's count by group
(``XpGroupby.groupbyReduce`` with every element in one group) counts the non-NaN elements of each
block straight from the block, its counts merged by the tree reduction's rounds, where the
composition makes a bool array, its negation and an int64 copy per block before summing. Other
calls (every axis at once, several axes, non-floating data, other arrays) are xarray's own.

Installed once when the chunk manager is imported (before the plain groupby route, which
recognises xarray's count function by identity and so sees this one).
"""
from __future__ import annotations

import numpy as np

from ._array import Array, _call


def install():
    """Wraps ``xarray.core.duck_array_ops.count`` (once)."""
    from xarray.core import duck_array_ops as dao

    original = dao.count
    if getattr(original, "_cubed_java_count", False):
        return

    def count(data, axis=None):
        ax = _one_axis(data, axis)
        if ax is None:
            return original(data, axis=axis)
        codes = np.zeros(data.shape[ax], dtype=np.int64)
        from . import array_api as xp

        r = _call("XpGroupby.groupbyReduce", data, codes, ax, 1, "count", True)
        return xp.squeeze(r, axis=ax)

    count.__doc__ = original.__doc__
    count._cubed_java_count = True
    dao.count = count


def _one_axis(data, axis):
    """The one axis (non-negative) to count along the engine's way, else None."""
    if not isinstance(data, Array) or data.dtype.kind != "f" or axis is None:
        return None
    axes = tuple(axis) if isinstance(axis, (tuple, list)) else (axis,)
    if len(axes) != 1 or not isinstance(axes[0], (int, np.integer)):
        return None
    ax = int(axes[0])
    if not -data.ndim <= ax < data.ndim:
        return None
    ax %= data.ndim
    return ax if data.shape[ax] > 0 else None
