"""xarray chunk manager "cubed-java": variables backed by Cubed for Java's lazy arrays.

    ds = ds.chunk({"time": 10}, chunked_array_type="cubed-java")
    quad = ds ** 2
    quad.mean("time", skipna=False).compute()

Registered under the ``xarray.chunkmanagers`` entry point (see pyproject.toml).
"""
from __future__ import annotations

import re

import numpy as np
from xarray.namedarray.parallelcompat import ChunkManagerEntrypoint

from . import _bridge
from ._array import Array
from ._blocks import map_blocks as _map_blocks
from ._chunks import AUTO_BYTES, compact_chunks, normalize_chunks, regular_size


def _canonical(grid):
    """A compact grid with explicit regular axes as their block size (equal grids compare equal)."""
    return tuple(c if isinstance(c, int) or regular_size(c) is None else regular_size(c)
                 for c in grid)


class CubedJavaChunkManager(ChunkManagerEntrypoint):
    """Chunk manager for :class:`cubed_java.Array`."""

    def __init__(self):
        self.array_cls = Array
        self.available = True

    def is_chunked_array(self, data):
        return isinstance(data, Array)

    def chunks(self, data):
        return data.chunks

    def normalize_chunks(self, chunks, shape=None, limit=None, dtype=None,
                         previous_chunks=None):
        return normalize_chunks(chunks, shape, dtype if dtype is not None else np.float64,
                                previous=previous_chunks, limit=limit)

    def from_array(self, data, chunks, **kwargs):
        from . import array_api as xp

        if isinstance(data, Array):
            return data.rechunk(chunks)
        src = _zarr_source(data)
        if src is not None:
            # read by the JVM from the Zarr array itself: nothing crosses the pipe, and the engine
            # sees a stored input (the same plan as cubed_java.from_zarr)
            z = xp.from_zarr(src)
            # compared in the compact form (a regular axis as its block size): never listed
            want = compact_chunks(chunks, z.shape, z.dtype, previous=z._grid)
            have = compact_chunks(z._grid, z.shape, z.dtype)
            return z if _canonical(want) == _canonical(have) else z.rechunk(want)
        a = np.asarray(data)
        return xp.from_array(a, normalize_chunks(chunks, a.shape, a.dtype))

    def rechunk(self, data, chunks, **kwargs):
        return data.rechunk(chunks)

    def compute(self, *data, **kwargs):
        idx = [i for i, d in enumerate(data) if isinstance(d, Array)]
        out = list(data)
        if idx:
            results = _bridge.session().call("compute", [data[i] for i in idx])
            for i, r in zip(idx, results):
                out[i] = r
        return tuple(out)

    def persist(self, *data, **kwargs):
        # nothing is kept in memory between computes: persisting is computing
        from . import array_api as xp

        return tuple(xp.asarray(d, chunks=d.chunks) if isinstance(d, Array) else d
                     for d in self.compute(*data))

    @property
    def array_api(self):
        from . import array_api

        return array_api

    def get_auto_chunk_size(self):
        return AUTO_BYTES

    def map_blocks(self, func, *args, dtype=None, chunks=None, drop_axis=None, new_axis=None,
                   **kwargs):
        if drop_axis or new_axis:
            raise NotImplementedError("map_blocks(drop_axis/new_axis): cubed_java's map_blocks"
                                      " keeps the number of dimensions")
        return _map_blocks(func, *args, dtype=dtype, chunks=chunks, **kwargs)

    def apply_gufunc(self, func, signature, *args, axes=None, keepdims=False, output_dtypes=None,
                     vectorize=None, **kwargs):
        # dask-only options: cubed-java always rechunks core dimensions into one block
        kwargs.pop("allow_rechunk", None)
        kwargs.pop("meta", None)
        if kwargs.pop("output_sizes", None):
            raise NotImplementedError("apply_gufunc(output_sizes=...): new output dimensions are"
                                      " not supported by cubed-java")
        if axes is not None or keepdims:
            raise NotImplementedError("apply_gufunc(axes/keepdims): not supported by cubed-java")
        ins, outs = _parse_signature(signature)
        if len(outs) != 1:
            raise NotImplementedError(f"apply_gufunc: {len(outs)} outputs in {signature!r};"
                                      " cubed-java supports one")
        core = ins[0] if ins else ()
        if any(c != core for c in ins) or outs[0] != core:
            raise NotImplementedError(
                f"apply_gufunc: signature {signature!r} changes core dimensions; cubed-java"
                " supports functions whose inputs and output share their core dimensions")
        if vectorize:
            func = np.vectorize(func, signature=signature)
        arrays = list(args)
        ncore = len(core)
        if ncore:
            # core dimensions (the last ones) in one block
            arrays = [a.rechunk({ax: -1 for ax in range(a.ndim - ncore, a.ndim)})
                      if isinstance(a, Array) else a for a in arrays]
        dtype = output_dtypes[0] if output_dtypes else None
        return _map_blocks(func, *arrays, dtype=dtype, **kwargs)

    def store(self, sources, targets, regions=None, compute=True, **kwargs):
        """Writes each source into its target (a writable array-like: zarr-python, NumPy), block
        by block, each block computed in bounded memory. ``regions`` (what xarray passes for
        ``to_zarr(region=...)`` and ``append_dim=``): per target, a tuple of step-1 slices, one
        per dimension, where the source goes; None writes from the target's origin. A region that
        does not match the source's shape, or has a step, is refused before anything is written.
        """
        import itertools

        if not compute:
            raise NotImplementedError(
                "store(compute=False) / to_zarr(compute=False): cubed-java writes when asked;"
                " call to_zarr without compute=False")
        kwargs.pop("lock", None)
        kwargs.pop("flush", None)
        if kwargs:
            raise NotImplementedError(f"store: options {sorted(kwargs)} are not supported by"
                                      " cubed-java")
        if isinstance(sources, Array):  # one source: regions is its region
            sources, targets, regions = [sources], [targets], [regions]
        if regions is None:
            regions = [None] * len(sources)
        if len(regions) != len(sources):
            raise ValueError(f"store: {len(regions)} regions for {len(sources)} sources")
        # every region checked before any write: a wrong one must not leave a half-written target
        origins = [_region_origin(r, s.shape, i) for i, (s, r) in enumerate(zip(sources, regions))]
        for s, t, origin in zip(sources, targets, origins):
            starts = [np.concatenate([[0], np.cumsum(c)[:-1]]).astype(int) for c in s.chunks]
            for idx in itertools.product(*(range(len(c)) for c in s.chunks)):
                sl = tuple(slice(int(starts[d][i]), int(starts[d][i]) + s.chunks[d][i])
                           for d, i in enumerate(idx))
                at = tuple(slice(o + q.start, o + q.stop) for o, q in zip(origin, sl))
                t[at] = s[sl].compute()
        return None


def _region_origin(region, shape, i):
    """Where a source of ``shape`` starts in its target, from xarray's region (a tuple of slices,
    one per dimension, or None for the origin)."""
    if region is None:
        return (0,) * len(shape)
    region = tuple(region)
    if len(region) != len(shape):
        raise ValueError(f"store: region {region!r} of source {i} has {len(region)} dimensions,"
                         f" the source has {len(shape)} (shape {tuple(shape)})")
    origin = []
    for d, (r, n) in enumerate(zip(region, shape)):
        if not isinstance(r, slice) or r.step not in (None, 1):
            raise ValueError(f"store: region {region!r} of source {i}: dimension {d} must be a"
                             " slice with step 1")
        start = 0 if r.start is None else int(r.start)
        if start < 0 or (r.stop is not None and int(r.stop) - start != n):
            raise ValueError(f"store: region {region!r} of source {i}: dimension {d} spans"
                             f" {r.start}..{r.stop} but the source has {n} elements there")
        origin.append(start)
    return tuple(origin)


_CORE = re.compile(r"\(([^()]*)\)")


def _zarr_source(data):
    """The folder of the local Zarr array behind ``data`` when it is xarray's lazy wrapper of a
    whole zarr-python array (what ``xr.open_zarr`` hands to ``from_array``), else None."""
    import os

    for _ in range(16):
        name = type(data).__name__
        if name == "ZarrArrayWrapper":
            break
        key = getattr(data, "key", None)
        if key is not None:
            for k in getattr(key, "tuple", (None,)):
                if not (isinstance(k, slice) and k.step in (None, 1) and k.start in (None, 0)):
                    return None  # (the stop is checked by the shapes below)
        if not hasattr(data, "array"):
            return None
        shape = getattr(data, "shape", None)
        data = data.array
        if shape is not None and getattr(data, "shape", shape) != shape:
            return None  # a part of the array
    else:
        return None
    z = getattr(data, "_array", None)
    sp = getattr(z, "store_path", None)  # zarr-python 3
    root = getattr(getattr(sp, "store", None), "root", None)
    if root is None or type(sp.store).__name__ != "LocalStore":
        return None
    path = os.path.join(str(root), sp.path)
    if os.path.isfile(os.path.join(path, "zarr.json")) or os.path.isfile(
            os.path.join(path, ".zarray")):
        return path
    return None


def _parse_signature(sig):
    left, right = sig.replace(" ", "").split("->")

    def parse(side):
        return [tuple(d for d in grp.split(",") if d) for grp in _CORE.findall(side)]

    return parse(left), parse(right)
