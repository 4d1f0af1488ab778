"""The lazy array object: a handle to a CubedArray living in the JVM.

``Array`` sits above the bridge and below the namespaces (docs/python.md, "The package's layers").
Its operators, ``T``, ``astype``, item assignment, NumPy ufuncs and ``__array_namespace__`` are
the namespace's functions: the namespace module is bound to ``Array`` by ``bind_namespace``, which
the package's ``__init__`` calls with ``cubed_java.array_api`` (any import of the package runs it
before an array can exist), so this module imports no namespace.
"""
from __future__ import annotations

import builtins
import operator
import pickle

import numpy as np

from . import _bridge, _compute, _deferred, _mixed
from ._bridge import IndexSpec, Ints
from ._chunks import compact_chunks, grid_chunksize, grid_numblocks, list_grid, regular_size
from .errors import JavaError

#: The Array API namespace of ``Array`` (``cubed_java.array_api``), bound by ``bind_namespace``.
_namespace = None


def bind_namespace(module):
    """Makes ``module`` the namespace of every ``Array`` (``__array_namespace__``) and the one its
    operators and methods call (``x + y`` is ``module.add(x, y)``)."""
    global _namespace
    _namespace = module


def _xp():
    if _namespace is None:
        raise RuntimeError("cubed_java.Array has no namespace bound: import cubed_java (its"
                           " __init__ binds cubed_java.array_api)")
    return _namespace


#: The version of the pickled form made by ``Array.__reduce__``.
_PICKLE_FORMAT = 1


def _unpickle(fmt, data, meta):
    """An array from ``Array.__reduce__``'s bytes, in this process's JVM."""
    if fmt != _PICKLE_FORMAT:
        raise ValueError(f"cubed_java: this pickled array has format {fmt!r}; this version of"
                         f" cubed_java reads format {_PICKLE_FORMAT}")
    bridge = _bridge.session()
    info = bridge.call("deserialize", np.frombuffer(data, dtype=np.uint8))
    a = Array(info, bridge)
    if a.shape != tuple(meta["shape"]) or a.dtype != np.dtype(meta["dtype"]):
        raise ValueError(f"cubed_java: the unpickled plan gives shape {a.shape} and dtype"
                         f" {a.dtype}, the pickle says {tuple(meta['shape'])} and"
                         f" {meta['dtype']}: the pickle is damaged")
    return a


class Array(_bridge.Handle):
    """A lazy chunked array computed by Cubed for Java. Operations build new lazy arrays in the
    JVM; ``compute()`` (or ``numpy.asarray``) runs the plan and returns a NumPy array."""

    __array_priority__ = 20  # numpy defers to our reflected operators

    def __init__(self, info, bridge=None):
        self._bridge = bridge or _bridge.session()
        self._handle = info.handle
        self.dtype = info.dtype
        self.shape = info.shape
        # per axis a regular block size (int) or the block sizes (tuple), as the JVM sent them:
        # a regular grid is never listed unless .chunks is read
        self._grid = info.chunks

    def __del__(self):
        if "_handle" not in self.__dict__:
            return  # a data-dependent result whose call has not run (_deferred.py)
        try:
            self._bridge.release(self._handle)
        except Exception:
            pass

    def __getattr__(self, name):
        # only for attributes not set: a data-dependent result's handle, shape and grid are set
        # when its deferred call runs (_deferred.py)
        if _deferred.fill(self, name):
            return getattr(self, name)
        raise AttributeError(f"'Array' object has no attribute {name!r}")

    # ---- attributes ----
    @property
    def name(self):
        """A name for this array ("array-<n>", unique in this process unless set), which xarray
        uses as a DataArray's default name, as Dask's and Python Cubed's array names."""
        n = self.__dict__.get("_name")
        return f"array-{self._handle:03d}" if n is None else n

    @name.setter
    def name(self, value):
        self._name = value

    @property
    def ndim(self):
        return len(self.shape)

    @property
    def size(self):
        return int(np.prod(self.shape, dtype=np.int64))

    @property
    def nbytes(self):
        return self.size * self.dtype.itemsize

    @property
    def chunks(self):
        """Dask's form: per axis the size of every block. Listed when read (a regular axis is held
        as its block size); refused with a ValueError when it would list more than
        ``MAX_LISTED_BLOCKS`` blocks (use ``chunksize`` and ``numblocks`` then)."""
        return list_grid(self._grid, self.shape)

    @property
    def chunksize(self):
        return grid_chunksize(self._grid, self.shape)

    @property
    def numblocks(self):
        return grid_numblocks(self._grid, self.shape)

    @property
    def device(self):
        return "cpu"

    @property
    def T(self):
        if self.ndim != 2:
            raise ValueError(f"x.T needs a 2-D array, this one is {self.ndim}-D; use"
                             f" permute_dims or mT")
        return _xp().permute_dims(self, (1, 0))

    @property
    def mT(self):
        return _xp().matrix_transpose(self)

    def to_device(self, device, /, *, stream=None):
        if device != "cpu":
            raise ValueError(f"cubed_java arrays live on device 'cpu', not {device!r}")
        return self

    def __array_namespace__(self, *, api_version=None):
        if api_version not in (None, "2021.12", "2022.12", "2023.12", "2024.12", "2025.12"):
            raise ValueError(f"unsupported Array API version {api_version!r}")
        return _xp()

    # ---- computing ----
    def compute(self, **options):
        """Runs the plan and returns the values as a NumPy array. Options (executor, workers,
        attempts, executor_options, resume, callbacks): see ``cubed_java.compute``."""
        if not options and not _compute.GLOBAL_CALLBACKS:
            (out,) = self._bridge.call("compute", [self])
            return out

        (out,) = _compute.compute([self], options, "Array.compute")
        return out

    def to_numpy(self):
        return self.compute()

    def __array__(self, dtype=None, copy=None):
        a = self.compute()
        return a if dtype is None else a.astype(dtype)

    def rechunk(self, chunks):
        grid = compact_chunks(chunks, self.shape, self.dtype, previous=self._grid)
        regular = [c if isinstance(c, int) else regular_size(c) for c in grid]
        if all(r is not None for r in regular):
            return _call("Xp.rechunk", self, Ints(max(1, r) for r in regular))
        return _call("Xp.rechunk", self, [Ints(c) for c in list_grid(grid, self.shape)])

    def take(self, indices, axis=None, out=None, mode=None):
        """NumPy's ``ndarray.take``, which ``np.take(x, ...)`` calls (xarray's ``first``/``last``
        with ``skipna=False``): lazy for an integer or a 1-D list/array of integers along an
        axis (``x[..., indices, ...]``); other forms compute and use NumPy."""
        idx = np.asarray(indices)
        if (out is None and mode in (None, "raise") and axis is not None
                and idx.dtype.kind in "iu" and idx.ndim <= 1):
            ax = int(axis) % self.ndim if self.ndim else 0
            key = int(idx) if idx.ndim == 0 else idx
            return self[(slice(None),) * ax + (key,)]
        return np.take(np.asarray(self), indices, axis=axis, out=out, mode=mode or "raise")

    def astype(self, dtype, copy=True):
        return _xp().astype(self, dtype, copy=copy)

    def to_zarr(self, path, overwrite=False):
        """Computes the array into a new Zarr array at path (a folder or URI)."""
        self._bridge.call("toZarr", self, str(path), bool(overwrite))

    # ---- python protocols ----
    def __repr__(self):
        if "_window" in self.__dict__ and _deferred.pending(self):
            return (f"cubed_java.Array<shape={self.shape}, dtype={self.dtype}, a window view"
                    " (_rolling.py)>")
        if _deferred.pending(self):
            return (f"cubed_java.Array<shape=(unknown until computed: data-dependent), dtype="
                    f"{self.dtype}>")
        return (f"cubed_java.Array<shape={self.shape}, dtype={self.dtype}, chunksize="
                f"{self.chunksize}>")

    def __copy__(self):
        """A new wrapper of the same lazy array (its own handle: ``__setitem__`` on one does not
        change the other). Nothing is computed or copied in the JVM."""
        return Array(self._bridge.call("info", self), self._bridge)

    def __deepcopy__(self, memo):
        # the JVM's lazy arrays are immutable: a deep copy is a new wrapper, as __copy__
        return self.__copy__()

    def __reduce__(self):
        """Pickling (``pickle``, ``cloudpickle``, xarray objects holding this array): by plan,
        not by data. The bytes are the JVM's serialization of the array's op graph and spec (an
        input read from Zarr is referenced by its store; ``from_array`` data is part of the
        graph) with the shape, dtype and chunks; nothing is computed. Unpickling, in this
        process or another one (which starts its own JVM), gives an array computing the same
        values. A plan holding a Java value that cannot be serialized raises
        ``pickle.PicklingError`` naming it."""
        try:
            data = self._bridge.call("serialize", self)
        except JavaError as e:
            raise pickle.PicklingError(f"cannot pickle a cubed_java.Array: {e}") from None
        meta = {"shape": self.shape, "dtype": self.dtype.str, "chunks": self._grid}
        return _unpickle, (_PICKLE_FORMAT, data.tobytes(), meta)

    def _repr_inline_(self, max_width):
        """xarray's one-line summary of a variable's data (Dataset reprs): the kind of array and
        its block size, from metadata only (nothing is computed)."""
        text = f"cubed_java.Array<chunksize={self.chunksize}>"
        return text if len(text) <= max_width else text[:max(0, max_width - 3)] + "..."

    def __len__(self):
        if not self.shape:
            raise TypeError("len() of a 0-d array")
        return self.shape[0]

    def __iter__(self):
        if not self.shape:
            raise TypeError("iteration over a 0-d array")
        for i in range(self.shape[0]):
            yield self[i]

    def _scalar(self, kind):
        if self.size != 1:
            raise TypeError(f"{kind}() needs an array of one element, this one has shape"
                            f" {self.shape}")
        return self.compute().reshape(())[()]

    def __bool__(self):
        return bool(self._scalar("bool"))

    def __int__(self):
        return int(self._scalar("int"))

    def __float__(self):
        return float(self._scalar("float"))

    def __complex__(self):
        return complex(self._scalar("complex"))

    def __index__(self):
        if self.dtype.kind not in "iu":
            raise TypeError(f"__index__ needs an integer array, not {self.dtype}")
        return int(self._scalar("index"))

    def __dlpack__(self, *, stream=None, max_version=None, dl_device=None, copy=None):
        """Computes the array and exports the NumPy result (a lazy array has no memory)."""
        kwargs = {k: v for k, v in (("stream", stream), ("max_version", max_version),
                                    ("dl_device", dl_device), ("copy", copy)) if v is not None}
        return self.compute().__dlpack__(**kwargs)

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        """NumPy ufuncs on cubed_java arrays (``np.sqrt(x)``; xarray's ``np.sqrt(da)``, as in
        ``weighted(...).std()``): a plain call of a ufunc the namespace has (``np.arctan2`` as
        ``atan2``, ...) is that lazy function. Anything else (``out=``, ``dtype=``, ``reduce``,
        ``accumulate``, a ufunc the namespace lacks) computes the arrays and runs NumPy's ufunc,
        as NumPy converted them before this method existed."""
        if method == "__call__" and ufunc.nout == 1 and ufunc.nin == len(inputs) and (
                set(kwargs) <= {"out"} and kwargs.get("out") is None):
            f = getattr(_xp(), _UFUNC_NAMES.get(ufunc.__name__, ufunc.__name__), None)
            if callable(f):
                return f(*inputs)
        arrays = [i.compute() if isinstance(i, Array) else i for i in inputs]
        return getattr(ufunc, method)(*arrays, **kwargs)

    def __dlpack_device__(self):
        return (1, 0)

    def __setitem__(self, key, value):
        """``x[key] = value``: this wrapper then refers to a new lazy array, ``where(mask of key,
        value placed by key, x)`` (the engine's arrays are immutable: arrays built from x before
        keep the old values). Keys: one boolean array of x's shape, or ints, slices and ``...``;
        the value is a scalar or an array broadcastable to ``x[key].shape``."""
        xp = _xp()
        if not isinstance(key, tuple):
            key = (key,)
        if isinstance(value, np.ndarray):
            value = xp.asarray(value)
        if len(key) == 1 and isinstance(key[0], Array) and key[0].dtype == np.bool_:
            if isinstance(value, Array) and value.ndim:
                raise NotImplementedError("__setitem__: with a boolean mask, the value must be a"
                                          " scalar or a 0-d array")
            mask, placed = key[0], value
        else:
            mask, placed = self._basic_mask_and_value(xp, key, value)
            if mask is None:
                return  # nothing selected
        new = xp.where(mask, xp.astype(placed, self.dtype) if isinstance(placed, Array)
                       else placed, self)
        if new.dtype != self.dtype:
            new = xp.astype(new, self.dtype)
        # swap states: this wrapper takes the new handle, `new` frees the old one when collected
        for f in ("_handle", "shape", "_grid"):
            a, b = getattr(self, f), getattr(new, f)
            setattr(self, f, b)
            setattr(new, f, a)

    def _get_mask(self, mask):
        """``x[mask]``, lazy: the counting pass runs when the result is first needed
        (_deferred.py); a mask of a shape the engine refuses is an IndexError now."""
        k = mask.ndim
        if not (k == 0 or (k <= self.ndim and mask.shape == self.shape[:k])):
            raise IndexError(f"mask indexing: mask shape {mask.shape} is neither x's"
                             f" {self.shape} nor a prefix of it (x's leading dimensions); give a"
                             f" mask of x's shape or of its first dimensions")
        (out,) = deferred_call("Xp.getMask", (self, mask), (self.dtype,))
        return out

    def _basic_mask_and_value(self, xp, key, value):
        key = tuple(int(k) if isinstance(k, Array) and k.ndim == 0 and k.dtype.kind in "iu"
                    else k for k in key)
        if builtins.sum(k is Ellipsis for k in key) > 1:
            raise IndexError("__setitem__: at most one ... in an index")
        if Ellipsis in key:
            i = key.index(Ellipsis)
            key = key[:i] + (slice(None),) * (self.ndim - len(key) + 1) + key[i + 1:]
        key = key + (slice(None),) * (self.ndim - len(key))
        if len(key) != self.ndim or not builtins.all(
                isinstance(k, (slice, int, np.integer)) and not isinstance(k, (bool, np.bool_))
                for k in key):
            raise NotImplementedError(f"__setitem__: index {key!r} is not supported (ints, slices"
                                      " and ..., or one boolean array of x's shape)")
        picked = [np.arange(n)[k] for n, k in zip(self.shape, key)]  # IndexError if out of range
        if builtins.any(np.size(p) == 0 for p in picked):
            return None, None
        if not isinstance(value, Array):
            placed = value
        else:
            out_shape = tuple(len(p) for p, k in zip(picked, key) if isinstance(k, slice))
            v = xp.broadcast_to(value, out_shape)
            v = xp.reshape(v, tuple(np.size(p) for p in picked))
            for axis, p in enumerate(np.atleast_1d(p) for p in picked):
                src = np.zeros(self.shape[axis], dtype=np.int64)  # position -> index in v
                src[p] = np.arange(len(p))
                v = xp.take(v, src, axis=axis)
            placed = v
        mask = None
        for axis, p in enumerate(picked):
            m = np.zeros(self.shape[axis], dtype=np.bool_)
            m[p] = True
            m = xp.asarray(m.reshape((-1,) + (1,) * (self.ndim - axis - 1)))
            mask = m if mask is None else xp.logical_and(mask, m)
        return (xp.asarray(True) if mask is None else mask), placed

    # ---- indexing ----
    def __getitem__(self, key):
        if not isinstance(key, tuple):
            key = (key,)
        view = self.__dict__.get("_window")
        if view is not None:
            same = view.getitem(self, key)  # x[:, :] of a window view stays a view (_rolling.py)
            if same is not None:
                return same
        if len(key) == 1 and isinstance(key[0], Array) and key[0].dtype == np.bool_:
            return self._get_mask(key[0])
        if builtins.any(_is_int_array(k) for k in key):
            return self._take(key)
        zero_d = [k for k in key if isinstance(k, Array) and k.ndim == 0 and k.dtype.kind in "iu"]
        if zero_d:  # 0-d integer arrays as ints, computed in one plan
            vals = iter(self._bridge.call("compute", zero_d))
            key = tuple(int(next(vals)) if builtins.any(k is z for z in zero_d) else k
                        for k in key)
        norm = []
        for k in key:
            if isinstance(k, (bool, np.bool_)):
                raise NotImplementedError("__getitem__: boolean scalar indices are not"
                                          " supported yet")
            if k is None or k is Ellipsis or isinstance(k, slice):
                norm.append(k)
            elif isinstance(k, (int, np.integer)):
                norm.append(int(k))
            else:
                raise NotImplementedError(
                    f"__getitem__: index of type {type(k).__name__} is not supported (basic"
                    " indexing: ints, slices, None, ...; or one boolean mask array of x's shape)")
        return _call("Xp.getItem", self, IndexSpec(norm))

    def _take(self, key):
        """Integer-array indexing mixed with ints, slices, None and ``...`` (NumPy's rules): the
        basic entries are applied first (each integer array's axis kept whole), then the integer
        arrays and ints (computed here, they go to the JVM as data) index their axes together
        through dev.cubed.XpIndexing.getItem(x, axes, indices): broadcast together, their
        dimensions replace the indexed axes when those are adjacent, else they come first.
        Indices outside ``[-n, n)`` are an IndexError."""
        consuming = builtins.sum(k is not None and k is not Ellipsis for k in key)
        if builtins.sum(k is Ellipsis for k in key) > 1:
            raise IndexError("__getitem__: at most one ... in an index")
        if consuming > self.ndim:
            raise IndexError(f"__getitem__: {consuming} indices for an array of {self.ndim}"
                             " dimensions")
        fill = (slice(None),) * (self.ndim - consuming)
        at = [i for i, k in enumerate(key) if k is Ellipsis]
        if at:
            key = key[:at[0]] + fill + key[at[0] + 1:]
        else:
            key = key + fill
        basic, axes, idx = [], [], []
        for pos, k in enumerate(key):
            if k is None or isinstance(k, slice):
                basic.append(k)
                continue
            if isinstance(k, (bool, np.bool_)):
                raise NotImplementedError("__getitem__: boolean scalar indices are not supported")
            a = k.compute() if isinstance(k, Array) else np.asarray(k)
            if a.dtype.kind not in "iu":
                raise IndexError(f"__getitem__: index arrays must be integers, got {a.dtype}")
            basic.append(slice(None))
            axes.append(pos)
            idx.append(a.astype(np.int64))
        y = self
        if builtins.any(k is None or k != slice(None) for k in basic):
            y = _call("Xp.getItem", self, IndexSpec(basic))
        for pos, a in zip(axes, idx):
            n = y.shape[pos]
            bad = (a < -n) | (a >= n)
            if bad.any():
                raise IndexError(f"__getitem__: index {int(a[bad].flat[0])} (entry {pos} of the"
                                 f" key) is out of bounds for an axis of size {n}")
        return _call("XpIndexing.getItem", y, Ints(axes), list(idx))

    # ---- operators ----
    def _bin(self, name, other, reflected=False):
        if not isinstance(other, (Array, bool, int, float, complex, np.generic)):
            if not (isinstance(other, np.ndarray) or _mixed.is_dask(other)
                    or (name in _CMPOPS.values() and _mixed.is_array_like(other))):
                # another kind of operand: its own reflected operator may know this one (xarray
                # objects do); Python's TypeError names both types otherwise
                return NotImplemented
            # NumPy and small Dask arrays become inputs; a comparison with any other array is
            # a TypeError here, never Python's identity fallback
            other = _mixed.as_input(other, name, _xp())
        if isinstance(other, np.generic):
            other = other.item()
        return getattr(_xp(), name)(other, self) if reflected else getattr(_xp(), name)(
            self, other)


#: NumPy ufunc names whose Array API function is named differently
_UFUNC_NAMES = {
    "absolute": "abs", "arccos": "acos", "arccosh": "acosh", "arcsin": "asin", "arcsinh": "asinh",
    "arctan": "atan", "arctanh": "atanh", "arctan2": "atan2", "power": "pow",
    "invert": "bitwise_invert", "left_shift": "bitwise_left_shift",
    "right_shift": "bitwise_right_shift", "conjugate": "conj", "true_divide": "divide",
}


def _is_int_array(k):
    if isinstance(k, Array):
        return k.ndim > 0 and k.dtype.kind in "iu"
    return isinstance(k, (np.ndarray, list)) and np.asarray(k).dtype.kind in "iu"


def _call(name, *args):
    return _wrap(_bridge.session().call(name, *args))


def deferred_call(name, args, dtypes):
    """Defers ``name(*args)`` (a bridge function returning one array or a list of them) and
    returns one pending ``Array`` per dtype in ``dtypes`` (_deferred.py)."""
    c = _deferred.Call(name, args)
    outs = []
    for dt in dtypes:
        a = Array.__new__(Array)
        a._bridge = _bridge.session()
        a.dtype = dt
        c.add_output(a)
        outs.append(a)
    return outs


def _wrap(v):
    if isinstance(v, _bridge.ArrayInfo):
        return Array(v)
    if isinstance(v, list):
        return [_wrap(e) for e in v]
    return v


_BINOPS = {
    "add": "add", "sub": "subtract", "mul": "multiply", "truediv": "divide",
    "floordiv": "floor_divide", "mod": "remainder", "pow": "pow", "and": "bitwise_and",
    "or": "bitwise_or", "xor": "bitwise_xor", "lshift": "bitwise_left_shift",
    "rshift": "bitwise_right_shift", "matmul": "matmul",
}
_CMPOPS = {"eq": "equal", "ne": "not_equal", "lt": "less", "le": "less_equal", "gt": "greater",
           "ge": "greater_equal"}


def _install_operators():
    def mk(fname, reflected=False):
        def op(self, other):
            return self._bin(fname, other, reflected)

        return op

    for dunder, fname in _BINOPS.items():
        setattr(Array, f"__{dunder}__", mk(fname))
        setattr(Array, f"__r{dunder}__", mk(fname, True))
        setattr(Array, f"__i{dunder}__", mk(fname))
    for dunder, fname in _CMPOPS.items():
        setattr(Array, f"__{dunder}__", mk(fname))
    Array.__hash__ = None
    Array.__neg__ = lambda self: _xp().negative(self)
    Array.__pos__ = lambda self: _xp().positive(self)
    Array.__abs__ = lambda self: _xp().abs(self)
    Array.__invert__ = lambda self: _xp().bitwise_invert(self)


_install_operators()
del operator
