#!/usr/bin/env bash
# Browser tests drive the system Chromium (no browser download is possible here): the whole
# browser (the bench, the screenshots, the arrival matrix) and its headless shell (the Playwright
# suite; scripts/lib/chromium.mjs says why). Installs Debian's chromium and
# chromium-headless-shell, one release for both, when either is missing and we are root;
# otherwise says how.
set -euo pipefail
CHROMIUM="${CHROMIUM_PATH:-/usr/bin/chromium}"
SHELL_CHROMIUM="${E2E_CHROMIUM_PATH:-/usr/bin/chromium-headless-shell}"
say_versions() {
  "$CHROMIUM" --version
  echo "$("$SHELL_CHROMIUM" --version) (headless shell)"
}
if [ -x "$CHROMIUM" ] && [ -x "$SHELL_CHROMIUM" ]; then
  say_versions
  exit 0
fi
if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "Installing Debian's chromium and chromium-headless-shell for the browser tests…"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-headless-shell >/dev/null
  say_versions
  exit 0
fi
echo "Chromium is missing: install it with 'sudo apt-get install chromium chromium-headless-shell' (or set CHROMIUM_PATH and E2E_CHROMIUM_PATH)." >&2
exit 1
