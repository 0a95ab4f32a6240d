# Sourced by scripts/check.sh and scripts/test.sh: the steps of a run, each timed.
#   step NAME COMMAND [ARG…]  runs COMMAND as the step NAME, prints its name, then its time;
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

steps_summary() {
  printf '\n\033[1;32m[%s] all steps passed\033[0m\n' "$_steps_tag"
  local k
  for k in "${!_steps_names[@]}"; do
    printf '[%s] %6ss  %s\n' "$_steps_tag" "${_steps_times[$k]}" "${_steps_names[$k]}"
  done
  printf '[%s] %6ss  total\n' "$_steps_tag" "$((SECONDS - _steps_started))"
}

# A step that runs beside the next ones, on the core they leave idle:
#   step_in_background NAME COMMAND [ARG…]  starts COMMAND, its output kept for later;
#   step_wait NAME                          waits for it, prints its output and its time (from
#                                           its start), and fails as it failed.
# A run that stops early stops it too.
declare -A _bg_pids=() _bg_logs=() _bg_started=()
step_in_background() {
  local name="$1"
  shift
  printf '\n\033[1;34m[%s] %s (in the background)\033[0m\n' "$_steps_tag" "$name"
  _bg_logs[$name]="$(mktemp)"
  "$@" >"${_bg_logs[$name]}" 2>&1 &
  _bg_pids[$name]=$!
  _bg_started[$name]=$SECONDS
  trap '_steps_stop_background' EXIT
}

step_wait() {
  local name="$1"
  printf '\n\033[1;34m[%s] %s (waiting for it)\033[0m\n' "$_steps_tag" "$name"
  local status=0
  wait "${_bg_pids[$name]}" || status=$?
  unset "_bg_pids[$name]"
  cat "${_bg_logs[$name]}"
  rm -f "${_bg_logs[$name]}"
  local took=$((SECONDS - _bg_started[$name]))
  if [ "$status" -ne 0 ]; then
    printf '\033[1;31m[%s] %s: failed (%ss)\033[0m\n' "$_steps_tag" "$name" "$took"
    return "$status"
  fi
  _steps_names+=("$name (in the background)")
  _steps_times+=("$took")
  printf '\033[1;32m[%s] %s: ok (%ss)\033[0m\n' "$_steps_tag" "$name" "$took"
}

_steps_stop_background() {
  local pid
  for pid in "${_bg_pids[@]}"; do kill "$pid" 2>/dev/null || true; done
}
