"""NumPy functions outside the Array API standard that xarray calls through an array's namespace
(``duck_array_ops``): ``pad`` (``shift``, ``pad``, ``rolling``, ``diff`` with ``label``),
``lib.stride_tricks.sliding_window_view`` (``rolling``). Lazy and bounded like the rest of the
namespace; re-exported by ``cubed_java.array_api``.
"""
from __future__ import annotations

import types

import numpy as np

from . import _core as xp
from . import _rolling
from ._array import Array, _call
from ._bridge import Ints


def _pad_widths(pad_width, ndim):
    """NumPy's forms of pad_width (an int, a pair, or one pair per axis) as one pair per axis."""
    w = np.asarray(pad_width)
    if w.size and w.dtype.kind not in "iu":
        raise TypeError(f"pad: pad_width must be integers, got {pad_width!r}")
    try:
        w = np.broadcast_to(w.astype(np.int64), (ndim, 2))
    except ValueError:
        raise ValueError(f"pad: pad_width {pad_width!r} does not fit an array of {ndim}"
                         " dimensions (an int, a (before, after) pair, or one pair per axis)"
                         ) from None
    if (w < 0).any():
        raise ValueError(f"pad: pad_width {pad_width!r} has a negative width")
    return [Ints((int(b), int(a))) for b, a in w]


def pad(array, pad_width, mode="constant", *, constant_values=0, **kwargs):
    """NumPy's ``pad`` (dev.cubed.Xp.pad): modes ``constant`` (one value for every side),
    ``edge``, ``reflect``, ``symmetric`` (``reflect_type="even"``) and ``wrap``; the others
    (``mean``, ``linear_ramp``, ``stat_length=``, ...) are a NotImplementedError."""
    x = array if isinstance(array, Array) else xp.asarray(array)
    if kwargs.pop("reflect_type", None) not in (None, "even"):
        raise NotImplementedError("pad(reflect_type='odd') is not supported by cubed_java")
    if kwargs:
        raise NotImplementedError(f"pad: options {sorted(kwargs)} are not supported by"
                                  " cubed_java (modes constant, edge, reflect, symmetric, wrap)")
    if mode not in ("constant", "edge", "reflect", "symmetric", "wrap"):
        raise NotImplementedError(f"pad: mode {mode!r} is not supported by cubed_java (constant,"
                                  " edge, reflect, symmetric, wrap)")
    widths = _pad_widths(pad_width, x.ndim)
    value = None
    if mode == "constant":
        v = np.asarray(constant_values if constant_values is not None else 0)
        if v.size != 1 and not (v == v.flat[0]).all():
            raise NotImplementedError("pad: cubed_java pads with one constant for every side,"
                                      f" got {constant_values!r}")
        value = v.flat[0].item()
    return _call("Xp.pad", x, widths, mode, value)


def sliding_window_view(x, window_shape, axis=None, *, subok=False, writeable=False):
    """NumPy's ``lib.stride_tricks.sliding_window_view``: for each axis a new last axis of the
    window's length. Along one axis the result is a window view (``_rolling.py``): reduced over
    its window axis (as xarray's ``rolling(...).mean()`` & co. do) it is one moving-window op that
    never writes the window axis; any other use builds it lazily as a stack of the window's
    shifted slices (a window of w costs w slices of x, each bounded like x's blocks).
    ``writeable=True`` is refused."""
    if writeable:
        raise ValueError("sliding_window_view: cubed_java arrays are read-only (writeable=False)")
    shapes = (window_shape,) if np.ndim(window_shape) == 0 else tuple(window_shape)
    if axis is None:
        axes = tuple(range(x.ndim))
    else:
        axes = (axis,) if np.ndim(axis) == 0 else tuple(axis)
    if len(shapes) != len(axes):
        raise ValueError(f"sliding_window_view: window_shape {window_shape!r} and axis {axis!r}"
                         " must have the same length")
    out = x
    for w, a in zip(shapes, axes):
        w, a = int(w), int(a) % x.ndim
        n = out.shape[a]
        if w < 0 or w > n:
            raise ValueError(f"sliding_window_view: window {w} does not fit axis {a} of length"
                             f" {n}")
    if len(shapes) == 1 and isinstance(x, Array) and int(shapes[0]) > 0:
        return _rolling.view(x, int(shapes[0]), int(axes[0]) % x.ndim)
    for w, a in zip(shapes, axes):
        out = _rolling.stack(out, int(a) % x.ndim, int(w))
    return out


#: ``xp.lib.stride_tricks.sliding_window_view``, where xarray's rolling looks for it
lib = types.SimpleNamespace(stride_tricks=types.SimpleNamespace(
    sliding_window_view=sliding_window_view))


def einsum(subscripts, *operands, dtype=None, optimize=False, **kwargs):
    """NumPy's ``einsum`` (dev.cubed.Xp.einsum) over cubed_java arrays (NumPy arrays are
    converted): the forms xarray's ``dot`` and ``weighted`` build (``"...ab,...b->...a"``), and
    NumPy's others without a repeated label in one operand. ``optimize`` is accepted and ignored
    (the engine contracts left to right); ``out``/``order``/``casting`` are refused."""
    if kwargs:
        raise NotImplementedError(f"einsum: options {sorted(kwargs)} are not supported by"
                                  " cubed_java")
    if not isinstance(subscripts, str):
        raise NotImplementedError("einsum: only the subscripts-string form is supported by"
                                  " cubed_java")
    ops = [o if isinstance(o, Array) else xp.asarray(o) for o in operands]
    r = _call("Xp.einsum", subscripts, ops)
    return r if dtype is None else xp.astype(r, dtype)


def transpose(x, axes=None):
    """NumPy's ``transpose`` (xarray moves dimensions with it): ``permute_dims``, the axes
    reversed when None."""
    return xp.permute_dims(x, tuple(range(x.ndim))[::-1] if axes is None else tuple(axes))


def _quantile(name, x, q, axis, method, keepdims, kwargs):
    if kwargs.pop("overwrite_input", False) or kwargs.pop("out", None) is not None or kwargs:
        raise NotImplementedError(f"{name}: options out/overwrite_input/{sorted(kwargs)} are not"
                                  " supported by cubed_java")
    if method != "linear":
        raise NotImplementedError(f"{name}: method {method!r} is not supported by cubed_java"
                                  " (only 'linear', NumPy's default)")
    x = x if isinstance(x, Array) else xp.asarray(x)
    qa = np.asarray(q, dtype=np.float64)
    if axis is None:
        axes = tuple(range(x.ndim))
    else:
        axes = tuple(int(a) % x.ndim for a in ((axis,) if np.ndim(axis) == 0 else axis))
    r = _call(f"Xp.{name}", x, np.atleast_1d(qa), Ints(axes))
    if keepdims:
        for a in sorted(axes):
            r = xp.expand_dims(r, axis=a + 1)
    return r[0] if qa.ndim == 0 else r


def quantile(x, q, axis=None, *, method="linear", keepdims=False, **kwargs):
    """NumPy's ``quantile`` (method "linear") lazily (dev.cubed.Xp.quantile: the reduced axes
    sorted, each q read from the sorted lanes; bounded like ``sort``). The q axis comes first, as
    in NumPy; a lane holding NaN gives NaN."""
    return _quantile("quantile", x, q, axis, method, keepdims, kwargs)


def nanquantile(x, q, axis=None, *, method="linear", keepdims=False, **kwargs):
    """NumPy's ``nanquantile`` (method "linear") lazily: as ``quantile`` among each lane's
    non-NaN values; xarray's ``quantile`` (default skipna) calls it through the namespace."""
    return _quantile("nanquantile", x, q, axis, method, keepdims, kwargs)
