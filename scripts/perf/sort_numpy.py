#!/usr/bin/env python3
"""NumPy's np.sort of the same float64 values Cubed.random generates (seed, flat index), in memory.

Usage: sort_numpy.py VALUES SEED CHUNK
Prints one JSON line: generation and np.sort seconds (wall, and CPU of the sort), peak RSS of this process, and the values at
the ranks SortBench reports (block starts near k * VALUES / 8 for chunks of CHUNK, and the last).
"""
import json
import resource
import sys
import time

import numpy as np

M64 = (1 << 64) - 1


def uniform(seed, start, stop):
    # Cubed.uniform: a SplitMix64 finalizer keyed by (seed, flat index), top 53 bits / 2^53
    i = np.arange(start, stop, dtype=np.uint64)
    with np.errstate(over="ignore"):
        z = np.uint64((seed * 0x9E3779B97F4A7C15) & M64) + i * np.uint64(0xD1B54A32D192ED03) \
            + np.uint64(0x632BE59BD9B4E019)
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        z = z ^ (z >> np.uint64(31))
    return (z >> np.uint64(11)).astype(np.float64) * 2.0 ** -53


def main():
    n, seed, chunk = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
    t0 = time.perf_counter()
    a = np.empty(n, dtype=np.float64)
    step = 10_000_000
    for s in range(0, n, step):
        a[s:min(n, s + step)] = uniform(seed, s, min(n, s + step))
    t1 = time.perf_counter()
    c1 = time.process_time()
    b = np.sort(a)
    c2 = time.process_time()
    t2 = time.perf_counter()
    ranks = [n - 1 if k == 8 else (k * (n // 8) // chunk) * chunk for k in range(9)]
    print(json.dumps({"values": n, "seed": seed, "generate_s": round(t1 - t0, 2),
                      "np_sort_s": round(t2 - t1, 2), "np_sort_cpu_s": round(c2 - c1, 2),
                      "peak_rss": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024,
                      "numpy": np.__version__,
                      "ranks": [[r, repr(float(b[r]))] for r in ranks]}))


if __name__ == "__main__":
    main()
