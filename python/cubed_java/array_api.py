"""An Array API (2025.12) namespace over Cubed for Java's lazy chunked arrays.

Every function builds a lazy array in the JVM (``dev.cubed.Xp``); ``compute()`` runs the plan.

This module only assembles the namespace from the modules below it (docs/python.md, "The package's
layers"): ``_core`` (data types, creation, elementwise, manipulation, searching, sets, sorting),
``_info`` (the inspection namespace), ``_reductions`` (the statistical functions), ``_nan``
(NumPy's nan-functions), ``_xops`` (the NumPy functions xarray asks for) and the ``linalg`` and
``fft`` extensions. The package's ``__init__`` binds it to ``Array`` (``__array_namespace__``,
the operators).
"""
from . import fft, linalg  # noqa: F401  the extensions
from ._core import *  # noqa: F401,F403  (``_core.__all__``)
from ._info import _Info, broadcast_shapes, finfo, iinfo, isdtype  # noqa: F401
from ._nan import (  # noqa: F401  NumPy's nan-functions, for xarray's skipna reductions
    nanargmax, nanargmin, nancumprod, nancumsum, nanmax, nanmean, nanmin, nanprod, nanstd, nansum,
    nanvar)
from ._reductions import (  # noqa: F401  the statistical functions
    all, any, argmax, argmin, count_nonzero, cumulative_prod, cumulative_sum, max, mean, min, prod,
    std, sum, var)
from ._xops import (  # noqa: F401  NumPy functions xarray asks for
    einsum, lib, nanquantile, pad, quantile, transpose)

__array_api_version__ = "2025.12"


def __array_namespace_info__():
    return _Info()


__all__ = sorted(n for n in globals() if not n.startswith("_"))
