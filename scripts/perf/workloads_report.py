#!/usr/bin/env python3
"""Writes one size's section of docs/perf/workloads.md from the JSON lines of run-workloads.sh.

Usage: workloads_report.py RESULTS.jsonl --size SIZE --doc docs/perf/workloads.md
       [--runs N] [--commands FILE] [--java TEXT] [--script TEXT]
The section lies between <!-- workloads:SIZE:begin --> and <!-- workloads:SIZE:end -->; the rest
of the document (hand-written notes) is kept. Per workload and executor: median wall seconds,
largest peak RSS over the runs, ratio to NumPy's median, tasks, intermediate bytes, largest
projected memory, and whether every run's checksums equal NumPy's (relative 1e-9; integers and
chunk shapes exactly).
"""
import argparse
import datetime
import json
import os
import platform
import statistics
import sys

WORKLOADS = ["quadratic_means", "add", "matmul", "rechunk", "reduce"]


def human(b):
    if b is None or b < 0:
        return "—"
    for unit, f in (("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if b >= f:
            return f"{b / f:.2f} {unit}"
    return f"{b} B"


def agree(a, b, rel=1e-9):
    if a.keys() != b.keys():
        return False
    for k in a:
        x, y = a[k], b[k]
        if isinstance(x, list) or isinstance(y, list):
            if list(x) != list(y):
                return False
        elif isinstance(x, int) and isinstance(y, int):
            if x != y:
                return False
        elif abs(float(x) - float(y)) > rel * max(1.0, abs(float(y))):
            return False
    return True


def machine():
    cores = os.cpu_count()
    mem = None
    model = platform.processor() or platform.machine()
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemTotal:"):
                    mem = int(line.split()[1]) * 1024
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return cores, mem, model


def section(rows, size, args):
    cores, mem, model = machine()
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    out = [f"## Size {size}", ""]
    out.append(f"Measured on {cores} cores, {human(mem)} memory ({model}); "
               f"{args.java or 'java'}; NumPy {numpy_version()}. "
               f"{args.runs} run(s) of each; wall = median, RSS = largest of the runs.")
    out.append("")
    out.append("Commands (`scripts/perf/run-workloads.sh` runs each of these per workload):")
    out.append("")
    out.append("```")
    out.append(args.script)
    if args.commands and os.path.exists(args.commands):
        with open(args.commands) as f:
            out.extend(line.rstrip() for line in f if line.strip())
    out.append("```")
    out.append("")
    out.append("| workload | executor | wall s (median) | ratio to NumPy | peak RSS | tasks "
               "| intermediate written | max projected mem | checksums = NumPy |")
    out.append("|---|---|---:|---:|---:|---:|---:|---:|---|")
    for w in WORKLOADS:
        runs = [r for r in rows if r.get("workload") == w]
        if not runs:
            continue
        ref = next((r for r in runs if r.get("executor") == "numpy" and "error" not in r), None)
        np_wall = statistics.median([r["wall_seconds"] for r in runs
                                     if r.get("executor") == "numpy" and "error" not in r]) \
            if ref else None
        executors = []
        for r in runs:
            if r.get("executor") not in executors:
                executors.append(r.get("executor"))
        for e in executors:
            er = [r for r in runs if r.get("executor") == e]
            ok = [r for r in er if "error" not in r]
            if not ok:
                out.append(f"| {w} | {e} | failed | — | — | — | — | — | — |")
                continue
            wall = statistics.median([r["wall_seconds"] for r in ok])
            rss = max(r["peak_rss_bytes"] for r in ok)
            ratio = "1.00" if e == "numpy" else (f"{wall / np_wall:.2f}" if np_wall else "—")
            if e == "numpy":
                sums = "reference"
            elif ref is None:
                sums = "no NumPy run"
            else:
                sums = "yes" if all(agree(r["checksums"], ref["checksums"]) for r in ok) else \
                    "**NO**: " + json.dumps(ok[0]["checksums"])
            failed = len(er) - len(ok)
            note = f" ({failed} failed)" if failed else ""
            tasks = ok[0].get("tasks") if e != "numpy" else "—"
            inter = human(ok[0].get("intermediate_bytes")) if e != "numpy" else "—"
            proj = human(ok[0].get("max_projected_mem")) if e != "numpy" else "—"
            out.append(f"| {w} | {e}{note} | {wall:.3f} | {ratio} | {human(rss)} | {tasks} "
                       f"| {inter} | {proj} | {sums} |")
    speedups = []
    for w in WORKLOADS:
        for e in sorted({r.get("executor") for r in rows if r.get("workload") == w}):
            if not e or e == "numpy" or e.endswith("+nofusion"):
                continue
            on = [r["wall_seconds"] for r in rows if r.get("workload") == w
                  and r.get("executor") == e and "error" not in r]
            off = [r["wall_seconds"] for r in rows if r.get("workload") == w
                   and r.get("executor") == e + "+nofusion" and "error" not in r]
            if on and off:
                won, woff = statistics.median(on), statistics.median(off)
                speedups.append(f"| {w} | {e} | {won:.3f} | {woff:.3f} | {woff / won:.2f} |")
    if speedups:
        out.append("")
        out.append("Fusion (same executor; fusion off = `--no-fusion`, every intermediate written):")
        out.append("")
        out.append("| workload | executor | fused wall s | fusion-off wall s | speed-up |")
        out.append("|---|---|---:|---:|---:|")
        out.extend(speedups)
    out.append("")
    out.append("<details><summary>Checksums (NumPy)</summary>")
    out.append("")
    for w in WORKLOADS:
        ref = next((r for r in rows if r.get("workload") == w and r.get("executor") == "numpy"
                    and "error" not in r), None)
        if ref:
            out.append(f"- {w}: `{json.dumps(ref['checksums'])}`")
    out.append("")
    out.append("</details>")
    return "\n".join(out)


def numpy_version():
    try:
        import numpy
        return numpy.__version__
    except ImportError:
        return "?"


HEADER = """# End-to-end workloads

The five workloads of docs/benchmarks.md (the shared workload definitions) (`./cubed bench`, issue 5) beside
NumPy in memory (`scripts/perf/workloads_numpy.py`), measured side by side in one run by
`scripts/perf/run-workloads.sh SIZE`. Sections between the markers are rewritten by that script.
"""


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("results")
    ap.add_argument("--size", required=True)
    ap.add_argument("--doc", required=True)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--commands")
    ap.add_argument("--java")
    ap.add_argument("--script", default="scripts/perf/run-workloads.sh")
    args = ap.parse_args()
    rows = []
    with open(args.results) as f:
        for line in f:
            line = line.strip()
            if line.startswith("{"):
                rows.append(json.loads(line))
    begin = f"<!-- workloads:{args.size}:begin -->"
    end = f"<!-- workloads:{args.size}:end -->"
    body = f"{begin}\n{section(rows, args.size, args)}\n{end}"
    doc = open(args.doc).read() if os.path.exists(args.doc) else HEADER
    if begin in doc and end in doc:
        pre = doc[:doc.index(begin)]
        post = doc[doc.index(end) + len(end):]
        doc = pre + body + post
    else:
        doc = doc.rstrip("\n") + "\n\n" + body + "\n"
    os.makedirs(os.path.dirname(args.doc) or ".", exist_ok=True)
    with open(args.doc, "w") as f:
        f.write(doc)
    print(body)


if __name__ == "__main__":
    sys.exit(main())
