"""Golden vectors for matmul, tensordot, vecdot, matrix_transpose, outer
-> golden/linear_algebra/<dtype>.npz (and mixed.npz for promoted pairs).

Keys: mm{i}_x1/_x2/_out (+ _bound for floats), td{i}_x1/_x2/_axes1/_axes2/_out, vd{i}_x1/_x2/_axis/_out,
mt{i}_x/_out, ou{i}_x1/_x2/_out.

Float products: most cases use small integer values, so every product and partial sum is exact
and the result must match exactly. Cases with random normal values store _bound, an elementwise
bound on the rounding error of any summation order: gamma_k * (|x1| @ |x2|) with
gamma_k = k * eps / (1 - k * eps) (Higham, Accuracy and Stability, Thm 3.5, for dot products of
length k), doubled to cover complex multiplication.
"""
import os
import numpy as np

OUT = os.path.join(os.path.dirname(__file__), "..", "..", "cubed-core", "src", "test", "resources",
                   "golden", "linear_algebra")
rng = np.random.default_rng(77)
NUMERIC = ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
           "float32", "float64", "complex64", "complex128"]


def ints(dt, shape):
    dt = np.dtype(dt)
    lo = 0 if dt.kind == "u" else -3
    v = rng.integers(lo, 4, shape)
    if dt.kind == "c":
        return (v + 1j * rng.integers(-3, 4, shape)).astype(dt)
    return v.astype(dt)


def normal(dt, shape):
    dt = np.dtype(dt)
    v = rng.standard_normal(shape)
    if dt.kind == "c":
        v = v + 1j * rng.standard_normal(shape)
    return v.astype(dt)


def bound(x1, x2, k):
    eps = np.finfo(x1.dtype).eps
    g = k * eps / (1 - k * eps)
    return (2 * g * (np.abs(x1).astype(np.float64) @ np.abs(x2).astype(np.float64))).astype(np.float64)


def main():
    os.makedirs(OUT, exist_ok=True)
    for dt in NUMERIC + ["bool"]:
        a = {}
        if dt != "bool":
            mm = [((3, 4), (4, 5)), ((4,), (4, 3)), ((3, 4), (4,)), ((5,), (5,)),
                  ((2, 1, 3, 4), (3, 4, 2)), ((2, 3, 4), (4,)), ((0, 3), (3, 2)), ((2, 0), (0, 3)),
                  ((1, 1), (1, 1)), ((2, 2, 0, 3), (3, 5))]
            for i, (s1, s2) in enumerate(mm):
                x1, x2 = ints(dt, s1), ints(dt, s2)
                a[f"mm{i}_x1"], a[f"mm{i}_x2"], a[f"mm{i}_out"] = x1, x2, np.matmul(x1, x2)
            i = len(mm)
            if np.dtype(dt).kind in "iu":
                # wrapping overflow
                info = np.iinfo(dt)
                x1 = np.full((2, 3), info.max, dt)
                x2 = np.full((3, 2), info.max // 2 + 1, dt)
                a[f"mm{i}_x1"], a[f"mm{i}_x2"], a[f"mm{i}_out"] = x1, x2, np.matmul(x1, x2)
            if np.dtype(dt).kind in "fc":
                for s1, s2 in [((7, 33), (33, 6)), ((3, 5, 17), (3, 17, 4))]:
                    x1, x2 = normal(dt, s1), normal(dt, s2)
                    a[f"mm{i}_x1"], a[f"mm{i}_x2"], a[f"mm{i}_out"] = x1, x2, np.matmul(x1, x2)
                    a[f"mm{i}_bound"] = bound(x1, x2, s1[-1])
                    i += 1
            if np.dtype(dt).kind == "f":
                # NaN/inf propagation (real only: complex inf products are implementation-defined)
                x1 = np.array([[np.nan, 1.0], [np.inf, 2.0]], dt)
                x2 = np.array([[1.0, 0.0], [2.0, 3.0]], dt)
                a[f"mm{i}_x1"], a[f"mm{i}_x2"], a[f"mm{i}_out"] = x1, x2, np.matmul(x1, x2)
            td = [((2, 3, 4), (3, 4, 5), 2), ((3, 4), (4, 2), 1), ((2, 3), (4,), 0),
                  ((2, 3, 4), (4, 5, 3), ([1, 2], [2, 0])), ((3, 0), (0, 2), 1), ((3,), (3,), 1),
                  ((2, 3), (3, 2), ([-1, 0], [0, -1]))]
            for i, (s1, s2, ax) in enumerate(td):
                x1, x2 = ints(dt, s1), ints(dt, s2)
                if isinstance(ax, int):
                    ax1 = list(range(len(s1) - ax, len(s1)))
                    ax2 = list(range(ax))
                else:
                    ax1, ax2 = ax
                a[f"td{i}_x1"], a[f"td{i}_x2"] = x1, x2
                a[f"td{i}_axes1"] = np.array(ax1, np.int64)
                a[f"td{i}_axes2"] = np.array(ax2, np.int64)
                a[f"td{i}_out"] = np.tensordot(x1, x2, axes=(ax1, ax2))
            vd = [((3, 4), (4,), -1), ((2, 3), (2, 3), 0), ((2, 1, 5), (3, 5), -1), ((4,), (4,), 0),
                  ((0, 3), (3,), -1), ((2, 3), (1, 3), -2 + 1)]
            for i, (s1, s2, ax) in enumerate(vd):
                x1, x2 = ints(dt, s1), ints(dt, s2)
                a[f"vd{i}_x1"], a[f"vd{i}_x2"] = x1, x2
                a[f"vd{i}_axis"] = np.array(ax, np.int64)
                a[f"vd{i}_out"] = np.asarray(np.vecdot(x1, x2, axis=ax))
            for i, (s1, s2) in enumerate([((4,), (3,)), ((0,), (2,)), ((1,), (1,))]):
                x1, x2 = ints(dt, s1), ints(dt, s2)
                a[f"ou{i}_x1"], a[f"ou{i}_x2"], a[f"ou{i}_out"] = x1, x2, np.outer(x1, x2)
        for i, s in enumerate([(2, 3), (4, 2, 3), (0, 2), (2, 1, 1, 5)]):
            x = ints(dt, s) if dt != "bool" else rng.integers(0, 2, s).astype(bool)
            a[f"mt{i}_x"], a[f"mt{i}_out"] = x, np.ascontiguousarray(np.matrix_transpose(x))
        np.savez_compressed(os.path.join(OUT, f"{dt}.npz"), **a)
    # mixed dtypes: promotion
    a = {}
    pairs = [("int8", "int16"), ("uint8", "int8"), ("int32", "float32"), ("float32", "float64"),
             ("float32", "complex64"), ("float64", "complex64"), ("uint32", "int64"),
             ("int64", "uint64")]
    for i, (d1, d2) in enumerate(pairs):
        x1, x2 = ints(d1, (2, 3)), ints(d2, (3, 2))
        a[f"mm{i}_x1"], a[f"mm{i}_x2"], a[f"mm{i}_out"] = x1, x2, np.matmul(x1, x2)
        v1, v2 = ints(d1, (2, 3)), ints(d2, (3,))
        a[f"vd{i}_x1"], a[f"vd{i}_x2"] = v1, v2
        a[f"vd{i}_axis"] = np.array(-1, np.int64)
        a[f"vd{i}_out"] = np.vecdot(v1, v2)
    np.savez_compressed(os.path.join(OUT, "mixed.npz"), **a)


if __name__ == "__main__":
    main()
