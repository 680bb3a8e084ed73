#!/usr/bin/env bash
# The project's test command (README: `npm test`; CI: .ci/run calls the same).
# Does its own set-up: npm dependencies, the container engine (and a second one with disk quotas,
# scripts/setup-quota-engine.sh), sandbox images, Python stubs;
# then runs the unit and the real-engine integration tests, and ends with the plain count
# "N passed, N failed" taken from vitest's own JSON summary.
set -uo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n== %s\n' "$*"; }

step "npm dependencies"
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund || { echo "npm ci failed: check the npm registry is reachable" >&2; exit 1; }
fi
npm run -s build || { echo "TypeScript build failed (npm run build)" >&2; exit 1; }

step "container engine"
bash scripts/setup-engine.sh || { echo "no container engine: the integration tests need one (see the message above)" >&2; exit 1; }

step "disk-quota engine (a second engine, for the disk-cap tests)"
bash scripts/setup-quota-engine.sh || { echo "the disk-quota engine did not start (see the message above): the disk-cap tests need it" >&2; exit 1; }

step "sandbox images"
node bin/codemidas.js images build || { echo "building the sandbox images failed (node bin/codemidas.js images build)" >&2; exit 1; }

step "python client stubs"
bash clients/python/generate.sh || { echo "generating the Python stubs failed: needs Debian's protobuf-compiler-grpc and python3-grpcio" >&2; exit 1; }

step "tests (unit, then integration against the real engine)"
report="$(mktemp -t codemidas-vitest.XXXXXX.json)"
npx vitest run --reporter=default --reporter=json --outputFile.json="$report" "$@"
status=$?
node -e '
  const fs = require("fs");
  let r;
  try { r = JSON.parse(fs.readFileSync(process.argv[1], "utf8")); }
  catch (e) { console.log("0 passed, 1 failed"); process.exit(0); }
  const skipped = r.numPendingTests + r.numTodoTests;
  const failed = r.numFailedTests + (r.numFailedTestSuites > 0 && r.numFailedTests === 0 ? 1 : 0);
  console.log(`${r.numPassedTests} passed, ${failed} failed` + (skipped ? `, ${skipped} skipped` : ""));
' "$report"
rm -f "$report"
exit $status
