"""Golden vectors for complex products with infinities and NaNs (NumPy 2.x).

NumPy multiplies complex numbers with the naive formula (ac - bd) + (ad + bc)j; reductions start
from the identity 1+0j, cumulative products from the first element; inf * 0 parts give NaN.
Writes cubed-core/src/test/resources/golden/linear_algebra/complex_infinities.npz.
"""
import numpy as np

rng = np.random.default_rng(11)
vals = [np.inf, -np.inf, np.nan, 0.0, -0.0, 1.5, -2.0, 0.5]


def rc(shape):
    return rng.choice(vals, size=shape) + 1j * rng.choice(vals, size=shape)


d = {}
for i in range(3):
    a = rc((2, 3)); b = rc((3, 2))
    d[f'matmul{i}_a'] = a; d[f'matmul{i}_b'] = b; d[f'matmul{i}_out'] = np.matmul(a, b)
    c = rc((2, 3, 2)); e = rc((3, 2))
    d[f'tensordot{i}_a'] = c; d[f'tensordot{i}_b'] = e
    d[f'tensordot{i}_out'] = np.tensordot(c, e, axes=([1, 2], [0, 1]))
    p = rc((3, 4))
    d[f'prod{i}_a'] = p; d[f'prod{i}_out'] = np.prod(p, axis=1)
    d[f'cumprod{i}_out'] = np.cumprod(p, axis=1)
np.savez('cubed-core/src/test/resources/golden/linear_algebra/complex_infinities.npz', **d)
