"""Random arrays made by the engine (lazy: nothing is generated until computed).

    import cubed_java.random
    x = cubed_java.random.random((1000, 1000), chunks=(100, 1000))
"""
from __future__ import annotations

import numpy as np

from . import _bridge
from ._array import Array
from ._chunks import normalize_chunks, regular_size


def random(size, *, chunks=None, seed=None):
    """Uniform float64 numbers in [0, 1) of shape ``size`` (``Cubed.random``): element i comes
    from a counter-based generator keyed by (seed, i), so the values do not depend on the chunks.
    ``chunks`` as for ``asarray`` (regular blocks: an int or one block size per axis; default
    "auto"); ``seed`` an int (default: a new one from NumPy's entropy)."""
    shape = (size,) if isinstance(size, (int, np.integer)) else tuple(int(n) for n in size)
    grid = normalize_chunks("auto" if chunks is None else chunks, shape, np.float64)
    blocks = []
    for ax, c in enumerate(grid):
        b = regular_size(c)
        if b is None:
            raise ValueError(f"random: chunks along axis {ax} must be regular (one block size"
                             f" for every block but the last), got {c}")
        blocks.append(max(int(b), 1))
    if seed is None:
        seed = int(np.random.default_rng().integers(0, 2**63 - 1))
    info = _bridge.session().call("random", _bridge.Ints(shape), _bridge.Ints(blocks), int(seed))
    return Array(info)


__all__ = ["random"]
