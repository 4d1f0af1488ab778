"""Golden vectors for unique_all/unique_counts/unique_inverse/unique_values and isin
-> golden/sets/<dtype>.npz (+ isin_mixed.npz).

Unique: np.unique(x, return_index, return_inverse, return_counts, equal_nan=False), i.e. sorted
values with each NaN distinct (NumPy 2's unique_* may return values unsorted; the library sorts).
Keys u{i}_x, u{i}_values, u{i}_indices, u{i}_inverse (shape of x), u{i}_counts;
isin: i{i}_x1, i{i}_x2, i{i}_in, i{i}_notin.
"""
import os
import numpy as np

OUT = os.path.join(os.path.dirname(__file__), "..", "..", "cubed-core", "src", "test", "resources",
                   "golden", "sets")
rng = np.random.default_rng(99)
DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
          "float32", "float64", "complex64", "complex128"]


def sample(dt, shape):
    dt = np.dtype(dt)
    n = int(np.prod(shape))
    if dt.kind == "b":
        return rng.integers(0, 2, shape).astype(bool)
    if dt.kind in "iu":
        v = rng.integers(-3, 4, n) if dt.kind == "i" else rng.integers(0, 6, n)
        v = v.astype(dt)
        if n >= 4:
            info = np.iinfo(dt)
            v[0], v[1] = info.max, info.min
        return v.reshape(shape)
    v = rng.integers(-2, 3, n).astype(np.float64) * 0.5
    if n >= 8:
        v[0] = np.nan
        v[1] = -0.0
        v[2] = 0.0
        v[3] = np.inf
        v[4] = np.nan
        v[5] = -np.inf
    if dt.kind == "c":
        w = rng.integers(-1, 2, n).astype(np.float64)
        if n >= 8:
            w[6] = np.nan
        return (v + 1j * w).astype(dt).reshape(shape)
    return v.astype(dt).reshape(shape)


def main():
    os.makedirs(OUT, exist_ok=True)
    for dt in DTYPES:
        a = {}
        shapes = [(), (0,), (1,), (12,), (3, 5), (2, 0, 3), (2, 3, 4)]
        for i, s in enumerate(shapes):
            x = sample(dt, s)
            vals, idx, inv, cnt = np.unique(x, return_index=True, return_inverse=True,
                                            return_counts=True, equal_nan=False)
            a[f"u{i}_x"] = x
            a[f"u{i}_values"] = vals
            a[f"u{i}_indices"] = idx.astype(np.int64)
            a[f"u{i}_inverse"] = inv.reshape(x.shape).astype(np.int64)
            a[f"u{i}_counts"] = cnt.astype(np.int64)
            ua = np.unique_all(x)  # cross-check NumPy 2 semantics where it sorts
            assert np.array_equal(np.sort(ua.values), vals, equal_nan=True)
        for i, (s1, s2) in enumerate([((12,), (5,)), ((3, 4), (2, 3)), ((), (4,)), ((4,), (0,)),
                                      ((0,), (3,))]):
            x1, x2 = sample(dt, s1), sample(dt, s2)
            a[f"i{i}_x1"], a[f"i{i}_x2"] = x1, x2
            a[f"i{i}_in"] = np.isin(x1, x2)
            a[f"i{i}_notin"] = np.isin(x1, x2, invert=True)
        np.savez_compressed(os.path.join(OUT, f"{dt}.npz"), **a)
    a = {}
    pairs = [("int8", "int64"), ("uint8", "int8"), ("int32", "float32"), ("float32", "float64"),
             ("bool", "int16"), ("float64", "complex128"), ("uint16", "uint64")]
    for i, (d1, d2) in enumerate(pairs):
        x1, x2 = sample(d1, (10,)), sample(d2, (9,))
        a[f"i{i}_x1"], a[f"i{i}_x2"] = x1, x2
        a[f"i{i}_in"] = np.isin(x1, x2)
        a[f"i{i}_notin"] = np.isin(x1, x2, invert=True)
    np.savez_compressed(os.path.join(OUT, "isin_mixed.npz"), **a)


if __name__ == "__main__":
    main()
