#!/usr/bin/env bash
# The one command that runs every check and test: `npm run verify`.
# It installs what the checks need (npm packages; Debian's chromium, firefox-esr and WebKitGTK's
# driver and Xvfb for the browser tests),
# then runs each step and stops at the first failure, naming it. Steps that do not compete for a
# core run side by side (Vitest, tsc, ESLint and Prettier each keep about one busy), and
# the demo is built once for both browser suites. Each step says how long it took; a table of them
# closes the run.
set -euo pipefail
cd "$(dirname "$0")/.."
# Every tool runs on the project's own Node once the dependencies are in (node_modules/.bin/node;
# docs/decisions/0010-project-node.md): first on the PATH, as npm puts it for its scripts.
export PATH="$PWD/node_modules/.bin:$PATH"

command_name=verify
# shellcheck source=scripts/lib/steps.sh
source scripts/lib/steps.sh

# Where the browser suites serve the demo (E2E_PORT, E2E_MOCK_PORT, E2E_SITE_DIR).
eval "$(node scripts/lib/suite-site.mjs)"
export E2E_PORT E2E_MOCK_PORT
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

# The engines' suite on the demo build the Chromium suite used, served afresh (a new court).
engines_on_suite_site() {
  local log url="http://127.0.0.1:$E2E_PORT" waited=0 status=0
  log=$(mktemp)
  PORT="$E2E_PORT" MOCK_PORT="$E2E_MOCK_PORT" \
    node scripts/start.mjs --no-install --no-build --out="$E2E_SITE_DIR" >"$log" 2>&1 &
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
  ENGINES_SITE_URL="$url/" npm run --silent test:engines || status=$?
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
    "contract, local-stack and build tests")
      npm run --silent test -- --project contract --project local-stack --project build \
        --maxWorkers="$vitest_workers"
      ;;
    "unit and gate tests")
      npm run --silent test -- --project unit --project gate-rules --project gate-workerd \
        --maxWorkers="$vitest_workers"
      ;;
    "demo build for the browser suites")
      MOCK_PORT="$E2E_MOCK_PORT" node scripts/build.mjs --demo --out="$E2E_SITE_DIR"
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
ticks_all=$(cpu_ticks)

step "dependencies"
started=$SECONDS
ticks=$(cpu_ticks)
node -e "import('./scripts/lib/ensure-deps.mjs').then((m) => m.ensureDependencies(process.cwd()))"
# The shell remembered where it found `node` before the install put the project's own first.
hash -r
echo "Node $(node --version) ($(command -v node))"
took "dependencies" $((SECONDS - started)) $(($(cpu_ticks) - ticks))

step "browsers"
started=$SECONDS
ticks=$(cpu_ticks)
bash scripts/ensure-chromium.sh
bash scripts/ensure-engines.sh
took "browsers" $((SECONDS - started)) $(($(cpu_ticks) - ticks))

# Vitest runs in two processes, each one file at a time (VITEST_WORKERS sets more per process).
# The files that start Prism, the court stack or a build (contract, local-stack, build) run one
# after another in one: on two cores two of them side by side have failed a start-up bound. The
# components in jsdom and the gate's tests (in Node and in workerd) run in the other, after the
# type check and the builds, beside ESLint and Prettier.
vitest_workers="${VITEST_WORKERS:-1}"
together "contract, local-stack and build tests" \
  "typecheck;demo build for the browser suites;production build and byte budgets;unit and gate tests" \
  "lint;format;openapi lint;generated client is up to date"
step "dependency audit"
started=$SECONDS
ticks=$(cpu_ticks)
# A registry that cannot answer the advisory query is reported loudly, never as a pass; it does
# not stop the other checks, since the project cannot change which registry a machine reaches.
audit_status=0
node scripts/audit.mjs || audit_status=$?
case "$audit_status" in
  0) passed=$((passed + 1)) ;;
  3) audit_note="dependency audit NOT RUN: the registry did not answer the advisory query (see above)" ;;
  *) failed "dependency audit" ;;
esac
took "dependency audit" $((SECONDS - started)) $(($(cpu_ticks) - ticks))
run "browser tests"
run "visitor browser tests in Gecko and WebKit"

print_timings "$started_all" "$ticks_all"
printf '\n'
if [ -n "${audit_note:-}" ]; then
  printf '\033[33mverify: %s\033[0m\n' "$audit_note"
  echo "verify: $passed passed, 0 failed, 1 skipped"
else
  echo "verify: $passed passed, 0 failed"
fi
