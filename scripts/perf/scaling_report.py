#!/usr/bin/env python3
"""Writes docs/perf/scaling.md from the JSON lines of run-scaling.sh (quadratic_means, T doubling).

Usage: scaling_report.py RESULTS.jsonl --command TEXT --script TEXT [--java TEXT]
Per T: input bytes (U and V), median wall seconds, seconds per GB of input relative to the smallest
T (1.00 = exactly linear), peak RSS relative to the smallest T (1.00 = flat), tasks, max projected.
"""
import argparse
import datetime
import json
import statistics
import sys

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from workloads_report import human, machine  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("results")
    ap.add_argument("--command", required=True)
    ap.add_argument("--script", required=True)
    ap.add_argument("--java")
    a = ap.parse_args()
    rows = [json.loads(l) for l in open(a.results) if l.strip().startswith("{")]
    by_t = {}
    for r in rows:
        by_t.setdefault(r["params"]["T"], []).append(r)
    cores, mem, model = machine()
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    first = rows[0]
    p = first["params"]
    print("# Scaling: quadratic_means with T doubling, same allowedMem\n")
    print(f"Measured on {cores} cores, {human(mem)} memory ({model}); {a.java or 'java'}. "
          f"Y={p['Y']}, X={p['X']}, tchunk={p['tchunk']}, executor {first['executor']}, "
          f"{first['workers']} workers, allowedMem {human(first['allowed_mem'])}. "
          "Wall = median of the runs at each T (one JVM per run, so JIT warm-up is included).\n")
    print("```")
    print(a.script)
    print(a.command)
    print("```\n")
    print("| T | input (U+V) | wall s | s per GB of input vs smallest T | peak RSS "
          "| RSS vs smallest T | tasks | max projected mem | checksum sum_uv |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    base_rate = base_rss = None
    for t in sorted(by_t):
        rs = by_t[t]
        q = rs[0]["params"]
        inp = 2 * t * q["Y"] * q["X"] * 8
        wall = statistics.median(r["wall_seconds"] for r in rs)
        rss = max(r["peak_rss_bytes"] for r in rs)
        rate = wall / inp
        base_rate = base_rate or rate
        base_rss = base_rss or rss
        print(f"| {t} | {human(inp)} | {wall:.3f} | {rate / base_rate:.2f} | {human(rss)} "
              f"| {rss / base_rss:.2f} | {rs[0]['tasks']} | {human(rs[0]['max_projected_mem'])} "
              f"| {rs[0]['checksums']['sum_uv']:.10g} |")


if __name__ == "__main__":
    main()
