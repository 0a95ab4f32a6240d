#!/usr/bin/env bash
# The fast tier for contributors: formatting, clippy (native and wasm32) and the native tests
# (math against float64 references, the page model, the page's tables, naga, and the GPU kernels
# on lavapipe). A few minutes on a warm tree; `scripts/test.sh` is the full suite (and CI).
# Installs nothing: run `scripts/setup.sh test` once first.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
# shellcheck source=scripts/env.sh
. "$ROOT/scripts/env.sh"
# shellcheck source=scripts/lib.sh
. "$ROOT/scripts/lib.sh"

step "format" cargo fmt --all -- --check
# The panels' modules are declared by a macro from the list of panels, which rustfmt does not
# expand: their folders are checked from their mod.rs files (rustfmt follows their `mod` lines).
step "format (the panels' folders)" bash -c 'rustfmt --edition 2021 --check src/panels/*/mod.rs'
step "clippy (native, all targets)" cargo clippy --workspace --all-targets -- -D warnings
# The page and the training worker in one run, so that the crates both use are checked once (the
# worker's own build, without the page's feature, is compiled by `trunk build` in scripts/test.sh).
step "clippy (wasm32: the page and the training worker)" \
  cargo clippy --target wasm32-unknown-unknown -p pe-lab -p pe-lab-train-worker -p pe-lab-train-panel --lib --tests -- -D warnings
step "native tests" cargo test --workspace
steps_summary
