#!/usr/bin/env python3
"""Golden vectors for dev.cubed.nd.elementwise.Elementwise: feeds edge values and small random arrays of every
dtype the Array API standard (2025.12) defines each elementwise function for to NumPy and writes
inputs and outputs to cubed-core/src/test/resources/golden/elementwise/<function>.npz.

Inputs shared by several functions are stored once in _inputs.npz; a function's file holds its
outputs and the inputs that differ from the shared ones (a key is looked up in the function's file
first, then in _inputs.npz). Keys per case: <case>__x1, <case>__x2 (binary), <case>__x (unary), <case>__out; scalar cases store
the Java scalar as a 0-d array under <case>__s1 (scalar first) or <case>__s2 (scalar second).
Run from the repository root: python3 scripts/golden/elementwise.py
"""
import os
import zlib
import numpy as np

OUT = "cubed-core/src/test/resources/golden/elementwise"

BOOL = ["bool"]
INTS = ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"]
RF = ["float32", "float64"]
CF = ["complex64", "complex128"]
NUMERIC = INTS + RF + CF
REAL_NUMERIC = INTS + RF
FLOATING = RF + CF
ANY = BOOL + NUMERIC
# dtypes that also get the 0-d, empty and broadcasting cases (every dtype gets edge values)
SHAPE_DTYPES = ["float64", "int32", "complex128"]
# dtypes with hand-written same-shape loops in Java (they also get a same-shape case)
FAST_DTYPES = ["float32", "int64"]

# standard name -> (arity, dtypes the standard defines it for)
FUNCS = {
    "abs": (1, NUMERIC), "acos": (1, FLOATING), "acosh": (1, FLOATING), "add": (2, NUMERIC),
    "asin": (1, FLOATING), "asinh": (1, FLOATING), "atan": (1, FLOATING), "atan2": (2, RF),
    "atanh": (1, FLOATING), "bitwise_and": (2, BOOL + INTS), "bitwise_left_shift": (2, INTS),
    "bitwise_invert": (1, BOOL + INTS), "bitwise_or": (2, BOOL + INTS),
    "bitwise_right_shift": (2, INTS), "bitwise_xor": (2, BOOL + INTS), "ceil": (1, REAL_NUMERIC),
    "clip": (3, REAL_NUMERIC), "conj": (1, NUMERIC), "copysign": (2, RF), "cos": (1, FLOATING),
    "cosh": (1, FLOATING), "divide": (2, FLOATING), "equal": (2, ANY), "exp": (1, FLOATING),
    "expm1": (1, FLOATING), "floor": (1, REAL_NUMERIC), "floor_divide": (2, REAL_NUMERIC),
    "greater": (2, REAL_NUMERIC), "greater_equal": (2, REAL_NUMERIC), "hypot": (2, RF),
    "imag": (1, CF), "isfinite": (1, NUMERIC), "isinf": (1, NUMERIC), "isnan": (1, NUMERIC),
    "less": (2, REAL_NUMERIC), "less_equal": (2, REAL_NUMERIC), "log": (1, FLOATING),
    "log1p": (1, FLOATING), "log2": (1, FLOATING), "log10": (1, FLOATING),
    "logaddexp": (2, RF), "logical_and": (2, BOOL), "logical_not": (1, BOOL),
    "logical_or": (2, BOOL), "logical_xor": (2, BOOL), "maximum": (2, REAL_NUMERIC),
    "minimum": (2, REAL_NUMERIC), "multiply": (2, NUMERIC), "negative": (1, NUMERIC),
    "nextafter": (2, RF), "not_equal": (2, ANY), "positive": (1, NUMERIC), "pow": (2, NUMERIC),
    "real": (1, NUMERIC), "reciprocal": (1, FLOATING), "remainder": (2, REAL_NUMERIC),
    "round": (1, NUMERIC), "sign": (1, NUMERIC), "signbit": (1, RF), "sin": (1, FLOATING),
    "sinh": (1, FLOATING), "square": (1, NUMERIC), "sqrt": (1, FLOATING),
    "subtract": (2, NUMERIC), "tan": (1, FLOATING), "tanh": (1, FLOATING), "trunc": (1, REAL_NUMERIC),
}
NP = {"abs": np.abs, "acos": np.arccos, "acosh": np.arccosh, "asin": np.arcsin,
      "asinh": np.arcsinh, "atan": np.arctan, "atanh": np.arctanh, "atan2": np.arctan2,
      "bitwise_left_shift": np.left_shift, "bitwise_right_shift": np.right_shift,
      "bitwise_invert": np.invert, "pow": np.power, "divide": np.true_divide}

FLOAT_EDGE = [0.0, -0.0, 0.5, -0.5, 1.0, -1.0, 1.5, -2.5, 2.5, 3.75, -10.25, 100.0, 1e-7,
              0.999, 1.0000001, 3.0, -3.0, 1e10, -1e10, 1e300, 5e-310, np.inf, -np.inf, np.nan]
FLOAT_PAIR = [0.0, -0.0, 1.0, -1.0, 0.5, 2.5, -3.75, 7.0, 1e300, np.inf, -np.inf, np.nan]
# magnitudes across the range, for accuracy away from the edge values
WIDE = [1e-300, 1e-20, 1e-5, 0.1, 0.7, 0.9999, 1.25, 20.0, 88.5, 700.0, 710.0, 1e5, 1e20, 1e300]
WIDE = WIDE + [-v for v in WIDE]
CWIDE = [complex(a, b) for a in (1e-9, 0.3, -0.999, 1.01, -30.0, 1e8, 1e200)
         for b in (1e-9, -0.3, 1.01, 30.0, -1e8)]
CPART = [0.0, -0.0, 0.5, -1.5, 2.0, np.inf, -np.inf, np.nan]
CPAIR = [complex(a, b) for a in (0.0, 1.5, -2.0, np.inf, np.nan) for b in (0.0, -0.5, 2.0)]


def int_edge(dt):
    ii = np.iinfo(dt)
    vals = [0, 1, 2, 3, 7, 100, ii.max, ii.max - 1, ii.min]
    if ii.min < 0:
        vals += [-1, -2, -7, -100, ii.min + 1]
    return np.array(vals, dtype=object).astype(dt)


def edge(fn, dt):
    if dt == "bool":
        return np.array([True, False])
    if dt in INTS:
        return int_edge(dt)
    if dt in RF:
        with np.errstate(all="ignore"):
            return np.array(FLOAT_EDGE, dtype=dt)
    parts = CPART
    return np.array([complex(a, b) for a in parts for b in parts], dtype=dt)


def pair_values(fn, dt):
    if dt == "bool":
        return np.array([True, False])
    if dt in INTS:
        v = int_edge(dt)
        return v
    if dt in RF:
        with np.errstate(all="ignore"):
            return np.array(FLOAT_PAIR, dtype=dt)
    return np.array(CPAIR, dtype=dt)


def second_operand(fn, dt, v):
    """Second operand values: shift counts and non-negative integer exponents where needed."""
    if dt in INTS and fn in ("bitwise_left_shift", "bitwise_right_shift"):
        bits = np.iinfo(dt).bits
        return np.array([0, 1, 3, bits - 1, bits, bits + 3], dtype=dt)
    if dt in INTS and fn == "pow":
        return np.array([0, 1, 2, 3, 7, 63], dtype=dt) if np.iinfo(dt).bits > 8 else np.array([0, 1, 2, 3, 7], dtype=dt)
    return v


def rand(dt, shape, role="x"):
    """Random values, the same for every function (seeded by dtype, shape and role)."""
    rng = np.random.default_rng(zlib.crc32(f"{dt}{shape}{role}".encode()))
    if dt == "bool":
        return rng.random(shape) < 0.5
    if dt in INTS:
        ii = np.iinfo(dt)
        return rng.integers(max(ii.min, -50), min(ii.max, 50), size=shape, endpoint=True).astype(dt)
    if dt in RF:
        return (rng.standard_normal(shape) * 3).astype(dt)
    return (rng.standard_normal(shape) * 2 + 1j * rng.standard_normal(shape) * 2).astype(dt)


def npfn(fn):
    return NP.get(fn) or getattr(np, fn)


def compute(fn, *args):
    with np.errstate(all="ignore"):
        if fn == "clip":
            return np.clip(*args).astype(args[0].dtype)
        return npfn(fn)(*args)


def java_scalar(dt):
    """A Python scalar of each kind the dtype accepts (weak promotion)."""
    if dt == "bool":
        return [True]
    if dt in INTS:
        return [3] if np.iinfo(dt).min == 0 else [-3]
    if dt in RF:
        return [2.5]
    return [complex(1.5, -0.5)]


COLUMNS = BOOL + INTS + RF + CF
DOC = "docs/api/elementwise.md"


def camel(name):
    head, *rest = name.split("_")
    return head + "".join(p.capitalize() for p in rest)


def write_docs():
    """docs/api/elementwise.md: one row per function, a column per dtype (every cell is golden-tested
    when marked with a check mark)."""
    lines = [
        "# Elementwise functions",
        "",
        "Status of the Array API standard (2025.12) elementwise functions in `dev.cubed.nd.elementwise.Elementwise`",
        "(generated by `scripts/golden/elementwise.py`, which also writes the golden vectors).",
        "",
        "`✓` implemented and golden-tested against NumPy 2.4; `—` the standard does not define the",
        "function for that dtype. Every binary function also has overloads with a Java scalar as first",
        "or second operand (`add(NDArray, Object)`, `add(Object, NDArray)`), and `clip` takes arrays,",
        "scalars or null bounds.",
        "",
        "| standard name | Java name | " + " | ".join(COLUMNS) + " |",
        "|---|---|" + "---|" * len(COLUMNS),
    ]
    for fn in sorted(FUNCS):
        _, dts = FUNCS[fn]
        cells = ["✓" if d in dts else "—" for d in COLUMNS]
        lines.append(f"| {fn} | `{camel(fn)}` | " + " | ".join(cells) + " |")
    lines += [
        "",
        "## Notes",
        "",
        "- Beyond the standard, as NumPy does: functions defined only for floating dtypes (`sin`,",
        "  `divide`, `atan2`, ...) accept integer and bool arrays and promote them to float64 (NumPy",
        "  picks float16/float32 for small integers; there is no float16 here); `imag` of a real array",
        "  is zeros; `isnan`/`isinf`/`isfinite` accept bool. These are tested but not golden-tested.",
        "- Any other dtype throws `IllegalArgumentException` naming the function, the dtypes and the",
        "  rule; shapes that do not broadcast throw naming both shapes. `pow` of integers with a",
        "  negative exponent throws (NumPy raises too). An integer Java scalar outside the array's",
        "  integer dtype throws (NumPy 2 raises `OverflowError`).",
        "- Accuracy (see `ElementwiseGoldenTest`): integers, bools and IEEE-exact float operations",
        "  match exactly; other real functions within 4 ULP; complex functions within 8 ULP of the",
        "  larger part. float32/complex64 are computed in double and rounded once, except",
        "  `floor_divide`, `remainder`, `nextafter` and complex64 `log1p`, which repeat NumPy's float",
        "  arithmetic.",
        "- Special values (NaN, infinities, signed zeros) follow the standard / C99 Annex G as glibc and",
        "  NumPy implement them, including the cases C99 leaves unspecified (checked by the golden",
        "  vectors). Integer arithmetic wraps; integer `floor_divide`/`remainder` by zero give 0.",
    ]
    os.makedirs(os.path.dirname(DOC), exist_ok=True)
    with open(DOC, "w") as f:
        f.write("\n".join(lines) + "\n")


def same(a, b):
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


def main():
    os.makedirs(OUT, exist_ok=True)
    for old in os.listdir(OUT):
        os.remove(os.path.join(OUT, old))
    shared = {}
    for fn, (arity, dtypes) in FUNCS.items():
        cases = {}
        for dt in dtypes:
            if arity == 1:
                x = edge(fn, dt)
                cases[f"{dt}_edge"] = {"x": x}
                if dt in FLOATING:
                    cases[f"{dt}_rand"] = {"x": rand(dt, (2, 3))}
                    with np.errstate(all="ignore"):
                        cases[f"{dt}_wide"] = {"x": np.array(WIDE if dt in RF else CWIDE, dtype=dt)}
                if dt in SHAPE_DTYPES or dt == dtypes[0]:
                    cases[f"{dt}_0d"] = {"x": rand(dt, ())}
                    cases[f"{dt}_empty"] = {"x": rand(dt, (0, 3))}
            elif arity == 2:
                v = pair_values(fn, dt)
                w = second_operand(fn, dt, v)
                cases[f"{dt}_outer"] = {"x1": v.reshape(-1, 1), "x2": w.reshape(1, -1)}
                y = rand(dt, (2, 3, 4))[:, :, :2]
                if fn in ("bitwise_left_shift", "bitwise_right_shift", "pow") and dt in INTS:
                    y = np.abs(y.astype(np.int64) % 6).astype(dt)
                if dt in SHAPE_DTYPES or dt in FAST_DTYPES or dt == dtypes[0]:
                    cases[f"{dt}_same"] = {"x1": rand(dt, (2, 3, 2), "x1"), "x2": y}
                if dt in SHAPE_DTYPES or dt == dtypes[0]:
                    cases[f"{dt}_bcast"] = {"x1": rand(dt, (3, 1, 4), "x1"), "x2": y[0, :, :1].reshape(3, 1)}
                    cases[f"{dt}_0d"] = {"x1": rand(dt, (), "x1"), "x2": y[0, 0, 0].reshape(())}
                    cases[f"{dt}_empty"] = {"x1": rand(dt, (0, 2), "x1"), "x2": y[0, 0, :]}
                if fn not in ("bitwise_left_shift", "bitwise_right_shift"):
                    for k, s in enumerate(java_scalar(dt)):
                        if fn == "pow" and dt in INTS and s < 0:
                            continue
                        if fn in FUNCS and "bool" not in dtypes and isinstance(s, bool):
                            continue
                        if isinstance(s, complex) and dt not in FLOATING and fn not in ("equal", "not_equal", "add", "subtract", "multiply", "divide", "pow"):
                            continue
                        cases[f"{dt}_sr{k}"] = {"x1": v, "s2": s}
                        if dt in SHAPE_DTYPES or dt == dtypes[0]:
                            cases[f"{dt}_sl{k}"] = {"s1": s, "x2": w}
            else:  # clip
                x = rand(dt, (3, 4))
                if dt in RF:
                    x[0, 0] = np.nan
                lo = rand(dt, (4,))
                hi = (lo.astype(np.float64) + 5).astype(dt)
                cases[f"{dt}_arrays"] = {"x": x, "min": lo, "max": hi}
                cases[f"{dt}_nomax"] = {"x": x, "min": lo}
                cases[f"{dt}_nomin"] = {"x": x, "max": hi}
        if arity == 2:
            promo = {"add": [("int8", "uint8"), ("int32", "float32"), ("float32", "float64"),
                             ("complex64", "float64"), ("uint16", "int16"), ("bool", "int8")],
                     "less": [("int8", "uint8"), ("float32", "float64"), ("uint32", "int32")],
                     "multiply": [("int16", "uint32"), ("float32", "complex128")],
                     "equal": [("bool", "int32"), ("float64", "complex64")],
                     "divide": [("int32", "int32"), ("uint8", "int8")],
                     "atan2": [("int32", "int32")]}.get(fn, [])
            for a, b in promo:
                cases[f"promo_{a}_{b}"] = {"x1": rand(a, (2, 3), "x1"), "x2": rand(b, (3,), "x2")}
        data = {}
        for name, ins in cases.items():
            args = []
            for k in ("x", "x1", "s1", "x2", "s2"):
                if k in ins:
                    val = ins[k]
                    args.append(val)
                    data[f"{name}__{k}"] = np.asarray(val) if k.startswith("x") else np.asarray(val, dtype={bool: np.bool_, int: np.int64, float: np.float64, complex: np.complex128}[type(val)])
            if arity == 3:
                args = [ins["x"], ins.get("min"), ins.get("max")]
                for k in ("min", "max"):
                    if k in ins:
                        data[f"{name}__{k}"] = ins[k]
            data[f"{name}__out"] = np.asarray(compute(fn, *args))
        for key in [k for k in data if not k.endswith("__out")]:
            val = data[key]
            if key not in shared:
                shared[key] = val
            if same(shared[key], val):
                del data[key]
        np.savez_compressed(os.path.join(OUT, f"{fn}.npz"), **data)
    np.savez_compressed(os.path.join(OUT, "_inputs.npz"), **shared)
    total = sum(os.path.getsize(os.path.join(OUT, f)) for f in os.listdir(OUT))
    print(f"wrote {len(FUNCS)} files, {total} bytes")
    write_docs()


if __name__ == "__main__":
    main()
