#!/usr/bin/env python3
"""Golden vectors for Statistics, Searching and Utility (dev.cubed.nd.reduce), computed by NumPy.

Writes cubed-core/src/test/resources/golden/statistics/{cases.json, arrays.npz}: each case names
the function, its arguments and the keys of its input and expected output arrays. Cases where
NumPy raises are recorded with "error": true (the Java side must throw IllegalArgumentException).
"""
import gzip
import json
import os
import warnings

import numpy as np

OUT = os.path.join(os.path.dirname(__file__), "..", "..", "cubed-core", "src", "test",
                   "resources", "golden", "statistics")
DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
          "float32", "float64", "complex64", "complex128"]
SHAPES = [(), (0,), (5,), (3, 4), (2, 3, 4), (0, 3)]
rng = np.random.default_rng(42)


def make(dtype, shape, edge):
    n = int(np.prod(shape))
    dt = np.dtype(dtype)
    if dt == np.bool_:
        return (rng.random(n) < 0.6).reshape(shape)
    if dt.kind in "iu":
        info = np.iinfo(dt)
        lo, hi = (max(info.min, -50), min(info.max, 50))
        v = rng.integers(lo, hi + 1, n, dtype=np.int64).astype(dt)
        if edge and n >= 3:
            v[0] = info.max
            v[1] = info.min
            v[2] = info.max
        return v.reshape(shape)
    if dt.kind == "f":
        v = (rng.standard_normal(n) * 10).astype(dt)
        if edge and n >= 4:
            v[1] = np.nan
            v[2] = np.inf
            v[3] = -0.0
        return v.reshape(shape)
    v = (rng.standard_normal(n) * 10 + 1j * rng.standard_normal(n) * 10).astype(dt)
    if edge and n >= 2:
        v[1] = complex(np.nan, 1)
    return v.reshape(shape)


FULL = {"bool", "int32", "uint64", "float64", "complex128"}


def axes_options(nd, dtype):
    """Every axis form for a few dtypes; the others get axis=None and axis=0 (same code paths)."""
    opts = [None]
    if nd >= 1:
        opts += [0]
    if nd >= 2 and dtype in FULL:
        opts += [-1]
    if nd >= 3 and dtype in FULL:
        opts += [(0, 2), (1, 2)]
    return opts


cases = []
arrays = {}
keep_alive = []


input_keys = {}


def add(fn, inputs, args, compute):
    k = len(cases)
    case = {"fn": fn, "args": args, "inputs": []}
    for x in inputs:
        key = input_keys.get(id(x))
        if key is None:
            key = f"in{len(input_keys)}"
            input_keys[id(x)] = key
            keep_alive.append(x)
            arrays[key] = x
        case["inputs"].append(key)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            out = compute()
    except (ValueError, TypeError) as e:
        case["error"] = True
        cases.append(case)
        return
    outs = out if isinstance(out, tuple) else (out,)
    case["outputs"] = []
    for j, o in enumerate(outs):
        key = f"c{k}_out{j}"
        arrays[key] = np.asarray(o)
        case["outputs"].append(key)
    cases.append(case)


def ax_arg(a):
    return None if a is None else ([a] if isinstance(a, int) else list(a))


for dtype in DTYPES:
    kind = np.dtype(dtype).kind
    for shape in SHAPES:
        for edge in (False, True):
            if edge and shape not in ((5,), (3, 4)):
                continue
            x = make(dtype, shape, edge)
            for axis in axes_options(len(shape), dtype):
                for keep in (False, True):
                    if keep and (axis not in (None, 0) or shape != (3, 4)):
                        continue
                    a = dict(axes=ax_arg(axis), keepdims=keep)
                    if kind != "b":
                        add("sum", [x], a, lambda: np.sum(x, axis=axis, keepdims=keep))
                        add("prod", [x], a, lambda: np.prod(x, axis=axis, keepdims=keep))
                        add("mean", [x], a, lambda: np.mean(x, axis=axis, keepdims=keep))
                        add("var", [x], dict(a, correction=0),
                            lambda: np.var(x, axis=axis, keepdims=keep))
                        add("std", [x], dict(a, correction=1),
                            lambda: np.std(x, axis=axis, keepdims=keep, ddof=1))
                    if kind != "c":
                        add("min", [x], a, lambda: np.min(x, axis=axis, keepdims=keep))
                        add("max", [x], a, lambda: np.max(x, axis=axis, keepdims=keep))
                    add("all", [x], a, lambda: np.all(x, axis=axis, keepdims=keep))
                    add("any", [x], a, lambda: np.any(x, axis=axis, keepdims=keep))
                    add("count_nonzero", [x], a,
                        lambda: np.asarray(np.count_nonzero(x, axis=axis, keepdims=keep),
                                           dtype=np.int64))
                    if kind != "c" and (axis is None or isinstance(axis, int)):
                        add("argmin", [x], dict(axis=axis, keepdims=keep),
                            lambda: np.argmin(x, axis=axis, keepdims=keep).astype(np.int64))
                        add("argmax", [x], dict(axis=axis, keepdims=keep),
                            lambda: np.argmax(x, axis=axis, keepdims=keep).astype(np.int64))
            if len(shape) >= 1 and kind != "b":
                for axis in sorted({0, len(shape) - 1}):
                    for init in (False, True):
                        add("cumulative_sum", [x], dict(axis=axis, include_initial=init),
                            lambda: np.cumulative_sum(x, axis=axis, include_initial=init))
                        add("cumulative_prod", [x], dict(axis=axis, include_initial=init),
                            lambda: np.cumulative_prod(x, axis=axis, include_initial=init))
            if len(shape) >= 1:
                add("nonzero", [x], {}, lambda: tuple(i.astype(np.int64) for i in np.nonzero(x)))
                add("diff", [x], dict(n=1, axis=-1), lambda: np.diff(x, n=1, axis=-1))
                if shape[-1] >= 3:
                    add("diff", [x], dict(n=2, axis=-1), lambda: np.diff(x, n=2, axis=-1))
            cond = make("bool", shape, False)
            y = make(dtype, shape, False)
            add("where", [cond, x, y], {}, lambda: np.where(cond, x, y))
    if kind not in "bc":
        s = np.sort(make(dtype, (9,), False))
        if kind == "f":
            s = np.sort(np.concatenate([s, np.array([np.nan, s[3]], dtype=dtype)]))
        v = make(dtype, (2, 3), False)
        v.flat[0] = s[3]
        for side in ("left", "right"):
            add("searchsorted", [s, v], dict(side=side),
                lambda: np.searchsorted(s, v, side=side).astype(np.int64))

os.makedirs(OUT, exist_ok=True)
np.savez_compressed(os.path.join(OUT, "arrays.npz"), **arrays)
with gzip.open(os.path.join(OUT, "cases.json.gz"), "wt") as f:
    json.dump({"numpy": np.__version__, "cases": cases}, f)
print(len(cases), "cases")
