#!/usr/bin/env bash
# Times the kernel operations of issue 2 with JMH and the same operations in NumPy, in one run on
# this machine, and writes docs/perf/kernel.md (figures as ratios to NumPy).
# Usage: scripts/perf/kernel-bench.sh [--quick]
set -euo pipefail
cd "$(dirname "$0")/../.."
quick=0; [ "${1:-}" = "--quick" ] && quick=1
out=target/perf; mkdir -p "$out"
mvn -q -B -DskipTests -pl cubed-bench -am package
mvn -q -B -pl cubed-bench dependency:build-classpath -Dmdep.outputFile="$PWD/$out/bench-cp.txt" >/dev/null
cp="cubed-bench/target/classes:cubed-core/target/classes:$(cat "$out/bench-cp.txt")"
jmh_args=(-rf json -rff "$out/jmh-kernel.json")
np_seconds=10
if [ "$quick" = 1 ]; then jmh_args+=(-wi 1 -i 2 -w 1s -r 2s); np_seconds=3; fi
echo "== NumPy" >&2
python3 scripts/perf/kernel_numpy.py --seconds "$np_seconds" > "$out/numpy-kernel.json"
echo "== JMH" >&2
java -cp "$cp" org.openjdk.jmh.Main 'dev.cubed.bench.kernel.KernelBench' "${jmh_args[@]}" >&2
blas=$(java -cp "$cp" dev.cubed.bench.kernel.BlasInfo 2>/dev/null || echo unknown)
python3 scripts/perf/kernel_report.py "$out/numpy-kernel.json" "$out/jmh-kernel.json" \
  --blas "$blas" --command "scripts/perf/kernel-bench.sh ${1:-}" > docs/perf/kernel.md
cat docs/perf/kernel.md
