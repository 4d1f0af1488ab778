#!/usr/bin/env python3
"""Merges NumPy's and JMH's kernel timings into the Markdown page docs/perf/kernel.md."""
import argparse
import datetime
import json
import os
import platform

TARGETS = {
    "add_f64_16M": ("float64 add, 2 x 16M elements", 1.0),
    "sum_axis0_f64_4000x4000": ("float64 sum over axis 0, 4000x4000", 1.0),
    "sum_axis1_f64_4000x4000": ("float64 sum over axis 1, 4000x4000", 1.0),
    "matmul_f64_2000": ("float64 matmul 2000x2000", 0.8),
    "sort_f64_10M": ("sort of 10M float64", 0.5),
}


def main():
    p = argparse.ArgumentParser()
    p.add_argument("numpy_json")
    p.add_argument("jmh_json")
    p.add_argument("--blas", default="unknown")
    p.add_argument("--command", default="scripts/perf/kernel-bench.sh")
    a = p.parse_args()
    with open(a.numpy_json) as f:
        np_res = json.load(f)
    with open(a.jmh_json) as f:
        jmh = json.load(f)
    java = {}
    for r in jmh:
        name = r["benchmark"].rsplit(".", 1)[1]
        java[name] = (r["primaryMetric"]["score"], r["primaryMetric"]["scoreError"])
    mem_gb = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
    print("# Kernel performance beside NumPy\n")
    print(f"Measured on {os.cpu_count()} cores, {mem_gb:.0f} GB, "
          f"{platform.processor() or platform.machine()}; NumPy {np_res['numpy']}; "
          f"Java {platform.java_ver()[0] or os.popen('java -version 2>&1').read().splitlines()[0]}; "
          f"BLAS: {a.blas}.\n")
    print(f"Command: `{a.command}` (JMH AverageTime, 1 fork; NumPy: mean of repeated calls after "
          "warm-up). Ratio = NumPy time / Java time, so above 1 means Java is faster. The machine is "
          "shared and noisy: both sides are measured in the same run.\n")
    print("| operation | NumPy ms | Java ms (± JMH error) | ratio | target | met |")
    print("|---|---|---|---|---|---|")
    for key, (label, target) in TARGETS.items():
        n = np_res["results"].get(key)
        j = java.get(key)
        if n is None or j is None:
            print(f"| {label} | {n or '—'} | {'—' if j is None else f'{j[0]:.1f}'} | — | {target}x | not measured |")
            continue
        ratio = n / j[0]
        # JMH reports the error as the string "NaN" when there are too few iterations (--quick)
        err = f"± {j[1]:.1f}" if isinstance(j[1], (int, float)) else "(no error estimate)"
        print(f"| {label} | {n:.1f} | {j[0]:.1f} {err} | {ratio:.2f} | >= {target}x | "
              f"{'yes' if ratio >= target else 'NO'} |")


if __name__ == "__main__":
    main()
