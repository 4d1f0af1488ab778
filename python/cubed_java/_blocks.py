"""map_blocks with a Python function.

The JVM cannot run Python, so map_blocks runs eagerly here: for each block of the output it
computes the matching blocks of the inputs through the bridge, calls the function on them (NumPy
in, NumPy out) and writes the result into a new Zarr array (in a temporary folder, removed at exit)
through the JVM; the result is a lazy array reading that Zarr array. Memory: one block of each
input and one output block at a time on the Python side.
"""
from __future__ import annotations

import atexit
import itertools
import shutil
import tempfile

import numpy as np

from . import _bridge
from ._array import Array
from ._chunks import regular_size

_TEMP_DIRS = []


def _cleanup():
    for d in _TEMP_DIRS:
        shutil.rmtree(d, ignore_errors=True)


atexit.register(_cleanup)


def map_blocks(func, *args, dtype=None, chunks=None, **kwargs):
    """Applies ``func`` to the corresponding blocks of the array arguments (same chunks; arguments
    that are not arrays are passed to every call as they are) and returns a lazy array of the
    results. ``func`` must return a block of the input block's shape (``chunks`` may name other
    block sizes, one per input block). Runs now, block by block (see the module's doc)."""
    from . import array_api as xp

    arrays = [a for a in args if isinstance(a, Array)]
    if not arrays:
        raise ValueError("map_blocks: at least one argument must be a cubed_java Array")
    first = arrays[0]
    for a in arrays[1:]:
        if a.shape != first.shape:
            raise ValueError(f"map_blocks: array shapes differ ({first.shape} and {a.shape});"
                             " broadcast them first")
    grid = tuple(tuple(c) for c in first.chunks)
    if any(regular_size(c) is None for c in grid):
        # Zarr needs regular chunks
        first = first.rechunk(tuple(max(c) for c in grid))
        grid = first.chunks
    args = [a if not isinstance(a, Array) or a.chunks == grid else a.rechunk(grid) for a in args]
    out_grid = grid if chunks is None else tuple(tuple(c) for c in chunks)
    if len(out_grid) != len(grid) or any(len(o) != len(g) for o, g in zip(out_grid, grid)):
        raise ValueError(f"map_blocks: chunks {chunks} must have one size per input block"
                         f" ({[len(g) for g in grid]} blocks)")
    out_shape = tuple(sum(c) for c in out_grid)
    starts = [np.concatenate([[0], np.cumsum(c)[:-1]]).astype(int) for c in grid]
    out_starts = [np.concatenate([[0], np.cumsum(c)[:-1]]).astype(int) for c in out_grid]
    bridge = _bridge.session()
    tmp = tempfile.mkdtemp(prefix="cubed-java-map-blocks-")
    _TEMP_DIRS.append(tmp)
    path = tmp + "/out.zarr"
    created = False
    for idx in itertools.product(*(range(len(c)) for c in grid)):
        sl = tuple(slice(int(starts[d][i]), int(starts[d][i]) + grid[d][i])
                   for d, i in enumerate(idx))
        lazy = [a[sl] if isinstance(a, Array) else None for a in args]
        blocks = iter(bridge.call("compute", [b for b in lazy if b is not None]))
        call_args = [next(blocks) if b is not None else a for a, b in zip(args, lazy)]
        out = np.asarray(func(*call_args, **kwargs))
        expect = tuple(out_grid[d][i] for d, i in enumerate(idx))
        if out.shape != expect:
            raise ValueError(f"map_blocks: {getattr(func, '__name__', func)} returned a block of"
                             f" shape {out.shape} for block {idx}; expected {expect} (pass"
                             " chunks= for other block sizes)")
        if dtype is not None:
            out = out.astype(dtype, copy=False)
        if not created:
            xp._dt(out.dtype)  # refuses dtypes the engine lacks, with their names
            bridge.call("zarrCreate", path, _bridge.Ints(out_shape),
                        _bridge.Ints(max(1, max(c)) for c in out_grid), out.dtype)
            created = True
        bridge.call("zarrWrite", path,
                    _bridge.Ints(int(out_starts[d][i]) for d, i in enumerate(idx)), out)
    if not created:
        raise ValueError("map_blocks: the arrays have no blocks")
    return xp.from_zarr(path)
