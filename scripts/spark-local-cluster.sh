#!/usr/bin/env bash
# A Spark standalone cluster and an S3 test server on this machine, for trying
# `./cubed ... --executor spark` the way it runs on a real cluster (see docs/spark.md).
# Starts, all bound to 127.0.0.1 and from this checkout's Maven artifacts (no Spark download):
#   - the in-memory S3 test server (s3proxy) on port $S3_PORT (default 9000), buckets data and
#     work, with an example array s3://data/example.zarr (float64, 200 x 250 x 250, 100 MB);
#   - a Spark Master on port $SPARK_MASTER_PORT (default 7077; web UI $SPARK_MASTER_WEBUI_PORT,
#     default 8080) and $WORKERS Workers (default 2) of 1 core and 1 GB each; each Worker starts
#     one executor JVM per application, with the CLI's and the Python bridge's classes (so Python
#     functions of cubed_java clients run there, in Python workers beside the executors).
# Spark runs with scripts/spark-local-cluster.properties: no REST submission server (port 6066
# would run any jar posted to it, unauthenticated), and RPC authentication with a random secret
# made at each start, kept in $STATE/spark-secret (readable by this user only, never printed):
# only a driver given that file (--executor-option auth_secret_file=...) can use the cluster.
# The S3 test server's credentials are made the same way at each start (a random access key and
# secret) and kept in $STATE/s3-credentials (readable by this user only, never printed; `. FILE`
# sets them in a shell); $STATE itself is made 0700.
# `spark-local-cluster.sh --make-credentials DIR` only makes DIR (0700) and the two secret files in
# it, prints where they are and exits (what the tests run).
# Runs in the foreground until Ctrl-C, which stops everything. Logs: $STATE (default
# cubed-spark/target/local-cluster). Needs a JDK 17+ and Maven (first use builds the project).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
S3_PORT="${S3_PORT:-9000}"
SPARK_MASTER_PORT="${SPARK_MASTER_PORT:-7077}"
SPARK_MASTER_WEBUI_PORT="${SPARK_MASTER_WEBUI_PORT:-8080}"
WORKERS="${WORKERS:-2}"
STATE="${STATE:-$here/cubed-spark/target/local-cluster}"

# Makes directory $1 (mode 0700; an existing one must be this user's) with the secrets of one
# start, each a file of this user only (0600), so no secret is on a command line or in a log:
#   $1/spark-secret     the Spark cluster's shared secret (32 random bytes, hex)
#   $1/spark.properties the cluster's Spark settings with that secret
#   $1/s3-credentials   the S3 test server's access key and secret (export lines, for `. FILE`)
make_credentials() {
  local dir="$1"
  (
    umask 077
    mkdir -p "$dir"
    [ -O "$dir" ] && [ ! -L "$dir" ] || { echo "spark-local-cluster: $dir is not a directory of this user" >&2; exit 1; }
    chmod 700 "$dir"
    od -An -tx1 -N32 /dev/urandom | tr -d ' \n' > "$dir/spark-secret"
    { cat "$here/scripts/spark-local-cluster.properties"
      printf 'spark.authenticate.secret=%s\n' "$(cat "$dir/spark-secret")"; } > "$dir/spark.properties"
    { printf 'export AWS_ACCESS_KEY_ID=cubed-%s\n' "$(od -An -tx1 -N8 /dev/urandom | tr -d ' \n')"
      printf 'export AWS_SECRET_ACCESS_KEY=%s\n' "$(od -An -tx1 -N32 /dev/urandom | tr -d ' \n')"
      printf 'export AWS_REGION=us-east-1\n'; } > "$dir/s3-credentials"
    chmod 600 "$dir/spark-secret" "$dir/spark.properties" "$dir/s3-credentials"
  ) || exit 1
  [ "$(wc -c < "$dir/spark-secret")" -ge 64 ] \
    && [ "$(grep -c '^export AWS_SECRET_ACCESS_KEY=[0-9a-f]\{64\}$' "$dir/s3-credentials")" = 1 ] \
    || { echo "spark-local-cluster: could not make the secrets in $dir" >&2; exit 1; }
}

if [ "${1:-}" = "--make-credentials" ]; then
  [ -n "${2:-}" ] || { echo "usage: spark-local-cluster.sh --make-credentials DIR" >&2; exit 2; }
  make_credentials "$2"
  echo "spark-local-cluster: the Spark secret is in $2/spark-secret and the S3 test server's credentials in $2/s3-credentials (this user only)"
  exit 0
fi

cd "$here"
echo "spark-local-cluster: building (the CLI and the S3 test server's classpath)..." >&2
./cubed --version >/dev/null 2>&1 || ./cubed --help >/dev/null
mvn -q -B ${CUBED_MVN_FLAGS:-} test-compile dependency:build-classpath -pl cubed-s3 -am \
  -Dmdep.includeScope=test -Dmdep.outputFile=target/test-classpath.txt >&2
# the Python bridge's classes: executors run Python functions of cubed_java clients (docs/python.md)
mvn -q -B ${CUBED_MVN_FLAGS:-} compile -pl cubed-python -am >&2

rm -rf "$STATE"
make_credentials "$STATE"
mkdir -p "$STATE/spark-home/jars"
spark_secret="$STATE/spark-secret"
spark_props="$STATE/spark.properties"
s3_credentials="$STATE/s3-credentials"
java_bin="${JAVA_HOME:+$JAVA_HOME/bin/}java"
pids=()
stop() {
  trap - INT TERM EXIT
  echo "spark-local-cluster: stopping" >&2
  for p in "${pids[@]}"; do
    pkill -TERM -P "$p" 2>/dev/null || true   # a Worker's executor JVMs
    kill "$p" 2>/dev/null || true
  done
  wait 2>/dev/null || true
}
trap stop INT TERM EXIT

# the S3 test server
s3_cp="cubed-s3/target/test-classes:cubed-s3/target/classes:cubed-core/target/classes:$(cat cubed-s3/target/test-classpath.txt)"
"$java_bin" -Xmx1g -cp "$s3_cp" dev.cubed.s3.S3TestServerMain --credentials "$s3_credentials" \
  "$S3_PORT" data work \
  > "$STATE/s3.log" 2>&1 &
pids+=($!)

# Spark: the CLI's own classpath with the Python bridge's classes, also handed to the executors
# (SPARK_DIST_CLASSPATH); a cubed_java client uses it as its bridge's (CUBED_JAVA_CLASSPATH)
classes="$here/cubed-cli/target/classes:$here/cubed-bench/target/classes:$here/cubed-spark/target/classes:$here/cubed-s3/target/classes:$here/cubed-python/target/classes:$here/cubed-core/target/classes"
cp="$classes:$(cat cubed-cli/target/classpath.txt)"
printf '%s\n' "$cp" > "$STATE/python-classpath"
export SPARK_LOCAL_IP=127.0.0.1 SPARK_HOME="$STATE/spark-home" SPARK_SCALA_VERSION=2.13
export SPARK_DIST_CLASSPATH="$cp"
# the executors read and write S3 with the Workers' credentials (on a real cluster: instance
# credentials or spark.executorEnv.*), from the environment, which only this user can read; the
# endpoint travels with each store
# shellcheck disable=SC1090
. "$s3_credentials"
"$java_bin" -Xmx256m -cp "$cp" org.apache.spark.deploy.master.Master --host 127.0.0.1 \
  --port "$SPARK_MASTER_PORT" --webui-port "$SPARK_MASTER_WEBUI_PORT" \
  --properties-file "$spark_props" > "$STATE/master.log" 2>&1 &
pids+=($!)
for i in $(seq 1 "$WORKERS"); do
  mkdir -p "$STATE/worker-$i"
  "$java_bin" -Xmx256m -cp "$cp" org.apache.spark.deploy.worker.Worker \
    "spark://127.0.0.1:$SPARK_MASTER_PORT" --host 127.0.0.1 --cores 1 --memory 1g \
    --webui-port 0 --work-dir "$STATE/worker-$i" --properties-file "$spark_props" \
    > "$STATE/worker-$i.log" 2>&1 &
  pids+=($!)
done

# Polls the logs for readiness; fails at once if a process died, else after a generous deadline
# (JVMs start slowly on a busy machine).
wait_for() { # file text count seconds
  local end=$(( $(date +%s) + $4 )) p
  while [ "$(date +%s)" -lt "$end" ]; do
    if [ "$(grep -c "$2" "$1" 2>/dev/null || true)" -ge "$3" ]; then return 0; fi
    for p in "${pids[@]}"; do
      kill -0 "$p" 2>/dev/null || {
        echo "spark-local-cluster: a process (pid $p) exited while starting; see the logs in $STATE" >&2
        exit 1
      }
    done
    sleep 0.2
  done
  echo "spark-local-cluster: '$2' did not appear in $1 within $4 s; see the logs in $STATE" >&2
  exit 1
}
wait_for "$STATE/s3.log" "S3 test server on" 1 600
wait_for "$STATE/master.log" "Registering worker" "$WORKERS" 600

cat <<MSG
Ready.
  S3 test server: http://127.0.0.1:$S3_PORT (buckets data and work; example array s3://data/example.zarr)
                  its access key and secret are in $s3_credentials (this user only)
  Spark master:   spark://127.0.0.1:$SPARK_MASTER_PORT ($WORKERS workers, 1 core and 1 GB each; UI http://127.0.0.1:$SPARK_MASTER_WEBUI_PORT)
                  authenticated: the shared secret is in $spark_secret (this user only); no REST server
  Logs:           $STATE
In another shell, from $here:
  . $s3_credentials; export CUBED_S3_ENDPOINT=http://127.0.0.1:$S3_PORT
  ./cubed rechunk s3://data/example.zarr s3://data/example-rechunked.zarr --chunks 200,50,50 \\
      --work-dir s3://work/ --executor spark --executor-option spark.master=spark://127.0.0.1:$SPARK_MASTER_PORT \\
      --executor-option auth_secret_file=$spark_secret
  ./cubed info s3://data/example-rechunked.zarr
Python (cubed_java, with its functions run by Python workers beside the executors):
  CUBED_JAVA_CLASSPATH="\$(cat $STATE/python-classpath)" python -c 'import cubed_java; ...'
  with compute(executor="spark", executor_options={"spark.master": "spark://127.0.0.1:$SPARK_MASTER_PORT",
      "auth_secret_file": "$spark_secret"})
Ctrl-C stops the cluster and the server.
MSG
wait
