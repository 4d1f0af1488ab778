#!/usr/bin/env bash
# The Zarr chunk codec's operations (ByteShuffleBench: byte shuffle/unshuffle of a 256 KiB block, encode
# and decode of an 8 MB float64 chunk with Blosc-LZ4 + byte shuffle) against this tree's
# cubed-core and against the cubed-core of a baseline commit (default: where this branch left
# main), the two alternating for --rounds rounds (median reported), with
# the same benchmark classes (cubed-core's test classes dev.cubed.zarr.codec.ByteShuffleBench and
# CodecCpuTime: they reach package-private kernels); prints MB per CPU second and the ratio
# current / baseline.
# Usage: scripts/perf/zarr-codec-bench.sh [--base COMMIT] [--rounds N] [--quick]
set -euo pipefail
cd "$(dirname "$0")/../.."
base=$(git merge-base main HEAD); quick=0; rounds=3
while [ $# -gt 0 ]; do
  case "$1" in
    --base) base="$2"; shift 2 ;;
    --quick) quick=1; shift ;;
    --rounds) rounds="$2"; shift 2 ;;
    *) echo "unknown option $1 (use --base COMMIT, --rounds N, --quick)" >&2; exit 2 ;;
  esac
done
out=target/perf; mkdir -p "$out"
mvn -q -B -o -DskipTests -Dmaven.javadoc.skip=true -pl cubed-core test-compile
mvn -q -B -o -pl cubed-core dependency:build-classpath -Dmdep.outputFile="$PWD/$out/bench-cp.txt" >/dev/null
deps=$(cat "$out/bench-cp.txt" | tr ':' '\n' | grep -v '/cubed-core' | paste -sd: -)
# the baseline's cubed-core, compiled from `git archive` (no worktree, nothing installed)
bdir="$PWD/$out/codec-base"; rm -rf "$bdir"; mkdir -p "$bdir"
git archive "$base" | tar -x -C "$bdir"
(cd "$bdir" && mvn -q -B -o -DskipTests -Dmaven.javadoc.skip=true -pl cubed-core compile)
secs=3; warm=2
if [ "$quick" = 1 ]; then secs=1; warm=1; rounds=1; fi
# CPU seconds of the benchmark thread (CodecCpuTime), not wall time: on a shared machine the wall
# includes waiting for a core. The two sides alternate, round after round; the baseline kernel
# kept in the benchmark (shuffleArrayTranspose) and the native c-blosc rows run the same code on
# both sides: their ratios show the noise
for r in $(seq 1 "$rounds"); do
  for side in current base; do
    core=cubed-core/target/classes; [ "$side" = base ] && core="$bdir/cubed-core/target/classes"
    java -Xmx512m -cp "cubed-core/target/test-classes:$core:$deps" dev.cubed.zarr.codec.CodecCpuTime \
      "$secs" "$warm" > "$out/codec-cpu-$side-$r.txt" 2>/dev/null
  done
done
python3 - "$out" "$rounds" "$base" <<'PY'
import statistics, sys
out, rounds, base = sys.argv[1], int(sys.argv[2]), sys.argv[3][:10]
def load(side):
    runs = {}
    for r in range(1, rounds + 1):
        for line in open(f"{out}/codec-cpu-{side}-{r}.txt"):
            name, mbs = line.split()
            runs.setdefault(name, []).append(float(mbs))
    return runs
cur, bas = load("current"), load("base")
print(f"| operation | current MB/s | {base} MB/s | current / {base} |")
print("|---|---:|---:|---:|")
for name in cur:
    c = statistics.median(cur[name]); b = statistics.median(bas[name])
    print(f"| {name} | {c:,.0f} | {b:,.0f} | {c / b:.2f}x |")
print(f"(MB per CPU second of the benchmark thread; median of {rounds} alternating rounds)")
PY
