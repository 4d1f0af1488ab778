#!/usr/bin/env python3
"""Golden vectors for dev.cubed.nd.linalg.Linalg (the Array API linalg extension).

Writes cubed-core/src/test/resources/golden/linalg/<function>.npz. Each file holds cases named
"<case>__<field>": inputs (x, x1, x2, parameters) and NumPy's outputs. Matrices are small and well
conditioned (random + a diagonal shift; Hermitian positive-definite ones as B B^H + n I), so the
results are insensitive to rounding and a normwise tolerance is meaningful. For decompositions
that are not unique (eigenvectors, SVD, QR) only the unique parts are stored (eigenvalues, singular
values, |diag R|); the Java tests check the defining properties for the rest.
Run from the repository root: python3 scripts/golden/linalg.py
"""
import os
import numpy as np

OUT = os.path.join("cubed-core", "src", "test", "resources", "golden", "linalg")
rng = np.random.default_rng(20261122)
FLOATS = ["float32", "float64", "complex64", "complex128"]
files = {}


def put(fn, case, **arrays):
    d = files.setdefault(fn, {})
    for k, v in arrays.items():
        d[case + "__" + k] = np.asarray(v)


def rand(shape, dtype):
    dt = np.dtype(dtype)
    a = rng.standard_normal(shape)
    if dt.kind == "c":
        a = a + 1j * rng.standard_normal(shape)
    return a.astype(dt)


def general(shape, dtype):
    """Well-conditioned square matrices: random + 3 n I."""
    n = shape[-1]
    a = rand(shape, "complex128" if np.dtype(dtype).kind == "c" else "float64")
    a = a + 3 * n * np.eye(n) if n else a
    return a.astype(dtype)


def hpd(shape, dtype):
    n = shape[-1]
    b = rand(shape, "complex128" if np.dtype(dtype).kind == "c" else "float64")
    a = b @ np.conj(np.swapaxes(b, -1, -2)) + n * np.eye(n)
    return a.astype(dtype)


SQUARE = [(3, 3), (1, 1), (2, 4, 4), (2, 1, 2, 2), (0, 3, 3), (5, 5)]
RECT = [(4, 3), (3, 5), (2, 3, 2), (1, 2, 4), (0, 2, 3), (3, 3)]

for dt in FLOATS:
    for shape in SQUARE:
        case = dt + "_" + "x".join(map(str, shape))
        x = general(shape, dt)
        put("det", case, x=x, out=np.linalg.det(x))
        s = np.linalg.slogdet(x)
        put("slogdet", case, x=x, sign=s.sign, logabsdet=s.logabsdet)
        put("inv", case, x=x, out=np.linalg.inv(x))
        h = hpd(shape, dt)
        put("cholesky", case, x=h, out=np.linalg.cholesky(h), upper=np.linalg.cholesky(h, upper=True))
        put("eigh", case, x=h, w=np.linalg.eigvalsh(h))
        # a general Hermitian matrix (indefinite) too
        g = rand(shape, dt)
        g = (g + np.conj(np.swapaxes(g, -1, -2))) / 2
        put("eigh", case + "_indef", x=g, w=np.linalg.eigvalsh(g))
        put("matrix_power", case, x=x, **{"out_p" + str(n).replace("-", "m"):
            np.linalg.matrix_power(x, n) for n in [0, 1, 2, 3, -1, -2]})
        # solve: stacked right-hand sides and a vector right-hand side
        b = rand(shape[:-1] + (2,), dt)
        put("solve", case + "_mat", x1=x, x2=b, out=np.linalg.solve(x, b))
        v = rand(shape[-1:], dt)
        put("solve", case + "_vec", x1=x, x2=v, out=np.linalg.solve(x, v))
    for shape in RECT:
        case = dt + "_" + "x".join(map(str, shape))
        x = rand(shape, dt)
        put("svd", case, x=x, s=np.linalg.svd(x, compute_uv=False))
        r = np.linalg.qr(x, mode="r") if x.size else np.zeros(x.shape[:-2] + (0, x.shape[-1]), dt)
        k = min(shape[-2:])
        put("qr", case, x=x, absdiag=np.abs(np.diagonal(np.linalg.qr(x).R, axis1=-2, axis2=-1)))
        put("pinv", case, x=x, out=np.linalg.pinv(x, rtol=None) if x.size else np.linalg.pinv(x))
        put("matrix_rank", case, x=x, out=np.linalg.matrix_rank(x, rtol=None))
        put("matrix_norm", case, x=x, **{"out_" + name: np.linalg.matrix_norm(x, ord=o)
            for name, o in [("fro", "fro"), ("nuc", "nuc"), ("1", 1), ("m1", -1), ("2", 2),
                            ("m2", -2), ("inf", np.inf), ("minf", -np.inf)]
            if x.size or name in ("fro", "nuc")})
        # rank-deficient: last column = first column (exact)
        if x.size and shape[-1] >= 2:
            y = x.copy()
            y[..., -1] = y[..., 0]
            put("matrix_rank", case + "_deficient", x=y, out=np.linalg.matrix_rank(y, rtol=None))
            put("svd", case + "_deficient", x=y, s=np.linalg.svd(y, compute_uv=False))
    # solve with broadcasting batch dimensions
    a = general((2, 1, 3, 3), dt)
    b = rand((4, 3, 1), dt)
    put("solve", dt + "_bcast", x1=a, x2=b, out=np.linalg.solve(a, b))

# explicit rtol (scalar and per-matrix array) for matrix_rank and pinv: singular values 1, 1e-3, 1e-6
for dt in FLOATS:
    q1, _ = np.linalg.qr(rand((2, 3, 3), "complex128" if dt.startswith("c") else "float64"))
    q2, _ = np.linalg.qr(rand((2, 3, 3), "complex128" if dt.startswith("c") else "float64"))
    x = (q1 * np.array([1.0, 1e-3, 1e-6])[None, None, :] @ q2).astype(dt)
    for name, rt in [("s", np.float64(1e-4)), ("a", np.array([1e-2, 1e-8]))]:
        if dt in ("float32", "complex64") and name == "a":
            rt = np.array([1e-2, 1e-5])  # 1e-6 is below float32 resolution: keep the cut clear of it
        put("matrix_rank", dt + "_rtol_" + name, x=x, rtol=rt, out=np.linalg.matrix_rank(x, rtol=rt))
        put("pinv", dt + "_rtol_" + name, x=x, rtol=rt, out=np.linalg.pinv(x, rtol=rt))

# integer inputs to float-only functions promote to float64
for it in ["int32", "int64", "int8"]:
    x = np.array([[4, 1, 2], [1, 5, 1], [2, 1, 6]], dtype=it)
    put("det", it, x=x, out=np.linalg.det(x))
    put("inv", it, x=x, out=np.linalg.inv(x))
    put("cholesky", it, x=x, out=np.linalg.cholesky(x), upper=np.linalg.cholesky(x, upper=True))
    put("eigh", it, x=x, w=np.linalg.eigvalsh(x))
    put("solve", it + "_vec", x1=x, x2=np.array([1, 2, 3], dtype=it),
        out=np.linalg.solve(x, np.array([1, 2, 3], dtype=it)))
    put("svd", it, x=x, s=np.linalg.svd(x, compute_uv=False))
    put("matrix_norm", it, x=x, out_fro=np.linalg.matrix_norm(x))

# matrix_power on integers: exact, wraps like NumPy; negative power goes through float64
INTS = ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"]
for it in INTS:
    x = np.array([[[1, 2], [3, 4]], [[2, 0], [1, 1]]], dtype=it)
    put("matrix_power", it, x=x, **{"out_p" + str(n): np.linalg.matrix_power(x, n)
                                    for n in [0, 1, 2, 5, 9]})
x = np.array([[2, 1], [1, 1]], dtype="int64")
put("matrix_power", "int64_neg", x=x, out_pm2=np.linalg.matrix_power(x, -2))

# trace, diagonal: every numeric dtype, several offsets
ALL_NUM = INTS + FLOATS
for dt in ALL_NUM + ["bool"]:
    for shape in [(3, 4), (2, 3, 3), (0, 2, 2)]:
        if dt == "bool":
            x = rng.integers(0, 2, shape).astype(bool)
        elif np.dtype(dt).kind in "iu":
            info = np.iinfo(dt)
            x = rng.integers(info.min, info.max, shape, dtype=dt, endpoint=True)
        else:
            x = rand(shape, dt)
        case = dt + "_" + "x".join(map(str, shape))
        outs = {}
        for off in [0, 1, -1, 5]:
            o = str(off).replace("-", "m")
            outs["diag_o" + o] = np.linalg.diagonal(x, offset=off)
            if dt != "bool":
                outs["trace_o" + o] = np.linalg.trace(x, offset=off)
        put("diagonal", case, x=x, **outs)

# cross: numeric dtypes, broadcasting, axis
for dt in ALL_NUM:
    def vec(shape):
        if np.dtype(dt).kind in "iu":
            info = np.iinfo(dt)
            return rng.integers(info.min, info.max, shape, dtype=dt, endpoint=True)
        return rand(shape, dt)
    for s1, s2, ax in [((3,), (3,), -1), ((4, 3), (3,), -1), ((2, 1, 3), (5, 3), -1),
                       ((3, 4), (3, 4), -2), ((2, 3, 2), (3, 1), -2), ((0, 3), (3,), -1)]:
        x1, x2 = vec(s1), vec(s2)
        case = dt + "_" + "x".join(map(str, s1)) + "_" + "x".join(map(str, s2)) + "_a" + str(-ax)
        put("cross", case, x1=x1, x2=x2, out=np.linalg.cross(x1, x2, axis=ax))  # axis: -<a..>

ORDS = [("2", 2), ("1", 1), ("0", 0), ("inf", np.inf), ("minf", -np.inf), ("3", 3),
        ("0p5", 0.5), ("m1", -1), ("m2p5", -2.5)]
# vector_norm: float dtypes, ords, axes, keepdims; integers promote to float64
for dt in FLOATS + ["int64", "int16", "uint8"]:
    base = rand((2, 3, 4), dt) if np.dtype(dt).kind in "fc" else rng.integers(0, 50, (2, 3, 4)).astype(dt)
    special = rand((6,), dt) if np.dtype(dt).kind in "fc" else np.arange(6).astype(dt)
    if np.dtype(dt).kind in "fc":
        special[1] = 0
        special[2] = -0.0
    cases = [(base, None), (base, (1,)), (base, (0, 2)), (base, (-1,)), (special, None),
             (np.zeros((2, 0), dt), (1,))]
    for ci, (x, axes) in enumerate(cases):
        fields = dict(x=x)
        if axes is not None:
            fields["axes"] = np.array(axes, dtype=np.int64)
        for oname, o in ORDS:
            if x.size == 0 and np.isinf(o):
                continue
            keep = ci % 2 == 1
            with np.errstate(divide="ignore"):
                fields["out_" + oname + ("_k" if keep else "_d")] = np.linalg.vector_norm(
                    x, axis=axes, ord=o, keepdims=keep)
        put("vector_norm", f"{dt}_c{ci}", **fields)
# NaN and inf propagate
for name, x in [("nan", np.array([1.0, np.nan, 2.0, np.inf])), ("inf", np.array([1.0, np.inf, -2.0]))]:
    put("vector_norm", "float64_" + name, x=x, **{"out_" + oname + "_d": np.linalg.vector_norm(x, ord=o)
                                                   for oname, o in ORDS})

os.makedirs(OUT, exist_ok=True)
for fn, d in files.items():
    np.savez_compressed(os.path.join(OUT, fn + ".npz"), **d)
    print(fn, len(d))
