# Tables for docs/perf/memory.md from scripts/perf/run-processes.sh output.
# Usage: python3 scripts/perf/processes_report.py OUTDIR [JVM_OVERHEAD_MB]
# JVM_OVERHEAD_MB: a worker's RSS beyond its heap, from ./cubed measure-reserved-mem (default 45).
import csv, json, os, sys

out = sys.argv[1]
overhead = float(sys.argv[2]) if len(sys.argv) > 2 else 45.0
MB = 1e6
WORKLOADS = ["quadratic_means", "add", "matmul", "rechunk", "reduce"]


def run(w, e):
    p = os.path.join(out, "%s-%s" % (w, e), "run.json")
    if not os.path.exists(p):
        return None
    lines = [l for l in open(p).read().splitlines() if l.strip()]
    return json.loads(lines[-1]) if lines else None


def ops(w, e):
    p = os.path.join(out, "%s-%s" % (w, e), "history", "ops.csv")
    return list(csv.DictReader(open(p))) if os.path.exists(p) else []


print("| workload (medium) | allowedMem | threads s | processes s | processes / threads |"
      " tree peak RSS threads | tree peak RSS processes | coordinator (processes) |"
      " bound: 2 x (allowedMem + %.0f MB) + coordinator | within | checksums equal |" % overhead)
print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---|")
for w in WORKLOADS:
    t, p = run(w, "threads"), run(w, "processes")
    if not t or not p:
        continue
    bound = 2 * (p["allowed"] + overhead * MB) + p["coord_peak_rss_sampled"]
    print("| %s | %.0f MB | %.1f | %.1f | %.2fx | %.0f MB | %.0f MB | %.0f MB | %.0f MB | %s | %s |" % (
        w, p["allowed"] / MB, t["wall"], p["wall"], p["wall"] / t["wall"],
        t["tree_peak_rss"] / MB, p["tree_peak_rss"] / MB, p["coord_peak_rss_sampled"] / MB,
        bound / MB, "yes" if p["tree_peak_rss"] <= bound else "NO",
        "yes" if t["checksums"] == p["checksums"] else "compare: %s vs %s" % (
            t["checksums"], p["checksums"])))

for e in ["processes", "processes-strict"]:
    rows = [(w, r) for w in WORKLOADS for r in ops(w, e)]
    if not rows:
        continue
    print()
    print("Per op, executor `%s` (projected and measured include reservedMem; measured = the"
          " largest measured_peak_mem of the op's tasks):" % e)
    print()
    print("| workload | compute | op | tasks | projected MB | measured max MB | measured / projected"
          " | tasks over |")
    print("|---|---:|---|---:|---:|---:|---:|---:|")
    for w, r in rows:
        if not r["max_measured_peak_mem"]:
            continue
        pr, me = int(r["projected_mem"]), int(r["max_measured_peak_mem"])
        print("| %s | %s | %s | %s | %.1f | %.1f | %.2f | %s |" % (
            w, r["compute"], r["op"], r["tasks"], pr / MB, me / MB, me / pr,
            r["tasks_over_projection"]))
