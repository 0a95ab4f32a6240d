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

