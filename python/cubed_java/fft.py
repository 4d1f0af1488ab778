"""The Array API ``fft`` extension: every function raises NotImplementedError naming itself until
dev.cubed.Xp has chunked FFTs (:data:`NOT_YET` maps each name to the Java method it will call)."""
from .array_api import _wire

NOT_YET = {n: "XpFft." + n for n in (
    "fft", "ifft", "fftn", "ifftn", "rfft", "irfft", "rfftn", "irfftn", "hfft", "ihfft",
    "fftfreq", "rfftfreq", "fftshift", "ifftshift")}
_wire(NOT_YET, globals())
