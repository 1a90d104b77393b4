#!/usr/bin/env bash
# Drives the generated Stripe client against a third-party Stripe emulator.
#
#   sdk/clients/stripe/emulator/run.sh
#
# Installs the pinned emulator (package.json, package-lock.json: stripe-stateful-mock) into
# sdk/clients/stripe/target/emulator with `npm ci --ignore-scripts` (never into the repository),
# starts it on 127.0.0.1 on a free port, compiles the Stripe client and its test sources in the
# reactor (nothing installed), runs dev.saferetry.stripe.emulator.EmulatorScenario against
# it on the JDK, stops the emulator and exits with the scenario's status: 0 when every intent made
# exactly one effect on the emulator, 1 on a duplicate or a missing effect. Needs Node 20+, npm,
# JDK 17+ and Maven. Not part of the build or CI.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
module=$(dirname "$here")
root=$(cd "$module/../../.." && pwd)
work="$module/target/emulator"

mkdir -p "$work"
cp "$here"/package.json "$here"/package-lock.json "$here"/serve.js "$work"/
if [ ! -d "$work/node_modules" ] || ! cmp -s "$here/package-lock.json" "$work/.installed-lock"; then
  (cd "$work" && npm ci --no-audit --no-fund --ignore-scripts)
  cp "$here/package-lock.json" "$work/.installed-lock"
fi

# The client: compiled in the reactor (no install), its test class path written to a file.
(cd "$root" && mvn -B -q -pl sdk/clients/stripe -am test-compile dependency:build-classpath \
  -Dmdep.includeScope=test -Dmdep.outputFile=target/emulator-classpath.txt)
cp="$module/target/test-classes:$module/target/classes:$(cat "$module/target/emulator-classpath.txt")"

log="$work/emulator.log"
node "$work/serve.js" >"$log" 2>&1 &
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
  echo "the emulator did not start:" >&2
  cat "$log" >&2
  exit 2
fi
version=$(node -p "require('$work/node_modules/stripe-stateful-mock/package.json').version")
echo "stripe-stateful-mock $version listening on $url, log $log"
set +e
java -cp "$cp" dev.saferetry.stripe.emulator.EmulatorScenario "${url##*:}"
status=$?
echo "scenario exit $status"
exit "$status"
