"""The standard's statistical functions (sum, prod, min, max, mean, var, std, argmax, argmin,
count_nonzero, all, any, cumulative_sum/prod) of ``cubed_java.array_api``, which re-exports them:
each a chunked reduction or scan in the engine. ``_reduce`` and ``_sum_dtype`` serve the
nan-functions (``_nan``) too."""
from __future__ import annotations

import math

import numpy as np

from . import _core as xp
from . import _rolling
from ._array import _call
from ._bridge import Ints


def _reduce(jname, x, axis, keepdims, dtype=None):
    r = _rolling.reduce(jname, x, axis, keepdims, dtype)  # a window view: one moving-window op
    if r is not None:
        return r
    if dtype is not None and np.dtype(dtype) != x.dtype:
        x = xp.astype(x, dtype)
    axes = xp._axes(x, axis)
    if not axes and x.ndim:
        r = _no_axes(jname, x)
    else:
        r = xp._keep(x, _call(jname, x, Ints(axes)), axes, keepdims)
    # the engine sums small integers in a wider type; a requested dtype is kept (wrapping)
    return r if dtype is None or r.dtype == np.dtype(dtype) else xp.astype(r, dtype)


def _no_axes(jname, x):
    # reducing over no axis: the standard keeps x (with the reduction's dtype rules)
    if jname in ("Xp.sum", "Xp.prod") and x.dtype.kind in "biu":
        return xp.astype(x, np.uint64 if x.dtype.kind == "u" else np.int64)
    if jname in ("Xp.all", "Xp.any"):
        return xp.astype(x, xp.bool)
    return x


def _sum_dtype(x, dtype):
    if dtype is not None:
        return dtype
    if x.dtype.kind == "b" or (x.dtype.kind == "i" and x.dtype.itemsize < 8):
        return np.int64
    if x.dtype.kind == "u" and x.dtype.itemsize < 8:
        return np.uint64
    return None


def sum(x, /, *, axis=None, dtype=None, keepdims=False):  # noqa: A001
    return _reduce("Xp.sum", x, axis, keepdims, _sum_dtype(x, dtype))


def prod(x, /, *, axis=None, dtype=None, keepdims=False):
    return _reduce("Xp.prod", x, axis, keepdims, _sum_dtype(x, dtype))


def min(x, /, *, axis=None, keepdims=False):  # noqa: A001
    return _reduce("Xp.min", x, axis, keepdims)


def max(x, /, *, axis=None, keepdims=False):  # noqa: A001
    return _reduce("Xp.max", x, axis, keepdims)


def mean(x, /, *, axis=None, keepdims=False):
    return _reduce("Xp.mean", x, axis, keepdims)


def all(x, /, *, axis=None, keepdims=False):  # noqa: A001
    return _reduce("Xp.all", x, axis, keepdims)


def any(x, /, *, axis=None, keepdims=False):  # noqa: A001
    return _reduce("Xp.any", x, axis, keepdims)


def _moment(jname, x, axis, correction, keepdims):
    r = _rolling.reduce(jname, x, axis, keepdims, correction=correction)
    if r is not None:
        return r
    axes = xp._axes(x, axis)
    if not axes and x.ndim:
        return x
    r = _call(jname, x, Ints(axes), int(correction), 4)
    return xp._keep(x, r, axes, keepdims)


def var(x, /, *, axis=None, correction=0.0, keepdims=False):
    if correction == int(correction):
        return _moment("Xp.var", x, axis, int(correction), keepdims)
    # a fractional correction: the population variance scaled by n / (n - correction)
    axes = xp._axes(x, axis)
    n = math.prod(x.shape[a] for a in axes)
    scale = n / (n - correction) if n - correction > 0 else math.inf
    return xp.multiply(_moment("Xp.var", x, axis, 0, keepdims), scale)


def std(x, /, *, axis=None, correction=0.0, keepdims=False):
    if correction == int(correction):
        return _moment("Xp.std", x, axis, int(correction), keepdims)
    return xp.sqrt(var(x, axis=axis, correction=correction, keepdims=keepdims))


def count_nonzero(x, /, *, axis=None, keepdims=False):
    axes = xp._axes(x, axis)
    return xp._keep(x, _call("Xp.countNonzero", x, Ints(axes)), axes, keepdims)


def argmax(x, /, *, axis=None, keepdims=False):
    if axis is None:
        r = _call("Xp.argmax", x)
        return xp.reshape(r, (1,) * x.ndim) if keepdims else r
    (ax,) = xp._axes(x, axis)
    return xp._keep(x, _call("Xp.argmax", x, ax), (ax,), keepdims)


def argmin(x, /, *, axis=None, keepdims=False):
    if axis is None:
        r = _call("Xp.argmin", x)
        return xp.reshape(r, (1,) * x.ndim) if keepdims else r
    (ax,) = xp._axes(x, axis)
    return xp._keep(x, _call("Xp.argmin", x, ax), (ax,), keepdims)


def _cumulative(jname, x, axis, dtype, include_initial):
    if axis is None:
        if x.ndim > 1:
            raise ValueError(f"{jname[3:]}: axis is required for arrays of more than one"
                             " dimension")
        axis = 0
    dtype = _sum_dtype(x, dtype)
    (ax,) = xp._axes(x, axis)
    # accumulates in dtype (integers wrap at its width, as NumPy's dtype= does)
    r = _call(jname, x, ax, xp._dt(dtype))
    if include_initial:
        shape = tuple(1 if i == ax else n for i, n in enumerate(x.shape))
        first = (xp.zeros if jname.endswith("Sum") else xp.ones)(shape, dtype=r.dtype)
        r = xp.concat([first, r], axis=ax)
    return r


def cumulative_sum(x, /, *, axis=None, dtype=None, include_initial=False):
    return _cumulative("Xp.cumulativeSum", x, axis, dtype, include_initial)


def cumulative_prod(x, /, *, axis=None, dtype=None, include_initial=False):
    return _cumulative("Xp.cumulativeProd", x, axis, dtype, include_initial)
