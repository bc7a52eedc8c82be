#!/usr/bin/env bash
# Browser tests drive the system Chromium (no browser download is possible here).
# Installs Debian's chromium when it is missing and we are root; otherwise says how.
set -euo pipefail
CHROMIUM="${CHROMIUM_PATH:-/usr/bin/chromium}"
if [ -x "$CHROMIUM" ]; then
  "$CHROMIUM" --version
  exit 0
fi
if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "Installing Debian's chromium for the browser tests…"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  "$CHROMIUM" --version
  exit 0
fi
echo "Chromium is missing: install it with 'sudo apt-get install chromium' (or set CHROMIUM_PATH)." >&2
exit 1
