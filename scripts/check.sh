#!/usr/bin/env bash
# The quick loop while editing: `npm run check`. Types, lint and the unit tests (the components
# in jsdom, the scripts' and the gate's rules in plain Node), side by side; no Prism, no workerd,
# no build, no browser. `npm test` runs every Vitest suite; `npm run verify` runs everything.
set -euo pipefail
cd "$(dirname "$0")/.."

command_name=check
# shellcheck source=scripts/lib/steps.sh
source scripts/lib/steps.sh

run_step() {
  case "$1" in
    "typecheck") npm run --silent typecheck ;;
    "lint") npm run --silent lint ;;
    "unit tests") npx vitest run --project unit --project gate-rules ;;
    *)
      echo "check: no step named \"$1\"" >&2
      return 1
      ;;
  esac
}

started_all=$SECONDS
ticks_all=$(cpu_ticks)
together "typecheck" "lint" "unit tests"
print_timings "$started_all" "$ticks_all"
printf '\n%s\n' "check: $passed passed, 0 failed"
