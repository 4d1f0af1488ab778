"""Chunk specifications, normalized to a tuple of block sizes per axis (as dask and xarray do)."""
from __future__ import annotations

import math
import re

import numpy as np

#: Target block size for "auto" chunks.
AUTO_BYTES = 64 * 1024 * 1024


def _auto(shape, itemsize, limit, fixed):
    """Block sizes of the "auto" axes (``None`` in ``fixed``; the others are block sizes) under
    ``limit`` bytes per block, by Dask's rule (without previous chunks): the auto axes share the
    budget equally, a side of ``(limit / itemsize / other blocks) ** (1 / auto axes)``; an axis
    shorter than that side is kept whole and the rest share what it leaves."""
    sizes = list(fixed)
    autos = [ax for ax, f in enumerate(sizes) if f is None]
    while autos:
        others = math.prod(f for f in sizes if f is not None)
        side = (limit / max(1, itemsize) / max(1, others)) ** (1 / len(autos))
        small = [ax for ax in autos if shape[ax] < side]
        for ax in small:
            sizes[ax] = max(1, shape[ax])
        if not small:
            for ax in autos:
                sizes[ax] = max(1, min(int(side), shape[ax]))
            break
        autos = [ax for ax in autos if ax not in small]
    return sizes


_UNITS = {"": 1, "b": 1, "k": 10**3, "kb": 10**3, "m": 10**6, "mb": 10**6, "g": 10**9,
          "gb": 10**9, "t": 10**12, "tb": 10**12, "p": 10**15, "pb": 10**15,
          "kib": 2**10, "mib": 2**20, "gib": 2**30, "tib": 2**40, "pib": 2**50}
_BYTES = re.compile(r"^\s*([0-9]*\.?[0-9]+(?:[eE][+-]?[0-9]+)?)\s*([a-zA-Z]*)\s*$")


def parse_bytes(text):
    """A byte count from a size string as Dask writes them: "16B", "1KiB", "100MB", "1.5 GB",
    "5e6" (decimal units k/M/G/T/P = 10^3..., binary KiB/MiB/... = 2^10...). ValueError else."""
    m = _BYTES.match(str(text))
    unit = m.group(2).lower() if m else None
    if m is None or unit not in _UNITS:
        raise ValueError(f"cannot understand chunk size {text!r}: an int, -1, None, \"auto\" or"
                         " a byte size such as \"16B\", \"1KiB\", \"100MB\"")
    n = int(float(m.group(1)) * _UNITS[unit])
    if n < 1:
        raise ValueError(f"chunk size {text!r} is less than one byte")
    return n


def normalize_chunks(chunks, shape, dtype=np.float64, previous=None, limit=None):
    """Block sizes per axis for ``chunks`` (Dask's form, a tuple of block sizes per axis): an int
    (every axis), -1 or None (whole axis), "auto", a byte size ("16B", "1KiB", "100MB": "auto"
    with that limit per block, as in Dask), a tuple of those per axis, a tuple of explicit
    block sizes per axis, or a dict axis -> any of those (axes not named keep ``previous`` chunks
    or are whole). "auto" axes get blocks of at most ``limit`` bytes (default AUTO_BYTES) with
    the other axes' block sizes as given, by Dask's rule (see _auto: near-square blocks, short
    axes whole). Refuses (ValueError) a listing of more than MAX_LISTED_BLOCKS blocks."""
    shape = tuple(int(s) for s in shape)
    grid = compact_chunks(chunks, shape, dtype, previous, limit)
    return tuple(c if isinstance(c, tuple) else _regular(shape[ax], c, ax)
                 for ax, c in enumerate(grid))


def compact_chunks(chunks, shape, dtype=np.float64, previous=None, limit=None):
    """``chunks`` as normalize_chunks reads it, without listing regular axes: per axis an int
    (a regular axis: that block size, the last block smaller) or a tuple of block sizes (an
    explicit list, kept as given). ``previous`` may be in either form."""
    shape = tuple(int(s) for s in shape)
    ndim = len(shape)
    itemsize = np.dtype(dtype).itemsize
    if isinstance(chunks, dict):
        per = []
        for ax in range(ndim):
            if ax in chunks:
                per.append(chunks[ax])
            elif ax - ndim in chunks:
                per.append(chunks[ax - ndim])
            elif previous is not None:
                prev = previous[ax]
                per.append(int(prev) if isinstance(prev, (int, np.integer)) else tuple(prev))
            else:
                per.append(-1)
    elif chunks is None or isinstance(chunks, (str, int, np.integer)):
        per = [chunks] * ndim
    else:
        per = list(chunks)
        if len(per) != ndim:
            raise ValueError(f"chunks {chunks!r} has {len(per)} entries for an array of"
                             f" {ndim} dimensions {shape}")
    # a byte size stands for "auto" with that limit per block (one limit for all axes, as Dask)
    for ax, c in enumerate(per):
        if isinstance(c, str) and c != "auto":
            parsed = parse_bytes(c)
            if limit is not None and parsed != limit:
                raise ValueError(f"chunks {chunks!r}: byte sizes {limit} and {parsed} (axis"
                                 f" {ax}) differ; give one byte limit per block")
            limit = parsed
            per[ax] = "auto"
    limit = limit or AUTO_BYTES
    fixed = []
    for ax, c in enumerate(per):
        if isinstance(c, (tuple, list)):
            if sum(c) != shape[ax]:
                raise ValueError(f"chunks for axis {ax} {tuple(c)} sum to {sum(c)}, not the"
                                 f" axis length {shape[ax]}")
            fixed.append(tuple(int(x) for x in c))
        elif c is None or (isinstance(c, (int, np.integer)) and int(c) == -1):
            fixed.append(max(1, shape[ax]))
        elif c == "auto":
            fixed.append(None)
        elif isinstance(c, (int, np.integer)) and int(c) == 0 and shape[ax] == 0:
            fixed.append(1)  # a zero-length axis: one empty block, as Dask normalizes it
        elif isinstance(c, (int, np.integer)):
            if int(c) <= 0:
                raise ValueError(f"chunk size {c} for axis {ax} must be positive (or -1 for"
                                 " the whole axis)")
            fixed.append(max(1, min(int(c), shape[ax])))
        else:
            raise ValueError(f"cannot understand chunk size {c!r} for axis {ax}")
    if any(f is None for f in fixed):
        sizes = _auto(shape, itemsize, limit,
                      [f if not isinstance(f, tuple) else max(f, default=1) for f in fixed])
        fixed = [f if f is not None else sizes[ax] for ax, f in enumerate(fixed)]
    return tuple(fixed)


#: The most blocks ``.chunks`` (or normalize_chunks) lists, over all axes: 10^7 block sizes are
#: 80 MB of tuple; more would take minutes and gigabytes for a listing nobody reads whole.
MAX_LISTED_BLOCKS = 10_000_000


def num_blocks(n, c):
    """Blocks of a regular axis of length ``n`` in blocks of ``c``."""
    return 0 if n == 0 else -(-n // c)


def _regular(n, c, ax=0):
    """A regular axis listed in Dask's form (a zero-length axis is one empty block)."""
    if n == 0:
        return (0,)
    _check_listing(n, c, ax, num_blocks(n, c))
    full, rest = divmod(n, c)
    return (c,) * full + ((rest,) if rest else ())


def _check_listing(n, c, ax, count):
    if count > MAX_LISTED_BLOCKS:
        raise ValueError(
            f"chunks would list {count:,} blocks along axis {ax} (length {n:,} in blocks of"
            f" {c:,}), more than {MAX_LISTED_BLOCKS:,}: use .chunksize and .numblocks (which"
            f" do not list blocks), or rechunk to larger blocks")


def list_grid(grid, shape):
    """The Dask-form chunks of a compact grid from the JVM (a regular axis of length 0 has no
    blocks, as the engine counts them). Refuses listings of more than MAX_LISTED_BLOCKS."""
    out = []
    for ax, (c, n) in enumerate(zip(grid, shape)):
        if isinstance(c, tuple):
            out.append(c)
        elif n == 0:
            out.append(())
        else:
            c = min(c, n)
            _check_listing(n, c, ax, num_blocks(n, c))
            full, rest = divmod(n, c)
            out.append((c,) * full + ((rest,) if rest else ()))
    return tuple(out)


def grid_chunksize(grid, shape):
    """The largest block per axis of a compact grid (0 for an axis without blocks)."""
    return tuple((max(c) if c else 0) if isinstance(c, tuple) else min(c, n)
                 for c, n in zip(grid, shape))


def grid_numblocks(grid, shape):
    """The number of blocks per axis of a compact grid."""
    return tuple(len(c) if isinstance(c, tuple) else num_blocks(n, c)
                 for c, n in zip(grid, shape))


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

