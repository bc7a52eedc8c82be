#!/usr/bin/env bash
# The visitor's browser tests also run in Gecko and WebKit, both Debian's, driven offline (no
# browser download): firefox-esr over WebDriver BiDi, and WebKitGTK's MiniBrowser through
# WebKitWebDriver under Xvfb (MiniBrowser has no headless mode). Installs what is missing when we
# are root; otherwise says how. Chromium is scripts/ensure-chromium.sh.
set -euo pipefail
FIREFOX="${FIREFOX_PATH:-/usr/bin/firefox-esr}"
WEBKIT_DRIVER="${WEBKIT_DRIVER_PATH:-/usr/bin/WebKitWebDriver}"

missing=()
[ -x "$FIREFOX" ] || missing+=(firefox-esr)
[ -x "$WEBKIT_DRIVER" ] || missing+=(webkit2gtk-driver)
command -v Xvfb >/dev/null 2>&1 || missing+=(xvfb)

if [ "${#missing[@]}" -gt 0 ]; then
  if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "Installing Debian's ${missing[*]} for the browser tests…"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
  else
    echo "Missing for the browser tests: ${missing[*]}. Install with 'sudo apt-get install ${missing[*]}' (or set FIREFOX_PATH / WEBKIT_DRIVER_PATH)." >&2
    exit 1
  fi
fi

"$FIREFOX" --version
echo "WebKitWebDriver $(dpkg-query -W -f='${Version}' webkit2gtk-driver 2>/dev/null || echo '(version unknown)')"
