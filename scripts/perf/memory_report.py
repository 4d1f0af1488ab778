#!/usr/bin/env python3
"""Writes docs/perf/memory.md from the JSON lines of scripts/perf/run-memory-bound.sh."""
import argparse
import datetime
import json
import os
import platform


def human(b):
    if b is None or b < 0:
        return "n/a"
    for unit in ("B", "kB", "MB", "GB"):
        if abs(b) < 1000 or unit == "GB":
            return f"{b:.0f} {unit}" if unit == "B" else f"{b:.2f} {unit}"
        b /= 1000.0


def machine():
    cores = os.cpu_count()
    mem = 0
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemTotal:"):
                    mem = int(line.split()[1]) * 1024
    except OSError:
        pass
    return f"{cores} cores, {human(mem)} memory ({platform.machine()})"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("results")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--command", default="scripts/perf/run-memory-bound.sh")
    a = ap.parse_args()
    rows = [json.loads(l) for l in open(a.results) if l.strip()]
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    out = ["# Memory bound of the threads executor", "",
           f"Measured on {machine()} by `{a.command}`; {a.workers} workers.", "",
           "Each run gets a JVM heap of exactly workers x allowedMem + 192 MB (the engine's own",
           "live data), so the executor can run every task concurrently only if the memory model's",
           "projections hold. The bound promised for the process is that heap + the JVM's non-heap",
           "baseline (256 MB: JIT code, metaspace, GC structures, thread stacks, native libraries;",
           "the codecs keep no buffers outside the heap). Peak RSS is the kernel's high-water mark",
           "of the JVM (VmHWM) during the",
           "timed phase. `capped` counts the executor's warnings that it had to run fewer tasks",
           "at once than workers. See scripts/perf/run-memory-bound.sh for the rule.", "",
           "| workload | size | largest chunk | allowedMem | max projected task | heap (-Xmx) "
           "| bound (heap + 256 MiB) "
           "| peak RSS | within bound | capped | wall s |",
           "|---|---|---:|---:|---:|---:|---:|---:|---|---:|---:|"]
    ok_all = True
    for r in rows:
        if "error" in r:
            ok_all = False
            out.append(f"| {r['workload']} | {r['size']} | | | | {r['heap_mb']} MB | | | "
                       f"**failed**: {r['error']} | | |")
            continue
        run = r["run"]
        heap = r["heap_mb"] * 1024 * 1024
        bound = heap + r["non_heap_mb"] * 1024 * 1024
        rss = run["peak_rss_bytes"]
        within = rss <= bound
        ok_all &= within and r["capped"] == 0
        out.append(f"| {run['workload']} | {run['size']} | {human(r['chunk_mb'] * 1e6)} "
                   f"| {human(run['allowed_mem'])} "
                   f"| {human(run['max_projected_mem'])} | {human(heap)} | {human(bound)} "
                   f"| {human(rss)} | {'yes' if within else '**no**'} | {r['capped']} "
                   f"| {run['wall_seconds']:.2f} |")
    out += ["", "All runs within the bound and uncapped: " + ("yes" if ok_all else "**no**"), ""]
    print("\n".join(out))


if __name__ == "__main__":
    main()
