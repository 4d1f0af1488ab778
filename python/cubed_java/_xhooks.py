"""Hooks into xarray's internals where xarray handles Dask arrays by name and not through the
chunk manager, so that the same operations stay lazy on cubed_java arrays:

- ``idxmax``/``idxmin``: xarray indexes the (in-memory) coordinate, made a one-block chunked array,
  with the lazy ``argmax`` result (vectorized indexing; Dask's indexing adapter has a special case
  for it). Here: a Python block function looks every index up in the coordinate's values (kept
  beside the small array ``from_array`` made of it), one task per block of the index. A datetime
  or timedelta coordinate is refused (the engine has no such dtype): NotImplementedError.
- ``polyfit``: xarray computes ``any(isnull)`` eagerly and calls NumPy's least squares on
  anything but Dask arrays. Here, as with Dask: NaN-skipping unless ``skipna=False``, and the fit
  is one Python block function per block of the other dimensions (the fitted dimension whole),
  running xarray's own NumPy least squares on the block.
- ``chunk`` without ``chunked_array_type`` (``Dataset.chunk``, and through it ``DataArray.chunk``
  and ``DataTree.chunk``; ``Variable.chunk``): xarray takes its default chunk manager (Dask when
  Dask is installed), not the one of the data, so ``lazy.chunk({"x": 6})`` wrapped each
  cubed_java array in a Dask array (and ``persist``, ``quantile`` ... then ran through Dask).
  Here: an object whose chunked data are all cubed_java arrays is rechunked by "cubed-java"; an
  explicit ``chunked_array_type`` and objects with no (or other) chunked data are left to xarray.

Installed once when the chunk manager is imported; a hook whose xarray function is missing (an
xarray of another layout) is left out.
"""
from __future__ import annotations

import numpy as np

from ._array import Array

#: Coordinates of at most this many bytes keep their values beside the array from_array makes.
HOST_VALUES_MAX_BYTES = 8 << 20


def remember_values(array, values):
    """Keeps the NumPy ``values`` of a small 1-D ``array`` made by from_array (for idxmax)."""
    if values.ndim == 1 and values.nbytes <= HOST_VALUES_MAX_BYTES:
        array._host_values = np.array(values, copy=True)
    return array


class _Lookup:
    """A block of indices -> the coordinate values at them (pickled to the Python workers)."""

    def __init__(self, values):
        self.values = values

    def __call__(self, block):
        return self.values[np.asarray(block)]


class _LeastSquares:
    """A block (fitted axis first, whole) -> coefficients and residuals stacked on axis 0."""

    def __init__(self, lhs, rcond, skipna):
        self.lhs, self.rcond, self.skipna = lhs, rcond, skipna

    def __call__(self, block):
        from xarray.core import nputils

        coeffs, residuals = nputils.least_squares(self.lhs, np.asarray(block), rcond=self.rcond,
                                                  skipna=self.skipna)
        out = np.concatenate([np.asarray(coeffs, np.float64),
                              np.asarray(residuals, np.float64)[np.newaxis]])
        return out


def _vindex_lookup(coord, values, indexer):
    """coord[indexer] for a 1-D coordinate and one cubed_java integer index array, lazily."""
    from ._pyfunc import map_blocks

    (idx,) = indexer.tuple
    if values.dtype.kind in "mM":
        raise NotImplementedError(
            "idxmax/idxmin over a datetime or timedelta coordinate: the engine has no such dtype;"
            " use argmax/argmin (lazy) and index the coordinate with the computed result, or give"
            " the dimension a numeric coordinate")
    if values.dtype.kind not in "biuf":
        raise NotImplementedError(f"idxmax/idxmin over a coordinate of dtype {values.dtype}: the"
                                  " engine has no such dtype")
    return map_blocks(_Lookup(values), idx, dtype=values.dtype)


def least_squares(lhs, rhs, rcond=None, skipna=False):
    """xarray's least squares for a cubed_java ``rhs`` (fitted axis first): lazy coefficients
    ``(k, ...)`` and residuals ``(...)``."""
    from ._pyfunc import map_blocks

    k = lhs.shape[1]
    rhs = rhs.rechunk({0: -1})
    chunks = ((k + 1,),) + tuple(rhs.chunks[1:])
    out = map_blocks(_LeastSquares(np.asarray(lhs), rcond, skipna), rhs, dtype=np.float64,
                     chunks=chunks)
    return out[:-1], out[-1]


def _chunked_data(obj):
    """The data of ``obj``'s variables (a Variable: its own) that a chunk manager handles: the
    arrays with ``chunks`` (Dask's, cubed_java's, ...; not NumPy arrays nor xarray's lazy backend
    wrappers)."""
    variables = [obj] if not hasattr(obj, "variables") else obj.variables.values()
    datas = (getattr(v, "_data", None) for v in variables)
    return [d for d in datas if hasattr(d, "chunks") and hasattr(d, "shape")
            and not isinstance(d, np.ndarray)]


def keeps_cubed_java(chunk):
    """``chunk`` (the unbound ``Dataset.chunk``/``Variable.chunk``) choosing "cubed-java" when
    no ``chunked_array_type`` is given and every chunked array of the object is a cubed_java
    array (see the module's docstring)."""
    import functools
    import inspect

    # chunked_array_type's place among the positional arguments after self
    pos = list(inspect.signature(chunk).parameters).index("chunked_array_type") - 1

    @functools.wraps(chunk)
    def wrapper(self, *args, **kwargs):
        positional = len(args) > pos
        given = args[pos] if positional else kwargs.get("chunked_array_type")
        if given is None:
            data = _chunked_data(self)
            if data and all(isinstance(d, Array) for d in data):
                if positional:
                    args = args[:pos] + ("cubed-java",) + args[pos + 1:]
                else:
                    kwargs["chunked_array_type"] = "cubed-java"
        return chunk(self, *args, **kwargs)

    wrapper._cubed_java = True
    return wrapper


def _install_chunk():
    import xarray as xr

    for cls in (xr.Dataset, xr.Variable):
        method = cls.__dict__.get("chunk")
        if method is None or getattr(method, "_cubed_java", False):
            continue
        try:
            cls.chunk = keeps_cubed_java(method)
        except ValueError:  # an xarray whose chunk has no chunked_array_type: left as it is
            continue


def install():
    """Installs the hooks (idempotent)."""
    try:
        from xarray.core import indexing
    except ImportError:
        return
    _install_chunk()
    adapter = getattr(indexing, "ArrayApiIndexingAdapter", None)
    if adapter is not None and not getattr(adapter._vindex_get, "_cubed_java", False):
        original = adapter._vindex_get

        def _vindex_get(self, indexer):
            values = getattr(self.array, "_host_values", None) if isinstance(
                self.array, Array) else None
            if (values is not None and len(indexer.tuple) == 1
                    and isinstance(indexer.tuple[0], Array)
                    and indexer.tuple[0].dtype.kind in "iu"):
                return _vindex_lookup(self.array, values, indexer)
            return original(self, indexer)

        _vindex_get._cubed_java = True
        adapter._vindex_get = _vindex_get
    numpy_adapter = getattr(indexing, "NumpyIndexingAdapter", None)
    if numpy_adapter is not None and not getattr(numpy_adapter._vindex_get, "_cubed_java",
                                                 False):
        original_np = numpy_adapter._vindex_get

        def _np_vindex_get(self, indexer):
            if (self.array.ndim == 1 and len(indexer.tuple) == 1
                    and isinstance(indexer.tuple[0], Array)
                    and indexer.tuple[0].dtype.kind in "iu"):
                return _vindex_lookup(self.array, self.array, indexer)
            return original_np(self, indexer)

        _np_vindex_get._cubed_java = True
        numpy_adapter._vindex_get = _np_vindex_get
    try:
        from xarray.computation import fit
    except ImportError:
        return
    if hasattr(fit, "least_squares") and not getattr(fit.least_squares, "_cubed_java", False):
        np_least_squares = fit.least_squares
        is_dask = fit.is_duck_dask_array

        def _least_squares(lhs, rhs, rcond=None, skipna=False):
            if isinstance(rhs, Array):
                return least_squares(lhs, rhs, rcond=rcond, skipna=skipna)
            return np_least_squares(lhs, rhs, rcond=rcond, skipna=skipna)

        def _is_dask_or_cubed_java(x):
            # polyfit's only use: Dask's (lazy) NaN handling, not an eager any(isnull)
            return isinstance(x, Array) or is_dask(x)

        _least_squares._cubed_java = True
        fit.least_squares = _least_squares
        fit.is_duck_dask_array = _is_dask_or_cubed_java
