# Steps for `npm run verify` and `npm run check`, sourced by both: each step is named, timed and
# stops the run when it fails. The sourcing script defines run_step NAME, which runs the step.

step() { printf '\n\033[1m== %s ==\033[0m\n' "$1"; }

# "seconds<TAB>step" lines, in the order the steps ended, for the closing table.
timings=""
took() {
  timings="${timings}$2	$1"$'\n'
  say_took "$1" "$2"
}
say_took() { printf '\033[2m(%s: %s s)\033[0m\n' "$1" "$2"; }

passed=0
failed() {
  printf '\n\033[31m%s: step "%s" failed\033[0m\n' "$command_name" "$1" >&2
  echo "$command_name: $passed passed, 1 failed"
  exit 1
}

# Runs one step, timed.
run() {
  local name="$1" started=$SECONDS
  step "$name"
  run_step "$name" || failed "$name"
  passed=$((passed + 1))
  took "$name" $((SECONDS - started))
}

# Runs lanes of steps side by side, each lane's steps in order ("a;b" is one lane), and prints
# each lane's output once all have ended; a failed step ends its lane, and then the run.
together() {
  local dir lane name seconds pid index=0 pids="" first_failure="" started=$SECONDS
  dir=$(mktemp -d)
  printf '\n\033[1m== side by side: %s ==\033[0m\n(each output follows when all have ended)\n' \
    "$(printf '%s | ' "$@" | sed 's/ | $//; s/;/, /g')"
  for lane in "$@"; do
    (
      IFS=';'
      for name in $lane; do
        began=$SECONDS
        step "$name"
        if ! run_step "$name"; then
          echo "$name" >"$dir/$index.failed"
          exit 1
        fi
        say_took "$name" $((SECONDS - began))
        printf '%s\t%s\n' "$name" $((SECONDS - began)) >>"$dir/$index.times"
      done
    ) >"$dir/$index.log" 2>&1 &
    pids="$pids $!"
    index=$((index + 1))
  done
  for pid in $pids; do wait "$pid" || true; done
  for ((lane = 0; lane < index; lane++)); do
    cat "$dir/$lane.log"
    if [ -f "$dir/$lane.times" ]; then
      while IFS=$'\t' read -r name seconds; do
        timings="${timings}${seconds}	${name}"$'\n'
        passed=$((passed + 1))
      done <"$dir/$lane.times"
    fi
    if [ -z "$first_failure" ] && [ -f "$dir/$lane.failed" ]; then
      first_failure=$(cat "$dir/$lane.failed")
    fi
  done
  rm -rf "$dir"
  [ -z "$first_failure" ] || failed "$first_failure"
  took "(the steps above, side by side)" $((SECONDS - started))
}

# The closing table: each step's time, and the whole run's.
print_timings() {
  printf '\n\033[1m== time per step (s) ==\033[0m\n%s' "$timings"
  printf '%s\t%s\n' "$((SECONDS - ${1:-0}))" "the whole run"
}
