"""Bounded-memory groupby and resample reductions of cubed_java-backed xarray objects.

xarray has no chunk-manager hook for groupby: without flox it reduces each group on its own
(``isel`` of the group's positions, a reduction, then ``concat``), so the plan has a few ops per
group. ``ds.cubed_java.groupby("time.month").mean()`` and
``ds.cubed_java.resample(time="1MS").mean()`` (also ``sum``, ``count``, ``min``, ``max``, each with
``skipna``) instead take xarray's own group codes and call the engine's
``XpGroupby.groupbyReduce`` once per variable: one blockwise op of per-block partials per group,
the plain tree reduction over the blocks, a pointwise finish; the plan's ops do not depend on the
number of groups. The result has the coordinates, dimension names and dimension order xarray's own
``ds.groupby(...).mean()`` gives (taken from xarray's reduction of the object without its data
variables).
"""
from __future__ import annotations

import numpy as np

from ._array import Array, _call

#: The reductions the engine does by group (others: use xarray's own groupby).
FUNCS = ("sum", "count", "mean", "min", "max")


def groupby_reduce(obj, func, make, skipna=None, _group_first=True):
    """Reduces ``obj`` (Dataset or DataArray) by the groups of ``make(obj)`` (a function building
    xarray's GroupBy or Resample object of its argument) with ``func`` (one of :data:`FUNCS`).
    Variables whose data is a cubed_java Array holding the grouped dimension are reduced in the
    engine; the others by xarray's own groupby. ``skipna=None`` is xarray's default (NaN skipped
    for floating data)."""
    import xarray as xr

    if func not in FUNCS:
        raise ValueError(f"groupby_reduce: func {func!r} is not one of {', '.join(FUNCS)}")
    if isinstance(obj, xr.DataArray):
        name = obj.name if obj.name is not None else "__cubed_java_da__"
        # xarray keeps a DataArray's dimension order (a Dataset's variables get the group first)
        out = groupby_reduce(obj.to_dataset(name=name), func, make, skipna, False)[name]
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
    template = getattr(make(obj.drop_vars(ours)), func)(**_skip(func, skipna))
    new = [d for d in template.dims if d not in obj.dims]
    out_dim = new[0] if new else dim
    skip = True if skipna is None else bool(skipna)
    for v in ours:
        var = obj[v].variable
        axis = var.dims.index(dim)
        r = _call("XpGroupby.groupbyReduce", var.data, codes, axis, num_groups, func, skip)
        dims = list(var.dims)
        dims[axis] = out_dim
        reduced = xr.Variable(tuple(dims), r)
        # xarray's non-flox path puts the group dimension first in a Dataset's variables
        if _group_first:
            reduced = reduced.transpose(out_dim, *(d for d in dims if d != out_dim))
        template[v] = reduced
    return template[list(obj.data_vars)] if obj.data_vars else template


def _skip(func, skipna):
    return {} if func == "count" or skipna is None else {"skipna": skipna}


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
