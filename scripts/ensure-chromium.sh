#!/usr/bin/env bash
# Makes sure a Chromium for the browser tests exists, without ever downloading a
# browser build on machines that cannot: Debian's packages when we can install them,
# Playwright's own installer only as a last resort on machines with internet.
# Two packages: `chromium` (the browser the benchmark times pages in) and
# `chromium-headless-shell` (the same engine without the desktop browser, which the
# browser tests run in; they fall back to `chromium` when it cannot be installed).
set -euo pipefail

if [ -n "${CHROMIUM_PATH:-}" ] && [ -x "${CHROMIUM_PATH}" ]; then
  echo "chromium: using CHROMIUM_PATH=${CHROMIUM_PATH}"
  exit 0
fi
missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)
[ -x /usr/bin/chromium-headless-shell ] || missing+=(chromium-headless-shell)
if [ "${#missing[@]}" -gt 0 ] && command -v apt-get >/dev/null 2>&1; then
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then SUDO="sudo -n"; fi
  fi
  if [ "$(id -u)" -eq 0 ] || [ -n "$SUDO" ]; then
    echo "chromium: installing Debian's ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    $SUDO apt-get update -qq
    # The headless shell is optional: an archive without it must not stop the tests.
    $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null ||
      { [ -x /usr/bin/chromium ] || $SUDO apt-get install -y -qq chromium >/dev/null; }
  fi
fi
if [ -x /usr/bin/chromium ]; then
  echo "chromium: /usr/bin/chromium ($(/usr/bin/chromium --version 2>/dev/null | head -n 1))"
  if [ -x /usr/bin/chromium-headless-shell ]; then
    echo "chromium: the browser tests run in /usr/bin/chromium-headless-shell"
  fi
  exit 0
fi
echo "chromium: no Debian package available; trying Playwright's installer (needs internet)"
npx playwright install chromium
