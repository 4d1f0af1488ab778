#!/usr/bin/env bash
# The scale run of issue 28 (not in CI: tens of minutes). Figures in docs/performance.md,
# "Scale run (issue 28)".
usage() {
  cat <<'TXT'
Usage: scripts/perf/scale-run.sh [--size SIZE] [--out DIR] [--workers N] [--allowed-mem SIZE]
                                 [--min-free-gb G] [--keep]
The quadratic-means plan (mean over time of U*U, V*V and U*V in one compute) at a size larger
than the machine's memory, as a user runs it, through ./cubed demo:
  1. ./cubed demo --dry-run: the plan's projection (ops, tasks, projected memory per task),
  2. ./cubed demo with --work-dir: U and V (T,1,987,1920) float64, chunks (10,1,987,1920),
     U = 0.5+0.5*sin(G*t+S*y+x), V = 0.5+0.5*cos(G*t-S*y+x), are written to Zarr on local disk,
     then the means are computed from the stored arrays on the processes executor, with
     --history (measured peak memory per task and op); the summed RSS of the whole process
     tree (launcher, coordinator JVM, worker JVMs) is sampled every 0.5 s,
  3. the figures are printed (markdown) and kept in DIR/report.md; the inputs are deleted.
Options:
  --size SIZE        total size of U and V (default 32GB: T=1060, 32.1 GB of float64)
  --out DIR          where the inputs, history and figures go (default target/scale-run)
  --workers N        worker processes (default 2)
  --allowed-mem SIZE memory a task may use, the worker heap (default 2GB)
  --min-free-gb G    refuse to start unless the disk keeps G GB free after the inputs
                     (counted uncompressed; default 15)
  --keep             keep the inputs (DIR/work) afterwards
  -h, --help         this text
TXT
}
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
size=32GB; out="$here/target/scale-run"; workers=2; mem=2GB; minfree=15; keep=0
while [ $# -gt 0 ]; do
  case "$1" in
    --size) size="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    --workers) workers="$2"; shift 2 ;;
    --allowed-mem) mem="$2"; shift 2 ;;
    --min-free-gb) minfree="$2"; shift 2 ;;
    --keep) keep=1; shift ;;
    -h|--help) usage; exit 0 ;;
    *) echo "scale-run.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
args=(demo --size "$size" --executor processes --workers "$workers" --allowed-mem "$mem")
mkdir -p "$out"
"$here/cubed" "${args[@]}" --dry-run > "$out/dry-run.txt" 2>/dev/null
cat "$out/dry-run.txt"
# the inputs' size as planned (uncompressed), against the disk's free space
need_gb="$(sed -n 's/^Inputs U and V:.*: \([0-9.]*\) GB in .*/\1/p' "$out/dry-run.txt")"
free_gb="$(df -B1 --output=avail "$out" | tail -1 | awk '{printf "%.1f", $1/1e9}')"
if awk -v n="${need_gb:-0}" -v f="$free_gb" -v m="$minfree" 'BEGIN{exit !(f - n < m)}'; then
  echo "scale-run.sh: $free_gb GB free under $out, the inputs need up to $need_gb GB and $minfree GB must stay free; choose a smaller --size or another --out" >&2
  exit 1
fi
rm -rf "$out/work" "$out/history"
export CUBED_SKIP_BUILD=1   # built by the dry run above
date -u +%FT%TZ > "$out/date.txt"
t0="$(date +%s%3N)"
"$here/cubed" "${args[@]}" --work-dir "$out/work" --history "$out/history" --no-progress \
  > "$out/run.txt" 2>&1 &
pid=$!
python3 "$here/scripts/perf/scale_run.py" sample "$pid" "$out/rss.csv" &
sampler=$!
rc=0; wait "$pid" || rc=$?
t1="$(date +%s%3N)"
wait "$sampler" || true
echo "$t0 $t1" > "$out/times.txt"
echo "$(du -s -B1 "$out/work/inputs" | awk '{printf "%.2f GB", $1/1e9}') allocated ($(du -s -B1 --apparent-size "$out/work/inputs" | awk '{printf "%.2f GB", $1/1e9}') apparent) in $out/work/inputs" > "$out/inputs-du.txt"
[ "$keep" = 1 ] || rm -rf "$out/work"
cat "$out/run.txt"
if [ "$rc" != 0 ]; then echo "scale-run.sh: the run failed (exit $rc); see $out/run.txt" >&2; exit "$rc"; fi
python3 "$here/scripts/perf/scale_run.py" report "$out" | tee "$out/report.md"
