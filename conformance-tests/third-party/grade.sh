#!/usr/bin/env bash
# Grades Idempotency-Key middlewares from the npm registry with the SafeRetry conformance suite.
#
#   conformance-tests/third-party/grade.sh NAME [suite options...]
#
# NAME: express-idempotency | node-idempotency-nestjs | node-idempotency-nestjs-short-ttl |
#       aws-lambda-powertools-idempotency | node-idempotency-core
# Installs the pinned packages (package.json, package-lock.json) into conformance-tests/target/
# third-party with `npm ci --ignore-scripts` (never into the repository), starts the tiny app
# around the middleware on 127.0.0.1, runs the suite jar against it with the app's profile,
# stops the app and exits with the suite's status (RUNS=2: two runs in a row against the same app,
# the last run's status). Needs Node 20+, npm and the suite jar
# (`mvn -B verify`, or `mvn -B -pl conformance-tests -am package -DskipTests`). Not part of CI.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
module=$(dirname "$here")
work="$module/target/third-party"
name=${1:-}
shift || true
profile="ietf,$here/$name.properties"
case "$name" in
  express-idempotency | node-idempotency-nestjs) app=$name ;;
  aws-lambda-powertools-idempotency)
    app=$name
    export LAMBDA_TIMEOUT_MS=10000 EXPIRES_AFTER_SECONDS=15
    ;;
  node-idempotency-core)
    app=$name
    export CACHE_TTL_MS=15000
    ;;
  node-idempotency-nestjs-short-ttl)
    app=node-idempotency-nestjs
    profile="ietf,$here/$app.properties,$here/$name.properties"
    export CACHE_TTL_MS=8000
    ;;
  *)
    echo "usage: grade.sh express-idempotency|node-idempotency-nestjs|node-idempotency-nestjs-short-ttl|aws-lambda-powertools-idempotency|node-idempotency-core [suite options]" >&2
    exit 2
    ;;
esac
jar=$(ls "$module"/target/saferetry-conformance-*-all.jar 2>/dev/null | head -1 || true)
if [ -z "$jar" ]; then
  echo "no suite jar in $module/target: run mvn -B -pl conformance-tests -am package -DskipTests" >&2
  exit 2
fi
mkdir -p "$work"
cp "$here"/package.json "$here"/package-lock.json "$here"/*.js "$work"/
if [ ! -d "$work/node_modules" ] || ! cmp -s "$here/package-lock.json" "$work/.installed-lock"; then
  (cd "$work" && npm ci --no-audit --no-fund --ignore-scripts)
  cp "$here/package-lock.json" "$work/.installed-lock"
fi
log="$work/$name.log"
node "$work/$app-app.js" 0 >"$log" 2>&1 &
pid=$!
trap 'kill "$pid" 2>/dev/null || true' EXIT
url=""
for _ in $(seq 1 100); do
  url=$(grep -o 'http://127.0.0.1:[0-9]*' "$log" | head -1 || true)
  [ -n "$url" ] && break
  kill -0 "$pid" 2>/dev/null || break
  sleep 0.1
done
if [ -z "$url" ]; then
  echo "the $app app did not start:" >&2
  cat "$log" >&2
  exit 2
fi
echo "$app ($name) listening on $url, log $log"
# RUNS=2 grades the same app (the same state) twice in a row: a case must never pass on what an
# earlier run left behind, so the verdicts must not differ.
runs=${RUNS:-1}
set +e
for run in $(seq 1 "$runs"); do
  reports="$module/target/third-party-reports/$name"
  [ "$runs" -gt 1 ] && reports="$reports/run-$run"
  java -jar "$jar" --target "$url" --profile "$profile" --report-dir "$reports" "$@"
  status=$?
  echo "run $run of $runs: exit $status, reports in $reports"
done
exit "$status"
