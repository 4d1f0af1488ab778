#!/usr/bin/env bash
# JMH of the Zarr chunk codec (ByteShuffleBench: byte shuffle/unshuffle of a 256 KiB block, encode
# and decode of an 8 MB float64 chunk with Blosc-LZ4 + byte shuffle) against this tree's
# cubed-core and, right after, against the cubed-core of a baseline commit (default: where this branch left main), with
# the same benchmark classes; prints MB/s and the ratio current / baseline per benchmark.
# Usage: scripts/perf/zarr-codec-bench.sh [--base COMMIT] [--quick]
set -euo pipefail
cd "$(dirname "$0")/../.."
base=$(git merge-base main HEAD); quick=0
while [ $# -gt 0 ]; do
  case "$1" in
    --base) base="$2"; shift 2 ;;
    --quick) quick=1; shift ;;
    *) echo "unknown option $1 (use --base COMMIT, --quick)" >&2; exit 2 ;;
  esac
done
out=target/perf; mkdir -p "$out"
mvn -q -B -o -DskipTests -Dmaven.javadoc.skip=true -pl cubed-bench -am package
mvn -q -B -o -pl cubed-bench dependency:build-classpath -Dmdep.outputFile="$PWD/$out/bench-cp.txt" >/dev/null
deps=$(cat "$out/bench-cp.txt" | tr ':' '\n' | grep -v '/cubed-core' | paste -sd: -)
# the baseline's cubed-core, compiled from `git archive` (no worktree, nothing installed)
bdir="$PWD/$out/codec-base"; rm -rf "$bdir"; mkdir -p "$bdir"
git archive "$base" | tar -x -C "$bdir"
(cd "$bdir" && mvn -q -B -o -DskipTests -Dmaven.javadoc.skip=true -pl cubed-core compile)
jmh=(-rf json)
if [ "$quick" = 1 ]; then jmh+=(-wi 2 -i 3 -w 1s -r 1s); fi

for side in current base; do
  core=cubed-core/target/classes; [ "$side" = base ] && core="$bdir/cubed-core/target/classes"
  java -cp "cubed-bench/target/classes:$core:$deps" org.openjdk.jmh.Main \
    'dev.cubed.zarr.ByteShuffleBench' "${jmh[@]}" -rff "$out/jmh-codec-$side.json" \
    -jvmArgsAppend "-Xmx512m" >&2
done
python3 - "$out/jmh-codec-current.json" "$out/jmh-codec-base.json" "$base" <<'PY'
import json, sys
cur = {r["benchmark"].rsplit(".", 1)[1]: r for r in json.load(open(sys.argv[1]))}
bas = {r["benchmark"].rsplit(".", 1)[1]: r for r in json.load(open(sys.argv[2]))}
def mbs(name, r):
    p = r["params"]
    b = 8 * int(p["chunkSide"]) ** 2 if "Chunk" in name else int(p["bytes"])
    return b / r["primaryMetric"]["score"]  # bytes per microsecond = MB/s
print(f"| benchmark | current MB/s | {sys.argv[3]} MB/s | current / {sys.argv[3]} |")
print("|---|---:|---:|---:|")
for name in cur:
    c = mbs(name, cur[name]); b = mbs(name, bas[name]) if name in bas else None
    print(f"| {name} | {c:,.0f} | " + (f"{b:,.0f} | {c / b:.2f}x |" if b else "| |"))
PY
