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
from ._blocks import blockwise as _blockwise
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
        """``data`` as a lazy array with ``chunks``. ``kwargs`` (xarray's ``from_array_kwargs``):
        see ``_check_from_array_kwargs``; an unknown key is a TypeError naming the known ones."""
        from . import array_api as xp

        _check_from_array_kwargs(kwargs)

        if isinstance(data, Array):
            return data.rechunk(chunks)
        dtype = getattr(data, "dtype", None)
        if dtype is not None and np.dtype(dtype).kind in _NOT_NUMERIC:
            # strings, objects, dates: the engine has no such dtype; such a variable (a label
            # coordinate, typically) stays in NumPy, as xarray keeps index coordinates
            return np.asarray(data)
        src = _zarr_source(data)
        if src is not None:
            # read by the JVM from the Zarr array itself: nothing crosses the pipe, and the engine
            # sees a stored input (the same plan as cubed_java.from_zarr)
            z = xp.from_zarr(src)
            # compared in the compact form (a regular axis as its block size): never listed
            want = compact_chunks(chunks, z.shape, z.dtype, previous=z._grid)
            have = compact_chunks(z._grid, z.shape, z.dtype)
            if _canonical(want) == _canonical(have):
                return z
            # (groupby) other regular chunks: each block read from the store as its region
            regular = [c if isinstance(c, int) else regular_size(c) for c in want]
            if all(r is not None for r in regular):
                from ._array import _call
                from ._bridge import Ints

                return _call("XpIndexing.readRegions", z, Ints(max(1, r) for r in regular))
            return z.rechunk(want)
        a = np.asarray(data)
        from ._xhooks import remember_values

        # a small 1-D array (a coordinate) keeps its values beside it: idxmax looks them up
        return remember_values(xp.from_array(a, normalize_chunks(chunks, a.shape, a.dtype)), a)

    def rechunk(self, data, chunks, **kwargs):
        return data.rechunk(chunks)

    def compute(self, *data, **kwargs):
        """The values of every cubed_java array among ``data``, in one plan (the rest as they
        are). ``kwargs`` (from ``ds.compute(**kwargs)``/``load``): the options of
        ``cubed_java.compute``; any other is a TypeError naming the supported ones."""
        import cubed_java

        idx = [i for i, d in enumerate(data) if isinstance(d, Array)]
        out = list(data)
        # through the module's attribute, so a test may patch cubed_java.compute
        results = cubed_java.compute(*(data[i] for i in idx), **kwargs) if idx else ()
        for i, r in zip(idx, results):
            out[i] = r
        return tuple(out)

    def persist(self, *data, **kwargs):
        """Computes the arrays in one plan and returns lazy arrays of the results, with the same
        chunks: later computations start from the computed values. The results are kept in the
        engine's memory (as Dask keeps its blocks) when together they take at most a quarter of
        the JVM's heap, else in Zarr arrays of a private temporary folder (removed when Python
        exits). Non-arrays are returned as they are."""
        if kwargs:
            raise TypeError(f"persist: options {sorted(kwargs)} are not supported by cubed-java")
        return _persist(data)

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

    def blockwise(self, func, out_ind, *args, adjust_chunks=None, new_axes=None,
                  align_arrays=True, **kwargs):
        """Dask's blockwise with a Python function: a lazy op whose tasks run in Python worker
        processes (``cubed_java.blockwise``; ``extra_projected_mem=`` is taken from kwargs)."""
        kwargs.pop("concatenate", None)  # contracted axes are always given whole
        kwargs.pop("meta", None)
        return _blockwise(func, out_ind, *args, adjust_chunks=adjust_chunks, new_axes=new_axes,
                          align_arrays=align_arrays, **kwargs)

    def apply_gufunc(self, func, signature, *args, axes=None, keepdims=False, output_dtypes=None,
                     vectorize=None, **kwargs):
        if _dispatches_through_namespace(func):
            # xarray's own wrapper calls the array namespace (nanquantile, moveaxis): called on
            # the lazy arrays it builds the engine's plan, no Python function runs per block
            return func(*args, **{k: v for k, v in kwargs.items()
                                  if k not in ("allow_rechunk", "meta", "output_sizes")})
        # dask-only options: cubed-java always rechunks core dimensions into one block
        kwargs.pop("allow_rechunk", None)
        kwargs.pop("meta", None)
        output_sizes = dict(kwargs.pop("output_sizes", None) or {})
        if axes is not None or keepdims:
            raise NotImplementedError("apply_gufunc(axes/keepdims): not supported by cubed-java")
        ins, outs = _parse_signature(signature)
        if vectorize:
            func = np.vectorize(func, signature=signature)
        if len(outs) > 1:
            # one op per output, each running the function and keeping its part (the function
            # runs once per output and block)
            dtypes = list(output_dtypes) if output_dtypes else [None] * len(outs)
            if len(dtypes) != len(outs):
                raise ValueError(f"apply_gufunc: {len(outs)} outputs in {signature!r} but"
                                 f" {len(dtypes)} output_dtypes")
            return tuple(
                self.apply_gufunc(_OutputPart(func, k), _one_output(ins, outs[k]), *args,
                                  output_dtypes=[dtypes[k]], **dict(kwargs, output_sizes={
                                      d: n for d, n in output_sizes.items() if d in outs[k]}))
                for k in range(len(outs)))
        dtype = output_dtypes[0] if output_dtypes else None
        core = ins[0] if ins else ()
        if all(c == core for c in ins) and outs[0] == core and not output_sizes:
            arrays = list(args)
            ncore = len(core)
            if ncore:
                # core dimensions (the last ones) in one block
                arrays = [a.rechunk({ax: -1 for ax in range(a.ndim - ncore, a.ndim)})
                          if isinstance(a, Array) else a for a in arrays]
            return _map_blocks(func, *arrays, dtype=dtype, **kwargs)
        return _gufunc_blockwise(func, ins, outs[0], args, output_sizes, dtype, kwargs)

    def reduction(self, arr, func, combine_func=None, aggregate_func=None, axis=None, dtype=None,
                  keepdims=False):
        """xarray's ``first``/``last`` (``groupby(...).first()``, ``da.first()`` ...): the first
        (last) non-NaN element along ``axis``, lazily through the namespace (``argmax`` of the
        valid mask, ``take_along_axis``). Other reductions bring a Python function per block,
        which the engine cannot run here: NotImplementedError."""
        kind = _first_or_last(func)
        if kind is None or not isinstance(axis, (int, np.integer)):
            raise NotImplementedError(
                f"reduction({getattr(func, '__qualname__', func)!r}): a reduction with a Python"
                " function per block is not supported by cubed-java (xarray's first/last are)")
        return _nan_first_last(arr, int(axis), kind, keepdims)

    def unify_chunks(self, *args, **kwargs):
        """Dask's unify_chunks: ``args`` alternate arrays and their dimension names (``x, ("t",
        "y"), z, ("y",)``; an argument whose names are None is passed through). Along each name
        the arrays get common chunks, every block boundary of any of them (an axis of length 1
        broadcasts and keeps its one block); arrays whose chunks differ are rechunked. Returns
        ``(chunks per name, arrays)``; NumPy arrays come back as cubed_java arrays."""
        from . import array_api as xp

        if kwargs:
            raise TypeError(f"unify_chunks: options {sorted(kwargs)} are not supported by"
                            " cubed-java")
        if len(args) % 2:
            raise ValueError(f"unify_chunks: arguments come in (array, dimension names) pairs,"
                             f" got {len(args)} arguments")
        pairs = []
        for a, ind in zip(args[::2], args[1::2]):
            if ind is not None:
                a = a if isinstance(a, Array) else xp.asarray(a)
                ind = tuple(ind)
                if len(ind) != a.ndim:
                    raise ValueError(f"unify_chunks: {len(ind)} dimension names {ind} for an"
                                     f" array of {a.ndim} dimensions {a.shape}")
            pairs.append((a, ind))
        lengths, bounds = {}, {}
        for a, ind in pairs:
            for ax, name in enumerate(ind or ()):
                n = a.shape[ax]
                if n == 1:
                    lengths.setdefault(name, 1)
                    continue
                if lengths.get(name, 1) not in (1, n):
                    raise ValueError(f"unify_chunks: dimension {name!r} has length"
                                     f" {lengths[name]} in one array and {n} in another")
                lengths[name] = n
                cuts = bounds.setdefault(name, set())
                cuts.update(int(c) for c in np.cumsum(a.chunks[ax]))
        chunkss = {}
        for name, n in lengths.items():
            cuts = sorted(bounds.get(name, ()))
            chunkss[name] = tuple(int(d) for d in np.diff([0] + cuts)) if cuts else (n,)
        out = []
        for a, ind in pairs:
            if ind is None:
                out.append(a)
                continue
            want = tuple(chunkss[name] if a.shape[ax] == lengths[name] else a.chunks[ax]
                         for ax, name in enumerate(ind))
            out.append(a if want == tuple(a.chunks) else a.rechunk(want))
        return chunkss, out

    # ---- store (to_zarr, to_netcdf): one plan; the code is in _store.py ----
    def store(self, sources, targets, regions=None, compute=True, **kwargs):
        """Writes each source into its target in ONE plan (``cubed_java._store``): Zarr arrays
        the engine opens are written by its tasks, other array-likes block by block from the
        plan's result. ``regions``: per target a tuple of step-1 slices (``to_zarr(region=...)``,
        ``append_dim=``) or None. ``compute=False`` returns a delayed write whose ``compute()``
        writes (what xarray's ``to_zarr(compute=False)`` returns)."""
        from ._store import store

        return store(sources, targets, regions=regions, compute=compute, **kwargs)
    # ---- end store ----


# ---- from_array_kwargs ----
#: The ``from_array_kwargs`` the chunk manager knows: Dask's ``name``, ``lock`` and
#: ``inline_array`` (xarray passes them to every chunk manager; they change nothing here), and
#: Python Cubed's ``spec`` (None or the session spec's description, what
#: ``cubed_java.configure`` returns: arrays are made under the session's spec).
FROM_ARRAY_KWARGS = ("name", "lock", "inline_array", "spec")


def _check_from_array_kwargs(kwargs):
    unknown = sorted(str(k) for k in kwargs if k not in FROM_ARRAY_KWARGS)
    if unknown:
        raise TypeError(f"from_array_kwargs {unknown} are not known to cubed-java (known:"
                        f" {', '.join(FROM_ARRAY_KWARGS)}); set the engine's settings with"
                        " cubed_java.configure(...)")
    spec = kwargs.get("spec")
    if spec is not None and not isinstance(spec, str):
        raise TypeError(f"from_array_kwargs spec={spec!r}: cubed-java arrays use the session's"
                        " spec; set it with cubed_java.configure(...) (pass what it returns, or"
                        " nothing)")
# ---- end from_array_kwargs ----


#: dtype kinds the engine has no counterpart for: strings, bytes, objects, void, dates, durations
_NOT_NUMERIC = "OUSVMm"


PERSIST_MEMORY_BYTES = None
"""The most bytes ``persist`` keeps in the JVM's memory (None: a quarter of its heap); larger
results are stored in Zarr."""


def _persist(data):
    import tempfile

    from . import _blocks
    from . import array_api as xp

    arrays = [d for d in data if isinstance(d, Array)]
    if not arrays:
        return tuple(data)
    held = _bridge.session().call("persistInMemory", arrays, PERSIST_MEMORY_BYTES)
    if held is not None:
        held = iter(Array(h) for h in held)
        return tuple(next(held) if isinstance(d, Array) else d for d in data)
    folder = tempfile.mkdtemp(prefix="cubed-java-persist-")
    _blocks._TEMP_DIRS.append(folder)
    names = [f"a{i}" for i in range(len(arrays))]
    _bridge.session().call("writeDataset", folder + "/p.zarr", names, arrays,
                           [[f"d{k}" for k in range(a.ndim)] for a in arrays], False)
    stored = iter(xp.from_zarr(f"{folder}/p.zarr/{n}") for n in names)
    out = []
    for d in data:
        if isinstance(d, Array):
            s = next(stored)
            out.append(s if _canonical(s._grid) == _canonical(d._grid) else s.rechunk(d._grid))
        else:
            out.append(d)
    return tuple(out)


#: xarray functions handed to apply_gufunc that only call the array's namespace (so they are
#: lazy on cubed_java arrays): (module, qualified name)
_NAMESPACE_FUNCS = {("xarray.core.variable", "Variable.quantile.<locals>._wrapper")}


def _dispatches_through_namespace(func):
    import functools

    while isinstance(func, functools.partial):
        func = func.func
    return (getattr(func, "__module__", None), getattr(func, "__qualname__", None)) in \
        _NAMESPACE_FUNCS


def _first_or_last(func):
    """"first"/"last" when func is xarray's wrapper of nputils.nanfirst/nanlast, else None."""
    import functools

    if not isinstance(func, functools.partial):
        return None
    inner, op = func.func, func.keywords.get("op")
    if (getattr(inner, "__module__", None), getattr(inner, "__qualname__", None)) != (
            "xarray.core.duck_array_ops", "_first_last_wrapper"):
        return None
    if getattr(op, "__module__", None) != "xarray.core.nputils":
        return None
    return {"nanfirst": "first", "nanlast": "last"}.get(getattr(op, "__name__", None))


def _nan_first_last(x, axis, kind, keepdims):
    from . import array_api as xp

    axis = axis % x.ndim
    if kind == "last":
        x = xp.flip(x, axis=axis)
    if x.dtype.kind in "fc":
        valid = xp.astype(xp.logical_not(xp.isnan(x)), xp.int8)
        idx = xp.argmax(valid, axis=axis, keepdims=True)  # the first valid one (0 if none)
        # that element alone (a lazy one-hot select: take_along_axis would compute idx first)
        pos = xp.reshape(xp.arange(x.shape[axis]),
                         tuple(n if a == axis else 1 for a, n in enumerate(x.shape)))
        out = xp.sum(xp.where(pos == idx, x, xp.zeros_like(x)), axis=axis, keepdims=True)
    else:
        out = x[(slice(None),) * axis + (slice(0, 1),)]
    return out if keepdims else xp.squeeze(out, axis=axis)


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


def _register_accessors():
    """``ds.cubed_java`` and ``da.cubed_java``: the engine's view of an xarray object (registered
    when xarray loads this chunk manager)."""
    import xarray as xr

    class _Accessor:
        def __init__(self, obj):
            self._obj = obj

        def _arrays(self):
            obj = self._obj
            datas = ([obj[v].data for v in obj.data_vars] if isinstance(obj, xr.Dataset)
                     else [obj.data])
            return [d for d in datas if isinstance(d, Array)]

        def visualize(self, filename="cubed", format=None):
            """Draws the plan computing the chunked data variables together (nothing is
            computed); see ``cubed_java.visualize``. Returns the path written."""
            import cubed_java

            arrays = self._arrays()
            if not arrays:
                raise ValueError("visualize: no data variable is a cubed_java array (chunk it"
                                 " with chunked_array_type=\"cubed-java\")")
            return cubed_java.visualize(*arrays, filename=filename, format=format)

        def groupby(self, group=None, **kwargs):
            """``obj.groupby(group, **kwargs)`` whose ``sum``/``mean``/``min``/``max``/``count``
            run in the engine in bounded memory (see ``cubed_java.xarray_groupby``)."""
            from .xarray_groupby import GroupedReduce

            return GroupedReduce(self._obj, lambda o: o.groupby(group, **kwargs))

        def resample(self, indexer=None, **kwargs):
            """``obj.resample(indexer, **kwargs)`` with the reductions of ``groupby`` above."""
            from .xarray_groupby import GroupedReduce

            return GroupedReduce(self._obj, lambda o: o.resample(indexer, **kwargs))

    for cls, register in ((xr.Dataset, xr.register_dataset_accessor),
                          (xr.DataArray, xr.register_dataarray_accessor)):
        if not hasattr(cls, "cubed_java"):
            register("cubed_java")(_Accessor)


_register_accessors()


def _install_xarray_hooks():
    """idxmax/idxmin and polyfit lazily (``cubed_java._xhooks``)."""
    from ._xhooks import install

    install()


_install_xarray_hooks()


def _gufunc_blockwise(func, ins, out_core, args, output_sizes, dtype, kwargs):
    """apply_gufunc whose signature changes core dimensions (``(i)->()``, ``(i)->(j)`` with
    ``output_sizes``): one blockwise op; the loop dimensions (the leading ones, broadcast) keep
    their blocks, every core dimension of an input is given whole (rechunked to one block), a core
    dimension only the output has is a new axis of ``output_sizes[name]``."""
    from ._pyfunc import blockwise

    if len(ins) != len(args):
        raise ValueError(f"apply_gufunc: the signature has {len(ins)} inputs, got {len(args)}")
    nloop = max(np.ndim(a) - len(c) for a, c in zip(args, ins))
    loop = tuple(f"__loop{k}" for k in range(nloop))
    in_core = {d for c in ins for d in c}
    new_axes = {}
    for d in out_core:
        if d not in in_core:
            if d not in output_sizes:
                raise ValueError(f"apply_gufunc: the output's core dimension {d!r} is in no"
                                 " input: give its size in output_sizes")
            new_axes[d] = int(output_sizes[d])
    pairs = []
    for a, c in zip(args, ins):
        nl = np.ndim(a) - len(c)
        if nl < 0:
            raise ValueError(f"apply_gufunc: an input of {np.ndim(a)} dimensions for core"
                             f" dimensions {c}")
        if c and isinstance(a, Array):
            a = a.rechunk({ax: -1 for ax in range(nl, a.ndim)})
        pairs += [a, loop[nloop - nl:] + tuple(c)]
    return blockwise(func, loop + tuple(out_core), *pairs, dtype=dtype, new_axes=new_axes,
                     **kwargs)


class _OutputPart:
    """Output ``k`` of a function with several outputs (pickled to Python workers)."""

    def __init__(self, func, k):
        self.func, self.k = func, k

    def __call__(self, *blocks, **kwargs):
        return self.func(*blocks, **kwargs)[self.k]


def _one_output(ins, out):
    return ",".join(f"({','.join(c)})" for c in ins) + f"->({','.join(out)})"


def _install_nan_kernels():
    """xarray's count and NaN-skipping sum as the engine's one-pass kernels
    (``cubed_java._xnan``); before the groupby route, which maps xarray's count function by
    identity."""
    from ._xnan import install

    install()


_install_nan_kernels()


# --- groupby (cubed_java.xarray_groupby): plain ds.groupby(...).mean() etc. take the engine's
# bounded groupby path; the routing lives in that module.
def _route_groupby():
    from ._rolling import route_xarray_rolling
    from .xarray_groupby import route_plain_groupby

    route_plain_groupby()
    route_xarray_rolling()


_route_groupby()
# --- end groupby
