"""The core of the Array API namespace ``cubed_java.array_api``, which re-exports it: data types
and constants, creation, elementwise, manipulation, searching, sets, sorting and the data type
functions. The namespace's other modules (reductions, nan-functions, ``linalg``, ``fft``, ...) build
on these, so they live below ``array_api`` (docs/python.md, "The package's layers").

Every function builds a lazy array in the JVM (``dev.cubed.Xp``); ``compute()`` runs the plan.
"""
from __future__ import annotations

import builtins
import math
from collections import namedtuple

import numpy as np

from . import _bridge
from ._array import Array, _call, deferred_call
from ._bridge import SPEC, Dtype, Ints
from ._chunks import compact_chunks, list_grid, regular_size

# ---- data types and constants ----
bool = np.dtype(np.bool_)  # noqa: A001
int8 = np.dtype(np.int8)
int16 = np.dtype(np.int16)
int32 = np.dtype(np.int32)
int64 = np.dtype(np.int64)
uint8 = np.dtype(np.uint8)
uint16 = np.dtype(np.uint16)
uint32 = np.dtype(np.uint32)
uint64 = np.dtype(np.uint64)
float32 = np.dtype(np.float32)
float64 = np.dtype(np.float64)
complex64 = np.dtype(np.complex64)
complex128 = np.dtype(np.complex128)
_DTYPES = (bool, int8, int16, int32, int64, uint8, uint16, uint32, uint64, float32, float64,
           complex64, complex128)

e = math.e
pi = math.pi
inf = math.inf
nan = math.nan
newaxis = None


def _dt(dtype):
    if dtype is None:
        return None
    d = np.dtype(dtype)
    if d not in _DTYPES:
        raise ValueError(f"dtype {d} is not an Array API dtype (one of bool, int8..int64,"
                         " uint8..uint64, float32, float64, complex64, complex128)")
    return Dtype("bool" if d == np.bool_ else d.name)


def _axes(x, axis):
    if axis is None:
        return tuple(range(x.ndim))
    if isinstance(axis, (int, np.integer)):
        axis = (int(axis),)
    out = []
    for a in axis:
        a = int(a)
        if not -x.ndim <= a < builtins.max(x.ndim, 1):
            raise IndexError(f"axis {a} is out of bounds for an array of {x.ndim} dimensions")
        out.append(a % x.ndim if x.ndim else 0)
    if len(set(out)) != len(out):
        raise ValueError(f"repeated axis in {tuple(axis)}")
    return tuple(out)


def _keep(x, r, axes, keepdims):
    if not keepdims:
        return r
    shape = tuple(1 if i in axes else n for i, n in enumerate(x.shape))
    return reshape(r, shape)


# ---- creation ----
def _chunks_for(shape, dtype, chunks):
    if not shape:
        return None  # a 0-d array: one chunk
    # compact: a regular axis is its block size, never a list (10^9 blocks would not fit)
    grid = compact_chunks("auto" if chunks is None else chunks, shape, dtype)
    regular = [c if isinstance(c, int) else regular_size(c) for c in grid]
    if builtins.all(r is not None for r in regular):
        return Ints(builtins.max(1, r) for r in regular)
    return [Ints(c) for c in list_grid(grid, shape)]


def from_array(x, chunks=None):
    """A lazy array holding a copy of the NumPy array ``x``, split into ``chunks``."""
    a = np.asarray(x)
    if a.dtype.kind in "OUSVMm":
        raise TypeError(f"from_array: dtype {a.dtype} has no Array API counterpart")
    return _call("fromArray", a, _chunks_for(a.shape, a.dtype, chunks))


def asarray(obj, /, *, dtype=None, device=None, copy=None, chunks=None):
    """An Array API ``asarray``. For a lazy ``Array``: ``copy=None`` returns it (or its
    conversion to ``dtype``); ``copy=True`` always a new ``Array`` object (item assignment to
    either leaves the other unchanged: the engine's arrays are immutable and ``x[k] = v`` rebinds
    only ``x``); ``copy=False`` returns it and raises ValueError when ``dtype`` asks for a
    conversion. Other data always crosses into the JVM as a copy, so ``copy=False`` raises
    ValueError for it."""
    if isinstance(obj, Array):
        if dtype is not None and np.dtype(dtype) != obj.dtype:
            if copy is False:
                raise ValueError(f"asarray(copy=False): converting {obj.dtype} to"
                                 f" {np.dtype(dtype)} needs a copy")
            return astype(obj, dtype)
        # a new handle on the same immutable plan node: a new Array that nothing done to obj
        # (item assignment rebinds obj alone) can change
        return _call("info", obj) if copy else obj
    if copy is False:
        raise ValueError("asarray(copy=False): data always crosses into the JVM as a copy")
    if dtype is None and not isinstance(obj, np.generic):
        for t, d in ((builtins.bool, np.bool_), (int, np.int64), (float, np.float64),
                     (complex, np.complex128)):
            if isinstance(obj, t):
                dtype = d
                break
    a = np.asarray(obj, dtype=None if dtype is None else np.dtype(dtype))
    if a.dtype == np.float16:
        a = a.astype(np.float32)
    return from_array(a, chunks)


def from_zarr(path):
    """A lazy array backed by an existing Zarr array (folder path or URI)."""
    return _call("fromZarr", str(path))


def to_zarr(x, path, overwrite=False):
    """Computes ``x`` into a new Zarr array at ``path``."""
    asarray(x).to_zarr(path, overwrite=overwrite)


def _shape(shape):
    return (int(shape),) if isinstance(shape, (int, np.integer)) else tuple(int(s) for s in shape)


def zeros(shape, *, dtype=None, device=None, chunks=None):
    shape = _shape(shape)
    dt = np.dtype(dtype or float64)
    return _call("Xp.zeros", Ints(shape), _dt(dt), _chunks_for(shape, dt, chunks), SPEC)


def ones(shape, *, dtype=None, device=None, chunks=None):
    shape = _shape(shape)
    dt = np.dtype(dtype or float64)
    return _call("Xp.ones", Ints(shape), _dt(dt), _chunks_for(shape, dt, chunks), SPEC)


def empty(shape, *, dtype=None, device=None, chunks=None):
    return zeros(shape, dtype=dtype, chunks=chunks)


def full(shape, fill_value, *, dtype=None, device=None, chunks=None):
    shape = _shape(shape)
    if dtype is None:
        dtype = np.asarray(fill_value).dtype if not isinstance(fill_value, builtins.bool) \
            else np.bool_
        if isinstance(fill_value, int) and not isinstance(fill_value, builtins.bool):
            dtype = np.int64
    dt = np.dtype(dtype)
    return _call("Xp.full", Ints(shape), fill_value, _dt(dt), _chunks_for(shape, dt, chunks),
                 SPEC)


def arange(start, /, stop=None, step=1, *, dtype=None, device=None, chunks=None):
    if stop is None:
        start, stop = 0, start
    if dtype is None:
        dtype = np.int64 if builtins.all(isinstance(v, (int, np.integer)) for v in (start, stop, step)) \
            else np.float64
    n = builtins.max(0, math.ceil((stop - start) / step))
    dt = np.dtype(dtype)
    c = _chunks_for((n,), dt, chunks)
    return _call("Xp.arange", float(start), float(stop), float(step), _dt(dt),
                 int(c[0]) if isinstance(c, Ints) else int(builtins.max(c[0])), SPEC)


def linspace(start, stop, /, num, *, dtype=None, device=None, endpoint=True, chunks=None):
    """Element i is ``start + i * step`` with ``step = (stop - start) / div`` (``div = num - 1``
    with the endpoint, ``num`` without), computed in float64 as NumPy does (the same values, bit
    for bit); with the endpoint the last element is exactly ``stop``."""
    is_complex = builtins.any(isinstance(v, (complex, np.complexfloating)) for v in (start, stop))
    dt = np.dtype(dtype or (complex128 if is_complex else float64))
    c = _chunks_for((int(num),), dt, chunks)

    def bound(v):
        v = v.item() if isinstance(v, np.generic) else v
        return v if isinstance(v, complex) else float(v)

    return _call("Xp.linspace", bound(start), bound(stop), int(num), _dt(dt),
                 "INCLUDE" if endpoint else "EXCLUDE",
                 int(c[0]) if isinstance(c, Ints) else int(builtins.max(c[0])), SPEC)


def eye(n_rows, n_cols=None, /, *, k=0, dtype=None, device=None, chunks=None):
    n_cols = n_rows if n_cols is None else n_cols
    dt = np.dtype(dtype or float64)
    if not -n_rows < k < builtins.max(n_cols, 1):
        k = builtins.max(n_rows, n_cols, 1)  # every diagonal this far out is empty (and k fits)
    return _call("Xp.eye", int(n_rows), int(n_cols), int(k), _dt(dt),
                 _chunks_for((n_rows, n_cols), dt, chunks), SPEC)


def zeros_like(x, /, *, dtype=None, device=None):
    return _call("Xp.zerosLike", x, _dt(dtype)) if dtype else _call("Xp.zerosLike", x)


def ones_like(x, /, *, dtype=None, device=None):
    return _call("Xp.onesLike", x, _dt(dtype)) if dtype else _call("Xp.onesLike", x)


def empty_like(x, /, *, dtype=None, device=None):
    return zeros_like(x, dtype=dtype)


def full_like(x, /, fill_value, *, dtype=None, device=None):
    if dtype:
        return _call("Xp.fullLike", x, fill_value, _dt(dtype))
    return _call("Xp.fullLike", x, fill_value)


def tril(x, /, *, k=0):
    return _call("Xp.tril", x, int(k))


def triu(x, /, *, k=0):
    return _call("Xp.triu", x, int(k))


def meshgrid(*arrays, indexing="xy"):
    return tuple(_call("Xp.meshgrid", indexing.upper(), list(arrays)))


def from_dlpack(x, /, *, device=None, copy=None):
    return asarray(np.from_dlpack(x))


# ---- elementwise ----
_UNARY = ["abs", "acos", "acosh", "asin", "asinh", "atan", "atanh", "bitwise_invert", "ceil",
          "conj", "cos", "cosh", "exp", "expm1", "floor", "imag", "isfinite", "isinf", "isnan",
          "log", "log1p", "log2", "log10", "logical_not", "negative", "positive", "real",
          "reciprocal", "sign", "signbit", "sin", "sinh", "sqrt", "square", "tan", "tanh",
          "trunc"]
_BINARY = ["add", "atan2", "bitwise_and", "bitwise_left_shift", "bitwise_or",
           "bitwise_right_shift", "bitwise_xor", "copysign", "divide", "equal", "floor_divide",
           "greater", "greater_equal", "hypot", "less", "less_equal", "logaddexp", "logical_and",
           "logical_or", "logical_xor", "maximum", "minimum", "multiply", "nextafter",
           "not_equal", "pow", "remainder", "subtract"]


def _camel(name):
    head, *rest = name.split("_")
    return head + "".join(w.capitalize() for w in rest)


def _scalar_or_array(v):
    if isinstance(v, Array) or isinstance(v, (builtins.bool, int, float, complex)):
        return v
    if isinstance(v, np.generic):
        return v.item()
    return asarray(v)


def _make_unary(name):
    jname = "Xp." + _camel(name)

    def f(x, /):
        return _call(jname, _scalar_or_array(x))

    f.__name__ = f.__qualname__ = name
    f.__doc__ = f"Array API ``{name}`` (lazy; ``dev.cubed.Xp.{_camel(name)}``)."
    return f


def _make_binary(name):
    jname = "Xp." + _camel(name)

    def f(x1, x2, /):
        a, b = _scalar_or_array(x1), _scalar_or_array(x2)
        if not isinstance(a, Array) and not isinstance(b, Array):
            a = asarray(a)
        return _call(jname, a, b)

    f.__name__ = f.__qualname__ = name
    f.__doc__ = f"Array API ``{name}`` (lazy; ``dev.cubed.Xp.{_camel(name)}``)."
    return f


for _n in _UNARY:
    globals()[_n] = _make_unary(_n)
for _n in _BINARY:
    globals()[_n] = _make_binary(_n)


def round(x, /, *, decimals=0):  # noqa: A001
    if decimals:
        raise NotImplementedError("round(decimals != 0): the engine rounds to integers only")
    return _call("Xp.round", x)


def clip(x, /, min=None, max=None):  # noqa: A002
    return _call("Xp.clip", x, min, max)


def astype(x, dtype, /, *, copy=True, device=None):
    if not isinstance(x, Array):  # a NumPy array among cubed_java ones (xarray's where does so)
        x = asarray(x)
    if np.dtype(dtype) == x.dtype and not copy:
        return x
    return _call("Xp.astype", x, _dt(dtype))


# ---- manipulation ----
def reshape(x, /, shape, *, copy=None):
    if copy is False:
        raise ValueError("reshape(copy=False): a lazy reshape may need a copy")
    return _call("Xp.reshape", x, Ints(_shape(shape)))


def permute_dims(x, /, axes):
    return _call("Xp.permuteDims", x, Ints(axes))


def matrix_transpose(x, /):
    return _call("Xp.matrixTranspose", x)


def expand_dims(x, /, axis=0):
    if isinstance(axis, tuple):
        n = x.ndim + len(axis)
        if builtins.any(not -n <= a < n for a in axis):
            raise IndexError(f"expand_dims: axis {axis} out of range for a result of {n}"
                             " dimensions")
        norm = [a % n for a in axis]
        if len(set(norm)) != len(norm):
            raise ValueError(f"expand_dims: repeated axis in {axis}")
        for a in sorted(norm):
            x = _call("Xp.expandDims", x, int(a))
        return x
    return _call("Xp.expandDims", x, int(axis))


def squeeze(x, /, axis):
    return _call("Xp.squeeze", x, Ints(_axes(x, axis)))


def broadcast_to(x, /, shape):
    return _call("Xp.broadcastTo", x, Ints(_shape(shape)))


def broadcast_arrays(*arrays):
    return tuple(_call("Xp.broadcastArrays", [asarray(a) for a in arrays]))


def concat(arrays, /, *, axis=0):
    arrays = [asarray(a) for a in arrays]
    if axis is None:
        arrays = [reshape(a, (-1,)) for a in arrays]
        axis = 0
    return _call("Xp.concat", arrays, int(axis))


def stack(arrays, /, *, axis=0):
    return _call("Xp.stack", [asarray(a) for a in arrays], int(axis))


def unstack(x, /, *, axis=0):
    return tuple(_call("Xp.unstack", x, int(axis)))


def flip(x, /, *, axis=None):
    if axis is None:
        return _call("Xp.flip", x)
    return _call("Xp.flip", x, Ints(_axes(x, axis)))


def roll(x, /, shift, *, axis=None):
    if axis is None:
        return _call("Xp.roll", x, int(shift))
    if isinstance(axis, (int, np.integer)):
        return _call("Xp.roll", x, int(shift), int(axis))
    shifts = shift if isinstance(shift, (tuple, list)) else (shift,) * len(axis)
    return _call("Xp.roll", x, Ints(shifts), Ints(axis))


def moveaxis(x, source, destination, /):
    if isinstance(source, (int, np.integer)):
        return _call("Xp.moveaxis", x, int(source), int(destination))
    return _call("Xp.moveaxis", x, Ints(source), Ints(destination))


def tile(x, repetitions, /):
    return _call("Xp.tile", x, Ints(repetitions))


def repeat(x, repeats, /, *, axis=None):
    if isinstance(repeats, Array):
        repeats = tuple(int(r) for r in repeats.compute())
    if isinstance(repeats, (tuple, list)):
        if axis is None:
            x, axis = reshape(x, (-1,)), 0
        return _call("Xp.repeat", x, Ints(repeats), int(axis))
    if axis is None:
        return _call("Xp.repeat", x, int(repeats))
    return _call("Xp.repeat", x, int(repeats), int(axis))


def diff(x, /, *, axis=-1, n=1, prepend=None, append=None):
    if prepend is None and append is None and n == 1 and axis == -1:
        return _call("Xp.diff", x)
    return _call("Xp.diff", x, int(n), int(axis), prepend, append)


# ---- linear algebra in the main namespace ----
def matmul(x1, x2, /):
    return _call("Xp.matmul", asarray(x1), asarray(x2))


def tensordot(x1, x2, /, *, axes=2):
    if isinstance(axes, (int, np.integer)):
        a = tuple(range(x1.ndim - int(axes), x1.ndim))
        b = tuple(range(int(axes)))
    else:
        a, b = axes
        a = (a,) if isinstance(a, int) else a
        b = (b,) if isinstance(b, int) else b
    return _call("Xp.tensordot", x1, x2, Ints(a), Ints(b))


def vecdot(x1, x2, /, *, axis=-1):
    r = _call("Xp.vecdot", x1, x2, int(axis))
    want = result_type(x1, x2)
    # the engine sums small integers in a wider type; the standard keeps the promoted input type
    return r if r.dtype == want else astype(r, want)


# ---- searching, sets, indexing ----
def where(condition, x1, x2, /):
    c = asarray(condition)
    a, b = _scalar_or_array(x1), _scalar_or_array(x2)
    if not isinstance(a, Array) and not isinstance(b, Array):
        a = asarray(a)
    return _call("Xp.where", c, a, b)


def nonzero(x, /):
    # data-dependent: lazy until needed (_deferred.py)
    if x.ndim == 0:
        raise ValueError("nonzero: a 0-d array is not allowed (the standard requires at least 1"
                         " dimension); use expand_dims first")
    return tuple(deferred_call("Xp.nonzero", (x,), (int64,) * x.ndim))


def searchsorted(x1, x2, /, *, side="left", sorter=None):
    if side not in ("left", "right"):
        raise ValueError(f"searchsorted: side must be 'left' or 'right', got {side!r}")
    return _call("Xp.searchsorted", x1, asarray(x2), side,
                 None if sorter is None else asarray(sorter))


def isin(x1, x2, /, *, invert=False):
    """Whether each element of x1 is in x2; either (not both) may be a Python scalar (a scalar
    x1 gives a 0-d result)."""
    a, b = (_big_uint(_scalar_or_array(v)) for v in (x1, x2))
    if not isinstance(a, Array) and not isinstance(b, Array):
        a = asarray(a)
    return _call("Xp.isin", a, b, builtins.bool(invert))


def _big_uint(v):
    # a Python int past int64 (the bridge's scalar range) that fits uint64: a 0-d uint64 array
    if isinstance(v, int) and not isinstance(v, builtins.bool) and 2**63 <= v < 2**64:
        return asarray(np.uint64(v))
    return v


def take(x, indices, /, *, axis=None):
    idx = np.asarray(indices.compute() if isinstance(indices, Array) else indices)
    if axis is None:
        return _call("Xp.take", x, idx)
    return _call("Xp.take", x, idx, int(axis))


def take_along_axis(x, indices, /, *, axis=-1):
    idx = np.asarray(indices.compute() if isinstance(indices, Array) else indices)
    return _call("Xp.takeAlongAxis", x, idx, int(axis))


# ---- data type functions ----
def result_type(*arrays_and_dtypes):
    """The standard's promotion of arrays and dtypes; Python scalars are weak (they take the
    arrays' dtype of their kind), NumPy scalars and arrays count as their dtype (NumPy 2's rule). Scalars alone give NumPy's answer (``nan`` ->
    float64, as xarray's ``where``/``reindex``/``fillna`` ask). A dtype outside the standard's
    (str, object, datetime) is a TypeError, which xarray's promotion expects."""
    args = []
    for a in arrays_and_dtypes:
        if isinstance(a, Array):
            args.append(a)
        elif isinstance(a, (builtins.bool, int, float, complex)) and not isinstance(
                a, np.generic):
            args.append(a)
        else:
            if isinstance(a, (np.generic, np.ndarray)):
                a = a.dtype
            try:
                args.append(_dt(a))
            except (TypeError, ValueError) as e:
                raise TypeError(f"result_type: {a!r} is not an array, Array API dtype or Python"
                                f" scalar ({e})") from None
    if args and not builtins.any(isinstance(a, (Array, Dtype)) for a in args):
        # only Python scalars: the default dtype of the highest kind, as NumPy (NEP 50)
        kinds = [builtins.bool, int, float, complex]
        top = builtins.max(next(i for i, t in enumerate(kinds) if isinstance(a, t))
                           for a in args)
        return (bool, int64, float64, complex128)[top]
    return np.dtype(_bridge.session().call("Xp.resultType", args))


def can_cast(from_, to, /):
    src = from_ if isinstance(from_, Array) else _dt(from_)
    return _bridge.session().call("Xp.canCast", src, _dt(to))


# ---- sorting and sets ----
UniqueAllResult = namedtuple("UniqueAllResult", ["values", "indices", "inverse_indices", "counts"])
UniqueCountsResult = namedtuple("UniqueCountsResult", ["values", "counts"])
UniqueInverseResult = namedtuple("UniqueInverseResult", ["values", "inverse_indices"])


def sort(x, /, *, axis=-1, descending=False, stable=True):
    return _call("Xp.sort", x, int(axis), builtins.bool(descending), builtins.bool(stable))


def argsort(x, /, *, axis=-1, descending=False, stable=True):
    return _call("Xp.argsort", x, int(axis), builtins.bool(descending),
                 builtins.bool(stable))


# The unique_* functions are data-dependent: lazy until a result is needed (_deferred.py).
def unique_all(x, /):
    return UniqueAllResult(*deferred_call("Xp.uniqueAll", (x,), (x.dtype,) + (int64,) * 3))


def unique_counts(x, /):
    return UniqueCountsResult(*deferred_call("Xp.uniqueCounts", (x,), (x.dtype, int64)))


def unique_inverse(x, /):
    return UniqueInverseResult(*deferred_call("Xp.uniqueInverse", (x,), (x.dtype, int64)))


def unique_values(x, /):
    return deferred_call("Xp.uniqueValues", (x,), (x.dtype,))[0]


#: What ``array_api`` takes from here (``from ._core import *``).
__all__ = sorted(n for n in globals() if not n.startswith("_") and n not in (
    "annotations", "builtins", "math", "np", "Array", "SPEC", "Dtype", "Ints", "regular_size",
    "compact_chunks", "list_grid", "namedtuple", "deferred_call"))
