#!/usr/bin/env bash
# Makes sure a Chromium for the browser tests exists, without ever downloading a
# browser build on machines that cannot: Debian's package when we can install it,
# Playwright's own installer only as a last resort on machines with internet.
set -euo pipefail

if [ -n "${CHROMIUM_PATH:-}" ] && [ -x "${CHROMIUM_PATH}" ]; then
  echo "chromium: using CHROMIUM_PATH=${CHROMIUM_PATH}"
  exit 0
fi
if [ -x /usr/bin/chromium ]; then
  echo "chromium: /usr/bin/chromium ($(/usr/bin/chromium --version 2>/dev/null | head -n 1))"
  exit 0
fi
if command -v apt-get >/dev/null 2>&1; then
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then SUDO="sudo -n"; fi
  fi
  if [ "$(id -u)" -eq 0 ] || [ -n "$SUDO" ]; then
    echo "chromium: installing Debian's chromium package"
    export DEBIAN_FRONTEND=noninteractive
    $SUDO apt-get update -qq
    $SUDO apt-get install -y -qq chromium >/dev/null
    echo "chromium: $(/usr/bin/chromium --version 2>/dev/null | head -n 1)"
    exit 0
  fi
fi
echo "chromium: no Debian package available; trying Playwright's installer (needs internet)"
npx playwright install chromium
