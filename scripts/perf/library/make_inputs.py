# The inputs of LibraryUser.java and dask_user.py, written by zarr-python 3 with its defaults
# (Zarr v3, bytes + zstd level 0): A, B (14000, 14000) float64 in chunks of 2000,
# A[i,j] = 0.5 + 0.5 sin(phi i + j), B[i,j] = 0.5 + 0.5 cos(phi i - j), phi = 0.6180339887498949,
# block by block; R (500, 600, 600) in chunks (1, 600, 600), 0.5 + 0.5 sin(phi k + 0.01 i + 0.001 j).
# Usage: python make_inputs.py DATA_DIR   (a Python with zarr >= 3 and numpy)
import sys, numpy as np, zarr
root = sys.argv[1]
PHI = 0.6180339887498949
n, c = 14000, 2000
for name, f in (("A", lambda i, j: 0.5 + 0.5 * np.sin(PHI * i + j)),
                ("B", lambda i, j: 0.5 + 0.5 * np.cos(PHI * i - j))):
    z = zarr.create_array(f"{root}/{name}", shape=(n, n), chunks=(c, c), dtype="float64", overwrite=True)
    for bi in range(0, n, c):
        for bj in range(0, n, c):
            i = np.arange(bi, min(bi + c, n), dtype=np.float64)[:, None]
            j = np.arange(bj, min(bj + c, n), dtype=np.float64)[None, :]
            z[bi:bi + c, bj:bj + c] = f(i, j)
# R (500,600,600) chunks (1,600,600)
z = zarr.create_array(f"{root}/R", shape=(500, 600, 600), chunks=(1, 600, 600), dtype="float64", overwrite=True)
for t in range(0, 500, 10):
    k = np.arange(t, t + 10, dtype=np.float64)[:, None, None]
    i = np.arange(600, dtype=np.float64)[None, :, None]
    j = np.arange(600, dtype=np.float64)[None, None, :]
    z[t:t + 10] = 0.5 + 0.5 * np.sin(PHI * k + 0.01 * i + 0.001 * j)
print(zarr.open_array(f"{root}/A").metadata.codecs)
