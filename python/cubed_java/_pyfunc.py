"""Python functions as lazy ops of the plan: ``blockwise`` and ``map_blocks``.

The function travels as cloudpickle bytes inside the op (bridge call ``pyBlockwise``); nothing runs
when the op is made. When the plan is computed, each task runs the function on its input blocks in
a Python worker process (``cubed_java._worker``, this interpreter with this ``sys.path``) started
by the JVM that runs the task, and the output block is written to the op's Zarr intermediate like
any JVM op's (docs/python.md, "Python functions as tasks").
"""
from __future__ import annotations

import functools
import os
import sys

import numpy as np

from . import _bridge
from . import _core as xp
from ._array import Array, _wrap
from ._chunks import parse_bytes, regular_size

#: What a Python worker itself takes (interpreter, NumPy, cloudpickle and the modules a function
#: imports), counted in every Python task's projected memory; CUBED_JAVA_PY_WORKER_OVERHEAD
#: (bytes, or "200MB") overrides it. Measured: docs/python.md.
DEFAULT_WORKER_OVERHEAD = 100 * 2**20


def worker_overhead():
    v = os.environ.get("CUBED_JAVA_PY_WORKER_OVERHEAD")
    return DEFAULT_WORKER_OVERHEAD if not v else parse_bytes(v)


def _label(func):
    while isinstance(func, functools.partial):
        func = func.func
    return getattr(func, "__name__", type(func).__name__)


def _regular_chunksize(a, axis):
    blocks = a.chunks[axis]
    size = regular_size(blocks)
    return size if size is not None else max(blocks)


def _is_grid(blocks, n, c):
    """True if ``blocks`` are ``n`` elements in blocks of ``c`` (a smaller last one)."""
    return sum(blocks) == n and all(b == c for b in blocks[:-1]) and blocks[-1] <= c


def blockwise(func, out_ind, *args, dtype=None, adjust_chunks=None, new_axes=None,
              align_arrays=True, extra_projected_mem=0, **kwargs):
    """Dask's and Cubed's ``blockwise``: ``args`` alternate values and their index (a tuple of
    labels for an array, None for a value passed to every call as it is). Each output block is
    ``func`` of the matching blocks of the arrays; a label of an input missing from ``out_ind`` is
    contracted: that axis is given whole (rechunked to one block; Dask's ``concatenate=True``).
    ``new_axes`` (label: size) adds output axes of one block; ``adjust_chunks`` (label: int, or a
    function of a block size) changes the output's block size along a label (the grid must stay
    regular). ``extra_projected_mem``: bytes the function allocates beyond its input and output
    blocks (counted in the task's projected memory). Lazy: the function runs in Python worker
    processes when the result is computed."""
    if not callable(func):
        raise TypeError(f"blockwise: func must be callable, got {type(func).__name__}")
    if len(args) % 2:
        raise ValueError("blockwise: arguments come in (value, index) pairs")
    out_ind = tuple(out_ind)
    new_axes = dict(new_axes or {})
    pairs = []
    for v, ind in zip(args[::2], args[1::2]):
        if ind is None:
            pairs.append((v, None))
            continue
        ind = tuple(ind)
        if not isinstance(v, Array):
            v = xp.asarray(np.asarray(v))
        if len(ind) != v.ndim:
            raise ValueError(f"blockwise: index {ind} for an array of {v.ndim} dimensions")
        pairs.append((v, ind))
    arrays = [(v, ind) for v, ind in pairs if ind is not None]
    if not arrays:
        raise ValueError("blockwise: at least one argument must be an array with an index")
    # size and block size per label (an axis of length 1 broadcasts)
    sizes, chunk = {}, {}
    for v, ind in arrays:
        for ax, lab in enumerate(ind):
            n = v.shape[ax]
            if sizes.get(lab, 1) not in (1, n) and n != 1:
                raise ValueError(f"blockwise: label {lab!r} has lengths {sizes[lab]} and {n}")
            if sizes.get(lab, 1) == 1:
                sizes[lab] = n
            if lab in out_ind and n != 1 and lab not in chunk:
                chunk[lab] = _regular_chunksize(v, ax)
    # align: every array's axes in the chosen blocks (contracted axes whole)
    aligned = []
    for v, ind in pairs:
        if ind is None:
            aligned.append((v, None))
            continue
        want = {}
        for ax, lab in enumerate(ind):
            n = v.shape[ax]
            if n == 1:
                continue
            target = chunk[lab] if lab in out_ind else n
            if _is_grid(v.chunks[ax], n, target):
                continue
            if not align_arrays and lab in out_ind:
                raise ValueError(f"blockwise: align_arrays=False and axis {ax} of an input has"
                                 f" blocks {v.chunks[ax]}, not blocks of {target}")
            want[ax] = -1 if target >= n else target
        if want:
            v = v.rechunk(tuple(want.get(ax, v.chunksize[ax]) for ax in range(v.ndim)))
        aligned.append((v, ind))
    out_shape, out_chunks = [], []
    for lab in out_ind:
        if lab in new_axes:
            out_shape.append(int(new_axes[lab]))
            out_chunks.append(max(1, int(new_axes[lab])))
            continue
        if lab not in sizes:
            raise ValueError(f"blockwise: output label {lab!r} is in no input; give its size in"
                             " new_axes")
        n, c = sizes[lab], chunk.get(lab, max(1, sizes[lab]))
        nb = max(1, -(-n // c))
        adj = (adjust_chunks or {}).get(lab)
        if adj is not None:
            blocks = [min(c, n - i * c) for i in range(nb)]
            if isinstance(adj, (tuple, list)):
                new = [int(b) for b in adj]
            else:
                new = [int(adj(b)) if callable(adj) else int(adj) for b in blocks]
            if len(new) != nb or (nb > 1 and (len(set(new[:-1])) > 1 or new[-1] > new[0])):
                raise NotImplementedError(f"blockwise: adjust_chunks gives blocks {new} along"
                                          f" {lab!r}; cubed-java needs a regular grid with {nb}"
                                          " blocks")
            n, c = sum(new), max(1, new[0])
        out_shape.append(n)
        out_chunks.append(c)
    if dtype is None:
        dtype = _infer_dtype(func, aligned, kwargs)
    dtype = np.dtype(dtype)
    xp._dt(dtype)  # refuses dtypes the engine lacks, with their names
    template, places, handles, axes = [], [], [], []
    for v, ind in aligned:
        if ind is None:
            template.append(v)
            continue
        places.append(len(template))
        template.append(None)
        handles.append(v)
        axes.append(_bridge.Ints(out_ind.index(lab) if lab in out_ind else -1 for lab in ind))
    import cloudpickle

    payload = cloudpickle.dumps((func, template, places, kwargs))
    return _wrap(_bridge.session().call(
        "pyBlockwise", np.frombuffer(payload, dtype=np.uint8), sys.executable,
        [p for p in sys.path if isinstance(p, str)], handles, axes, _bridge.Ints(out_shape),
        _bridge.Ints(out_chunks), dtype, int(extra_projected_mem), int(worker_overhead()),
        _label(func)))


def _infer_dtype(func, pairs, kwargs):
    """Dask's way: the function on empty blocks of the inputs' dtypes (nothing is computed)."""
    call = [np.empty((0,) * v.ndim, dtype=v.dtype) if ind is not None else v for v, ind in pairs]
    try:
        return np.asarray(func(*call, **kwargs)).dtype
    except Exception as e:
        raise TypeError(f"{_label(func)}: cannot infer the output dtype (the function raised"
                        f" {type(e).__name__}: {e} on empty blocks): pass dtype=") from None


def map_blocks(func, *args, dtype=None, chunks=None, extra_projected_mem=0, **kwargs):
    """Applies ``func`` to the corresponding blocks of the array arguments (aligned and broadcast
    as in Dask: trailing axes match; arguments that are not arrays are passed to every call as
    they are) and returns a lazy array of the results, with the first array's chunks or
    ``chunks`` (one size per block, a regular grid). ``extra_projected_mem``: bytes ``func``
    allocates beyond its input and output blocks. Lazy: ``func`` runs in Python worker processes
    when the result is computed (docs/python.md)."""
    arrays = [a for a in args if isinstance(a, Array)]
    if not arrays:
        raise ValueError("map_blocks: at least one argument must be a cubed_java Array")
    ndim = max(a.ndim for a in arrays)
    out_ind = tuple(range(ndim))
    first = max(arrays, key=lambda a: a.ndim)
    pairs = []
    for a in args:
        pairs += [a, tuple(range(ndim - a.ndim, ndim))] if isinstance(a, Array) else [a, None]
    adjust = None
    if chunks is not None:
        grid = tuple(tuple(c) if isinstance(c, (tuple, list)) else (c,) for c in chunks)
        if len(grid) != ndim:
            raise ValueError(f"map_blocks: chunks {chunks} must have one entry per dimension")
        adjust = {}
        for d, c in enumerate(grid):
            nb = len(first.chunks[d])
            if len(c) == 1 and nb > 1:
                c = c * nb
            if len(c) != nb:
                raise ValueError(f"map_blocks: chunks {chunks} must have one size per input block"
                                 f" ({[len(b) for b in first.chunks]} blocks)")
            adjust[d] = tuple(c)
    return blockwise(func, out_ind, *pairs, dtype=dtype, adjust_chunks=adjust,
                     extra_projected_mem=extra_projected_mem, **kwargs)
