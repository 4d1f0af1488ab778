"""The Array API ``linalg`` extension, run in the engine (``dev.cubed.XpLinalg``; matmul,
tensordot, vecdot and matrix_transpose are ``dev.cubed.Xp``'s). Functions that return several
arrays give the standard's named tuples."""
from __future__ import annotations

import math
from collections import namedtuple

import numpy as np

from ._array import Array, _call
from ._bridge import Ints
from . import _core
from ._core import (  # noqa: F401
    _axes, _dt, _keep, asarray, matmul, matrix_transpose, reshape, tensordot, vecdot)
from ._core import stack as stack_arrays

EighResult = namedtuple("EighResult", ["eigenvalues", "eigenvectors"])
EigResult = namedtuple("EigResult", ["eigenvalues", "eigenvectors"])
QRResult = namedtuple("QRResult", ["Q", "R"])
SlogdetResult = namedtuple("SlogdetResult", ["sign", "logabsdet"])
SVDResult = namedtuple("SVDResult", ["U", "S", "Vh"])

_MATRIX_ORDS = {"fro": "FRO", "nuc": "NUC", 1: "ONE", -1: "NEG_ONE", 2: "TWO", -2: "NEG_TWO",
                math.inf: "INF", -math.inf: "NEG_INF"}


def cholesky(x, /, *, upper=False):
    return _call("XpLinalg.cholesky", x, "UPPER" if upper else "LOWER")


def cross(x1, x2, /, *, axis=-1):
    return _call("XpLinalg.cross", x1, x2, int(axis))


def det(x, /):
    return _call("XpLinalg.det", x)


def diagonal(x, /, *, offset=0):
    return _call("XpLinalg.diagonal", x, int(offset))


def eig(x, /):
    return EigResult(*_call("XpLinalg.eig", x))


def eigh(x, /):
    return EighResult(*_call("XpLinalg.eigh", x))


def eigvals(x, /):
    return _call("XpLinalg.eigvals", x)


def eigvalsh(x, /):
    return _call("XpLinalg.eigvalsh", x)


def inv(x, /):
    return _call("XpLinalg.inv", x)


def matrix_norm(x, /, *, keepdims=False, ord="fro"):
    o = _MATRIX_ORDS.get(ord)
    if o is None:
        raise ValueError(f"matrix_norm: ord {ord!r} is not one of 'fro', 'nuc', 1, -1, 2, -2,"
                         " inf, -inf")
    return _call("XpLinalg.matrixNorm", x, o, "KEEP" if keepdims else "DROP")


def matrix_power(x, n, /):
    return _call("XpLinalg.matrixPower", x, int(n))


def _with_rtol(jname, x, rtol):
    if rtol is None:
        return _call(jname, x)
    if not isinstance(rtol, Array):
        return _call(jname, x, float(rtol))
    # an array of tolerances (broadcast against the stack x.shape[:-2]): one call per matrix
    stack = x.shape[:-2]
    r = np.broadcast_to(rtol.compute(), stack)
    if r.size and (r == r.flat[0]).all():
        return _call(jname, x, float(r.flat[0]))
    parts = [_call(jname, x[idx], float(r[idx])) for idx in np.ndindex(*stack)]
    return reshape(stack_arrays(parts), stack + parts[0].shape) if parts else _call(jname, x)


def matrix_rank(x, /, *, rtol=None):
    return _with_rtol("XpLinalg.matrixRank", x, rtol)


def outer(x1, x2, /):
    return _call("XpLinalg.outer", x1, x2)


def pinv(x, /, *, rtol=None):
    return _with_rtol("XpLinalg.pinv", x, rtol)


def qr(x, /, *, mode="reduced"):
    if mode not in ("reduced", "complete"):
        raise ValueError(f"qr: mode {mode!r} is not 'reduced' or 'complete'")
    if mode == "complete" and x.shape[-2] <= x.shape[-1]:
        mode = "reduced"  # the same factors when M <= N
    return QRResult(*_call("XpLinalg.qr", x, mode.upper()))


def slogdet(x, /):
    return SlogdetResult(*_call("XpLinalg.slogdet", x))


def solve(x1, x2, /):
    return _call("XpLinalg.solve", asarray(x1), asarray(x2))


def svd(x, /, *, full_matrices=True):
    """The SVD. With ``full_matrices`` and M != N, U (M x M) or Vh (N x N) is completed from a
    complete QR (``qr(mode="complete")``: one whole matrix per task, refused with the sizes
    when a matrix's factors do not fit allowed_mem): for M > N, x = Q R, the SVD of R's top N x N
    block R1 = Ur S Vh gives U = [Q[:, :N] @ Ur, Q[:, N:]]; for M < N the same on the conjugate
    transpose."""
    m, n = x.shape[-2], x.shape[-1]
    if not full_matrices or m == n:
        return SVDResult(*_call("XpLinalg.svd", x))
    if m < n:
        u2, s, vh2 = svd(_conj_t(x), full_matrices=True)
        return SVDResult(_conj_t(vh2), s, _conj_t(u2))
    q, r = qr(x, mode="complete")
    ur, s, vh = _call("XpLinalg.svd", r[..., :n, :])
    u = _core.concat([matmul(q[..., :, :n], ur), q[..., :, n:]], axis=-1) if n else q
    return SVDResult(u, s, vh)


def _conj_t(a):
    t = matrix_transpose(a)
    return _core.conj(t) if np.dtype(a.dtype).kind == "c" else t


def svdvals(x, /):
    return _call("XpLinalg.svdvals", x)


def trace(x, /, *, offset=0, dtype=None):
    return _call("XpLinalg.trace", x, int(offset), _dt(dtype))


def vector_norm(x, /, *, axis=None, keepdims=False, ord=2):
    axes = _axes(x, axis)
    r = _call("XpLinalg.vectorNorm", x, Ints(axes), float(ord))
    return _keep(x, r, axes, keepdims)
