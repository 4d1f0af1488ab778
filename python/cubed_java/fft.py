"""The Array API ``fft`` extension, run in the engine (``dev.cubed.XpFft``)."""
from __future__ import annotations

from ._array import _call
from ._bridge import SPEC, Ints
from ._core import _dt, float64

_NORMS = ("backward", "ortho", "forward")


def _norm(norm):
    if norm not in _NORMS:
        raise ValueError(f"norm {norm!r} is not one of {_NORMS}")
    return norm.upper()


def _one(name):
    def f(x, /, *, n=None, axis=-1, norm="backward"):
        if n is None and name in ("irfft", "hfft") and x.ndim:
            n = 2 * (x.shape[int(axis)] - 1)  # the default output length, from x's axis
        return _call("XpFft." + name, x, None if n is None else int(n), int(axis), _norm(norm))

    f.__name__ = f.__qualname__ = name
    f.__doc__ = f"``{name}`` along one axis (dev.cubed.XpFft.{name})."
    return f


def _many(name):
    def f(x, /, *, s=None, axes=None, norm="backward"):
        return _call("XpFft." + name, x, None if s is None else Ints(s),
                     None if axes is None else Ints(axes), _norm(norm))

    f.__name__ = f.__qualname__ = name
    f.__doc__ = f"``{name}`` over several axes (dev.cubed.XpFft.{name})."
    return f


fft, ifft, rfft, irfft, hfft, ihfft = (_one(n) for n in (
    "fft", "ifft", "rfft", "irfft", "hfft", "ihfft"))
fftn, ifftn, rfftn, irfftn = (_many(n) for n in ("fftn", "ifftn", "rfftn", "irfftn"))


def _chunk(n):
    return max(1, min(int(n), 1 << 20))


def fftfreq(n, /, *, d=1.0, dtype=None, device=None):
    return _call("XpFft.fftfreq", int(n), float(d), _dt(dtype or float64), _chunk(n), SPEC)


def rfftfreq(n, /, *, d=1.0, dtype=None, device=None):
    return _call("XpFft.rfftfreq", int(n), float(d), _dt(dtype or float64),
                 _chunk(int(n) // 2 + 1), SPEC)


def fftshift(x, /, *, axes=None):
    if isinstance(axes, int):
        axes = (axes,)
    return _call("XpFft.fftshift", x, None if axes is None else Ints(axes))


def ifftshift(x, /, *, axes=None):
    if isinstance(axes, int):
        axes = (axes,)
    return _call("XpFft.ifftshift", x, None if axes is None else Ints(axes))
