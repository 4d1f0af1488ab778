"""Reads the Zarr v2 arrays a Java test wrote and compares each with its .npy (NaN-aware).

Usage: check_v2.py DIR. DIR/cases.txt lists one case per line: "<zarr path> <npy file> [dims]".
Prints "OK <path>" per case; exits non-zero on the first mismatch.
"""
import sys
import os
import numpy as np
import zarr

root = sys.argv[1]
store = zarr.DirectoryStore(os.path.join(root, "data.zarr"))
g = zarr.open_group(store, mode="r")
assert g.attrs["title"] == "interop", dict(g.attrs)
for line in open(os.path.join(root, "cases.txt")):
    parts = line.split()
    if not parts:
        continue
    path, npy = parts[0], parts[1]
    a = zarr.open_array(store, path=path, mode="r")
    expected = np.load(os.path.join(root, npy))
    got = a[...]
    # our big-endian arrays come back as '>f8' etc.: compare kind and size, then values
    assert got.dtype.newbyteorder("=") == expected.dtype.newbyteorder("="), (
        path, got.dtype, expected.dtype)
    assert str(a.dtype) == str(got.dtype)
    assert got.shape == expected.shape, (path, got.shape, expected.shape)
    if got.dtype.kind in "fc":
        ok = np.array_equal(got, expected, equal_nan=True)
    else:
        ok = np.array_equal(got, expected)
    assert ok, (path, got, expected)
    if len(parts) > 2:
        assert a.attrs["_ARRAY_DIMENSIONS"] == parts[2].split(","), dict(a.attrs)
    print("OK", path)
