#!/usr/bin/env bash
# Every test: lint, types, unit + integration (real embedded ClickHouse), then the
# Playwright specs against the built app in real Chromium.
set -euo pipefail
cd "$(dirname "$0")/.."
export NEXT_TELEMETRY_DISABLED=1

bash scripts/ensure-chromium.sh

echo "== lint"
npm run --silent lint
echo "== type-check"
npm run --silent typecheck
echo "== unit and integration tests"
npm run --silent test:unit
echo "== build"
# A sentinel password in the build environment: e2e/security.spec.ts checks it never reaches the client bundles.
export CLICKHOUSE_PASSWORD="loom-runs-sentinel-$(date +%s)"
npx next build
echo "== browser tests"
E2E_PORT="$(node scripts/free-port.mjs)"
export E2E_PORT
npx playwright test
