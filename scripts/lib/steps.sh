# Steps for `npm run verify` and `npm run check`, sourced by both: each step is named, timed and
# stops the run when it fails. The sourcing script defines run_step NAME, which runs the step.

step() { printf '\n\033[1m== %s ==\033[0m\n' "$1"; }

# The whole machine's busy CPU time so far, in ticks of the kernel's clock (every core's user,
# nice, system, interrupt and steal time from /proc/stat; 0 where there is none). A step's cost
# is the difference across it: what the machine spent meanwhile, the step's own children and
# anything else running, which /usr/bin/time alone would not see (the browsers, workerd).
cpu_ticks() {
  awk '/^cpu /{ print $2 + $3 + $4 + $7 + $8 + $9; found = 1; exit } END { if (!found) print 0 }' \
    /proc/stat 2>/dev/null || echo 0
}
ticks_per_second=$(getconf CLK_TCK 2>/dev/null || echo 100)
# Ticks as CPU-seconds, to a tenth.
cpu_seconds() { awk -v ticks="$1" -v hz="$ticks_per_second" 'BEGIN { printf "%.1f", ticks / hz }'; }

# "seconds<TAB>CPU-seconds<TAB>step" lines, in the order the steps ended, for the closing table.
timings=""
took() {
  local cpu
  cpu=$(cpu_seconds "${3:-0}")
  timings="${timings}$2	${cpu}	$1"$'\n'
  say_took "$1" "$2" "$cpu"
}
say_took() { printf '\033[2m(%s: %s s, %s CPU-s machine-wide)\033[0m\n' "$1" "$2" "$3"; }

passed=0
failed() {
  printf '\n\033[31m%s: step "%s" failed\033[0m\n' "$command_name" "$1" >&2
  echo "$command_name: $passed passed, 1 failed"
  exit 1
}

# Runs one step, timed.
run() {
  local name="$1" started=$SECONDS ticks
  ticks=$(cpu_ticks)
  step "$name"
  run_step "$name" || failed "$name"
  passed=$((passed + 1))
  took "$name" $((SECONDS - started)) $(($(cpu_ticks) - ticks))
}

# Runs lanes of steps side by side, each lane's steps in order ("a;b" is one lane), and prints
# each lane's output once all have ended; a failed step ends its lane, and then the run.
together() {
  local dir lane name seconds cpu pid index=0 pids="" first_failure="" started=$SECONDS ticks
  ticks=$(cpu_ticks)
  dir=$(mktemp -d)
  printf '\n\033[1m== side by side: %s ==\033[0m\n(each output follows when all have ended)\n' \
    "$(printf '%s | ' "$@" | sed 's/ | $//; s/;/, /g')"
  for lane in "$@"; do
    (
      IFS=';'
      for name in $lane; do
        began=$SECONDS
        began_ticks=$(cpu_ticks)
        step "$name"
        if ! run_step "$name"; then
          echo "$name" >"$dir/$index.failed"
          exit 1
        fi
        cpu=$(cpu_seconds $(($(cpu_ticks) - began_ticks)))
        say_took "$name" $((SECONDS - began)) "$cpu"
        printf '%s\t%s\t%s\n' "$name" $((SECONDS - began)) "$cpu" >>"$dir/$index.times"
      done
    ) >"$dir/$index.log" 2>&1 &
    pids="$pids $!"
    index=$((index + 1))
  done
  for pid in $pids; do wait "$pid" || true; done
  for ((lane = 0; lane < index; lane++)); do
    cat "$dir/$lane.log"
    if [ -f "$dir/$lane.times" ]; then
      while IFS=$'\t' read -r name seconds cpu; do
        # Beside other steps: the machine's CPU in its span is theirs too (the block's is the sum).
        timings="${timings}${seconds}	(${cpu})	${name}"$'\n'
        passed=$((passed + 1))
      done <"$dir/$lane.times"
    fi
    if [ -z "$first_failure" ] && [ -f "$dir/$lane.failed" ]; then
      first_failure=$(cat "$dir/$lane.failed")
    fi
  done
  rm -rf "$dir"
  [ -z "$first_failure" ] || failed "$first_failure"
  took "(the steps above, side by side)" $((SECONDS - started)) $(($(cpu_ticks) - ticks))
}

# The closing table: each step's time and the machine's CPU-seconds meanwhile, and the whole run's
# (a step run beside others shows its span's in brackets: it overlaps theirs, so only the side by
# side block's own row adds up). Compare costs on one machine, in one sitting.
print_timings() {
  printf '\n\033[1m== time and machine-wide CPU per step (s, CPU-s) ==\033[0m\n%s' "$timings"
  printf '%s\t%s\t%s\n' "$((SECONDS - ${1:-0}))" "$(cpu_seconds $(($(cpu_ticks) - ${2:-0})))" \
    "the whole run"
}
