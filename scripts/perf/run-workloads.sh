#!/usr/bin/env bash
# Runs every workload of docs/benchmarks.md at one size on every available executor, RUNS times each
# (default 3), plus the NumPy baseline (scripts/perf/workloads_numpy.py) the same number of times,
# all in one run on this machine, and writes that size's section of docs/perf/workloads.md (median
# wall seconds, peak RSS, ratio to NumPy, checksum agreement within relative 1e-9).
#
# Usage: scripts/perf/run-workloads.sh small|medium [--runs N] [--only "add reduce"] [--no-numpy]
#        [--fusion-off]   (also run quadratic_means, add and reduce with --no-fusion on each executor)
#        [--warm N]       (also run each workload after N untimed runs in the same JVM, reported as
#                          executor NAME+warm: the figure without JIT warm-up and class loading)
# Environment: CUBED_HEAP (JVM max heap, default 4g), ALLOWED_MEM (default 2GB), WORKERS (default
# 2), WORK_DIR (default: java.io.tmpdir/cubed-bench), EXECUTORS (default: every available one).
# Each JVM run is exactly `./cubed bench WORKLOAD --size SIZE --executor E --workers N
# --allowed-mem M [--work-dir D]`; the script builds with `mvn package` and runs the same java
# command line as ./cubed so that it never installs into the shared ~/.m2.
set -euo pipefail
export MALLOC_MMAP_THRESHOLD_="${MALLOC_MMAP_THRESHOLD_:-1048576}"  # as ./cubed sets it
cd "$(dirname "$0")/../.."
size="${1:?usage: run-workloads.sh small|medium [--runs N] [--only \"w1 w2\"] [--no-numpy]}"
shift
runs=3
all="quadratic_means add matmul rechunk reduce"
only="$all"
numpy=1
fusionoff=0
warm=0
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) runs="$2"; shift 2 ;;
    --only) only="$2"; shift 2 ;;
    --no-numpy) numpy=0; shift ;;
    --fusion-off) fusionoff=1; shift ;;
    --warm) warm="$2"; shift 2 ;;
    *) echo "run-workloads.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
allowed="${ALLOWED_MEM:-2GB}"
workers="${WORKERS:-2}"
heap="${CUBED_HEAP:-4g}"
out=target/perf
mkdir -p "$out"
(mvn -q -B -o -DskipTests -pl cubed-cli -am package || mvn -q -B -DskipTests -pl cubed-cli -am package) >&2
cp="cubed-cli/target/classes:cubed-bench/target/classes:cubed-core/target/classes:$(cat cubed-cli/target/classpath.txt)"
bench() {
  java -Xmx"$heap" -XX:+UseParallelGC --add-modules jdk.incubator.vector -Djdk.nio.maxCachedBufferSize=1048576 ${CUBED_JAVA_OPTS:-} -cp "$cp" dev.cubed.cli.Main bench "$@"
}
executors="${EXECUTORS:-$(bench add --list-executors)}"
wd=()
[ -n "${WORK_DIR:-}" ] && wd=(--work-dir "$WORK_DIR")
results="$out/workloads-$size.jsonl"
commands="$out/workloads-$size.commands"
: > "$results"
: > "$commands"
[ "$numpy" = 1 ] && echo "python3 scripts/perf/workloads_numpy.py WORKLOAD --size $size" >> "$commands"
for e in $executors; do
  echo "CUBED_HEAP=$heap ./cubed bench WORKLOAD --size $size --executor $e --workers $workers --allowed-mem $allowed ${wd[*]}" >> "$commands"
  [ "$fusionoff" = 1 ] && echo "CUBED_HEAP=$heap ./cubed bench WORKLOAD --size $size --executor $e --workers $workers --allowed-mem $allowed ${wd[*]} --no-fusion" >> "$commands"
  [ "$warm" != 0 ] && echo "CUBED_HEAP=$heap ./cubed bench WORKLOAD --size $size --executor $e --workers $workers --allowed-mem $allowed ${wd[*]} --warmup $warm   (reported as $e+warm)" >> "$commands"
done
for w in $only; do
  for r in $(seq "$runs"); do
    if [ "$numpy" = 1 ]; then
      echo "== numpy $w $size run $r" >&2
      python3 scripts/perf/workloads_numpy.py "$w" --size "$size" >> "$results" \
        || echo "{\"workload\": \"$w\", \"size\": \"$size\", \"executor\": \"numpy\", \"error\": \"failed (memory?)\"}" >> "$results"
    fi
    for e in $executors; do
      echo "== $e $w $size run $r" >&2
      bench "$w" --size "$size" --executor "$e" --workers "$workers" --allowed-mem "$allowed" \
        "${wd[@]}" >> "$results" \
        || echo "{\"workload\": \"$w\", \"size\": \"$size\", \"executor\": \"$e\", \"error\": \"failed\"}" >> "$results"
      if [ "$warm" != 0 ]; then
        echo "== $e+warm $w $size run $r" >&2
        bench "$w" --size "$size" --executor "$e" --workers "$workers" --allowed-mem "$allowed" \
          "${wd[@]}" --warmup "$warm" | sed "s/\"executor\":\"$e\"/\"executor\":\"$e+warm\"/" >> "$results" \
          || echo "{\"workload\": \"$w\", \"size\": \"$size\", \"executor\": \"$e+warm\", \"error\": \"failed\"}" >> "$results"
      fi
      if [ "$fusionoff" = 1 ] && [[ " quadratic_means add reduce " == *" $w "* ]]; then
        echo "== $e+nofusion $w $size run $r" >&2
        bench "$w" --size "$size" --executor "$e" --workers "$workers" --allowed-mem "$allowed" \
          "${wd[@]}" --no-fusion >> "$results" \
          || echo "{\"workload\": \"$w\", \"size\": \"$size\", \"executor\": \"$e+nofusion\", \"error\": \"failed\"}" >> "$results"
      fi
    done
  done
done
java_version=$(java -version 2>&1 | head -1)
for doc in docs/perf/workloads.md; do
python3 scripts/perf/workloads_report.py "$results" --size "$size" --runs "$runs" \
  --commands "$commands" --java "$java_version" \
  --script "scripts/perf/run-workloads.sh $size --runs $runs$([ "$fusionoff" = 1 ] && echo ' --fusion-off')$([ "$warm" != 0 ] && echo " --warm $warm")$([ "$only" != "$all" ] && echo " --only \"$only\"")" --doc "$doc"
done
echo "wrote docs/perf/workloads.md ($size)" >&2
