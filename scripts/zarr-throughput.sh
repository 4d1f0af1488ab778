#!/usr/bin/env bash
# Zarr write/read throughput of a 1 GiB float64 array (16 MiB chunks; zstd level 1, blosc-lz4,
# none) beside `cp` of the same bytes on the same disk, as a Markdown table.
# Usage: scripts/zarr-throughput.sh [--dir DIR] [--size-mb N] [--chunk-mb N] [--threads N]
# DIR defaults to target/zarr-throughput (same disk as the checkout); it is deleted afterwards.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$here"
mvn -q -o -B -pl cubed-bench -am -DskipTests compile dependency:build-classpath \
  -Dmdep.outputFile="$here/target/bench-classpath.txt" >&2
cp="cubed-bench/target/classes:cubed-core/target/classes:$(cat "$here/target/bench-classpath.txt")"
exec java -Xmx2g -XX:+UseParallelGC -cp "$cp" dev.cubed.bench.ZarrThroughput "$@"
