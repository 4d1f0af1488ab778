#!/usr/bin/env bash
# Issue 10's processes-executor figures: for each workload, the threads and processes executors
# back to back (interleaved, so a shared machine's load hits both alike), each under
# scripts/perf/tree_rss.py (whole-tree and coordinator peak RSS, sampled every 100 ms), the
# processes run with --history; then (optionally) a processes-strict run, in which every task runs
# in a heap of its own op's projection. EXECUTORS="processes-strict" runs only the strict runs.
# Usage: scripts/perf/run-processes.sh OUTDIR [--size medium] [--strict] [workload...]
# Environment: QM_MEM (quadratic_means' allowedMem, default 1000MB), COORD_HEAP (coordinator -Xmx,
# default 3g), EXTRA_OPTS (coordinator JVM options, e.g. -Dcubed.processes.gcSkip=false
# -Dcubed.processes.keepAliveSeconds=0 for the processes executor of before issue 10's speed-up),
# TAG (appended to each run's directory name).
# Prints one JSON line per run and leaves OUTDIR/WORKLOAD-EXECUTOR/ (history, ops.csv).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
out="$1"; shift
size=medium
strict=0
wl=()
while [ $# -gt 0 ]; do
  case "$1" in
    --size) size="$2"; shift 2 ;;
    --strict) strict=1; shift ;;
    *) wl+=("$1"); shift ;;
  esac
done
[ ${#wl[@]} -gt 0 ] || wl=(quadratic_means add matmul rechunk reduce)
mkdir -p "$out"
# run from a copy of the classes, so that a build during the runs (Maven recompiles a module
# whole) cannot pull classes from under a running JVM; SNAP=DIR reuses a copy made by an earlier
# call (several calls on the same build)
snap="${SNAP:-$out/classes}"
if [ -z "${SNAP:-}" ] || [ ! -d "$snap/cubed-core" ]; then
  "$here/cubed" bench --list-executors >/dev/null  # builds if needed
  rm -rf "$snap"; mkdir -p "$snap"
  for m in cubed-cli cubed-bench cubed-s3 cubed-core; do cp -r "$here/$m/target/classes" "$snap/$m"; done
fi
cp="$snap/cubed-cli:$snap/cubed-bench:$snap/cubed-s3:$snap/cubed-core:$(cat "$here/cubed-cli/target/classpath.txt")"
export MALLOC_MMAP_THRESHOLD_=1048576
mem() { [ "$1" = quadratic_means ] && echo "${QM_MEM:-1000MB}" || echo 500MB; }  # docs/perf/memory.md; QM_MEM=2GB as Python Cubed
run() { # workload executor
  local w="$1" e="$2" d="$out/$1-$2${TAG:-}"
  rm -rf "$d"; mkdir -p "$d"
  python3 "$here/scripts/perf/tree_rss.py" java -Xmx"${COORD_HEAP:-3g}" -XX:+UseParallelGC \
    -Djdk.nio.maxCachedBufferSize=1048576 ${EXTRA_OPTS:-} -cp "$cp" dev.cubed.cli.Main bench "$w" \
    --size "$size" --executor "$e" --workers 2 --allowed-mem "$(mem "$w")" \
    --work-dir "$out/work" --history "$d/history" | tee "$d/run.json"
}
for w in "${wl[@]}"; do
  for e in ${EXECUTORS:-threads processes}; do
    run "$w" "$e"
  done
  if [ "$strict" = 1 ]; then
    run "$w" processes-strict
  fi
done
