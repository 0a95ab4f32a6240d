#!/usr/bin/env bash
# Runs every test of pe-lab, installing what is missing first (scripts/setup.sh test):
#   1. native (scripts/check.sh): formatting, clippy, `cargo test` (math against float64
#      references, property tests, the page model and tables, GPU kernels on lavapipe);
#   2. browser glue: wasm-bindgen-test in headless Chromium;
#   3. end-to-end: `trunk build --release` served on 127.0.0.1, driven by Playwright; screenshots
#      land in tests/e2e/screenshots/.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

# shellcheck source=scripts/lib.sh
. "$ROOT/scripts/lib.sh"
# shellcheck source=scripts/env.sh
. "$ROOT/scripts/env.sh"
# A CI run on a machine that ran CI before starts from the dependencies that run compiled (what a
# hosted CI's cargo cache does): cargo's build directory is kept outside the clone, one per
# toolchain and Cargo.lock (the others are removed). The clone's own crates are always rebuilt
# (their files are newer than anything kept); registry crates are reused only where cargo's
# fingerprint (version, features, profile, flags) matches. PE_LAB_CARGO_CACHE=0 turns it off.
if [ "${CI:-}" = "true" ] && [ -z "${CARGO_TARGET_DIR:-}" ] && [ "${PE_LAB_CARGO_CACHE:-1}" != 0 ] &&
  command -v rustc >/dev/null 2>&1; then
  cache_key="$({ rustc -vV; cat Cargo.lock; } | sha256sum | cut -c1-16)"
  cache_root="${XDG_CACHE_HOME:-$HOME/.cache}/pe-lab/cargo-target"
  mkdir -p "$cache_root"
  find "$cache_root" -mindepth 1 -maxdepth 1 ! -name "$cache_key" -exec rm -rf {} +
  export CARGO_TARGET_DIR="$cache_root/$cache_key"
  printf '[test] cargo build directory kept between CI runs: %s\n' "$CARGO_TARGET_DIR"
fi
step "set-up (scripts/setup.sh test)" "$ROOT/scripts/setup.sh" test

# A private runtime dir keeps Mesa/Chromium from complaining about a missing XDG_RUNTIME_DIR.
if [ -z "${XDG_RUNTIME_DIR:-}" ] || [ ! -d "$XDG_RUNTIME_DIR" ]; then
  XDG_RUNTIME_DIR="$(mktemp -d)"
  chmod 700 "$XDG_RUNTIME_DIR"
  export XDG_RUNTIME_DIR
fi
export CHROMEDRIVER="${CHROMEDRIVER:-/usr/bin/chromedriver}"

# A CI run builds every crate once from a fresh clone: incremental compilation's caches would only
# cost time and disk there.
if [ "${CI:-}" = "true" ]; then export CARGO_INCREMENTAL=0; fi

# The page's release build runs beside the fast tier and the browser glue: it builds in its own
# profiles' directories (wasm32-unknown-unknown/{web,release} in cargo's build directory), which
# no other step locks, and its last phases (link-time optimisation with one codegen unit,
# wasm-opt) use one core while the tests' builds and runs use the other.
# index.html is assembled from www/page.html and the panels' sections before every build; the
# committed copy, which the native tests read, must be that page.
step "the page assembled from its parts (scripts/page/assemble.mjs --check)" \
  node scripts/page/assemble.mjs --check
step_beside page-build "release build (trunk build --release)" trunk build --release
# Tier 1, the contributors' fast tier: fmt, clippy (native and wasm32), native tests.
step "fast tier (scripts/check.sh)" "$ROOT/scripts/check.sh"
step "browser glue tests (wasm-bindgen-test, headless Chromium)" \
  cargo test --target wasm32-unknown-unknown --test web
step "WGSL kernels in the browser (wasm-bindgen-test, SwiftShader WebGPU)" \
  cargo test -p pe-lab-gpu --target wasm32-unknown-unknown --test web_gpu
step_join page-build
step "end-to-end tests (Playwright, headless Chromium; scripts/e2e.sh)" "$ROOT/scripts/e2e.sh"
steps_summary
