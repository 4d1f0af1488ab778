"""Golden vectors for manipulation, indexing, creation and data-type functions.

Writes cubed-core/src/test/resources/golden/{manipulation,indexing,creation,data_types}/*.npz.
Each dtype file holds the inputs x (2, 3, 4), y (2, 3, 4), s (0-d), e (0, 3) and one output per
case, keyed by the case name (list results as name_0, name_1, ...). The Java tests hold the same
case table by name. Run from the repository root: python3 scripts/golden/manipulation.py
"""
import os
import warnings

import numpy as np

warnings.simplefilter("ignore", np.exceptions.ComplexWarning)

ROOT = os.path.join(os.path.dirname(__file__), "..", "..", "cubed-core", "src", "test",
                    "resources", "golden")
DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
          "float32", "float64", "complex64", "complex128"]


def sample(dt, seed, shape):
    rng = np.random.default_rng(seed)
    n = int(np.prod(shape))
    d = np.dtype(dt)
    if d == np.bool_:
        v = rng.integers(0, 2, n).astype(bool)
    elif d.kind in "iu":
        info = np.iinfo(d)
        v = rng.integers(info.min, info.max, n, dtype=d, endpoint=True)
        if n > 0:
            v[0] = info.min
        if n > 1:
            v[1] = info.max
    else:
        v = (rng.standard_normal(n) * 100).astype(d)
        if d.kind == "c":
            v = v + 1j * (rng.standard_normal(n) * 100).astype(d)
            v = v.astype(d)
        specials = [np.nan, np.inf, -np.inf, -0.0]
        for i, sp in enumerate(specials):
            if i + 2 < n:
                v[i + 2] = sp
    return v.reshape(shape)


def manipulation_cases(x, y, s, e):
    return {
        "concat_ax0": np.concatenate([x, y[:1]], axis=0),
        "concat_axm1": np.concatenate([x, y[..., :2]], axis=-1),
        "concat_none": np.concatenate([x, y[0]], axis=None),
        "concat_empty": np.concatenate([e, e, e[:, :]], axis=0),
        "concat_0d_none": np.concatenate([s, s], axis=None),
        "stack_0": np.stack([x, y], axis=0),
        "stack_m1": np.stack([x, y], axis=-1),
        "stack_0d": np.stack([s, s, s]),
        "stack_empty": np.stack([e, e], axis=1),
        "unstack_1": list(np.moveaxis(x, 1, 0)),
        "reshape": np.reshape(x, (4, -1)),
        "reshape_0d": np.reshape(s, (1, 1)),
        "reshape_empty": np.reshape(e, (3, 0, 5)),
        "permute": np.permute_dims(x, (2, 0, 1)),
        "moveaxis_1": np.moveaxis(x, 0, -1),
        "moveaxis_2": np.moveaxis(x, (0, 1), (2, 0)),
        "flip_all": np.flip(x),
        "flip_02": np.flip(x, axis=(0, 2)),
        "flip_0d": np.flip(s),
        "flip_empty": np.flip(e, axis=0),
        "roll_flat": np.roll(x, 5),
        "roll_axes": np.roll(x, (1, -2), axis=(0, 2)),
        "roll_repeat_axis": np.roll(x, (1, 2), axis=(1, 1)),
        "roll_0d": np.roll(s, 3),
        "roll_bcast_axis": np.roll(x, (1, 2), axis=0),
        "roll_bcast_shift": np.roll(x, -1, axis=(0, 2)),
        "squeeze": np.squeeze(x[:, :1, :], axis=1),
        "squeeze_0d": np.squeeze(s.reshape(1, 1), axis=(0, 1)),
        "expand": np.expand_dims(x, axis=(0, -1)),
        "expand_0d": np.expand_dims(s, axis=0),
        "repeat_scalar": np.repeat(x, 2, axis=1),
        "repeat_per": np.repeat(x, [1, 0, 2], axis=1),
        "repeat_flat": np.repeat(x, 2),
        "repeat_empty": np.repeat(e, 2, axis=1),
        "tile_4": np.tile(x, (2, 1, 1, 2)),
        "tile_1": np.tile(x, (2,)),
        "tile_0d": np.tile(s, (2, 3)),
        "broadcast_to": np.broadcast_to(x[:, :1, :], (2, 2, 3, 4)).copy(),
        "broadcast_to_0d": np.broadcast_to(s, (2, 3)).copy(),
        "broadcast_arrays": [a.copy() for a in np.broadcast_arrays(x[:, :1, :], y[0, :, :1], s)],
    }


def indexing_cases(x, y, s, e):
    out = {
        "get_1": x[1],
        "get_int3": x[1, 2, 3],
        "get_slices": x[:, ::-2, 1:3],
        "get_newaxis_ellipsis": x[..., None, -1],
        "get_mixed": x[None, 0, ..., ::3],
        "get_neg_steps": x[-1:-3:-1, 5:0:-2],
        "get_empty": x[:, 10:20],
        "get_0d_ellipsis": s[...],
        "get_0d_newaxis": s[None],
        "take_1": np.take(x, [2, -1, 0, 0], axis=1),
        "take_2d": np.take(x, np.array([[0, 1], [1, 0]], dtype=np.int32), axis=0),
        "take_empty": np.take(x, np.array([], dtype=np.int64), axis=2),
        "take_along_1": np.take_along_axis(x, np.array([[[2, 0, 1, 1]], [[0, 0, 2, -1]]]), axis=1),
        "take_along_2": np.take_along_axis(x, np.array([[[3, 0]], [[1, 1]]]), axis=2),
        "mask_full": x[x_mask_full()],
        "mask_lead": x[x_mask_lead()],
        "mask_0d": s[np.bool_(True)],
    }
    a = x.copy()
    a[:, ::-2] = y[0, :2, :]
    out["set_slices"] = a
    a = x.copy()
    a[1, ..., None, 2] = y[0, 0, 0]
    out["set_scalar_from_array"] = a
    a = x.copy()
    a[x_mask_lead()] = y[1, 1]
    out["set_mask"] = a
    a = x.copy()
    a[x_mask_full()] = y[x_mask_full()]
    out["set_mask_full"] = a
    return out


def x_mask_full():
    return (np.arange(24).reshape(2, 3, 4) % 3) == 1


def x_mask_lead():
    return np.array([[True, False, True], [False, False, True]])


def creation_cases(x, y, s, e):
    return {
        "tril_0": np.tril(x),
        "tril_m1": np.tril(x, k=-1),
        "tril_2": np.tril(x, k=2),
        "triu_0": np.triu(x),
        "triu_1": np.triu(x, k=1),
        "triu_m2": np.triu(x, k=-2),
        "meshgrid_xy": [a.copy() for a in np.meshgrid(x[0, 0], y[1, :, 0], x[1, 1, :2], indexing="xy")],
        "meshgrid_ij": [a.copy() for a in np.meshgrid(x[0, 0], y[1, :, 0], indexing="ij")],
        "zeros_like": np.zeros_like(x),
        "ones_like": np.ones_like(x),
        "full_like": np.full_like(x, 1),
        "eye_3_4_1": np.eye(3, 4, k=1, dtype=x.dtype),
        "eye_4_2_m1": np.eye(4, 2, k=-1, dtype=x.dtype),
        "full_7": np.full((2, 2), 7, dtype=x.dtype),
        "ones_empty": np.ones((0, 2), dtype=x.dtype),
        "zeros_23": np.zeros((2, 3), dtype=x.dtype),
        "astype": [astype_source(src).astype(x.dtype) for src in DTYPES],
    }


def astype_source(src):
    """A sample of dtype src whose conversion to every dtype is well defined in C (floats going
    to integers stay within [0, 100))."""
    d = np.dtype(src)
    if d.kind in "fc":
        v = np.array([0.0, -0.0, 1.5, 99.9, 0.25, 42.0, 7.75, 63.0], dtype=d)
        if d.kind == "c":
            v = (v + 1j * np.array([1, -2, 0.5, 0, 3, -0.0, 9, 1])).astype(d)
        return v
    return sample(src, 9, (8,))


def ranges():
    out = {}
    # arange(start, stop, step, dtype)
    aranges = {
        "arange_f64_a": (0.0, 1.0, 0.1, "float64"),
        "arange_f64_b": (-3.3, 7.1, 0.7, "float64"),
        "arange_f64_c": (10.0, -2.0, -0.3, "float64"),
        "arange_f64_d": (1e16, 1e16 + 40, 3.0, "float64"),
        "arange_f32_a": (0.0, 1.0, 0.1, "float32"),
        "arange_f32_b": (-3.3, 7.1, 0.7, "float32"),
        "arange_i64_a": (0.0, 5.0, 1.5, "int64"),
        "arange_i32_a": (-7.0, 9.0, 2.0, "int32"),
        "arange_u8_a": (250.0, 262.0, 1.0, "uint8"),
        "arange_i8_a": (5.0, -5.0, -3.0, "int8"),
        "arange_empty": (5.0, 1.0, 1.0, "float64"),
        "arange_i16_a": (-300.0, 300.0, 37.0, "int16"),
        "arange_u16_a": (100.0, 65535.0, 9000.0, "uint16"),
        "arange_u32_a": (4.0e9, 4.2e9, 3.0e7, "uint32"),
        "arange_u64_a": (3.0, 100.0, 7.0, "uint64"),
    }
    for k, (a, b, c, d) in aranges.items():
        out[k] = np.arange(a, b, c, dtype=d)
    for src in DTYPES:
        out["astype_src_" + src] = astype_source(src)
    out["arange_int_10"] = np.arange(10)
    out["arange_int_neg"] = np.arange(10, -7, -3)
    lin = {
        "linspace_f64_a": (0.0, 1.0, 11, "float64", True),
        "linspace_f64_b": (-2.5, 7.3, 9, "float64", False),
        "linspace_f64_c": (1e-300, 3e-300, 5, "float64", True),
        "linspace_f64_one": (3.0, 5.0, 1, "float64", True),
        "linspace_f64_zero": (3.0, 5.0, 0, "float64", True),
        "linspace_f32_a": (0.1, 0.9, 13, "float32", True),
        "linspace_f32_b": (-1.0, 1.0, 7, "float32", False),
        "linspace_c128_a": (1 + 2j, -3 + 0.5j, 7, "complex128", True),
        "linspace_c64_a": (0.3 - 1j, 2.2 + 3j, 6, "complex64", False),
        "linspace_c128_real": (0.0, 1.0, 11, "complex128", True),
    }
    for k, (a, b, n, d, ep) in lin.items():
        out[k] = np.linspace(a, b, n, dtype=d, endpoint=ep)
    return out


def data_types():
    kinds = ["bool", "signed integer", "unsigned integer", "integral", "real floating",
             "complex floating", "numeric"]
    n = len(DTYPES)
    can = np.zeros((n, n), dtype=bool)
    res = np.zeros((n, n), dtype=np.int8)
    isd = np.zeros((n, len(kinds)), dtype=bool)
    for i, a in enumerate(DTYPES):
        for j, b in enumerate(DTYPES):
            can[i, j] = np.can_cast(a, b)
            res[i, j] = DTYPES.index(np.result_type(a, b).name)
        for j, k in enumerate(kinds):
            isd[i, j] = np.isdtype(np.dtype(a), k)
    finfo = np.array([[float(np.finfo(t).eps), float(np.finfo(t).max), float(np.finfo(t).min),
                       float(np.finfo(t).smallest_normal), np.finfo(t).bits]
                      for t in ["float32", "float64", "complex64", "complex128"]])
    ints = [t for t in DTYPES if np.dtype(t).kind in "iu"]
    imin = np.array([np.iinfo(t).min for t in ints], dtype=np.int64)
    imax = np.array([np.iinfo(t).max for t in ints], dtype=np.uint64)
    ibits = np.array([np.iinfo(t).bits for t in ints], dtype=np.int32)
    return {"can_cast": can, "result_type": res, "isdtype": isd, "finfo": finfo,
            "iinfo_min": imin, "iinfo_max": imax, "iinfo_bits": ibits}


def flatten(cases):
    out = {}
    for k, v in cases.items():
        if isinstance(v, list):
            for i, a in enumerate(v):
                out[f"{k}_{i}"] = np.asarray(a)
        else:
            out[k] = np.asarray(v)
    return out


def main():
    for area in ["manipulation", "indexing", "creation", "data_types"]:
        os.makedirs(os.path.join(ROOT, area), exist_ok=True)
    for dt in DTYPES:
        x = sample(dt, 1, (2, 3, 4))
        y = sample(dt, 2, (2, 3, 4))
        s = sample(dt, 3, (1,)).reshape(())
        e = sample(dt, 4, (0, 3))
        inputs = {"x": x, "y": y, "s": s, "e": e}
        for area, fn in [("manipulation", manipulation_cases), ("indexing", indexing_cases),
                         ("creation", creation_cases)]:
            data = dict(inputs)
            data.update(flatten(fn(x, y, s, e)))
            np.savez_compressed(os.path.join(ROOT, area, dt + ".npz"), **data)
    # mixed-dtype concat/stack: promotion
    mixed = {}
    for i, a in enumerate(DTYPES):
        for b in DTYPES[i:]:
            xa = sample(a, 5, (2, 2))
            xb = sample(b, 6, (1, 2))
            mixed[f"{a}__{b}__a"] = xa
            mixed[f"{a}__{b}__b"] = xb
            mixed[f"{a}__{b}__concat"] = np.concatenate([xa, xb], axis=0)
    np.savez_compressed(os.path.join(ROOT, "manipulation", "mixed.npz"), **mixed)
    np.savez_compressed(os.path.join(ROOT, "creation", "ranges.npz"), **ranges())
    np.savez_compressed(os.path.join(ROOT, "data_types", "tables.npz"), **data_types())


if __name__ == "__main__":
    main()
