"""Bounded-memory groupby and resample reductions of cubed_java-backed xarray objects.

xarray has no chunk-manager hook for groupby: without flox it reduces each group on its own
(``isel`` of the group's positions, a reduction, then ``concat``), so the plan has a few ops per
group. ``ds.cubed_java.groupby("time.month").mean()`` and
``ds.cubed_java.resample(time="1MS").mean()`` (also ``sum``, ``count``, ``min``, ``max``, each with
``skipna``; ``var``/``std`` also with ``ddof``) instead take xarray's own group codes and call the
engine's ``XpGroupby.groupbyReduce`` once per variable: one blockwise op turning each block into
the states of its groups (a mean's count and total together: each block read once), the merging
rounds of the tree reduction over the blocks, a finish; the plan's ops do not depend on the number
of groups. The result has the coordinates, dimension names and dimension order xarray's own
``ds.groupby(...).mean()`` gives (taken from xarray's reduction of the object without its data
variables).

Plain xarray takes the same path: :func:`route_plain_groupby` (called when xarray loads the chunk
manager) wraps xarray's ``GroupBy.reduce`` so that ``ds.groupby("time.month").mean()`` (and
``sum``/``min``/``max``/``count``/``var``/``std``), reducing over the grouped dimension with the
default options, goes to :func:`groupby_reduce` whenever a data variable is a cubed_java Array;
and so does ``resample(...)`` (unless some bins are empty); every other call is xarray's own. Sorted
codes (a resample, a sorted coordinate) over several blocks take ``XpGroupby.groupbyReduceSorted``
(flox's "blockwise" method): the states of only the groups each block touches, the groups that
straddle block edges merged from the next blocks' states, two ops.
"""
from __future__ import annotations

import numpy as np

from ._array import Array, _call

#: The reductions the engine does by group (others: use xarray's own groupby).
FUNCS = ("sum", "count", "mean", "min", "max", "var", "std")


def groupby_reduce(obj, func, make, skipna=None, _group_first=True, keep_attrs=None, ddof=0):
    """Reduces ``obj`` (Dataset or DataArray) by the groups of ``make(obj)`` (a function building
    xarray's GroupBy or Resample object of its argument) with ``func`` (one of :data:`FUNCS`).
    Variables whose data is a cubed_java Array holding the grouped dimension are reduced in the
    engine; the others by xarray's own groupby. ``skipna=None`` is xarray's default (NaN skipped
    for floating data); ``ddof`` is var's and std's."""
    import xarray as xr

    if func not in FUNCS:
        raise ValueError(f"groupby_reduce: func {func!r} is not one of {', '.join(FUNCS)}")
    if isinstance(obj, xr.DataArray):
        name = obj.name if obj.name is not None else "__cubed_java_da__"
        # xarray keeps a DataArray's dimension order (a Dataset's variables get the group first)
        out = groupby_reduce(obj.to_dataset(name=name), func, make, skipna, False,
                             keep_attrs, ddof)[name]
        return out.rename(obj.name)
    gb = make(obj)
    if len(gb.groupers) != 1:
        raise NotImplementedError(
            "groupby_reduce: one grouping variable only (reduce by several with xarray's own"
            " groupby)")
    enc = gb.encoded
    codes = np.asarray(enc.codes.values, dtype=np.int64)
    (dim,) = enc.codes.dims
    num_groups = len(enc.full_index)
    ours = [v for v in obj.data_vars
            if isinstance(obj[v].data, Array) and dim in obj[v].dims]
    # xarray's answer on everything we do not reduce: coordinates, dims, the other variables
    spread = {"ddof": int(ddof)} if func in ("var", "std") else {}
    rest = obj.drop_vars(ours)
    template = _coords_template(rest, gb, dim, keep_attrs)
    if template is None:
        template = getattr(make(rest), func)(**_skip(func, skipna), **spread,
                                             keep_attrs=keep_attrs)
    new = [d for d in template.dims if d not in obj.dims]
    out_dim = new[0] if new else dim
    skip = True if skipna is None else bool(skipna)
    valid = codes[codes >= 0]
    sorted_codes = bool(valid.size == 0 or np.all(valid[1:] >= valid[:-1]))
    keep_attrs = _keep_attrs(keep_attrs)
    for v in ours:
        var = obj[v].variable
        axis = var.dims.index(dim)
        if sorted_codes and var.data.numblocks[axis] > 1:
            # flox's "blockwise": states of the groups each block touches, edges merged
            r = _call("XpGroupby.groupbyReduceSorted", var.data, codes, axis, num_groups, func,
                      skip, int(ddof))
        else:
            r = _call("XpGroupby.groupbyReduce", var.data, codes, axis, num_groups, func, skip,
                      *spread.values())
        dims = list(var.dims)
        dims[axis] = out_dim
        reduced = xr.Variable(tuple(dims), r, attrs=var.attrs if keep_attrs else None)
        # xarray's non-flox path puts the group dimension first in a Dataset's variables
        if _group_first:
            reduced = reduced.transpose(out_dim, *(d for d in dims if d != out_dim))
        template[v] = reduced
    return template[list(obj.data_vars)] if obj.data_vars else template


def _coords_template(rest, gb, dim, keep_attrs):
    """What xarray's reduction of ``rest`` (no data variables left) gives, built from the group's
    coordinates without xarray's per-group ``isel`` and ``concat`` (which take seconds for a
    resample of a few hundred bins): the coordinates without ``dim``, the group's coordinate (a
    resample's under ``dim``), the attributes kept or not; None when ``rest`` still has data
    variables or some groups have no element (then xarray's own reduction builds it)."""
    import xarray as xr

    enc = gb.encoded
    if rest.data_vars or enc.unique_coord.size != enc.full_index.size:
        return None  # (bins with no element: xarray reindexes to the full index)
    coords = {k: v.variable for k, v in rest.coords.items() if dim not in v.dims}
    group = gb.encoded.coords
    from xarray.groupers import RESAMPLE_DIM

    out = xr.Dataset(coords=coords, attrs=dict(rest.attrs) if _keep_attrs(keep_attrs) else None)
    out = out.assign_coords(group)
    if RESAMPLE_DIM in out.dims:
        out = out.rename({RESAMPLE_DIM: dim})
    return out


def _keep_attrs(keep_attrs):
    """xarray's default for a grouped reduction (attributes kept) unless given."""
    if keep_attrs is not None:
        return bool(keep_attrs)
    from xarray.core.options import _get_keep_attrs

    return _get_keep_attrs(default=True)


def _skip(func, skipna):
    return {} if func == "count" or skipna is None else {"skipna": skipna}


def route_plain_groupby():
    """Wraps xarray's ``DatasetGroupBy.reduce`` and ``DataArrayGroupBy.reduce`` (once) so that a
    reduction xarray's ``mean``/``sum``/``min``/``max``/``count``/``var``/``std`` hands to them goes
    to :func:`groupby_reduce` when: one grouping variable along one dimension (a resample without
    empty bins included), the
    reduction over that dimension (``dim`` None or that dimension, no ``axis``), no options but
    ``skipna``, ``keep_attrs``, ``numeric_only``, ``min_count=None`` and (var/std) ``ddof``, and a
    data variable along that dimension is a cubed_java Array. Any other call is xarray's own."""
    from xarray.core import duck_array_ops as dao
    from xarray.core import groupby as g

    funcs = {dao.mean: "mean", dao.sum: "sum", dao.min: "min", dao.max: "max",
             dao.count: "count", dao.var: "var", dao.std: "std"}
    for cls in (g.DatasetGroupByBase, g.DataArrayGroupByBase):
        if getattr(cls.reduce, "_cubed_java_route", False):
            continue
        cls.reduce = _routed(cls.reduce, funcs)
    _route_flox()


def _route_flox():
    """With flox installed (xarray's default then), xarray's ``mean``/``sum``/... of a groupby or
    resample call ``_flox_reduce``, which hands the arrays to flox; flox knows Dask and Python
    Cubed arrays but not these (it calls NumPy-only methods on them). So an object holding a
    cubed_java Array takes xarray's reduction without flox instead (``reduce`` with the
    ``duck_array_ops`` function of the same name), which :func:`route_plain_groupby` sends to the
    engine where it can; flox's own options (``method``, ``engine``, ``reindex``, and the
    ``fill_value`` xarray passes for ``first``/``last``) are dropped there. Objects without
    cubed_java data keep flox."""
    from xarray.core import groupby as g
    from xarray.core import resample as r

    for cls in (g.GroupBy, r.Resample):
        f = cls.__dict__.get("_flox_reduce")
        if f is None or getattr(f, "_cubed_java_route", False):
            continue
        cls._flox_reduce = _flox_routed(f)


def _flox_routed(original):
    import functools

    @functools.wraps(original)
    def _flox_reduce(self, dim, keep_attrs=None, **kwargs):
        if not _holds_ours(self._original_obj):
            return original(self, dim, keep_attrs=keep_attrs, **kwargs)
        from xarray.core import duck_array_ops as dao

        name = kwargs.pop("func")
        for k in ("method", "engine", "reindex", "fill_value"):
            kwargs.pop(k, None)
        f = getattr(dao, name, None)
        if f is None:
            raise NotImplementedError(
                f"groupby {name} of cubed-java data: xarray has no reduction {name!r} without flox;"
                " use ds.cubed_java.groupby(...) or compute first")
        return self.reduce(f, dim=dim, keep_attrs=keep_attrs, **kwargs)

    _flox_reduce._cubed_java_route = True
    return _flox_reduce


def _holds_ours(obj):
    """True if ``obj`` (DataArray or Dataset) has a cubed_java Array as data."""
    if hasattr(obj, "data_vars"):
        return any(isinstance(obj[v].data, Array) for v in obj.data_vars)
    return isinstance(getattr(obj, "data", None), Array)


def _routed(original, funcs):
    import functools

    @functools.wraps(original)
    def reduce(self, func, dim=None, *, axis=None, keep_attrs=None, shortcut=True, **kwargs):
        name = _plain_route(self, funcs.get(func) if _hashable(func) else None, dim, axis,
                            kwargs)
        if name is None:
            return original(self, func, dim, axis=axis, keep_attrs=keep_attrs,
                            shortcut=shortcut, **kwargs)
        return groupby_reduce(self._original_obj, name, lambda o: _regroup(self, o),
                              kwargs.get("skipna"), keep_attrs=keep_attrs,
                              ddof=kwargs.get("ddof", 0))

    reduce._cubed_java_route = True
    return reduce


def _hashable(func):
    try:
        hash(func)
    except TypeError:
        return False
    return True


def _plain_route(gb, name, dim, axis, kwargs):
    """``name`` when this reduction goes to the engine (see :func:`route_plain_groupby`)."""
    import xarray as xr

    if name is None or axis is not None or getattr(gb, "_by_chunked", True):
        return None
    if set(kwargs) - {"skipna", "numeric_only", "min_count", "ddof"}:
        return None
    if "ddof" in kwargs and (name not in ("var", "std") or not isinstance(kwargs["ddof"], int)
                             or kwargs["ddof"] < 0):
        return None
    if kwargs.get("min_count") is not None:
        return None
    if len(gb.groupers) != 1 or gb._obj is not gb._original_obj:
        return None
    from xarray.core.resample import Resample

    enc = gb.encoded
    if isinstance(gb, Resample) and enc.unique_coord.size != enc.full_index.size:
        # bins with no element: xarray's own path gives NaN there whatever the reduction (count
        # and sum too, as float), where the engine's gives 0
        return None
    gdim = gb._group_dim
    if dim is ...:
        return None  # every dimension, not only the group's
    if dim is not None and list([dim] if isinstance(dim, str) else dim) != [gdim]:
        return None
    obj = gb._original_obj
    variables = [obj.variable] if isinstance(obj, xr.DataArray) else [
        obj[v].variable for v in obj.data_vars]
    if not any(isinstance(v.data, Array) and gdim in v.dims for v in variables):
        return None
    return name


def _regroup(gb, obj):
    """The grouping (or resampling) of ``gb`` applied to ``obj`` instead, a Dataset or DataArray
    with ``gb``'s grouped dimension: same groups, same kind of object as ``obj``."""
    import xarray as xr
    from xarray.core import groupby as g
    from xarray.core import resample as r

    is_ds = isinstance(obj, xr.Dataset)
    kw = {"restore_coord_dims": gb._restore_coord_dims}
    if isinstance(gb, r.Resample):
        from xarray.groupers import RESAMPLE_DIM

        cls = r.DatasetResample if is_ds else r.DataArrayResample
        kw.update(dim=gb._dim, resample_dim=RESAMPLE_DIM)
    else:
        cls = g.DatasetGroupBy if is_ds else g.DataArrayGroupBy
    return cls(obj, gb.groupers, **kw)


class GroupedReduce:
    """What ``ds.cubed_java.groupby(...)`` and ``.resample(...)`` return: the reductions of
    :data:`FUNCS` in the engine (see the module's text)."""

    def __init__(self, obj, make):
        self._obj = obj
        self._make = make

    def sum(self, skipna=None):
        return groupby_reduce(self._obj, "sum", self._make, skipna)

    def mean(self, skipna=None):
        return groupby_reduce(self._obj, "mean", self._make, skipna)

    def min(self, skipna=None):
        return groupby_reduce(self._obj, "min", self._make, skipna)

    def max(self, skipna=None):
        return groupby_reduce(self._obj, "max", self._make, skipna)

    def count(self):
        return groupby_reduce(self._obj, "count", self._make)

    def var(self, skipna=None, ddof=0):
        return groupby_reduce(self._obj, "var", self._make, skipna, ddof=ddof)

    def std(self, skipna=None, ddof=0):
        return groupby_reduce(self._obj, "std", self._make, skipna, ddof=ddof)


def plan_figures(*arrays):
    """The figures of the plan computing ``arrays`` (cubed_java Arrays, or xarray objects whose
    chunked data variables are taken) together, nothing computed: a dict of ``tasks``, ``ops``,
    ``max_projected_mem`` (bytes of the largest task) and ``intermediate_bytes``."""
    from ._bridge import session

    xs = []
    for a in arrays:
        if isinstance(a, Array):
            xs.append(a)
        elif hasattr(a, "data_vars"):
            xs.extend(a[v].data for v in a.data_vars if isinstance(a[v].data, Array))
        elif isinstance(getattr(a, "data", None), Array):
            xs.append(a.data)
    if not xs:
        raise ValueError("plan_figures: no cubed_java array given")
    tasks, ops, mem, inter = session().call("planFigures", xs)
    return {"tasks": tasks, "ops": ops, "max_projected_mem": mem, "intermediate_bytes": inter}
