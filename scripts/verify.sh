#!/usr/bin/env bash
# The one command that runs every check and test: `npm run verify`.
# It installs what the checks need (npm packages; Debian's chromium, firefox-esr and WebKitGTK's
# driver and Xvfb for the browser tests),
# then runs each step and stops at the first failure, naming it. Two lanes run side by side, each
# keeping about one core busy: Vitest, then the Gecko and WebKit suite; and tsc, the builds,
# ESLint, Prettier and the spec checks, then the Chromium suite (a browser test mostly waits on the
# demo's simulated room). Each browser suite serves its own demo build on its own ports (a court of
# its own), since the two may overlap. Each step says how long it took; a table of them closes the
# run.
set -euo pipefail
cd "$(dirname "$0")/.."

command_name=verify
# shellcheck source=scripts/lib/steps.sh
source scripts/lib/steps.sh

# Where the browser suites serve the demo (E2E_PORT, E2E_MOCK_PORT, E2E_SITE_DIR): the Chromium
# suite there, the engines' suite on the next two ports (ENGINES_PORT, ENGINES_MOCK_PORT), each
# with its own build folder, since the two run at the same time.
eval "$(node scripts/lib/suite-site.mjs)"
export E2E_PORT E2E_MOCK_PORT
ENGINES_PORT="${ENGINES_PORT:-$((E2E_PORT + 1))}"
ENGINES_MOCK_PORT="${ENGINES_MOCK_PORT:-$((E2E_MOCK_PORT + 1))}"
ENGINES_SITE_DIR=$(E2E_PORT=$ENGINES_PORT E2E_MOCK_PORT=$ENGINES_MOCK_PORT \
  node scripts/lib/suite-site.mjs | sed -n 's/.*E2E_SITE_DIR=//p')
# The Chromium suite runs two files at once: a browser test mostly waits on the demo's room, and
# one worker keeps less than one core busy. E2E_WORKERS=1 npm run verify runs one at a time.
export E2E_WORKERS="${E2E_WORKERS:-2}"

# The demo the engines' suite is served from, when it runs: stopped however verify ends.
site_pid=""
stop_site() {
  if [ -n "$site_pid" ]; then
    kill -TERM "$site_pid" 2>/dev/null || true
    wait "$site_pid" 2>/dev/null || true
    site_pid=""
  fi
}
trap stop_site EXIT

# The engines' suite on its own demo build, served on its own ports (a court of its own).
engines_on_suite_site() {
  local log url="http://127.0.0.1:$ENGINES_PORT" waited=0 status=0
  log=$(mktemp)
  PORT="$ENGINES_PORT" MOCK_PORT="$ENGINES_MOCK_PORT" \
    node scripts/start.mjs --no-install --no-build --out="$ENGINES_SITE_DIR" >"$log" 2>&1 &
  site_pid=$!
  until grep -q "on $url" "$log"; do
    if ! kill -0 "$site_pid" 2>/dev/null || [ "$waited" -ge 180 ]; then
      cat "$log"
      echo "verify: the demo for the engines' suite did not start"
      return 1
    fi
    sleep 1
    waited=$((waited + 1))
  done
  E2E_PORT="$ENGINES_PORT" E2E_MOCK_PORT="$ENGINES_MOCK_PORT" ENGINES_SITE_URL="$url/" \
    npm run --silent test:engines || status=$?
  stop_site
  return "$status"
}

# What each step runs.
run_step() {
  case "$1" in
    "typecheck") npm run --silent typecheck ;;
    "lint") npm run --silent lint ;;
    "format") npm run --silent format:check ;;
    "openapi lint") npm run --silent spec:lint ;;
    "generated client is up to date") npm run --silent generate:check ;;
    "unit, contract and gate tests") npm run --silent test ;;
    "demo build for the browser suites")
      MOCK_PORT="$E2E_MOCK_PORT" node scripts/build.mjs --demo --out="$E2E_SITE_DIR"
      ;;
    "demo build for the engines' suite")
      MOCK_PORT="$ENGINES_MOCK_PORT" node scripts/build.mjs --demo --out="$ENGINES_SITE_DIR"
      ;;
    "production build and byte budgets")
      node scripts/budget.mjs --demo-build="$E2E_SITE_DIR"
      ;;
    "browser tests") E2E_PREBUILT=1 npm run --silent test:e2e ;;
    "visitor browser tests in Gecko and WebKit") engines_on_suite_site ;;
    *)
      echo "verify: no step named \"$1\"" >&2
      return 1
      ;;
  esac
}

started_all=$SECONDS

step "dependencies"
started=$SECONDS
node -e "import('./scripts/lib/ensure-deps.mjs').then((m) => m.ensureDependencies(process.cwd()))"
took "dependencies" $((SECONDS - started))

step "browsers"
started=$SECONDS
bash scripts/ensure-chromium.sh
bash scripts/ensure-engines.sh
took "browsers" $((SECONDS - started))

together \
  "unit, contract and gate tests;demo build for the engines' suite;visitor browser tests in Gecko and WebKit" \
  "typecheck;demo build for the browser suites;production build and byte budgets;lint;format;openapi lint;generated client is up to date;browser tests"
step "dependency audit"
started=$SECONDS
# A registry that cannot answer the advisory query is reported loudly, never as a pass; it does
# not stop the other checks, since the project cannot change which registry a machine reaches.
audit_status=0
node scripts/audit.mjs || audit_status=$?
case "$audit_status" in
  0) passed=$((passed + 1)) ;;
  3) audit_note="dependency audit NOT RUN: the registry did not answer the advisory query (see above)" ;;
  *) failed "dependency audit" ;;
esac
took "dependency audit" $((SECONDS - started))

print_timings "$started_all"
printf '\n'
if [ -n "${audit_note:-}" ]; then
  printf '\033[33mverify: %s\033[0m\n' "$audit_note"
  echo "verify: $passed passed, 0 failed, 1 skipped"
else
  echo "verify: $passed passed, 0 failed"
fi
