#!/usr/bin/env python3
"""Golden vectors for dev.cubed.nd.fft.Fft (the Array API fft extension).

Writes cubed-core/src/test/resources/golden/fft/<family>.npz (keys "<id>_out": NumPy's result;
inputs under the key named by the case's "x", shared by cases using the same input) and
cases.json (one record per case: id, family, fn, x, n, axis, s, axes, norm, d, dtype).
Families: c128, c64 (complex inputs), f64, f32 (real float inputs), int (integer and bool inputs),
freq (fftfreq/rfftfreq), shift (fftshift/ifftshift on every dtype).
Run from the repository root: python3 scripts/golden/fft.py
"""
import json
import os

import numpy as np

OUT = os.path.join("cubed-core", "src", "test", "resources", "golden", "fft")
rng = np.random.default_rng(20261122)
families = {}
cases = []
inputs = {}
keep = []
NORMS = ["backward", "ortho", "forward"]


def add(family, fn, x, out, n=None, axis=-1, s=None, axes=None, norm="backward", d=None,
        dtype=None):
    cid = "c%d" % len(cases)
    fam = families.setdefault(family, {})
    xkey = None
    if x is not None:
        # an input shared by several cases is stored once
        xkey = inputs.get((family, id(x)))
        if xkey is None:
            xkey = cid + "_x"
            inputs[(family, id(x))] = xkey
            keep.append(x)
            fam[xkey] = x
    fam[cid + "_out"] = out
    cases.append(dict(id=cid, family=family, fn=fn, x=xkey, n=n, axis=axis, s=s, axes=axes,
                      norm=norm, d=d, dtype=dtype))


def crand(shape, dt):
    return (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dt)


def rrand(shape, dt):
    return rng.standard_normal(shape).astype(dt)


LENGTHS = [1, 2, 3, 5, 8, 12, 17, 30, 64, 97]

for fam, cdt, rdt in [("c128", np.complex128, np.float64), ("c64", np.complex64, np.float32)]:
    for L in LENGTHS:
        x = crand((L,), cdt)
        for norm in NORMS:
            add(fam, "fft", x, np.fft.fft(x, norm=norm), norm=norm)
            add(fam, "ifft", x, np.fft.ifft(x, norm=norm), norm=norm)
        if L > 1:
            h = crand((L // 2 + 1,), cdt)
            add(fam, "irfft", h, np.fft.irfft(h, n=L), n=L)
            add(fam, "hfft", h, np.fft.hfft(h, n=L), n=L)
    # padding / truncation, axes, n-d
    x = crand((3, 10), cdt)
    for n in (4, 10, 16, 23):
        add(fam, "fft", x, np.fft.fft(x, n=n), n=n)
        add(fam, "ifft", x, np.fft.ifft(x, n=n, norm="ortho"), n=n, norm="ortho")
    add(fam, "fft", x, np.fft.fft(x, axis=0), axis=0)
    add(fam, "ifft", x, np.fft.ifft(x, n=7, axis=-2), n=7, axis=-2)
    x3 = crand((4, 6, 5), cdt)
    for norm in NORMS:
        add(fam, "fftn", x3, np.fft.fftn(x3, norm=norm), norm=norm)
        add(fam, "ifftn", x3, np.fft.ifftn(x3, norm=norm), norm=norm)
        add(fam, "irfftn", x3, np.fft.irfftn(x3, norm=norm), norm=norm)
    add(fam, "fftn", x3, np.fft.fftn(x3, axes=(0, 2)), axes=[0, 2])
    add(fam, "fftn", x3, np.fft.fftn(x3, s=(3, 8), axes=(2, 0)), s=[3, 8], axes=[2, 0])
    add(fam, "ifftn", x3, np.fft.ifftn(x3, s=(5, 4), axes=(1, 2)), s=[5, 4])
    add(fam, "fftn", x3, np.fft.fftn(x3, s=(-1, 9), axes=(1, 2)), s=[-1, 9], axes=[1, 2])
    add(fam, "irfftn", x3, np.fft.irfftn(x3, s=(4, 7), axes=(0, 1)), s=[4, 7], axes=[0, 1])
    add(fam, "irfftn", x3, np.fft.irfftn(x3, axes=(-1, 0)), axes=[-1, 0])
    h = crand((3, 6), cdt)
    for norm in NORMS:
        add(fam, "irfft", h, np.fft.irfft(h, norm=norm), norm=norm)
        add(fam, "irfft", h, np.fft.irfft(h, n=11, norm=norm), n=11, norm=norm)
        add(fam, "hfft", h, np.fft.hfft(h, norm=norm), norm=norm)
        add(fam, "hfft", h, np.fft.hfft(h, n=5, axis=0, norm=norm), n=5, axis=0, norm=norm)
    add(fam, "irfft", h, np.fft.irfft(h, n=4), n=4)
    add(fam, "irfft", h, np.fft.irfft(h, n=8, axis=0), n=8, axis=0)
    # empty along a non-transformed axis
    e = np.zeros((0, 4), cdt)
    add(fam, "fft", e, np.fft.fft(e))

    # real-input transforms
    rfam = "f64" if rdt == np.float64 else "f32"
    for L in LENGTHS:
        x = rrand((L,), rdt)
        for norm in NORMS:
            add(rfam, "rfft", x, np.fft.rfft(x, norm=norm), norm=norm)
            add(rfam, "ihfft", x, np.fft.ihfft(x, norm=norm), norm=norm)
        add(rfam, "fft", x, np.fft.fft(x))
    x = rrand((3, 10), rdt)
    for n in (4, 9, 10, 16, 23):
        add(rfam, "rfft", x, np.fft.rfft(x, n=n), n=n)
        add(rfam, "ihfft", x, np.fft.ihfft(x, n=n), n=n)
    add(rfam, "rfft", x, np.fft.rfft(x, axis=0), axis=0)
    x3 = rrand((4, 6, 5), rdt)
    for norm in NORMS:
        add(rfam, "rfftn", x3, np.fft.rfftn(x3, norm=norm), norm=norm)
        add(rfam, "fftn", x3, np.fft.fftn(x3, norm=norm), norm=norm)
    add(rfam, "rfftn", x3, np.fft.rfftn(x3, axes=(0, 1)), axes=[0, 1])
    add(rfam, "rfftn", x3, np.fft.rfftn(x3, s=(3, 8), axes=(2, 0)), s=[3, 8], axes=[2, 0])
    add(rfam, "rfftn", x3, np.fft.rfftn(x3, s=(7, 4), axes=(1, 2)), s=[7, 4])
    # complex-to-complex and complex-to-real transforms of real input (promoted to complex)
    add(rfam, "irfft", x, np.fft.irfft(x))
    add(rfam, "hfft", x, np.fft.hfft(x, norm="ortho"), norm="ortho")
    add(rfam, "ifft", x, np.fft.ifft(x, n=12), n=12)
    add(rfam, "ifftn", x3, np.fft.ifftn(x3))
    add(rfam, "irfftn", x3, np.fft.irfftn(x3, axes=(0, 2)), axes=[0, 2])

# integer and bool inputs promote to complex128 / float64 arithmetic
for dt in [np.bool_, np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64]:
    if dt == np.bool_:
        x = rng.integers(0, 2, (2, 12)).astype(dt)
    else:
        info = np.iinfo(dt)
        x = rng.integers(info.min, info.max, (2, 12), dtype=dt, endpoint=True)
        x[0, 0] = info.min
        x[0, 1] = info.max
    add("int", "fft", x, np.fft.fft(x))
    add("int", "ifft", x, np.fft.ifft(x, n=17), n=17)
    add("int", "rfft", x, np.fft.rfft(x))
    add("int", "ihfft", x, np.fft.ihfft(x))
    add("int", "fftn", x, np.fft.fftn(x))
    add("int", "rfftn", x, np.fft.rfftn(x, norm="ortho"), norm="ortho")
    add("int", "irfft", x, np.fft.irfft(x))
    add("int", "hfft", x, np.fft.hfft(x))
    add("int", "irfftn", x, np.fft.irfftn(x))

# frequencies
for n in (1, 2, 5, 8, 17):
    for d in (1.0, 0.25, -2.0):
        add("freq", "fftfreq", None, np.fft.fftfreq(n, d), n=n, d=d)
        add("freq", "rfftfreq", None, np.fft.rfftfreq(n, d), n=n, d=d)
        # float32 frequencies: the float64 values rounded once
        add("freq", "fftfreq", None, np.fft.fftfreq(n, d).astype(np.float32), n=n, d=d,
            dtype="float32")
        add("freq", "rfftfreq", None, np.fft.rfftfreq(n, d).astype(np.float32), n=n, d=d,
            dtype="float32")

# shifts on every dtype, including 0-d and empty
ALL = [np.bool_, np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64,
       np.float32, np.float64, np.complex64, np.complex128]
for dt in ALL:
    x = np.arange(5 * 4).reshape(5, 4)
    if dt == np.complex64 or dt == np.complex128:
        x = (x + 1j * (x + 100)).astype(dt)
    else:
        x = x.astype(dt)
    add("shift", "fftshift", x, np.fft.fftshift(x))
    add("shift", "ifftshift", x, np.fft.ifftshift(x))
    add("shift", "fftshift", x, np.fft.fftshift(x, axes=(0,)), axes=[0])
    add("shift", "ifftshift", x, np.fft.ifftshift(x, axes=(-1,)), axes=[-1])
xe = np.zeros((0, 3))
add("shift", "ifftshift", xe, np.fft.ifftshift(xe))
x7 = np.arange(7.0)
add("shift", "fftshift", x7, np.fft.fftshift(x7))
add("shift", "ifftshift", x7, np.fft.ifftshift(x7))

os.makedirs(OUT, exist_ok=True)
for fam, arrays in families.items():
    np.savez_compressed(os.path.join(OUT, fam + ".npz"), **arrays)
with open(os.path.join(OUT, "cases.json"), "w") as f:
    f.write("[\n" + ",\n".join(json.dumps(c, separators=(",", ":")) for c in cases) + "\n]\n")
print(len(cases), "cases")
