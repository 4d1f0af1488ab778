#!/usr/bin/env bash
# Runs the test suite the way a busy CI machine would: the README's test command (mvn -B verify)
# with LOAD (default 2) CPU-bound processes running beside it the whole time, then reports its
# exit code and wall time. The load processes are killed at the end, also on Ctrl-C or an error.
# Use it to check that no test relies on a fast machine (fixed short waits for a JVM to start).
#   scripts/ci-under-load.sh                 # mvn -B verify under load
#   CMD='mvn -o -B -pl cubed-spark -am verify' scripts/ci-under-load.sh   # another command
#   LOAD=4 scripts/ci-under-load.sh          # more load
# Exit code: the command's.
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CMD="${CMD:-mvn -B verify}"
LOAD="${LOAD:-2}"
case "$LOAD" in ''|*[!0-9]*) echo "ci-under-load: LOAD must be a number, got '$LOAD'" >&2; exit 2 ;; esac
burners=()
cmd_pid=""
stop_load() {
  local p
  for p in ${burners[@]+"${burners[@]}"}; do
    kill "$p" 2>/dev/null || true
  done
  for p in ${burners[@]+"${burners[@]}"}; do
    wait "$p" 2>/dev/null || true
  done
  burners=()
}
# on Ctrl-C or TERM: the load and the command (its whole process group) stop at once
stop_all() {
  stop_load
  [ -z "$cmd_pid" ] || kill -TERM -- "-$cmd_pid" 2>/dev/null || true
}
trap 'stop_load' EXIT
trap 'stop_all; exit 130' INT
trap 'stop_all; exit 143' TERM
for _ in $(seq 1 "$LOAD"); do
  sh -c 'while :; do :; done' &
  burners+=($!)
done
echo "ci-under-load: $LOAD CPU-bound processes (pids ${burners[*]:-none}) beside: $CMD" >&2
start=$(date +%s)
# in the background, in a process group of its own, so that a signal reaches the traps at once
set -m
(cd "$here" && eval "$CMD") &
cmd_pid=$!
set +m
wait "$cmd_pid"
rc=$?
cmd_pid=""
end=$(date +%s)
stop_load
secs=$((end - start))
printf 'ci-under-load: exit code %d, wall time %d s (%dm%02ds), load %d (%s)\n' \
  "$rc" "$secs" $((secs / 60)) $((secs % 60)) "$LOAD" "$CMD" >&2
exit "$rc"
