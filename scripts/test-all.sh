#!/usr/bin/env bash
# Every test: lint, types, unit + integration (real embedded ClickHouse), then the
# Playwright specs against the built app in real Chromium. The production build runs
# beside the unit tests (its log is printed when it ends); the browser tests wait for both.
set -euo pipefail
cd "$(dirname "$0")/.."
export NEXT_TELEMETRY_DISABLED=1
started=$SECONDS
stamp() { echo "   ($(( SECONDS - started )) s so far)"; }

bash scripts/ensure-chromium.sh

echo "== lint and type-check"
npm run --silent lint &
lint=$!
npm run --silent typecheck
wait "$lint"
stamp

echo "== build (in the background) and unit and integration tests"
build_log="$(mktemp)"
# A sentinel password in the build environment: e2e/security.spec.ts checks it never reaches the client bundles.
sentinel="loom-runs-sentinel-$(date +%s)"
CLICKHOUSE_PASSWORD="$sentinel" npx next build >"$build_log" 2>&1 &
build=$!
unit_status=0
npm run --silent test:unit || unit_status=$?
build_status=0
wait "$build" || build_status=$?
echo "== build log"
cat "$build_log"
rm -f "$build_log"
if [ "$unit_status" -ne 0 ]; then echo "unit and integration tests failed"; exit "$unit_status"; fi
if [ "$build_status" -ne 0 ]; then echo "build failed"; exit "$build_status"; fi
stamp

echo "== browser tests"
export CLICKHOUSE_PASSWORD="$sentinel"
E2E_PORT="$(node scripts/free-port.mjs)"
export E2E_PORT
npx playwright test
stamp
