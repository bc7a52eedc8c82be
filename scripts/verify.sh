#!/usr/bin/env bash
# The one command that runs every check and test: `npm run verify`.
# It installs what the checks need (npm packages; Debian's chromium, firefox-esr and WebKitGTK's
# driver and Xvfb for the browser tests),
# then runs each step in order and stops at the first failure, naming it.
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n\033[1m== %s ==\033[0m\n' "$1"; }

step "dependencies"
node -e "import('./scripts/lib/ensure-deps.mjs').then((m) => m.ensureDependencies(process.cwd()))"

step "browsers"
bash scripts/ensure-chromium.sh
bash scripts/ensure-engines.sh

passed=0
run() {
  local name="$1"
  shift
  step "$name"
  if ! "$@"; then
    printf '\n\033[31mverify: step "%s" failed\033[0m\n' "$name" >&2
    echo "verify: $passed passed, 1 failed"
    exit 1
  fi
  passed=$((passed + 1))
}

run "typecheck" npm run --silent typecheck
run "lint" npm run --silent lint
run "format" npm run --silent format:check
run "openapi lint" npm run --silent spec:lint
run "generated client is up to date" npm run --silent generate:check
run "unit and contract tests" npm run --silent test
run "production build and byte budgets" npm run --silent budget
step "dependency audit"
# A registry that cannot answer the advisory query is reported loudly, never as a pass; it does
# not stop the other checks, since the project cannot change which registry a machine reaches.
audit_status=0
node scripts/audit.mjs || audit_status=$?
case "$audit_status" in
  0) passed=$((passed + 1)) ;;
  3) audit_note="dependency audit NOT RUN: the registry did not answer the advisory query (see above)" ;;
  *)
    printf '\n\033[31mverify: step "dependency audit" failed\033[0m\n' >&2
    echo "verify: $passed passed, 1 failed"
    exit 1
    ;;
esac
run "browser tests" npm run --silent test:e2e
run "visitor browser tests in Gecko and WebKit" npm run --silent test:engines

printf '\n'
if [ -n "${audit_note:-}" ]; then
  printf '\033[33mverify: %s\033[0m\n' "$audit_note"
  echo "verify: $passed passed, 0 failed, 1 skipped"
else
  echo "verify: $passed passed, 0 failed"
fi
