#!/usr/bin/env bash
# Runs data-apis/array-api-tests against cubed_java.array_api and NumPy at the same settings
# (docs/python.md, "Array API conformance"). Usage:
#
#   scripts/array-api-tests.sh [cubed_java|numpy|both] [extra pytest arguments...]
#
# Settings (environment):
#   AAT_DIR      the suite's checkout, outside the repository (default /work/aat); made with git
#                when missing (snapshot AAT_COMMIT, its array-api submodule at its pinned commit)
#   AAT_ENV      the virtual environment, outside the repository (default /work/aat-env); made
#                when missing with pip from the machine's package index
#   AAT_OUT      where the outputs go (default $AAT_DIR/runs); one log per module and run
#   AAT_EXAMPLES Hypothesis max examples (default 50)
#   AAT_WORKERS  pytest-xdist workers (default 0: one process, as the counts in docs/python.md)
#   AAT_TIMEOUT  per-test timeout in seconds (default 1800)
#
# cubed_java runs from this clone (CUBED_JAVA_HOME, development mode): build it first with
#   mvn -q -B package -DskipTests -pl cubed-python -am
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
which=${1:-both}
shift || true
AAT_DIR=${AAT_DIR:-/work/aat}
AAT_ENV=${AAT_ENV:-/work/aat-env}
AAT_OUT=${AAT_OUT:-$AAT_DIR/runs}
AAT_EXAMPLES=${AAT_EXAMPLES:-50}
AAT_WORKERS=${AAT_WORKERS:-0}
AAT_TIMEOUT=${AAT_TIMEOUT:-1800}
AAT_COMMIT=${AAT_COMMIT:-55fcc60}          # array-api-tests; its submodule array-api: 5f847a3
HYPOTHESIS_VERSION=${HYPOTHESIS_VERSION:-6.168.3}
NUMPY_VERSION=${NUMPY_VERSION:-2.4.6}

case "$AAT_DIR" in "$here"|"$here"/*) echo "AAT_DIR must be outside the repository" >&2; exit 2;; esac
case "$AAT_ENV" in "$here"|"$here"/*) echo "AAT_ENV must be outside the repository" >&2; exit 2;; esac

if [ ! -d "$AAT_DIR/array_api_tests" ]; then
  git clone https://github.com/data-apis/array-api-tests "$AAT_DIR"
  git -C "$AAT_DIR" checkout "$AAT_COMMIT"
  git -C "$AAT_DIR" submodule update --init
fi

if [ ! -x "$AAT_ENV/bin/python" ]; then
  python3 -m venv "$AAT_ENV"
  PIP_RETRIES=0 "$AAT_ENV/bin/pip" install -q "hypothesis==$HYPOTHESIS_VERSION" \
    "numpy==$NUMPY_VERSION" pytest ndindex pytest-timeout pytest-xdist
fi

# Two local changes to the suite's conftest.py (the same for every module run):
# 1. it does not import `reporting` (pytest-json-report is not on this machine's index);
# 2. its Hypothesis profile has no database (no example saved by one module's run is replayed in
#    another's) and no shrink phase (a failing example is reported as generated: shrinking through
#    the bridge takes minutes per failing test and does not change the count).
conf="$AAT_DIR/conftest.py"
if ! grep -q "cubed-java local change" "$conf"; then
  sed -i 's/^from reporting import /# cubed-java local change: no reporting\n# from reporting import /' "$conf"
  sed -i 's/^        deadline=deadline,$/        deadline=deadline,\n        database=None,  # cubed-java local change\n        phases=[Phase.explicit, Phase.reuse, Phase.generate, Phase.target],/' "$conf"
  sed -i 's/^from hypothesis import settings$/from hypothesis import settings, Phase/' "$conf"
fi

mkdir -p "$AAT_OUT"
run() {
  local module=$1 name=$2; shift 2
  local log="$AAT_OUT/$name-$(date -u +%Y%m%dT%H%M%S).log"
  local xdist=()
  [ "$AAT_WORKERS" != 0 ] && xdist=(-n "$AAT_WORKERS")
  echo "$name: $log"
  (cd "$AAT_DIR" && ARRAY_API_TESTS_MODULE=$module "$AAT_ENV/bin/python" -m pytest array_api_tests \
      --max-examples="$AAT_EXAMPLES" --hypothesis-derandomize --hypothesis-disable-deadline \
      -p no:cacheprovider --timeout="$AAT_TIMEOUT" -rf -q "${xdist[@]}" "$@") > "$log" 2>&1 || true
  tail -n 1 "$log"
}

if [ "$which" = cubed_java ] || [ "$which" = both ]; then
  CUBED_JAVA_HOME=$here PYTHONPATH=$here/python run cubed_java.array_api cubed_java "$@"
fi
if [ "$which" = numpy ] || [ "$which" = both ]; then
  run numpy numpy "$@"
fi
