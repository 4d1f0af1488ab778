"""NumPy's nan-functions over cubed_java arrays: lazy, chunked, bounded in memory.

Each calls the engine's ``Xp.nan*`` (implemented in dev.cubed.XpNan): tree reductions whose states count only
the non-NaN elements (nanmean, nanvar/nanstd, nanmin/nanmax, nanargmin/nanargmax), or the plain
reduction or scan over x with NaN replaced by 0 or 1 in a fused pointwise step (nansum, nanprod,
nancumsum, nancumprod). They are exported by ``cubed_java.array_api``, which is the namespace
xarray asks (``__array_namespace__``) for ``nanmean`` & co. when it reduces with ``skipna``: so
``ds.mean("time")`` on cubed-java variables stays lazy.

Slices of NaNs only give what NumPy gives, without its RuntimeWarning: nansum 0, nanprod 1,
nanmean/nanvar/nanstd/nanmin/nanmax NaN (nanvar/nanstd also when the non-NaN count is at most
ddof); nanargmin/nanargmax raise ValueError ("All-NaN slice encountered") when computed.
"""
from __future__ import annotations

import numpy as np

from . import _core as xp
from . import _rolling
from ._array import _call
from ._bridge import Ints
from ._reductions import _reduce, _sum_dtype


def _fill_nan(x, value):
    return xp.where(xp.isnan(x), value, x) if x.dtype.kind in "fc" else x


def _sum_like(jname, fill, x, axis, dtype, keepdims):
    if not xp._axes(x, axis) and x.ndim:
        # no axis reduced: x itself with the NaNs filled (and sum's dtype rules)
        return _reduce(jname.replace("nan", ""), _fill_nan(x, fill), axis, keepdims,
                       _sum_dtype(x, dtype))
    return _reduce(jname, x, axis, keepdims, _sum_dtype(x, dtype))


def nansum(x, /, *, axis=None, dtype=None, keepdims=False):
    """Sum with NaN counted as 0 (NumPy's nansum; a slice of NaNs only sums to 0)."""
    return _sum_like("Xp.nansum", 0, x, axis, dtype, keepdims)


def nanprod(x, /, *, axis=None, dtype=None, keepdims=False):
    """Product with NaN counted as 1 (NumPy's nanprod)."""
    return _sum_like("Xp.nanprod", 1, x, axis, dtype, keepdims)


def _float_for_bool(x):
    # NumPy's nanmean/nanvar of bool is the float64 statistic (the engine's mean refuses bool)
    return xp.astype(x, np.float64) if x.dtype == np.bool_ else x


def nanmean(x, /, *, axis=None, dtype=None, keepdims=False):
    """Mean of the non-NaN elements (NumPy's nanmean; NaN for a slice of NaNs only)."""
    return _reduce("Xp.nanmean", _float_for_bool(x), axis, keepdims, dtype)


def nanmin(x, /, *, axis=None, keepdims=False):
    """Minimum of the non-NaN elements (NumPy's nanmin; NaN for a slice of NaNs only)."""
    return _reduce("Xp.nanmin", x, axis, keepdims)


def nanmax(x, /, *, axis=None, keepdims=False):
    """Maximum of the non-NaN elements (NumPy's nanmax; NaN for a slice of NaNs only)."""
    return _reduce("Xp.nanmax", x, axis, keepdims)


def _correction(fn, correction, ddof):
    c = correction if correction is not None else (ddof if ddof is not None else 0)
    if c != int(c):
        raise NotImplementedError(f"{fn}: a fractional correction ({c}) is not supported;"
                                  " use an integer ddof")
    return int(c)


def _nanmoment(jname, x, axis, dtype, correction, ddof, keepdims):
    c = _correction(jname[3:], correction, ddof)
    r = _rolling.reduce(jname, x, axis, keepdims, dtype, c)  # a window view: one op
    if r is not None:
        return r
    x = _float_for_bool(x)
    if dtype is not None and np.dtype(dtype) != x.dtype:
        x = xp.astype(x, dtype)
    axes = xp._axes(x, axis)
    if not axes and x.ndim:
        # nothing reduced: each element is its own slice (0 when not NaN and ddof 0, else NaN)
        one = xp.where(xp.isnan(x), np.nan, xp.zeros_like(x)) if x.dtype.kind == "f" else \
            xp.zeros_like(x, dtype=np.float64)
        return one if c == 0 else xp.full_like(one, np.nan)
    return xp._keep(x, _call(jname, x, Ints(axes), c, 0), axes, keepdims)


def nanvar(x, /, *, axis=None, dtype=None, correction=None, ddof=None, keepdims=False):
    """Variance of the non-NaN elements, divided by their count minus the correction (``ddof``
    as NumPy's, or the standard's ``correction``); NaN when that is 0 or less."""
    return _nanmoment("Xp.nanvar", x, axis, dtype, correction, ddof, keepdims)


def nanstd(x, /, *, axis=None, dtype=None, correction=None, ddof=None, keepdims=False):
    """Standard deviation of the non-NaN elements (the square root of :func:`nanvar`)."""
    return _nanmoment("Xp.nanstd", x, axis, dtype, correction, ddof, keepdims)


def _nanarg(jname, x, axis, keepdims):
    if axis is None:
        r = _call(jname, x)
        return xp.reshape(r, (1,) * x.ndim) if keepdims else r
    (ax,) = xp._axes(x, axis)
    return xp._keep(x, _call(jname, x, ax), (ax,), keepdims)


def nanargmax(x, /, *, axis=None, keepdims=False):
    """Index of the largest non-NaN element (NumPy's nanargmax; the flattened array when axis is
    None). A slice of NaNs only raises ValueError "All-NaN slice encountered" when computed."""
    return _nanarg("Xp.nanargmax", x, axis, keepdims)


def nanargmin(x, /, *, axis=None, keepdims=False):
    """Index of the smallest non-NaN element (see :func:`nanargmax`)."""
    return _nanarg("Xp.nanargmin", x, axis, keepdims)


def _nancumulative(jname, x, axis, dtype):
    if axis is None:  # NumPy: the flattened array
        x = xp.reshape(x, (-1,))
        axis = 0
    dtype = _sum_dtype(x, dtype)
    if dtype is not None and np.dtype(dtype) != x.dtype:
        x = xp.astype(x, dtype)
    (ax,) = xp._axes(x, axis)
    return _call(jname, x, ax)


def nancumsum(x, /, *, axis=None, dtype=None):
    """Cumulative sum with NaN counted as 0 (NumPy's nancumsum; flattened when axis is None)."""
    return _nancumulative("Xp.nancumsum", x, axis, dtype)


def nancumprod(x, /, *, axis=None, dtype=None):
    """Cumulative product with NaN counted as 1 (NumPy's nancumprod)."""
    return _nancumulative("Xp.nancumprod", x, axis, dtype)
