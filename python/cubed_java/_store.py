"""The xarray chunk manager's ``store``: every source written into its target in ONE plan.

What xarray's ``to_zarr`` (with or without ``region=``/``append_dim=``) and ``to_netcdf`` hand the
chunk manager: sources (cubed_java arrays), targets (array-likes with ``__setitem__``) and regions
(per target a tuple of step-1 slices, or None for the origin).

- A Zarr array the engine's stores can open (zarr-python 2 or 3 on a local path, or an fsspec URL
  of a store the engine has; one whose store, codecs or layout the engine refuses falls to the
  next case) is written by the engine's own tasks (bridge ``storeRegion``): the
  source is rechunked to the target's chunks, shifted by the region's origin, so that each target
  chunk is written by one task; partial chunks at the region's edges are read, merged and
  rewritten. The target's metadata is left alone, so separate processes may write disjoint regions
  of one array (the ``to_zarr(compute=False)`` template workflow).
- Any other target (a NumPy array, a netCDF variable, a zarr-python in-memory store ...) gets the
  source's values from the same plan: the plan writes them into a private temporary Zarr array,
  which is then read back one block at a time (bridge ``zarrRead``, no plan) and written into the
  target: the client holds one block at a time, never the whole array.

All writes of one ``store`` call are computed together (``cubed_java.compute`` on the small
per-block results of the writes), so what the sources share upstream runs once.
"""
from __future__ import annotations

import itertools
import os
import shutil
import tempfile

import numpy as np

from . import _bridge
from ._array import Array
from ._bridge import Ints

#: dtype kinds the engine writes (bool, integers, floats, complex)
_ENGINE_KINDS = "biufc"
#: fsspec protocols whose URL the engine's stores may open (tried; a refusal falls back)
_URL_PROTOCOLS = ("s3", "s3a", "gs", "gcs", "az", "abfs", "abfss")


def store(sources, targets, regions=None, compute=True, **kwargs):
    """See the module's text. ``compute=False`` returns a delayed write (a ``dask.delayed`` object
    when Dask is installed, as xarray's ``to_zarr(compute=False)`` expects; else an object with
    ``compute()``) and writes nothing until it is computed. ``lock``/``flush`` (Dask's) are
    ignored; other keyword arguments are the options of ``cubed_java.compute`` (executor, workers,
    callbacks, ...), anything else is a TypeError."""
    from ._compute import OPTIONS

    kwargs.pop("lock", None)
    kwargs.pop("flush", None)
    unknown = sorted(set(kwargs) - set(OPTIONS))
    if unknown:
        raise TypeError(f"store: unsupported option(s) {unknown} for cubed-java; supported:"
                        f" lock, flush (ignored), {', '.join(OPTIONS)}")
    if isinstance(sources, Array):  # one source: regions is its region
        sources, targets, regions = [sources], [targets], [regions]
    sources, targets = list(sources), list(targets)
    if len(targets) != len(sources):
        raise ValueError(f"store: {len(targets)} targets for {len(sources)} sources")
    if regions is None:
        regions = [None] * len(sources)
    regions = list(regions)
    if len(regions) != len(sources):
        raise ValueError(f"store: {len(regions)} regions for {len(sources)} sources")
    # every region checked before any write: a wrong one must not leave a half-written target
    origins = [region_origin(r, np.shape(s), i) for i, (s, r) in enumerate(zip(sources, regions))]
    run = _StoreRun(kwargs)
    try:
        for s, t, o in zip(sources, targets, origins):
            run.add(s, t, o)
    except BaseException:
        run.discard()
        raise
    if compute:
        run()
        return None
    try:
        import dask
    except ImportError:
        return run
    return dask.delayed(run, pure=False)()


def region_origin(region, shape, i):
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


def engine_path(target):
    """The path or URL of a zarr-python array the engine can open and write, else None."""
    if not type(target).__module__.startswith("zarr"):
        return None
    sp = getattr(target, "store_path", None)
    if sp is not None:  # zarr-python 3
        st, sub = sp.store, sp.path
        root = _store_root(st)
    else:  # zarr-python 2
        st, sub = getattr(target, "store", None), getattr(target, "path", "")
        root = _store_root(st)
    if root is None:
        return None
    if "://" in root:
        return root.rstrip("/") + ("/" + sub if sub else "")
    path = os.path.join(root, sub) if sub else root
    if os.path.isfile(os.path.join(path, "zarr.json")) or os.path.isfile(
            os.path.join(path, ".zarray")):
        return path
    return None


def _store_root(st):
    name = type(st).__name__
    if name == "LocalStore":  # zarr 3
        return str(st.root)
    if name in ("DirectoryStore", "NestedDirectoryStore"):  # zarr 2
        return str(st.path)
    if name in ("FsspecStore", "FSStore"):
        fs = getattr(st, "fs", None)
        proto = getattr(fs, "protocol", None)
        proto = proto[0] if isinstance(proto, (tuple, list)) else proto
        path = str(getattr(st, "path", "") or "")
        if proto in ("file", "local"):
            return path
        if proto in _URL_PROTOCOLS:
            return f"{proto}://{path.split('://', 1)[-1]}"
    return None


class _StoreRun:
    """The writes of one ``store`` call: lazy write arrays of the engine (run together in one
    compute) and the client targets they fill through temporary Zarr arrays. Calling it (or
    ``compute()``) runs the plan and then copies the client targets, block by block; it runs
    once."""

    def __init__(self, options):
        self.options = dict(options)
        self.writes = []  # lazy write arrays (one int8 element per block written)
        self.copies = []  # (temporary Zarr path, target, origin, shape, chunk shape)
        self.temp = None
        self.done = False

    def add(self, source, target, origin):
        from . import array_api as xp

        if not isinstance(source, Array):
            at = tuple(slice(o, o + n) for o, n in zip(origin, np.shape(source)))
            target[at] = np.asarray(source)
            return
        tshape = tuple(np.shape(target))
        if len(tshape) != source.ndim or any(o + n > t for o, n, t in zip(origin, source.shape,
                                                                        tshape)):
            raise ValueError(f"store: a source of shape {source.shape} at {tuple(origin)} does not"
                             f" fit its target of shape {tshape}")
        if source.size == 0:
            return
        tdtype = getattr(target, "dtype", None)
        tdtype = np.dtype(tdtype) if tdtype is not None else source.dtype
        if tdtype.kind in _ENGINE_KINDS and tdtype != source.dtype:
            source = xp.astype(source, tdtype)
        path = engine_path(target) if tdtype.kind in _ENGINE_KINDS else None
        if path is not None:
            from .errors import JavaError

            try:
                self.writes.append(_write(source, path, origin))
                return
            except JavaError:
                # a store, codec or layout the engine does not write (the region was checked
                # above): the client writes the target instead, from the same plan
                pass
        self._add_copy(source, target, origin)

    def _add_copy(self, source, target, origin):
        if self.temp is None:
            from . import _blocks

            self.temp = tempfile.mkdtemp(prefix="cubed-java-store-")
            _blocks._TEMP_DIRS.append(self.temp)  # removed at exit if never run
        path = os.path.join(self.temp, f"s{len(self.copies)}.zarr")
        chunks = tuple(max(1, int(c)) for c in source.chunksize)
        _bridge.session().call("zarrCreate", path, Ints(source.shape), Ints(chunks),
                               source.dtype)
        self.writes.append(_write(source, path, (0,) * source.ndim))
        self.copies.append((path, target, origin, source.shape, chunks))

    def compute(self, **options):
        return self(**options)

    def __call__(self, **options):
        if self.done:
            return None
        from ._compute import compute

        try:
            if self.writes:
                compute(self.writes, dict(self.options, **options), "store")
            bridge = _bridge.session()
            for path, target, origin, shape, chunks in self.copies:
                for idx in itertools.product(*(range(-(-n // c)) for n, c in zip(shape,
                                                                                    chunks))):
                    start = [i * c for i, c in zip(idx, chunks)]
                    size = [min(c, n - s) for c, n, s in zip(chunks, shape, start)]
                    block = bridge.call("zarrRead", path, Ints(start), Ints(size))
                    target[tuple(slice(o + s, o + s + k) for o, s, k in
                                 zip(origin, start, size))] = block
            self.done = True
        finally:
            self.discard()
        return None

    def discard(self):
        """Removes the temporary Zarr arrays (nothing else)."""
        if self.temp is not None:
            shutil.rmtree(self.temp, ignore_errors=True)
            self.temp = None

    def __repr__(self):
        return (f"cubed_java store: {len(self.writes)} write(s) in one plan"
                f"{' (written)' if self.done else ', not run yet (call compute())'}")


def _write(source, path, origin):
    info = _bridge.session().call("storeRegion", source, path, Ints(origin))
    return Array(info)
