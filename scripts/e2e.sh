#!/usr/bin/env bash
# The end-to-end tests (tests/e2e/, Playwright driving headless Chromium over the built page in
# PE_LAB_DIST, by default dist/). Every file is its own process with its own server and browser,
# so files can run side by side: PE_LAB_E2E_JOBS at a time (default 2). The files that time the
# page run first, one at a time, since a second browser beside them would be part of what they
# measure (and fail them on a 2-core machine); each holds only its timed tests:
#   api-burst:      2,000 set() calls settle within 2 s;
#   panels-largest: a lesson-only update at the largest sizes within 3 s;
#   train-default-run: the main thread's long tasks while the worker trains (printed; with
#                      PE_LAB_BENCH=1 a gate: none over 50 ms).
# Everything else waits for conditions, not for a time (with the fixture's 90 s for a wait); the
# longest files start first (LONGEST, measured), so that two short ones end the run rather than
# one long one alone.
# Arguments, if any, are the files to run (all of tests/e2e/ by default).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

ALONE=(tests/e2e/api-burst.test.mjs tests/e2e/panels-largest.test.mjs tests/e2e/train-default-run.test.mjs)
# Over a minute each in a full run (SwiftShader's WebGPU, training, every screen size).
LONGEST=(tests/e2e/gpu.test.mjs tests/e2e/panels.test.mjs tests/e2e/train.test.mjs
  tests/e2e/trainer.test.mjs tests/e2e/encodings.test.mjs tests/e2e/a11y.test.mjs)
files=("$@")
if [ ${#files[@]} -eq 0 ]; then
  files=("${LONGEST[@]}")
  for file in tests/e2e/*.test.mjs; do
    case " ${LONGEST[*]} " in
      *" $file "*) ;;
      *) files+=("$file") ;;
    esac
  done
fi

alone=()
together=()
for file in "${files[@]}"; do
  case " ${ALONE[*]} " in
    *" $file "*) alone+=("$file") ;;
    *) together+=("$file") ;;
  esac
done

status=0
if [ ${#alone[@]} -gt 0 ]; then
  node --test --test-concurrency=1 "${alone[@]}" || status=$?
fi
if [ ${#together[@]} -gt 0 ]; then
  node --test --test-concurrency="${PE_LAB_E2E_JOBS:-2}" "${together[@]}" || status=$?
fi
exit "$status"
