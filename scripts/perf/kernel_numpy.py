#!/usr/bin/env python3
"""NumPy's timing of the kernel operations benchmarked by KernelBench (JMH), on the same sizes.

Prints one JSON object: {"numpy": version, "results": {benchmark: mean milliseconds}}.
Each operation is warmed up, then timed over repeated calls for at least `--seconds` seconds
(mean time per call, like JMH's AverageTime mode).
"""
import argparse
import json
import time

import numpy as np


def timeit(fn, seconds):
    for _ in range(3):
        fn()
    n = 0
    start = time.perf_counter()
    while True:
        fn()
        n += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds and n >= 5:
            return elapsed / n * 1000.0


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--seconds", type=float, default=10.0)
    args = p.parse_args()
    rng = np.random.default_rng(0)
    x = rng.random(1 << 24)
    y = rng.random(1 << 24)
    m = rng.random((4000, 4000))
    a = rng.random((2000, 2000))
    b = rng.random((2000, 2000))
    s = rng.random(10_000_000)
    res = {
        "add_f64_16M": timeit(lambda: np.add(x, y), args.seconds),
        "sum_axis0_f64_4000x4000": timeit(lambda: m.sum(axis=0), args.seconds),
        "sum_axis1_f64_4000x4000": timeit(lambda: m.sum(axis=1), args.seconds),
        "matmul_f64_2000": timeit(lambda: a @ b, args.seconds),
        "sort_f64_10M": timeit(lambda: np.sort(s), args.seconds),
    }
    print(json.dumps({"numpy": np.__version__, "results": res}))


if __name__ == "__main__":
    main()
