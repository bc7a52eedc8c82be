#!/usr/bin/env bash
# The one command that runs every check and test: `npm run verify`.
# It installs what the checks need (npm packages, and Debian's chromium for the browser tests),
# then runs each step in order and stops at the first failure, naming it.
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n\033[1m== %s ==\033[0m\n' "$1"; }

step "dependencies"
node -e "import('./scripts/lib/ensure-deps.mjs').then((m) => m.ensureDependencies(process.cwd()))"

step "chromium"
bash scripts/ensure-chromium.sh

run() {
  local name="$1"
  shift
  step "$name"
  if ! "$@"; then
    printf '\n\033[31mverify: step "%s" failed\033[0m\n' "$name" >&2
    exit 1
  fi
}

run "typecheck" npm run --silent typecheck
run "lint" npm run --silent lint
run "format" npm run --silent format:check
run "openapi lint" npm run --silent spec:lint
run "generated client is up to date" npm run --silent generate:check
run "unit and contract tests" npm run --silent test
run "production build and byte budgets" npm run --silent budget
run "dependency audit" npm run --silent audit:prod
run "browser tests" npm run --silent test:e2e

printf '\n\033[32mverify: every check passed\033[0m\n'
