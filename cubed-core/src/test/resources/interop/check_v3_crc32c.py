"""Reads a Zarr v3 array with a crc32c codec that a Java test wrote and compares it with its .npy.

Usage: check_v3_crc32c.py ZARR NPY. Prints "OK" and exits 0 if zarr-python reads the same values
and lists the crc32c codec; exits non-zero otherwise.
"""
import sys
import numpy as np
import zarr

a = zarr.open_array(sys.argv[1], mode="r")
expected = np.load(sys.argv[2])
names = [type(c).__name__.lower() for c in a.metadata.codecs]
assert any("crc32c" in n for n in names), names
assert np.array_equal(a[...], expected), (a[...], expected)
print("OK")
