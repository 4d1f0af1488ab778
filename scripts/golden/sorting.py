"""Golden vectors for sort/argsort (stable, ascending and descending) -> golden/sorting/<dtype>.npz.

Each case i stores c{i}_x, c{i}_axis (0-d int64), c{i}_desc (0-d bool), c{i}_sort, c{i}_argsort.
Descending stable order (NaN last) is built from NumPy's stable ascending argsort per lane.
"""
import os
import numpy as np

OUT = os.path.join(os.path.dirname(__file__), "..", "..", "cubed-core", "src", "test", "resources",
                   "golden", "sorting")
rng = np.random.default_rng(1234)
DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
          "float32", "float64", "complex64", "complex128"]


def isnan(v):
    return np.isnan(v) if v.dtype.kind in "fc" else np.zeros(v.shape, bool)


def lane_argsort(v, desc):
    if v.dtype.kind == "c":
        # NaN groups: R+Rj, R+nanj, nan+Rj, nan+nanj
        grp = np.isnan(v.real) * 2 + np.isnan(v.imag) * 1
        idx = []
        for g in range(4):
            sel = np.nonzero(grp == g)[0]
            sub = v[sel]
            if desc:
                o = sel.size - 1 - np.argsort(sub[::-1], kind="stable")[::-1]
            else:
                o = np.argsort(sub, kind="stable")
            idx.extend(sel[o])
        return np.array(idx, dtype=np.int64)
    nan = isnan(v)
    sel = np.nonzero(~nan)[0]
    sub = v[sel]
    if desc:
        o = sel.size - 1 - np.argsort(sub[::-1], kind="stable")[::-1]
    else:
        o = np.argsort(sub, kind="stable")
    return np.concatenate([sel[o], np.nonzero(nan)[0]]).astype(np.int64)


def argsort(x, axis, desc):
    xm = np.moveaxis(x, axis, -1)
    out = np.zeros(xm.shape, np.int64)
    for idx in np.ndindex(xm.shape[:-1]):
        out[idx] = lane_argsort(xm[idx], desc)
    return np.moveaxis(out, -1, axis)


def sample(dt, shape):
    dt = np.dtype(dt)
    n = int(np.prod(shape))
    if dt.kind == "b":
        return rng.integers(0, 2, shape).astype(bool)
    if dt.kind in "iu":
        info = np.iinfo(dt)
        v = rng.integers(-5, 6, n) if dt.kind == "i" else rng.integers(0, 8, n)
        v = v.astype(dt)
        if n >= 6:
            v[0] = info.min
            v[1] = info.max
            v[2] = info.max
        return v.reshape(shape)
    v = rng.integers(-4, 5, n).astype(np.float64) * 0.5
    if n >= 8:
        v[0] = np.nan
        v[1] = -0.0
        v[2] = 0.0
        v[3] = np.inf
        v[4] = -np.inf
        v[5] = np.nan
    if dt.kind == "c":
        w = rng.integers(-2, 3, n).astype(np.float64)
        if n >= 8:
            w[6] = np.nan
        c = (v + 1j * w).astype(dt)
        if n >= 10:
            c[7] = complex(np.nan, 1.0)
            c[8] = complex(1.0, np.nan)
        return c.reshape(shape)
    return v.astype(dt).reshape(shape)


def main():
    os.makedirs(OUT, exist_ok=True)
    for dt in DTYPES:
        arrays = {}
        cases = [((12,), -1), ((0,), 0), ((1,), 0), ((4, 9), 1), ((4, 9), 0), ((2, 3, 10), 1),
                 ((3, 0, 2), 2), ((200,), 0)]
        i = 0
        for shape, axis in cases:
            x = sample(dt, shape)
            for desc in (False, True):
                a = argsort(x, axis, desc)
                arrays[f"c{i}_x"] = x
                arrays[f"c{i}_axis"] = np.array(axis, np.int64)
                arrays[f"c{i}_desc"] = np.array(desc)
                arrays[f"c{i}_argsort"] = a
                arrays[f"c{i}_sort"] = np.take_along_axis(x, a, axis)
                if not desc:
                    # cross-check with NumPy's own stable sort where orders coincide
                    if x.dtype.kind != "c":
                        assert np.array_equal(a, np.argsort(x, axis=axis, kind="stable"))
                i += 1
        np.savez_compressed(os.path.join(OUT, f"{dt}.npz"), **arrays)


if __name__ == "__main__":
    main()
