"""Chunk specifications, normalized to a tuple of block sizes per axis (as dask and xarray do)."""
from __future__ import annotations

import math

import numpy as np

#: Target block size for "auto" chunks.
AUTO_BYTES = 64 * 1024 * 1024


def _regular(n, c):
    if n == 0:
        return (0,)
    c = max(1, min(int(c), n))
    full, rest = divmod(n, c)
    return (c,) * full + ((rest,) if rest else ())


def _auto(shape, itemsize, limit, fixed):
    """Block sizes under ``limit`` bytes: axes left whole from the last, leading axes split."""
    sizes = [None if f is None else f for f in fixed]
    budget = max(1, limit // max(1, itemsize))
    for ax in range(len(shape)):
        if sizes[ax] is not None:
            budget = max(1, budget // max(1, sizes[ax]))
    for ax in reversed(range(len(shape))):
        if sizes[ax] is None:
            take = min(shape[ax], budget) if shape[ax] else 0
            sizes[ax] = max(1, take)
            budget = max(1, budget // max(1, sizes[ax]))
    return sizes


def normalize_chunks(chunks, shape, dtype=np.float64, previous=None, limit=None):
    """Block sizes per axis for ``chunks``: an int (every axis), -1 or None (whole axis), "auto",
    a tuple of those per axis, a tuple of explicit block sizes per axis, or a dict axis -> any of
    those (axes not named keep ``previous`` chunks or are whole)."""
    shape = tuple(int(s) for s in shape)
    ndim = len(shape)
    limit = limit or AUTO_BYTES
    itemsize = np.dtype(dtype).itemsize
    if isinstance(chunks, dict):
        per = []
        for ax in range(ndim):
            if ax in chunks:
                per.append(chunks[ax])
            elif ax - ndim in chunks:
                per.append(chunks[ax - ndim])
            elif previous is not None:
                per.append(tuple(previous[ax]))
            else:
                per.append(-1)
    elif chunks is None or chunks == "auto" or isinstance(chunks, (int, np.integer)):
        per = [chunks] * ndim
    else:
        per = list(chunks)
        if len(per) != ndim:
            raise ValueError(f"chunks {chunks!r} has {len(per)} entries for an array of"
                             f" {ndim} dimensions {shape}")
    fixed = []
    for ax, c in enumerate(per):
        if isinstance(c, (tuple, list)):
            if sum(c) != shape[ax]:
                raise ValueError(f"chunks for axis {ax} {tuple(c)} sum to {sum(c)}, not the"
                                 f" axis length {shape[ax]}")
            fixed.append(tuple(int(x) for x in c))
        elif c is None or (isinstance(c, (int, np.integer)) and int(c) == -1):
            fixed.append(shape[ax])
        elif c == "auto":
            fixed.append(None)
        elif isinstance(c, (int, np.integer)):
            if int(c) <= 0:
                raise ValueError(f"chunk size {c} for axis {ax} must be positive (or -1 for"
                                 " the whole axis)")
            fixed.append(int(c))
        else:
            raise ValueError(f"cannot understand chunk size {c!r} for axis {ax}")
    if any(f is None for f in fixed):
        sizes = _auto(shape, itemsize, limit,
                      [f if not isinstance(f, tuple) else max(f) for f in fixed])
        fixed = [f if f is not None else sizes[ax] for ax, f in enumerate(fixed)]
    return tuple(f if isinstance(f, tuple) else _regular(shape[ax], f)
                 for ax, f in enumerate(fixed))


def regular_size(blocks):
    """The block size of a regular axis (all equal but a smaller last), or None."""
    if len(blocks) <= 1:
        return blocks[0] if blocks else 0
    first = blocks[0]
    if all(b == first for b in blocks[:-1]) and blocks[-1] <= first:
        return first
    return None


def ceil_div(a, b):
    return -(-a // b) if b else 0


del math
