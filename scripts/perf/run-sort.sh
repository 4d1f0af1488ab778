#!/usr/bin/env bash
# The sort target: sorts VALUES float64 values of Cubed.random (seed SEED) with the chunked
# Xp.sort at ALLOWED allowedMem, checks the result (sorted, a permutation of the input: see
# SortBench), measures the JVM's peak RSS against the memory bound, times NumPy's np.sort of the
# same values in memory right after, and writes docs/perf/sort.md.
#
# Bound (docs/perf/memory.md): the JVM gets a heap of exactly WORKERS x allowedMem + HEAP_BASE
# (192 MB: the engine's own live data); the bound promised for the process is that heap +
# NON_HEAP (256 MB: the JVM's own baseline). Peak RSS is /usr/bin/time's maximum resident set.
#
# Usage: scripts/perf/run-sort.sh [--values 250000000] [--chunk 1000000] [--allowed-mem-mb 200]
#   [--reserved-mem-mb 50] [--workers 2] [--seed 42] [--no-doc]
# Environment: WORK_DIR (intermediate Zarr; default the spec's), HEAP_BASE_MB, NON_HEAP_MB.
set -euo pipefail
export MALLOC_MMAP_THRESHOLD_="${MALLOC_MMAP_THRESHOLD_:-1048576}"  # as ./cubed sets it
cd "$(dirname "$0")/../.."
values=250000000; chunk=1000000; allowed=200; reserved=50; workers=2; seed=42; doc=1
while [ $# -gt 0 ]; do
  case "$1" in
    --values) values="$2"; shift 2 ;;
    --chunk) chunk="$2"; shift 2 ;;
    --allowed-mem-mb) allowed="$2"; shift 2 ;;
    --reserved-mem-mb) reserved="$2"; shift 2 ;;
    --workers) workers="$2"; shift 2 ;;
    --seed) seed="$2"; shift 2 ;;
    --no-doc) doc=0; shift ;;
    *) echo "run-sort.sh: unknown argument $1 (see the header of this script)" >&2; exit 2 ;;
  esac
done
heap_base="${HEAP_BASE_MB:-192}"
non_heap="${NON_HEAP_MB:-256}"
heap=$(( workers * allowed + heap_base ))
out=target/perf
mkdir -p "$out"
(mvn -q -B -o -DskipTests -pl cubed-cli -am package || mvn -q -B -DskipTests -pl cubed-cli -am package) >&2
cp="cubed-cli/target/classes:cubed-bench/target/classes:cubed-core/target/classes:$(cat cubed-cli/target/classpath.txt)"
wd=()
[ -n "${WORK_DIR:-}" ] && wd=(--work-dir "$WORK_DIR")
started=$(date -u '+%Y-%m-%d %H:%M UTC')
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
echo "== Xp.sort of $values values, allowedMem ${allowed}MB, heap ${heap}m (started $started, load $load_before)" >&2
/usr/bin/time -v -o "$out/sort-time.txt" java -Xmx"${heap}m" -XX:+UseParallelGC \
  -Djdk.nio.maxCachedBufferSize=1048576 -cp "$cp" dev.cubed.bench.SortBench --values "$values" \
  --chunk "$chunk" --allowed-mem "${allowed}MB" --reserved-mem "${reserved}MB" --workers "$workers" \
  --seed "$seed" "${wd[@]}" > "$out/sort-java.json" 2> "$out/sort-java.log"
cat "$out/sort-java.json"
rss_kb=$(grep "Maximum resident set size" "$out/sort-time.txt" | awk '{print $NF}')
load_mid=$(cut -d' ' -f1-3 /proc/loadavg)
echo "== np.sort of the same values (load $load_mid)" >&2
python3 scripts/perf/sort_numpy.py "$values" "$seed" "$chunk" > "$out/sort-numpy.json"
cat "$out/sort-numpy.json"
finished=$(date -u '+%Y-%m-%d %H:%M UTC')
if [ "$doc" = 1 ]; then
  python3 - "$out/sort-java.json" "$out/sort-numpy.json" "$rss_kb" "$heap" "$non_heap" \
      "$started" "$finished" "$load_before" "$load_mid" \
      "scripts/perf/run-sort.sh --values $values --chunk $chunk --allowed-mem-mb $allowed --reserved-mem-mb $reserved --workers $workers --seed $seed" \
      "$out/sort-java.log" "$out/sort-time.txt" > docs/perf/sort.md <<'PY'
import json, re, sys
j = json.load(open(sys.argv[1])); p = json.load(open(sys.argv[2]))
rss = int(sys.argv[3]) * 1024; heap = int(sys.argv[4]) * 1_000_000 // 1 ; non_heap = int(sys.argv[5])
heap_b = int(sys.argv[4]) * 1024 * 1024; bound = heap_b + non_heap * 1024 * 1024
mb = lambda b: f"{b / 1e6:,.0f} MB"
same = all(abs(float(a[1]) - float(b[1])) == 0 and a[0] == b[0] for a, b in zip(j["ranks"], p["ranks"]))
plan = [l.rstrip() for l in open(sys.argv[11]) if l.strip()]
tv = open(sys.argv[12]).read()
cpu = sum(float(re.search(r"%s time \(seconds\): ([0-9.]+)" % k, tv).group(1)) for k in ("User", "System"))
print("# Sorting 2 GB of float64 in bounded memory\n")
print(f"Measured on this 2-core machine, shared with other builds "
      f"(load average before: {sys.argv[8]}, after the Java run: {sys.argv[9]}), by\n\n    {sys.argv[10]}\n")
print("The Java run sorts `Cubed.random` values with `Xp.sort` (distributed sample sort, see "
      "docs/api/sorting.md) and checks the result in the same compute without holding it: every "
      "output block ascends, each block starts at or above the previous block's last value, and the "
      "count and two order-independent hash sums of the values' bits equal the input's (a sorted "
      "permutation of the input is the kernel's sort of it). NumPy then generates the same values "
      "(the same counter-based generator) and sorts them in memory with `np.sort`; the values at "
      "the ranks below must agree.\n")
print("| | Cubed for Java `Xp.sort` | NumPy `np.sort` (in memory) |\n|---|---:|---:|")
print(f"| values | {j['values']:,} float64 ({mb(j['values'] * 8)}) | {p['values']:,} |")
print(f"| wall time | {j['total_s']:.1f} s ({j['eager_passes_s']:.1f} s eager passes + {j['compute_s']:.1f} s compute) | {p['np_sort_s']:.1f} s (generation {p['generate_s']:.1f} s not counted) |")
print(f"| wall time ratio | {j['total_s'] / p['np_sort_s']:.1f} x NumPy | 1 |")
print(f"| CPU time (user + system) | {cpu:.1f} s (whole JVM: eager passes, compute, checks, JIT, GC) | {p['np_sort_cpu_s']:.1f} s (np.sort only) |")
print(f"| CPU time ratio (less sensitive to the shared machine's load) | {cpu / p['np_sort_cpu_s']:.1f} x NumPy | 1 |")
print(f"| peak RSS | {mb(rss)} | {mb(p['peak_rss'])} |")
print(f"| allowedMem / reservedMem / workers | {mb(j['allowed_mem'])} / {mb(j['reserved_mem'])} / {j['workers']} | |")
print(f"| largest projected task | {mb(j['max_projected_task'])} | |")
print(f"| JVM heap (-Xmx = workers x allowedMem + 192 MiB) | {mb(heap_b)} | |")
print(f"| bound (heap + {non_heap} MiB non-heap) | {mb(bound)} | |")
print(f"| peak RSS within bound | {'yes' if rss <= bound else 'NO'} | |")
print(f"| check (sorted, permutation of the input) | {j['check']} | |")
print(f"| values at ranks equal to NumPy's | {'yes' if same else 'NO'} | |\n")
print("Ranks (rank, value): " + ", ".join(f"{r[0]}: {r[1]}" for r in j["ranks"]) + "\n")
print("Plan of the compute after the eager passes (the sample and counting passes ran before it, "
      "each one task per input block):\n\n```")
for l in plan:
    print(l)
print("```")
PY
  cat docs/perf/sort.md
fi
