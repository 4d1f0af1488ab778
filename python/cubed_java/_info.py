"""Data type functions and the inspection namespace of cubed_java.array_api (nothing here calls
the JVM: dtypes are NumPy's)."""
from __future__ import annotations

import builtins

import numpy as np

from ._array import Array

#: The standard's 13 dtypes.
DTYPES = tuple(np.dtype(n) for n in (
    "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float32",
    "float64", "complex64", "complex128"))


class _FInfo:
    """finfo's result (plain Python numbers, as the standard asks)."""

    def __init__(self, d):
        f = np.finfo(d)
        self.bits = int(f.bits)
        self.eps = float(f.eps)
        self.max = float(f.max)
        self.min = float(f.min)
        self.smallest_normal = float(f.smallest_normal)
        self.dtype = np.dtype(f.dtype)

    def __repr__(self):
        return f"finfo(bits={self.bits}, eps={self.eps}, max={self.max}, dtype={self.dtype})"


class _IInfo:
    """iinfo's result (plain Python ints)."""

    def __init__(self, d):
        i = np.iinfo(d)
        self.bits = int(i.bits)
        self.max = int(i.max)
        self.min = int(i.min)
        self.dtype = np.dtype(i.dtype)

    def __repr__(self):
        return f"iinfo(bits={self.bits}, min={self.min}, max={self.max}, dtype={self.dtype})"


def finfo(type, /):  # noqa: A002
    return _FInfo(type.dtype if isinstance(type, Array) else type)


def iinfo(type, /):  # noqa: A002
    return _IInfo(type.dtype if isinstance(type, Array) else type)


def broadcast_shapes(*shapes):
    """The shape the given shapes broadcast to (the standard's rules; nothing computed)."""
    ndim = builtins.max((len(s) for s in shapes), default=0)
    out = []
    for i in range(-ndim, 0):
        n = 1
        for s in shapes:
            if len(s) >= -i:
                m = s[i]
                if m != 1 and n != 1 and m != n:
                    raise ValueError(f"broadcast_shapes: shapes {shapes} do not broadcast"
                                     f" (axis {i}: {n} and {m})")
                if m != 1:
                    n = m
        out.append(n)
    return tuple(out)


_KINDS = {
    "bool": lambda d: d.kind == "b",
    "signed integer": lambda d: d.kind == "i",
    "unsigned integer": lambda d: d.kind == "u",
    "integral": lambda d: d.kind in "iu",
    "real floating": lambda d: d.kind == "f",
    "complex floating": lambda d: d.kind == "c",
    "numeric": lambda d: d.kind in "iufc",
}


def isdtype(dtype, kind):
    dtype = np.dtype(dtype)
    if isinstance(kind, tuple):
        return builtins.any(isdtype(dtype, k) for k in kind)
    if isinstance(kind, str):
        if kind not in _KINDS:
            raise ValueError(f"isdtype: unknown kind {kind!r} (one of {sorted(_KINDS)})")
        return _KINDS[kind](dtype)
    return dtype == np.dtype(kind)


class _Info:
    """``__array_namespace_info__()``."""

    def capabilities(self):
        return {"boolean indexing": True, "data-dependent shapes": True,
                "max dimensions": None}

    def default_device(self):
        return "cpu"

    def devices(self):
        return ("cpu",)

    def default_dtypes(self, *, device=None):
        return {"real floating": np.dtype(np.float64), "complex floating":
                np.dtype(np.complex128), "integral": np.dtype(np.int64),
                "indexing": np.dtype(np.int64)}

    def dtypes(self, *, device=None, kind=None):
        ds = {("bool" if d == np.bool_ else d.name): d for d in DTYPES}
        if kind is None:
            return ds
        return {k: d for k, d in ds.items() if isdtype(d, kind)}
