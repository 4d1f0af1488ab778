"""Operations between a cubed_java array and another kind of array (``a + b``, ``a == b`` with
``b`` a Dask array, ...).

A NumPy array becomes an input of the plan (``asarray``). A Dask array of at most
``DASK_INPUT_MAX_BYTES`` is computed by Dask when the operation is built and becomes an input with
the Dask array's chunks (a bounded, eager read of the other array, as xarray's ``chunk()`` reads a
lazily indexed backend array); a larger one is refused. Any other array-like (an object with
``shape`` and ``dtype``, or ``__array__``) is refused too: the refusal is a TypeError naming both
types and what to do, never Python's fallback to an identity comparison for ``==``.
"""
from __future__ import annotations

import numpy as np

from ._chunks import normalize_chunks

#: The largest Dask array an operation with a cubed_java array computes into its plan (bytes).
DASK_INPUT_MAX_BYTES = 256 << 20


def is_dask(x):
    return type(x).__module__.startswith("dask.") and hasattr(x, "__dask_graph__")


#: Containers whose own (reflected) operators handle a cubed_java operand: left to them.
_CONTAINERS = ("xarray.", "pandas.")


def is_array_like(x):
    """An array of another kind (not a container that handles cubed_java arrays itself)."""
    if type(x).__module__.startswith(_CONTAINERS):
        return False
    return (hasattr(x, "shape") and hasattr(x, "dtype")) or hasattr(x, "__array__")


def as_input(other, op, xp):
    """``other`` as an operand of ``op`` with a cubed_java array: a cubed_java array made by
    namespace ``xp`` (from NumPy or a small Dask array), or a TypeError (see the module's text)."""
    if isinstance(other, np.ndarray):
        return xp.asarray(other)
    if is_dask(other):
        nbytes = int(np.prod(other.shape, dtype=np.int64)) * np.dtype(other.dtype).itemsize
        if nbytes > DASK_INPUT_MAX_BYTES:
            raise TypeError(
                f"{op}: between a cubed_java.Array and a dask Array of {nbytes} bytes (more than"
                f" cubed_java._mixed.DASK_INPUT_MAX_BYTES = {DASK_INPUT_MAX_BYTES}): make both"
                " arrays one kind (xarray: .chunk(chunked_array_type=\"cubed-java\") on the Dask"
                " one, or cubed_java.from_zarr of its stored copy)")
        values = np.asarray(other.compute())
        return xp.from_array(values, normalize_chunks(other.chunks, values.shape, values.dtype))
    raise TypeError(
        f"{op}: unsupported between a cubed_java.Array and a {type(other).__module__}."
        f"{type(other).__qualname__}; convert the other array (numpy.asarray, or"
        " cubed_java.asarray) first")
