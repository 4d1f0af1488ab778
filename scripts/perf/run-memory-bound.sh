#!/usr/bin/env bash
# The memory bound of the threads executor, checked on every workload at both sizes with
# --allowed-mem a few times the chunk size and a JVM heap sized from the memory model, and
# written to docs/perf/memory.md.
#
# The threads executor runs at most WORKERS tasks at once and caps that number so that
# WORKERS x (largest projected task memory) + the heap in use fits in the JVM's max heap. With
# every op projected at or below allowedMem, a heap of WORKERS x allowedMem + HEAP_BASE (the
# engine's own live data: plan, Zarr metadata, buffers of the result) is enough for the whole
# compute, so each run below gets exactly that heap (-Xmx). If the memory model under-estimated a
# task, the run would fail with OutOfMemoryError or the executor would cap its concurrency (it
# logs that); neither may happen. The bound then promised for the process is Xmx + NON_HEAP, the
# JVM's own baseline (JIT code, metaspace, GC structures, thread stacks, native libraries: 256 MB,
# above the 80-150 MB NativeMemoryTracking measured on these heaps). Codecs add nothing outside the
# heap: the default blosc-lz4 runs in Java on heap arrays and zstd-jni works on pinned heap arrays.
# Peak RSS (VmHWM of the JVM) must stay below the bound.
#
# Usage: scripts/perf/run-memory-bound.sh [--sizes "small medium"] [--only "add reduce"]
# Environment: WORKERS (default 2), HEAP_BASE_MB (default 192), NON_HEAP_MB (default 256),
# RESERVED (reservedMem, default 50MB), WORK_DIR (default: java.io.tmpdir/cubed-bench).
set -euo pipefail
export MALLOC_MMAP_THRESHOLD_="${MALLOC_MMAP_THRESHOLD_:-1048576}"  # as ./cubed sets it
cd "$(dirname "$0")/../.."
sizes="small medium"
only="quadratic_means add matmul rechunk reduce"
while [ $# -gt 0 ]; do
  case "$1" in
    --sizes) sizes="$2"; shift 2 ;;
    --only) only="$2"; shift 2 ;;
    *) echo "run-memory-bound.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
workers="${WORKERS:-2}"
heap_base="${HEAP_BASE_MB:-192}"
non_heap="${NON_HEAP_MB:-256}"
reserved="${RESERVED:-50MB}"
# allowedMem per workload and size (MB): a few times the largest chunk an op reads or writes,
# and that largest chunk (MB): quadratic_means 9.5 / 152, add and matmul 2 / 32, rechunk 4 / 80
# (target chunks), reduce 3.9 / 32 (small / medium).
allowed_mb() {
  case "$1:$2" in
    quadratic_means:small) echo 150 ;; quadratic_means:medium) echo 1000 ;;
    add:small) echo 100 ;; add:medium) echo 250 ;;
    matmul:small) echo 100 ;; matmul:medium) echo 350 ;;
    rechunk:small) echo 100 ;; rechunk:medium) echo 256 ;;
    reduce:small) echo 100 ;; reduce:medium) echo 250 ;;
  esac
}
chunk_mb() {
  case "$1:$2" in
    quadratic_means:small) echo 9.5 ;; quadratic_means:medium) echo 152 ;;
    add:small|matmul:small) echo 2 ;; add:medium|matmul:medium|reduce:medium) echo 32 ;;
    rechunk:small) echo 4 ;; rechunk:medium) echo 80 ;;
    reduce:small) echo 3.9 ;;
  esac
}
out=target/perf
mkdir -p "$out"
(mvn -q -B -o -DskipTests -pl cubed-cli -am package || mvn -q -B -DskipTests -pl cubed-cli -am package) >&2
cp="cubed-cli/target/classes:cubed-bench/target/classes:cubed-core/target/classes:$(cat cubed-cli/target/classpath.txt)"
wd=()
[ -n "${WORK_DIR:-}" ] && wd=(--work-dir "$WORK_DIR")
results="$out/memory-bound.jsonl"
: > "$results"
for s in $sizes; do
  for w in $only; do
    a=$(allowed_mb "$w" "$s")
    heap=$(( workers * a + heap_base ))
    echo "== $w $s allowed ${a}MB heap ${heap}m" >&2
    log="$out/memory-bound-$w-$s.log"
    if line=$(CUBED_SPEC_RESERVED_MEM="$reserved" java -Xmx"${heap}m" -XX:+UseParallelGC \
        -Djdk.nio.maxCachedBufferSize=1048576 -cp "$cp" dev.cubed.cli.Main bench "$w" --size "$s" \
        --workers "$workers" --allowed-mem "${a}MB" "${wd[@]}" 2> "$log" | tail -1); then
      capped=$(grep -c "concurrency capped" "$log" || true)
      echo "{\"heap_mb\": $heap, \"non_heap_mb\": $non_heap, \"chunk_mb\": $(chunk_mb "$w" "$s"), \"reserved\": \"$reserved\", \"capped\": $capped, \"run\": $line}" >> "$results"
    else
      echo "{\"heap_mb\": $heap, \"workload\": \"$w\", \"size\": \"$s\", \"error\": \"$(tail -1 "$log" | tr -d '"\\' | cut -c1-300)\"}" >> "$results"
    fi
  done
done
python3 scripts/perf/memory_report.py "$results" --workers "$workers" \
  --command "scripts/perf/run-memory-bound.sh --sizes \"$sizes\"$([ "$only" != "quadratic_means add matmul rechunk reduce" ] && echo " --only \"$only\"")" \
  > docs/perf/memory.md
cat docs/perf/memory.md
