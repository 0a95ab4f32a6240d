# Sourced by scripts/check.sh and scripts/test.sh: the steps of a run, each timed.
#   step NAME COMMAND [ARG…]  runs COMMAND as the step NAME, prints its name, then its time;
#   step_beside ID NAME COMMAND [ARG…]
#                             starts COMMAND as the step NAME beside the steps that follow (for a
#                             step that leaves a core idle, such as a build whose last phases are
#                             single-threaded); its output is kept until `step_join ID`, which
#                             prints it and its time, and stops the run if it failed;
#   steps_summary             prints every step's time and the run's total.
# `set -e` in the caller stops the run at the first step that fails.
_steps_tag="$(basename "$0" .sh)"
_steps_started=$SECONDS
_steps_names=()
_steps_times=()

step() {
  local name="$1"
  shift
  printf '\n\033[1;34m[%s] %s\033[0m\n' "$_steps_tag" "$name"
  local started=$SECONDS
  "$@"
  local took=$((SECONDS - started))
  _steps_names+=("$name")
  _steps_times+=("$took")
  printf '\033[1;32m[%s] %s: ok (%ss)\033[0m\n' "$_steps_tag" "$name" "$took"
}

declare -A _beside_pids=() _beside_dirs=() _beside_names=()

# Stops the steps still running beside when the run ends early (a failed step, Ctrl-C): each has
# its own process group, so the tools it started stop too.
_steps_stop_beside() {
  local id
  for id in "${!_beside_pids[@]}"; do
    kill -- "-${_beside_pids[$id]}" 2>/dev/null || true
  done
}

step_beside() {
  local id="$1" name="$2"
  shift 2
  local dir
  dir="$(mktemp -d)"
  printf '\n\033[1;34m[%s] %s: started beside the next steps\033[0m\n' "$_steps_tag" "$name"
  set -m
  (
    started=$(date +%s)
    status=0
    "$@" >"$dir/log" 2>&1 </dev/null || status=$?
    echo $(($(date +%s) - started)) >"$dir/took"
    exit "$status"
  ) &
  set +m
  _beside_pids[$id]=$!
  _beside_dirs[$id]="$dir"
  _beside_names[$id]="$name"
  trap _steps_stop_beside EXIT
}

step_join() {
  local id="$1"
  local name="${_beside_names[$id]}" dir="${_beside_dirs[$id]}" status=0
  wait "${_beside_pids[$id]}" || status=$?
  unset "_beside_pids[$id]"
  printf '\n\033[1;34m[%s] %s (ran beside the steps before); its output:\033[0m\n' "$_steps_tag" "$name"
  cat "$dir/log"
  local took
  took="$(cat "$dir/took")"
  rm -rf "$dir"
  if [ "$status" -ne 0 ]; then
    printf '\033[1;31m[%s] %s: failed (%ss)\033[0m\n' "$_steps_tag" "$name" "$took"
    return "$status"
  fi
  _steps_names+=("$name, beside the steps before")
  _steps_times+=("$took")
  printf '\033[1;32m[%s] %s: ok (%ss)\033[0m\n' "$_steps_tag" "$name" "$took"
}

steps_summary() {
  printf '\n\033[1;32m[%s] all steps passed\033[0m\n' "$_steps_tag"
  local k
  for k in "${!_steps_names[@]}"; do
    printf '[%s] %6ss  %s\n' "$_steps_tag" "${_steps_times[$k]}" "${_steps_names[$k]}"
  done
  printf '[%s] %6ss  total\n' "$_steps_tag" "$((SECONDS - _steps_started))"
}

