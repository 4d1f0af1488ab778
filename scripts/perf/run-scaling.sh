#!/usr/bin/env bash
# The scaling run of issue 5: quadratic_means at 4 sizes doubling T, with the same allowedMem and
# the spatial size of the small (default) or medium workload, one JVM per run; writes
# docs/perf/scaling.md (wall time should grow about linearly in T, peak RSS stay flat).
#
# Usage: scripts/perf/run-scaling.sh [--base-t T] [--spatial small|medium] [--runs N]
# Environment: ALLOWED_MEM (default 500MB), WORKERS (default 2), CUBED_HEAP (default 4g), WORK_DIR.
set -euo pipefail
export MALLOC_MMAP_THRESHOLD_="${MALLOC_MMAP_THRESHOLD_:-1048576}"  # as ./cubed sets it
cd "$(dirname "$0")/../.."
base=50
spatial=small
runs=1
while [ $# -gt 0 ]; do
  case "$1" in
    --base-t) base="$2"; shift 2 ;;
    --spatial) spatial="$2"; shift 2 ;;
    --runs) runs="$2"; shift 2 ;;
    *) echo "run-scaling.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
allowed="${ALLOWED_MEM:-500MB}"
workers="${WORKERS:-2}"
heap="${CUBED_HEAP:-4g}"
out=target/perf
mkdir -p "$out"
(mvn -q -B -o -DskipTests -pl cubed-cli -am package || mvn -q -B -DskipTests -pl cubed-cli -am package) >&2
cp="cubed-cli/target/classes:cubed-bench/target/classes:cubed-core/target/classes:$(cat cubed-cli/target/classpath.txt)"
wd=()
[ -n "${WORK_DIR:-}" ] && wd=(--work-dir "$WORK_DIR")
results="$out/scaling.jsonl"
: > "$results"
cmd="CUBED_HEAP=$heap ./cubed bench quadratic_means --size $spatial --set T=<T> --workers $workers --allowed-mem $allowed ${wd[*]}"
for k in 0 1 2 3; do
  t=$((base << k))
  for r in $(seq "$runs"); do
    echo "== quadratic_means T=$t run $r" >&2
    java -Xmx"$heap" -XX:+UseParallelGC -Djdk.nio.maxCachedBufferSize=1048576 ${CUBED_JAVA_OPTS:-} -cp "$cp" dev.cubed.cli.Main bench \
      quadratic_means --size "$spatial" --set T="$t" --workers "$workers" --allowed-mem "$allowed" \
      "${wd[@]}" >> "$results"
  done
done
python3 scripts/perf/scaling_report.py "$results" --command "$cmd" \
  --script "scripts/perf/run-scaling.sh --base-t $base --spatial $spatial --runs $runs" \
  --java "$(java -version 2>&1 | head -1)" > docs/perf/scaling.md
cat docs/perf/scaling.md
