# The JVM settings shared by the source tree's ./cubed and the distribution's bin/cubed, which both
# source this file and then call `cubed_jvm_setup "$@"` with the command line. It sets `heap` (the
# -Xmx value; empty means 4g), `gc_opts` and `jvm_fixed` (options every JVM of the launcher gets),
# exports MALLOC_MMAP_THRESHOLD_ and OPENBLAS_NUM_THREADS, and defines `plan_heap "$@"`, which
# refines `heap` for bench from the plan by running "$java_cmd" (default: java) on "$classpath"
# with the optional array `probe_cds`. Before any JVM starts, a heap larger than this machine's
# memory is refused with one line and exit code 2 (`check_heap`, below).
# Native libraries (the native blosc binding for non-default Blosc variants, BLAS workspaces) may
# malloc large transient buffers. A fixed glibc mmap threshold makes such buffers come from mmap and
# go back to the OS when freed, instead of staying in malloc arenas (glibc's dynamic threshold
# otherwise keeps buffers of up to 32 MB resident after they are freed).
export MALLOC_MMAP_THRESHOLD_="${MALLOC_MMAP_THRESHOLD_:-1048576}"
# The heap follows the plan: with --allowed-mem M (and --workers N, default one per processor) the
# threads executor runs at most N tasks of at most M each, so the JVM gets N x M + 192 MB (the
# engine's own live data: plan, Zarr metadata, results; the rule of docs/perf/memory.md) rather
# than a fixed 4 GB. With --executor processes the tasks run in worker JVMs with their own heaps
# and this JVM (the coordinator) gets 512 MB. CUBED_HEAP, when set, wins.
heap_from_spec() {
  local prev="" allowed="" workers="" executor=""
  for a in "$@"; do
    case "$prev" in
      --allowed-mem) allowed="$a" ;; --workers) workers="$a" ;; --executor) executor="$a" ;;
    esac
    case "$a" in
      --allowed-mem=*) allowed="${a#*=}" ;; --workers=*) workers="${a#*=}" ;;
      --executor=*) executor="${a#*=}" ;;
    esac
    prev="$a"
  done
  [ -n "$allowed" ] || return 0
  case "$workers" in ''|0) workers=$(nproc 2>/dev/null || echo 2) ;; *[!0-9]*) return 0 ;; esac
  if [ "$executor" = processes ]; then echo 512m; return 0; fi
  # Spec.parseBytes' units (decimal KB/MB/GB/TB, binary KiB/MiB/GiB/TiB); anything else: no heap
  echo "$allowed" | awk -v w="$workers" '{
    s = toupper($0); gsub(/[ _]/, "", s)
    if (!match(s, /^[0-9]+(\.[0-9]+)?/)) exit
    n = substr(s, 1, RLENGTH); u = substr(s, RLENGTH + 1)
    m["" ] = 1; m["B"] = 1; m["K"] = 1e3; m["KB"] = 1e3; m["M"] = 1e6; m["MB"] = 1e6
    m["G"] = 1e9; m["GB"] = 1e9; m["T"] = 1e12; m["TB"] = 1e12; m["KIB"] = 1024
    m["MIB"] = 1048576; m["GIB"] = 1073741824; m["TIB"] = 1099511627776
    if (!(u in m)) exit
    printf "%dm\n", int(w * n * m[u] / 1048576) + 192
  }'
}
# OpenBLAS (matmul's dgemm) starts one thread per core for every call. When the engine already runs
# one task per core (--workers other than 1; the default is one per processor), those threads only
# compete with the other tasks and spin between calls, so each call gets one thread: the same
# throughput with less CPU and about 100 MB less memory (docs/performance.md, matmul). Worker JVMs
# of --executor processes inherit it. OPENBLAS_NUM_THREADS, when set, wins.
blas_threads() {
  local prev="" workers=""
  for a in "$@"; do
    [ "$prev" = --workers ] && workers="$a"
    case "$a" in --workers=*) workers="${a#*=}" ;; esac
    prev="$a"
  done
  [ "$workers" = 1 ] || echo 1
}
# The collector: G1 with the heap starting small and kept within 10-70% free after collections,
# plus a collection after a quarter second without one, so the process holds about what the tasks hold
# live instead of growing to -Xmx (the maximum above stays the safety bound). On add (medium) this
# halved the peak RSS against ParallelGC for about 6% more wall time; Serial kept a little less but
# took twice the time; shrinking down to 30% free made G1 shrink and re-grow the heap around every
# concurrent cycle and raised add's peak by a third (docs/cli.md). A concurrent cycle starts only
# above 85% occupancy (fixed, not G1's adaptive 45%): chunk-sized arrays are humongous objects, and
# with the heap sized to the plan each one otherwise started a concurrent cycle (rechunk medium:
# 430 cycles, 982 pauses; 9-25% less wall time without them on add, reduce, rechunk and
# quadratic_means; dead humongous arrays are freed by young collections either way).
# CUBED_GC_OPTS replaces all this. The same list is dev.cubed.JvmOptions.GC_OPTIONS, which `cubed
# env` prints for programs embedding the engine (EnvCommandTest keeps the two equal).
gc_opts="${CUBED_GC_OPTS:--XX:+UseG1GC -Xms32m -XX:MinHeapFreeRatio=10 -XX:MaxHeapFreeRatio=70 -XX:G1PeriodicGCInterval=250 -XX:-G1UseAdaptiveIHOP -XX:InitiatingHeapOccupancyPercent=85}"
# Options every JVM of this script gets (the plan probe, the archive-writing run, the run): the
# Vector API module (FastTrig) and FastTrig's JIT options (its vector loop compiled after a few
# dozen calls, not thousands: FastTrig.JIT_OPTIONS, the same list), the tile drivers' JIT option
# (the optimizing compiler kept off the per-tile code of tiled reductions for twenty times the
# usual count: its compile time came out of the tasks' and never paid back within a run;
# TileJitOptions.OPTIONS), a 1 MB cap on the per-thread temporary direct buffers of file I/O.
jvm_fixed=(--add-modules jdk.incubator.vector -XX:CompileCommand=quiet
  -XX:CompileCommand=option,dev.cubed.nd.elementwise.VectorTrig::eval,double,CompileThresholdScaling,0.01
  '-XX:CompileCommand=option,dev.cubed.plan.eval.TiledEvaluation*::*,double,CompileThresholdScaling,20.0'
  -Djdk.nio.maxCachedBufferSize=1048576)
# The heap follows the plan (bench): a bench run on the threads executor first plans its workload
# in a short JVM of its own (`bench --plan-heap`: writes the inputs if they are not cached, plans
# every compute without running it) and then gets the heap those plans need: the live baseline,
# and workers x (largest projected task - reservedMem), plus a slack
# (docs/cli.md). A collector given more heap than that fills it with garbage before collecting,
# so the process would hold several times what its tasks hold. The spec heap above stays the upper
# bound; CUBED_HEAP (set) or CUBED_PLAN_HEAP=0 skips this.
plan_heap() {
  [ "${1:-}" = bench ] && [ -z "${CUBED_HEAP:-}" ] && [ "${CUBED_PLAN_HEAP:-1}" != 0 ] || return 0
  local prev="" executor=threads
  for a in "$@"; do
    case "$a" in -h|--help|-V|--version|--list-executors|--plan-heap) return 0 ;; esac
    [ "$prev" = --executor ] && executor="$a"
    case "$a" in --executor=*) executor="${a#*=}" ;; esac
    prev="$a"
  done
  [ "$executor" = threads ] || return 0
  local out
  out="$("${java_cmd:-java}" -Xmx"${heap:-4g}" $gc_opts -Xlog:disable -Xlog:all=warning:stderr "${jvm_fixed[@]}" \
    ${CUBED_JAVA_OPTS:-} ${probe_cds[@]+"${probe_cds[@]}"} -cp "$classpath" dev.cubed.cli.Main \
    "$@" --plan-heap 2>/dev/null | grep "^plan-heap-bytes [0-9]" | tail -1)" || return 0
  case "$out" in
    "plan-heap-bytes "[0-9]*)
      local mb=$(( (${out#plan-heap-bytes } + 1048575) / 1048576 ))
      local cap="${heap%m}"
      case "$cap" in *[!0-9]*|'') ;; *) [ "$mb" -le "$cap" ] || mb="$cap" ;; esac
      heap="${mb}m"
      echo "cubed: heap ${heap} from the plan (bench --plan-heap; CUBED_PLAN_HEAP=0: the spec bound)" >&2 ;;
  esac
}
# The machine's memory in bytes: MemTotal of /proc/meminfo, or the cgroup's memory limit when one
# is set and lower (cgroup v2 memory.max, v1 memory.limit_in_bytes). Empty when unknown.
# CUBED_TEST_MEMINFO and CUBED_TEST_CGROUP (files) stand in for those for the launcher's tests.
machine_mem_bytes() {
  local total="" lim f
  total="$(awk '/^MemTotal:/ { printf "%.0f", $2 * 1024; exit }' \
    "${CUBED_TEST_MEMINFO:-/proc/meminfo}" 2>/dev/null || true)"
  for f in ${CUBED_TEST_CGROUP:-/sys/fs/cgroup/memory.max /sys/fs/cgroup/memory/memory.limit_in_bytes}; do
    [ -r "$f" ] || continue
    lim="$(head -c 64 "$f" 2>/dev/null | tr -d '[:space:]')"
    case "$lim" in ''|*[!0-9]*) continue ;; esac   # "max": no limit
    if [ -z "$total" ] || awk -v a="$lim" -v b="$total" 'BEGIN { exit !(a < b) }'; then
      total="$lim"
    fi
  done
  echo "$total"
}
# A -Xmx value (512m, 4g, 2048k, 1t, bytes) in bytes; empty if not of that form.
heap_bytes() {
  echo "$1" | awk '{
    s = tolower($0)
    if (!match(s, /^[0-9]+[kmgt]?$/)) exit
    n = s + 0; u = substr(s, length(s))
    f = (u == "k") ? 1024 : (u == "m") ? 1048576 : (u == "g") ? 1073741824 \
      : (u == "t") ? 1099511627776 : 1
    printf "%.0f\n", n * f
  }'
}
# The option value as given on the command line (OPTION VALUE or OPTION=VALUE), or empty.
option_value() {
  local name="$1" prev="" a v=""
  shift
  for a in "$@"; do
    [ "$prev" = "$name" ] && v="$a"
    case "$a" in "$name"=*) v="${a#*=}" ;; esac
    prev="$a"
  done
  echo "$v"
}
# Refuses, before any JVM starts, a heap this machine cannot give: prints one line
# `cubed CMD: --workers N x --allowed-mem M needs a H GB heap, more than this machine's T GB of
# memory; lower --workers or --allowed-mem` (or naming CUBED_HEAP when that set the heap) and exits
# with 2, a usage error. The JVM would otherwise fail with "Could not reserve enough space for
# object heap", or take memory the machine does not have.
check_heap() {
  [ -n "$heap" ] || return 0
  local want have cmd=cubed
  want="$(heap_bytes "$heap")"
  have="$(machine_mem_bytes)"
  [ -n "$want" ] && [ -n "$have" ] || return 0
  awk -v a="$want" -v b="$have" 'BEGIN { exit !(a > b) }' || return 0
  case "${1:-}" in [a-z]*) cmd="cubed $1" ;; esac
  gb() { awk -v b="$1" 'BEGIN { g = b / 1e9; printf (g < 100 ? "%.1f" : "%.0f"), g }'; }
  if [ -n "${CUBED_HEAP:-}" ]; then
    echo "$cmd: CUBED_HEAP=$CUBED_HEAP asks for a $(gb "$want") GB heap, more than this" \
      "machine's $(gb "$have") GB of memory; lower CUBED_HEAP" >&2
  else
    local workers allowed
    workers="$(option_value --workers "$@")"
    allowed="$(option_value --allowed-mem "$@")"
    case "$workers" in
      ''|0) workers="$(nproc 2>/dev/null || echo 2) workers (one per processor)" ;;
      *) workers="--workers $workers" ;;
    esac
    echo "$cmd: $workers x --allowed-mem $allowed needs a $(gb "$want") GB heap, more than" \
      "this machine's $(gb "$have") GB of memory; lower --workers or --allowed-mem" >&2
  fi
  exit 2
}
# A dry run plans and prints, it runs no task: its JVM needs no room for workers x --allowed-mem, so
# the heap from the spec is capped at 1 GB for it (CUBED_HEAP still wins).
dry_run_heap() {
  local a
  for a in "$@"; do
    if [ "$a" = --dry-run ]; then
      local b
      b="$(heap_bytes "$heap")"
      if [ -n "$b" ] && [ "$b" -gt 1073741824 ]; then heap=1024m; fi
      return 0
    fi
  done
}
cubed_jvm_setup() {
  heap="${CUBED_HEAP:-$(heap_from_spec "$@")}"
  [ -n "${CUBED_HEAP:-}" ] || dry_run_heap "$@"
  check_heap "$@"
  if [ -z "${OPENBLAS_NUM_THREADS:-}" ] && [ -n "$(blas_threads "$@")" ]; then
    export OPENBLAS_NUM_THREADS=1
  fi
}
